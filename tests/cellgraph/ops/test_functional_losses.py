"""ops.gaussian_nll_loss, ops.hinge_embedding_loss, ops.lp_pool1d and ops.lp_pool2d: values,
checks and messages as MindSpore 2.10's (recorded from the same calls)."""
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


LP_X = np.arange(2 * 3 * 7).reshape((2, 3, 7)).astype(np.float32) - 10
LP_Y = (np.arange(2 * 3 * 5 * 6).reshape((2, 3, 5, 6)).astype(np.float32) - 40) / 7


@pytest.mark.parametrize("call, shape, head", [  # MindSpore 2.10's first values
    (lambda: ops.lp_pool1d(Tensor(LP_X), norm_type=1, kernel_size=3, stride=1), (2, 3, 5),
     [-27.0, -24.0, -21.0, -18.0, -15.0, -6.0, -3.0, 0.0, 3.0, 6.0, 15.0, 18.0]),
    (lambda: ops.lp_pool1d(Tensor(LP_X), norm_type=2, kernel_size=3, stride=2, ceil_mode=True),
     (2, 3, 3), [15.6525, 12.2066, 8.775, 3.7417, 1.4142, 3.7417, 8.775, 12.2066, 15.6525,
                 20.8327, 24.2899, 27.7489]),
    (lambda: ops.lp_pool1d(Tensor(LP_X[0]), norm_type=3, kernel_size=2), (3, 3),
     [np.nan] * 5 + [2.0801, 5.7388, 8.2377, 10.7463]),
    (lambda: ops.lp_pool2d(Tensor(LP_Y), norm_type=1, kernel_size=3, stride=1), (2, 3, 3, 4),
     [-42.4286, -41.1429, -39.8571, -38.5714, -34.7143, -33.4286, -32.1429, -30.8571, -27.0,
      -25.7143, -24.4286, -23.1429]),
    (lambda: ops.lp_pool2d(Tensor(LP_Y), norm_type=2, kernel_size=(2, 3), stride=(2, 1),
                           ceil_mode=True), (2, 3, 3, 4),
     [12.6443, 12.2957, 11.9472, 11.5987, 8.4684, 8.1215, 7.7749, 7.4286, 5.2567, 4.9073,
      4.558, 4.2088]),
])
def test_lp_pool_as_mindspore(call, shape, head):
    out = call()
    assert out.shape == shape
    np.testing.assert_allclose(out.asnumpy().ravel()[:len(head)], head, rtol=1e-4, atol=1e-4)


def test_lp_pool_checks_and_graph_use():
    with pytest.raises(TypeError, match="For lp_pool1d, the type of 'norm_type' must be float "
                                        "or int"):
        ops.lp_pool1d(Tensor(LP_X), norm_type="a", kernel_size=3)
    with pytest.raises(ValueError, match="For lp_pool2d, the value of 'norm_type' can not be 0"):
        ops.lp_pool2d(Tensor(LP_Y), norm_type=0, kernel_size=3)

    class Pool(nn.Cell):
        def construct(self, y):
            return ops.lp_pool2d(y, norm_type=1, kernel_size=3, stride=1)

    np.testing.assert_allclose(Pool()(Tensor(LP_Y)).asnumpy(),
                               ops.lp_pool2d(Tensor(LP_Y), 1, 3, 1).asnumpy(), rtol=1e-6)
