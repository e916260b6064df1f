"""The functional margin losses (`ops.multi_margin_loss`, `multilabel_soft_margin_loss`,
`huber_loss`, `cosine_embedding_loss`: MindSpore 2.10's values; `soft_margin_loss` and
`multilabel_margin_loss`, which MindSpore's CPU build cannot run: PyTorch's definition), their
gradients against finite differences, and `tanhshrink`, `threshold`, `soft_shrink`, `rrelu`."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from tests.ops.test_fft_with_size import _numeric_grad

X = np.array([[0.1, 0.2, 0.4, 0.8], [0.3, -0.5, 1.0, 0.2]], np.float32)
Y = np.array([3, 0], np.int64)


def test_values_as_mindspore():
    x = Tensor(X)
    np.testing.assert_allclose(ops.multi_margin_loss(x, Tensor(Y)).asnumpy(), 0.51250005,
                               rtol=1e-6)
    weight = Tensor(np.array([1, 2, 3, 4], np.float32))
    np.testing.assert_allclose(
        ops.multi_margin_loss(x, Tensor(Y), p=2, margin=2, weight=weight,
                              reduction="none").asnumpy(), [6.2100005, 3.0850003], rtol=1e-6)
    labels = Tensor(np.array([[1, 0, 1, 1], [0, 0, 1, 1]], np.float32))
    np.testing.assert_allclose(ops.multilabel_soft_margin_loss(x, labels).asnumpy(), 0.57081026,
                               rtol=1e-6)
    np.testing.assert_allclose(ops.huber_loss(x, x * 2, "sum", 0.3).asnumpy(), 0.72, rtol=1e-6)
    np.testing.assert_allclose(
        ops.cosine_embedding_loss(x, x * x, Tensor(np.array([1, -1], np.int32)), 0.2,
                                  "none").asnumpy(), [0.04003507, 0.54810745], rtol=1e-5)


def test_the_losses_mindspore_cannot_run_on_cpu_follow_pytorch():
    target = Tensor(np.array([[3, 0, -1, 1], [1, 2, 3, -1]], np.int32))
    # torch.nn.functional.multilabel_margin_loss(x, target, reduction="none")
    np.testing.assert_allclose(ops.multilabel_margin_loss(Tensor(X), target, "none").asnumpy(),
                               [0.85, 0.8], rtol=1e-6)
    np.testing.assert_allclose(ops.multilabel_margin_loss(Tensor(X[0]), target[0]).asnumpy(),
                               0.85, rtol=1e-6)
    labels = np.array([[1, -1, 1, 1], [-1, -1, 1, 1]], np.float32)
    np.testing.assert_allclose(ops.soft_margin_loss(Tensor(X), Tensor(labels), "none").asnumpy(),
                               np.log1p(np.exp(-labels * X)), rtol=1e-6)


@pytest.mark.parametrize("loss", [
    lambda x: ops.multi_margin_loss(x, Tensor(Y), p=2),
    lambda x: ops.multilabel_soft_margin_loss(x, Tensor(np.array([[1.0, 0, 1, 1], [0, 0, 1, 1]]))),
    lambda x: ops.huber_loss(x, Tensor(X.astype(np.float64) * 2), delta=0.3),
    lambda x: ops.soft_margin_loss(x, Tensor(np.array([[1.0, -1, 1, 1], [-1, -1, 1, 1]]))),
    lambda x: ops.multilabel_margin_loss(x, Tensor(np.array([[3, 0, -1, 1], [1, 2, 3, -1]],
                                                            np.int32))),
    lambda x: ops.cosine_embedding_loss(x, x * x, Tensor(np.array([1, -1])), 0.2),
])
def test_gradients_match_finite_differences(loss):
    x = X.astype(np.float64)
    np.testing.assert_allclose(ops.grad(loss)(Tensor(x)).asnumpy(), _numeric_grad(loss, x),
                               rtol=1e-5, atol=1e-7)


def test_the_cells_share_the_functions():
    x, y = Tensor(X), Tensor(Y)
    assert nn.MultiMarginLoss()(x, y).asnumpy() == ops.multi_margin_loss(x, y).asnumpy()
    labels = Tensor(np.array([[1, 0, 1, 1], [0, 0, 1, 1]], np.float32))
    assert nn.MultiLabelSoftMarginLoss()(x, labels).asnumpy() == \
        ops.multilabel_soft_margin_loss(x, labels).asnumpy()


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.multi_margin_loss(Tensor(X), Tensor(Y), margin=1.0), TypeError,
     "For 'multi_margin_loss', the type of 'margin' must be int"),
    (lambda: ops.huber_loss(Tensor(X), Tensor(X), delta=0), ValueError,
     "For 'huber_loss', the argument 'delta' must > 0.0, but got 0."),
    (lambda: ops.cosine_embedding_loss(Tensor(X), Tensor(X), Tensor(np.array([1, -1])), 2.0),
     ValueError, "the value of 'margin' should be in [-1, 1]"),
    (lambda: ops.multilabel_margin_loss(Tensor(X), Tensor(np.zeros((2, 4), np.int64))),
     TypeError, "must be a type of {Tensor[Int32]}, but got Tensor[Int64]"),
    (lambda: ops.soft_margin_loss(Tensor(X), Tensor(X), "bad"), ValueError, "reduction"),
])
def test_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


def test_shrinks_and_threshold_as_mindspore():
    x = Tensor(np.array([-2.0, -0.5, 0.0, 1.0, 3.0], np.float32))
    np.testing.assert_allclose(ops.tanhshrink(x).asnumpy(),
                               [-1.0359724, -0.03788283, 0.0, 0.23840582, 2.0049443], rtol=1e-6)
    out = ops.tanhshrink(Tensor(np.array([1, 2])))
    assert str(out.dtype) == "Float32"
    np.testing.assert_allclose(ops.threshold(x, 0.5, 9).asnumpy(), [9, 9, 9, 1, 3])
    np.testing.assert_array_equal(ops.threshold(Tensor(np.array([1, 5])), 2, 0.7).asnumpy(),
                                  [0, 5])
    np.testing.assert_allclose(ops.soft_shrink(x).asnumpy(), [-1.5, 0, 0, 0.5, 2.5])
    np.testing.assert_allclose(nn.Tanhshrink()(x).asnumpy(), ops.tanhshrink(x).asnumpy())
    np.testing.assert_allclose(nn.Threshold(0.5, 9)(x).asnumpy(), [9, 9, 9, 1, 3])


def test_rrelu_slopes_lie_between_the_bounds():
    x = np.linspace(-3, 3, 401).astype(np.float32)
    out = ops.rrelu(Tensor(x), 0.1, 0.3).asnumpy()
    np.testing.assert_array_equal(out[x >= 0], x[x >= 0])
    slopes = out[x < 0] / x[x < 0]
    assert slopes.min() >= 0.1 - 1e-6 and slopes.max() < 0.3 + 1e-6
    assert slopes.std() > 0.01  # drawn per element
    with pytest.raises(ValueError, match="'upper' must be greater than or equal to 'lower'"):
        ops.rrelu(Tensor(x), 0.5, 0.2)
