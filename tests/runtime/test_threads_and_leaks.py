"""Compiled graphs shared between threads, and caches that never keep a Cell alive."""
import gc
import sys
import threading
import weakref

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.runtime import executor

N_THREADS = 8


class SinNet(nn.Cell):
    def __init__(self, scale=2.0):
        super().__init__()
        self.w = Parameter(Tensor(np.float32([scale])), name="w")

    def construct(self, x):
        return ops.reduce_sum(ops.sin(x) * self.w)


@pytest.fixture
def fast_switching():
    """Threads switch every microsecond, so that first compiles really interleave."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def _race(work, n_threads=N_THREADS):
    """Run work(k) in n threads started together; returns what each raised or got wrong."""
    barrier = threading.Barrier(n_threads)
    problems = []

    def run(k):
        barrier.wait()
        try:
            problems.extend(work(k))
        except Exception as e:  # noqa: BLE001 - a thread's failure is the test's failure
            problems.append(repr(e))

    threads = [threading.Thread(target=run, args=(k,)) for k in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return problems


def _forward_and_grad_work(net, grad_net, scale):
    """work(k) for _race: forward and grad over 5 shapes; returns what came out wrong."""
    def work(k):
        wrong = []
        for r in range(15):
            x = np.linspace(0, 1, 1 + (k + r) % 5).astype(np.float32)
            y, dy = net(Tensor(x)), grad_net(Tensor(x))
            if type(y) is not Tensor or type(dy) is not Tensor:
                wrong.append(f"got {type(y).__name__}, {type(dy).__name__}")
                continue
            if not np.allclose(y.asnumpy(), scale * np.sin(x).sum(), rtol=1e-5):
                wrong.append(f"forward {y} at n={x.size}")
            if not np.allclose(dy.asnumpy(), scale * np.cos(x), rtol=1e-5):
                wrong.append(f"grad {dy} at n={x.size}")
        return wrong
    return work


def test_threads_racing_first_compiles_of_forward_and_grad_get_right_values(fast_switching):
    for trial in range(3):
        net = SinNet(1.0 + trial)
        assert _race(_forward_and_grad_work(net, cg.grad(net), 1.0 + trial)) == []
        assert len(net._graph_cache.entries) == 5  # one compile per signature, races or not
    # eager operations in this thread still run eagerly
    assert type(ops.sin(Tensor(np.float32([1.0])))) is Tensor


def test_two_nets_trained_in_two_threads(fast_switching):
    def work(k):
        net = nn.Dense(3, 1)
        loss = nn.WithLossCell(net, nn.MSELoss())
        step = nn.TrainOneStepCell(loss, nn.SGD(net.trainable_params(), 0.1))
        x = Tensor(np.random.default_rng(k).normal(size=(8, 3)).astype(np.float32))
        y = Tensor(np.zeros((8, 1), np.float32))
        losses = [float(step(x, y).asnumpy()) for _ in range(20)]
        return [] if losses[-1] < losses[0] else [f"loss did not fall: {losses}"]

    assert _race(work, 2) == []


def test_grad_does_not_keep_nets_alive():
    refs = []
    x = Tensor(np.ones(3, np.float32))
    for _ in range(20):
        net = SinNet()
        refs.append(weakref.ref(net))
        cg.grad(net)(x)
        cg.value_and_grad(net, None, net.trainable_params())(x)
        cg.jacrev(net)(x)
        cg.vmap(net)(Tensor(np.ones((2, 3), np.float32)))
        cg.jvp(net, x, x)
        del net
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def test_cache_is_bounded_least_recently_used_first():
    net = SinNet()
    for n in range(1, executor.CACHE_SIZE + 20):
        net(Tensor(np.ones(n, np.float32)))
    assert len(net._graph_cache.entries) == executor.CACHE_SIZE
    assert len(net._graph_cache.flat) <= executor.CACHE_SIZE
    out = net(Tensor(np.ones(2, np.float32)))  # dropped: compiles again, right value
    np.testing.assert_allclose(out.asnumpy(), 2 * 2 * np.sin(1.0), rtol=1e-6)


class Scaled(nn.Cell):
    def construct(self, x, s):
        return x / s


def test_nan_argument_compiles_once():
    net = Scaled()
    x = Tensor(np.ones(2, np.float32))
    for _ in range(5):
        assert np.isnan(net(x, float("nan")).asnumpy()).all()
    assert len(net._graph_cache.entries) == 1


def test_negative_zero_is_not_zero():
    net = Scaled()
    x = Tensor(np.ones(2, np.float32))
    with np.errstate(divide="ignore"):
        assert (net(x, 0.0).asnumpy() == np.inf).all()
        assert (net(x, -0.0).asnumpy() == -np.inf).all()


def test_threads_racing_first_compiles_of_jacobians_and_vmap(fast_switching):
    net = SinNet(2.0)
    jac, batched = cg.jacrev(net), cg.vmap(net)

    def work(k):
        wrong = []
        for r in range(6):
            x = np.linspace(0, 1, 2 + (k + r) % 3).astype(np.float32)
            j = jac(Tensor(x)).asnumpy()
            if not np.allclose(j, 2 * np.cos(x), rtol=1e-5):
                wrong.append(f"jacrev {j} at n={x.size}")
            rows = batched(Tensor(np.stack([x, 2 * x]))).asnumpy()
            if not np.allclose(rows, [2 * np.sin(x).sum(), 2 * np.sin(2 * x).sum()], rtol=1e-5):
                wrong.append(f"vmap {rows} at n={x.size}")
        return wrong

    assert _race(work) == []
