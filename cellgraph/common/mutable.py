"""`mutable(value)`: mark a Python scalar (or the scalars inside a tuple, list or dict) as a
graph input that varies between calls, instead of a constant the graph is specialised on.

A mutable number stays a number to Python (an int, float or bool subclass that carries the
mark, MindSpore's `_Int`, `_Float`, `_Bool`); a compiled graph it is passed to takes it as an
input (int64 for ints, float32 for floats, bool for bools) that reads as a variable scalar, so
calls with other values reuse the graph, a number the graph computes from it comes back as a
Python number, and gradients can be taken with respect to it. Tensors pass through unchanged;
containers keep their structure. With `dynamic_len=True`, a tuple or list whose elements share one shape and
dtype is accepted, and each length gets its own specialisation (graphs here are specialised on
the structure of their inputs). Inside a graph, as in MindSpore, the elements of a dynamic-length
sequence must be of one type (all ints, all Tensors of one dtype, ...), and it is a sequence
whose length is known only when the graph runs (compiler/dynamic_sequence.py: `len` of it, its
`count` and `index` are variable ints); outside one any elements are accepted. Inside a graph a
mutable number is a variable scalar (a number known only at run time, which `isinstance` takes
for an int, float or bool), as MindSpore's is.
"""
from __future__ import annotations

import inspect
import numbers

import numpy as np

from cellgraph.compiler.builder import Tracer, current_builder, is_constant_argument, is_tensor_like
from cellgraph.compiler.dynamic_dims import set_dims_p
from cellgraph.compiler.dynamic_sequence import (
    RuntimeSequence,
    dynamic_length_argument,
    one_shape,
    representable,
    variable_scalar,
)
from cellgraph.compiler.pytree import MutableDict, MutableList, MutableTuple, mutable_number
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Tensor

__all__ = ["mutable"]


def mutable(*args, **kwargs):
    """`input_data` with every scalar made a graph input (see the module docstring)."""
    if current_builder() is not None and len(args) + len(kwargs) not in (1, 2):
        # (inside a graph mutable is MindSpore's operator, which counts its inputs)
        raise RuntimeError(f"For 'mutable', the number of inputs should be 1 or 2, but got "
                           f"{len(args) + len(kwargs)}")
    input_data, dynamic_len = _bind(*args, **kwargs)  # Python's TypeError for another call
    if isinstance(input_data, RuntimeSequence):  # already of dynamic length (in a graph)
        if not dynamic_len:
            raise RuntimeError("For 'mutable', can not convert a dynamic length sequence to "
                               "constant length.")
        return input_data
    if not _valid_elements(input_data, set()) and current_builder() is not None:
        # (inside a graph MindSpore names the element it cannot take; no value there can
        # contain itself)
        bad = _first_invalid(input_data)
        raise DTypeError(f"For 'mutable', the 'input_data' should be one of (bool, int, float, "
                         f"Tensor, tuple, list, dict) or their nested structures, but got "
                         f"{type(bad).__name__}: {_shown(bad)}")
    if not _valid_elements(input_data, set()):
        raise DTypeError(f"For 'mutable', the 'input_data' should be one of (bool, int, float, "
                         f"Tensor, tuple, list, dict) or their nested structures with no "
                         f"self-reference, but got {type(input_data).__name__}: "
                         f"{_shown(input_data)}.")
    if not isinstance(dynamic_len, bool):  # (MindSpore names the first input's type)
        raise DTypeError(f"For 'mutable', the second input should be bool, but got: "
                         f"{type(input_data).__name__}")
    if dynamic_len:
        if not isinstance(input_data, (tuple, list)):
            kind = "Tensor" if is_tensor_like(input_data) else type(input_data).__name__
            raise DTypeError(f"For 'mutable', when the variable_len is True, the first input "
                             f"should be list or tuple, but got: {kind}")
        if current_builder() is not None:
            _check_same_kind(input_data)
            if one_shape(input_data) and representable(input_data):
                return RuntimeSequence.of(input_data)
            # Tensors of different shapes, elements of other kinds (lists, ...): kept by
            # position (the graph has each one's type)
    if current_builder() is not None:
        return _in_graph(input_data)
    if dynamic_len:  # a graph it is passed to takes it as a dynamic-length sequence
        return dynamic_length_argument(_as_variable(input_data), input_data)
    out = _as_variable(input_data)
    if isinstance(out, (MutableTuple, MutableList, MutableDict)):  # MindSpore's marks
        out.__ms_origin_object__, out.__ms_dynamic_len__ = input_data, False
    return out


def _bind(input_data, dynamic_len=False):
    return input_data, dynamic_len


# the arguments bind as mutable's own would, with Python's messages naming it
_bind.__name__ = _bind.__qualname__ = "mutable"
mutable.__signature__ = inspect.signature(_bind)


def _valid_elements(value, seen: set) -> bool:
    """Numbers and Tensors, nested in tuples, lists and dicts that do not contain themselves."""
    if isinstance(value, (tuple, list, dict)):
        if id(value) in seen:
            return False
        seen.add(id(value))
        items = value.values() if isinstance(value, dict) else value
        ok = all(_valid_elements(v, seen) for v in items)
        seen.discard(id(value))
        return ok
    return (isinstance(value, (Tracer, Tensor)) or is_tensor_like(value) and not isinstance(
        value, np.ndarray)) or (isinstance(value, numbers.Real) and not isinstance(
            value, np.generic))


def _first_invalid(value):
    """The first element of `value` (in order, depth first) that mutable cannot take."""
    if isinstance(value, (tuple, list, dict)):
        for item in value.values() if isinstance(value, dict) else value:
            bad = _first_invalid(item)
            if bad is not None:
                return bad
        return None
    return None if _valid_elements(value, set()) else value


def _shown(value) -> str:
    try:
        return repr(value)
    except RecursionError:  # a list holding itself
        return "[...]"


def _in_graph(value):
    """Inside a graph, a number becomes a variable scalar (a number known only at run time, as
    MindSpore's), not a Tensor."""
    if isinstance(value, numbers.Number) and not isinstance(value, complex):
        return variable_scalar(value)
    if isinstance(value, (tuple, list)):
        items = [_in_graph(v) for v in value]
        return MutableList(items) if isinstance(value, list) else MutableTuple(items)
    if isinstance(value, dict):
        return MutableDict((k, _in_graph(v)) for k, v in value.items())
    if is_tensor_like(value) and not isinstance(value, Tracer):  # a constant Tensor: its
        return set_dims_p(value, shape=tuple(value.shape))  # value known only at run time
    if isinstance(value, Tracer) and is_constant_argument(value):  # a `const_arg` input: a
        return set_dims_p(value, shape=tuple(value.aval.shape))  # variable from here on
    return _as_variable(value)


def _as_variable(value):
    if isinstance(value, Tensor):  # MindSpore's: a mutable Tensor is not a constant, and is
        return value.set_const_arg(False)._mark_mutable()  # marked (`__ms_origin_object__`)
    if isinstance(value, Tracer):
        return value
    if isinstance(value, numbers.Number) and not isinstance(value, complex):
        return mutable_number(value)
    if isinstance(value, (tuple, list)):
        items = [_as_variable(v) for v in value]
        return MutableList(items) if isinstance(value, list) else MutableTuple(items)
    if isinstance(value, dict):
        return MutableDict((k, _as_variable(v)) for k, v in value.items())
    raise DTypeError(f"mutable: expected a Tensor, a scalar, or a tuple, list or dict of them, "
                    f"got {type(value).__name__} {value!r:.60}")


def _kind(value) -> str:
    """MindSpore's name for an element's type in its messages."""
    if is_tensor_like(value):
        return "Tensor"
    if isinstance(value, bool):
        return "Bool"
    plain = next((c for c in (list, tuple, dict) if isinstance(value, c)), type(value))
    return plain.__name__


def _check_same_kind(items) -> None:
    """The elements of a dynamic-length sequence in a graph: one type, and Tensors one dtype."""
    for i, item in enumerate(items[1:], 1):
        first, kind = _kind(items[0]), _kind(item)
        if first != kind:
            raise ArgumentValueError(
                f"In graph mode, the element type of dynamic length array must be the same.The "
                f"element type do not match, can not convert to dynamic length sequence. The 0th "
                f"element type is: {first}. The {i}th element type is: {kind}")
        if kind == "Tensor" and item.dtype != items[0].dtype:
            raise DTypeError(
                f"In graph mode, the element shape of dynamic length array must be the same.The "
                f"element do not match, can not convert to dynamic length sequence. The 0th "
                f"element is: Tensor[{items[0].dtype}]. The {i}th element shape is: "
                f"Tensor[{item.dtype}]")
