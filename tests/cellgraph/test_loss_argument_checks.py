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


LOGITS = np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], np.float32)


@pytest.mark.parametrize("mode", [cg.PYNATIVE_MODE, cg.GRAPH_MODE])
def test_cross_entropy_loss_takes_int32_class_labels_only(mode):
    """nn.CrossEntropyLoss checks more than ops.cross_entropy: class labels are int32 (int64
    is a TypeError), logits float16/float32, probabilities of the logits' shape."""
    cg.set_context(mode=mode)
    try:
        loss = nn.CrossEntropyLoss()
        got = loss(Tensor(LOGITS), Tensor(np.array([0, 1], np.int32))).asnumpy()
        log_p = LOGITS - np.log(np.exp(LOGITS).sum(1, keepdims=True))
        np.testing.assert_allclose(got, -(log_p[0, 0] + log_p[1, 1]) / 2, rtol=1e-6)
        with pytest.raises(TypeError, match="the 'labels' should be Int32, but got "
                                            "'cellgraph.int64'"):
            loss(Tensor(LOGITS), Tensor(np.array([0, 1], np.int64)))
        with pytest.raises(TypeError, match=r"the 'logits' should be one of \[cellgraph.float16, "
                                            r"cellgraph.float32\], but got 'cellgraph.float64'"):
            loss(Tensor(LOGITS.astype(np.float64)), Tensor(np.array([0, 1], np.int32)))
        with pytest.raises(ValueError, match=r"'labels' shape: \(2, 2\)"):
            loss(Tensor(LOGITS), Tensor(np.ones((2, 2), np.float32)))
        with pytest.raises(ValueError, match="but get 'logits' rank: 2 and 'labels' rank: 3"):
            loss(Tensor(LOGITS), Tensor(np.ones((2, 2, 2), np.float32)))
    finally:
        cg.set_context(mode=cg.PYNATIVE_MODE)
    # ops.cross_entropy takes int64 labels
    assert ops.cross_entropy(Tensor(LOGITS), Tensor(np.array([0, 1], np.int64))).shape == ()
