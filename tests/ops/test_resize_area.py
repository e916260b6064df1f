"""ops.ResizeArea: (N, H, W, C) images resized by area averaging (TensorFlow's rule, MindSpore's
CPU kernel), as float32. Expected values are MindSpore 2.10's, recorded as literals."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops

IMAGES = np.arange(2 * 4 * 5 * 3, dtype=np.float32).reshape(2, 4, 5, 3) ** 1.3


def test_docstring_example():
    images = Tensor([[[[2], [4], [6], [8]], [[10], [12], [14], [16]]]], cg.float16)
    out = ops.ResizeArea()(images, Tensor([1, 2], cg.int32))
    assert out.dtype == cg.float32
    np.testing.assert_array_equal(out.asnumpy(), [[[[7.0], [11.0]]]])


def test_shrinking_and_growing():
    out = ops.ResizeArea()(Tensor(IMAGES), Tensor([3, 2], cg.int32))
    assert out.shape == (2, 3, 2, 3)
    np.testing.assert_allclose(out.asnumpy()[0, 0], [[13.07331, 15.0536, 17.24501],
                                                     [30.44846, 33.24237, 36.10423]], rtol=2e-5)
    aligned = ops.ResizeArea(True)(Tensor(IMAGES), Tensor([3, 2], cg.int32))
    np.testing.assert_allclose(aligned.asnumpy()[1, 2], [[448.04099, 453.36594, 458.70541],
                                                         [488.24921, 493.68112, 499.12689]],
                               rtol=2e-5)
    grown = ops.ResizeArea(True)(Tensor(IMAGES), Tensor([6, 7], cg.int32))
    np.testing.assert_allclose(grown.asnumpy()[0, 1, :3], [[11.26672, 12.91945, 14.89904],
                                                           [14.16383, 16.14067, 18.3388],
                                                           [17.06094, 19.3619, 21.77856]],
                               rtol=2e-5)
    ints = ops.ResizeArea()(Tensor(IMAGES.astype(np.int32)), Tensor([3, 3], cg.int32))
    assert ints.dtype == cg.float32
    np.testing.assert_allclose(ints.asnumpy()[0, 0], [[10.35, 12.15, 14.05], [20.65, 22.9, 25.4],
                                                      [33.35, 36.2, 38.85]], rtol=2e-5)


def test_in_a_graph_with_the_size_passed():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.resize = ops.ResizeArea()

        def construct(self, images, size):
            return self.resize(images, size)

    cg.set_context(mode=cg.GRAPH_MODE)
    try:
        out = Net()(Tensor(IMAGES), Tensor([3, 2], cg.int32))
    finally:
        cg.set_context(mode=cg.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy()[0, 0, 0], [13.07331, 15.0536, 17.24501], rtol=2e-5)


def test_errors():
    images = Tensor(IMAGES)
    with pytest.raises(TypeError, match=r"argument\[size\].*but got Tensor\[Int64\]"):
        ops.ResizeArea()(images, Tensor([3, 3], cg.int64))
    with pytest.raises(TypeError, match="the type of 'align_corners' should be 'bool'"):
        ops.ResizeArea(1)
    with pytest.raises(ValueError, match="'size' should only contain positive number"):
        ops.ResizeArea()(images, Tensor([0, 3], cg.int32))
    with pytest.raises(ValueError, match="dimension of 'images' must be 4"):
        ops.ResizeArea()(images[0], Tensor([3, 3], cg.int32))
