"""Order statistics and sums along an axis: `quantile`, `nanquantile`, `nanmedian`, `trapz`,
and the distances `dist` and `vecdot`, with MindSpore's checks. Quantiles interpolate linearly
between the sorted values (NumPy's and PyTorch's default); `quantile` gives NaN for a slice
holding a NaN, `nanquantile` skips NaNs (NaN for a slice of NaNs only)."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.ops.function.array_func.attributes import _const, _tensor, is_tensor
from cellgraph.ops.function.array_func.shape import slice_along
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of, normalize_axis
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

__all__ = ["dist", "nanmedian", "nanquantile", "quantile", "trapz", "vecdot"]


def _ops():
    from cellgraph import ops

    return ops


def _quantile(op: str, input, q, axis, keepdims, skip_nan: bool):
    aval = _tensor(input, op, "input")
    if aval.dtype not in (dt.float32, dt.float64):
        raise DTypeError(f"For '{op}', the dtype of 'input' must be float32 or float64, but got "
                         f"{aval.dtype}.")
    if axis is not None and (isinstance(axis, bool) or not isinstance(axis, numbers.Integral)):
        raise DTypeError(f"For '{op}', the type of 'axis' must be int, but got "
                         f"{type(axis).__name__}.")
    if not isinstance(keepdims, bool):
        raise DTypeError(f"For '{op}', the type of 'keepdims' must be bool, but got "
                         f"{type(keepdims).__name__}.")
    ops = _ops()
    if is_tensor(q):
        if abstract_of(q).ndim > 1:
            raise ArgumentValueError(f"For '{op}', the input q must be a scalar or 1D tensor, "
                                     f"but got dimension = {abstract_of(q).ndim}.")
        qs, scalar_q = F.cast(q, aval.dtype), abstract_of(q).ndim == 0
    elif isinstance(q, numbers.Real) and not isinstance(q, bool):
        if not 0 <= q <= 1:
            raise ArgumentValueError(f"For '{op}', the input q must be in the range [0, 1], but "
                                     f"got {q}.")
        qs, scalar_q = _const(np.asarray(q, aval.dtype.np), aval.dtype), True
    else:
        raise DTypeError(f"For '{op}', the type of 'q' must be float or Tensor, but got "
                         f"{type(q).__name__}.")
    x = F.reshape(input, (-1,)) if axis is None else input
    ax = 0 if axis is None else normalize_axis(axis, aval.ndim)
    x = ops.moveaxis(x, ax, -1)
    ordered = ops.sort(x, -1)[0]  # NaNs last
    length = abstract_of(x).shape[-1]
    nans = ops.isnan(x)
    if skip_nan:
        count = F.cast(F.reduce_sum(F.cast(F.logical_not(nans), dt.int32), -1, True), aval.dtype)
    else:
        count = F.add(F.zeros_like(F.reduce_sum(ordered, -1, True)), float(length))
    qs = F.reshape(qs, (-1,))                       # (Q,)
    position = F.mul(F.maximum(F.sub(count, 1.0), 0.0), qs)  # (..., Q)
    low = ops.floor(position)
    high = F.minimum(ops.ceil(position), F.maximum(F.sub(count, 1.0), 0.0))
    lo_values = ops.gather_elements(ordered, -1, F.cast(low, dt.int64))
    hi_values = ops.gather_elements(ordered, -1, F.cast(high, dt.int64))
    out = F.add(lo_values, F.mul(F.sub(hi_values, lo_values), F.sub(position, low)))
    empty = F.equal(count, 0.0) if skip_nan else ops.any(nans, -1, True)
    out = F.select(F.broadcast_to(empty, abstract_of(out).shape),
                   F.add(F.zeros_like(out), float("nan")), out)
    out = ops.moveaxis(out, -1, 0)  # (Q, ...)
    if keepdims:
        out = F.expand_dims(out, ax + 1) if axis is not None else F.reshape(
            out, (abstract_of(out).shape[0],) + (1,) * aval.ndim)
    return F.reshape(out, abstract_of(out).shape[1:]) if scalar_q else out


def quantile(input, q, axis=None, keepdims=False):
    """The q-th quantiles along `axis` (of all elements when None); a 1-D `q` puts its
    quantiles on a new first axis."""
    return _quantile("quantile", input, q, axis, keepdims, False)


def nanquantile(input, q, axis=None, keepdims=False):
    """`quantile` of the elements that are not NaN."""
    return _quantile("nanquantile", input, q, axis, keepdims, True)


def nanmedian(input, axis=-1, keepdims=False):
    """(the median of the elements that are not NaN along `axis`, its index): the lower of the
    two middle values for an even count."""
    return _ops().Median(global_median=False, axis=axis, keep_dims=keepdims,
                         ignore_nan=True)(input)


def trapz(y, x=None, *, dx=1.0, dim=-1):
    """The integral of y along `dim` by the trapezoidal rule, at sample points `x` (spaced `dx`
    apart when None)."""
    if not is_tensor(y):
        raise DTypeError(f"For `trapz`, the input `y` must be Tensor, but get {type(y)}.")
    if not isinstance(dx, float):
        raise DTypeError(f"For `trapz`, the input `dx` must be float, but get f{type(dx)}.")
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise DTypeError(f"For `trapz`, the input `dim` must be int, but get {type(dim)}.")
    aval = abstract_of(y)
    if not aval.dtype.is_float:
        y = F.cast(y, dt.float32)
    if not -aval.ndim <= dim < aval.ndim:
        raise ArgumentValueError(f"For `trapz`, the dim must be in range [{-aval.ndim}, "
                                 f"{aval.ndim}), but got {dim}.")
    n = aval.shape[dim]
    head, tail = slice_along(y, dim, 0, n - 1), slice_along(y, dim, 1, n - 1)
    heights = F.mul(F.add(head, tail), 0.5)
    if x is None:
        return F.mul(F.reduce_sum(heights, dim), dx)
    if not is_tensor(x):
        raise DTypeError(f"For `trapz`, the input `x` must be Tensor, but get {type(x)}.")
    x = F.cast(x, dt.float32)
    if abstract_of(x).ndim == 1:
        widths = F.sub(x[1:], x[:-1])
        shape = [1] * aval.ndim
        shape[dim] = n - 1
        widths = F.reshape(widths, tuple(shape))
    else:
        widths = F.sub(slice_along(x, dim, 1, n - 1), slice_along(x, dim, 0, n - 1))
    return F.reduce_sum(F.mul(heights, widths), dim)


def dist(input, other, p=2):
    """The p-norm of input - other, flattened."""
    for name, value in (("input", input), ("other", other)):
        if not is_tensor(value):
            raise DTypeError(f"For 'dist', '{name}' must be a tensor, but got {type(value)}")
    z = F.sub(input, other)
    if abstract_of(z).ndim == 0:
        return F.abs(z)
    return _ops().LpNorm(axis=0, p=p)(F.reshape(z, (-1,)))


def vecdot(x, y, *, axis=-1):
    """sum(conj(x) * y) along `axis`."""
    if not is_tensor(x) or not is_tensor(y):
        raise DTypeError("For vecdot, x or y must be Tensor.")
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise DTypeError(f"For vecdot, the dim should be int, but got {type(axis)}.")
    ndim = max(abstract_of(x).ndim, abstract_of(y).ndim)
    if not -ndim <= axis < ndim:
        raise ArgumentValueError("For vecdot, the dim is out of range.")
    if abstract_of(x).dtype.is_complex:
        x = _ops().conj(x)
    return F.reduce_sum(F.mul(x, y), axis)
