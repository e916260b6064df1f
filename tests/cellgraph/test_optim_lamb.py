"""nn.Lamb and the in-place ops.AdamWeightDecay primitive: one step against hand-computed
NumPy updates, in PyNative and graph mode."""
import numpy as np

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops


def test_adam_weight_decay_primitive_one_step():
    var0, m0, v0 = np.array([1.0, -2.0, 0.5]), np.array([0.1, 0.0, -0.2]), np.full(3, 0.04)
    grad = np.array([0.3, -0.1, 0.2])
    lr, b1, b2, eps, decay = 0.01, 0.9, 0.999, 1e-8, 0.1
    m = b1 * m0 + (1 - b1) * grad
    v = b2 * v0 + (1 - b2) * grad ** 2
    want = var0 - lr * (m / (np.sqrt(v) + eps) + decay * var0)

    class Step(nn.Cell):
        def __init__(self):
            super().__init__()
            self.var, self.m, self.v = (Parameter(Tensor(a.copy()), name=n)
                                        for a, n in ((var0, "var"), (m0, "m"), (v0, "v")))
            self.op = ops.operations.nn_ops.AdamWeightDecay()

        def construct(self, g):
            return self.op(self.var, self.m, self.v, lr, b1, b2, eps, decay, g)

    for run in (lambda cell, g: cell(g), lambda cell, g: ms.jit(cell.construct)(g)):
        cell = Step()
        out = run(cell, Tensor(grad))
        np.testing.assert_allclose(cell.var.asnumpy(), want, rtol=1e-12)
        np.testing.assert_allclose(cell.m.asnumpy(), m, rtol=1e-12)
        np.testing.assert_allclose(cell.v.asnumpy(), v, rtol=1e-12)
        np.testing.assert_allclose(out[0].asnumpy(), want, rtol=1e-12)


def test_lamb_one_step():
    w0, b0 = np.array([[1.0, -2.0], [0.5, 3.0]]), np.zeros(2)
    grads = (np.array([[0.2, -0.4], [0.1, 0.3]]), np.array([0.5, -0.5]))
    lr, b1, b2, eps, decay = 0.1, 0.9, 0.999, 1e-6, 0.01
    weight, bias = Parameter(Tensor(w0.copy()), name="w"), Parameter(Tensor(b0.copy()),
                                                                      name="b")
    opt = nn.Lamb([weight, bias], learning_rate=lr, weight_decay=decay)
    opt(tuple(Tensor(g) for g in grads))

    def expected(p, g, decayed):
        m_hat, v_hat = (1 - b1) * g / (1 - b1), (1 - b2) * g ** 2 / (1 - b2)
        r = m_hat / (np.sqrt(v_hat) + eps) + (decay * p if decayed else 0)
        w_norm, r_norm = np.linalg.norm(p), np.linalg.norm(r)
        trust = w_norm / r_norm if w_norm > 0 and r_norm > 0 else 1.0
        return p - lr * trust * r

    # (the learning rate is held in float32)
    np.testing.assert_allclose(weight.asnumpy(), expected(w0, grads[0], True), rtol=1e-7)
    # a zero tensor has no norm to scale by: its trust ratio is 1
    np.testing.assert_allclose(bias.asnumpy(), expected(b0, grads[1], True), rtol=1e-7)


def _adafactor_numpy(p, g, t, beta1, lr=None, eps=(1e-30, 1e-3), clip=1.0, decay=0.8,
                     state=None):
    """One AdaFactor step as the paper and MindSpore write it (state: zeros at the start)."""
    state = {} if state is None else state
    rate = min(1e-2, 1 / np.sqrt(t)) if lr is None else lr
    rate *= max(eps[1], np.sqrt(np.mean(p ** 2)))
    beta2t = 1 - t ** -decay
    sq = g ** 2 + eps[0]
    if p.ndim > 1:
        row = beta2t * state.get("row", 0) + (1 - beta2t) * sq.mean(-1)
        col = beta2t * state.get("col", 0) + (1 - beta2t) * sq.mean(-2)
        state.update(row=row, col=col)
        update = g / np.sqrt(np.outer(row / row.mean(), col))
    else:
        v = beta2t * state.get("v", 0) + (1 - beta2t) * sq
        state["v"] = v
        update = g / np.sqrt(v)
    update = update / max(np.sqrt(np.mean(update ** 2)) / clip, 1.0) * rate
    if beta1:
        update = beta1 * state.get("m", 0) + (1 - beta1) * update
        state["m"] = update
    return p - update, state


def test_adafactor_two_steps_factored_and_not():
    w0, b0 = np.array([[1.0, -2.0, 0.3], [0.5, 3.0, -1.0]]), np.array([0.2, -0.4])
    grads = [(np.array([[0.2, -0.4, 0.1], [0.1, 0.3, -0.2]]), np.array([0.5, -0.5])),
             (np.array([[-0.1, 0.2, 0.4], [0.3, -0.1, 0.2]]), np.array([0.1, 0.3]))]
    for beta1 in (None, 0.9):
        weight, bias = Parameter(Tensor(w0.copy()), name="w"), Parameter(Tensor(b0.copy()),
                                                                          name="b")
        opt = nn.optim.AdaFactor([weight, bias], beta1=beta1)
        want_w, want_b, state_w, state_b = w0, b0, None, None
        for t, (gw, gb) in enumerate(grads, start=1):
            opt((Tensor(gw), Tensor(gb)))
            want_w, state_w = _adafactor_numpy(want_w, gw, t, beta1, state=state_w)
            want_b, state_b = _adafactor_numpy(want_b, gb, t, beta1, state=state_b)
        np.testing.assert_allclose(weight.asnumpy(), want_w, rtol=1e-10)
        np.testing.assert_allclose(bias.asnumpy(), want_b, rtol=1e-10)
