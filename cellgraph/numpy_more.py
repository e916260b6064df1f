"""More of `mindspore.numpy`, over the functional ops and the composite ones (flip, roll, norm,
isclose, ...); `cellgraph.numpy` re-exports everything here. Elementwise functions follow the
module's rules: integer input to a float function is computed in float32."""
from __future__ import annotations

import itertools
import numbers

import numpy as onp

import cellgraph.ops as P
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.core import normalize_axis
from cellgraph.primitives.errors import UnsupportedError
from cellgraph.runtime.tensor import Tensor

from .numpy import _binary, _cast, _dtype, _unary, asarray, float32, int32

__all__ = [
    "arccos",
    "arccosh",
    "arcsin",
    "arcsinh",
    "arctan",
    "arctan2",
    "arctanh",
    "average",
    "ceil",
    "clip",
    "cosh",
    "count_nonzero",
    "cross",
    "diag",
    "equal",
    "expm1",
    "flip",
    "floor",
    "greater",
    "greater_equal",
    "hstack",
    "isclose",
    "isnan",
    "less",
    "less_equal",
    "logaddexp",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "meshgrid",
    "moveaxis",
    "norm",
    "not_equal",
    "pad",
    "randn",
    "reciprocal",
    "roll",
    "sign",
    "sinh",
    "split",
    "swapaxes",
    "take",
    "take_along_axis",
    "tensordot",
    "tile",
    "trace",
    "tril",
    "triu",
    "vstack",
]

arcsin, _arccos, arctan = (_unary(F.asin, "arcsin"), _unary(F.acos, "arccos"),
                          _unary(F.atan, "arctan"))
arcsinh, arccosh, arctanh = (_unary(F.asinh, "arcsinh"), _unary(F.acosh, "arccosh"),
                             _unary(F.atanh, "arctanh"))
sinh, cosh, expm1 = (_unary(F.sinh, "sinh"), _unary(F.cosh, "cosh"),
                     _unary(P.expm1, "expm1"))
reciprocal = _unary(F.reciprocal, "reciprocal")


def _rounding(op_fn, name: str):
    """floor/ceil: a float function (integer input is rounded in float32, as NumPy gives a
    float for it)."""
    def fn(x, dtype=None):
        x = asarray(x)
        return _cast(op_fn(x if x.dtype.is_float else F.cast(x, float32)), _dtype(dtype, name))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"Elementwise {name}; integer input gives float32, `dtype` casts the result."
    return fn


floor, ceil = _rounding(P.floor, "floor"), _rounding(P.ceil, "ceil")
sign = _unary(F.sign, "sign")
equal, not_equal = _binary(F.equal, "equal"), _binary(F.not_equal, "not_equal")
less, less_equal = _binary(F.less, "less"), _binary(F.less_equal, "less_equal")
greater, greater_equal = _binary(F.greater, "greater"), _binary(F.greater_equal, "greater_equal")
logical_and, logical_or = _binary(F.logical_and, "logical_and"), _binary(F.logical_or,
                                                                          "logical_or")


def logical_not(a, dtype=None):
    return _cast(F.logical_not(asarray(a)), _dtype(dtype, "logical_not"))


def logical_xor(x1, x2, dtype=None):
    a, b = asarray(x1), asarray(x2)
    return _cast(F.not_equal(F.cast(a, dt.bool_), F.cast(b, dt.bool_)),
                 _dtype(dtype, "logical_xor"))


def isnan(x, dtype=None):
    return _cast(P.isnan(asarray(x)), _dtype(dtype, "isnan"))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return P.isclose(asarray(a), asarray(b), rtol, atol, equal_nan)


arctan2 = _binary(P.atan2, "arctan2")


def logaddexp(x1, x2, dtype=None):
    """log(exp(x1) + exp(x2)), computed as max + log1p(exp(-|x1 - x2|))."""
    a, b = asarray(x1), asarray(x2)
    top = F.maximum(a, b)
    return _cast(F.add(top, P.log1p(F.exp(F.neg(F.abs(F.sub(a, b)))))),
                 _dtype(dtype, "logaddexp"))


def arccos(input, dtype=None):
    """Elementwise arccos; `dtype` casts the result."""
    return _arccos(input, dtype)


def clip(x, xmin, xmax, dtype=None):
    return _cast(P.clip_by_value(asarray(x), xmin, xmax), _dtype(dtype, "clip"))


def tile(a, reps):
    reps = (reps,) if isinstance(reps, numbers.Integral) else tuple(reps)
    a = asarray(a)
    if len(reps) > len(a.shape):
        a = F.reshape(a, (1,) * (len(reps) - len(a.shape)) + tuple(a.shape))
    reps = (1,) * (len(a.shape) - len(reps)) + reps
    return P.tile(a, reps)


def flip(m, axis=None):
    m = asarray(m)
    return P.flip(m, tuple(range(len(m.shape))) if axis is None else axis)


def roll(a, shift, axis=None):
    return P.roll(asarray(a), shift, axis)


def swapaxes(x, axis1, axis2):
    return P.swapaxes(asarray(x), axis1, axis2)


def moveaxis(a, source, destination):
    a = asarray(a)
    order = [i for i in range(len(a.shape)) if i != normalize_axis(source, len(a.shape))]
    order.insert(normalize_axis(destination, len(a.shape)), normalize_axis(source, len(a.shape)))
    return F.transpose(a, tuple(order))


def split(x, indices_or_sections, axis=0):
    """Equal sections (an int) or pieces cut at the given indices."""
    x = asarray(x)
    size = x.shape[normalize_axis(axis, len(x.shape))]
    if isinstance(indices_or_sections, numbers.Integral):
        return tuple(NF.split_equal(x, axis, int(indices_or_sections)))
    cuts = [0, *indices_or_sections, size]
    return tuple(P.split(x, [b - a for a, b in itertools.pairwise(cuts)], axis))


def hstack(tup):
    items = [asarray(t) for t in tup]
    return F.concat(items, 0 if len(items[0].shape) == 1 else 1)


def vstack(tup):
    items = [asarray(t) for t in tup]
    return F.concat([F.reshape(t, (1, -1)) if len(t.shape) == 1 else t for t in items], 0)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors along `axisa` of a and `axisb` of b, put along `axisc`
    of the result (`axis` sets all three)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = moveaxis(asarray(a), axisa, -1), moveaxis(asarray(b), axisb, -1)
    a0, a1, a2 = (a[..., i] for i in range(3))
    b0, b1, b2 = (b[..., i] for i in range(3))
    out = F.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], -1)
    return moveaxis(out, -1, axisc)


def tensordot(a, b, axes=2):
    return P.tensor_dot(asarray(a), asarray(b), axes)


def norm(x, ord=None, axis=None, keepdims=False):
    """The 2-norm (Frobenius for matrices) by default; vector orders otherwise."""
    x = asarray(x)
    if not x.dtype.is_float:
        x = F.cast(x, float32)
    return P.vector_norm(x, 2 if ord in (None, "fro") else ord, axis, keepdims)


def count_nonzero(x, axis=None, keepdims=False):
    return F.reduce_sum(F.cast(F.not_equal(asarray(x), 0), int32), () if axis is None else axis,
                        keepdims)


def average(x, axis=None, weights=None, returned=False):
    x = asarray(x)
    if not x.dtype.is_float:
        x = F.cast(x, float32)
    axes = () if axis is None else axis
    if weights is None:
        out, total = F.reduce_mean(x, axes), None
    else:
        w = asarray(weights)
        if axis is not None and len(w.shape) == 1 and len(x.shape) > 1:
            shape = [1] * len(x.shape)
            shape[normalize_axis(axis, len(x.shape))] = w.shape[0]
            w = F.reshape(w, tuple(shape))
        total = F.reduce_sum(F.mul(F.ones_like(x), w), axes)
        out = F.div(F.reduce_sum(F.mul(x, w), axes), total)
    return (out, total) if returned else out


def _triangle(m, k, lower: bool):
    m = asarray(m)
    rows, cols = m.shape[-2:]
    keep = onp.tril(onp.ones((rows, cols)), k) if lower else onp.triu(onp.ones((rows, cols)), k)
    return F.mul(m, asarray(keep, m.dtype))


def tril(m, k=0):
    return _triangle(m, k, True)


def triu(m, k=0):
    return _triangle(m, k, False)


def diag(v, k=0):
    """The k-th diagonal of a matrix, or the matrix with vector `v` on its k-th diagonal."""
    v = asarray(v)
    if len(v.shape) == 1:
        n = v.shape[0] + abs(k)
        place = onp.zeros((v.shape[0], n * n))
        for i in range(v.shape[0]):
            row, col = (i, i + k) if k >= 0 else (i - k, i)
            place[i, row * n + col] = 1
        return F.reshape(F.matmul(v, asarray(place, v.dtype)), (n, n))
    rows, cols = v.shape
    index = [(i, i + k) for i in range(rows) if 0 <= i + k < cols]
    flat = onp.array([r * cols + c for r, c in index], onp.int64)
    return P.gather(F.reshape(v, (-1,)), asarray(flat), 0)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """The sums along the `offset` diagonals of the planes (axis1, axis2)."""
    a = asarray(a)
    if len(a.shape) == 2 and {normalize_axis(axis1, 2), normalize_axis(axis2, 2)} == {0, 1}:
        if normalize_axis(axis1, 2) == 1:
            a = F.transpose(a, (1, 0))
        return _cast(F.reduce_sum(diag(a, offset)), _dtype(dtype, "trace"))
    return _cast(F.reduce_sum(P.diagonal(a, offset, axis1, axis2), -1), _dtype(dtype, "trace"))


def take(a, indices, axis=None, mode="clip"):
    """Elements of `a` (flattened when `axis` is None) at `indices`; an index out of range is
    clipped to the axis ("clip", a negative one counted from the end first) or wrapped
    ("wrap"). "raise" is not implemented, as in MindSpore."""
    a = asarray(a)
    if axis is None:
        a, axis = F.reshape(a, (-1,)), 0
    size = a.shape[normalize_axis(axis, len(a.shape))]
    indices = asarray(indices)
    if mode == "clip":
        indices = P.clip_by_value(F.select(F.less(indices, 0), F.add(indices, size), indices),
                                  0, size - 1)
    elif mode == "wrap":
        indices = P.floor_mod(indices, size)
    elif mode == "raise":
        raise NotImplementedError('"raise" mode is not implemented')
    else:
        raise ValueError(f"take: `mode` must be 'clip', 'wrap' or 'raise', got {mode!r}")
    return P.gather(a, indices, axis)


def take_along_axis(arr, indices, axis):
    """arr's elements at `indices` along `axis` (a one-hot contraction, differentiable in arr)."""
    arr, indices = asarray(arr), asarray(indices)
    axis = normalize_axis(axis, len(arr.shape))
    picks = P.one_hot(indices, arr.shape[axis], 1.0, 0.0, axis + 1)  # one axis more than arr
    chosen = F.mul(F.expand_dims(arr, axis), F.cast(picks, arr.dtype))
    return F.reduce_sum(chosen, axis + 1)


def meshgrid(*xi, sparse=False, indexing="xy"):
    """Coordinate grids; with `sparse`, each keeps only its own axis (the others of size 1),
    shapes that broadcast to the full grid."""
    if not sparse:  # a list, as MindSpore's numpy gives
        return list(P.meshgrid(*[asarray(x) for x in xi], indexing=indexing))
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: `indexing` must be 'xy' or 'ij', got {indexing!r}")
    grids = []
    for i, x in enumerate(xi):
        axis = 1 - i if indexing == "xy" and len(xi) >= 2 and i < 2 else i
        shape = [1] * len(xi)
        shape[axis] = -1
        grids.append(F.reshape(asarray(x), tuple(shape)))
    return grids


_PAD_MODES = ("constant", "maximum", "minimum", "mean", "median", "edge", "wrap", "linear_ramp",
              "symmetric", "reflect", "empty")


def _pad_pairs(values, ndim: int, what: str) -> tuple:
    """MindSpore's broadcast of a pad argument to one (before, after) pair per axis: a number,
    (v,), (before, after), ((before, after),) or a pair for every axis."""
    if isinstance(values, bool) or not isinstance(values, (numbers.Number, list, tuple)) and \
            not hasattr(values, "asnumpy"):
        raise TypeError(f"pad: `{what}` must be an int, list, tuple or Tensor, got "
                        f"{type(values).__name__}")
    table = onp.asarray(values.asnumpy() if hasattr(values, "asnumpy") else values)
    if table.shape in ((), (1,), (2,), (1, 2)):
        table = onp.broadcast_to(table.reshape(-1), (2,)) if table.ndim < 2 else table[0]
        return tuple((table[0].item(), table[1].item()) for _ in range(ndim))
    if table.shape == (ndim, 2):
        return tuple((row[0].item(), row[1].item()) for row in table)
    raise ValueError(f"pad: `{what}` must broadcast to {(ndim, 2)}, got shape {table.shape}")


def _along(x, axis: int, start: int, stop: int):
    return x[(slice(None),) * axis + (slice(start, stop),)]


def _block(x, axis: int, size: int, value):
    """A block shaped as x but `size` long on `axis`, every element `value` (x's dtype)."""
    shape = tuple(size if i == axis else d for i, d in enumerate(x.shape))
    return P.full(shape, value, dtype=x.dtype)


def _join(before, x, after, axis: int):
    parts = [p for p in (before, x, after) if p is not None and p.shape[axis] > 0]
    return parts[0] if len(parts) == 1 else P.concat(parts, axis)


def _repeat_on(x, axis: int, times: int):
    return P.tile(x, tuple(times if i == axis else 1 for i in range(len(x.shape))))


def _pad_statistic(x, widths, lengths, stat):
    for axis, ((before, after), (n_before, n_after)) in enumerate(zip(widths, lengths)):
        size = x.shape[axis]
        head = stat(_along(x, axis, 0, min(n_before, size)), axis) if before else None
        tail = stat(_along(x, axis, size - min(n_after, size), size), axis) if after else None
        x = _join(head if head is None else _repeat_on(head, axis, before), x,
                  tail if tail is None else _repeat_on(tail, axis, after), axis)
    return x


def _mean_keepdims(x, axis):
    mean = F.reduce_mean(F.cast(x, dt.float32) if not x.dtype.is_float else x, axis, True)
    return F.cast(mean, x.dtype) if not x.dtype.is_float else mean  # MindSpore truncates


def _pad_mirror(x, widths, reflect_type: str, skip_edge: int):
    """reflect (skip_edge 1: the edge element is not repeated) and symmetric (0): each side
    grows by mirrored chunks of at most one period of the original axis, a chunk mirroring
    what is already padded; with reflect_type "odd" a chunk is 2 * edge - mirror."""
    for axis, (before, after) in enumerate(widths):
        size = x.shape[axis]
        if skip_edge and size == 1:
            x = _repeat_on(x, axis, before + after + 1)
            continue
        period = size - skip_edge
        left = before
        while left > 0:
            chunk = min(left, period)
            piece = P.flip(_along(x, axis, skip_edge, skip_edge + chunk), (axis,))
            if reflect_type == "odd":
                piece = F.sub(F.mul(_along(x, axis, 0, 1), 2), piece)
            x, left = _join(piece, x, None, axis), left - chunk
        right = after
        while right > 0:
            chunk = min(right, period)
            end = x.shape[axis] - skip_edge
            piece = P.flip(_along(x, axis, end - chunk, end), (axis,))
            if reflect_type == "odd":
                last = x.shape[axis]
                piece = F.sub(F.mul(_along(x, axis, last - 1, last), 2), piece)
            x, right = _join(None, x, piece, axis), right - chunk
    return x


def _pad_wrap(x, widths):
    for axis, (before, after) in enumerate(widths):
        size = x.shape[axis]
        head = _along(x, axis, size - before % size, size) if before % size else None
        tail = _along(x, axis, 0, after % size) if after % size else None
        x = _join(head, _repeat_on(x, axis, before // size + 1 + after // size), tail, axis)
    return x


def _pad_linear_ramp(x, widths, end_values):
    for axis, ((before, after), (end_before, end_after)) in enumerate(zip(widths, end_values)):
        size = x.shape[axis]
        work = x if x.dtype.is_float else F.cast(x, dt.float32)
        shape = tuple(-1 if i == axis else 1 for i in range(len(x.shape)))
        head = tail = None
        if before:  # from end_before toward the first element, that element left out
            steps = Tensor(onp.arange(before, dtype=onp.float32).reshape(shape) / before)
            edge = _along(work, axis, 0, 1)
            head = F.add(F.mul(F.sub(edge, end_before), steps), end_before)
        if after:  # from the last element (left out) to end_after
            steps = Tensor(onp.arange(1, after + 1, dtype=onp.float32).reshape(shape) / after)
            edge = _along(work, axis, size - 1, size)
            tail = F.add(F.mul(F.sub(end_after, edge), steps), edge)
        head = head if head is None or x.dtype.is_float else F.cast(head, x.dtype)
        tail = tail if tail is None or x.dtype.is_float else F.cast(tail, x.dtype)
        x = _join(head, x, tail, axis)
    return x


def _pad_constant(x, widths, values):
    for axis, ((before, after), (v_before, v_after)) in enumerate(zip(widths, values)):
        x = _join(_block(x, axis, before, v_before), x, _block(x, axis, after, v_after), axis)
    return x


def pad(arr, pad_width, mode="constant", stat_length=None, constant_values=0, end_values=0,
        reflect_type="even", **kwargs):
    """Pad each axis by (before, after) as MindSpore's numpy.pad: "constant"
    (`constant_values`), "edge", "wrap", "reflect" and "symmetric" (`reflect_type` "even" or
    "odd"), "maximum", "minimum" and "mean" (over `stat_length` elements at each end, all when
    None), "linear_ramp" (to `end_values`) and "empty" (zeros here). `kwargs` go to a callable
    `mode`, which cellgraph does not run."""
    x = asarray(arr)
    ndim = len(x.shape)
    if ndim == 0:
        return x
    widths = tuple((int(b), int(a)) for b, a in _pad_pairs(pad_width, ndim, "pad_width"))
    if any(b < 0 or a < 0 for b, a in widths):
        raise ValueError(f"pad: `pad_width` cannot be negative, got {pad_width!r}")
    if callable(mode):
        raise UnsupportedError(f"pad: a callable mode ({mode!r}, given {sorted(kwargs)}) is not "
                               f"supported; use one of {', '.join(_PAD_MODES)}")
    if mode not in _PAD_MODES:
        raise ValueError("Input mode not supported.")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"pad: `reflect_type` must be 'even' or 'odd', got {reflect_type!r}")
    if mode == "constant":
        return _pad_constant(x, widths, _pad_pairs(constant_values, ndim, "constant_values"))
    if mode == "empty":
        return _pad_constant(x, widths, ((0, 0),) * ndim)
    if mode == "median":
        raise NotImplementedError("median mode is not supported yet")
    if mode in ("maximum", "minimum", "mean", "edge"):
        lengths = ((1, 1),) * ndim if mode == "edge" else (
            tuple(x.shape[i:i + 1] * 2 for i in range(ndim)) if stat_length is None else
            tuple((int(b), int(a)) for b, a in _pad_pairs(stat_length, ndim, "stat_length")))
        stat = {"maximum": lambda v, axis: F.reduce_max(v, axis, True),
                "minimum": lambda v, axis: F.reduce_min(v, axis, True),
                "mean": _mean_keepdims, "edge": lambda v, axis: v}[mode]
        return _pad_statistic(x, widths, lengths, stat)
    if mode == "wrap":
        return _pad_wrap(x, widths)
    if mode == "linear_ramp":
        return _pad_linear_ramp(x, widths, _pad_pairs(end_values, ndim, "end_values"))
    return _pad_mirror(x, widths, reflect_type, 1 if mode == "reflect" else 0)


def randn(*shape, dtype=float32):
    return _cast(P.randn(*shape), _dtype(dtype, "randn"))
