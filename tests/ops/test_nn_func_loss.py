"""The 1.x loss primitives, clip_by_norm and bernoulli (MindSpore's documented examples and
NumPy), with gradients against finite differences."""
import numpy as np
import pytest

from cellgraph import Tensor, context, nn, ops

LOGITS = np.array([[2, 4, 1, 4, 5], [2, 1, 2, 4, 3]], np.float32)
DENSE = np.array([[0, 0, 0, 0, 1], [0, 0, 0, 1, 0]], np.float32)


def test_softmax_cross_entropy_primitives():
    loss, backprop = ops.SoftmaxCrossEntropyWithLogits()(Tensor(LOGITS), Tensor(DENSE))
    np.testing.assert_allclose(loss.asnumpy(), [0.5899297, 0.52374405], rtol=1e-5)
    np.testing.assert_allclose(backprop.asnumpy()[0],
                               [0.02760027, 0.20393994, 0.01015357, 0.20393994, -0.44563377],
                               rtol=1e-5)
    sparse = ops.SparseSoftmaxCrossEntropyWithLogits()
    labels = Tensor(np.array([4, 3], np.int32))
    np.testing.assert_allclose(sparse(Tensor(LOGITS), labels).asnumpy(),
                               np.mean([0.5899297, 0.52374405]), rtol=1e-5)
    grad = ops.SparseSoftmaxCrossEntropyWithLogits(is_grad=True)(Tensor(LOGITS), labels)
    np.testing.assert_allclose(grad.asnumpy(), backprop.asnumpy() / 2, rtol=1e-5)
    # float16/float32 only, as MindSpore's kernel: the derivative is checked against is_grad's
    derivative = ops.grad(lambda x: sparse(x, labels))(Tensor(LOGITS))
    np.testing.assert_allclose(derivative.asnumpy(), grad.asnumpy(), rtol=1e-5, atol=1e-7)
    with pytest.raises(TypeError, match="integer labels"):
        sparse(Tensor(LOGITS), Tensor(DENSE))


def test_sigmoid_cross_entropy_and_l2_loss():
    logits = np.array([[-0.8, 1.2, 0.7], [-0.1, -0.4, 0.7]], np.float32)
    labels = np.array([[0.3, 0.8, 1.2], [-0.6, 0.1, 2.2]], np.float32)
    out = ops.SigmoidCrossEntropyWithLogits()(Tensor(logits), Tensor(labels))
    np.testing.assert_allclose(out.asnumpy(), [[0.6111007, 0.5032824, 0.26318604],
                                               [0.58439666, 0.5530153, -0.4368139]], rtol=1e-5)
    big = Tensor(np.array([100.0, -100.0], np.float32))
    assert np.all(np.isfinite(ops.SigmoidCrossEntropyWithLogits()(big, Tensor(
        np.array([1.0, 0.0], np.float32))).asnumpy()))
    assert float(ops.L2Loss()(Tensor(np.array([1.0, 2.0, 3.0], np.float32))).asnumpy()) == 7.0


def test_clip_by_norm_over_a_tuple_and_in_a_graph():
    a, b = Tensor(np.array([3.0, 0.0], np.float32)), Tensor(np.array([[4.0]], np.float32))
    ca, cb = ops.clip_by_norm((a, b), 1.0)
    np.testing.assert_allclose(ca.asnumpy(), [0.6, 0.0], rtol=1e-5)
    np.testing.assert_allclose(cb.asnumpy(), [[0.8]], rtol=1e-5)
    small = ops.clip_by_norm(Tensor(np.array([0.3, 0.4], np.float32)), 1.0)
    np.testing.assert_allclose(small.asnumpy(), [0.3, 0.4], rtol=1e-6)
    np.testing.assert_allclose(ops.clip_by_norm(a, 1.0, norm_type=float("inf")).asnumpy(),
                               [1.0, 0.0], rtol=1e-5)

    class Clip(nn.Cell):
        def construct(self, x):
            return ops.clip_by_norm(x, 2.0)

    np.testing.assert_allclose(Clip()(Tensor(np.array([6.0, 8.0], np.float32))).asnumpy(),
                               [1.2, 1.6], rtol=1e-5)
    with pytest.raises(RuntimeError, match="not finite"):
        ops.clip_by_norm(Tensor(np.array([np.inf], np.float32)), 1.0, error_if_nonfinite=True)


def test_bernoulli_draws():
    draws = ops.bernoulli(Tensor(np.zeros((200, 50), np.float32)), p=0.3).asnumpy()
    assert set(np.unique(draws)) <= {0.0, 1.0} and 0.27 < draws.mean() < 0.33
    probs = Tensor(np.array([0.0, 1.0], np.float32))
    np.testing.assert_array_equal(ops.bernoulli(Tensor(np.zeros(2, np.float32)), probs).asnumpy(),
                                  [0.0, 1.0])



def _bce_inputs(seed, size, dtype=np.float32):
    rng = np.random.RandomState(seed)
    return tuple(Tensor(rng.rand(size).astype(dtype)) for _ in range(3))


class _BCE(nn.Cell):
    def __init__(self, reduction):
        super().__init__()
        self.bce = ops.BinaryCrossEntropy(reduction)

    def construct(self, x, y, weight=None):
        return self.bce(x, y, weight)


# (seed, size, dtype, reduction, weighted): MindSpore 2.10's result
BCE_REDUCED = [((42, 20, np.float32, "sum", True), 14.894649505615234),
               ((42, 20, np.float32, "mean", True), 0.7447324991226196),
               ((20, 20, np.float32, "sum", True), 10.155807495117188),
               ((20, 20, np.float32, "sum", False), 19.34510040283203),
               ((3, 3, np.float32, "sum", False), 2.2784790992736816),
               ((3, 3, np.float32, "mean", True), 0.07913435995578766),
               ((1, 1, np.float32, "sum", True), 0.0001786356297088787),
               ((1, 1, np.float32, "mean", False), 1.5618441104888916),
               ((20, 20, np.float16, "mean", False), 0.96728515625)]


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
@pytest.mark.parametrize(("case", "expected"), BCE_REDUCED)
def test_binary_cross_entropy_sums_in_mindspores_kernel_order(mode, case, expected):
    """BinaryCrossEntropy's "sum" and "mean" add the losses as MindSpore's CPU kernel does (the
    upper half onto the lower, the stride halving), so the result is its last bit too; a
    single element counts twice there (the kernel folds an odd last element into the first)."""
    seed, size, dtype, reduction, weighted = case
    x, y, weight = _bce_inputs(seed, size, dtype)
    context.set_context(mode=mode)
    try:
        loss = _BCE(reduction)(x, y, weight if weighted else None)
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    assert float(loss.asnumpy()) == expected


def test_bce_loss_and_functional_share_the_order():
    x, y, weight = _bce_inputs(20, 20)
    assert float(nn.BCELoss(reduction="sum")(x, y).asnumpy()) == 19.34510040283203
    assert float(ops.binary_cross_entropy(x, y, weight, "sum").asnumpy()) == 10.155807495117188
    grad = ops.grad(lambda p: ops.binary_cross_entropy(p, y, weight, "mean"))(x)
    p, t, w = (v.asnumpy().astype(np.float64) for v in (x, y, weight))
    np.testing.assert_allclose(grad.asnumpy(), w * (p - t) / (p * (1 - p)) / 20, rtol=1e-5)
