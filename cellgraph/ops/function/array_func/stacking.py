"""Raising ranks, stacking and splitting along the named axes (`atleast_1d`, `atleast_2d`,
`atleast_3d`, `dstack`, `row_stack`, `hsplit`, `vsplit`, `dsplit`), `reverse` and
`sequence_mask`, with MindSpore's checks."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.ops.function.array_func.attributes import _const, _tensor, is_tensor
from cellgraph.ops.function.array_func.shape import flip, tensor_split, vstack
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "dsplit", "dstack", "hsplit", "reverse",
           "row_stack", "sequence_mask", "vsplit"]


def _each(op: str, inputs, raise_rank):
    """raise_rank of a Tensor, or a tuple of it over each Tensor of a list or tuple."""
    if is_tensor(inputs):
        return raise_rank(inputs, abstract_of(inputs))
    for tensor in inputs:
        if not is_tensor(tensor):
            raise DTypeError(f"For '{op}', each element of 'inputs' must be a tensor, but got "
                             f"{type(tensor)}")
    return tuple(raise_rank(t, abstract_of(t)) for t in inputs)


def _leading_ones(x, aval, rank: int):
    return x if aval.ndim >= rank else F.reshape(x, (1,) * (rank - aval.ndim) + tuple(aval.shape))


def _three(x, aval):
    """MindSpore's and NumPy's rank 3: () -> (1, 1, 1), (n,) -> (1, n, 1), (m, n) -> (m, n, 1)."""
    if aval.ndim == 0:
        return F.reshape(x, (1, 1, 1))
    if aval.ndim == 1:
        return F.reshape(x, (1, aval.shape[0], 1))
    if aval.ndim == 2:
        return F.reshape(x, tuple(aval.shape) + (1,))
    return x


def atleast_1d(inputs):
    """Each Tensor with rank at least 1 (a 0-d one becomes (1,))."""
    return _each("atleast_1d", inputs, lambda x, aval: _leading_ones(x, aval, 1))


def atleast_2d(inputs):
    """Each Tensor with rank at least 2, ones prepended to its shape."""
    return _each("atleast_2d", inputs, lambda x, aval: _leading_ones(x, aval, 2))


def atleast_3d(inputs):
    """Each Tensor with rank at least 3: (n,) becomes (1, n, 1), (m, n) becomes (m, n, 1)."""
    return _each("atleast_3d", inputs, _three)


def _sequence(op: str, tensors, name: str = "tensors"):
    if not isinstance(tensors, (tuple, list)):
        raise DTypeError(f"For '{op}', '{name}' must be list or tuple of tensors, but got "
                         f"{type(tensors)}")
    if not tensors:
        raise DTypeError(f"For '{op}', '{name}' can not be empty.")
    for tensor in tensors:
        if not is_tensor(tensor):
            raise DTypeError(f"For '{op}', each elements of '{name}' must be Tensor, but got "
                             f"{type(tensor)}")
    return tuple(tensors)


def dstack(tensors):
    """The Tensors joined along their third axis, each first raised to rank 3 (atleast_3d)."""
    tensors = _sequence("dstack", tensors)
    return F.concat(tuple(_three(t, abstract_of(t)) for t in tensors), 2)


def row_stack(tensors):
    """`vstack`: the Tensors joined along their first axis, 1-D ones as rows."""
    return vstack(_sequence("vstack", tensors))


def _split(op: str, input, indices_or_sections, axis: int, rank: int):
    if not is_tensor(input):
        raise DTypeError(f"expect `x` is a Tensor, but got {type(input)}")
    ndim = abstract_of(input).ndim
    if ndim < rank:
        raise ArgumentValueError(f"{op} expect `x` is a Tensor with at least {rank} dimension, "
                                 f"but got {ndim}")
    return tensor_split(input, indices_or_sections, axis)


def hsplit(input, indices_or_sections):
    """`tensor_split` along axis 1 (the input has at least 2 axes)."""
    return _split("hsplit", input, indices_or_sections, 1, 2)


def vsplit(input, indices_or_sections):
    """`tensor_split` along axis 0."""
    return _split("vsplit", input, indices_or_sections, 0, 1)


def dsplit(input, indices_or_sections):
    """`tensor_split` along axis 2 (the input has at least 3 axes)."""
    return _split("dsplit", input, indices_or_sections, 2, 3)


def reverse(x, axis):
    """x with the order of its elements reversed along each axis of `axis` (`flip`)."""
    return flip(x, axis)


def sequence_mask(lengths, maxlen=None):
    """mask[..., j] = j < lengths[...], over j < maxlen (by default the largest length: then
    the graph is specialised on the lengths' values, which set the result's shape)."""
    aval = _tensor(lengths, "sequence_mask", "lengths")
    if aval.dtype not in (dt.int32, dt.int64):
        raise DTypeError(f"For 'sequence_mask', the 'lengths' must be a Tensor of int32 or "
                         f"int64, but got {aval.dtype}.")
    if maxlen is None:
        values = value_input(lengths, "sequence_mask", "lengths")
        maxlen = int(np.max(values)) if values.size else 0
    elif isinstance(maxlen, bool) or not isinstance(maxlen, numbers.Integral) or maxlen <= 0:
        raise ArgumentValueError(f"For 'sequence_mask', the 'maxlen' must be a positive int, but "
                                 f"got {maxlen!r}.")
    steps = _const(np.arange(max(int(maxlen), 0), dtype=aval.dtype.np), aval.dtype)
    return F.less(steps, F.expand_dims(lengths, -1))
