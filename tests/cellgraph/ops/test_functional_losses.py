"""ops.gaussian_nll_loss and ops.hinge_embedding_loss: values, checks and messages as MindSpore
2.10's (recorded from the same calls)."""
import numpy as np
import pytest

from cellgraph import Tensor, nn, ops

X = Tensor(np.arange(8).reshape(4, 2).astype(np.float32))
T = Tensor(np.array([2, 3, 1, 4, 6, 4, 4, 9]).reshape(4, 2).astype(np.float32))
VAR_COLUMN = Tensor(np.full((4, 1), 0.5, np.float32))
VAR_FULL = Tensor(np.linspace(0.1, 2, 8).reshape(4, 2).astype(np.float32))

GAUSSIAN = {  # (var, full, reduction) -> MindSpore's result
    ("column", False, "mean"): 2.5284264087677,
    ("column", True, "sum"): 27.57891845703125,
    ("column", False, "none"): [[3.6534264, 3.6534264], [0.6534265, 0.6534265],
                                [3.6534264, 0.6534265], [3.6534264, 3.6534264]],
    ("full", False, "sum"): 29.877595901489258,
    ("full", True, "mean"): 4.653637886047363,
    ("full", True, "none"): [[19.767645, 5.808355], [1.4758, 1.4210076], [2.6908584, 1.4503145],
                             [2.349611, 2.265512]],
}


@pytest.mark.parametrize("key", sorted(GAUSSIAN))
def test_gaussian_nll_loss_values(key):
    var, full, reduction = key
    out = ops.gaussian_nll_loss(X, T, VAR_COLUMN if var == "column" else VAR_FULL, full=full,
                                eps=1e-6, reduction=reduction)
    np.testing.assert_allclose(out.asnumpy(), GAUSSIAN[key], rtol=1e-5)


def test_gaussian_nll_loss_var_without_the_last_axis_broadcasts():
    var = Tensor(np.full((4,), 0.5, np.float32))
    np.testing.assert_allclose(ops.gaussian_nll_loss(X, T, var).asnumpy(),
                               GAUSSIAN[("column", False, "mean")], rtol=1e-6)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"full": 1}, TypeError, "'full' must be a bool, but got <class 'int'>."),
    ({"eps": 1}, ValueError, "For 'gaussian_nll_loss', 'eps' must be a positive float, but got 1"),
    ({"eps": -1.0}, ValueError, "'eps' must be a positive float, but got -1.0."),
    ({"reduction": "bad"}, ValueError, "'reduction' must be one of 'none', 'mean', or 'sum'"),
])
def test_gaussian_nll_loss_checks(kwargs, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace(".", r"\.")):
        ops.gaussian_nll_loss(X, T, VAR_COLUMN, **kwargs)
    with pytest.raises(TypeError, match="For 'gaussian_nll_loss', 'x' must be a tensor"):
        ops.gaussian_nll_loss(X.asnumpy(), T, VAR_COLUMN)


XX = Tensor(np.array([[0.9, -1.2], [2, 0.8], [3.9, 2], [1, 0]], np.float32))
LABELS = Tensor(np.array([[1, -1], [-1, 1], [1, 1], [-1, -1]], np.float32))
HINGE = {
    (1.0, "mean"): 1.350000023841858,
    (0.5, "sum"): 9.800000190734863,
    (2, "none"): [[0.9, 3.2], [0.0, 0.8], [3.9, 2.0], [1.0, 2.0]],
}


@pytest.mark.parametrize("key", sorted(HINGE, key=str))
def test_hinge_embedding_loss_values(key):
    margin, reduction = key
    out = ops.hinge_embedding_loss(XX, LABELS, margin=margin, reduction=reduction)
    np.testing.assert_allclose(out.asnumpy(), HINGE[key], rtol=1e-6)


def test_hinge_embedding_loss_other_labels_and_broadcast():
    odd = Tensor(np.array([[0, 1], [2, -3], [1, 1], [-1, 0]], np.float32))
    np.testing.assert_allclose(ops.hinge_embedding_loss(XX, odd).asnumpy(), 0.8625, rtol=1e-6)
    row = ops.hinge_embedding_loss(XX, Tensor(np.array([1, -1], np.float32)), reduction="none")
    np.testing.assert_allclose(row.asnumpy(), [[0.9, 2.2], [2.0, 0.2], [3.9, 0.0], [1.0, 1.0]],
                               rtol=1e-6)
    np.testing.assert_allclose(nn.HingeEmbeddingLoss(margin=2.0, reduction="sum")(XX, LABELS)
                               .asnumpy(), 13.8, rtol=1e-6)


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.hinge_embedding_loss(Tensor(np.ones((3, 3), np.float32)),
                                      Tensor(np.ones((2, 2), np.float32))), ValueError, ""),
    (lambda: ops.hinge_embedding_loss(XX, LABELS, margin="a"), TypeError,
     "For 'HingeEmbeddingLoss', 'margin' must be a float or int, but got <class 'str'>."),
    (lambda: ops.hinge_embedding_loss(XX, LABELS, reduction="bad"), ValueError,
     "'reduction' must be one of 'none', 'mean', 'sum',but got bad."),
    (lambda: ops.hinge_embedding_loss(XX, Tensor(np.ones((4, 2), np.int32))), TypeError,
     "the dtype of the second input must be float, but got Int32."),
    (lambda: ops.hinge_embedding_loss(XX.asnumpy(), LABELS), TypeError,
     "the first input must be a Tensor"),
])
def test_hinge_embedding_loss_checks(call, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace(".", r"\.")):
        call()
    assert ops.hinge_embedding_loss(XX, LABELS, margin=True).shape == ()
