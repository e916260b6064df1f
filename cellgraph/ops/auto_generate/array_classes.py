"""gen_ops_prim's classes that index, reshape, pad, fill and convert tensors, over mint's and
ops' functions, each call taking MindSpore's call arguments. The `...View` forms are
MindSpore's views of the input's memory; cellgraph's tensors share nothing, so a view's values
are its copy's (`NarrowView` is `Narrow`)."""
import numpy as np

from cellgraph import ops
from cellgraph.ops.primitive_class import define_class
from cellgraph.primitives import dtype as mstype
from cellgraph.primitives.core import value_input
from cellgraph.primitives.errors import ArgumentValueError, UnsupportedError

from ._mint_lookup import functional, mint

MODULE = "cellgraph.ops.auto_generate.gen_ops_prim"


def _broadcast_to(input, shape):
    return mint().broadcast_to(input, shape)


def _chunk(input, chunks, dim=0):
    return mint().chunk(input, chunks, dim)


def _copy(input):
    return mint().clone(input)


def _diagonal(input, offset=0, dim1=0, dim2=1):
    return ops.diagonal(input, offset, dim1, dim2)


def _expand_as(input, other):
    return mint().expand_as(input, other)


def _unsqueeze(input, dim):
    return mint().unsqueeze(input, dim)


def _flatten(input, start_dim=0, end_dim=-1):
    return mint().flatten(input, start_dim, end_dim)


def _narrow(input, dim, start, length):
    return mint().narrow(input, dim, start, length)


def _select(input, dim, index):
    return mint().select(input, dim, index)


def _slice(input, dim, start, end, step):
    """input[start:end:step] along `dim`."""
    dim = dim + len(input.shape) if dim < 0 else dim
    return input[(slice(None),) * dim + (slice(start, end, step),)]


def _split_tensor(input, split_size, dim=0):
    return ops.split(input, split_size, dim)


def _split_with_size(input, split_size, dim=0):
    return ops.split(input, tuple(split_size), dim)


def _stack(tensors, dim=0):
    return mint().stack(tensors, dim)


def _transpose(input):
    return mint().t(input)


def _unbind(input, dim=0):
    return mint().unbind(input, dim)


def _view(input, shape):
    return mint().reshape(input, shape)


def _view_as(input, other):
    return mint().reshape(input, other.shape)


def _repeat(input, repeats):
    """The input tiled `repeats[i]` times along dimension i, the leading repeats adding
    dimensions (torch's Tensor.repeat)."""
    repeats = tuple(repeats)
    if len(repeats) < len(input.shape):
        raise ArgumentValueError(
            f"For repeat, number of items of repeats can not be smaller than the number of "
            f"dimensions of self tensor, but got repeats with {len(repeats)} items and rank of "
            f"self tensor is {len(input.shape)}.")
    return ops.tile(input, repeats)


def _repeat_interleave(input, repeats, dim=None, output_size=None):
    return mint().repeat_interleave(input, repeats, dim, output_size=output_size)


def _index_select(input, dim, index):
    return mint().index_select(input, dim, index)


def _index_add(input, dim, index, source, alpha=1):
    return mint().index_add(input, dim, index, source, alpha=alpha)


def _index_fill(input, dim, index, value):
    return ops.index_fill(input, dim, index, value)


def _index(input, indices):
    """input[indices[0], indices[1], ...]: advanced indexing by a tensor per leading
    dimension."""
    return input[tuple(indices)]


def _scatter(input, dim, index, src, reduce="none"):
    """src's elements (a tensor's, or one number's) written into input at `index` along
    `dim`, replacing or adding to the values there ("multiply", MindSpore's third reduction,
    is not supported: the scatter has no product)."""
    if reduce == "multiply":
        raise UnsupportedError("Scatter: reduce='multiply' is not supported (the scatter "
                               "replaces or adds); multiply by a scattered tensor of ones "
                               "instead")
    if reduce not in ("none", "add"):
        raise ArgumentValueError(f"For 'Scatter', 'reduce' must be one of ('none', 'add', "
                                 f"'multiply'), but got {reduce!r}")
    if not hasattr(src, "shape"):  # a number
        src = ops.fill(input.dtype, tuple(index.shape), src)
    elif tuple(src.shape) == () and tuple(index.shape) != ():  # a number known when it runs
        src = ops.broadcast_to(ops.cast(src, input.dtype), tuple(index.shape))
    dim = int(value_input(dim, "Scatter", "dim"))  # a graph reads a mutable one when compiling
    return ops.tensor_scatter_elements(input, index, src, dim, reduce)


def _scatter_add(input, dim, index, src):
    return mint().scatter_add(input, dim, index, src)


def _gather_nd(input, indices):
    return ops.gather_nd(input, indices)


def _masked_fill(input, mask, value):
    return mint().masked_fill(input, mask, value)


def _where(condition, input, other):
    return mint().where(condition, input, other)


def _constant_pad(input, padding, value=0.0):
    return functional().pad(input, tuple(padding), "constant", value)


def _pad(mode: str, name: str):
    """ReflectionPad1D, ReplicationPad2D, ...: `mode` padding of the last dimensions."""
    def call(input, padding):
        return functional().pad(input, tuple(padding), mode)

    call.__name__ = call.__qualname__ = name
    return call


def _nonzero(input):
    """The indices of the non-zero elements, one 1-D tensor per dimension (mint.nonzero's
    as_tuple form)."""
    return mint().nonzero(input, as_tuple=True)


def _one_hot(tensor, num_classes, on_value, off_value, axis=-1):
    return ops.one_hot(tensor, num_classes, on_value, off_value, axis)


def _fill(size, fill_value, dtype=None):
    return mint().full(tuple(size), fill_value, dtype=dtype)


def _full_like(input, fill_value, dtype=None):
    return mint().full_like(input, fill_value, dtype=dtype)


def _new_ones(input, size, dtype=None):
    return input.new_ones(tuple(size), dtype)


def _new_zeros(input, size, dtype=None):
    return input.new_zeros(tuple(size), dtype)


def _new_full(input, size, fill_value, dtype=None):
    return input.new_full(tuple(size), fill_value, dtype=dtype)


def _empty(size, dtype=None, device=None, pin_memory=False):
    return mint().empty(*size, dtype=dtype, device=device)


def _empty_like(input, dtype=None, device=None, pin_memory=False):
    return mint().empty_like(input, dtype=dtype, device=device)


def _new_empty(input, size, dtype=None, device=None):
    return mint().empty(*size, dtype=input.dtype if dtype is None else dtype, device=device)


def _tuple_to_tensor(input_tuple, dtype=None):
    """A 1-D Tensor of the tuple's numbers (a dynamic-length one's too), int64 for integers
    and float32 for floats unless `dtype` says."""
    from cellgraph.compiler.dynamic_sequence import RuntimeSequence

    if isinstance(input_tuple, RuntimeSequence):
        data = input_tuple.data
        if dtype is None and data is not None:
            dtype = mstype.float32 if data.dtype.is_float else mstype.int64
        return input_tuple.to_tensor(dtype)
    from cellgraph.primitives import array_ops as A

    values = np.asarray(tuple(input_tuple))
    if dtype is None:  # (tuple_to_array goes by the first element instead)
        dtype = mstype.float32 if values.dtype.kind == "f" else mstype.int64
    return A.cast(values, dtype=mstype.as_dtype(dtype))


def _to_dtype(input, dtype=None, non_blocking=False, copy=False):
    return input if dtype is None else ops.cast(input, dtype)


def _to_other(input, other, non_blocking=False, copy=False):
    return ops.cast(input, other.dtype)


def _as_strided(input, size, stride, storage_offset=0):
    """The elements of the flattened input at storage_offset + sum(i_k * stride[k]), for each
    index (i_0, i_1, ...) of `size`."""
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise ArgumentValueError(f"For 'AsStrided', 'size' and 'stride' must have one "
                                 f"length, but got {len(size)} and {len(stride)}")
    positions = np.full(size, storage_offset, np.int64)
    for k, (n, step) in enumerate(zip(size, stride)):
        positions += (np.arange(n) * step).reshape((n,) + (1,) * (len(size) - k - 1))
    return ops.gather(input.reshape(-1), ops.Tensor(positions), 0)


def _im2col(input, kernel_size, dilation=1, padding=0, stride=1):
    return functional().unfold(input, kernel_size, dilation, padding, stride)


def _col2im(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    return functional().fold(input, output_size, kernel_size, dilation, padding, stride)


def _pixel_shuffle(input, upscale_factor):
    return functional().pixel_shuffle(input, upscale_factor)


_TABLE = {
    "BroadcastToView": _broadcast_to, "Chunk": _chunk, "ChunkView": _chunk, "Copy": _copy,
    "DiagonalView": _diagonal, "ExpandAs": _expand_as, "ExpandDimsView": _unsqueeze,
    "FlattenExt": _flatten, "Narrow": _narrow, "NarrowView": _narrow,
    "SelectExtView": _select, "SliceExt": _slice, "SliceExtView": _slice,
    "SplitTensorView": _split_tensor, "SplitWithSizeView": _split_with_size, "TExt": _transpose,
    "UnstackExtView": _unbind, "View": _view, "ViewAs": _view_as, "Repeat": _repeat,
    "RepeatInterleaveInt": _repeat_interleave, "RepeatInterleaveTensor": _repeat_interleave,
    "IndexSelect": _index_select, "IndexAddExt": _index_add, "IndexFillScalar": _index_fill,
    "IndexFillTensor": _index_fill, "Index": _index, "Scatter": _scatter,
    "ScatterValue": _scatter, "ScatterAddExt": _scatter_add, "GatherNdExt": _gather_nd,
    "MaskedFillScalar": _masked_fill, "SelectV2": _where, "ConstantPadND": _constant_pad,
    "ReflectionPad1D": _pad("reflect", "reflection_pad_1d"),
    "ReflectionPad2D": _pad("reflect", "reflection_pad_2d"),
    "ReflectionPad3D": _pad("reflect", "reflection_pad_3d"),
    "ReplicationPad1D": _pad("replicate", "replication_pad_1d"),
    "ReplicationPad2D": _pad("replicate", "replication_pad_2d"),
    "ReplicationPad3D": _pad("replicate", "replication_pad_3d"),
    "NonZeroExt": _nonzero, "FillScalar": _fill, "FillTensor": _fill, "FullLike": _full_like,
    "NewOnes": _new_ones, "NewZeros": _new_zeros, "NewFull": _new_full, "Empty": _empty,
    "EmptyLike": _empty_like, "NewEmpty": _new_empty, "TupleToTensor": _tuple_to_tensor,
    "ToDtype": _to_dtype, "ToOther": _to_other,
    "AsStrided": _as_strided, "Im2ColExt": _im2col, "Col2ImExt": _col2im,
    "PixelShuffle": _pixel_shuffle,
}
# classes whose constructor takes some of the arguments: name -> (function, init defaults)
_CONFIGURED = {
    "Diagonal": (_diagonal, {"offset": 0, "dim1": 0, "dim2": 1}),
    "StackExt": (_stack, {"dim": 0}),
    "OneHotExt": (_one_hot, {"axis": -1}),
}

CLASSES = {name: define_class(name, fn, None, MODULE) for name, fn in _TABLE.items()}
CLASSES.update({name: define_class(name, fn, init, MODULE)
                for name, (fn, init) in _CONFIGURED.items()})
