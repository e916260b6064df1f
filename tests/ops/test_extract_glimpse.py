"""ops.ExtractGlimpse: windows at per-image offsets (MindSpore's CPU kernel's corners, truncated
toward zero), noise outside the image. Expected values are MindSpore 2.10's, recorded."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops

X = (np.arange(2 * 6 * 7 * 2) % 11).reshape(2, 6, 7, 2).astype(np.float32)
SIZE = Tensor(np.array([3, 4]), cg.int32)
CASES = [
    ((True, True, False, "zero"), [[0.1, -0.2], [0.5, 0.5]],
     [[[3, 5, 7, 9], [6, 8, 10, 1], [9, 0, 2, 4]], [[0, 2, 4, 6], [3, 5, 7, 9], [6, 8, 10, 1]]]),
    ((False, True, False, "zero"), [[0.1, 0.2], [0.9, 0.95]],
     [[[0, 2, 4, 6], [3, 5, 7, 9], [6, 8, 10, 1]], [[2, 4, 6, 0], [5, 7, 9, 0], [8, 10, 1, 0]]]),
    ((True, False, False, "zero"), [[1.0, -2.0], [2.5, 3.3]],
     [[[6, 8, 10, 1], [9, 0, 2, 4], [1, 3, 5, 7]], [[8, 10, 1, 3], [0, 2, 4, 6], [3, 5, 7, 9]]]),
    ((False, False, False, "zero"), [[1.0, 2.0], [4.6, 5.5]],
     [[[0, 2, 4, 6], [3, 5, 7, 9], [6, 8, 10, 1]], [[0, 2, 4, 6], [3, 5, 7, 9], [6, 8, 10, 1]]]),
]


@pytest.mark.parametrize("options, offsets, expected", CASES)
def test_as_mindspore(options, offsets, expected):
    out = ops.ExtractGlimpse(*options)(Tensor(X), SIZE, Tensor(np.array(offsets, np.float32)))
    assert out.dtype == cg.float32 and out.shape == (2, 3, 4, 2)
    np.testing.assert_array_equal(out.asnumpy()[..., 0], expected)


def test_docstring_example_in_a_graph():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.glimpse = ops.ExtractGlimpse(centered=False, normalized=False,
                                              uniform_noise=False, noise="uniform")

        def construct(self, x, size, offsets):
            return self.glimpse(x, size, offsets)

    x = Tensor([[[[0.0], [1.0], [2.0]], [[3.0], [4.0], [5.0]], [[6.0], [7.0], [8.0]]]], cg.float32)
    cg.set_context(mode=cg.GRAPH_MODE)
    try:
        out = Net()(x, Tensor((2, 2), cg.int32), Tensor([[1, 1]], cg.float32))
    finally:
        cg.set_context(mode=cg.PYNATIVE_MODE)
    np.testing.assert_array_equal(out.asnumpy(), [[[[0.0], [1.0]], [[3.0], [4.0]]]])


def test_noise_outside_the_image():
    far = Tensor(np.array([[10.0, 10.0], [-10.0, -10.0]], np.float32))
    uniform = ops.ExtractGlimpse(False, False)(Tensor(X), SIZE, far).asnumpy()
    assert -1 <= uniform.min() and uniform.max() <= 1 and uniform.std() > 0.3
    gaussian = ops.ExtractGlimpse(False, False, False, "gaussian")(Tensor(X), SIZE, far).asnumpy()
    assert gaussian.min() >= 0 and 4 < gaussian.mean() < 18


def test_errors():
    with pytest.raises(ValueError, match="'noise' must be uniform when uniform_noise is True"):
        ops.ExtractGlimpse(noise="zero")
    with pytest.raises(ValueError, match="'noise' must be str and must be in"):
        ops.ExtractGlimpse(uniform_noise=False, noise="salt")
    with pytest.raises(TypeError, match="the type of 'centered' should be 'bool'"):
        ops.ExtractGlimpse(centered=1)
    with pytest.raises(ValueError, match="the shape of 'offsets' must be"):
        ops.ExtractGlimpse()(Tensor(X), SIZE, Tensor(np.zeros((3, 2), np.float32)))
