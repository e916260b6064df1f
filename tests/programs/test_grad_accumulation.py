"""Gradient accumulation as the MindSpore tutorial writes it: an accumulator of zero-initialised
Parameters cloned from the weights, ops.HyperMap with ops.partial over a MultitypeFuncGraph
that assign_adds each gradient, an update every N micro-batches that divides by N, calls the
optimizer and resets the accumulator; the result equals one step on the whole batch. Then
gradient clipping by ops.clip_by_global_norm inside a jit step, checked against NumPy."""
import numpy as np

import cellgraph as ms
from cellgraph import Parameter, ParameterTuple, Tensor, nn, ops

_sum_op = ops.MultitypeFuncGraph("grad_sum_op")
_clear_op = ops.MultitypeFuncGraph("clear_op")
_mean_op = ops.MultitypeFuncGraph("mean_op")


@_sum_op.register("Tensor", "Tensor")
def _cumulative_grad(grad_sum, grad):
    """Apply grad sum to cumulative gradient."""
    add = ops.AssignAdd()
    return add(grad_sum, grad)


@_clear_op.register("Tensor", "Tensor")
def _clear_grad_sum(grad_sum, zero):
    """Apply zero to clear grad_sum."""
    success = True
    success = ops.depend(success, ops.assign(grad_sum, zero))
    return success


@_mean_op.register("Number", "Tensor")
def _mean_grad(count, grad_sum):
    return grad_sum / count


class Accumulator:
    def __init__(self, optimizer, accumulate_step):
        self.optimizer = optimizer
        self.inner_grads = optimizer.parameters.clone(prefix="accumulate_", init="zeros")
        self.zeros = optimizer.parameters.clone(prefix="zeros_", init="zeros")
        self.counter = Parameter(Tensor(1, ms.int32), "counter_")
        assert accumulate_step > 0
        self.accumulate_step = accumulate_step
        self.map = ops.HyperMap()

    def __call__(self, grads):
        self.map(ops.partial(_sum_op), self.inner_grads, grads)
        if self.counter % self.accumulate_step == 0:
            scaled = self.map(ops.partial(_mean_op, self.accumulate_step), self.inner_grads)
            self.optimizer(scaled)
            self.map(ops.partial(_clear_op), self.inner_grads, self.zeros)
        ops.assign_add(self.counter, Tensor(1, ms.int32))
        return True


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(3, 6, weight_init="normal")
        self.fc2 = nn.Dense(6, 1, weight_init="normal")

    def construct(self, x):
        return self.fc2(ops.tanh(self.fc1(x)))


def make_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(8, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]])).astype(np.float32)
    return x, y


def copy_weights(src, dst):
    for p, q in zip(src.trainable_params(), dst.trainable_params()):
        q.set_data(Tensor(p.asnumpy().copy()))


def test_accumulated_steps_equal_one_big_batch_step():
    x, y = make_data()
    net_a, net_b = Net(), Net()
    copy_weights(net_a, net_b)
    loss_fn = nn.MSELoss()

    opt_a = nn.SGD(net_a.trainable_params(), learning_rate=0.1)
    accumulator = Accumulator(opt_a, 4)
    grad_a = ms.value_and_grad(lambda d, l: loss_fn(net_a(d), l), None, opt_a.parameters)
    for i in range(4):
        _, grads = grad_a(Tensor(x[2 * i:2 * i + 2]), Tensor(y[2 * i:2 * i + 2]))
        accumulator(grads)
        if i < 3:   # no update before the fourth micro-batch
            np.testing.assert_allclose(net_a.fc2.bias.asnumpy(), net_b.fc2.bias.asnumpy())
    assert np.all(accumulator.inner_grads[0].asnumpy() == 0)
    assert int(accumulator.counter.asnumpy()) == 5

    opt_b = nn.SGD(net_b.trainable_params(), learning_rate=0.1)
    grad_b = ms.value_and_grad(lambda d, l: loss_fn(net_b(d), l), None, opt_b.parameters)
    _, grads = grad_b(Tensor(x), Tensor(y))
    opt_b(grads)
    for p, q in zip(net_a.trainable_params(), net_b.trainable_params()):
        np.testing.assert_allclose(p.asnumpy(), q.asnumpy(), rtol=1e-5, atol=1e-6)
    names = [p.name for p in accumulator.inner_grads]
    assert names[0] == "accumulate_.fc1.weight"
    assert isinstance(accumulator.inner_grads, ParameterTuple)


def test_clip_by_global_norm_in_a_jit_step():
    x, y = make_data(1)
    net = Net()
    loss_fn = nn.MSELoss()
    opt = nn.SGD(net.trainable_params(), learning_rate=1.0)
    grad_fn = ms.value_and_grad(lambda d, l: loss_fn(net(d), l), None, opt.parameters)
    before = [p.asnumpy().copy() for p in net.trainable_params()]
    _, raw = grad_fn(Tensor(x), Tensor(y * 50))
    raw = [g.asnumpy() for g in raw]

    @ms.jit
    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        grads = ops.clip_by_global_norm(grads, clip_norm=1.0)
        opt(grads)
        return loss

    train_step(Tensor(x), Tensor(y * 50))
    norm = np.sqrt(sum((g.astype(np.float64) ** 2).sum() for g in raw))
    assert norm > 1.0
    for b, g, p in zip(before, raw, net.trainable_params()):
        np.testing.assert_allclose(b - p.asnumpy(), g / norm, rtol=1e-4, atol=1e-6)
