"""Reverse mode through loops in O(n): the recording while_loop, the scan primitive, their
higher orders (checked against finite differences), checkpointing, memory, vmap and the code
loops run as."""
import tracemalloc

import numpy as np
import pytest

import cellgraph as ms
from bench.w7_while_loop_grad import SinLoop, numpy_grad
from cellgraph import Tensor, nn, ops
from cellgraph.compiler.ir import all_graphs
from cellgraph.compiler.pipeline import compile_callable
from cellgraph.testing import check_grads


@pytest.fixture
def checkpoint():
    """Set loop_checkpoint for one test and restore it afterwards."""
    yield lambda s: ms.set_context(loop_checkpoint=s)
    ms.set_context(loop_checkpoint=0)


def t(values, dtype=np.float64):
    return Tensor(np.asarray(values, dtype))


def count(n: int) -> Tensor:
    return Tensor(np.array(n, np.int64))


def _nodes(graph, name):
    return [n for g in all_graphs(graph) for n in g.nodes if n.callee.name == name]


def test_gradient_is_one_recording_loop_and_one_backward_scan(rng):
    x, w = t(rng.normal(size=8)), t(rng.normal(size=8))
    grad = ms.grad(SinLoop(), grad_position=(0, 1))
    graph = compile_callable(grad, (x, w, count(3))).graph
    loops = [n.callee.name for n in graph.nodes if n.subgraphs()]
    assert loops == ["while_loop", "scan"]
    (backward,) = _nodes(graph, "scan")  # reads the stacked residuals, recomputes no sin(x)
    assert "sin" not in [n.callee.name for n in backward.params["body_graph"].nodes]
    assert len(_nodes(graph, "while_loop")) == 1 and len(_nodes(graph, "scan")) == 1
    for n in (0, 1, 57):
        dx, dw = grad(x, w, count(n))
        ref = numpy_grad(x.asnumpy(), w.asnumpy(), n)
        np.testing.assert_allclose(dx.asnumpy(), ref[0], rtol=1e-10)
        np.testing.assert_allclose(dw.asnumpy(), ref[1], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_orders_one_to_three_through_a_loop(n, rng):
    args = (t(rng.normal(size=3) * 0.5), t(rng.normal(size=3)), count(n))
    for order in (1, 2, 3):
        check_grads(SinLoop(), args, order=order, rtol=1e-4)


class TwoStateLoop(nn.Cell):
    """Two float states, an integer state and a loop-invariant weight, a data-dependent trip
    count."""

    def construct(self, h, c, w):
        k = 0
        while (h * h).sum() < 4.0:
            h, c = ops.tanh(h * w + c) + h, c * 0.9 + h * 0.1
            k = k + 1
        return h.sum() + c.sum() * k


def test_several_carried_values_orders_one_to_three(rng):
    args = (t([0.3, -0.1]), t([0.2, 0.4]), t([1.2, 0.8]))
    for order in (1, 2, 3):
        check_grads(TwoStateLoop(), args, order=order, rtol=1e-4)


@pytest.mark.parametrize("segment", [2, 3, 50])
def test_checkpointing_gives_the_same_derivatives(segment, checkpoint, rng):
    x, w = t(rng.normal(size=4) * 0.5), t(rng.normal(size=4))
    plain = ms.grad(SinLoop(), grad_position=(0, 1))(x, w, count(10))
    checkpoint(segment)
    graph = compile_callable(ms.grad(SinLoop(), grad_position=(0, 1)), (x, w, count(10))).graph
    assert len(_nodes(graph, "while_loop")) > 1  # segments run as inner loops
    again = ms.grad(SinLoop(), grad_position=(0, 1))(x, w, count(10))
    for a, b in zip(plain, again):
        np.testing.assert_allclose(b.asnumpy(), a.asnumpy(), rtol=1e-12)
    for order in (1, 2):
        check_grads(SinLoop(), (x, w, count(7)), order=order, rtol=1e-4)


def _peak_bytes(fn, *args) -> int:
    fn(*args)  # compiled and warm: what is measured is one run
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _bytes_per_trip(graph) -> int:
    """What the recording loop of `graph` stacks per trip, in bytes."""
    (loop,) = _nodes(graph, "while_loop")
    stacks = loop.outputs[loop.params["n_carried"] + 1:]
    return sum(np.dtype(o.aval.dtype.np).itemsize * int(np.prod(o.aval.shape[1:]))
               for o in stacks)


def test_gradient_of_a_long_loop_holds_its_residuals_per_trip(checkpoint, rng):
    n, width = 10_000, 64
    x, w = t(rng.normal(size=width)), t(rng.normal(size=width))
    grad = ms.grad(SinLoop(), grad_position=(0, 1))
    per_trip = _bytes_per_trip(compile_callable(grad, (x, w, count(n))).graph)
    assert per_trip == 2 * width * 8  # sin(x) and cos(x): what the backward step reads
    recorded = _peak_bytes(grad, x, w, count(n))
    # the stacks double when full: at most 2n trips, and both buffers live while copying
    assert n * per_trip <= recorded <= 4 * n * per_trip
    checkpoint(100)  # ~sqrt(n): 100 segment starts, then 100 trips per replayed segment
    segmented = _peak_bytes(ms.grad(SinLoop(), grad_position=(0, 1)), x, w, count(n))
    assert segmented < recorded / 10


def test_vmap_of_loop_gradient_with_per_example_trip_counts(rng):
    xs, ws = t(rng.normal(size=(3, 4)) * 0.5), t(rng.normal(size=(3, 4)))
    ns = Tensor(np.array([0, 3, 7], np.int64))
    per_example = ms.vmap(ms.grad(SinLoop(), grad_position=(0, 1)))(xs, ws, ns)
    for b in range(3):
        ref = numpy_grad(xs.asnumpy()[b], ws.asnumpy()[b], int(ns.asnumpy()[b]))
        np.testing.assert_allclose(per_example[0].asnumpy()[b], ref[0], rtol=1e-10)
        np.testing.assert_allclose(per_example[1].asnumpy()[b], ref[1], rtol=1e-10, atol=1e-12)


class ScanNet(nn.Cell):
    def construct(self, h, xs, w):
        def step(carry, x):
            carry = ops.tanh(carry * w + x)
            return carry, carry * carry
        carry, ys = ops.Scan()(step, h, [xs[0], xs[1], xs[2]], None, False)
        return carry.sum() + ys[0].sum() * ys[2].sum()


def test_scan_orders_one_to_three(rng):
    args = (t(rng.normal(size=2) * 0.5), t(rng.normal(size=(3, 2))), t(rng.normal(size=2)))
    graph = compile_callable(ScanNet(), args).graph
    assert [n.callee.name for n in graph.nodes if n.subgraphs()] == ["scan"]
    for order in (1, 2, 3):
        check_grads(ScanNet(), args, order=order, rtol=1e-4)


def test_vmap_of_scan_gradient(rng):
    hs, xs, w = t(rng.normal(size=(4, 2))), t(rng.normal(size=(4, 3, 2))), t([0.7, -1.1])
    per_example = ms.vmap(ms.grad(ScanNet(), grad_position=(0, 1)), in_axes=(0, 0, None))(
        hs, xs, w)
    for b in range(4):
        ref = ms.grad(ScanNet(), grad_position=(0, 1))(hs[b], xs[b], w)
        for got, want in zip(per_example, ref):
            np.testing.assert_allclose(got.asnumpy()[b], want.asnumpy(), rtol=1e-10)


def test_gradient_of_weights_only_keeps_no_input_accumulator(rng):
    args = (t(rng.normal(size=2)), t(rng.normal(size=(3, 2))), t(rng.normal(size=2)))
    graph = compile_callable(ms.grad(ScanNet(), grad_position=2), args).graph
    (backward,) = [n for n in graph.nodes if n.callee.name == "scan"][1:]
    assert backward.params["n_carry"] == 2  # d carry and d w; no gradient for h or xs
    assert len(backward.outputs) == 2


def test_loop_bodies_are_inlined_and_the_exit_test_is_a_comparison(rng):
    source = compile_callable(ms.grad(SinLoop()), (t([1.0]), t([2.0]), count(2))).module.source
    assert source.count("def ") == 1  # no function per loop body or condition
    assert "while True:" in source and "if not (" in source and "= int(n)" in source
    assert "for " in source and "range(" in source  # the backward scan


def test_forward_mode_and_hessian_through_a_loop(rng):
    x, w, n = t(rng.normal(size=3) * 0.5), t(rng.normal(size=3)), count(4)

    def loss(x, w):
        return SinLoop()(x, w, n)

    eps, direction = 1e-6, rng.normal(size=3)
    numeric = (loss(t(x.asnumpy() + eps * direction), w).asnumpy()
               - loss(t(x.asnumpy() - eps * direction), w).asnumpy()) / (2 * eps)
    _, tangent = ms.jvp(loss, (x, w), (t(direction), t(np.zeros(3))))
    np.testing.assert_allclose(tangent.asnumpy(), numeric, rtol=1e-6)
    hessian = ms.hessian(loss)(x, w).asnumpy()
    grad_at = ms.grad(loss)
    for i in range(3):
        step = np.eye(3)[i] * eps
        column = (grad_at(t(x.asnumpy() + step), w).asnumpy()
                  - grad_at(t(x.asnumpy() - step), w).asnumpy()) / (2 * eps)
        np.testing.assert_allclose(hessian[:, i], column, rtol=1e-5, atol=1e-8)


class NestedLoops(nn.Cell):
    def construct(self, x, n):
        i = 0
        while i < n:
            j = 0
            while j < i + 1:
                x = ops.sin(x) * 1.1
                j = j + 1
            i = i + 1
        return x.sum()


class LoopInBranch(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            while x.sum() < 5:
                x = x * 1.7
        else:
            x = x * 3
        return x


@pytest.mark.parametrize("segment", [0, 2])
def test_nested_loops_and_loops_in_branches_orders_one_to_three(segment, checkpoint):
    checkpoint(segment)
    x = t([0.3, 0.2])
    for order in (1, 2, 3):
        check_grads(NestedLoops(), (x, count(3)), order=order, rtol=1e-4)
        check_grads(LoopInBranch(), (x,), order=order, rtol=1e-4)
        check_grads(LoopInBranch(), (-x,), order=order, rtol=1e-4)
