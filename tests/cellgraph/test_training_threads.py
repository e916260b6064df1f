"""Training steps called from several threads at once lose no update: each step (forward,
gradients, optimizer update) of a training Cell runs whole, one after the other.

The loss is w . x: its gradient x does not depend on w, so the final weights after N steps
are the same in any order, and equal those of N steps run one after the other."""
import sys
import threading

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops

THREADS, STEPS = 8, 20
X = np.array([1.0, 2.0, -1.0, 0.5], np.float32)


class Linear(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.zeros(4, np.float32)), name="w")

    def construct(self, x):
        return (self.w * x).sum()


class HandWrittenStep(nn.Cell):
    """A training Cell written as MindSpore's tutorials write one."""

    def __init__(self, network, optimizer):
        super().__init__(auto_prefix=False)
        self.network, self.optimizer = network, optimizer
        self.weights = optimizer.parameters
        self.grad = ops.GradOperation(get_by_list=True)

    def construct(self, x):
        loss = self.network(x)
        self.optimizer(self.grad(self.network, self.weights)(x))
        return loss


def _in_threads(step, x):
    errors = []

    def work():
        try:
            for _ in range(STEPS):
                step(x)
        except BaseException as e:  # noqa: BLE001  (reported by the test)
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(THREADS)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as Python allows
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []


def _trained(make_step, threaded: bool):
    net = Linear()
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
    step = make_step(net, optimizer)
    x = Tensor(X)
    step(x)  # compiled (graph mode) before the threads start, so they race in the step
    if threaded:
        _in_threads(step, x)
    else:
        for _ in range(THREADS * STEPS):
            step(x)
    return net.w.asnumpy(), optimizer.global_step.asnumpy().item()


def _loss_scaled(net, optimizer):
    scale = Tensor(np.array(1024.0, np.float32))
    return nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, _Identity()), optimizer, scale)


class _Identity(nn.Cell):
    def construct(self, out, label):
        return out


class _Labelled(nn.Cell):
    def __init__(self, step):
        super().__init__(auto_prefix=False)
        self.step = step

    def construct(self, x):
        return self.step(x, x)


MAKERS = {
    "TrainOneStepCell": nn.TrainOneStepCell,
    "TrainOneStepWithLossScaleCell": lambda net, opt: _Labelled(_loss_scaled(net, opt)),
    "hand-written": HandWrittenStep,
}


@pytest.mark.parametrize("mode", ["graph", "pynative"])
@pytest.mark.parametrize("maker", list(MAKERS))
def test_steps_from_eight_threads_lose_no_update(mode, maker):
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    sequential, sequential_steps = _trained(MAKERS[maker], threaded=False)
    threaded, threaded_steps = _trained(MAKERS[maker], threaded=True)
    assert threaded_steps == sequential_steps == 1 + THREADS * STEPS
    np.testing.assert_allclose(threaded, sequential, rtol=1e-5)


def test_a_copied_training_cell_has_a_lock_of_its_own():
    import copy

    net = Linear()
    step = nn.TrainOneStepCell(net, nn.SGD(net.trainable_params()))
    clone = copy.deepcopy(step)
    assert clone._step_lock is not step._step_lock
    assert clone.optimizer._step_lock is not step.optimizer._step_lock
