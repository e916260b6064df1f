"""Reshaping, reordering and splitting: `unsqueeze`, `flatten`, `permute`, `movedim`, `narrow`,
`hstack`/`vstack`, `chunk`, `unstack`, `tensor_split`, `flip`/`rot90`/`roll`, the repeats."""
from __future__ import annotations

import itertools
import numbers

import numpy as np

from cellgraph.ops.function.array_func.attributes import _const, _ndim, _shape, _tensor, is_tensor
from cellgraph.ops.function.array_func.padding import pad
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import check_tensor_dtype, not_tensor_error
from cellgraph.primitives.core import (
    abstract_of,
    normalize_axis,
    tensor_axis,
    value_input,
)
from cellgraph.primitives.errors import (
    ArgumentError,
    ArgumentValueError,
    DTypeError,
    ShapeError,
)
from cellgraph.primitives.functional import gather

__all__ = ["batch_to_space_nd", "chunk", "column_stack", "expand", "flatten", "flip", "fliplr", "flipud", "hstack", "moveaxis", "movedim",
           "narrow", "permute", "repeat_elements", "repeat_interleave", "roll", "rot90",
           "space_to_batch_nd",
           "swapaxes", "swapdims", "t", "tensor_split", "unbind", "unsqueeze", "unstack", "vstack"]


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
    return F.transpose(input, _swapped(input, axis0, axis1))


def _swapped(input, axis0, axis1) -> tuple:
    """The permutation that swaps two axes, with MindSpore's errors for other axis values."""
    rank = _ndim(input)
    perm = list(range(rank))
    for axis in (axis0, axis1):
        if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
            raise DTypeError(f"For ops.swapaxes, the axis argument must be integer, but got "
                             f"{type(axis)}.")
        if not -rank <= axis < max(rank, 1):
            raise ArgumentValueError(f"The 'axis' must be in the range of [{-rank}, {rank}), but "
                                     f"got {axis}.")
    perm[axis0], perm[axis1] = perm[axis1], perm[axis0]
    return tuple(perm)


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
    if hasattr(shifts, "aval") or hasattr(dims, "aval"):  # MindSpore takes ints only
        kinds = ["Tensor" if hasattr(v, "aval") else type(v).__name__ for v in (shifts, dims)]
        raise DTypeError(f'Failed calling Roll with "Roll(shifts={kinds[0]}, dims={kinds[1]})'
                         f'(input=Tensor)".\nThe valid calling should be: \n"Roll(shifts=<list '
                         f'of int, int, tuple of int>, dims=<list of int, int, tuple of int>)'
                         f'(input=<Tensor>)".')
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


def repeat_elements(x, rep, axis=0):
    """Each element repeated `rep` times along `axis`, with MindSpore's checks: a number
    Tensor of rank at most 7, a positive int `rep`, an int `axis` in [-rank, rank)."""
    op = "repeat_elements"
    if abstract_of(x).dtype.is_bool:
        raise DTypeError(f"For '{op}', the 'input x' must be a Tensor of numbers, but got "
                         f"Bool.")
    if not isinstance(rep, numbers.Integral) or isinstance(rep, bool):
        raise DTypeError(f"For '{op}', the 'rep' must be 'int', but got "
                         f"'{type(rep).__name__}'.")
    if not 0 < rep <= 2147483647:
        raise ArgumentValueError(f"For '{op}', the 'rep' must be in range of (0, 2147483647], "
                                 f"but got {rep} with type 'int'.")
    if not isinstance(axis, numbers.Integral) or isinstance(axis, bool):
        raise DTypeError(f"For '{op}', the type of 'axis' must be 'int', but got "
                         f"'{type(axis).__name__}'.")
    rank = _ndim(x)
    if rank > 7:
        raise ArgumentValueError(f"For {op}, the rank of x should be less than or equal to 7, "
                                 f"but got {rank}.")
    if not -rank <= axis < rank:
        raise ArgumentValueError(f"For '{op}', the 'axis' must be in range of [{-rank}, "
                                 f"{rank}), but got {axis} with type 'int'.")
    return repeat_along(x, rep, axis)


def repeat_along(x, rep: int, axis: int):
    """Each element `rep` (>= 0) times along `axis`: NumPy's `repeat` with one count."""
    axis = normalize_axis(axis, _ndim(x))
    index = np.repeat(np.arange(_shape(x)[axis]), rep)
    return gather(x, _const(index, dt.int64), axis)


def repeat_interleave(input, repeats, axis=None):
    """Each element `repeats` times along `axis` (the flattened input for None); `repeats` an
    int, or one count per element (a list, or a Tensor outside a graph)."""
    if axis is None:
        input, axis = F.reshape(input, (-1,)), 0
    axis = tensor_axis(axis, abstract_of(input).ndim, "repeat_interleave")
    if hasattr(repeats, "aval"):
        repeats = value_input(repeats, "repeat_interleave", "repeats").tolist()
    if isinstance(repeats, numbers.Integral):
        if repeats < 0:
            raise ArgumentValueError(f"repeat_interleave: `repeats` must be >= 0, got {repeats}")
        return repeat_along(input, int(repeats), axis)
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
    """`length` elements of `input` from `start` along `axis` (Tensor.narrow's checks)."""
    return input.narrow(axis, start, length)


def slice_along(x, axis: int, start: int, length: int):
    """`x[..., start:start + length, ...]` along `axis`, for callers that checked the range."""
    index = [slice(None)] * abstract_of(x).ndim
    index[axis] = slice(start, start + length)
    return F.getitem(x, tuple(index))


def hstack(tensors):
    tensors = tuple(tensors)
    return F.concat(tensors, 0 if abstract_of(tensors[0]).ndim == 1 else 1)


def column_stack(tensors):
    """The tensors side by side as columns: a 0-d or 1-D tensor becomes one column, the others
    are joined along axis 1 (`ops.column_stack`)."""
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"For column_stack, the input must be list or tuple of tensors, but got "
                        f"{type(tensors)}.")
    columns = []
    for tensor in tensors:
        if not is_tensor(tensor):
            raise TypeError(f"For column_stack, the input element must be tensor, but got "
                            f"{type(tensor)}.")
        ndim = abstract_of(tensor).ndim
        columns.append(F.reshape(tensor, (-1, 1)) if ndim < 2 else tensor)
    if not columns:
        raise ValueError("For column_stack, the input must have at least 1 tensor, but got 0.")
    return F.concat(tuple(columns), 1)


def vstack(inputs):
    inputs = tuple(t if abstract_of(t).ndim > 1 else F.reshape(t, (1, -1)) for t in inputs)
    return F.concat(inputs, 0)


def t(input):
    """The transpose of a 2-D tensor (a 0-D or 1-D one as it is)."""
    if abstract_of(input).ndim > 2:
        raise ShapeError(f"t: expected at most 2 dimensions, got shape {abstract_of(input).shape}")
    return input if abstract_of(input).ndim < 2 else A.transpose(input, perm=(1, 0))


def swapdims(input, dim0, dim1):
    return A.transpose(input, perm=_swapped(input, dim0, dim1))


def fliplr(input):
    return flip(input, (1,))


def flipud(input):
    return flip(input, (0,))


def rot90(input, k, dims):
    """Rotate by 90 degrees k times in the plane of `dims`, from the first toward the second."""
    d0, d1 = (normalize_axis(d, abstract_of(input).ndim) for d in dims)
    if d0 == d1:
        raise ArgumentValueError(f"rot90: the two dims must differ, got {dims}")
    k %= 4
    if k == 0:
        return input
    if k == 2:
        return flip(input, (d0, d1))
    swapped = swapdims(input, d0, d1)
    return flip(swapped, (d0,)) if k == 1 else swapdims(flip(input, (d0,)), d0, d1)


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
        bounds = [0] + [min(int(i), length) for i in indices_or_sections] + [length]
    lead = (slice(None),) * axis
    return tuple(input[lead + (slice(int(lo), int(max(lo, hi))),)]
                 for lo, hi in itertools.pairwise(bounds))


def _block_args(x, block, pairs, op: str, what: str):
    """(block sizes, (before, after) pairs) for the last len(block) axes of `x`."""
    block = (block,) * (len(x.shape) - 2) if isinstance(block, int) else tuple(block)
    pairs = [tuple(p) for p in pairs]
    if not block or len(pairs) != len(block) or any(len(p) != 2 for p in pairs):
        raise ArgumentValueError(f"For '{op}', {what} must give a (begin, end) pair for each of "
                                 f"the {len(block)} block axes, got {pairs!r}")
    if len(x.shape) < len(block) + 1 or any(int(b) < 1 for b in block):
        raise ArgumentValueError(f"For '{op}', the block sizes {block} must be positive, one "
                                 f"for each of the last axes of an input of rank {len(x.shape)}")
    return tuple(int(b) for b in block), pairs


def batch_to_space_nd(input_x, block_shape, crops):
    """The batch axis split into `block_shape` blocks interleaved into the last
    len(block_shape) axes, each then cropped by `crops` (begin, end): MindSpore's
    BatchToSpaceND (its spatial axes are the last ones)."""
    block, crops = _block_args(input_x, block_shape, crops, "BatchToSpaceND", "crops")
    shape, m = tuple(input_x.shape), len(block)
    n, total = shape[0], int(np.prod(block))
    if n is not None and n % total:
        raise ArgumentValueError(f"For 'BatchToSpaceND', the batch size {n} must be a multiple "
                                 f"of the block shape's product {total}")
    rest, spatial = shape[1:-m], shape[-m:]
    n = None if n is None else n // total  # None: a batch known only at run time
    x = F.reshape(input_x, block + (n,) + rest + spatial)
    lead = 1 + len(rest)
    order = tuple(range(m, m + lead)) + tuple(
        a for i in range(m) for a in (m + lead + i, i))
    x = F.reshape(F.transpose(x, order), (n,) + rest + tuple(
        s * b for s, b in zip(spatial, block)))
    for i, (begin, end) in enumerate(crops):
        if not (begin or end):
            continue
        axis = len(shape) - m + i
        x = slice_along(x, axis, begin, x.shape[axis] - begin - end)
    return x


def space_to_batch_nd(input_x, block_size, paddings):
    """The last len(block_size) axes padded by `paddings` (begin, end), then split into blocks
    moved to the batch axis: MindSpore's SpaceToBatchND, the inverse of batch_to_space_nd."""
    block, pads = _block_args(input_x, block_size, paddings, "SpaceToBatchND", "paddings")
    m = len(block)
    x = pad(input_x, tuple(p for pair in reversed(pads) for p in pair))
    shape = tuple(x.shape)
    rest, spatial = shape[1:-m], shape[-m:]
    if any(s % b for s, b in zip(spatial, block)):
        raise ArgumentValueError(f"For 'SpaceToBatchND', the padded spatial sizes {spatial} must "
                                 f"be multiples of the block shape {block}")
    split = tuple(a for s, b in zip(spatial, block) for a in (s // b, b))
    x = F.reshape(x, shape[:1] + rest + split)
    lead = 1 + len(rest)
    order = tuple(lead + 2 * i + 1 for i in range(m)) + tuple(range(lead)) + tuple(
        lead + 2 * i for i in range(m))
    batch = None if shape[0] is None else shape[0] * int(np.prod(block))  # None: at run time
    return F.reshape(F.transpose(x, order), (batch,) + rest + tuple(
        s // b for s, b in zip(spatial, block)))


_SHAPE_TYPES = (dt.int16, dt.int32, dt.int64)


def expand(input_x, size):
    """`ops.expand(input_x, size)`: `input_x` broadcast to the shape held by the integer Tensor
    `size`, a -1 keeping the size of an axis (MindSpore's Expand; the values of `size` must be
    known when the graph is built)."""
    if not is_tensor(size):
        raise not_tensor_error("Expand", "shape", size)
    check_tensor_dtype("Expand", "shape", abstract_of(size).dtype, _SHAPE_TYPES)
    try:
        sizes = tuple(int(v) for v in np.asarray(size.asnumpy()).reshape(-1))
    except (TypeError, AttributeError):
        raise ArgumentError("Expand: `size` must be known when the graph is built (a constant "
                            "Tensor), got a Tensor computed in the graph") from None
    shape = _shape(input_x)
    if len(sizes) < len(shape):
        raise ArgumentValueError(f"For Expand, the size of shape provided ({len(sizes)}) must be "
                                 f"greater than or equal to the size of tensor x's shape "
                                 f"({len(shape)}).")
    lead = len(sizes) - len(shape)
    for axis, (want, have) in enumerate(zip(sizes[lead:], shape)):
        if want not in (-1, have) and have != 1:
            raise ArgumentValueError(f"For Expand, the expanded size of the tensor ({want}) must "
                                     f"be equal to the existing size ({have}) which is not 1 at "
                                     f"dim ({axis + lead}).")
    return F.broadcast_to(input_x, sizes)
