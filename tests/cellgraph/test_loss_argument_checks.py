"""ops.cross_entropy's argument checks and FocalLoss with labels of a smaller batch, as
MindSpore 2.10 has them (its exception types, messages and values)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops

X = Tensor(np.random.default_rng(0).standard_normal((3, 5)).astype(np.float32))
T = Tensor(np.array([1, 0, 4]), cg.int32)
W = Tensor(np.ones(5), cg.float32)


@pytest.mark.parametrize("call, text", [
    (lambda: ops.cross_entropy(X.asnumpy(), T, W), "the 'input' must be a Tensor"),
    (lambda: ops.cross_entropy(Tensor(np.ones((3, 5)), cg.int32), T, W),
     ("the input dtype should be mstype.float64, mstype.float32 or mstype.float16, but got "
      "dtype:Int32")),
    (lambda: ops.cross_entropy(X, T.asnumpy(), W), "the 'target' must be a Tensor"),
    (lambda: ops.cross_entropy(X, T, W.asnumpy()), "the 'weight' must be a Tensor"),
    (lambda: ops.cross_entropy(X, T, W, ignore_index="1"),
     "the type of 'ignore_index' must be 'int', but got 'str'"),
    (lambda: ops.cross_entropy(X, T, W, ignore_index=True), "but got 'bool'"),
    (lambda: ops.cross_entropy(X, T, W, label_smoothing="0.5"),
     "the 'label_smoothing' must be float, but got 'str'"),
    (lambda: ops.cross_entropy(X, T, W, label_smoothing=1),
     "the 'label_smoothing' must be float, but got 'int'"),
])
def test_cross_entropy_type_errors(call, text):
    with pytest.raises(TypeError) as info:
        call()
    assert text in str(info.value)


def test_cross_entropy_accepts_its_forms():
    assert ops.cross_entropy(X, T, W, ignore_index=1, label_smoothing=0.1).shape == ()
    assert ops.cross_entropy(X, T).shape == ()


def test_focal_loss_labels_of_a_smaller_batch_take_the_first_rows():
    x = Tensor([[0.8, 1.4], [0.5, 0.9], [1.2, 0.9]], cg.float32)
    loss = nn.FocalLoss(weight=None, gamma=2.0, reduction="none")
    out = loss(x, Tensor([[1]], cg.int32)).asnumpy()
    # MindSpore 2.10: [0.05493012]; with the full labels the first row is the same
    np.testing.assert_allclose(out, [0.05493012], rtol=2e-5)
    full = loss(x, Tensor([[1], [0], [1]], cg.int32)).asnumpy()
    np.testing.assert_allclose(full, [0.05493012, 0.32724684, 0.2819232], rtol=2e-5)
