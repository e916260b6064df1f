"""make_gen_ops_fixtures.py's cases of gen_ops_prim's classes that index, reshape, pad, fill and
convert tensors (cellgraph/ops/auto_generate/array_classes.py)."""
import mindspore as ms
import numpy as np
from gen_ops_case_values import dt, reference, t, tup

X = t([[0.5, -1.5, 2.0], [3.0, 0.25, -1.0]])
X_INT = t([[1, -2, 3], [4, 0, -6]], "int32")
CUBE = t(np.arange(24).reshape(2, 3, 4) / 2)
IMAGE = t(np.arange(32).reshape(1, 2, 4, 4) / 4)
SIGNAL = t(np.arange(10).reshape(1, 2, 5) / 2)


def _pad(mode):
    return reference(f"ops.pad(input, padding, {mode!r})",
                     lambda x, padding: ms.ops.pad(x, padding, mode))


_INDEX_FILL = reference("ops.index_fill (an int32 index)", lambda x, d, i, v: ms.ops.index_fill(
    x, d, i.astype(ms.int32), v))

# Left out, as MindSpore 2.10's CPU build gets them wrong (tests/ops/test_gen_ops_prim_classes.py
# checks them against NumPy): Scatter's reduce "add" and "multiply" (it replaces), OneHotExt's
# axis (its graph puts the classes last whatever the axis), ReflectionPad3D (no CPU kernel
# pads a 5-D input by reflection).

# (case id, class, constructor keyword arguments, call arguments, reference or None)
CASES = [
    ("broadcast_to_view", "BroadcastToView", {}, [t([[1.0], [2.0]]), tup(2, 3)], None),
    ("chunk", "Chunk", {}, [CUBE, 2, 2], None),
    ("chunk_view_uneven", "ChunkView", {}, [t(np.arange(5)), 3], None),
    ("copy", "Copy", {}, [X_INT], None),
    ("diagonal", "Diagonal", {"offset": 1, "dim1": 1, "dim2": 2}, [CUBE], None),
    ("diagonal_view", "DiagonalView", {}, [CUBE, -1, 2, 1], None),
    ("expand_as", "ExpandAs", {}, [t([[1.0, 2.0, 3.0]]), X], None),
    ("expand_dims_view", "ExpandDimsView", {}, [X, -1], None),
    ("flatten_ext", "FlattenExt", {}, [CUBE, 1], None),
    ("narrow", "Narrow", {}, [CUBE, 2, 1, 2], None),
    ("narrow_view", "NarrowView", {}, [CUBE, -2, 0, 2], None),
    ("select_ext_view", "SelectExtView", {}, [CUBE, 1, -1], None),
    ("slice_ext", "SliceExt", {}, [CUBE, 2, 0, 4, 2], None),
    ("slice_ext_view_past_end", "SliceExtView", {}, [CUBE, 1, 1, 10, 1], None),
    ("split_tensor_view", "SplitTensorView", {}, [CUBE, 3, 2], None),
    ("split_with_size_view", "SplitWithSizeView", {}, [CUBE, [1, 3], -1],
     reference("ops.split(input, list, dim)", lambda x, sizes, dim: ms.ops.split(x, sizes, dim))),
    ("t_ext", "TExt", {}, [X], None),
    ("unstack_ext_view", "UnstackExtView", {}, [CUBE, 1], None),
    ("view", "View", {}, [CUBE, tup(4, -1)], None),
    ("view_as", "ViewAs", {}, [CUBE, t(np.zeros((6, 4)))], None),
    ("repeat", "Repeat", {}, [X, tup(2, 1, 2)],
     reference("ops.tile", lambda x, reps: ms.ops.tile(x, reps))),
    ("repeat_interleave_int", "RepeatInterleaveInt", {}, [X, 2, 1],
     reference("ops.repeat_interleave", lambda x, r, d: ms.ops.repeat_interleave(x, r, d))),
    ("repeat_interleave_int_flat", "RepeatInterleaveInt", {}, [X_INT, 2],
     reference("ops.repeat_interleave", lambda x, r: ms.ops.repeat_interleave(x, r))),
    ("repeat_interleave_tensor", "RepeatInterleaveTensor", {}, [X, t([1, 0], "int64"), 0],
     reference("ops.repeat_interleave", lambda x, r, d: ms.ops.repeat_interleave(x, r, d))),
    ("index_select", "IndexSelect", {}, [X, 1, t([2, 0, 2], "int64")],
     reference("ops.gather", lambda x, d, i: ms.ops.gather(x, i, d))),
    ("index_add_ext", "IndexAddExt", {}, [X, 1, t([2, 0], "int32"), t([[1.0, 2.0], [3.0, 4.0]]),
                                        2],
     reference("ops.index_add of alpha * source", lambda x, d, i, s, a: ms.ops.index_add(
         x, i, s * a, d))),
    ("index_fill_scalar", "IndexFillScalar", {}, [X, 1, t([0, 2], "int64"), -7.0], _INDEX_FILL),
    ("index_fill_tensor", "IndexFillTensor", {}, [X, 0, t([1], "int64"), t(5.0)], _INDEX_FILL),
    ("index", "Index", {}, [X, [t([1, 0], "int64"), t([2, 2], "int64")]],
     reference("input[indices]", lambda x, idx: x[tuple(idx)])),
    ("scatter", "Scatter", {}, [X, 1, t([[2, 0], [1, 1]], "int64"), t([[9.0, 8.0], [7.0, 6.0]])],
     None),
    ("scatter_value", "ScatterValue", {}, [X, 1, t([[0], [2]], "int64"), 4.0], None),
    ("scatter_add_ext", "ScatterAddExt", {}, [X, 1, t([[2, 2], [1, 0]], "int64"),
                                            t([[9.0, 8.0], [7.0, 6.0]])],
     reference("ops.tensor_scatter_elements(..., 'add')",
               lambda x, d, i, s: ms.ops.tensor_scatter_elements(x, i, s, d, "add"))),
    ("gather_nd_ext", "GatherNdExt", {}, [CUBE, t([[1, 2], [0, 0]], "int64")], "ops.gather_nd"),
    ("masked_fill_scalar", "MaskedFillScalar", {}, [X, t([True, False, True], "bool"), 0.5],
     "ops.masked_fill"),
    ("select_v2", "SelectV2", {}, [t([[True, False, True], [False, False, True]], "bool"), X,
                                   t(np.zeros((2, 3)))], "ops.select"),
    ("constant_pad_nd", "ConstantPadND", {}, [X, tup(1, 2), 9.0],
     reference("ops.pad", lambda x, p, v: ms.ops.pad(x, p, "constant", v))),
    ("reflection_pad_1d", "ReflectionPad1D", {}, [SIGNAL, tup(2, 1)], _pad("reflect")),
    ("reflection_pad_2d", "ReflectionPad2D", {}, [IMAGE, tup(1, 1, 2, 0)], _pad("reflect")),
    ("replication_pad_1d", "ReplicationPad1D", {}, [SIGNAL, tup(0, 3)], _pad("replicate")),
    ("replication_pad_2d", "ReplicationPad2D", {}, [IMAGE, tup(2, 1, 0, 1)], _pad("replicate")),
    ("replication_pad_3d", "ReplicationPad3D", {}, [t(np.arange(18).reshape(1, 1, 2, 3, 3)),
                                                  tup(0, 1, 1, 0, 1, 1)], _pad("replicate")),
    ("non_zero_ext", "NonZeroExt", {}, [X_INT], None),
    ("one_hot_ext", "OneHotExt", {}, [t([0, 2, 1], "int64"), 3, t(1, "int64"), t(0, "int64")],
     reference("ops.one_hot", lambda i, n, on, off: ms.ops.one_hot(i, n, on, off))),
    ("fill_scalar", "FillScalar", {}, [tup(2, 2), 3], None),
    ("fill_scalar_dtype", "FillScalar", {}, [tup(3,), 2.5, dt("float16")], None),
    ("fill_tensor", "FillTensor", {}, [tup(2, 3), t(1.5), dt("float32")],
     reference("ops.full", lambda s, v, d: ms.ops.full(s, v, dtype=d))),
    ("full_like", "FullLike", {}, [X_INT, 7], "ops.full_like"),
    ("new_ones", "NewOnes", {}, [X_INT, tup(2, 2)], None),
    ("new_zeros", "NewZeros", {}, [X, tup(3,), dt("int64")], None),
    ("new_full", "NewFull", {}, [X, tup(2,), 4],
     reference("ops.full as input's dtype", lambda x, s, v: ms.ops.full(s, v, dtype=x.dtype))),
    ("tuple_to_tensor", "TupleToTensor", {}, [tup(1, 2, 3)], None),
    ("tuple_to_tensor_float", "TupleToTensor", {}, [tup(1.5, 2.0), dt("float64")], None),
    ("tensor_to_scalar", "TensorToScalar", {}, [t(3.5)], None),
    ("tensor_to_scalar_int", "TensorToScalar", {}, [t(3, "int32")], None),
    ("to_dtype", "ToDtype", {}, [X, dt("int32")], None),
    ("to_other", "ToOther", {}, [X_INT, X], None),
    ("as_strided", "AsStrided", {}, [t(np.arange(12)), tup(3, 2), tup(4, 1), 1], None),
    ("im2col_ext", "Im2ColExt", {}, [IMAGE, tup(2, 2), 1, 0, 2],
     reference("ops.unfold", lambda x, k, d, p, s: ms.ops.unfold(x, k, d, p, s))),
    ("col2im_ext", "Col2ImExt", {}, [t(np.arange(32).reshape(1, 8, 4) / 4), tup(4, 4), tup(2, 2),
                                    1, 0, 2],
     reference("ops.fold", lambda x, o, k, d, p, s: ms.ops.fold(
         x, ms.Tensor(list(o), ms.int32), k, d, p, s))),
    ("pixel_shuffle", "PixelShuffle", {}, [t(np.arange(16).reshape(1, 4, 2, 2)), 2],
     reference("ops.pixel_shuffle", lambda x, r: ms.ops.pixel_shuffle(x, r))),
    ("stack_ext", "StackExt", {"dim": 1}, [[X, X]], reference(
        "ops.stack(tensors, 1)", lambda ts: ms.ops.stack(ts, 1))),
]

# The in-place classes (cellgraph/ops/inplace.py): their result is the input's new value.
INPLACE = [
    ("inplace_addmm", "InplaceAddmm", {}, [t([[1.0, 2.0], [0.0, -1.0]]),
                                         t([[1.0, 0.5, 2.0], [3.0, -1.0, 0.0]]),
                                         t([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]]), 0.5, 2.0],
     reference("ops.addmm", lambda x, a, b, beta, alpha: ms.ops.addmm(x, a, b, beta=beta,
                                                                       alpha=alpha))),
    ("inplace_fill_diagonal", "InplaceFillDiagonal", {}, [t(np.zeros((3, 2))), 5.0, False],
     reference("Tensor.fill_diagonal", lambda x, v, w: x.fill_diagonal(v, w))),
    ("inplace_index_put", "InplaceIndexPut", {}, [X, [t([1, 0], "int64"), t([2, 2], "int64")],
                                                t([7.0, 8.0]), True],
     reference("Tensor.index_put", lambda x, i, v, acc: x.index_put(tuple(i), v, acc))),
    ("inplace_index_fill_scalar", "InplaceIndexFillScalar", {}, [X, 1, t([0, 2], "int64"), -7.0],
     _INDEX_FILL),
    ("inplace_put", "InplacePut", {}, [X, t([5, 0], "int64"), t([1.0, 2.0]), False],
     reference("a flat scatter", lambda x, i, s, acc: ms.ops.tensor_scatter_update(
         x.reshape(-1), i.reshape(-1, 1), s).reshape(x.shape))),
    ("inplace_scatter_value", "InplaceScatterValue", {}, [X, 1, t([[0], [2]], "int64"), 4.0],
     reference("ops.tensor_scatter_elements of the value", lambda x, d, i, v: (
         ms.ops.tensor_scatter_elements(x, i, ms.ops.fill(x.dtype, i.shape, v), d)))),
    ("inplace_elu", "InplaceElu", {}, [X, 1.0], reference("ops.elu", lambda x, a: ms.ops.elu(x))),
    ("inplace_hardtanh", "InplaceHardtanh", {}, [X, -0.5, 1.5], reference(
        "ops.hardtanh", lambda x, lo, hi: ms.ops.hardtanh(x, lo, hi))),
    ("inplace_silu", "InplaceSiLU", {}, [X], reference("ops.silu", lambda x: ms.ops.silu(x))),
    ("inplace_threshold", "InplaceThreshold", {}, [X, 0.4, -9.0], "ops.threshold"),
]
CASES += INPLACE
