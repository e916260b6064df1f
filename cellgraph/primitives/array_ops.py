"""Shape manipulation, reductions, casts, indexing and tensor creation."""
from __future__ import annotations

import math

import numpy as np

from . import dtype as dt
from . import strides
from .batching import (
    batch_size,
    batched_front,
    broadcasting_rule,
    example_shape,
    insert_ones,
    move_axis,
    reduction_rule,
    same_shape_rule,
    to_front,
)
from .core import (
    SAME,
    Primitive,
    Slice,
    TensorType,
    abstract_of,
    broadcast_shapes,
    fmt_shape,
    normalize_axes,
    normalize_axis,
    to_numpy_index,
)
from .errors import DTypeError, IndexValueError, ShapeError
from .math_ops import add, div, equal, mul, sum_to


def _reduce_type(x: TensorType, axis=(), keep_dims=False) -> TensorType:
    axes = set(normalize_axes(axis, x.ndim))
    if keep_dims:
        shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    else:
        shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    return TensorType(shape, x.dtype)


def _mean_type(x: TensorType, axis=(), keep_dims=False) -> TensorType:
    """Integers keep their dtype (MindSpore's ReduceMean: the sum in the dtype divided by the
    count, rounded towards zero); bool gives float32."""
    out = _reduce_type(x, axis, keep_dims)
    return out if out.dtype.is_int else TensorType(out.shape, dt.to_float(out.dtype))


def runtime_shape(x) -> tuple:
    """x's shape as a reshape target: its one dim known only at run time as -1."""
    return tuple(-1 if d is None else d for d in abstract_of(x).shape)


def _reshape_type(x: TensorType, shape) -> TensorType:
    if x.size is None and list(shape).count(-1) == 1:  # a size known only at run time
        return TensorType(tuple(None if d == -1 else d for d in shape), x.dtype)
    if x.size is not None and int(np.prod(shape)) != x.size:
        raise ShapeError(f"cannot reshape a tensor of shape {fmt_shape(x.shape)} "
                         f"({x.size} elements) into shape {fmt_shape(shape)}")
    # a -1 left in the shape stands for a size known only at run time (the kernel resolves it)
    return TensorType(tuple(None if d == -1 else d for d in shape), x.dtype)


def _transpose_type(x: TensorType, perm) -> TensorType:
    if sorted(perm) != list(range(x.ndim)):
        raise ShapeError(f"perm {perm} is not a permutation of the axes of a tensor of "
                         f"shape {fmt_shape(x.shape)}")
    return TensorType(tuple(x.shape[p] for p in perm), x.dtype)


def _view_dtype_type(x: TensorType, dtype) -> TensorType:
    """The bytes of `x` read as `dtype` (MindSpore's ViewDtype, a bitcast): an element of
    another size changes the last axis's length, which must hold whole elements."""
    dtype = dt.as_dtype(dtype)
    have, want = x.dtype.np.itemsize, dtype.np.itemsize
    if have == want:
        return TensorType(x.shape, dtype)
    if x.ndim == 0:
        raise ShapeError(f"For ViewDtype, scalar tensor (shape: ()) cannot be viewed {x.dtype} "
                         f"as {dtype} (different element sizes)")
    last = x.shape[-1]
    if want > have and last is not None and last % (want // have):
        raise ShapeError(f"For ViewDtype, last dimension must be divisible by {want // have} to "
                         f"view {x.dtype} as {dtype} (different element sizes), but got {last}")
    size = None if last is None else last * have // want
    return TensorType(x.shape[:-1] + (size,), dtype)


def _broadcast_to_type(x: TensorType, shape) -> TensorType:
    if broadcast_shapes(x.shape, shape) != tuple(shape) or x.ndim > len(shape):
        raise ShapeError(f"cannot broadcast shape {fmt_shape(x.shape)} to {fmt_shape(shape)}")
    return TensorType(tuple(shape), x.dtype)


def _expand_dims_type(x: TensorType, axis: int) -> TensorType:
    axis = normalize_axis(axis, x.ndim + 1)
    return TensorType(x.shape[:axis] + (1,) + x.shape[axis:], x.dtype)


def _squeeze_type(x: TensorType, axis=()) -> TensorType:
    axes = normalize_axes(axis, x.ndim) if axis != () else tuple(
        i for i, d in enumerate(x.shape) if d == 1)
    for a in axes:
        if x.shape[a] != 1:
            raise ShapeError(f"cannot squeeze axis {a} of size {x.shape[a]} "
                             f"(shape {fmt_shape(x.shape)})")
    return TensorType(tuple(d for i, d in enumerate(x.shape) if i not in axes), x.dtype)


def _dummy(shape):
    """A zero-byte array of `shape`, to let NumPy work out what an index does to a shape."""
    return np.lib.stride_tricks.as_strided(np.zeros(1, np.int8), shape, [0] * len(shape))


def _unknown_sizes(shape: tuple) -> tuple:
    """Two stand-in sizes for the dims of `shape` known only at run time: a result dim that
    differs between the two is one such dim, passed through (an int index into one is checked
    by the kernel). As large as the shape allows, its stand-in's size a valid NumPy size."""
    unknown = sum(d is None for d in shape)
    known = math.prod(max(d, 1) for d in shape if d is not None)
    power = min(40, (60 - known.bit_length()) // unknown)
    return (2**power + 3, 2**power + 5)


def _getitem_type(x: TensorType, index: tuple) -> TensorType:
    shapes = []
    for size in _unknown_sizes(x.shape) if None in x.shape else (None,):
        stand_in = tuple(size if d is None else d for d in x.shape)
        try:
            shapes.append(_dummy(stand_in)[to_numpy_index(index)].shape)
        except IndexError as e:
            raise IndexValueError(f"index {index} does not fit a tensor of shape "
                             f"{fmt_shape(x.shape)}: {e}") from None
    shape = tuple(a if a == b else None for a, b in zip(shapes[0], shapes[-1]))
    return TensorType(shape, x.dtype)


def _getitem_grad_type(g: TensorType, index: tuple, shape: tuple) -> TensorType:
    return TensorType(tuple(shape), g.dtype)


def _gather_type(x: TensorType, indices: TensorType, axis: int = 0) -> TensorType:
    if not indices.dtype.is_int:
        raise DTypeError(f"expected integer indices, got {indices.dtype}")
    axis = normalize_axis(axis, x.ndim)
    return TensorType(x.shape[:axis] + indices.shape + x.shape[axis + 1:], x.dtype)


def _gather_grad_type(g: TensorType, indices: TensorType, axis: int, shape: tuple):
    return TensorType(tuple(shape), g.dtype)


def _concat_type(*xs: TensorType, axis: int = 0) -> TensorType:
    if not xs:
        raise ShapeError("expected at least one tensor")
    axis = normalize_axis(axis, xs[0].ndim)
    for x in xs[1:]:
        if x.ndim != xs[0].ndim or any(
                a != b for i, (a, b) in enumerate(zip(x.shape, xs[0].shape)) if i != axis):
            raise ShapeError("shapes " + ", ".join(fmt_shape(x.shape) for x in xs)
                             + f" differ outside axis {axis}")
    size = None if any(x.shape[axis] is None for x in xs) else sum(x.shape[axis] for x in xs)
    dtype = xs[0].dtype
    for x in xs[1:]:
        dtype = dt.promote(dtype, x.dtype)
    return TensorType(xs[0].shape[:axis] + (size,) + xs[0].shape[axis + 1:], dtype)


def _stack_type(*xs: TensorType, axis: int = 0) -> TensorType:
    if any(x.shape != xs[0].shape for x in xs):
        raise ShapeError("stack expects tensors of one shape, got "
                         + ", ".join(fmt_shape(x.shape) for x in xs))
    axis = normalize_axis(axis, xs[0].ndim + 1)
    return TensorType(xs[0].shape[:axis] + (len(xs),) + xs[0].shape[axis:], xs[0].dtype)


reduce_sum = Primitive("reduce_sum", _reduce_type)
reduce_mean = Primitive("reduce_mean", _mean_type)
reduce_max = Primitive("reduce_max", _reduce_type)
reduce_min = Primitive("reduce_min", _reduce_type)
reshape = Primitive("reshape", _reshape_type, array_api="reshape")
transpose = Primitive("transpose", _transpose_type)
broadcast_to = Primitive("broadcast_to", _broadcast_to_type, array_api="broadcast_to")
expand_dims = Primitive("expand_dims", _expand_dims_type)
squeeze = Primitive("squeeze", _squeeze_type)
cast = Primitive("cast", lambda x, dtype: TensorType(x.shape, dtype), complex_bprop=True)
getitem = Primitive("getitem", _getitem_type, label="GetItem")
view_dtype = Primitive("view_dtype", lambda x, dtype: _view_dtype_type(x, dtype),
                       label="ViewDtype", nondifferentiable=True)
getitem_grad = Primitive("getitem_grad", _getitem_grad_type)
for _prim, _view in ((reshape, strides.reshape_view), (transpose, strides.transpose_view),
                     (broadcast_to, strides.broadcast_to_view),
                     (expand_dims, strides.expand_dims_view), (squeeze, strides.squeeze_view),
                     (getitem, strides.getitem_view)):
    _prim.def_view(_view)
gather = Primitive("gather", _gather_type)
gather_grad = Primitive("gather_grad", _gather_grad_type)
concat = Primitive("concat", _concat_type, promote=SAME)
stack = Primitive("stack", _stack_type, promote=SAME)
zeros_like = Primitive("zeros_like", lambda x: x.strong(), nondifferentiable=True,
                       array_api="zeros_like", public=True, spellings=("mint",),
                       ops_module="array_ops")
ones_like = Primitive("ones_like", lambda x: x.strong(), nondifferentiable=True,
                      array_api="ones_like", public=True, spellings=("mint",),
                      ops_module="array_ops")
def _fill_type(dtype, shape, value) -> TensorType:
    for i, d in enumerate(shape):
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 0:
            raise ShapeError(f"the {i}th dimension of the shape must be an int >= 0, got {d!r} "
                             f"in shape {tuple(shape)}")
    return TensorType(tuple(int(d) for d in shape), dtype)


fill = Primitive("fill", _fill_type,
                 nondifferentiable=True)
stop_gradient = Primitive("stop_gradient", lambda x: x.strong(), public=True, operands=("value",))
# A Parameter read after an assignment in the same graph: the assigned value (broadcast to the
# Parameter's shape), whose gradient MindSpore's graphs give to the Parameter (a Load of it),
# never to what was assigned.
assigned_read = Primitive("assigned_read", lambda variable, value: TensorType(
    broadcast_shapes(variable.shape, value.shape), value.dtype), label="AssignedRead")


# ----- bprop rules -----------------------------------------------------------------------------

def _unreduce(dout, x, axis, keep_dims):
    """Broadcast a reduction's adjoint back over the reduced axes of `x`."""
    xt = abstract_of(x)
    if not keep_dims:
        axes = set(normalize_axes(axis, xt.ndim))
        dout = reshape(dout, shape=tuple(1 if i in axes else d for i, d in enumerate(xt.shape)))
    if None in xt.shape:  # a size known only at run time: broadcast by arithmetic against x
        return mul(dout, ones_like(x))
    return broadcast_to(dout, shape=xt.shape)


@reduce_sum.def_bprop
def _reduce_sum_bprop(x, out, dout, axis=(), keep_dims=False):
    return (_unreduce(dout, x, axis, keep_dims),)


@reduce_mean.def_bprop
def _reduce_mean_bprop(x, out, dout, axis=(), keep_dims=False):
    xt = abstract_of(x)
    axes = normalize_axes(axis, xt.ndim)
    sizes = [xt.shape[a] for a in axes]
    count = (int(np.prod(sizes)) if None not in sizes  # else counted when the graph runs
             else reduce_sum(ones_like(x), axis=axes, keep_dims=True))
    return (div(_unreduce(dout, x, axis, keep_dims), count),)


def _extremum_bprop(x, out, dout, axis=(), keep_dims=False):
    # Ties share the gradient equally, so the rule stays symmetric.
    hits = cast(equal(x, _unreduce(out, x, axis, keep_dims)), dtype=abstract_of(dout).dtype)
    count = reduce_sum(hits, axis=axis, keep_dims=True)
    return (mul(_unreduce(dout, x, axis, keep_dims), div(hits, count)),)


reduce_max.def_bprop(_extremum_bprop)
reduce_min.def_bprop(_extremum_bprop)
reshape.def_bprop(lambda x, out, dout, shape: (reshape(dout, shape=runtime_shape(x)),))
transpose.def_bprop(lambda x, out, dout,
                    perm: (transpose(dout, perm=tuple(np.argsort(perm).tolist())),))
broadcast_to.def_bprop(lambda x, out, dout, shape: (sum_to(dout, abstract_of(x).shape),))
expand_dims.def_bprop(lambda x, out, dout, axis: (reshape(dout, shape=runtime_shape(x)),))
squeeze.def_bprop(lambda x, out, dout, axis=(): (reshape(dout, shape=runtime_shape(x)),))
stop_gradient.def_bprop(lambda x, out, dout: (None,))
assigned_read.def_bprop(lambda variable, value, out, dout: (
    sum_to(dout, abstract_of(variable).shape), None))


@cast.def_bprop
def _cast_bprop(x, out, dout, dtype):
    # as MindSpore: the gradient goes back in the input's own dtype, integers and booleans
    # included (a bool input of `x + y` gets `sens != 0`)
    return (cast(dout, dtype=abstract_of(x).dtype),)


getitem.def_bprop(lambda x, out, dout, index: (
    getitem_grad(dout, index=index, shape=abstract_of(x).shape),))
getitem_grad.def_bprop(lambda g, out, dout, index, shape: (getitem(dout, index=index),))
gather.def_bprop(lambda x, indices, out, dout, axis=0: (
    gather_grad(dout, indices, axis=axis, shape=abstract_of(x).shape), None))
gather_grad.def_bprop(lambda g, indices, out, dout, axis, shape: (
    gather(dout, indices, axis=axis), None))


def _axis_slice(ndim: int, axis: int, item) -> tuple:
    return (Slice(None, None, None),) * axis + (item,) + (Slice(None, None, None),) * (
        ndim - axis - 1)


@concat.def_bprop
def _concat_bprop(*xs, out, dout, axis=0):
    ndim = abstract_of(out).ndim
    axis = normalize_axis(axis, ndim)
    grads, start = [], 0
    for x in xs:
        size = abstract_of(x).shape[axis]
        grads.append(getitem(dout, index=_axis_slice(ndim, axis, Slice(start, start + size, None))))
        start += size
    return tuple(grads)


@stack.def_bprop
def _stack_bprop(*xs, out, dout, axis=0):
    ndim = abstract_of(out).ndim
    axis = normalize_axis(axis, ndim)
    return tuple(getitem(dout, index=_axis_slice(ndim, axis, i)) for i in range(len(xs)))


# ----- batching rules (vmap) -------------------------------------------------------------------

for _prim in (reduce_sum, reduce_mean, reduce_max, reduce_min):
    _prim.def_batch(reduction_rule(_prim))
for _prim in (cast, zeros_like, ones_like, stop_gradient):
    _prim.def_batch(same_shape_rule(_prim))
assigned_read.def_batch(broadcasting_rule(assigned_read))
_FULL = Slice(None, None, None)


@reshape.def_batch
def _reshape_batch(args, dims, shape):
    (x,), (d,) = args, dims
    size = abstract_of(x).shape[d]
    if example_shape(x, d)[:d] == tuple(shape[:d]):  # the axes before the batch axis stay
        return reshape(x, shape=tuple(shape[:d]) + (size,) + tuple(shape[d:])), d
    return reshape(to_front(x, d), shape=(size,) + tuple(shape)), 0


@view_dtype.def_batch
def _view_dtype_batch(args, dims, dtype):
    """Each example's last axis is read anew: the batch axis goes first, away from it."""
    (x,), (d,) = args, dims
    _view_dtype_type(TensorType(example_shape(x, d), abstract_of(x).dtype), dtype)
    return view_dtype(to_front(x, d), dtype=dtype), 0


@transpose.def_batch
def _transpose_batch(args, dims, perm):
    (x,), (d,) = args, dims
    return transpose(x, perm=(d,) + tuple(p if p < d else p + 1 for p in perm)), 0


@broadcast_to.def_batch
def _broadcast_to_batch(args, dims, shape):
    (x,), (d,) = args, dims
    size = abstract_of(x).shape[d]
    x = insert_ones(to_front(x, d), 1, len(shape) - len(example_shape(x, d)))
    return broadcast_to(x, shape=(size,) + tuple(shape)), 0


@expand_dims.def_batch
def _expand_dims_batch(args, dims, axis):
    (x,), (d,) = args, dims
    if axis < d:
        return expand_dims(x, axis=axis), d + 1
    return expand_dims(x, axis=axis + 1), d


@squeeze.def_batch
def _squeeze_batch(args, dims, axis=()):
    (x,), (d,) = args, dims
    example = example_shape(x, d)
    axes = normalize_axes(axis, len(example)) if axis != () else tuple(
        i for i, n in enumerate(example) if n == 1)
    if not axes:
        return x, d
    return squeeze(x, axis=tuple(a if a < d else a + 1 for a in axes)), d - sum(a < d for a in axes)


@getitem.def_batch
def _getitem_batch(args, dims, index):
    (x,), (d,) = args, dims
    return getitem(to_front(x, d), index=(_FULL,) + tuple(index)), 0


@getitem_grad.def_batch
def _getitem_grad_batch(args, dims, index, shape):
    (g,), (d,) = args, dims
    g = to_front(g, d)
    size = abstract_of(g).shape[0]
    return getitem_grad(g, index=(_FULL,) + tuple(index), shape=(size,) + tuple(shape)), 0


def _offset_indices(indices, d, size: int, stride: int):
    """Batched indices (batch axis first) into `size` stacked blocks of `stride` rows each."""
    indices = to_front(indices, d)
    it = abstract_of(indices)
    offsets = (np.arange(size) * stride).astype(it.dtype.np).reshape((size,) + (1,) * (it.ndim - 1))
    return add(indices, offsets)


@gather.def_batch
def _gather_batch(args, dims, axis=0):
    """Per-example indices into per-example tables: flatten the tables into one and offset each
    example's indices by its block."""
    (x, indices), (dx, di) = args, dims
    if di is None:
        return gather(to_front(x, dx), indices, axis=axis + 1), 0
    if dx is None:
        return gather(x, indices, axis=axis), axis + di
    x = move_axis(to_front(x, dx), axis + 1, 1)  # (B, N, pre..., post...)
    size, rows = abstract_of(x).shape[:2]
    table = reshape(x, shape=(size * rows,) + abstract_of(x).shape[2:])
    out = gather(table, _offset_indices(indices, di, size, rows), axis=0)  # (B, I..., pre..., post...)
    n_index = abstract_of(indices).ndim - 1
    perm = (0,) + tuple(range(1 + n_index, 1 + n_index + axis)) + tuple(range(1, 1 + n_index))
    perm += tuple(range(len(perm), abstract_of(out).ndim))
    return transpose(out, perm=perm), 0


@gather_grad.def_batch
def _gather_grad_batch(args, dims, axis, shape):
    (g, indices), (dg, di) = args, dims
    if di is None:
        g = to_front(g, dg)
        size = abstract_of(g).shape[0]
        return gather_grad(g, indices, axis=axis + 1, shape=(size,) + tuple(shape)), 0
    size = batch_size(args, dims)
    g = batched_front(g, dg, size)  # (B, pre..., I..., post...)
    n_index = abstract_of(indices).ndim - 1
    perm = (0,) + tuple(range(1 + axis, 1 + axis + n_index)) + tuple(range(1, 1 + axis))
    perm += tuple(range(len(perm), abstract_of(g).ndim))
    rows = shape[axis]
    rest = tuple(shape[:axis]) + tuple(shape[axis + 1:])
    flat = gather_grad(transpose(g, perm=perm), _offset_indices(indices, di, size, rows),
                       axis=0, shape=(size * rows,) + rest)
    return move_axis(reshape(flat, shape=(size, rows) + rest), 1, axis + 1), 0


@concat.def_batch
def _concat_batch(args, dims, axis=0):
    size = batch_size(args, dims)
    return concat(*[batched_front(x, d, size) for x, d in zip(args, dims)], axis=axis + 1), 0


@stack.def_batch
def _stack_batch(args, dims, axis=0):
    size = batch_size(args, dims)
    return stack(*[batched_front(x, d, size) for x, d in zip(args, dims)], axis=axis + 1), 0
