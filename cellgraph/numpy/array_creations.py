"""`mindspore.numpy.array_creations`: functions that make Tensors (asarray, zeros, arange, eye,
tril, diag, meshgrid, pad, ...). Creation functions whose result depends only on Python values
build the Tensor on the host; inside a graph that Tensor is a constant."""
from __future__ import annotations

import numbers

import numpy as onp

import cellgraph.ops as P
from cellgraph.common.seed import _get_graph_seed, get_seed
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as _core
from cellgraph.primitives.core import normalize_axis, value_input
from cellgraph.primitives.errors import (
    ArgumentError,
    ArgumentValueError,
    DTypeError,
    ShapeError,
    UnsupportedError,
)
from cellgraph.runtime.tensor import Tensor

from .dtypes import float32, int32
from .utils import (
    _cast,
    _dtype,
    _error,
    _host_dtype,
    _int_arg,
    _is_tensor,
    _shape,
    _to_tensor,
    take_tensors_only,
)

__all__ = [
    "arange", "array", "asarray", "asfarray", "copy", "diag", "diagflat", "diagonal", "empty",
    "empty_like", "eye", "full", "full_like", "identity", "linspace", "meshgrid", "ones",
    "ones_like", "pad", "randint", "randn", "trace", "tril", "tril_indices", "triu",
    "triu_indices", "zeros", "zeros_like",
]


def asarray(a, dtype=None):
    """`a` (Tensor, list, tuple, number, NumPy array) as a Tensor of `dtype`."""
    return _to_tensor(a, dtype)


def array(obj, dtype=None, copy=True, ndmin=0):
    """A new Tensor from `obj`, with at least `ndmin` dimensions."""
    out = asarray(obj, dtype)
    if copy and isinstance(out, Tensor) and out is obj:
        out = out.copy()
    missing = ndmin - len(out.shape)
    return F.reshape(out, (1,) * missing + tuple(out.shape)) if missing > 0 else out


def asfarray(a, dtype=float32):
    dtype = _dtype(dtype, "asfarray")
    return asarray(a, dtype if dtype.is_float else float32)


def full(shape, fill_value, dtype=None):
    """A Tensor of `shape` filled with `fill_value` (a number or a Tensor broadcast to it)."""
    return _full(shape, fill_value, dtype, "full")


def _full(shape, fill_value, dtype, op: str):
    shape = _shape(shape, op)
    dtype = _dtype(dtype, op)
    if _is_tensor(fill_value):
        return F.broadcast_to(_cast(fill_value, dtype), shape)
    if dtype is None:
        dtype = _host_dtype(onp.asarray(fill_value))
    return Tensor(onp.full(shape, fill_value, dtype.np), dtype)


def zeros(shape, dtype=float32):
    return _full(shape, 0, dtype, "zeros")


def ones(shape, dtype=float32):
    return _full(shape, 1, dtype, "ones")


def empty(shape, dtype=float32):
    return _full(shape, 0, dtype, "empty")


def _full_like(a, fill_value, dtype, shape, op: str):
    a = asarray(a)
    dtype = _dtype(dtype, op) or a.dtype
    return _full(a.shape if shape is None else shape, fill_value, dtype, op)


def full_like(a, fill_value, dtype=None, shape=None):
    return _full_like(a, fill_value, dtype, shape, "full_like")


def zeros_like(a, dtype=None, shape=None):
    return _full_like(a, 0, dtype, shape, "zeros_like")


def ones_like(a, dtype=None, shape=None):
    return _full_like(a, 1, dtype, shape, "ones_like")


def empty_like(prototype, dtype=None, shape=None):
    return _full_like(prototype, 0, dtype, shape, "empty_like")


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in [start, stop): int32 for int bounds, else float32."""
    bounds = [b for b in (start, stop, step) if b is not None]
    for b in bounds:
        if _is_tensor(b) or not isinstance(b, numbers.Number):
            raise _error(DTypeError, "arange", f"bounds must be Python numbers, got "
                         f"{type(b).__name__} {b!r:.40}")
    if step == 0:
        raise _error(ShapeError, "arange", "step must not be zero")
    if stop is None:
        start, stop = 0, start
    dtype = _dtype(dtype, "arange") or (
        int32 if all(isinstance(b, numbers.Integral) for b in bounds) else float32)
    return Tensor(onp.arange(start, stop, 1 if step is None else step).astype(dtype.np), dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`num` evenly spaced values from start to stop (float32 unless `dtype` says)."""
    if _int_arg(num, "linspace", "num") < 0:
        raise _error(ArgumentValueError, "linspace", f"num must be a non-negative int, got "
                     f"{num!r}")
    dtype = _dtype(dtype, "linspace") or float32
    start = start.asnumpy() if isinstance(start, Tensor) else start
    stop = stop.asnumpy() if isinstance(stop, Tensor) else stop
    values, step = onp.linspace(start, stop, int(num), endpoint=endpoint, retstep=True,
                                axis=axis)
    out = Tensor(values.astype(dtype.np), dtype)
    return (out, step) if retstep else out


def eye(N, M=None, k=0, dtype=float32):
    """The N x M matrix with ones on diagonal `k`."""
    dtype = _dtype(dtype, "eye")
    return Tensor(onp.eye(N, M, k, dtype=dtype.np), dtype)


def identity(n, dtype=float32):
    return eye(n, dtype=dtype)


def _triangle(m, k, lower: bool):
    k = _int_arg(k, "tril" if lower else "triu", "k")
    m = asarray(m)
    if len(m.shape) == 1:  # a vector is each row of a square matrix, as NumPy's
        m = F.broadcast_to(m, (m.shape[0], m.shape[0]))
    rows, cols = m.shape[-2:]
    keep = onp.tril(onp.ones((rows, cols)), k) if lower else onp.triu(onp.ones((rows, cols)), k)
    return F.mul(m, asarray(keep, m.dtype))


def tril(m, k=0):
    return _triangle(m, k, True)


def triu(m, k=0):
    return _triangle(m, k, False)


def diag(v, k=0):
    """The k-th diagonal of a matrix, or the matrix with vector `v` on its k-th diagonal."""
    k = _int_arg(k, "diag", "k")
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
    offset = _int_arg(offset, "trace", "offset")
    a = asarray(a)
    if len(a.shape) == 2 and {normalize_axis(axis1, 2), normalize_axis(axis2, 2)} == {0, 1}:
        if normalize_axis(axis1, 2) == 1:
            a = F.transpose(a, (1, 0))
        return _cast(F.reduce_sum(diag(a, offset)), _dtype(dtype, "trace"))
    return _cast(F.reduce_sum(P.diagonal(a, offset, axis1, axis2), -1), _dtype(dtype, "trace"))


def meshgrid(*xi, sparse=False, indexing="xy"):
    """Coordinate grids; with `sparse`, each keeps only its own axis (the others of size 1),
    shapes that broadcast to the full grid."""
    if indexing not in ("xy", "ij"):  # a TypeError, as MindSpore's numpy raises
        raise _error(ArgumentError, "meshgrid", f"valid values for `indexing` are 'xy' and "
                     f"'ij', got {indexing!r}")
    if not sparse:  # a list, as MindSpore's numpy gives
        return list(P.meshgrid(*[asarray(x) for x in xi], indexing=indexing))
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
    mean = _core.reduce_mean(F.cast(x, dt.float32) if not x.dtype.is_float else x, axis, True)
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
        stat = {"maximum": lambda v, axis: _core.reduce_max(v, axis, True),
                "minimum": lambda v, axis: _core.reduce_min(v, axis, True),
                "mean": _mean_keepdims, "edge": lambda v, axis: v}[mode]
        return _pad_statistic(x, widths, lengths, stat)
    if mode == "wrap":
        return _pad_wrap(x, widths)
    if mode == "linear_ramp":
        return _pad_linear_ramp(x, widths, _pad_pairs(end_values, ndim, "end_values"))
    return _pad_mirror(x, widths, reflect_type, 1 if mode == "reflect" else 0)


def _float_draw_dtype(dtype, op: str):
    """rand's and randn's dtype: float16, float32 or float64 (MindSpore: ValueError)."""
    dtype = _dtype(dtype, op)
    if dtype is None or not dtype.is_float or dtype.name not in ("float16", "float32",
                                                                   "float64"):
        raise _error(ArgumentValueError, op, f"the argument 'dtype' must be float16, float32 "
                     f"or float64, got {dtype}")
    return dtype


def _seeded_by_global_seed(kind):
    """A new `kind` primitive (UniformReal, StandardNormal, UniformInt) seeded as MindSpore's
    numpy draws seed it: with the global seed as its op seed, when one is set."""
    seed = get_seed()
    return kind() if seed is None else kind(*_get_graph_seed(seed, kind.__name__))


def _draw_shape(shape) -> tuple:
    return tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape


def randn(*shape, dtype=float32):
    """Draws from N(0, 1) of the given shape (MindSpore's StandardNormal kernel's numbers)."""
    dtype = _float_draw_dtype(dtype, "randn")
    return _cast(_seeded_by_global_seed(P.StandardNormal)(_draw_shape(shape)), dtype)


def copy(a):
    """A new array with a's values."""
    return F.add(asarray(a), F.zeros_like(asarray(a)))


def _indices(rows_cols, dtype=int32):
    return tuple(asarray(onp.asarray(i), dtype) for i in rows_cols)


def tril_indices(n, k=0, m=None):
    return _indices(onp.tril_indices(n, k, m))


def triu_indices(n, k=0, m=None):
    return _indices(onp.triu_indices(n, k, m))


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The offset diagonal of the (axis1, axis2) planes, as the last axis."""
    a = asarray(a)
    nd = len(a.shape)
    axis1, axis2 = normalize_axis(axis1, nd), normalize_axis(axis2, nd)
    rest = [i for i in range(nd) if i not in (axis1, axis2)]
    planes = F.transpose(a, tuple(rest) + (axis1, axis2))
    rows, cols = a.shape[axis1], a.shape[axis2]
    flat = [r * cols + r + offset for r in range(rows) if 0 <= r + offset < cols]
    planes = F.reshape(planes, tuple(planes.shape[:-2]) + (rows * cols,))
    return P.gather(planes, asarray(onp.asarray(flat, onp.int64)), len(rest))


def diagflat(v, k=0):
    return diag(F.reshape(asarray(v), (-1,)), k)


def randint(minval, maxval=None, shape=None, dtype=int32):
    """Integers uniformly drawn from [minval, maxval) (from [0, minval) with one bound)."""
    for name, bound in (("minval", minval), ("maxval", maxval)):
        if bound is not None and not isinstance(bound, numbers.Integral):
            raise _error(ArgumentError, "randint", f"the type of the argument '{name}' must be "
                         f"int, got {type(bound).__name__} {bound!r}")
    if maxval is None:
        if minval <= 0:
            raise _error(ArgumentValueError, "randint", f"the argument 'minval' must be > 0 "
                         f"when 'maxval' is None, got {minval}")
        minval, maxval = 0, minval
    if minval >= maxval:
        raise _error(ArgumentValueError, "randint", f"'minval' must be less than 'maxval', got "
                     f"{minval} and {maxval}")
    dtype = _dtype(dtype, "randint")
    if dtype is None or dtype.name not in ("int8", "int16", "int32", "int64"):
        raise _error(ArgumentValueError, "randint", f"the argument 'dtype' must be int8, int16, "
                     f"int32 or int64, got {dtype}")
    # no shape: one value of shape (1,), as MindSpore's
    shape = (1,) if shape is None else _shape(shape, "randint")
    draws = _seeded_by_global_seed(P.UniformInt)(shape, Tensor(minval, dt.int32),
                                                Tensor(maxval, dt.int32))
    return _cast(draws, dtype)


# ----- more of NumPy's creation functions ---------------------------------------------------------

__all__ += ["bartlett", "blackman", "diag_indices", "geomspace", "hamming", "hanning",
            "histogram_bin_edges", "indices", "ix_", "logspace", "rand", "tri",
            "tril_indices_from", "triu_indices_from", "vander"]


def _window(values, M):
    if not isinstance(M, numbers.Integral) or isinstance(M, bool):
        raise _error(DTypeError, "window", f"M must be an int, got {type(M).__name__}")
    return Tensor(onp.asarray(values(int(M))).astype(onp.float32), float32)


def bartlett(M):
    """The Bartlett (triangular) window of M points."""
    return _window(onp.bartlett, M)


def blackman(M):
    """The Blackman window of M points."""
    return _window(onp.blackman, M)


def hamming(M):
    """The Hamming window of M points."""
    return _window(onp.hamming, M)


def hanning(M):
    """The Hann window of M points."""
    return _window(onp.hanning, M)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """`num` values base ** t, t evenly spaced from start to stop."""
    num = _int_arg(num, "logspace", "num")
    dtype = _dtype(dtype, "logspace") or float32
    start = start.asnumpy() if isinstance(start, Tensor) else start
    stop = stop.asnumpy() if isinstance(stop, Tensor) else stop
    values = onp.logspace(start, stop, int(num), endpoint=endpoint, base=base, axis=axis)
    return Tensor(values.astype(dtype.np), dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`num` values evenly spaced on a log scale from start to stop."""
    dtype = _dtype(dtype, "geomspace") or float32
    start = start.asnumpy() if isinstance(start, Tensor) else start
    stop = stop.asnumpy() if isinstance(stop, Tensor) else stop
    values = onp.geomspace(start, stop, int(num), endpoint=endpoint, axis=axis)
    return Tensor(values.astype(dtype.np), dtype)


def diag_indices(n, ndim=2):
    """The indices (each an int32 array) of the main diagonal of an n x ... x n array."""
    return _indices(onp.diag_indices(n, ndim))


def tril_indices_from(arr, k=0):
    """`tril_indices` for the shape of the 2-D `arr`."""
    shape = _shape_of_2d(arr, "tril_indices_from")
    return _indices(onp.tril_indices(shape[0], k, shape[1]))


def triu_indices_from(arr, k=0):
    """`triu_indices` for the shape of the 2-D `arr`."""
    shape = _shape_of_2d(arr, "triu_indices_from")
    return _indices(onp.triu_indices(shape[0], k, shape[1]))


def _shape_of_2d(arr, op):
    shape = tuple(asarray(arr).shape)
    if len(shape) != 2:
        raise _error(ShapeError, op, f"input array must be 2-d, got shape {shape}")
    return shape


def indices(dimensions, dtype=int32, sparse=False):
    """The index grids of an array of shape `dimensions`: a list of one array per axis, each of
    that shape (with `sparse`, shaped to broadcast), as MindSpore's numpy returns them."""
    dtype = _dtype(dtype, "indices")
    grids = onp.indices(tuple(dimensions), sparse=sparse)
    return [Tensor(g.astype(dtype.np), dtype) for g in grids]


def ix_(*args):
    """Open-mesh index arrays from 1-D sequences: the i-th shaped to vary along axis i."""
    n = len(args)
    out = []
    for i, a in enumerate(args):
        a = asarray(a)
        if a.ndim != 1:
            raise _error(ShapeError, "ix_", "Cross index must be 1 dimensional")
        out.append(F.reshape(a, (1,) * i + (-1,) + (1,) * (n - i - 1)))
    return tuple(out)


def rand(*shape, dtype=float32):
    """Draws from U[0, 1) of the given shape (MindSpore's UniformReal kernel's numbers)."""
    dtype = _float_draw_dtype(dtype, "rand")
    return _cast(_seeded_by_global_seed(P.UniformReal)(_draw_shape(shape)), dtype)


def tri(N, M=None, k=0, dtype=float32):
    """The N x M array with ones at and below diagonal k."""
    N = _int_arg(N, "tri", "N")
    M = None if M is None else _int_arg(M, "tri", "M")
    k = _int_arg(k, "tri", "k")
    dtype = _dtype(dtype, "tri")
    return Tensor(onp.tri(N, M, k).astype(dtype.np), dtype)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-D x: its columns the powers of x, decreasing (or
    increasing)."""
    if not isinstance(x, (list, tuple)) and not _is_tensor(x):
        raise _error(ArgumentError, "vander", f"Input x must be list, tuple or Tensor, but got "
                     f"{type(x).__name__}")
    x = asarray(x)
    if x.ndim != 1:
        raise _error(ShapeError, "vander", f"x should be 1-D, got shape {tuple(x.shape)}")
    N = x.shape[0] if N is None else _int_arg(N, "vander", "N")
    powers = onp.arange(N) if increasing else onp.arange(N - 1, -1, -1)
    return F.pow(F.expand_dims(x, 1), Tensor(powers.astype(x.dtype.np), x.dtype))


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The edges of `bins` equal bins over `range` (the data's min and max by default), or the
    given edges."""
    if not isinstance(bins, numbers.Integral):
        return _cast(asarray(bins), float32)
    if range is None:
        values = value_input(asarray(a), "histogram_bin_edges", "a")
        range = (values.min(), values.max())
    low, high = (float(v) for v in range)
    if low == high:
        low, high = low - 0.5, high + 0.5
    return Tensor(onp.linspace(low, high, int(bins) + 1).astype(onp.float32), float32)


take_tensors_only(globals())
