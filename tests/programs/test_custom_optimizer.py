"""Optimizers written by users, as MindSpore's "custom optimizer" tutorial and the model zoo
write them: an nn.Optimizer subclass looping over parameters with ops.assign, one that maps
ops.ApplyMomentum over (gradients, parameters, moments) with HyperMap and a MultitypeFuncGraph,
an Adam built on the ops.Adam primitive with beta powers kept in Parameters, and embedding
rows updated sparsely with ops.ScatterUpdate; each checked against the update rule in NumPy."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops

_momentum_opt = ops.MultitypeFuncGraph("momentum_opt")


@_momentum_opt.register("Function", "Tensor", "Tensor", "Tensor", "Tensor", "Tensor")
def _tensor_run_opt_ext(opt, momentum, learning_rate, gradient, weight, moment):
    success = ops.depend(True, opt(weight, moment, learning_rate, gradient, momentum))
    return success


class MomentumLoop(nn.Optimizer):
    def __init__(self, params, learning_rate, momentum=0.9):
        super().__init__(learning_rate, params)
        self.momentum = Parameter(Tensor(momentum, ms.float32), name="momentum")
        self.moments = self.parameters.clone(prefix="moments", init="zeros")

    def construct(self, gradients):
        lr = self.get_lr()
        params = self.parameters
        for i in range(len(params)):
            ops.assign(self.moments[i], self.moments[i] * self.momentum + gradients[i])
            update = params[i] - self.moments[i] * lr
            ops.assign(params[i], update)
        return params


class MomentumHyperMap(nn.Optimizer):
    def __init__(self, params, learning_rate, momentum=0.9, use_nesterov=False):
        super().__init__(learning_rate, params)
        self.momentum = Parameter(Tensor(momentum, ms.float32), name="momentum")
        self.moments = self.parameters.clone(prefix="moments", init="zeros")
        self.opt = ops.ApplyMomentum(use_nesterov=use_nesterov)

    def construct(self, gradients):
        params = self.parameters
        moments = self.moments
        gradients = self.decay_weight(gradients)
        gradients = self.scale_grad(gradients)
        lr = self.get_lr()
        success = self.hyper_map(ops.partial(_momentum_opt, self.opt, self.momentum, lr),
                                 gradients, params, moments)
        return success


class AdamByPrimitive(nn.Optimizer):
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8):
        super().__init__(learning_rate, params)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.beta1_power = Parameter(Tensor(1.0, ms.float32), name="beta1_power")
        self.beta2_power = Parameter(Tensor(1.0, ms.float32), name="beta2_power")
        self.moment1 = self.parameters.clone(prefix="moment1", init="zeros")
        self.moment2 = self.parameters.clone(prefix="moment2", init="zeros")
        self.adam = ops.Adam()

    def construct(self, gradients):
        lr = self.get_lr()
        beta1_power = ops.assign(self.beta1_power, self.beta1_power * self.beta1)
        beta2_power = ops.assign(self.beta2_power, self.beta2_power * self.beta2)
        for i in range(len(self.parameters)):
            self.adam(self.parameters[i], self.moment1[i], self.moment2[i], beta1_power,
                      beta2_power, lr, self.beta1, self.beta2, self.eps, gradients[i])
        return True


def quadratic_setup():
    w = Parameter(Tensor(np.array([1.0, -2.0, 0.5], np.float32)), name="w")
    b = Parameter(Tensor(np.array([0.3], np.float32)), name="b")
    target = np.array([0.2, 0.1, -0.4], np.float32)

    def loss_fn():
        return ((w - Tensor(target)) ** 2).sum() + b.sum() ** 2

    return w, b, target, loss_fn


def numpy_grads(w, b, target):
    return [2 * (w - target), 2 * b]


@pytest.mark.parametrize("cls", [MomentumLoop, MomentumHyperMap])
def test_momentum_optimizers_follow_the_formula(cls):
    w, b, target, loss_fn = quadratic_setup()
    opt = cls([w, b], learning_rate=0.1, momentum=0.9)
    grad_fn = ms.value_and_grad(loss_fn, None, opt.parameters)
    ws, bs = w.asnumpy().astype(np.float64), b.asnumpy().astype(np.float64)
    moments = [np.zeros(3), np.zeros(1)]

    @ms.jit
    def step():
        loss, grads = grad_fn()
        opt(grads)
        return loss

    for _ in range(5):
        step()
        grads = numpy_grads(ws, bs, target)
        moments = [0.9 * m + g for m, g in zip(moments, grads)]
        ws, bs = ws - 0.1 * moments[0], bs - 0.1 * moments[1]
    np.testing.assert_allclose(w.asnumpy(), ws, rtol=1e-5)
    np.testing.assert_allclose(b.asnumpy(), bs, rtol=1e-5)
    np.testing.assert_allclose(opt.moments[0].asnumpy(), moments[0], rtol=1e-5)
    assert opt.moments[0].name == "moments.w"


def test_nesterov_apply_momentum_eagerly():
    var = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="var")
    accum = Parameter(Tensor(np.array([0.5, 0.5], np.float32)), name="accum")
    grad = Tensor(np.array([0.1, -0.2], np.float32))
    out = ops.ApplyMomentum(use_nesterov=True)(var, accum, 0.1, grad, 0.9)
    new_accum = 0.9 * 0.5 + np.array([0.1, -0.2])
    expected = np.array([1.0, 2.0]) - 0.1 * (np.array([0.1, -0.2]) + 0.9 * new_accum)
    np.testing.assert_allclose(accum.asnumpy(), new_accum, rtol=1e-6)
    np.testing.assert_allclose(var.asnumpy(), expected, rtol=1e-6)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6)
    plain = Tensor(np.ones(2, np.float32))  # MindSpore updates a plain Tensor in place too
    ops.ApplyMomentum()(plain, accum, 0.1, grad, 0.9)
    assert (plain.asnumpy() < 1).all()
    with pytest.raises(TypeError, match="Parameter or Tensor"):
        ops.ApplyMomentum()(var, [1.0, 1.0], 0.1, grad, 0.9)


def test_adam_primitive_optimizer_matches_nn_adam():
    w, b, target, loss_fn = quadratic_setup()
    w2 = Parameter(Tensor(w.asnumpy()), name="w2")
    b2 = Parameter(Tensor(b.asnumpy()), name="b2")
    custom = AdamByPrimitive([w, b], learning_rate=0.05)
    reference = nn.Adam([w2, b2], learning_rate=0.05, eps=1e-8)
    grad_custom = ms.value_and_grad(loss_fn, None, custom.parameters)
    grad_ref = ms.value_and_grad(
        lambda: ((w2 - Tensor(target)) ** 2).sum() + b2.sum() ** 2, None, reference.parameters)
    for _ in range(6):
        custom(grad_custom()[1])
        reference(grad_ref()[1])
    np.testing.assert_allclose(w.asnumpy(), w2.asnumpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(b.asnumpy(), b2.asnumpy(), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(custom.beta1_power.asnumpy(), 0.9 ** 6, rtol=1e-5)


def test_sparse_row_updates_with_scatter_update():
    table = Parameter(Tensor(np.zeros((5, 2), np.float32)), name="table")

    class Refresh(nn.Cell):
        def __init__(self):
            super().__init__()
            self.update = ops.ScatterUpdate()
            self.add = ops.ScatterAdd()

        def construct(self, rows, values):
            self.update(table, rows, values)
            return self.add(table, rows, values)

    rows = Tensor(np.array([3, 1], np.int32))
    values = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    out = Refresh()(rows, values)
    expected = np.zeros((5, 2), np.float32)
    expected[[3, 1]] = 2 * values.asnumpy()
    np.testing.assert_array_equal(table.asnumpy(), expected)
    np.testing.assert_array_equal(out.asnumpy(), expected)
    ops.ScatterNdUpdate()(table, Tensor(np.array([[0, 1]], np.int32)),
                          Tensor(np.array([9.0], np.float32)))
    assert table.asnumpy()[0, 1] == 9.0
