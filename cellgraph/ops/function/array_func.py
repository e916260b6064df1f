"""MindSpore's `ops.function.array_func`: creating, reshaping, indexing, gathering, padding and
segmenting Tensors, as compositions of the core's operations (no kernel and no rule of their
own: their gradients and batching come from the operations they are made of)."""
from __future__ import annotations

import builtins
import itertools
import math
import numbers

import numpy as np

from cellgraph.ops import functional as F
from cellgraph.ops.function._fallback import functional_fallback
from cellgraph.ops.functional import gather
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import scatter_ops as S
from cellgraph.primitives.core import (
    abstract_of,
    is_value,
    normalize_axis,
    running_eagerly,
    tensor_axis,
)
from cellgraph.primitives.dynamic_ops import bincount, nonzero
from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import _ints, argmax, cumsum, one_hot, pad_pairs

__all__ = ["aminmax", "apply_along", "arange", "argwhere", "chunk", "diag", "diagonal", "eye",
           "flatten", "flip", "fliplr", "flipud", "full_like", "gather_d", "gather_elements",
           "hstack", "index_fill", "index_select", "is_tensor", "masked_fill", "masked_scatter",
           "matrix_band_part", "matrix_diag", "max", "meshgrid", "min", "moveaxis", "movedim",
           "narrow", "pad", "permute", "rank", "repeat_elements", "repeat_interleave",
           "reverse_sequence", "roll", "rot90", "scalar_to_tensor", "size", "swapaxes", "swapdims",
           "t", "take", "tensor_split", "tril", "triu", "tuple_to_array", "unbind",
           "unique_consecutive", "unsorted_segment_max", "unsorted_segment_min",
           "unsorted_segment_prod", "unsorted_segment_sum", "unsqueeze", "unstack", "vstack"]


def _const(values: np.ndarray, dtype):
    """A constant tensor: the cast primitive applied to a NumPy array gives a Tensor eagerly
    and a folded constant in a graph, so the ops layer needs no Tensor class of its own."""
    return A.cast(np.asarray(values), dtype=dt.as_dtype(dtype))


def _ndim(x) -> int:
    return abstract_of(x).ndim


def _shape(x) -> tuple:
    return tuple(abstract_of(x).shape)


def arange(start=0, end=None, step=1, *, dtype=None):
    """[start, end) by `step` (one argument: [0, start)); int64 for ints, else float32."""
    if end is None:
        start, end = 0, start
    if step == 0:
        raise ArgumentValueError("arange: `step` must not be 0")
    values = np.arange(start, end, step)
    if dtype is None:
        dtype = dt.int64 if all(isinstance(v, numbers.Integral) for v in (start, end, step)) \
            else dt.float32
    return _const(values.astype(dt.as_dtype(dtype).np), dtype)


def eye(n, m=None, dtype=dt.float32):
    """The n x m identity matrix."""
    return _const(np.eye(n, m).astype(dt.as_dtype(dtype).np), dtype)


def meshgrid(*inputs, indexing="xy"):
    """Coordinate grids from 1-D tensors ("xy": the first two axes swapped, as NumPy)."""
    tensors = inputs[0] if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)) else inputs
    if indexing not in ("xy", "ij"):
        raise ArgumentValueError(f"meshgrid: `indexing` must be 'xy' or 'ij', got {indexing!r}")
    sizes = [_shape(t)[0] for t in tensors]
    if indexing == "xy" and len(sizes) >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for i, t in enumerate(tensors):
        axis = i if indexing == "ij" or len(sizes) < 2 else {0: 1, 1: 0}.get(i, i)
        shape = [1] * len(sizes)
        shape[axis] = sizes[axis]
        grids.append(F.broadcast_to(F.reshape(t, tuple(shape)), tuple(sizes)))
    return tuple(grids)


def unsqueeze(input, dim):
    return F.expand_dims(input, dim)


def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """Merge the axes from start_dim to end_dim (MindSpore's default keeps the batch axis);
    order="F" merges in column-major order (the axes reversed first, as MindSpore does)."""
    if order not in ("C", "F"):
        raise ArgumentValueError(f"flatten: `order` must be 'C' or 'F', got {order!r}")
    shape = _shape(input)
    if order == "F":
        if len(shape) <= 1:
            return F.reshape(input, (-1,))
        input = F.transpose(input, tuple(reversed(range(len(shape)))))
        shape = shape[::-1]
    if not shape:
        return F.reshape(input, (1,))
    start, end = start_dim % len(shape), end_dim % len(shape)
    merged = int(np.prod(shape[start:end + 1]))
    return F.reshape(input, shape[:start] + (merged,) + shape[end + 1:])


def permute(input, axis):
    return F.transpose(input, tuple(axis))


def swapaxes(input, axis0, axis1):
    perm = list(range(_ndim(input)))
    perm[axis0], perm[axis1] = perm[axis1], perm[axis0]
    return F.transpose(input, tuple(perm))


def flip(input, dims):
    """Reverse the order along each axis in `dims`."""
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if _ndim(input) == 0:  # MindSpore: "the rank of x must be not equal to 0"
        raise ShapeError("flip: expected a tensor of rank >= 1, got a 0-d tensor")
    index = [slice(None)] * _ndim(input)
    for d in dims:
        index[normalize_axis(d, _ndim(input))] = slice(None, None, -1)
    return F.getitem(input, tuple(index))


def roll(input, shifts, dims=None):
    """Shift elements along `dims` cyclically (flattened when dims is None)."""
    if dims is None:
        return F.reshape(roll(F.reshape(input, (-1,)), shifts, 0), _shape(input))
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    for shift, d in zip(shifts, dims):
        axis = tensor_axis(d, _ndim(input), "roll")
        size = _shape(input)[axis]
        if not size:
            continue
        shift %= size
        if shift:
            index = np.concatenate([np.arange(size - shift, size), np.arange(size - shift)])
            input = gather(input, _const(index, dt.int64), axis)
    return input


def chunk(input, chunks, axis=0):
    """`chunks` pieces along `axis`, the last one shorter when the size does not divide."""
    if isinstance(chunks, bool) or not isinstance(chunks, int) or chunks <= 0:
        raise ArgumentValueError(f"chunk: `chunks` must be an int > 0, got {chunks!r}")
    size = _shape(input)[tensor_axis(axis, _ndim(input), "chunk")]
    step = -(-size // chunks) or 1  # (an empty axis: one empty piece)
    from cellgraph.primitives.nn_functional import split

    return split(input, step, axis)


def unstack(input_x, axis=0):
    """The slices along `axis`, as a tuple."""
    axis = tensor_axis(axis, _ndim(input_x), "unstack")
    index = [slice(None)] * _ndim(input_x)
    pieces = []
    for i in range(_shape(input_x)[axis]):
        index[axis] = i
        pieces.append(F.getitem(input_x, tuple(index)))
    return tuple(pieces)


def unbind(input, dim=0):
    return unstack(input, dim)


def index_select(input, axis, index):
    """The entries of `input` at `index` (1-D ints) along `axis`."""
    return gather(input, index, axis)


def repeat_elements(x, rep, axis=0):
    """Each element repeated `rep` times along `axis`."""
    axis = normalize_axis(axis, _ndim(x))
    index = np.repeat(np.arange(_shape(x)[axis]), rep)
    return gather(x, _const(index, dt.int64), axis)


def masked_fill(input_x, mask, value):
    """`value` where mask is True, input_x elsewhere."""
    dtype, shape = abstract_of(input_x).dtype, _shape(input_x)
    if isinstance(value, numbers.Number):
        filler = F.fill(dtype, shape, value)
    else:
        filler = F.broadcast_to(F.cast(value, dtype), shape)
    return F.select(F.broadcast_to(mask, shape), filler, input_x)


def _init_and_select(input, initial, where, compare, op):
    """MindSpore's `initial`/`where` for max and min: every element compared with `initial`,
    and `initial` where `where` is False."""
    if initial is not None and (isinstance(initial, bool) or not isinstance(
            initial, numbers.Number)):
        raise DTypeError(f"{op}: `initial` must be a scalar, got {type(initial).__name__}")
    if initial is not None:
        input = compare(input, F.fill(abstract_of(input).dtype, _shape(input), initial))
    if where is None:
        return input
    if where is True:  # a 0-d True mask selects everything
        return input
    if isinstance(where, (bool, list, tuple, np.ndarray)):
        where = np.asarray(where, dtype=bool)
    where = F.cast(where, dt.bool_)
    if initial is None:
        raise ArgumentValueError(f"{op}: `initial` must be given with a `where` mask")
    fill = F.fill(abstract_of(input).dtype, _shape(input), initial)
    return F.select(F.broadcast_to(where, _shape(input)), input, fill)


def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """(maximum values, their indices) along `axis`; over everything when axis is None.
    `initial` takes part in every maximum, and where `where` is False only `initial` does."""
    input = _init_and_select(input, initial, where, F.maximum, "max")
    if axis is None:
        return F.reduce_max(input, (), keepdims), argmax(F.reshape(input, (-1,)))
    return F.reduce_max(input, axis, keepdims), argmax(input, axis, keepdims)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    """(minimum values, their indices) along `axis` (`initial` and `where` as in `max`)."""
    input = _init_and_select(input, initial, where, F.minimum, "min")
    values, index = max(F.neg(input), axis, keepdims)
    return F.neg(values), index


def _band(x, keep: np.ndarray):
    """x where the static 2-D pattern `keep` (over the last two axes) holds, else zero."""
    return M.select(keep, x, A.zeros_like(x))


def _matrix_shape(x, op: str) -> tuple:
    shape = abstract_of(x).shape
    if len(shape) < 2:
        raise ShapeError(f"{op}: expected a Tensor of rank >= 2, got shape {shape}")
    return shape[-2:]


def tril(input, diagonal=0):
    rows, cols = _matrix_shape(input, "tril")
    return _band(input, np.tril(np.ones((rows, cols), bool), int(diagonal)))


def triu(input, diagonal=0):
    rows, cols = _matrix_shape(input, "triu")
    return _band(input, np.triu(np.ones((rows, cols), bool), int(diagonal)))


def matrix_band_part(x, lower, upper):
    """Keep the band of `lower` sub- and `upper` super-diagonals (negative: all of them)."""
    rows, cols = _matrix_shape(x, "matrix_band_part")
    i, j = np.indices((rows, cols))
    keep = ((int(lower) < 0) | (i - j <= int(lower))) & ((int(upper) < 0) | (j - i <= int(upper)))
    return _band(x, keep)


def diag(input):
    """A 1-D Tensor as the diagonal of a square matrix (rank r -> rank 2r, as MindSpore)."""
    shape = abstract_of(input).shape
    eye = np.eye(int(np.prod(shape)), dtype=bool).reshape(shape + shape)
    expanded = F.reshape(input, shape + (1,) * len(shape))
    return M.select(eye, expanded, A.zeros_like(expanded))


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal over axes dim1, dim2, moved to the last axis."""
    ndim = abstract_of(input).ndim
    dim1, dim2 = normalize_axis(dim1, ndim), normalize_axis(dim2, ndim)
    if dim1 == dim2:
        raise ArgumentValueError(f"diagonal: dim1 and dim2 must differ, got {dim1} and {dim2}")
    moved = movedim(input, (dim1, dim2), (-2, -1))
    rows, cols = abstract_of(moved).shape[-2:]
    start_row, start_col = builtins.max(-int(offset), 0), builtins.max(int(offset), 0)
    length = builtins.max(builtins.min(rows - start_row, cols - start_col), 0)
    steps = np.arange(length)
    return moved[..., steps + start_row, steps + start_col]


def full_like(input, fill_value, *, dtype=None):
    shape = abstract_of(input).shape
    return F.fill(dtype or abstract_of(input).dtype, shape, fill_value)


def repeat_interleave(input, repeats, axis=None):
    """Each element `repeats` times along `axis` (the flattened input for None); `repeats` an
    int, or one count per element (a list, or a Tensor outside a graph)."""
    if axis is None:
        input, axis = F.reshape(input, (-1,)), 0
    axis = tensor_axis(axis, abstract_of(input).ndim, "repeat_interleave")
    if hasattr(repeats, "asnumpy"):
        if not running_eagerly():
            raise DTypeError("repeat_interleave: Tensor `repeats` inside a graph give a shape "
                             "known only at run time; pass an int or a list")
        repeats = repeats.asnumpy().tolist()
    if isinstance(repeats, numbers.Integral):
        if repeats < 0:
            raise ArgumentValueError(f"repeat_interleave: `repeats` must be >= 0, got {repeats}")
        return input.repeat(int(repeats), axis)
    size = abstract_of(input).shape[axis]
    counts = np.asarray(repeats, np.int64).reshape(-1)
    if counts.size == 1:
        counts = np.full(size, counts[0])
    if counts.size != size or np.any(counts < 0):
        raise ArgumentValueError(f"repeat_interleave: expected {size} non-negative counts for "
                                 f"axis {axis}, got {list(counts)}")
    return F.gather(input, np.repeat(np.arange(size), counts), axis)


def movedim(x, source, destination):
    ndim = abstract_of(x).ndim
    source = [normalize_axis(a, ndim) for a in np.atleast_1d(source).tolist()]
    destination = [normalize_axis(a, ndim) for a in np.atleast_1d(destination).tolist()]
    if len(source) != len(destination):
        raise ArgumentValueError(f"movedim: {len(source)} source axes but {len(destination)} "
                                 f"destinations")
    order = [a for a in range(ndim) if a not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return x if order == list(range(ndim)) else F.transpose(x, tuple(order))


moveaxis = movedim


def narrow(input, axis, start, length):
    return input.narrow(normalize_axis(axis, abstract_of(input).ndim), int(start), int(length))


def hstack(tensors):
    tensors = tuple(tensors)
    return F.concat(tensors, 0 if abstract_of(tensors[0]).ndim == 1 else 1)


def vstack(inputs):
    inputs = tuple(t if abstract_of(t).ndim > 1 else F.reshape(t, (1, -1)) for t in inputs)
    return F.concat(inputs, 0)


def _segments(input_x, segment_ids, num_segments, op: str):
    """(ids as scatter indices, the rows that count, the output shape). Ids outside
    [0, num_segments) are dropped, as MindSpore's CPU kernels drop them."""
    if hasattr(num_segments, "asnumpy"):
        num_segments = num_segments.asnumpy().item()
    if not isinstance(num_segments, numbers.Integral) or num_segments < 0:
        raise DTypeError(f"{op}: `num_segments` must be a non-negative int (a shape), got "
                         f"{num_segments!r}")
    x_shape, ids_type = abstract_of(input_x).shape, abstract_of(segment_ids)
    if not ids_type.dtype.is_int:
        raise DTypeError(f"{op}: expected integer `segment_ids`, got {ids_type.dtype}")
    if x_shape[:ids_type.ndim] != ids_type.shape:
        raise ShapeError(f"{op}: `segment_ids` of shape {ids_type.shape} must be a prefix of "
                         f"the input's shape {x_shape}")
    valid = M.logical_and(segment_ids >= 0, segment_ids < int(num_segments))
    ids = M.select(valid, segment_ids, A.zeros_like(segment_ids))
    row_valid = F.reshape(valid, ids_type.shape + (1,) * (len(x_shape) - ids_type.ndim))
    out_shape = (int(num_segments),) + tuple(x_shape[ids_type.ndim:])
    return F.expand_dims(ids, -1), row_valid, out_shape


def _segment_reduce(scatter, neutral):
    def reduce(input_x, segment_ids, num_segments):
        op = f"unsorted_segment_{scatter.name.rsplit('_', 1)[-1]}"
        indices, valid, out_shape = _segments(input_x, segment_ids, num_segments, op)
        dtype = abstract_of(input_x).dtype
        fill = neutral(dtype)
        start = F.fill(dtype, out_shape, fill)
        return scatter(start, indices, M.select(valid, input_x, full_like(input_x, fill)))
    return reduce


def _lowest(dtype):
    return float(np.finfo(dtype.np).min) if dtype.is_float else int(np.iinfo(dtype.np).min)


def _highest(dtype):
    return float(np.finfo(dtype.np).max) if dtype.is_float else int(np.iinfo(dtype.np).max)


unsorted_segment_sum = _segment_reduce(S.tensor_scatter_add, lambda dtype: 0)


unsorted_segment_sum.__doc__ = "Row sums per segment id: out[s] = sum of x[i] with ids[i] == s."


unsorted_segment_max = _segment_reduce(S.tensor_scatter_max, _lowest)


unsorted_segment_max.__doc__ = "Row maxima per segment; an empty segment holds the lowest value."


unsorted_segment_min = _segment_reduce(S.tensor_scatter_min, _highest)


unsorted_segment_min.__doc__ = "Row minima per segment; an empty segment holds the highest value."


unsorted_segment_prod = _segment_reduce(S.tensor_scatter_mul, lambda dtype: 1)


unsorted_segment_prod.__doc__ = "Row products per segment; an empty segment holds one."


def is_tensor(input) -> bool:
    """Whether `input` is a Tensor (a Parameter, or a graph value standing for one)."""
    return is_value(input) and not isinstance(input, numbers.Number | np.generic)


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


def aminmax(input, *, axis=0, keepdims=False):
    """(min, max) along `axis`."""
    return F.reduce_min(input, axis, keepdims), F.reduce_max(input, axis, keepdims)


def t(input):
    """The transpose of a 2-D tensor (a 0-D or 1-D one as it is)."""
    if abstract_of(input).ndim > 2:
        raise ShapeError(f"t: expected at most 2 dimensions, got shape {abstract_of(input).shape}")
    return input if abstract_of(input).ndim < 2 else A.transpose(input, perm=(1, 0))


def swapdims(input, dim0, dim1):
    perm = list(range(abstract_of(input).ndim))
    perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
    return A.transpose(input, perm=tuple(perm))


def fliplr(input):
    return F.flip(input, (1,))


def flipud(input):
    return F.flip(input, (0,))


def rot90(input, k=1, dims=(0, 1)):
    """Rotate by 90 degrees k times in the plane of `dims`, from the first toward the second."""
    d0, d1 = (normalize_axis(d, abstract_of(input).ndim) for d in dims)
    if d0 == d1:
        raise ArgumentValueError(f"rot90: the two dims must differ, got {dims}")
    k %= 4
    if k == 0:
        return input
    if k == 2:
        return F.flip(input, (d0, d1))
    swapped = swapdims(input, d0, d1)
    return F.flip(swapped, (d0,)) if k == 1 else swapdims(F.flip(input, (d0,)), d0, d1)


def tensor_split(input, indices_or_sections, axis=0):
    """Pieces along `axis`: n nearly equal ones (the first len % n one longer), or cut at the
    given indices."""
    x = _tensor(input, "tensor_split")
    axis = normalize_axis(axis, x.ndim)
    length = x.shape[axis]
    if isinstance(indices_or_sections, numbers.Integral):
        n = int(indices_or_sections)
        if n <= 0:
            raise ArgumentValueError(f"tensor_split: sections must be positive, got {n}")
        sizes = [length // n + (i < length % n) for i in range(n)]
        bounds = [0] + list(np.cumsum(sizes))
    else:
        bounds = [0] + [builtins.min(int(i), length) for i in indices_or_sections] + [length]
    lead = (slice(None),) * axis
    return tuple(input[lead + (slice(int(lo), int(builtins.max(lo, hi))),)]
                 for lo, hi in itertools.pairwise(bounds))


def argwhere(input):
    """The indices of the non-zero elements, (count, ndim)."""
    from cellgraph.primitives.dynamic_ops import nonzero

    return nonzero(input)


def index_fill(x, axis, index, value):
    """x with the positions `index` along `axis` set to `value`."""
    shape = _tensor(x, "index_fill", "x").shape
    axis = normalize_axis(axis, len(shape))
    hits = F.reduce_sum(F.one_hot(F.reshape(index, (-1,)), shape[axis], 1, 0), (0,), False)
    mask = F.reshape(M.greater(hits, 0), tuple(shape[axis] if i == axis else 1
                                               for i in range(len(shape))))
    fill = F.broadcast_to(F.cast(value, abstract_of(x).dtype), tuple(shape))
    return M.select(F.broadcast_to(mask, tuple(shape)), fill, x)


def apply_along(x, matrix: np.ndarray, axis: int):
    """Apply the constant `matrix` (out, in) to axis `axis` of x."""
    ndim = abstract_of(x).ndim
    axis = normalize_axis(axis, ndim)
    last = ndim - 1
    weights = A.cast(np.ascontiguousarray(matrix.T), dtype=abstract_of(x).dtype)
    if axis == last:
        return F.matmul(x, weights)
    perm = list(range(ndim))
    perm[axis], perm[last] = last, axis
    return F.transpose(F.matmul(F.transpose(x, tuple(perm)), weights), tuple(perm))


def gather_elements(input, dim, index):
    """out[..., i, ...] = input[..., index[..., i, ...], ...] along `dim` (PyTorch's gather);
    `index` may be smaller than `input` on the other axes."""
    x_shape, i_shape = abstract_of(input).shape, abstract_of(index).shape
    dim = tensor_axis(dim, len(x_shape), "gather_elements")
    if len(i_shape) != len(x_shape):  # MindSpore: ValueError too
        raise ShapeError(f"gather_elements: index of shape {i_shape} must have the rank of "
                         f"input, shape {x_shape}")
    crop = tuple(slice(None) if d == dim else slice(0, i_shape[d]) for d in range(len(x_shape)))
    x = F.getitem(input, crop)
    # x with its `dim` axis moved last and a 1 left in its place, against index's one-hot rows
    moved = F.expand_dims(F.transpose(x, tuple(d for d in range(len(x_shape)) if d != dim)
                                      + (dim,)), dim)
    picks = F.cast(one_hot(index, x_shape[dim], 1, 0, -1), abstract_of(input).dtype)
    return F.reduce_sum(F.mul(picks, moved), -1)


def gather_d(x, dim, index):
    """MindSpore's name for gather_elements."""
    return gather_elements(x, dim, index)


# MindSpore's mode name -> np.pad's, for the modes that read the input.
INDEX_MODES = {"reflect": "reflect", "replicate": "edge", "edge": "edge", "circular": "wrap",
               "symmetric": "symmetric"}


def pad_axis_by_index(x, axis: int, before: int, after: int, mode: str, op: str = "Pad"):
    """Pad (or, for negative amounts, crop) one axis in a mode of INDEX_MODES: one gather."""
    size = abstract_of(x).shape[axis]
    if size is None:
        raise ShapeError(f"{op}: mode {mode!r} needs axis {axis} of static size")
    limit = size - 1 if mode == "reflect" else size
    if builtins.max(before, after) > limit:
        raise ArgumentValueError(f"{op}: padding ({before}, {after}) of axis {axis} must be at "
                                 f"most {limit} for an axis of size {size} in mode {mode!r}")
    index = np.pad(np.arange(size), (builtins.max(before, 0), builtins.max(after, 0)),
                   INDEX_MODES[mode])
    index = index[builtins.max(-before, 0):len(index) - builtins.max(-after, 0)]
    return A.gather(x, index.astype(np.int64), axis=axis)


def pad_pairs_mode(x, pairs, mode: str, value=0, op: str = "Pad"):
    """Pad axis i by pairs[i] = (before, after) in `mode`."""
    if mode == "constant":
        return pad_pairs(x, tuple(pairs), value)
    for axis, (before, after) in enumerate(pairs):
        if before or after:
            x = pad_axis_by_index(x, axis, before, after, mode, op)
    return x


def _pairs_from_last(flat: tuple, ndim: int, op: str) -> list:
    """(left, right, top, bottom, ...): pairs from the last axis backwards -> one per axis."""
    if len(flat) % 2 or len(flat) // 2 > ndim:
        raise ShapeError(f"{op}: padding {flat} must hold one (before, after) pair per axis, for "
                         f"at most the {ndim} axes of the input")
    pairs = [(0, 0)] * ndim
    for i in range(len(flat) // 2):
        pairs[ndim - 1 - i] = (flat[2 * i], flat[2 * i + 1])
    return pairs


def _check_tensor(x, op: str, name: str):
    if not hasattr(x, "aval"):
        raise DTypeError(f"{op}: `{name}` must be a Tensor, got {type(x).__name__}")


def pad(input_x, padding, mode="constant", value=None):
    """Pad the last len(padding) // 2 axes; `padding` pairs run from the last axis backwards,
    as in (left, right, top, bottom). Modes: "constant" (with `value`, default 0), "reflect",
    "replicate", "circular". Negative amounts crop."""
    _check_tensor(input_x, "Pad", "input_x")
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise ArgumentValueError(f"Pad: mode must be 'constant', 'reflect', 'replicate' or "
                                 f"'circular', got {mode!r}")
    if mode != "constant" and value is not None:
        raise ArgumentValueError(f"Pad: `value` applies to mode 'constant' only, got "
                                 f"value={value!r} with mode={mode!r}")
    flat = _ints(_host_ints(padding), "Pad", "padding")
    pairs = _pairs_from_last(flat, abstract_of(input_x).ndim, "Pad")
    return pad_pairs_mode(input_x, pairs, mode, 0 if value is None else value)


def _host_ints(value):
    """Paddings given as a Tensor (a constant) -> a tuple of ints."""
    if hasattr(value, "aval"):
        array = getattr(value, "asnumpy", None)
        if array is None:
            raise ArgumentError("PadV3: `paddings` must be known when the graph is built (a "
                                "tuple or a constant Tensor), got a Tensor computed in the graph")
        return tuple(int(v) for v in np.asarray(array()).reshape(-1))
    return value


def _pad_with_tensor(x, pairs, value):
    """Constant padding by a Tensor value (computed in the graph, so not a kernel param): the
    zero-padded input plus `value` where the padding is, which also differentiates in
    `value`."""
    if not hasattr(value, "aval") or abstract_of(value).shape not in ((), (1,)):
        raise ArgumentError(f"PadV3: `constant_value` must be a number or a one-element "
                            f"Tensor, got {value!r:.80}")
    inside = pad_pairs(A.ones_like(x), tuple(pairs), 0)
    value = F.cast(F.reshape(value, ()), abstract_of(x).dtype)
    return F.add(pad_pairs(x, tuple(pairs), 0), F.mul(F.sub(1, inside), value))


def _int_operand(x, what: str, op: str):
    if not abstract_of(x).dtype.is_int:
        raise DTypeError(f"{op}: expected an integer `{what}`, got {abstract_of(x).dtype}")
    return x


def take(input, index):
    """input's elements at `index` as if input were 1-D (negative indices count from the end);
    the result has index's shape."""
    _int_operand(index, "index", "take")
    flat = F.reshape(input, (-1,))
    size = abstract_of(flat).shape[0]
    index = F.cast(index, dt.int64)
    wrapped = F.select(index < 0, index + size, index)
    return F.gather(flat, wrapped, 0)


def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """For each b along `batch_dim`, the first seq_lengths[b] entries along `seq_dim` reversed,
    the rest kept."""
    op = "ReverseSequence"
    shape = abstract_of(x).shape
    seq_dim, batch_dim = normalize_axis(seq_dim, len(shape)), normalize_axis(batch_dim, len(shape))
    if seq_dim == batch_dim:
        raise ArgumentValueError(f"{op}: seq_dim and batch_dim must differ, got {seq_dim}")
    if abstract_of(_int_operand(seq_lengths, "seq_lengths", op)).shape != (shape[batch_dim],):
        raise ShapeError(f"{op}: expected seq_lengths of shape ({shape[batch_dim]},), got "
                         f"{abstract_of(seq_lengths).shape}")
    along = [1] * len(shape)
    along[batch_dim] = shape[batch_dim]
    lengths = F.reshape(F.cast(seq_lengths, dt.int64), tuple(along))
    along = [1] * len(shape)
    along[seq_dim] = shape[seq_dim]
    position = _const(np.arange(shape[seq_dim]).reshape(along), dt.int64)
    source = F.select(position < lengths, lengths - 1 - position, position)
    return gather_elements(x, seq_dim, F.broadcast_to(source, shape))


def masked_scatter(input, mask, source):
    """input with the positions where `mask` (broadcast to input's shape) holds replaced, in
    row-major order, by source's leading elements."""
    if abstract_of(mask).dtype != dt.bool_:
        raise DTypeError(f"masked_scatter: expected a bool mask, got {abstract_of(mask).dtype}")
    shape = abstract_of(input).shape
    flat_mask = F.reshape(F.broadcast_to(mask, shape), (-1,))
    flat_source = F.reshape(source, (-1,))
    last = abstract_of(flat_source).shape[0] - 1
    order = cumsum(F.cast(flat_mask, dt.int64), 0) - 1
    order = F.select(order < 0, F.zeros_like(order), F.select(order > last,
                                                                F.zeros_like(order) + last, order))
    picked = F.gather(F.cast(flat_source, abstract_of(input).dtype), order, 0)
    return F.select(F.reshape(flat_mask, shape), F.reshape(picked, shape), input)


def unique_consecutive(input, return_idx=False, return_counts=False, axis=None):
    """The first of each run of equal consecutive elements (of the flattened input, or slices
    along `axis`); with `return_idx` each element's run number (int64), with `return_counts`
    each run's length (int64)."""
    values, idx, counts = unique_consecutive_all(input, axis)
    if return_idx and return_counts:
        return values, idx, counts
    if return_idx:
        return values, idx
    if return_counts:
        return values, counts
    return values


def unique_consecutive_all(input, axis=None):
    """(runs' first elements, each element's run number, each run's length)."""
    if axis is None:
        flat, axis, idx_shape = F.reshape(input, (-1,)), 0, abstract_of(input).shape
    else:
        axis = normalize_axis(axis, abstract_of(input).ndim)
        flat, idx_shape = input, (abstract_of(input).shape[axis],)
    length = abstract_of(flat).shape[axis]
    if length == 0:
        raise ShapeError("unique_consecutive: the input has no elements along the axis")
    index = [slice(None)] * abstract_of(flat).ndim
    head, tail = list(index), list(index)
    head[axis], tail[axis] = slice(1, None), slice(None, -1)
    changed = F.not_equal(flat[tuple(head)], flat[tuple(tail)])
    others = tuple(d for d in range(abstract_of(flat).ndim) if d != axis)
    if others:
        changed = F.reduce_max(F.cast(changed, dt.int32), others) > 0
    starts = F.concat([_const(np.ones(1, bool), dt.bool_), changed], 0)
    run = cumsum(F.cast(starts, dt.int64), 0) - 1
    first = F.reshape(nonzero(starts), (-1,))
    return F.gather(flat, first, axis), F.reshape(run, idx_shape), bincount(run)


def known(value, what: str, op: str):
    """The value of a Python number, sequence or a Tensor whose value is known now (an eager
    Tensor), as a NumPy array; a value computed inside a graph cannot size a result."""
    if hasattr(value, "_data"):
        return value.asnumpy()
    if hasattr(value, "aval"):
        raise ArgumentValueError(f"{op}: `{what}` sets the shape of the result, so it must be a "
                                 f"constant, got a Tensor computed in the graph")
    return np.asarray(value)


def _place(values, table: np.ndarray, out_shape: tuple):
    """values (..., L) onto out_shape through the 0/1 table (L, prod(out_shape)): each output
    cell takes the value its table column selects, zero where the column is empty."""
    lead = _shape(values)[:-1]
    dtype = abstract_of(values).dtype
    compute = dtype if dtype.is_inexact else dt.float64
    flat = F.matmul(F.cast(values, compute), _const(table, compute))
    return F.cast(F.reshape(flat, lead + tuple(out_shape)), dtype)


_ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _diag_table(k: tuple, rows: int, cols: int, width: int, align: str) -> np.ndarray:
    """Where each cell of a (rows, cols) matrix reads from the (diagonals, width) input: the
    flat source index, or -1 for padding. Diagonal d is input row k[1] - d; a diagonal shorter
    than `width` sits at its row's right end when its side of `align` says RIGHT."""
    table = np.full((rows, cols), -1)
    for d in range(k[0], k[1] + 1):
        length = builtins.min(rows + builtins.min(0, d), cols - builtins.max(0, d))
        right = (d >= 0 and align.startswith("RIGHT")) or (d <= 0 and align.endswith("RIGHT"))
        shift = width - length if right else 0
        for i in range(builtins.max(length, 0)):
            m, n = i - builtins.min(d, 0), i + builtins.max(d, 0)
            table[m, n] = (k[1] - d) * width + i + shift
    return table


def matrix_diag(x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Matrices whose diagonals k[0]..k[1] hold x's rows (one diagonal: x's last axis), the rest
    `padding_value` (MindSpore's MatrixDiagV3)."""
    op = "matrix_diag"
    if align not in _ALIGNS:
        raise ArgumentValueError(f"{op}: `align` must be one of {_ALIGNS}, got {align!r}")
    ks = known(k, "k", op).reshape(-1).astype(int).tolist()
    if len(ks) not in (1, 2) or ks[0] > ks[-1]:
        raise ArgumentValueError(f"{op}: `k` must be an int or a pair (low, high) with low <= "
                                 f"high, got {ks}")
    low, high = ks[0], ks[-1]
    shape = _shape(x)
    width = shape[-1]
    if low != high and (len(shape) < 2 or shape[-2] != high - low + 1):
        raise ShapeError(f"{op}: for diagonals {low}..{high} x must have {high - low + 1} rows "
                         f"in its second-to-last axis, got shape {shape}")
    min_rows, min_cols = width - builtins.min(high, 0), width + builtins.max(low, 0)
    rows = int(known(num_rows, "num_rows", op))
    cols = int(known(num_cols, "num_cols", op))
    if rows == -1 and cols == -1:
        rows = cols = builtins.max(min_rows, min_cols)
    rows, cols = (min_rows if rows == -1 else rows), (min_cols if cols == -1 else cols)
    if rows < min_rows or cols < min_cols or (rows != min_rows and cols != min_cols):
        raise ShapeError(f"{op}: ({rows}, {cols}) matrices cannot hold diagonals {low}..{high} "
                         f"of length {width}: one side must be exactly ({min_rows}, "
                         f"{min_cols})'s")
    table = _diag_table((low, high), rows, cols, width, align)
    lead = shape[:-1] if low == high else shape[:-2]
    flat = F.reshape(x, lead + (-1,))
    source = np.zeros((abstract_of(flat).shape[-1], rows * cols))
    cells = np.flatnonzero(table.reshape(-1) >= 0)
    source[table.reshape(-1)[cells], cells] = 1
    placed = _place(flat, source, (rows, cols))
    pad = F.cast(padding_value, abstract_of(x).dtype) if hasattr(padding_value, "aval") \
        else padding_value
    return F.select(_const(table >= 0, dt.bool_), placed, F.zeros_like(placed) + pad)


def scalar_to_tensor(input_x, dtype=dt.float32):
    """A 0-d tensor holding the Python number `input_x`."""
    if not isinstance(input_x, numbers.Number):
        raise DTypeError(f"scalar_to_tensor: expected a Python number, got "
                         f"{type(input_x).__name__}")
    return A.cast(np.asarray(input_x), dtype=dt.as_dtype(dtype))


def tuple_to_array(input_x):
    """A 1-D tensor from a tuple of Python numbers (float32 if any is a float, else int64)."""
    kind = np.float32 if np.asarray(input_x).dtype.kind == "f" else np.int64
    return A.cast(np.asarray(input_x, kind), dtype=dt.from_numpy(kind))


def identity(input):
    """The input, unchanged (`ops.identity`, `ops.Identity()`)."""
    return input


def shape(input_x) -> tuple:
    """The static shape of a Tensor, a tuple of ints (`ops.shape`, `F.shape`)."""
    return tuple(input_x.shape)


def dtype(input_x):
    """The dtype of a Tensor (`F.dtype`)."""
    return input_x.dtype


def tensor_shape(input_x):
    """The shape as a 1-d int64 Tensor."""
    from cellgraph.runtime.tensor import Tensor

    return Tensor(list(input_x.shape), "int64")

# the functional operations defined elsewhere (the primitives, the other modules)
__getattr__, __dir__ = functional_fallback(globals())
