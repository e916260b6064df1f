"""ops.RGBToHSV, HSVToRGB, AdjustHue and AdjustSaturation: images whose last axis holds 3
channels. Expected values are MindSpore 2.10's (CPU, PyNative), recorded as literals (rounded
to 5 places); gradients are checked against finite differences in float64."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops
from cellgraph.testing import check_grads

IMAGE = np.array([[[0.2, 0.2, 0.2], [0.9, 0.1, 0.1]],
                  [[0.0, 0.0, 0.0], [0.9350724, 0.81585354, 0.0027385]]], np.float32)
HSV = np.array([[[0.999, 0.03358557, 0.72965544], [0.0, 0.8631789, 0.5414612]],
                [[0.29971188, 0.0, 0.02831967], [0.12428328, 0.67062443, 0.6471895]]], np.float32)


def test_rgb_to_hsv():
    expected = [[[0, 0, 0.2], [0, 0.88889, 0.9]], [[0, 0, 0], [0.14535, 0.99707, 0.93507]]]
    for dtype in (np.float32, np.float64):
        out = ops.RGBToHSV()(Tensor(IMAGE.astype(dtype)))
        assert out.dtype == cg.dtype.from_numpy(np.dtype(dtype))
        np.testing.assert_allclose(out.asnumpy(), expected, atol=1e-5)
    # MindSpore's float16 kernel gives inf/nan for the saturation here; float32's values are right
    half = ops.RGBToHSV()(Tensor(IMAGE.astype(np.float16)))
    assert half.dtype == cg.float16
    np.testing.assert_allclose(half.asnumpy(), expected, atol=2e-3)
    with pytest.raises(ValueError, match="last dimension of input 'images' must be equal to 3"):
        ops.RGBToHSV()(Tensor(IMAGE[..., :2]))
    with pytest.raises(TypeError, match=r"but got Tensor\[Int32\]"):
        ops.RGBToHSV()(Tensor((IMAGE * 10).astype(np.int32)))


def test_hsv_to_rgb():
    out = ops.HSVToRGB()(Tensor(HSV[None]))
    np.testing.assert_allclose(out.asnumpy(), [[[[0.72966, 0.70515, 0.7053],
                                                 [0.54146, 0.07408, 0.07408]],
                                                [[0.02832, 0.02832, 0.02832],
                                                 [0.64719, 0.53682, 0.21317]]]], atol=1e-5)
    with pytest.raises(ValueError, match=r"the dimension of \[x\] must be equal to 4, but got 3"):
        ops.HSVToRGB()(Tensor(HSV))


def test_round_trip_and_gradients():
    rng = np.random.default_rng(3)
    image = rng.uniform(0.05, 0.95, size=(1, 4, 5, 3))
    back = ops.HSVToRGB()(ops.RGBToHSV()(Tensor(image)))
    np.testing.assert_allclose(back.asnumpy(), image, atol=1e-12)
    check_grads(lambda x: ops.RGBToHSV()(x), (Tensor(image),), order=2)
    check_grads(lambda x: ops.HSVToRGB()(x), (Tensor(rng.uniform(0.05, 0.95, (1, 2, 3, 3))),),
                order=2)


def test_adjust_hue():
    expected = [[[0.2, 0.2, 0.2], [0.26, 0.9, 0.1]], [[0, 0, 0], [0.00274, 0.93507, 0.62939]]]
    for delta in (0.3, -0.7):
        out = ops.AdjustHue()(Tensor(IMAGE), Tensor(delta, cg.float32))
        np.testing.assert_allclose(out.asnumpy(), expected, atol=1e-5)
    half = ops.AdjustHue()(Tensor(IMAGE.astype(np.float16)), Tensor(0.3, cg.float32))
    assert half.dtype == cg.float16
    np.testing.assert_allclose(half.asnumpy(), [[[0.19995] * 3, [0.26001, 0.8999, 0.09998]],
                                                [[0, 0, 0], [0.00274, 0.93506, 0.62939]]],
                               atol=1e-5)
    with pytest.raises(TypeError, match=r"argument\[delta\].*but got Tensor\[Float64\]"):
        ops.AdjustHue()(Tensor(IMAGE), Tensor(0.3, cg.float64))
    with pytest.raises(ValueError, match="the dimension of delta must be equal to 0, but got 1"):
        ops.AdjustHue()(Tensor(IMAGE), Tensor([0.3], cg.float32))
    with pytest.raises(ValueError, match="must be greater than or equal to 3, but got 1"):
        ops.AdjustHue()(Tensor(IMAGE[0, 0]), Tensor(0.3, cg.float32))


def test_adjust_saturation():
    cases = {0.5: [[[0.2, 0.2, 0.2], [0.9, 0.5, 0.5]], [[0, 0, 0], [0.93507, 0.87546, 0.46891]]],
             3.0: [[[0.2, 0.2, 0.2], [0.9, 0, 0]], [[0, 0, 0], [0.93507, 0.8155, 0]]],
             -1.0: [[[0.2, 0.2, 0.2], [0.9, 0.9, 0.9]], [[0, 0, 0], [0.93507] * 3]]}
    for scale, expected in cases.items():
        out = ops.AdjustSaturation()(Tensor(IMAGE), Tensor(scale, cg.float32))
        np.testing.assert_allclose(out.asnumpy(), expected, atol=1e-5)
    half = ops.AdjustSaturation()(Tensor(IMAGE.astype(np.float16)), Tensor(2.0, cg.float32))
    np.testing.assert_allclose(half.asnumpy(), [[[0.19995] * 3, [0.8999, 0, 0]],
                                                [[0, 0, 0], [0.93506, 0.81543, 0]]], atol=1e-5)


def test_in_a_graph():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.hue = ops.AdjustHue()

        def construct(self, image, delta):
            return self.hue(image, delta)

    cg.set_context(mode=cg.GRAPH_MODE)
    try:
        out = Net()(Tensor(IMAGE), Tensor(0.3, cg.float32))
    finally:
        cg.set_context(mode=cg.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy()[1, 1], [0.00274, 0.93507, 0.62939], atol=1e-5)
