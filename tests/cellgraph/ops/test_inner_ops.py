"""`ops.operations._inner_ops`: the internal primitives MindSpore's tests use, with MindSpore
2.10's results and errors."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.ops import functional as F
from cellgraph.ops.operations import _inner_ops as inner


def test_same_type_shape_checks_and_returns_x():
    x = ms.Tensor(np.ones((2, 3), np.float32))
    assert inner.SameTypeShape()(x, x) is x
    with pytest.raises(TypeError, match="the x dtype should be = y dtype: Int32, but got "
                                        "Float32"):
        inner.SameTypeShape()(x, ms.Tensor(np.ones((2, 3), np.int32)))
    with pytest.raises(ValueError, match=r"y shape: \(3, 2\), but got \(2, 3\)"):
        inner.SameTypeShape()(x, ms.Tensor(np.ones((3, 2), np.float32)))
    with pytest.raises(TypeError, match="the type of 'y' should be 'Tensor'"):
        inner.SameTypeShape()(x, 1)


def test_same_type_shape_in_a_graph():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.check = inner.SameTypeShape()

        def construct(self, x, y):
            return self.check(x, y) * 2

    previous = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        x = ms.Tensor(np.ones((2, 3), np.float32))
        np.testing.assert_array_equal(Net()(x, x).asnumpy(), np.full((2, 3), 2.0))
        with pytest.raises(ValueError):
            Net()(x, ms.Tensor(np.ones((3, 2), np.float32)))
    finally:
        ms.set_context(mode=previous)


def test_dynamic_broadcast_to_takes_a_tuple_or_a_tensor_shape():
    x = ms.Tensor([1.0, 2.0, 3.0])
    expected = np.tile(np.float32([1, 2, 3]), (2, 1))
    np.testing.assert_array_equal(inner.DynamicBroadcastTo()(x, (2, 3)).asnumpy(), expected)
    out = inner.DynamicBroadcastTo()(x, ms.Tensor([2, 3]))
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), expected)


def test_extract_image_patches_is_the_public_primitive():
    assert inner.ExtractImagePatches is ms.ops.operations.ExtractImagePatches


def test_top_typeof_gives_the_kind_of_a_value_in_and_out_of_graphs():
    from cellgraph import dtype as mstype
    from cellgraph.ops.operations._inner_ops import TopTypeof

    kinds = [TopTypeof()(v) for v in (ms.Tensor(1.0), ms.Parameter(ms.Tensor(1.0), name="w"),
                                      1, 1.5, True, (1,), [1], "a", None)]
    assert kinds == [mstype.tensor_type, mstype.tensor_type, mstype.int_, mstype.float_,
                     mstype.bool_, mstype.tuple_, mstype.list_, mstype.string, mstype.type_none]
    assert isinstance(kinds[0], mstype.TensorType) and not isinstance(kinds[2], mstype.TensorType)
    assert mstype.TensorType(mstype.float32).element_type() == mstype.float32
    assert ms.tensor_type == mstype.TensorType() != mstype.TensorType(mstype.int32)

    class CountTensors(ms.nn.Cell):
        def construct(self, x, n):
            count = 0
            for value in (x, n, (1, 2), None):
                if isinstance(TopTypeof()(value), mstype.TensorType):
                    count = count + 1
            return count

    assert CountTensors()(ms.Tensor(np.ones(3)), 2) == 1


class _DynamicGrad(nn.Cell):
    """How MindSpore's dynamic-shape tests use ConvertToDynamic: before the net's inputs and
    after its outputs, under GradOperation."""

    def __init__(self, net, is_dynamic_rank):
        super().__init__()
        self.net = net
        self.convert = inner.ConvertToDynamic(is_dynamic_rank).add_prim_attr(
            "primitive_target", "CPU")
        self.grad = ops.GradOperation(get_all=True)

    def construct(self, x, y):
        args = []
        for arg in (x, y):
            if F.is_sequence_value_unknown(arg.shape) or arg.shape:
                args.append(self.convert(arg))
            else:
                args.append(arg)
        return self.grad(self.net)(*args)


class _SquaredDiff(nn.Cell):
    def construct(self, x, y):
        return ops.SquaredDifference()(x, y)


@pytest.mark.parametrize("is_dynamic_rank", [False, True])
def test_convert_to_dynamic_leaves_values_and_gradients_alone(is_dynamic_rank):
    x = Tensor(np.array([[1.0, 2.0], [3.0, 5.0]], np.float32))
    y = Tensor(np.array([[0.5, 2.5], [1.0, 1.0]], np.float32))
    dx, dy = _DynamicGrad(_SquaredDiff(), is_dynamic_rank)(x, y)
    np.testing.assert_allclose(dx.asnumpy(), [[1.0, -1.0], [4.0, 8.0]])
    np.testing.assert_allclose(dy.asnumpy(), [[-1.0, 1.0], [-4.0, -8.0]])
    assert repr(inner.ConvertToDynamic()) == "Prim[ConvertToDynamic]<is_dynamic_rank=False>"


def test_convert_to_dynamic_checks_as_mindspore():
    with pytest.raises(TypeError, match="is_dynamic_rank"):
        inner.ConvertToDynamic(1)
    with pytest.raises(ValueError, match="rank"):
        inner.ConvertToDynamic()(Tensor(np.float32(1.0)))
    assert not F.is_sequence_value_unknown((2, 3)) and not F.is_sequence_shape_unknown((2, 3))


def test_is_sub_class_as_mindspore():
    """MindSpore 2.10: the same type, or any dtype under mstype.number; a non-type argument is
    a TypeError naming it."""
    from cellgraph.common import dtype as mstype
    from cellgraph.ops.operations import _inner_ops as inner

    is_sub = inner.IsSubClass()
    for sub, parent, expected in [(mstype.bool_, mstype.number, True),
                                  (mstype.int32, mstype.number, True),
                                  (mstype.complex64, mstype.number, True),
                                  (mstype.uint8, mstype.number, True),
                                  (mstype.tensor_type, mstype.number, False),
                                  (mstype.float32, mstype.float32, True),
                                  (mstype.int32, mstype.float32, False),
                                  (mstype.tuple_, mstype.tuple_, True),
                                  (mstype.number, mstype.int32, False)]:
        assert is_sub(sub, parent) is expected, (sub, parent)
    with pytest.raises(TypeError, match="For 'IsSubClass', the type of 'sub_type' should be "
                                        "'Type', but got type 'NoneType'."):
        is_sub(None, mstype.number)
    with pytest.raises(TypeError, match="the type of 'type_' should be 'Type'"):
        is_sub(mstype.number, None)


@pytest.mark.parametrize("name", ["NPUGetFloatStatus", "NPUClearFloatStatus"])
def test_npu_float_status_checks_as_mindspore_on_cpu(name):
    """MindSpore 2.10 on CPU: the inputs are checked (these errors), then the call fails with
    a RuntimeError, there being no float status register off Ascend."""
    from cellgraph.ops import operations as P

    prim = getattr(P, name)()
    cases = [((), ValueError, (rf"For primitive\[{name}\], the input number must be equal to 1, "
                              r"but got 0\.")),
             ((5.0,), TypeError, (r"input arguments\[input_x\] must be all tensor and those type "
                                 r"must be same\. But got input argument\[input_x\]:Float32")),
             ((Tensor(np.zeros(8, np.int32)),), TypeError,
              (r"must be a type of \{Tensor\[Float16\], Tensor\[Float32\]\}, but got "
              r"Tensor\[Int32\]\.")),
             ((Tensor(np.zeros((2, 8), np.float32)),), ValueError,
              "Input_x must be a 1-dimensional tensor, but got 2-dimensional tensor."),
             ((Tensor(np.zeros(7, np.float32)),), ValueError,
              "The first dimension of input_x must be 8, but got 7"),
             ((Tensor(np.zeros(8, np.float32)),), RuntimeError, "exists on Ascend only")]
    for args, error, message in cases:
        with pytest.raises(error, match=message):
            prim(*args)


def test_npu_alloc_float_status_takes_no_input():
    from cellgraph.ops import operations as P

    with pytest.raises(TypeError, match="For 'NPUAllocFloatStatus' op, input num should be 0, "
                                        "bug gets 1"):
        P.NPUAllocFloatStatus()(Tensor(np.zeros(8, np.float32)))
    with pytest.raises(RuntimeError, match=r"Unsupported op \[NPUAllocFloatStatus\] on CPU: "
                                           "Ascend's float status register exists on Ascend "
                                           "only") as info:
        P.NPUAllocFloatStatus()()
    assert not isinstance(info.value, NotImplementedError)  # MindSpore's kernel-select error


def test_depthwise_conv2d_native_checks_as_mindspore_on_cpu():
    """MindSpore 2.10 on CPU: the same errors for these arguments and inputs, then a
    RuntimeError for valid ones (no CPU kernel)."""
    from cellgraph.ops import operations as P

    def ones(shape, dtype=np.float32):
        return Tensor(np.ones(shape, dtype))

    op = P.DepthwiseConv2dNative(2, (5, 5))
    cases = [((5.0, 5.0), TypeError, "the element of 'x' must be"),
             ((ones([5], np.bool_), ones([5], np.bool_)), TypeError, "the element of 'x'"),
             ((ones([5]), ones([5], np.float16)), TypeError,
              (r"the type of 'w' should be same as 'x', but got 'x' with type Tensor\[Float32\] "
              r"and 'w' with type Tensor\[Float16\]\.")),
             ((ones([1, 1]), ones([1, 1, 9, 9])), ValueError,
              "the 'x rank' must be int and must = 4, but got '2'"),
             ((ones([1, 1, 9, 9]), ones([1, 1, 9])), ValueError, "the 'weight rank' must be"),
             ((ones([1, 1, 9, 9]), ones([1, 2, 9, 9])), ValueError,
              r"the 'x_shape\[1\]' should be = w_shape\[1\]: 2, but got 1\."),
             ((ones([1, 1, 9, 9]), ones([2, 1, 5, 6])), ValueError,
              r"the 'kernel_size' should be = w_shape\[2:4\]: \(5, 6\), but got \(5, 5\)\."),
             ((ones([1, 1, 9, 9]), ones([2, 1, 5, 5])), ValueError,
              "the batch of 'weight' must be 1, but got 2"),
             ((ones([1, 1, 9, 9]), ones([1, 1, 5, 5])), RuntimeError, "Ascend-only")]
    for args, error, message in cases:
        with pytest.raises(error, match=message):
            op(*args)
    for kwargs, message in [({"channel_multiplier": 0}, "'channel_multiplier' must be int"),
                            ({"stride": (1, 2)}, "The height and width of 'stride' must be"),
                            ({"pad": 1}, "the 'pad' must be zero or"),
                            ({"mode": 2}, "the 'mode' must be int and must = 3"),
                            ({"pad_mode": "bad"}, "the 'pad_mode' must be str"),
                            ({"kernel_size": 0}, "attr 'kernel_size' must be an positive int"),
                            ({"pad_mode": "pad", "pad": (1, 2, 3)}, "'pad size' must be")]:
        arguments = {"channel_multiplier": 2, "kernel_size": (5, 5), **kwargs}
        with pytest.raises(ValueError, match=message):
            P.DepthwiseConv2dNative(**arguments)


def test_max_pool_with_argmax_as_mindspore_cpu():
    """MindSpore 2.10 CPU's values: the index counts over the sample's C*H*W values, the first
    maximum in a tie wins, and pad_mode="same" pads after the input."""
    from cellgraph.ops import operations as P

    x = np.zeros((2, 2, 5, 5), np.float32)
    x[0, 0, 0, 0], x[0, 0, 4, 4], x[1, 1, 2, 2] = 9, 8, 7
    values, index = P.MaxPoolWithArgmax(kernel_size=3, strides=2, pad_mode="same")(Tensor(x))
    assert index.dtype == ms.int32 and values.shape == (2, 2, 3, 3)
    np.testing.assert_array_equal(values.asnumpy()[0, 0], [[9, 0, 0], [0, 8, 8], [0, 8, 8]])
    np.testing.assert_array_equal(index.asnumpy()[0, 0], [[0, 2, 4], [10, 24, 24], [20, 24, 24]])
    np.testing.assert_array_equal(index.asnumpy()[1, 1], [[37, 37, 29], [37, 37, 39],
                                                          [45, 47, 49]])
    np.testing.assert_array_equal(index.asnumpy()[0, 1], [[25, 27, 29], [35, 37, 39],
                                                          [45, 47, 49]])

    class Pool(nn.Cell):
        def __init__(self):
            super().__init__()
            self.pool = P.MaxPoolWithArgmax(kernel_size=2, strides=1)

        def construct(self, x):
            return self.pool(x)

    values, index = Pool()(Tensor(-np.arange(9).reshape(1, 1, 3, 3).astype(np.float64)))
    np.testing.assert_array_equal(values.asnumpy().ravel(), [0, -1, -3, -4])
    np.testing.assert_array_equal(index.asnumpy().ravel(), [0, 1, 3, 4])
    for bad, error, message in [(5.0, TypeError, "must be Tensor but got Float32"),
                                (Tensor(np.ones(5, np.bool_)), TypeError, "must be a type of"),
                                (Tensor(np.ones((1, 1, 32), np.float32)), ValueError,
                                 "the x_rank must be equal to 4, but got 3"),
                                (Tensor(np.ones((1, 1, 3, 3), np.int64)), TypeError,
                                 "the CPU kernel takes float")]:
        with pytest.raises(error, match=message):
            P.MaxPoolWithArgmax()(bad)
    with pytest.raises(ValueError, match="MaxPoolWithArgmax"):
        P.MaxPoolWithArgmax(kernel_size=50)(Tensor(np.ones((1, 1, 32, 32), np.float32)))


BOXES = np.array([[0, 0, 10, 10, 0.5], [1, 1, 11, 11, 0.8], [20, 20, 30, 30, 0.7],
                  [0, 0, 10, 10.5, 0.9], [0, 0, 4, 10, 0.6]], np.float32)


@pytest.mark.parametrize("threshold, mask", [(0.5, [True, False, True, True, False]),
                                             (0.35, [True, False, True, False, False]),
                                             (1.5, [True] * 5),
                                             (-0.5, [True, False, False, False, False])])
def test_nms_with_mask_as_mindspore_cpu(threshold, mask):
    """MindSpore 2.10 CPU's results: boxes by descending score, positions 0..N-1, the mask."""
    from cellgraph.ops import operations as P

    class Nms(nn.Cell):
        def __init__(self):
            super().__init__()
            self.nms = P.NMSWithMask(threshold)

        def construct(self, boxes):
            return self.nms(boxes)

    boxes, index, keep = Nms()(Tensor(BOXES))
    np.testing.assert_allclose(boxes.asnumpy(), BOXES[[3, 1, 2, 4, 0]])
    assert index.dtype == ms.int32 and index.asnumpy().tolist() == [0, 1, 2, 3, 4]
    assert keep.asnumpy().tolist() == mask


def test_nms_with_mask_checks_and_edges_as_mindspore():
    from cellgraph.ops import operations as P

    touching = Tensor(np.array([[0, 0, 1, 1, 0.9], [1, 0, 2, 1, 0.8]], np.float32))
    assert P.NMSWithMask(0.3)(touching)[2].asnumpy().tolist() == [True, True]  # no +1 in areas
    same = Tensor(np.array([[0, 0, 10, 10, 0.5], [0, 0, 10, 10, 0.5]], np.float32))
    assert P.NMSWithMask(0.5)(same)[2].asnumpy().tolist() == [True, False]
    for bad, error, message in [(5.0, TypeError, (r"argument\[bboxes\] must be Tensor but got "
                                                 r"Float32")),
                                (Tensor(np.ones((3, 4), np.int32)), TypeError,
                                 r"must be a type of \{Tensor\[Float16\], Tensor\[Float32\]\}"),
                                (Tensor(np.ones((3, 4, 2), np.float32)), ValueError,
                                 "the shape of bboxes must be equal to 2 , but got 3"),
                                (Tensor(np.ones((3, 2), np.float32)), ValueError,
                                 "should equal to 5 or 8, but got 2")]:
        with pytest.raises(error, match=message):
            P.NMSWithMask()(bad)
    with pytest.raises(TypeError, match="'iou_threshold' should be 'float', but got type 'int'"):
        P.NMSWithMask(1)


def test_anti_quant_checks_as_mindspore_on_cpu():
    """MindSpore 2.10 CPU: a non-Tensor scale or offset is a TypeError naming it, x must be
    int8, and a valid call fails with a RuntimeError (no CPU kernel)."""
    x = ms.Tensor([50.0, 20.0], ms.int8)

    @ms.jit
    def func(x, scale, offset):
        return inner.AntiQuant()(x=x, scale=scale, offset=offset)

    with pytest.raises(TypeError, match=r"input arguments\[scale\] must be all tensor and those "
                                        r"type must be same\. But got input "
                                        r"argument\[scale\]:Float32"):
        func(x, 1.0, 2.0)
    with pytest.raises(TypeError, match=r"must be a type of \{Tensor\[Int8\]\}, but got "
                                        r"Tensor\[Float32\]"):
        func(Tensor([1.0]), Tensor([1.0]), Tensor([1.0]))
    with pytest.raises(RuntimeError, match="Ascend-only"):
        func(x, Tensor([1.0]), Tensor([1.0]))
    with pytest.raises(TypeError, match="the type of 'sqrt_mode' should be 'bool'"):
        inner.AntiQuant(sqrt_mode=1)


def test_ge_switch_and_merge_construct_and_refuse_a_call_as_mindspore():
    """MindSpore 2.10: both construct; a call raises NotImplementedError (eagerly and on
    CPU)."""
    from cellgraph.ops import operations as P

    for call in (lambda: P.GeSwitch()(Tensor(1.0), Tensor(True)),
                 lambda: P.Merge()((Tensor(1.0), Tensor(2.0)))):
        with pytest.raises(NotImplementedError, match="GE dataflow"):
            call()


@pytest.mark.parametrize("graph", [False, True])
def test_tensor_copy_slices_writes_the_slice(graph):
    # MindSpore 2.10 (CPU): rows 1..2 of a 4x5 matrix become ones; a step other than 1 fails
    def run(x, value):
        return inner.TensorCopySlices()(x, value, (1, 0), (3, 5), (1, 1))

    x = Tensor(np.arange(20, dtype=np.float32).reshape(4, 5))
    out = (ms.jit(run) if graph else run)(x, Tensor(np.ones((2, 5), np.float32)))
    expected = np.arange(20, dtype=np.float32).reshape(4, 5)
    expected[1:3] = 1
    np.testing.assert_array_equal(out.asnumpy(), expected)
    with pytest.raises(RuntimeError, match="step only support 1"):
        inner.TensorCopySlices()(x, Tensor(np.ones(2, np.float32)), (0, 1), (4, 4), (2, 2))


class _ClipByNormNet(nn.Cell):
    def __init__(self, axis=None):
        super().__init__()
        self.clip = inner.ClipByNorm(axis)

    def construct(self, x, clip_norm):
        return self.clip(x, clip_norm)


def test_clip_by_norm_values_and_gradients_as_mindspore():
    x = Tensor(np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], np.float32))
    clip_norm = Tensor(np.array([0.5], np.float32))
    net = _ClipByNormNet()
    # MindSpore 2.10's values (GRAPH_MODE, CPU)
    np.testing.assert_allclose(net(x, clip_norm).asnumpy(),
                               [[0.11396058, 0.22792116, 0.34188172],
                                [0.05698029, -0.11396058, 0.22792116]], rtol=1e-6)
    dx, dnorm = ops.GradOperation(get_all=True)(net)(x, clip_norm)
    np.testing.assert_allclose(dx.asnumpy(), [[6.95603490e-02, 2.51601264e-02, -1.92400962e-02],
                                              [9.17604640e-02, 1.58360809e-01, 2.51601264e-02]],
                               rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(dnorm.asnumpy(), [1.70940876], rtol=1e-6)
    # float16 inputs and a clip_norm of all-ones shape give float32 of x's shape
    out = inner.ClipByNorm()(x.astype(ms.float16), Tensor(np.array([[0.5]], np.float16)))
    assert out.dtype == ms.float32 and out.shape == (2, 3)
    np.testing.assert_allclose(out.asnumpy(), [[0.11396058, 0.22792116, 0.34188172],
                                               [0.05698029, -0.11396058, 0.22792116]], rtol=1e-3)


def test_clip_by_norm_over_an_axis_takes_each_slice_norm():
    x = np.array([[3.0, 0.0, 0.0], [4.0, 0.0, 1.0]], np.float32)
    clip_norm = Tensor(np.array(1.0, np.float32))
    np.testing.assert_allclose(_ClipByNormNet(0)(Tensor(x), clip_norm).asnumpy(),
                               [[0.6, 0.0, 0.0], [0.8, 0.0, 1.0]], rtol=1e-6)
    row_norms = np.sqrt((x ** 2).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(_ClipByNormNet(1)(Tensor(x), clip_norm).asnumpy(),
                               x / np.maximum(row_norms, 1.0), rtol=1e-6)


def test_clip_by_norm_errors_as_mindspore():
    x = Tensor(np.ones((2, 3), np.float32))
    clip_norm = Tensor(np.array([1.0], np.float32))
    with pytest.raises(TypeError, match=r"the input argument\[x\] must be a type of "
                                        r"\{Float16, Float32\}, but got Float64"):
        _ClipByNormNet()(x.astype(ms.float64), clip_norm)
    with pytest.raises(ValueError, match=r"attribute `axis` should be within \[-2, 2\) range"):
        _ClipByNormNet(5)(x, clip_norm)
    with pytest.raises(TypeError, match="the type of 'axis' should be one of"):
        inner.ClipByNorm(1.5)
    with pytest.raises(ValueError, match="input_x.shape and clip_norm.shape need to broadcast"):
        inner.ClipByNorm()(x, Tensor(np.ones((4,), np.float32)))
    with pytest.raises(ValueError, match="The shape of `clip_norm` only support"):
        inner.ClipByNorm()(Tensor(np.ones((3,), np.float32)), Tensor(np.ones((2, 3), np.float32)))
