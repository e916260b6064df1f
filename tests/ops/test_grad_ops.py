"""ops.operations._grad_ops against MindSpore 2.10: each gradient operation on the same
operands gives the values MindSpore's gave (recorded below, rounded to 5 places)."""
import numpy as np
import pytest

from cellgraph import Tensor, context, nn, ops
from cellgraph.ops.operations import _grad_ops as G


def T(a):
    return Tensor(np.asarray(a, np.float32))


x = np.array([[-0.7, -0.2, 0.0], [0.3, 0.55, 0.9]], np.float32)
pos = np.array([[1.2, 1.5, 2.0], [3.0, 0.5, 7.0]], np.float32)
d = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], np.float32)
CONV_DOUT = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4) / 8 - 1
CONV_X = np.cos(np.arange(36, dtype=np.float32)).reshape(1, 1, 6, 6)
CASES = {
    "KLDivLossGrad": lambda: tuple(
        G.KLDivLossGrad(r)(T([[1.0, 2.0], [3.0, 4.0]]) if r == "none" else T(2.0),
                           T([[0.2, 0.7], [0.1, 0.5]]), T([[0.0, 1.0], [1.0, 0.5]]))
        for r in ("none", "mean", "sum", "batchmean")),
    "DropoutGrad": lambda: G.DropoutGrad(0.5)(T(x), T([[1, 0, 1], [0, 1, 1]])),
 "ACosGrad": lambda: G.ACosGrad()(T(x), T(d)),
 "AcoshGrad": lambda: G.AcoshGrad()(T(pos), T(d)),
 "AsinGrad": lambda: G.AsinGrad()(T(x), T(d)),
 "AsinhGrad": lambda: G.AsinhGrad()(T(x), T(d)),
 "AtanGrad": lambda: G.AtanGrad()(T(x), T(d)),
 "SqrtGrad": lambda: G.SqrtGrad()(T(pos), T(d)),
 "RsqrtGrad": lambda: G.RsqrtGrad()(T(pos), T(d)),
 "TanhGrad": lambda: G.TanhGrad()(T(x), T(d)),
 "SigmoidGrad": lambda: G.SigmoidGrad()(T(x), T(d)),
 "ReciprocalGrad": lambda: G.ReciprocalGrad()(T(pos), T(d)),
 "InvGrad": lambda: G.InvGrad()(T(pos), T(d)),
 "ReluGrad": lambda: G.ReluGrad()(T(d), T(x)),
 "ReLU6Grad": lambda: G.ReLU6Grad()(T(d), T(pos)),
 "EluGrad": lambda: G.EluGrad()(T(d), T(x)),
 "SoftplusGrad": lambda: G.SoftplusGrad()(T(d), T(x)),
 "SigmoidCrossEntropyWithLogitsGrad": lambda: G.SigmoidCrossEntropyWithLogitsGrad()(
     T(x), T([[0., 1., 1.], [0.5, 0., 1.]]), T(d)),
 "GeLUGrad": lambda: G.GeLUGrad()(T(d), T(x), T(x)),
 "SoftShrinkGrad": lambda: G.SoftShrinkGrad(0.25)(T(d), T(x)),
 "HShrinkGrad": lambda: G.HShrinkGrad(0.25)(T(d), T(x)),
 "LogitGrad": lambda: G.LogitGrad()(T(d), T(np.abs(x))),
 "LogitGradEps": lambda: G.LogitGrad(0.35)(T(d), T(np.abs(x))),
 "MaximumGrad": lambda: G.MaximumGrad()(T(x), T(x[:1] * 0 + 0.1), T(d)),
 "MinimumGrad": lambda: G.MinimumGrad()(T(x), T(x[:1] * 0 + 0.1), T(d)),
 # ties pick dx1; grad_x=False changes nothing in MindSpore 2.10's kernel
 "MaximumGradGrad": lambda: G.MaximumGradGrad(grad_x=False)(
     T([1, 2, 4, 3]), T([2, 2, 3, 3]), T([10, 20, 30, 40]), T([1, 2, 3, 4])),
 "MinimumGradGrad": lambda: G.MinimumGradGrad()(
     T([1, 2, 4, 3]), T([2, 2, 3, 3]), T([10, 20, 30, 40]), T([1, 2, 3, 4])),
 "MinimumGradGradBroadcast": lambda: G.MinimumGradGrad()(
     T([[1, 2], [3, 0]]), T([2, 1]), T(np.ones((2, 2))), T([5, 6])),
 "BiasAddGrad": lambda: G.BiasAddGrad()(T(np.arange(24).reshape(2, 3, 2, 2))),
 "BiasAddGradNHWC": lambda: G.BiasAddGrad("NHWC")(T(np.arange(24).reshape(2, 2, 2, 3))),
 "SliceGrad": lambda: G.SliceGrad()(T(d[:, :2]), T(np.zeros((3, 4))), (1, 1), (2, 2)),
 "Conv2DBackpropFilter": lambda: G.Conv2DBackpropFilter(1, 3)(
     T(CONV_DOUT), T(CONV_X), (1, 1, 3, 3)),
 "Conv2DBackpropFilterSame": lambda: G.Conv2DBackpropFilter(1, 2, pad_mode="same", stride=2)(
     T(CONV_DOUT[..., :3, :3]), T(CONV_X[..., :5, :5]), (1, 1, 2, 2)),
}

EXPECTED = {
    'SigmoidCrossEntropyWithLogitsGrad': [[[0.16591, 0.54983, -1.0],
                                           [0.11166, 0.15853, 0.21679]]],
    'KLDivLossGrad': [[[0.0, -2.0], [-3.0, -2.0]], [[0.0, -0.5], [-0.5, -0.25]],
                      [[0.0, -2.0], [-2.0, -1.0]], [[0.0, -1.0], [-1.0, -0.5]]],
    'DropoutGrad': [[[-1.4, 0.0, 0.0], [0.0, 1.1, 1.8]]],
    'ACosGrad': [[[-0.70014, 1.02062, -2.0], [-1.57243, -0.29934, 1.72062]]],
    'AcoshGrad': [[[0.33124, -0.46964, 0.55144], [0.14973, 0.47976, -0.00137]]],
    'AsinGrad': [[[0.70014, -1.02062, 2.0], [1.57243, 0.29934, -1.72062]]],
    'AsinhGrad': [[[0.39835, -0.98033, 2.0], [1.43494, 0.21643, -0.52335]]],
    'AtanGrad': [[[0.33557, -0.96154, 2.0], [1.37615, 0.19194, -0.41436]]],
    'SqrtGrad': [[[0.20833, -0.33333, 0.5], [0.25, 0.25, -0.05357]]],
    'RsqrtGrad': [[[-0.432, 1.6875, -8.0], [-20.25, -0.01562, 128.625]]],
    'TanhGrad': [[[0.255, -0.96, 2.0], [1.365, 0.17437, -0.1425]]],
    'SigmoidGrad': [[[-0.595, 0.24, 0.0], [0.315, 0.06188, -0.0675]]],
    'ReciprocalGrad': [[[-0.72, 2.25, -8.0], [-13.5, -0.0625, 36.75]]],
    'InvGrad': [[[-0.72, 2.25, -8.0], [-13.5, -0.0625, 36.75]]],
    'ReluGrad': [[[0.0, 0.0, 0.0], [1.5, 0.25, -0.75]]],
    'ReLU6Grad': [[[0.5, -1.0, 2.0], [1.5, 0.25, 0.0]]],
    'EluGrad': [[[0.15, -0.8, 2.0], [1.5, 0.25, -0.75]]],
    'SoftplusGrad': [[[0.16591, -0.45017, 1.0], [0.86166, 0.15853, -0.53321]]],
    'GeLUGrad': [[[0.01182, -0.34254, 1.0], [1.09844, 0.22433, -0.7913]]],
    'SoftShrinkGrad': [[[0.5, 0.0, 0.0], [1.5, 0.25, -0.75]]],
    'HShrinkGrad': [[[0.5, 0.0, 0.0], [1.5, 0.25, -0.75]]],
    'LogitGrad': [[[2.38095, -6.25, float('inf')], [7.14286, 1.0101, -8.33333]]],
    'LogitGradEps': [[[0.0, 0.0, 0.0], [0.0, 1.0101, 0.0]]],
    'MaximumGrad': [[[0.0, 0.0, 0.0], [1.5, 0.25, -0.75]], [[0.5, -1.0, 2.0]]],
    'MinimumGrad': [[[0.5, -1.0, 2.0], [0.0, 0.0, 0.0]], [[1.5, 0.25, -0.75]]],
    'MaximumGradGrad': [[0.0] * 4, [0.0] * 4, [1.0, 20.0, 30.0, 40.0]],
    'MinimumGradGrad': [[0.0] * 4, [0.0] * 4, [10.0, 20.0, 3.0, 40.0]],
    'MinimumGradGradBroadcast': [[[0.0, 0.0], [0.0, 0.0]], [0.0, 0.0], [[1.0, 6.0], [5.0, 1.0]]],
    'BiasAddGrad': [[60.0, 92.0, 124.0]],
    'BiasAddGradNHWC': [[84.0, 92.0, 100.0]],
    'SliceGrad': [[[0.0, 0.0, 0.0, 0.0], [0.0, 0.5, -1.0, 0.0], [0.0, 1.5, 0.25, 0.0]]],
    'Conv2DBackpropFilter': [[[[[-0.51681, -0.08319, 0.42692], [-0.56133, -0.23656, 0.3057],
                                [-0.56113, -0.37109, 0.16013]]]]],
    'Conv2DBackpropFilterSame': [[[[[-0.53921, 0.12058], [-0.43675, -0.24562]]]]],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_gradient_operation_matches_mindspore(name):
    got = CASES[name]()
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(EXPECTED[name])
    for value, want in zip(got, EXPECTED[name]):
        np.testing.assert_allclose(value.asnumpy(), np.array(want, np.float64), rtol=1e-4,
                                   atol=1e-5)


def test_every_class_is_tested_and_shows_its_attributes():
    elsewhere = {"LayerNormGrad",  # tests/ops/test_layer_norm_grad.py
                 "GridSampler2DGrad", "GridSampler3DGrad", "HSigmoidGrad", "NLLLossGrad",
                 "PReLUGrad",
                 "ResizeBilinearGrad", "StridedSliceGrad", "CdistGrad",  # below
                 "DeformableOffsetsGrad",  # tests/ops/test_deformable_offsets.py
                 "FractionalAvgPoolGrad", "FractionalMaxPoolGrad",  # test_fractional_pool.py
                 "LRNGrad",  # tests/ops/test_lrn.py
                 "IgammaGradA",  # tests/ops/test_igamma.py
                 "ROIAlignGrad",  # tests/ops/test_roi_align.py
                 "PSROIPoolingGrad",  # tests/ops/test_ps_roi_pooling_grad.py
                 "PadV3Grad",  # tests/ops/test_pad_v3_grad.py
                 "L2NormalizeGrad",  # below
                 "MaxPool3DGradGrad",  # tests/ops/test_max_pool3d_grad_grad.py
                 "MaxPoolGradGrad",  # tests/ops/test_max_pool_grad_grad.py
                 "MaxPoolGradWithArgmaxV2",  # tests/ops/test_max_pool_grad_grad.py
                 "ConcatOffset",  # tests/ops/test_max_pool_grad_grad.py
                 "MaxPoolGradWithArgmax", "MaxPoolGradGradWithArgmax"}  # test_max_pool_grad_with_argmax.py
    assert set(G.__all__) - elsewhere <= {name.removesuffix("Eps").removesuffix("NHWC").removesuffix("Same")
                                          .removesuffix("Broadcast") for name in EXPECTED}
    assert repr(G.LogitGrad(0.35)) == "LogitGrad(eps=0.35)"


RBG_DY = np.random.RandomState(1).randn(1, 2, 3, 5).astype(np.float32)


@pytest.mark.parametrize("attrs, shape, dtype, first", [
    # MindSpore 2.10 CPU: the first 8 values of G.ResizeBilinearGrad(**attrs)(dy, ones(shape))
    ({"align_corners": True}, (1, 2, 4, 4), np.float32,
     [1.4714, -0.7229, -1.0688, 0.5972, -0.9327, 0.464, -0.0707, -0.0848]),
    ({}, (1, 2, 4, 4), np.float32,
     [1.502, -0.7007, -0.9607, 0.4362, -1.3017, 0.7276, -0.1769, -0.0812]),
    ({"half_pixel_centers": True}, (1, 2, 6, 7), np.float64,
     [0.6497, 0.0401, -0.1835, -0.2641, -0.3219, -0.1281, 0.3462, 0.6497]),
    ({}, (1, 2, 2, 3), np.float16,
     [0.8452, -0.8369, -0.1478, -0.4309, -1.2363, 0.6646, -1.3828, -0.2947]),
])
def test_resize_bilinear_grad_is_mindspores(attrs, shape, dtype, first):
    out = G.ResizeBilinearGrad(**attrs)(Tensor(RBG_DY.astype(dtype)), Tensor(np.ones(shape, dtype)))
    assert out.shape == shape and out.asnumpy().dtype == dtype
    np.testing.assert_allclose(out.asnumpy().ravel()[:8], first, atol=6e-4)


def test_resize_bilinear_grad_spreads_each_pixel_as_mindspores_test_says():
    dy = np.array([[[[1, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1]]]], np.float32)
    out = G.ResizeBilinearGrad(align_corners=False)(Tensor(dy), Tensor(np.ones((1, 1, 2, 2),
                                                                               np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [[[[2.25, 0.75], [0.75, 4.25]]]])


@pytest.mark.parametrize("args, attrs, expected", [
    # MindSpore 2.10 CPU: dy = 1, 2, ... in the slice's shape, written back into x's shape
    (((2, 3, 4), (1, 0, 0), (2, 3, 4), (1, 2, 3)), {},
     [[[0] * 4] * 3, [[1, 0, 0, 2], [0] * 4, [3, 0, 0, 4]]]),
    (((2, 3, 4), (1, 1), (2, 2), (1, 1)), {"shrink_axis_mask": 1},
     [[[0] * 4] * 3, [[0] * 4, [1, 2, 3, 4], [0] * 4]]),
    (((2, 3, 4), (0, 1), (1, 3), (1, 1)), {"begin_mask": 1},
     [[[0] * 4, [1, 2, 3, 4], [5, 6, 7, 8]], [[0] * 4] * 3]),
])
def test_strided_slice_grad_writes_dy_where_the_slice_read(args, attrs, expected):
    count = int(np.count_nonzero(np.asarray(expected)))
    shape = {0: (1, 2, 2), 1: (1, 4), 2: (1, 2, 4)}[[(1, 0, 0), (1, 1), (0, 1)].index(args[1])]
    dy = Tensor(np.arange(1, count + 1, dtype=np.float32).reshape(shape))
    out = G.StridedSliceGrad(**attrs)(dy, *args)
    np.testing.assert_array_equal(out.asnumpy(), expected)
    assert repr(G.StridedSliceGrad(shrink_axis_mask=1)).startswith("StridedSliceGrad(")


def test_strided_slice_grad_of_bools():
    dy = Tensor(np.array([False, True, False]))
    out = G.StridedSliceGrad()(dy, (3, 2, 3), (1, 0, 0), (2, 1, 3), (1, 1, 1)).asnumpy()
    expected = np.zeros((3, 2, 3), bool)
    expected[1, 0, 1] = True
    np.testing.assert_array_equal(out, expected)


# ----- complex operands: MindSpore 2.10 conjugates the derivative (but for TanhGrad, InvGrad) ---

_CX = np.array([-0.5, 0.2, 0.5], np.complex64) * (1 + 0.5j)
_CDY = np.array([1, 0.5, -1], np.complex64) * (1 + 0.3j)
COMPLEX = {
    "AtanGrad": [(0.75544, 0.41167), (0.47906, 0.16424), (-0.75544, -0.41167)],
    "AsinhGrad": [(0.87075, 0.37733), (0.48951, 0.15748), (-0.87075, -0.37733)],
    "AcoshGrad": [(-1.26582, -1.29361), (1.68088, 1.60323), (-1.26582, -1.29361)],
    "SqrtGrad": [(-0.68, -0.64), (0.85, 0.8), (-0.68, -0.64)],
    "RsqrtGrad": [(0.04141, -0.08125), (-0.00133, 0.0026), (0.04141, -0.08125)],
    "TanhGrad": [(0.8875, -0.00625), (0.491, 0.1255), (-0.8875, 0.00625)],
    "SigmoidGrad": [(-0.8375, 0.29375), (0.094, -0.0045), (-0.3125, -0.09375)],
    "ReciprocalGrad": [(-0.2625, 0.19375), (-0.021, 0.0155), (0.2625, -0.19375)],
    "InvGrad": [(-0.1125, -0.30625), (-0.009, -0.0245), (0.1125, 0.30625)],
    "ACosGrad": [(-1.12092, -0.16049), (-0.51049, -0.14175), (1.12092, 0.16049)],
    "AsinGrad": [(1.12092, 0.16049), (0.51049, 0.14175), (-1.12092, -0.16049)],
}


@pytest.mark.parametrize("name", sorted(COMPLEX))
def test_complex_operands_as_mindspore(name):
    out = getattr(G, name)()(Tensor(_CX), Tensor(_CDY)).asnumpy()
    expected = np.array([re + 1j * im for re, im in COMPLEX[name]])
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


# ----- CdistGrad: MindSpore 2.10's values on the same operands (first row of the first batch) --

_CDIST = {0.0: [0.0, 0.0, 0.0, 0.0, 0.0],
          0.5: [0.0, 0.0, 0.0, 0.0, 0.0],
          1.0: [0.1511, 0.1511, -2.45521, -0.81198, 2.45521],
          1.5: [0.12562, 0.28895, -0.56717, -0.22553, 1.09064],
          2.0: [0.06996, 0.34783, -0.17829, -0.0814, 0.63364],
          3.0: [-0.05217, 0.42042, -0.02642, -0.02467, 0.30521],
          float("inf"): [-1.15206, 1.30316, 0.0, 0.0, 0.0]}


@pytest.mark.parametrize("p", sorted(_CDIST))
def test_cdist_grad_as_mindspore(p):
    rng = np.random.default_rng(1)
    grad = rng.normal(size=(2, 3, 4)).astype(np.float32)
    x1 = rng.normal(size=(2, 3, 5)).astype(np.float32)
    x2 = rng.normal(size=(2, 4, 5)).astype(np.float32)
    x2[0, 0] = x1[0, 0]  # a pair at distance 0
    dist = ops.cdist(Tensor(x1), Tensor(x2), p)
    out = G.CdistGrad(p)(Tensor(grad), Tensor(x1), Tensor(x2), dist).asnumpy()
    np.testing.assert_allclose(out[0, 0], _CDIST[p], rtol=1e-4, atol=1e-5)


def test_cdist_grad_batches_under_vmap():
    # MindSpore's own check: -8/9 and -4/9 for each member
    grad = np.tile(np.array([[[1.0, 1.0], [2.0, 2.0]]], np.float32), (2, 1, 1))[:, None]
    x1 = np.tile(np.array([[[1.0, 1.0], [2.0, 2.0]]], np.float32), (2, 1, 1))[:, None]
    x2 = np.full((2, 1, 2, 2), 3.0, np.float32)
    out = ops.vmap(lambda *a: G.CdistGrad(3.0)(*a))(*(Tensor(v) for v in (grad, x1, x2, x2)))
    np.testing.assert_allclose(out.asnumpy()[:, 0], [[[-8 / 9, -8 / 9], [-4 / 9, -4 / 9]]] * 2,
                               rtol=1e-6)


def test_conv2d_backprop_filter_takes_the_shape_of_filter_size():
    # MindSpore 2.10 computes a (2, 1, 3, 3) weight gradient whatever out_channel and
    # kernel_size say (its test passes out_channel=4, kernel_size=1 for a (1, 1, 3, 3) filter)
    x = Tensor(np.arange(36, dtype=np.float32).reshape(1, 1, 6, 6))
    dout = Tensor(np.ones((1, 2, 4, 4), np.float32))
    grad = G.Conv2DBackpropFilter(5, 1)(dout, x, (2, 1, 3, 3))
    assert grad.shape == (2, 1, 3, 3)
    expected = G.Conv2DBackpropFilter(2, 3)(dout, x, (2, 1, 3, 3))
    np.testing.assert_array_equal(grad.asnumpy(), expected.asnumpy())


@pytest.mark.parametrize("reduction", ["error", 1.0])
def test_kl_div_loss_grad_checks_its_reduction_as_mindspore(reduction):
    with pytest.raises(ValueError, match=r"For 'KLDivLossGrad', the 'reduction' must be str and "
                                         r"must be in '\['none', 'mean', 'batchmean', 'sum'\]', "
                                         rf"but got '{reduction}'\."):
        G.KLDivLossGrad(reduction)


def test_l2_normalize_grad_as_mindspore():
    """G.L2NormalizeGrad(axis, epsilon)(x, out, dout): L2Normalize's pullback (MindSpore
    2.10's values)."""
    x = np.array([[0.5, -1.0, 2.0], [3.0, 0.25, -0.5]], np.float32)
    dy = np.array([[1.0, 2.0, -1.0], [0.5, 0.5, 1.0]], np.float32)
    out = ops.L2Normalize(axis=1, epsilon=1e-4)(Tensor(x))
    grad = G.L2NormalizeGrad(axis=1, epsilon=1e-4)(Tensor(x), out, Tensor(dy))
    np.testing.assert_allclose(grad.asnumpy(), [[0.581914, 0.581914, 0.145479],
                                                [0.045085, 0.15395, 0.347486]], rtol=1e-5)


def test_maximum_grad_grad_checks_its_gradient_shapes_as_mindspore():
    with pytest.raises(ValueError, match="'dx', 'dy' should have same shape"):
        ops.auto_generate.MaximumGradGrad()(T([1, 2]), T([2, 1]), T([1, 1]), T([1, 1, 1]))


def test_maximum_grad_grad_batches_under_vmap():
    xs, ys = T([[3, 5, 11], [7, 5, 6]]), T([[6, 6, 8], [3, 2, 7]])
    dxs, dys = T([[0, 0, 3], [1, 2, 0]]), T([[1, 2, 0], [0, 0, 3]])
    out = ops.vmap(ops.auto_generate.MaximumGradGrad(), in_axes=0, out_axes=0)(xs, ys, dxs, dys)
    np.testing.assert_array_equal(out[2].asnumpy(), [[1, 2, 3], [1, 2, 3]])
    np.testing.assert_array_equal(out[0].asnumpy(), np.zeros((2, 3)))


class _ResizeGradOfRunTimeSizes(nn.Cell):
    """ResizeBilinearGrad where both the incoming gradient's and the image's widths are known
    only at run time (after Unique and a gather)."""

    def __init__(self, align_corners, half_pixel_centers):
        super().__init__()
        self.op = G.ResizeBilinearGrad(align_corners, half_pixel_centers)

    def construct(self, dy, image, dy_ids, image_ids):
        dy = ops.gather(dy, ops.unique(dy_ids)[0], 3)
        return self.op(dy, ops.gather(image, ops.unique(image_ids)[0], 3))


@pytest.mark.parametrize("align_corners, half_pixel, expected", [
    (False, False, [[2.8666663, 6.399999, 12.4], [19.333334, 26.000002, 38.000004]]),
    (True, False, [[4.5, 11.0, 12.0], [19.5, 31.0, 27.0]]),
    (False, True, [[4.8999996, 9.899999, 12.700002], [20.9, 27.9, 28.700003]]),
])
def test_resize_bilinear_grad_of_run_time_sizes(align_corners, half_pixel, expected):
    dy = Tensor(np.arange(15).reshape(1, 1, 3, 5).astype(np.float32))
    image = Tensor(np.ones((1, 1, 2, 3), np.float32))
    context.set_context(mode=context.GRAPH_MODE)
    try:
        out = _ResizeGradOfRunTimeSizes(align_corners, half_pixel)(
            dy, image, Tensor(np.arange(5)), Tensor(np.arange(3)))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy().reshape(2, 3), expected, rtol=1e-5)  # MindSpore's


def test_resize_bilinear_to_a_size_known_at_run_time():
    class Resize(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = ops.ResizeBilinearV2()

        def construct(self, x, like, ids):
            like = ops.gather(like, ops.unique(ids)[0], 3)
            return self.op(x, ops.dyn_shape(like)[2:])

    x = Tensor(np.arange(6).reshape(1, 1, 2, 3).astype(np.float32))
    context.set_context(mode=context.GRAPH_MODE)
    try:
        out = Resize()(x, Tensor(np.ones((1, 1, 3, 5), np.float32)), Tensor(np.arange(5)))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy().reshape(3, 5),  # MindSpore 2.10's
                               [[0, 0.6, 1.2, 1.8000001, 2], [2, 2.6, 3.1999998, 3.8000002, 4],
                                [3, 3.6, 4.2, 4.8, 5]], rtol=1e-6)
