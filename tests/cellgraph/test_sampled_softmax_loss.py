"""nn.SampledSoftmaxLoss: MindSpore 2.10's per-example values for given sampled values,
sampling of its own, the reduction, gradients, and its argument checks."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn

RNG = np.random.RandomState(0)
W = RNG.randn(7, 4).astype(np.float32)
B = RNG.randn(7).astype(np.float32)
X = RNG.randn(3, 4).astype(np.float32)
LABELS = Tensor(np.array([[0, 1], [2, 3], [4, 6]]), cg.int32)
SAMPLED = (Tensor(np.array([5, 1, 6], np.int32)), Tensor(np.full((3, 2), 0.4, np.float32)),
           Tensor(np.array([0.4, 0.4, 0.4], np.float32)))


def test_values_as_mindspore():
    loss = nn.SampledSoftmaxLoss(3, 7, num_true=2, sampled_values=SAMPLED)
    out = loss(Tensor(W), Tensor(B), LABELS, Tensor(X))
    np.testing.assert_allclose(out.asnumpy(), [1.0805502, 3.6515977, 2.254341], rtol=1e-5)
    mean = nn.SampledSoftmaxLoss(3, 7, 2, SAMPLED, reduction="mean")(Tensor(W), Tensor(B),
                                                                      LABELS, Tensor(X))
    np.testing.assert_allclose(mean.asnumpy(), np.mean([1.0805502, 3.6515977, 2.254341]),
                               rtol=1e-5)


def test_sampling_and_gradient():
    loss = nn.SampledSoftmaxLoss(3, 7, num_true=2, seed=1)
    assert loss(Tensor(W), Tensor(B), LABELS, Tensor(X)).shape == (3,)
    fixed = nn.SampledSoftmaxLoss(3, 7, 2, SAMPLED, reduction="sum")
    grad = cg.grad(lambda w: fixed(w, Tensor(B), LABELS, Tensor(X)))(Tensor(W)).asnumpy()
    step = 1e-3
    probe = W.copy()
    probe[2, 1] += step
    up = fixed(Tensor(probe), Tensor(B), LABELS, Tensor(X)).asnumpy()
    probe[2, 1] -= 2 * step
    down = fixed(Tensor(probe), Tensor(B), LABELS, Tensor(X)).asnumpy()
    np.testing.assert_allclose(grad[2, 1], (up - down) / (2 * step), rtol=1e-2)


@pytest.mark.parametrize("args, kwargs, error, message", [
    ((3, 7), {"num_true": 0}, ValueError, "'num_true' must be greater"),
    ((8, 7), {}, ValueError, "'num_sampled' must be smaller"),
    ((3, 7), {"seed": -1}, ValueError, "'seed' must be greater"),
    ((3, 7), {"sampled_values": 1}, TypeError, "must be a list or tuple"),
    ((3, 7), {"sampled_values": (1, 2)}, ValueError, "must be equal to 3"),
])
def test_checks(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        nn.SampledSoftmaxLoss(*args, **kwargs)
