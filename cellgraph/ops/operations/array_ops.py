"""MindSpore's `ops.operations.array_ops`: the primitive classes of array operations whose
meaning is a composition (`ops.Zeros()`, `ops.ReverseV2(axis)`, `ops.Im2Col(...)`, ...),
configured in `__init__` and applied in `__call__`."""
from __future__ import annotations

import numpy as np

from cellgraph._checkparam import (
    EQ,
    check_int,
    check_positive_int,
    check_string,
    check_value_type,
)
from cellgraph.common.apply_ops import (
    ScatterAdd,
    ScatterNdAdd,
    ScatterNdDiv,
    ScatterNdMax,
    ScatterNdMin,
    ScatterNdMul,
    ScatterNdSub,
    ScatterNdUpdate,
    ScatterUpdate,
)
from cellgraph.compiler.py_func_op import HostCall, py_func_p
from cellgraph.ops.function.array_func.attributes import (
    _const,
    dtype,
    identity,
    is_tensor,
    rank,
    shape,
    tensor_shape,
)
from cellgraph.ops.function.array_func.creation import (
    eye,
    full_like,
    meshgrid,
    scalar_to_tensor,
    tuple_to_array,
)
from cellgraph.ops.function.array_func.indexing import (
    apply_along,
    gather_elements,
    index_fill,
    inplace_add,
    inplace_sub,
    inplace_update,
    list_diff,
    masked_fill,
    masked_scatter,
    reverse_sequence,
    unique_consecutive,
    unique_with_pad,
)
from cellgraph.ops.function.array_func.matrix import (
    diag,
    matrix_band_part,
    matrix_diag,
    matrix_diag_part,
    matrix_set_diag,
    tril,
    triu,
)
from cellgraph.ops.function.array_func.padding import pad as padding_op
from cellgraph.ops.function.array_func.padding import padding
from cellgraph.ops.function.array_func.segment import (
    segment_max,
    segment_mean,
    segment_min,
    segment_prod,
    segment_sum,
    unsorted_segment_max,
    unsorted_segment_min,
    unsorted_segment_prod,
    unsorted_segment_sum,
)
from cellgraph.ops.function.array_func.shape import (
    batch_to_space_nd,
    expand,
    flip,
    narrow,
    space_to_batch_nd,
    swapaxes,
    unstack,
)
from cellgraph.ops.function.array_func.shape import flip as _flip
from cellgraph.ops.function.math_func.creation import _range, tril_indices, triu_indices
from cellgraph.ops.function.math_func.elementwise import isinf, isnan, mvlgamma, population_count
from cellgraph.ops.function.math_func.linalg import lstsq
from cellgraph.ops.function.math_func.reduction import cumprod
from cellgraph.ops.function.nn_func.basic import channel_shuffle
from cellgraph.ops.function.nn_func.conv import _ints, _patches, col2im, extract_patches
from cellgraph.ops.function.nn_func.image import _nearest, affine_grid, nearest_v2_matrix
from cellgraph.ops.operations._required import require
from cellgraph.ops.primitive_class import (
    PrimitiveClass,
    _init,
    define_class,
    define_classes,
    function_class,
    generate_classes,
)
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.check_convert import (
    check_tensor_dtype,
    check_tensor_type,
    check_tensor_types_same,
    check_types_same,
    not_tensor_error,
    tensor_dtype_error,
)
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.core import TensorType, abstract_of, normalize_axis, value_input
from cellgraph.primitives.errors import (
    ArgumentValueError,
    DTypeError,
    ShapeError,
    UnsupportedError,
)
from cellgraph.primitives.exports import REQUIRED
from cellgraph.primitives.nn_functional import argmax
from cellgraph.primitives.sort_ops import searchsorted, tensor_scatter_elements_
from cellgraph.transform import user_loc

__all__ = ["ArgMaxWithValue", "ArgMinWithValue", "Argmax", "BroadcastTo", "Cast", "Concat",
           "ConcatOffsetV1", "ConjugateTranspose", "DType", "ExpandDims", "ExtractImagePatches", "Eye",
           "Fill", "FillV2", "Gather", "GatherD",
           "Identity", "Im2Col", "MaskedFill", "MaskedScatter", "Ones", "Range", "Rank", "Reshape",
           "ResizeNearestNeighbor", "ResizeNearestNeighborV2", "ReverseSequence", "ReverseV2", "ScalarToTensor", "ScatterAdd",
           "ScatterNdAdd", "ScatterNdDiv", "ScatterNdMax", "ScatterNdMin", "ScatterNdMul",
           "ScatterNdSub", "ScatterNdUpdate", "ScatterUpdate", "SegmentMax", "SegmentMean",
           "SegmentMin", "SegmentProd", "SegmentSum", "Shape", "Size", "Slice", "Split",
           "Squeeze", "Stack", "StridedSlice", "TensorShape", "Tile", "Transpose", "TupleToArray",
           "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd", "UnsortedSegmentSum",
           "Unstack", "Zeros"]


# the classes over one functional op, their static params keyword arguments of it
Reshape = define_class("Reshape", F.reshape, module=__name__)
Transpose = define_class("Transpose", F.transpose, module=__name__)
Cast = define_class("Cast", F.cast, module=__name__)
ExpandDims = define_class("ExpandDims", F.expand_dims, module=__name__)
Fill = define_class("Fill", F.fill, module=__name__)


def _fill_v2(shape, value):
    """A Tensor of `shape` (a 1-D int32/int64 Tensor of the sizes, or a tuple) filled with the
    one element of the Tensor `value`, in its dtype. The sizes are read from `shape`'s values,
    so in a graph they must be known when it is built."""
    if is_tensor(shape) and not isinstance(shape, np.ndarray):
        aval = abstract_of(shape)
        check_tensor_dtype("FillV2", "shape", aval.dtype, (dt.int32, dt.int64))
        if aval.ndim != 1:
            raise ArgumentValueError("For Primitive[FillV2], Shape of shape value only could be "
                                     "one-dimensional")
        sizes = tuple(int(v) for v in np.asarray(shape))
    else:
        sizes = tuple(int(v) for v in shape)
    for i, n in enumerate(sizes):
        if n < 0:
            raise ArgumentValueError(f"For primitive[FillV2], the the {i}th dimension of input "
                                     f"shape must be greater than or equal to 0, but got {n}.")
    if not is_tensor(value) or isinstance(value, np.ndarray):
        raise not_tensor_error("FillV2", "y", value)
    count = int(np.prod(abstract_of(value).shape))
    if count != 1:
        raise ArgumentValueError(f"For primitive[FillV2], the size of the input [fill_value] must "
                                 f"be equal to 1, but got {count}.")
    return F.broadcast_to(F.reshape(value, ()), sizes)


FillV2 = define_class("FillV2", _fill_v2, module=__name__)
Gather = define_class("Gather", lambda input_params, input_indices, axis, batch_dims=0: F.gather(
    input_params, input_indices, axis, batch_dims), {"batch_dims": 0}, module=__name__)
BroadcastTo = require(define_class("BroadcastTo", lambda x, shape: F.broadcast_to(x, shape),
                                   {"shape": None}, module=__name__), "shape")
Squeeze = define_class("Squeeze", lambda x, axis=(): F.squeeze(x, axis), {"axis": ()},
                       module=__name__)
Concat = define_class("Concat", lambda tensors, axis=0: F.concat(tensors, axis), {"axis": 0}, module=__name__)
Stack = define_class("Stack", lambda x, axis=0: F.stack(x, axis), {"axis": 0}, module=__name__)
Identity = function_class("Identity", identity)


def _conjugate_transpose(x, perm):
    """x transposed by `perm`, complex values conjugated (real ones as they are)."""
    out = F.transpose(x, perm)
    return F.conj(out) if abstract_of(out).dtype.is_complex else out


def _concat_offset_v1(axis, x):
    """Where each input's block starts when the shapes `x` (1-D int32 Tensors) are joined
    along `axis` (an int32 Tensor, read when the graph runs): per input, zeros but the sum of
    the earlier inputs' sizes at `axis`."""
    shapes = F.stack([F.cast(s, dt.int32) for s in x], 0)           # (inputs, rank)
    rank = abstract_of(shapes).shape[1]
    axis = F.cast(F.reshape(axis, ()), dt.int32)
    axis = F.select(F.less(axis, 0), F.add(axis, rank), axis)
    at_axis = F.cast(F.equal(F.cast(_range(0, rank, 1), dt.int32), axis), dt.int32)
    sizes = F.reduce_sum(F.mul(shapes, at_axis), 1)                   # (inputs,)
    starts = F.sub(NF.cumsum(sizes, 0), sizes)
    return tuple(F.mul(at_axis, starts[i]) for i in range(len(x)))


ConjugateTranspose = function_class("ConjugateTranspose", _conjugate_transpose)
ConcatOffsetV1 = function_class("ConcatOffsetV1", _concat_offset_v1)
Shape = function_class("Shape", shape)
DType = function_class("DType", dtype)
TensorShape = function_class("TensorShape", tensor_shape)


class _Creation(PrimitiveClass):
    def __init__(self):
        super().__init__()

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class Zeros(_Creation):
    """`ops.Zeros()(shape, dtype)`."""

    def __call__(self, size, type=None):
        return F.zeros(size, type)


class Ones(_Creation):
    """`ops.Ones()(shape, dtype)`."""

    def __call__(self, size, type=None):
        return F.ones(size, type)


class Eye(_Creation):
    """`ops.Eye()(n, m, dtype)`."""

    def __call__(self, n, m, t):
        return eye(n, m, t)


UnsortedSegmentSum = function_class("UnsortedSegmentSum", unsorted_segment_sum)
UniqueWithPad = function_class("UniqueWithPad", unique_with_pad)
SegmentSum = function_class("SegmentSum", segment_sum)
SegmentMean = function_class("SegmentMean", segment_mean)
SegmentMax = function_class("SegmentMax", segment_max)
SegmentMin = function_class("SegmentMin", segment_min)
SegmentProd = function_class("SegmentProd", segment_prod)


UnsortedSegmentMax = function_class("UnsortedSegmentMax", unsorted_segment_max)


UnsortedSegmentMin = function_class("UnsortedSegmentMin", unsorted_segment_min)


UnsortedSegmentProd = function_class("UnsortedSegmentProd", unsorted_segment_prod)


Range = define_class("Range", _range, {"maxlen": 1000000}, module=__name__)


def _unstack(input_x, axis=0, num=None):
    """The slices along `axis`; `num`, when given, must be that axis's length."""
    length = abstract_of(input_x).shape[normalize_axis(axis, abstract_of(input_x).ndim)]
    if num is not None and num != length:
        raise ArgumentValueError(f"Unstack: num={num} but axis {axis} has length {length}")
    return unstack(input_x, axis)


Unstack = define_class("Unstack", _unstack, {"axis": 0, "num": None}, module=__name__)


class ResizeNearestNeighbor(PrimitiveClass):
    """`ops.ResizeNearestNeighbor(size, align_corners)(x)` over (N, C, H, W)."""

    def __init__(self, size, align_corners=False, half_pixel_centers=False):
        if half_pixel_centers:
            raise UnsupportedError("ResizeNearestNeighbor: half_pixel_centers=True is not "
                                   "supported (only the corner-aligned or floor sampling)")
        self.size, self.align_corners = tuple(size), align_corners

    def __call__(self, x):
        shape = abstract_of(x).shape
        for axis, out in zip((2, 3), self.size):
            x = apply_along(x, _nearest(shape[axis], int(out), self.align_corners), axis)
        return x


class ResizeNearestNeighborV2(PrimitiveClass):
    """`ResizeNearestNeighborV2(align_corners=False, half_pixel_centers=False)(x, size)`: the
    (N, C, H, W) x resized to `size` (a 1-D Tensor [new_h, new_w], known when the graph is
    built) by nearest neighbour as MindSpore's CPU kernel picks it (`nearest_v2_matrix`)."""

    def __init__(self, align_corners=False, half_pixel_centers=False):
        for name, value in (("align_corners", align_corners),
                            ("half_pixel_centers", half_pixel_centers)):
            if not isinstance(value, bool):
                raise DTypeError(f"For 'ResizeNearestNeighborV2', the type of '{name}' should be "
                                 f"'bool', but got type '{type(value).__name__}'.")
        if align_corners and half_pixel_centers:
            raise ArgumentValueError("For 'ResizeNearestNeighborV2', If half_pixel_centers is "
                                     "True, align_corners must be False, but got True")
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers

    def __call__(self, x, size):
        shape, dtype = abstract_of(x).shape, abstract_of(x).dtype
        if dtype not in (dt.uint8, dt.float16, dt.float32, dt.float64):
            raise DTypeError(f"For 'ResizeNearestNeighborV2', the dtype of 'x' must be uint8, "
                             f"float16, float32 or float64 (its CPU kernels), but got {dtype}.")
        if len(shape) != 4:
            raise ShapeError(f"For 'ResizeNearestNeighborV2', the dimension of 'x' must be 4, but "
                             f"got {len(shape)}.")
        out = [int(v) for v in np.asarray(value_input(size, "ResizeNearestNeighborV2",
                                                      "size")).reshape(-1)]
        if len(out) != 2 or min(out) <= 0:
            raise ArgumentValueError(f"For 'ResizeNearestNeighborV2', 'size' must be two positive "
                                     f"values, but got {out}.")
        for axis, size_out in zip((2, 3), out):
            x = apply_along(x, nearest_v2_matrix(shape[axis], size_out, self.align_corners,
                                           self.half_pixel_centers), axis)
        return x

    def __repr__(self) -> str:
        return (f"ResizeNearestNeighborV2(align_corners={self.align_corners}, "
                f"half_pixel_centers={self.half_pixel_centers})")


def _im2col(x, ksizes, strides=1, dilations=1, pads=0):
    op = "Im2Col"
    pad = _ints(pads, 2, op, "pads") if not isinstance(pads, (tuple, list)) or len(pads) <= 2 \
        else None
    if pad is None:
        raise ArgumentValueError(f"{op}: `pads` must be 1 or 2 ints, got {pads!r}")
    blocks = _patches(x, _ints(ksizes, 2, op, "ksizes"), _ints(strides, 2, op, "strides"),
                      _ints(dilations, 2, op, "dilations"), (pad[0], pad[0], pad[1], pad[1]), op)
    n, c, k, oh, ow = abstract_of(blocks).shape
    return F.reshape(blocks, (n, c, k, oh * ow))


Im2Col = require(define_class("Im2Col", _im2col,
                              {"ksizes": None, "strides": 1, "dilations": 1, "pads": 0},
                              module=__name__), "ksizes")


ExtractImagePatches = require(define_class("ExtractImagePatches", extract_patches,
                                           {"ksizes": None, "strides": None, "rates": None,
                                            "padding": "VALID"}, module=__name__),
                              "ksizes", "strides", "rates")


class ReverseSequence(PrimitiveClass):
    """`ops.ReverseSequence(seq_dim, batch_dim)(x, seq_lengths)`."""

    def __init__(self, seq_dim, batch_dim=0):
        self.seq_dim, self.batch_dim = seq_dim, batch_dim

    def __call__(self, x, seq_lengths):
        return reverse_sequence(x, seq_lengths, self.seq_dim, self.batch_dim)


class MaskedScatter(PrimitiveClass):
    """`ops.MaskedScatter()(input, mask, updates)`."""

    def __call__(self, input, mask, updates):
        return masked_scatter(input, mask, updates)


class Rank(PrimitiveClass):
    """`ops.Rank()(x)`: the number of axes, a Python int."""

    def __call__(self, input_x):
        return rank(input_x)


def _size(x) -> int:
    return int(np.prod(abstract_of(x).shape))


Size = function_class("Size", _size, "The number of elements, a Python int.")


MaskedFill = function_class("MaskedFill", masked_fill)


GatherD = function_class("GatherD", gather_elements)


ScalarToTensor = function_class("ScalarToTensor", scalar_to_tensor)


TupleToArray = function_class("TupleToArray", tuple_to_array)


class ReverseV2(PrimitiveClass):
    """`ops.ReverseV2(axis)(x)`: x reversed along the axes of `axis` (a tuple or list)."""

    def __init__(self, axis):
        if not isinstance(axis, (tuple, list)):
            raise DTypeError(f"For 'ReverseV2', the type of 'axis' should be one of '[list of "
                             f"int, tuple of int]', but got {type(axis)}.")
        self.axis = tuple(axis)

    def __call__(self, x):
        return flip(x, self.axis)


class _ArgWithValue(PrimitiveClass):
    sign = 1.0

    def __init__(self, axis=0, keep_dims=False):
        self.axis, self.keep_dims = axis, keep_dims

    def __call__(self, x):
        index = argmax(F.mul(x, self.sign), self.axis, self.keep_dims)
        values = F.reduce_max(x, self.axis, self.keep_dims) if self.sign > 0 else \
            F.reduce_min(x, self.axis, self.keep_dims)
        return F.cast(index, dt.int64), values


class ArgMaxWithValue(_ArgWithValue):
    """(index, value) of the maximum along `axis`."""


class ArgMinWithValue(_ArgWithValue):
    """(index, value) of the minimum along `axis`."""

    sign = -1.0


class Argmax(PrimitiveClass):
    """`ops.Argmax(axis=-1, output_type=int32)(x)`: indices of the maxima along axis."""

    _init_names, _defaults = _init(axis=-1, output_type=dt.int32)

    def __call__(self, x):
        return NF.argmax_typed(x, self.axis, False, self.output_type)


class Tile(PrimitiveClass):
    """`ops.Tile()(x, multiples)`."""

    _init_names, _defaults = _init()

    def __call__(self, x, multiples):
        return NF.tile(x, multiples)


class Split(PrimitiveClass):
    """`ops.Split(axis=0, output_num=1)(x)`: a tuple of output_num equal pieces."""

    _init_names, _defaults = _init(axis=0, output_num=1)

    def __call__(self, x):
        return NF.split_equal(x, self.axis, self.output_num)


class StridedSlice(PrimitiveClass):
    """`ops.StridedSlice(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
    shrink_axis_mask=0)(x, begin, end, strides)`."""

    _init_names, _defaults = _init(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                                   shrink_axis_mask=0)

    def __call__(self, x, begin, end, strides):
        return NF.strided_slice(x, begin, end, strides, **self._attrs)


class Slice(PrimitiveClass):
    """`ops.Slice()(x, begin, size)`."""

    _init_names, _defaults = _init()

    def __call__(self, x, begin, size):
        return NF.slice(x, begin, size)


# classes over compositions (MindSpore's own; their values checked against MindSpore's)
def _cumprod(x, axis, exclusive=False, reverse=False):
    """The running product along `axis`; `exclusive` leaves each element out of its own
    product, `reverse` runs from the end."""
    if reverse:
        x = _flip(x, (axis,))
    out = cumprod(x, axis)
    if exclusive:
        axis = axis % len(x.shape)
        ones = F.ones_like(narrow(x, axis, 0, 1))
        out = F.concat((ones, narrow(out, axis, 0, x.shape[axis] - 1)), axis)
    return _flip(out, (axis,)) if reverse else out


Tril = define_class("Tril", lambda x, diagonal=0: tril(x, diagonal), {"diagonal": 0},
                    module=__name__)
Triu = define_class("Triu", lambda x, diagonal=0: triu(x, diagonal), {"diagonal": 0},
                    module=__name__)
Meshgrid = define_class("Meshgrid", lambda inputs, indexing="xy": meshgrid(
    *inputs, indexing=indexing), {"indexing": "xy"}, module=__name__)
CumProd = define_class("CumProd", _cumprod, {"exclusive": False, "reverse": False},
                       module=__name__)
Diag = define_class("Diag", diag, module=__name__)
Expand = define_class("Expand", expand, module=__name__)
MatrixDiagV3 = define_class(
    "MatrixDiagV3", lambda x, k, num_rows, num_cols, padding_value, align="RIGHT_LEFT":
    matrix_diag(x, k, num_rows, num_cols, padding_value, align), {"align": "RIGHT_LEFT"},
    module=__name__)
MatrixDiagPartV3 = define_class(
    "MatrixDiagPartV3", lambda x, k, padding_value, align="RIGHT_LEFT":
    matrix_diag_part(x, k, padding_value, align), {"align": "RIGHT_LEFT"}, module=__name__)
MatrixSetDiagV3 = define_class(
    "MatrixSetDiagV3", lambda x, diagonal, k, align="RIGHT_LEFT":
    matrix_set_diag(x, diagonal, k, align), {"align": "RIGHT_LEFT"}, module=__name__)
NonZero = define_class("NonZero", F.nonzero, module=__name__)
PopulationCount = define_class("PopulationCount", population_count, module=__name__)
SearchSorted = define_class("SearchSorted", lambda sorted_sequence, values, sorter=None,
                            dtype=dt.int64, right=False: F.searchsorted(
                                sorted_sequence, values, out_int32=dtype == dt.int32,
                                right=right, sorter=sorter),
                            {"dtype": dt.int64, "right": False}, module=__name__)
Rint = define_class("Rint", lambda x: F.round(x), module=__name__)  # halves to even


class _BlockMove(PrimitiveClass):
    """DepthToSpace and SpaceToDepth on NCHW: `block_size` x `block_size` blocks of pixels
    to and from channels, the channel index (i * block_size + j) * C + c."""

    def __init__(self, block_size):
        if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 2:
            raise ArgumentValueError(f"For '{type(self).__name__}', the 'block_size' must be an "
                                     f"int >= 2, but got {block_size!r}")
        self.block_size = block_size

    def __repr__(self) -> str:
        return f"{type(self).__name__}(block_size={self.block_size})"


class DepthToSpace(_BlockMove):
    def __call__(self, x):
        _, c, h, w = x.shape
        b = self.block_size
        if c % (b * b):
            raise ArgumentValueError(f"For 'DepthToSpace', the channels {c} must be a multiple "
                                     f"of block_size * block_size = {b * b}")
        x = F.reshape(x, (-1, b, b, c // (b * b), h, w))  # -1: a batch known at run time
        return F.reshape(F.transpose(x, (0, 3, 4, 1, 5, 2)), (-1, c // (b * b), h * b, w * b))


class SpaceToDepth(_BlockMove):
    def __call__(self, x):
        _, c, h, w = x.shape
        b = self.block_size
        if h % b or w % b:
            raise ArgumentValueError(f"For 'SpaceToDepth', the height {h} and width {w} must be "
                                     f"multiples of block_size {b}")
        x = F.reshape(x, (-1, c, h // b, b, w // b, b))  # -1: a batch known at run time
        return F.reshape(F.transpose(x, (0, 3, 5, 1, 2, 4)), (-1, b * b * c, h // b, w // b))


def _embedding_lookup(input_params, input_indices, offset):
    """Rows `input_indices - offset` of `input_params`; an index outside [0, rows) gives a row
    of zeros (MindSpore's EmbeddingLookup, for a table sharded by row ranges)."""
    rows = input_params.shape[0]
    local = F.sub(input_indices, offset)
    inside = F.logical_and(F.greater_equal(local, 0), F.less(local, rows))
    picked = F.gather(input_params, F.select(inside, local, F.zeros_like(local)), 0)
    mask = F.reshape(F.cast(inside, abstract_of(input_params).dtype),
                     tuple(local.shape) + (1,) * (len(input_params.shape) - 1))
    return F.mul(picked, mask)


EmbeddingLookup = define_class("EmbeddingLookup", _embedding_lookup, module=__name__)


class _RowsClass(PrimitiveClass):
    """`InplaceAdd(indices)(x, v)` and its kin: the ops function over the rows `indices`."""

    _fn = None

    def __init__(self, indices):
        self.indices = indices

    def __call__(self, x, v):
        return type(self)._fn(x, v, self.indices)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(indices={self.indices})"


class InplaceAdd(_RowsClass):
    _fn = staticmethod(inplace_add)


class InplaceSub(_RowsClass):
    _fn = staticmethod(inplace_sub)


class InplaceUpdate(_RowsClass):
    _fn = staticmethod(inplace_update)


# the rows as an operand (a Tensor or a tuple), where InplaceUpdate takes them when it is made
InplaceUpdateV2 = define_class("InplaceUpdateV2", lambda x, indices, v: inplace_update(
    x, v, indices), module=__name__)


class IndexAdd(PrimitiveClass):
    """`IndexAdd(axis)(input_x, indices, input_y)`: input_x (a Parameter) with input_y's
    slices along `axis` added at `indices`, in place; returns the new value (ops.index_add)."""

    def __init__(self, axis, use_lock=True, check_index_bound=True):
        self.axis, self.use_lock, self.check_index_bound = axis, use_lock, check_index_bound

    def __call__(self, input_x, indices, input_y):
        from cellgraph.ops.function.math_func.elementwise import index_add

        return index_add(input_x, indices, input_y, self.axis, self.use_lock,
                         self.check_index_bound)


class Lstsq(PrimitiveClass):
    """`ops.Lstsq(fast=True, l2_regularizer=0.0)(x, a)`: ops.lstsq; MindSpore accepts only
    those values of its two attributes."""

    def __init__(self, fast=True, l2_regularizer=0.0):
        if fast is not True:
            raise DTypeError(f"For 'Lstsq', the 'fast' should be True, but got '{fast}'.")
        if l2_regularizer != 0.0 or type(l2_regularizer) is not float:
            raise DTypeError(f"For 'Lstsq', the 'l2_regularizer' should be 0.0, but got "
                             f"'{l2_regularizer}'.")
        self.fast, self.l2_regularizer = fast, l2_regularizer

    def __call__(self, x, a):
        return lstsq(x, a)


class Mvlgamma(define_class("Mvlgamma", mvlgamma, {"p": REQUIRED}, __name__)):
    """`ops.Mvlgamma(p)(x)`: ops.mvlgamma, p checked when it is made."""

    def __init__(self, p):
        if isinstance(p, bool) or not isinstance(p, int):
            raise DTypeError(f"For 'Mvlgamma', the type of 'p' should be 'int', but got type "
                             f"'{type(p).__name__}'.")
        if p < 1:
            raise ArgumentValueError(f"For 'Mvlgamma', the 'p' must be int and must > 0, but "
                                     f"got '{p}' with type 'int'.")
        super().__init__(p)


Padding = define_class("Padding", padding, {"pad_dim_size": 8}, __name__,
                       "`ops.Padding(pad_dim_size=8)(x)`: ops.padding.")


class FillDiagonal(PrimitiveClass):
    """`FillDiagonal(fill_value, wrap=False)(input_x)`: the main diagonal (all indices equal)
    set to `fill_value`, NumPy's fill_diagonal; `wrap` continues it every columns + 1 rows of a
    tall matrix."""

    def __init__(self, fill_value, wrap=False):
        self.fill_value, self.wrap = fill_value, wrap

    def __call__(self, input_x):
        shape = tuple(input_x.shape)
        if len(shape) < 2 or (len(shape) > 2 and len(set(shape)) != 1):
            raise ArgumentValueError(f"For 'FillDiagonal', the input must be at least 2-D and, "
                                     f"above 2-D, have all dimensions equal, got {shape}")
        mask = np.zeros(shape, bool)
        np.fill_diagonal(mask, True, wrap=self.wrap)
        fill = F.cast(full_like(input_x, self.fill_value), abstract_of(input_x).dtype)
        return F.select(_const(mask, dt.bool_), fill, input_x)

    def __repr__(self) -> str:
        return f"FillDiagonal(fill_value={self.fill_value}, wrap={self.wrap})"


class BatchToSpaceND(PrimitiveClass):
    """`BatchToSpaceND(block_shape, crops)(x)`: ops.batch_to_space_nd."""

    def __init__(self, block_shape, crops):
        self.block_shape, self.crops = block_shape, crops

    def __call__(self, input_x):
        return batch_to_space_nd(input_x, self.block_shape, self.crops)

    def __repr__(self) -> str:
        return f"BatchToSpaceND(block_shape={self.block_shape}, crops={self.crops})"


class SpaceToBatchND(PrimitiveClass):
    """`SpaceToBatchND(block_shape, paddings)(x)`: ops.space_to_batch_nd."""

    def __init__(self, block_shape, paddings):
        self.block_shape, self.paddings = block_shape, paddings

    def __call__(self, input_x):
        return space_to_batch_nd(input_x, self.block_shape, self.paddings)

    def __repr__(self) -> str:
        return f"SpaceToBatchND(block_shape={self.block_shape}, paddings={self.paddings})"


__all__ += [
    "BatchToSpaceND",
    "CumProd",
    "DepthToSpace",
    "Diag",
    "EmbeddingLookup",
    "Expand",
    "FillDiagonal",
    "IndexAdd",
    "InplaceAdd",
    "InplaceSub",
    "InplaceUpdate",
    "InplaceUpdateV2",
    "Lstsq",
    "MatrixDiagPartV3",
    "MatrixDiagV3",
    "MatrixSetDiagV3",
    "Meshgrid",
    "Mvlgamma",
    "NonZero",
    "Padding",
    "PopulationCount",
    "Rint",
    "SearchSorted",
    "SpaceToBatchND",
    "SpaceToDepth",
    "Tril",
    "Triu",
    "UniqueWithPad",
]



# ----- MindSpore's older names and the classes of functional ops cellgraph computes -------------

class Pack(Stack):
    """MindSpore's older name of Stack: `Pack(axis)(tensors)`."""


class Unpack(Unstack):
    """MindSpore's older name of Unstack: `Unpack(axis)(x)`."""

    def __init__(self, axis=0):
        super().__init__(axis)


class GatherV2(Gather):
    """MindSpore's older name of Gather: `GatherV2()(params, indices, axis)`."""

    def __init__(self):
        super().__init__()


def _bound(side: str):
    def call(sorted_x, values, out_type=dt.int32):
        """For each row of `values`, the insertion positions in the same row of `sorted_x`."""
        positions = searchsorted(sorted_x, values, right=side == "right")
        return F.cast(positions, out_type)

    return call


def _index_put(x1, x2, indices, accumulate=0):
    """x1 with the values x2 written (added, with accumulate=1) at the positions the tuple of
    index Tensors picks, one Tensor per leading axis."""
    positions = F.stack([F.cast(i, dt.int64) for i in indices], -1)
    lead = tuple(abstract_of(positions).shape[:-1]) + tuple(abstract_of(x1).shape[len(indices):])
    values = F.broadcast_to(F.cast(x2, abstract_of(x1).dtype), lead)
    scatter = F.tensor_scatter_add if accumulate else F.tensor_scatter_update
    return scatter(x1, positions, values)


def _diag_part(x):
    """The diagonal of a (d1, .., dk, d1, .., dk) Tensor: out[i1..ik] = x[i1..ik, i1..ik]."""
    shape = tuple(abstract_of(x).shape)
    half = len(shape) // 2
    size = int(np.prod(shape[:half], dtype=np.int64))
    flat = F.reshape(x, (size, size))
    picks = _const(np.arange(size, dtype=np.int64) * (size + 1), dt.int64)
    return F.reshape(F.gather(F.reshape(flat, (-1,)), picks, 0), shape[:half])


def _invert_permutation(x):
    """The inverse of the permutation x (a tuple of ints, or a 1-D int Tensor)."""
    values = np.asarray(value_input(x, "InvertPermutation", "x"), np.int64)
    if sorted(values.tolist()) != list(range(len(values))):
        raise ArgumentValueError(f"For 'InvertPermutation', the input must be a permutation of "
                                 f"0 .. n - 1, but got {values.tolist()}.")
    inverse = np.argsort(values)
    return tuple(int(v) for v in inverse) if isinstance(x, (tuple, list)) else _const(
        inverse.astype(abstract_of(x).dtype.np), abstract_of(x).dtype)


def _select_view(input, index, dim):
    """SelectView(input, index, dim): the slice at `index` along `dim`, that axis removed
    (MindSpore's operands in this order)."""
    axis = normalize_axis(dim, len(abstract_of(input).shape))
    size = abstract_of(input).shape[axis]
    return F.squeeze(narrow(input, axis, index % size if size else index, 1), axis)


# MindSpore's view operations: the same values as the operations they view through (cellgraph's
# Tensors never share storage, so an in-place write to the result does not reach the input)
_VIEW_CLASSES = {
    "TransposeView": (F.transpose, {}),
    "TransposeExtView": (swapaxes, {}),
    "SelectView": (_select_view, {}),
}

class AffineGrid(PrimitiveClass):
    """`ops.AffineGrid(align_corners=False)(theta, output_size)`: the sampling grid of the
    affine maps `theta` over an output of `output_size` (`affine_grid`)."""

    def __init__(self, align_corners=False):
        from cellgraph import _checkparam as validator

        self.align_corners = validator.check_value_type("align_corners", align_corners, [bool],
                                                        "AffineGrid")

    def __call__(self, theta, output_size):
        return affine_grid(theta, output_size, self.align_corners)


__all__ += ["AffineGrid"]


class ListDiff(PrimitiveClass):
    """`ListDiff(out_idx=mstype.int32)(x, y)`: the elements of x not in y and their positions
    (`list_diff`); out_idx checked when the class is made, as MindSpore checks it."""

    def __init__(self, out_idx=dt.int32):
        if out_idx not in (dt.int32, dt.int64):
            raise TypeError(f"For 'ListDiff', the 'out_idx' should be in : "
                            f"[mindspore.int32, mindspore.int64], but got {out_idx}.")
        self.out_idx = out_idx
        self._attrs = {"out_idx": out_idx}

    def __call__(self, x, y):
        return list_diff(x, y, self.out_idx)


__all__ += ["ListDiff"]


_FUNCTION_CLASSES = {
    **_VIEW_CLASSES,
    "IndexFill": (index_fill, {}),
    "IndexPut": (_index_put, {"accumulate": 0}),
    "UniqueConsecutive": (lambda x, return_inverse, return_counts, dim: unique_consecutive(
        x, return_inverse, return_counts, dim),
        {"return_inverse": False, "return_counts": False, "dim": None}),
    "DiagPart": (_diag_part, {}),
    "MatrixBandPart": (matrix_band_part, {}),
    "LowerBound": (_bound("left"), {"out_type": dt.int32}),
    "UpperBound": (_bound("right"), {"out_type": dt.int32}),
    "TrilIndices": (lambda row, col, offset, dtype: tril_indices(row, col, offset, dtype=dtype),
                    {"row": REQUIRED, "col": REQUIRED, "offset": 0, "dtype": dt.int32}),
    "TriuIndices": (lambda row, col, offset, dtype: triu_indices(row, col, offset, dtype=dtype),
                    {"row": REQUIRED, "col": REQUIRED, "offset": 0, "dtype": dt.int32}),
    "InvertPermutation": (_invert_permutation, {}),
    "ChannelShuffle": (lambda x, group: channel_shuffle(x, group), {"group": REQUIRED}),
    "Col2Im": (lambda x, output_size, kernel_size, dilation, padding, stride: col2im(
        x, output_size, kernel_size, dilation, padding, stride),
        {"kernel_size": REQUIRED, "dilation": 1, "padding": 0, "stride": 1}),
}
__all__ += ["GatherV2", "Pack", "Unpack"]
define_classes(globals(), _FUNCTION_CLASSES, __name__)
__all__ += list(_FUNCTION_CLASSES)


# ----- MindSpore's deprecated array classes its CPU kernels still run


def _tensor_type(value) -> str:
    """MindSpore's name of a value's type in its errors: `Tensor[Float32]`, `int`, ..."""
    if is_tensor(value) and not isinstance(value, np.ndarray):
        return f"Tensor[{abstract_of(value).dtype}]"
    return type(value).__name__


def _unravel_index(indices, dims):
    """The coordinates of the flat `indices` (0-D or 1-D) in an array of shape `dims` (1-D, of
    the same int32/int64 dtype), one row per dimension: `(len(dims), n)`, or `(len(dims),)` for
    a 0-D `indices`. `dims` is read when the graph is built; an index that is negative or past
    the array's size is MindSpore's ValueError when it runs."""
    op = "For primitive[UnravelIndex]"
    for name, value in (("dims", dims), ("indices", indices)):
        if not is_tensor(value):
            raise tensor_dtype_error("UnravelIndex", name, (dt.int32, dt.int64),
                                     _tensor_type(value))
    check_tensor_types_same("UnravelIndex", {"dims": abstract_of(dims).dtype,
                                             "indices": abstract_of(indices).dtype},
                            (dt.int32, dt.int64))
    if abstract_of(dims).ndim != 1:
        raise ArgumentValueError(f"{op}, the dims shape must be equal to 1, but got "
                                 f"{abstract_of(dims).ndim}.")
    if abstract_of(indices).ndim > 1:
        raise ArgumentValueError(f"{op}, the indices shape must be equal to 1, but got "
                                 f"{abstract_of(indices).ndim}.")
    sizes = [int(n) for n in value_input(dims, "UnravelIndex", "dims")]
    indices = check_range(indices, low=0, high=max(int(np.prod(sizes)), 1), what="index",
                          op="UnravelIndex", error="value")
    strides = np.cumprod([1, *sizes[::-1]])[:-1][::-1]
    return F.stack([F.floor_mod(F.floor_div(indices, int(stride)), size)
                    for stride, size in zip(strides, sizes)], 0)


def _identity_n(x):
    """The Tensors of the list or tuple `x`, as a tuple."""
    if not isinstance(x, (list, tuple)) or not all(is_tensor(v) for v in x):
        raise DTypeError(f"For [IdentityN] should have ListTensor or TupleTensor input but get "
                         f"{_tensor_type(x)}")
    return tuple(identity(v) for v in x)


def _parallel_concat(values):
    """The Tensors of `values`, each of first dimension 1 and all of one shape and dtype,
    joined along the first axis."""
    op = "ParallelConcat"
    if not isinstance(values, (list, tuple)) or not all(is_tensor(v) for v in values):
        raise DTypeError(f"For '{op}', the input must be a tuple or list of Tensors, but got "
                         f"{_tensor_type(values)}.")
    avals = [abstract_of(v) for v in values]
    check_types_same(op, {f"element{i}": aval.dtype for i, aval in enumerate(avals)})
    for i, aval in [*enumerate(avals)][1:] + [(0, avals[0])]:  # MindSpore's order
        if aval.ndim < 1:
            raise ArgumentValueError(f"For [{op}], the rank of input x{i} must be greater than "
                                     f"0, but got {aval.ndim}.")
        if aval.shape[0] != 1:
            raise ArgumentValueError(f"For primitive[{op}], the x{i}.shape[0] must be equal to "
                                     f"1, but got {aval.shape[0]}.")
        if aval.ndim != avals[0].ndim:
            raise ArgumentValueError(f"For [{op}], the rank of all elements should be the "
                                     f"same, but got {avals[0].ndim} and {aval.ndim}.")
        for d in range(1, aval.ndim):
            if aval.shape[d] != avals[0].shape[d]:
                raise ArgumentValueError(
                    f"For [{op}], the shape of all elements should be the same, but got "
                    f"x0.shape[{d}] = [{avals[0].shape[d]}] and x{i}.shape[{d}] = "
                    f"[{aval.shape[d]}].")
    return F.concat(tuple(values), 0)


class ScatterAddWithAxis(PrimitiveClass):
    """`ops.ScatterAddWithAxis(axis=0)(input_x, indices, updates)`: `input_x` with `updates`
    (cast to its dtype) added along `axis` at `indices`, as TensorScatterElements with reduction
    "add" (MindSpore's class, deprecated; `input_x` itself is not written). An index past the
    axis is MindSpore's ValueError when it runs."""

    def __init__(self, axis=0):
        self.axis = check_value_type("axis", axis, [int], "ScatterAddWithAxis")
        self._attrs = {"axis": axis}

    def __call__(self, input_x, indices, updates):
        aval = abstract_of(input_x)
        size = aval.shape[normalize_axis(self.axis, aval.ndim)]
        indices = check_range(indices, low=-size, high=max(size, 1), what="index",
                              op="ScatterAddWithAxis", error="value")
        return tensor_scatter_elements_(input_x, indices, F.cast(updates, aval.dtype), self.axis,
                                        reduction="add")


def _check_numerics(x):
    """`x`, a float Tensor, unchanged; a NaN or an infinity in it is MindSpore's RuntimeError
    when it runs."""
    if not is_tensor(x) or abstract_of(x).dtype not in (dt.float16, dt.float32, dt.float64):
        raise tensor_dtype_error("CheckNumerics", "x", (dt.float16, dt.float32, dt.float64),
                                 _tensor_type(x))
    for test, what in ((isnan, "count of NaN values"), (isinf, "count of Inf values")):
        check_range(F.reduce_sum(F.cast(test(x), dt.int32)), low=0, high=1, what=what,
                    op="CheckNumerics", error="runtime")
    return x


def _volume_sizes(name: str, value, op: str) -> tuple:
    """(depth, height, width) of an int or a tuple of 3, or 5 whose first two are 1."""
    check_value_type(name, value, (int, list, tuple), op)
    sizes = (value,) * 3 if isinstance(value, int) else tuple(value)
    if len(sizes) == 5:
        for i in (0, 1):
            check_int(sizes[i], 1, EQ, f"{name}[{i}]", op)
        sizes = sizes[2:]
    if len(sizes) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                                  for v in sizes):
        raise ArgumentValueError(f"For '{op}', the parameter '{name}' must be an positive "
                                 f"integer or a tuple of three or five positive integer, but got "
                                 f"{value}")
    return sizes


class ExtractVolumePatches(PrimitiveClass):
    """`ops.ExtractVolumePatches(kernel_size, strides, padding)(input_x)`: the (kd, kh, kw)
    patches of an (N, C, D, H, W) Tensor at `strides`, as channels: out[n, k * C + c, d, h, w]
    for the patch offset k = (dz * kh + dy) * kw + dx. "SAME" pads with zeros (the smaller half
    before) so that each axis gives ceil(size / stride) patches; "VALID" takes those inside."""

    def __init__(self, kernel_size, strides, padding):
        op = "ExtractVolumePatches"
        self.kernel_size = (1, 1, *_volume_sizes("kernel_size", kernel_size, op))
        self.strides = (1, 1, *_volume_sizes("strides", strides, op))
        check_value_type("padding_dtype", padding, (str,), op)
        self.padding = check_string(padding.upper(), ["VALID", "SAME"], "padding", op)
        self._attrs = {"kernel_size": self.kernel_size, "strides": self.strides,
                       "padding": self.padding}

    def __call__(self, input_x):
        op = "ExtractVolumePatches"
        shape = abstract_of(input_x).shape
        if len(shape) != 5:
            raise ArgumentValueError(f"For primitive[{op}], the dimension of input_x must be "
                                     f"equal to 5, but got {len(shape)}.")
        kernel, strides = self.kernel_size[2:], self.strides[2:]
        counts, pads = [], []
        for axis, (size, k, s) in enumerate(zip(shape[2:], kernel, strides), 2):
            if self.padding == "VALID":
                if size < k:
                    raise ArgumentValueError(f"For primitive[{op}], the input[{axis}] must be "
                                             f"greater than or equal to kernel_size[{axis}] "
                                             f"= {k}, but got {size}.")
                counts.append((size - k) // s + 1)
                pads.append((0, 0))
                continue
            total = ((size + s - 1) // s - 1) * s + k - size
            if total < 0:
                raise ArgumentValueError(
                    f"For primitive[{op}], the padding = ((input[{axis}] + strides[{axis}] - 1) "
                    f"/ strides[{axis}]) - 1) * strides[{axis}] + kernel_size[{axis}] - "
                    f"input[{axis}] must be greater than or equal to 0, but got {total}.")
            counts.append((size + s - 1) // s)
            pads.append((total // 2, total - total // 2))
        if any(p != (0, 0) for p in pads):
            flat = tuple(v for pair in reversed(pads) for v in pair)
            input_x = padding_op(input_x, flat)
        patches = []
        for dz in range(kernel[0]):
            for dy in range(kernel[1]):
                for dx in range(kernel[2]):
                    patches.append(input_x[:, :, dz:dz + (counts[0] - 1) * strides[0] + 1:strides[0],
                                           dy:dy + (counts[1] - 1) * strides[1] + 1:strides[1],
                                           dx:dx + (counts[2] - 1) * strides[2] + 1:strides[2]])
        out = F.stack(patches, 1)                                  # (N, K, C, d, h, w)
        return F.reshape(out, (shape[0], len(patches) * shape[1], *counts))


def _levenshtein(truth, hypothesis) -> int:
    """The edit distance between two sequences (insertions, deletions, substitutions)."""
    previous = list(range(len(hypothesis) + 1))
    for i, t in enumerate(truth, 1):
        current = [i]
        for j, h in enumerate(hypothesis, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (t != h)))
        previous = current
    return previous[-1]


def _edit_distances(out_shape: tuple, normalize: bool):
    """The host side of EditDistance: each output position's sequences (the values whose
    indices' leading coordinates name it, in their order) and their distance."""
    strides = np.cumprod([1, *out_shape[::-1]])[:-1][::-1]

    def compute(hyp_indices, hyp_values, truth_indices, truth_values):
        sequences = []
        for name, indices, values in (("hypothesis", hyp_indices, hyp_values),
                                      ("truth", truth_indices, truth_values)):
            lead = np.asarray(indices)[:, :len(out_shape)]
            bad = np.argwhere((lead < 0) | (lead >= np.asarray(out_shape)))
            if bad.size:
                i, j = bad[0]
                raise ValueError(f"For 'EditDistance', the {i}th {name}_value in {j}th dimension "
                                 f"index: {lead[i, j]} of 'output' out of bounds: [0, "
                                 f"{out_shape[j]}).")
            positions = lead @ strides if lead.size else np.zeros(0, np.int64)
            groups: dict = {}
            for position, value in zip(positions.tolist(), np.asarray(values).tolist()):
                groups.setdefault(position, []).append(value)
            sequences.append(groups)
        out = np.zeros(int(np.prod(out_shape)), np.float32)
        for position in range(out.size):
            hypothesis = sequences[0].get(position, [])
            truth = sequences[1].get(position, [])
            if normalize and not truth:
                out[position] = np.inf if hypothesis else 0.0
                continue
            distance = _levenshtein(truth, hypothesis)
            out[position] = distance / len(truth) if normalize else distance
        return out.reshape(out_shape)

    return compute


class EditDistance(PrimitiveClass):
    """`ops.EditDistance(normalize=True)(hypothesis_indices, hypothesis_values,
    hypothesis_shape, truth_indices, truth_values, truth_shape)`: the Levenshtein distance
    between the sequences of two sparse Tensors (rank R, int64 indices; a sequence is the
    values sharing their first R - 1 coordinates, in their order), divided by the truth's
    length with `normalize` (inf where the truth is empty and the hypothesis not); float32 of
    the elementwise larger leading shape. The shapes are read when the graph is built; the
    distances are computed on the host where the graph runs."""

    def __init__(self, normalize=True):
        self.normalize = check_value_type("normalize", normalize, [bool], "EditDistance")
        self._attrs = {"normalize": normalize}

    def __call__(self, hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices,
                 truth_values, truth_shape):
        op = "EditDistance"
        for name, value in (("hypothesis_indices", hypothesis_indices),
                            ("hypothesis_shape", hypothesis_shape),
                            ("truth_indices", truth_indices), ("truth_shape", truth_shape)):
            check_tensor_type(op, name, value, (dt.int64,))
        if abstract_of(hypothesis_values).dtype != abstract_of(truth_values).dtype:
            raise DTypeError(f"Dtype of hypothesis_values and truth_values must be the same, but "
                             f"got hypothesis_values: {_tensor_type(hypothesis_values)}, "
                             f"truth_values: {_tensor_type(truth_values)}.")
        shapes = [tuple(int(v) for v in value_input(s, op, name)) for s, name in (
            (hypothesis_shape, "hypothesis_shape"), (truth_shape, "truth_shape"))]
        if len(shapes[0]) != len(shapes[1]) or len(shapes[0]) < 2:
            raise ArgumentValueError(f"For '{op}', hypothesis_shape and truth_shape must be of "
                                     f"one rank, at least 2, but got {list(shapes[0])} and "
                                     f"{list(shapes[1])}.")
        width = len(shapes[0])
        for indices, values in ((hypothesis_indices, hypothesis_values),
                                (truth_indices, truth_values)):
            if abstract_of(indices).shape[1:] != (width,) or \
                    abstract_of(values).shape != abstract_of(indices).shape[:1]:
                raise ArgumentValueError(f"For '{op}', the indices must be (N, {width}) with N "
                                         f"values, but got {abstract_of(indices).shape} and "
                                         f"{abstract_of(values).shape}.")
        out_shape = tuple(max(a, b) for a, b in zip(shapes[0][:-1], shapes[1][:-1]))
        operands = (hypothesis_indices, hypothesis_values, truth_indices, truth_values)
        call = HostCall(_edit_distances(out_shape, self.normalize), op, (0, 1, 2, 3),
                        (TensorType(out_shape, dt.float32),), True, user_loc())
        return py_func_p(*operands, call=call)[0]


_SPLIT_V_DTYPES = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.uint16, dt.uint32,
                   dt.uint64, dt.float16, dt.bfloat16, dt.float32)


class SplitV(PrimitiveClass):
    """`ops.SplitV(size_splits, split_dim, num_split)(input_x)`: the pieces of `size_splits`
    elements along `split_dim`, one of them -1 for what the others leave, with MindSpore's
    checks in its order (MindSpore's CPU build has no kernel for it)."""

    def __init__(self, size_splits, split_dim, num_split):
        op = "SplitV"
        check_value_type("size_splits", size_splits, [tuple, list], op)
        for size in size_splits:
            check_value_type("elements of size_splits", size, [int], op)
            if size != -1 and size < 1:
                raise ArgumentValueError(
                    f"For '{op}', all elements of size_splits must be positive (except at most "
                    f"one default value -1), but got: {size}.")
        check_value_type("split_dim", split_dim, [int], op)
        check_value_type("num_split", num_split, [int], op)
        check_positive_int(num_split, "num_split", op)
        self._attrs = {"size_splits": size_splits, "split_dim": split_dim,
                       "num_split": num_split}

    def __call__(self, input_x):
        op = "SplitV"
        aval = abstract_of(input_x)
        sizes = list(self._attrs["size_splits"])
        dim, num = self._attrs["split_dim"], self._attrs["num_split"]
        if aval.ndim < 1:
            raise ArgumentValueError(f"For primitive[{op}], the x_rank must be greater than or "
                                     f"equal to 1, but got {aval.ndim}.")
        if num != len(sizes):
            raise ArgumentValueError(f"For primitive[{op}], the attribute[num_split] must be "
                                     f"equal to {len(sizes)}, but got {num}.")
        if not -aval.ndim <= dim < aval.ndim:
            raise ArgumentValueError(f"For primitive[{op}], the split_dim must be in "
                                     f"[{-aval.ndim},{aval.ndim}), but got {dim}.")
        length = aval.shape[dim]
        if sizes.count(-1) > 1:
            raise ArgumentValueError(f"For '{op}', 'size_splits' default value can contain only "
                                     f"one -1, but got more than one.")
        for size in sizes:
            if size != -1 and not 0 <= size <= length:
                raise ArgumentValueError(f"For primitive[{op}], the elements of size_splits "
                                         f"must be in [0,{length}], but got {size}.")
        known = sum(size for size in sizes if size != -1)
        if -1 in sizes:
            sizes[sizes.index(-1)] = length - known
        elif known != length:
            raise ArgumentValueError(f"For primitive[{op}], the attribute[sum of size_splits] "
                                     f"must be equal to {length}, but got {known}.")
        check_tensor_dtype(op, "input_x", aval.dtype, _SPLIT_V_DTYPES)
        return NF.split(input_x, sizes, dim)


_DEPRECATED_CLASSES = {
    "UnravelIndex": _unravel_index, "IdentityN": _identity_n, "ParallelConcat": _parallel_concat,
    "CheckNumerics": _check_numerics,
}
define_classes(globals(), _DEPRECATED_CLASSES, __name__)
__all__ += list(_DEPRECATED_CLASSES)
__all__ += ["EditDistance", "ExtractVolumePatches", "ScatterAddWithAxis", "SplitV"]


# the classes derived from the primitives' declarations that MindSpore files here
generate_classes(globals())
