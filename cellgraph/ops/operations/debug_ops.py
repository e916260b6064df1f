"""MindSpore's `ops.operations.debug_ops`: `Print`, which prints every time a graph runs, and
`Morph`, a user function used as a primitive."""
from __future__ import annotations

import inspect
import sys

import numpy as np

from cellgraph._checkparam import check_value_type
from cellgraph.compiler.builder import current_builder
from cellgraph.compiler.custom import custom_vjp_function_call
from cellgraph.compiler.py_func_op import HostCall, py_func_p
from cellgraph.compiler.scope import is_user_function
from cellgraph.ops.function.array_func.attributes import is_tensor
from cellgraph.ops.function.debug_func import print_
from cellgraph.ops.primitive import (
    PrimitiveWithInfer,
    _check_declared,
    _declared,
    prim_attr_register,
)
from cellgraph.ops.primitive_class import PrimitiveClass
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import TensorType, abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.transform import user_loc

__all__ = ["Assert", "Morph", "Print"]


class Morph(PrimitiveWithInfer):
    """`ops.Morph(fn, infer_shape, infer_dtype, bprop_fn=None)`: applying it applies `fn`,
    parsed into the graph as construct is, so that it is differentiated as the code it is (or
    by `bprop_fn(*inputs, out, dout)` when given). Graph mode only, as in MindSpore; what `fn`
    returns must agree with `infer_shape`/`infer_dtype` on the positional inputs."""

    @prim_attr_register
    def __init__(self, fn, infer_shape, infer_dtype, bprop_fn=None):
        self._infer_shape = infer_shape
        self._infer_dtype = infer_dtype
        self.__morph_fn__ = fn
        self.__morph_bprop_fn__ = None
        if bprop_fn:
            _check_fn_supported(fn)
            self.__morph_bprop_fn__ = bprop_fn

    def infer_shape(self, *args):
        return self._infer_shape(*args)

    def infer_dtype(self, *args):
        return self._infer_dtype(*args)

    def __call__(self, *args, **kwargs):
        if current_builder() is None:
            raise RuntimeError("Morph is only supported in GRAPH_MODE.")
        fn, bprop_fn = self.__morph_fn__, self.__morph_bprop_fn__
        if bprop_fn is not None:
            return custom_vjp_function_call("Morph", fn, bprop_fn, args, kwargs)
        declared = _declared(self, args)
        if is_user_function(fn):
            from cellgraph.compiler.frontend import Interpreter

            out = Interpreter.call_function(fn, args, kwargs)
        else:
            out = fn(*args, **kwargs)
        _check_declared(self, declared, out)
        return out


def _check_fn_supported(fn) -> None:
    """With a bprop, `fn` takes only positional-or-keyword parameters without defaults."""
    for param in inspect.signature(fn).parameters.values():
        if not (param.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
                and param.default is inspect.Parameter.empty):
            raise ValueError(f"When use `bprop` in Morph, Morph `fn` only support positional or "
                             f"keyword parameters with default value is empty, but got param "
                             f"'{param.name}' of kind '{param.kind.name}' with default value "
                             f"'{param.default}'.")


class Print(PrimitiveClass):
    """`ops.Print()(*values)`: inside a graph, an effectful node that prints every time the
    graph runs, constants included (unlike the built-in `print` of constants in construct,
    which prints once while compiling, as MindSpore's does); outside, it prints at once."""

    def __call__(self, *args):
        return print_(*args)

    def __repr__(self) -> str:
        return "Print()"


def _element_text(value) -> str:
    """One element as C++'s stream prints it (6 significant digits, no trailing zeros)."""
    if isinstance(value, (bool, np.bool_)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return format(float(value), ".6g")
    return str(value)


def _assert_on_host(summarize: int):
    def check(condition, *data):
        if bool(np.asarray(condition).reshape(-1)[0]):
            return np.zeros(1, np.int32)
        lines = ["For 'Assert' condition is false."]
        for array in data:
            shown = np.asarray(array).reshape(-1)[:summarize]
            lines.append("input data: [" + " ".join(_element_text(v) for v in shown) + "]")
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()
        raise RuntimeError("assert failed")

    return check


class Assert(PrimitiveClass):
    """`ops.Assert(summarize=3)(condition, input_data)`: when the bool `condition` (a bool or a
    one-element bool Tensor) is False where it runs, print MindSpore's message and the first
    `summarize` elements of each Tensor of `input_data`, then raise RuntimeError("assert
    failed"); otherwise an int32 Tensor [0]. In a graph it checks each time the graph runs."""

    def __init__(self, summarize=3):
        self.summarize = check_value_type("summarize", summarize, [int], "Assert")
        self._attrs = {"summarize": summarize}

    def __call__(self, condition, input_data):
        from cellgraph.runtime.tensor import Tensor

        if isinstance(condition, bool):
            condition = Tensor(np.array(condition))
        kind = abstract_of(condition).dtype if is_tensor(condition) else type(condition).__name__
        if kind != dt.bool_:
            shown = kind if isinstance(kind, dt.DType) else kind.capitalize() + \
                ("64" if kind in ("int", "float") else "")
            raise DTypeError(f"For 'Assert', the type of 'condition' must be in "
                             f"[{dt.bool_!r}], but got {shown}.")
        size = int(np.prod(abstract_of(condition).shape))
        if size != 1:
            raise ArgumentValueError(f"For 'Assert', the 'condition[0]' must be int and must = 1, "
                                     f"but got '{size}' with type 'int'.")
        if not isinstance(input_data, (tuple, list)) or not all(is_tensor(v) for v in input_data):
            raise DTypeError(f"For 'Assert', the 'input_data' must be a tuple or list of "
                             f"Tensors, but got {type(input_data).__name__}.")
        operands = (condition, *input_data)
        call = HostCall(_assert_on_host(self.summarize), "Assert",
                        tuple(range(len(operands))), (TensorType((1,), dt.int32),), True,
                        user_loc())
        return py_func_p(*operands, call=call)[0]
