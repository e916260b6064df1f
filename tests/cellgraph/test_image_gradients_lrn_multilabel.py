"""nn.ImageGradients, nn.LRN and nn.MultilabelMarginLoss: values recorded from MindSpore 2.10
(PyTorch's for MultilabelMarginLoss, which MindSpore's CPU build has no kernel for)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn


@pytest.mark.parametrize("mode", [cg.GRAPH_MODE, cg.PYNATIVE_MODE])
def test_image_gradients(mode):
    cg.set_context(mode=mode)
    try:
        img = Tensor(np.arange(2 * 1 * 3 * 3, dtype=np.float32).reshape(2, 1, 3, 3) ** 2)
        dy, dx = nn.ImageGradients()(img)
    finally:
        cg.set_context(mode=cg.GRAPH_MODE)
    np.testing.assert_array_equal(dy.asnumpy()[1, 0], [[63, 69, 75], [81, 87, 93], [0, 0, 0]])
    np.testing.assert_array_equal(dx.asnumpy()[1, 0], [[19, 21, 0], [25, 27, 0], [31, 33, 0]])
    with pytest.raises(ValueError, match="dimension of 'images' must be 4"):
        nn.ImageGradients()(Tensor(np.ones((3, 3), np.float32)))


def test_lrn():
    x = Tensor(np.arange(1 * 4 * 2 * 2, dtype=np.float32).reshape(1, 4, 2, 2))
    out = nn.LRN(2, 1.0, 0.5, 0.75)(x)
    np.testing.assert_allclose(out.asnumpy()[0, :, 0, 0],
                               [0.0, 0.11541204899549484, 0.23082409799098969,
                                0.34623613953590393], rtol=1e-6)
    with pytest.raises(TypeError):
        nn.LRN(2.0)
    with pytest.raises(ValueError, match="ACROSS_CHANNELS"):
        nn.LRN(norm_region="WITHIN_CHANNEL")


def test_multilabel_margin_loss():
    x = Tensor(np.array([[0.1, 0.2, 0.4, 0.8], [0.2, -0.3, 0.5, 0.1]], np.float32))
    y = Tensor(np.array([[3, 0, -1, 1], [1, 2, -1, 0]], np.int32))
    np.testing.assert_allclose(nn.MultilabelMarginLoss("none")(x, y).asnumpy(), [0.85, 1.05],
                               rtol=1e-6)
    np.testing.assert_allclose(nn.MultilabelMarginLoss()(x, y).asnumpy(), 0.95, rtol=1e-6)
    np.testing.assert_allclose(nn.MultilabelMarginLoss("sum")(x, y).asnumpy(), 1.9, rtol=1e-6)
