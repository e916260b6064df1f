"""`nn_ops.SparseSoftmaxCrossEntropyWithLogitsV2`: per-row loss and its gradient, with MindSpore
2.10's values and errors (recorded here)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, context, nn
from cellgraph.ops.operations.nn_ops import SparseSoftmaxCrossEntropyWithLogitsV2

LOGITS = [[2, 3, 1, 4, 5], [2, 1, 2, 4, 3]]
LOSS = [3.4519143, 3.523744]
BACKPROP = [[-0.96831506, 0.08612854, 0.01165623, 0.23412165, 0.6364086],
            [0.08015893, -0.9705112, 0.08015893, 0.5922988, 0.21789455]]


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = SparseSoftmaxCrossEntropyWithLogitsV2()

    def construct(self, logits, labels):
        return self.op(logits, labels)


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
def test_values(mode):
    context.set_context(mode=mode)
    try:
        loss, backprop = Net()(Tensor(LOGITS, cg.float32), Tensor([0, 1], cg.int32))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    np.testing.assert_allclose(loss.asnumpy(), LOSS, rtol=1e-6)
    np.testing.assert_allclose(backprop.asnumpy(), BACKPROP, rtol=1e-6, atol=1e-7)
    assert loss.shape == (2,) and backprop.shape == (2, 5)


def test_errors():
    op = SparseSoftmaxCrossEntropyWithLogitsV2()
    with pytest.raises(TypeError, match=r"argument\[logits_type\(features_type\)\] must be a "
                                        r"type of \{Tensor\[Float16\], Tensor\[Float32\]\}"):
        op(Tensor([[1.0]], cg.float64), Tensor([0]))
    with pytest.raises(TypeError, match=r"argument\[labels_type\]"):
        op(Tensor([[1.0]]), Tensor([0.0]))
    with pytest.raises(ValueError, match=r"dimension of logits\(features\) must be equal to 2, "
                                         r"but got 1"):
        op(Tensor([1.0]), Tensor([0]))
    with pytest.raises(ValueError, match="dimension of labels must be equal to 1, but got 2"):
        op(Tensor([[1.0]]), Tensor([[0]]))
    with pytest.raises(ValueError, match=r"batch of logits\(features\) must be equal to 1, but "
                                         r"got 2"):
        op(Tensor([[1.0], [2.0]]), Tensor([0]))
    with pytest.raises(RuntimeError, match=r"label 2 out of range \[0, 2\)"):
        op(Tensor([[1.0, 2.0]]), Tensor([2]))
