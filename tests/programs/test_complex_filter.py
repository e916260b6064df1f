"""A complex-valued model as MindSpore code writes one: a frequency-response filter whose taps
are complex numbers built from real Parameters with ops.Complex, fitted to a target response by
TrainOneStepCell with SGD; the loss is the squared magnitude of the complex error."""
import numpy as np

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.common import dtype as mstype


class ComplexFilter(nn.Cell):
    """H(w) = sum_k c_k exp(-i w k): complex taps c_k = re_k + i im_k."""

    def __init__(self, taps):
        super().__init__()
        self.re = Parameter(Tensor(np.zeros(taps, np.float32)), name="re")
        self.im = Parameter(Tensor(np.zeros(taps, np.float32)), name="im")
        self.k = Tensor(np.arange(taps, dtype=np.float32))

    def construct(self, w):
        taps = ops.Complex()(self.re, self.im)
        phase = ops.Complex()(ops.zeros_like(w), -w)
        basis = ops.exp(ops.expand_dims(phase, 1) * self.k)  # (n, taps)
        return ops.matmul(basis, ops.expand_dims(taps, 1)).squeeze(1)


class ResponseLoss(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, w, target):
        error = self.net(w) - target
        return ops.mean(ops.real(error * ops.conj(error)))


def test_fit_a_complex_filter_to_its_response():
    true_taps = np.array([0.5 + 0.2j, -0.3 + 0.1j, 0.1 - 0.4j], np.complex64)
    w = np.linspace(0, np.pi, 16).astype(np.float32)
    target = np.exp(-1j * np.outer(w, np.arange(3))) @ true_taps
    net = ComplexFilter(3)
    step = nn.TrainOneStepCell(ResponseLoss(net), nn.SGD(net.trainable_params(), 0.3))
    w_t, target_t = Tensor(w), Tensor(target.astype(np.complex64), mstype.complex64)
    first = float(step(w_t, target_t).asnumpy())
    for _ in range(150):
        loss = float(step(w_t, target_t).asnumpy())
    assert loss < 1e-4 * first
    fitted = net.re.asnumpy() + 1j * net.im.asnumpy()
    np.testing.assert_allclose(fitted, true_taps, atol=1e-2)
    assert net.re.dtype == ms.float32  # real Parameters get real gradients
