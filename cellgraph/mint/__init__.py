"""`mindspore.mint`: the PyTorch-style API (`dim=`, `keepdim=`, `input`/`other`), written over
cellgraph's operations. Names whose operation cellgraph lacks are absent rather than wrong."""
from __future__ import annotations

import cellgraph.ops as _ops
from cellgraph.ops import functional as _F
from cellgraph.ops.errors import ArgumentValueError

from . import linalg, nn, optim  # noqa: F401  (mint.nn, mint.optim, mint.linalg)

abs, exp, log, sqrt, rsqrt, sin, cos, tan, tanh, sigmoid = (
    _ops.abs, _ops.exp, _ops.log, _ops.sqrt, _ops.rsqrt, _ops.sin, _ops.cos, _ops.tan,
    _ops.tanh, _ops.sigmoid)
neg, reciprocal, square, erf, log1p, expm1, sign = (
    _ops.neg, _ops.reciprocal, _ops.square, _ops.erf, _ops.log1p, _ops.expm1, _ops.sign)
eq, ne, lt, le, gt, ge = _ops.equal, _ops.not_equal, _ops.less, _ops.less_equal, \
    _ops.greater, _ops.greater_equal
maximum, minimum, where, matmul, bmm, outer = (
    _ops.maximum, _ops.minimum, _ops.where, _ops.matmul, _ops.bmm, _ops.outer)
logical_and, logical_or, logical_not = _ops.logical_and, _ops.logical_or, _ops.logical_not
isclose, isnan, isfinite, isinf = _ops.isclose, _ops.isnan, _ops.isfinite, _ops.isinf
zeros_like, ones_like, broadcast_to, arange, linspace, eye = (
    _ops.zeros_like, _ops.ones_like, _ops.broadcast_to, _ops.arange, _ops.linspace, _ops.eye)
flip, roll, unsqueeze, permute, meshgrid = (
    _ops.flip, _ops.roll, _ops.unsqueeze, _ops.permute, _ops.meshgrid)


def _dims(dim):
    return () if dim is None else dim


def _cast(out, dtype):
    return out if dtype is None else _F.cast(out, dtype)


def add(input, other, *, alpha=1):
    return _F.add(input, other if alpha == 1 else _F.mul(other, alpha))


def sub(input, other, *, alpha=1):
    return _F.sub(input, other if alpha == 1 else _F.mul(other, alpha))


def mul(input, other):
    return _F.mul(input, other)


def div(input, other, *, rounding_mode=None):
    if rounding_mode is not None:
        raise ArgumentValueError(f"mint.div: rounding_mode={rounding_mode!r} is not supported")
    return _F.div(input, other)


def pow(input, exponent):
    return _F.pow(input, exponent)


def clamp(input, min=None, max=None):
    return _ops.clamp(input, min, max)


def sum(input, dim=None, keepdim=False, *, dtype=None):
    return _F.reduce_sum(_cast(input, dtype), _dims(dim), keepdim)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    return _F.reduce_mean(_cast(input, dtype), _dims(dim), keepdim)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    return _ops.reduce_prod(_cast(input, dtype), _dims(dim), keepdim)


def max(input, dim=None, keepdim=False):
    """The maximum (no dim), or (values, indices) along `dim`."""
    if dim is None:
        return _F.reduce_max(input)
    return _ops.max(input, dim, keepdim)


def min(input, dim=None, keepdim=False):
    if dim is None:
        return _F.reduce_min(input)
    return _ops.min(input, dim, keepdim)


def argmax(input, dim=None, keepdim=False):
    return _ops.argmax(input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return _ops.argmax(_F.neg(input), dim, keepdim)


def cumsum(input, dim, dtype=None):
    return _ops.cumsum(input, dim, dtype)


def cat(tensors, dim=0):
    return _F.concat(tensors, dim)


concat = cat


def stack(tensors, dim=0):
    return _F.stack(tensors, dim)


def split(tensor, split_size_or_sections, dim=0):
    return _ops.split(tensor, split_size_or_sections, dim)


def chunk(input, chunks, dim=0):
    return _ops.chunk(input, chunks, dim)


def reshape(input, shape):
    return _F.reshape(input, shape)


def flatten(input, start_dim=0, end_dim=-1):
    return _ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def transpose(input, dim0, dim1):
    return _ops.swapaxes(input, dim0, dim1)


def squeeze(input, dim=None):
    return _F.squeeze(input, dim)


def tile(input, dims):
    return _ops.tile(input, dims)


def index_select(input, dim, index):
    return _ops.index_select(input, dim, index)


def softmax(input, dim, *, dtype=None):
    return _F.softmax(_cast(input, dtype), dim)


def zeros(*size, dtype=None):
    return _F.zeros(size[0] if len(size) == 1 else size, dtype)


def ones(*size, dtype=None):
    return _F.ones(size[0] if len(size) == 1 else size, dtype)


def full(size, fill_value, *, dtype=None):
    return _F.full(size, fill_value, dtype)


def empty(*size, dtype=None, device=None):
    """A new tensor of `size` (its values are zeros here, never uninitialised memory)."""
    return zeros(*size, dtype=dtype)


def randn(*size, generator=None, dtype=None):
    return _ops.randn(*size, dtype=dtype)


def rand(*size, generator=None, dtype=None):
    return _ops.rand(*size, dtype=dtype)


# ----- names that are the ops.* function itself ---------------------------------------------------

atan2 = arctan2 = _ops.atan2
acos, acosh, asin, asinh, atan, atanh, cosh, sinh = (
    _ops.acos, _ops.acosh, _ops.asin, _ops.asinh, _ops.atan, _ops.atanh, _ops.cosh, _ops.sinh)
arccos, arccosh, arcsin, arcsinh, arctan, arctanh = acos, acosh, asin, asinh, atan, atanh
ceil, floor, trunc, erfc, erfinv, log2, log10 = (
    _ops.ceil, _ops.floor, _ops.trunc, _ops.erfc, _ops.erfinv, _ops.log2, _ops.log10)
greater, greater_equal, less, less_equal = (
    _ops.greater, _ops.greater_equal, _ops.less, _ops.less_equal)
negative, xlogy, logaddexp, lerp, remainder = (
    _ops.neg, _ops.xlogy, _ops.logaddexp, _ops.lerp, _ops.floor_mod)
bitwise_and, bitwise_or, bitwise_xor = _ops.bitwise_and, _ops.bitwise_or, _ops.bitwise_xor
masked_fill, masked_select, nan_to_num, searchsorted = (
    _ops.masked_fill, _ops.masked_select, _ops.nan_to_num, _ops.searchsorted)
einsum, inverse, trace, tril, triu, unbind, nonzero, swapaxes, narrow = (
    _ops.einsum, _ops.inverse, _ops.trace, _ops.tril, _ops.triu, _ops.unbind, _ops.nonzero,
    _ops.swapaxes, _ops.narrow)
full_like, bincount, addmm = _ops.full_like, _ops.bincount, _ops.addmm
divide, fix = div, _ops.trunc


from ._tensor_ops import *  # the adapters whose arguments or results differ from ops'

__all__ = sorted(n for n in dir() if not n.startswith("_") and n != "annotations")  # noqa: PLE0605
