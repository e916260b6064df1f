"""What a Tensor is: `is_tensor`, `size`, `rank`, and the helpers the compositions share
(a static shape, a constant made when the graph is built, a value known when it is built)."""
from __future__ import annotations

import math
import numbers

import numpy as np

from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import abstract_of, is_value, running_eagerly, value_input
from cellgraph.primitives.errors import DTypeError
from cellgraph.runtime.tensor import Tensor

__all__ = ["deepcopy", "dyn_shape", "is_nonzero", "is_tensor", "rank", "size"]


def _const(values: np.ndarray, dtype):
    """A constant tensor: the cast primitive applied to a NumPy array gives a Tensor eagerly
    and a folded constant in a graph, so the ops layer needs no Tensor class of its own."""
    return A.cast(np.asarray(values), dtype=dt.as_dtype(dtype))


def _ndim(x) -> int:
    return abstract_of(x).ndim


def _shape(x) -> tuple:
    return tuple(abstract_of(x).shape)


def is_tensor(obj) -> bool:
    """Whether `input` is a Tensor (a Parameter, or a graph value standing for one)."""
    return is_value(obj) and not isinstance(obj, numbers.Number | np.generic)


def _tensor(x, op: str, what: str = "input"):
    if not is_tensor(x):
        raise DTypeError(f"{op}: expected a Tensor for `{what}`, got {type(x).__name__} "
                         f"{x!r:.60}")
    return abstract_of(x)


def size(input_x) -> int:
    """The number of elements, a Python int (known while compiling)."""
    return math.prod(_tensor(input_x, "size", "input_x").shape)


def rank(input_x) -> int:
    """The number of dimensions, a Python int."""
    return _tensor(input_x, "rank", "input_x").ndim


def deepcopy(input_x):
    """A copy of `input_x` (`ops.deepcopy`): new data outside a graph; inside one the value
    itself, which no later operation changes in place. Its gradient passes through."""
    _tensor(input_x, "deepcopy", "input_x")
    return input_x.copy()


def is_nonzero(input):
    """Whether the one element of `input` is not zero (False, 0, 0.0 are zero): a Python bool
    outside a graph, a 0-d bool Tensor inside one (known when the graph runs)."""
    from cellgraph.runtime.tensor import Tensor

    if not is_tensor(input):
        raise TypeError(f"For is_nonzero, the input must be a Tensor, but got {type(input)}.")
    numel = math.prod(abstract_of(input).shape)
    if numel != 1:
        raise ValueError(f"For is_nonzero, the numel of input must be 1, but got {numel}.")
    out = A.cast(A.reshape(input, shape=()), dtype=dt.bool_)
    return bool(out.asnumpy()) if isinstance(out, Tensor) else out


def known(value, what: str, op: str):
    """The values of a value input (a Python number or sequence, a Tensor whose values are
    known now, or one passed to the graph being built: core.value_input) as a NumPy array; a
    value computed inside a graph cannot size a result."""
    return value_input(value, op, what)


def identity(x):
    """The x, unchanged (`ops.identity`, `ops.Identity()`): in a graph the value itself,
    outside graphs a new Tensor holding a copy of its elements, as MindSpore's kernel gives."""
    if running_eagerly() and isinstance(x, Tensor):
        return Tensor.copy(x)
    return x


def shape(input_x) -> tuple:
    """The shape of a Tensor, a tuple (`ops.shape`, `F.shape`): ints, and inside a graph, for
    a size known only when it runs (after `unique`, or an input declared with None), a
    variable scalar read then, as MindSpore's graphs give it."""
    if not is_value(input_x) or isinstance(input_x, (numbers.Number, np.ndarray)):
        raise DTypeError(f"For primitive[Shape], the input argument must be Tensor, but got "
                         f"{type(input_x)}.")
    if None not in tuple(input_x.shape):
        return tuple(input_x.shape)
    from cellgraph.compiler.dynamic_sequence import runtime_shape

    return runtime_shape(input_x)


def dtype(x):
    """The dtype of a Tensor, CSRTensor or COOTensor (`F.dtype`); inside a graph a Python
    number's too (bool, int64 or float32, as MindSpore's graph mode types constants). Anything
    else is a TypeError, as in MindSpore."""
    if is_tensor(x) or type(x).__name__ in ("CSRTensor", "COOTensor"):
        return x.dtype
    if isinstance(x, numbers.Number) and not running_eagerly():
        if isinstance(x, (bool, np.bool_)):
            return dt.bool_
        return dt.int64 if isinstance(x, numbers.Integral) else dt.float32
    raise DTypeError(f"For Primitive[Dtype], the input argument[input_x] must be a Tensor, "
                     f"CSRTensor or COOTensor, but got {type(x)}.")


def dyn_shape(input_x):
    """`ops.dyn_shape`: the shape of `input_x` as a 1-d int64 Tensor, read when the graph runs
    (so dimensions unknown until then are included)."""
    from cellgraph.primitives.dynamic_ops import shape_of

    if not is_tensor(input_x):
        raise DTypeError(f"For 'TensorShape', the input must be a Tensor, but got "
                         f"{type(input_x).__name__}.")
    return shape_of(input_x)


def tensor_shape(input_x):
    """The shape as a 1-d int64 Tensor: a constant where the graph knows every dimension,
    else read when it runs (after an operation whose result size depends on the data)."""
    from cellgraph.runtime.tensor import Tensor

    if any(d is None for d in input_x.shape):
        return dyn_shape(input_x)
    return Tensor(list(input_x.shape), dt.int64)
