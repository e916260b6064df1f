"""MindSpore's functional loops (ops.WhileLoop, ops.ForiLoop, ops.Scan): the documented
examples, graph mode unrolled and as loop primitives, gradients against finite differences."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.compiler.pipeline import compile_callable
from cellgraph.primitives.errors import ArgumentError, ShapeError
from cellgraph.testing import check_grads


def t(values):
    return Tensor(np.asarray(values, np.float64))


def _loop_nodes(net, *args):
    return [n.callee.name for n in compile_callable(net, args).graph.nodes if n.subgraphs()]


def test_documented_examples_run_eagerly():
    assert ops.ForiLoop()(0, 4, lambda index, res: index + res, 0) == 6
    assert ops.Scan()(lambda res, el: (res + el, res + el), 0, [1, 2, 3, 4]) == (10, [1, 3, 6,
                                                                                      10])
    assert ops.WhileLoop()(lambda v: v < 100, lambda v: v * 3, 1) == 243


class WhileNet(nn.Cell):
    """MindSpore's own test: a list state [tensor, counter] and a condition on the counter."""

    def __init__(self):
        super().__init__()
        self.whileop = ops.WhileLoop()

    def construct(self, x):
        def body(value):
            tensor, k = value
            return [ops.sin(tensor) * 1.5, k + 1]

        def cond(value):
            return value[-1] < 4

        return self.whileop(cond, body, [x, 0])[0]


def test_while_loop_in_graph_is_a_loop_and_differentiates():
    x = t([0.3, -0.8])
    ref = x.asnumpy()
    for _ in range(4):
        ref = np.sin(ref) * 1.5
    np.testing.assert_allclose(WhileNet()(x).asnumpy(), ref)
    assert _loop_nodes(WhileNet(), x) == ["while_loop"]
    for order in (1, 2, 3):
        check_grads(WhileNet(), (x,), order=order, rtol=1e-4)


class ForiNet(nn.Cell):
    def __init__(self, unroll):
        super().__init__()
        self.unroll = unroll

    def construct(self, x, w, upper):
        def body(i, value):
            return ops.tanh(value * w) + i * 0.1

        return ops.ForiLoop()(1, upper, body, x, self.unroll)


def _fori_reference(x, w, upper):
    for i in range(1, upper):
        x = np.tanh(x * w) + i * 0.1
    return x


@pytest.mark.parametrize("unroll", [True, False])
def test_fori_loop_with_static_bounds(unroll):
    x, w = t([0.2, -0.4]), t([1.3, 0.6])
    net = ForiNet(unroll)
    np.testing.assert_allclose(net(x, w, 5).asnumpy(), _fori_reference(x.asnumpy(),
                                                                       w.asnumpy(), 5))
    assert _loop_nodes(net, x, w, 5) == ([] if unroll else ["scan"])
    for order in (1, 2):
        check_grads(net, (x, w, 5), order=order, rtol=1e-4)


def test_fori_loop_with_a_tensor_bound_is_a_scan():
    x, w, upper = t([0.2, -0.4]), t([1.3, 0.6]), Tensor(np.array(4, np.int64))
    net = ForiNet(True)  # unrolling needs known bounds: a Tensor bound makes a loop
    np.testing.assert_allclose(net(x, w, upper).asnumpy(), _fori_reference(x.asnumpy(),
                                                                           w.asnumpy(), 4))
    np.testing.assert_allclose(net(x, w, Tensor(np.array(0, np.int64))).asnumpy(), x.asnumpy())
    assert _loop_nodes(net, x, w, upper) == ["scan"]
    check_grads(net, (x, w, upper), order=2, rtol=1e-4)


class ScanNet(nn.Cell):
    def __init__(self, unroll):
        super().__init__()
        self.unroll = unroll

    def construct(self, h, a, b):
        def step(carry, el):
            carry = ops.tanh(carry + el[0] * el[1])
            return carry, (carry, carry * 2)

        carry, ys = ops.Scan()(step, h, [(a, b), (b, a), (a, a)], None, self.unroll)
        return carry * ys[1][0] + ys[2][1]


@pytest.mark.parametrize("unroll", [True, False])
def test_scan_over_pairs(unroll):
    h, a, b = t([0.1, 0.2]), t([0.5, -0.3]), t([1.2, 0.4])
    carry, ys = h.asnumpy(), []
    for p, q in [(a, b), (b, a), (a, a)]:
        carry = np.tanh(carry + p.asnumpy() * q.asnumpy())
        ys.append((carry, carry * 2))
    net = ScanNet(unroll)
    np.testing.assert_allclose(net(h, a, b).asnumpy(), carry * ys[1][0] + ys[2][1])
    assert _loop_nodes(net, h, a, b) == ([] if unroll else ["scan"])
    for order in (1, 2, 3):
        check_grads(net, (h, a, b), order=order, rtol=1e-4)


def test_scan_with_length_and_no_xs():
    class Powers(nn.Cell):
        def construct(self, x):
            return ops.Scan()(lambda c, _: (c * x, c), x, None, 3, False)[1][2]

    np.testing.assert_allclose(Powers()(t([2.0, 3.0])).asnumpy(), [8.0, 27.0])
    check_grads(Powers(), (t([2.0, 3.0]),), order=2)


def test_errors_name_the_op_and_argument():
    with pytest.raises(ArgumentError, match="ForiLoop: expected `lower` to be an int"):
        ops.ForiLoop()(0.5, 3, lambda i, v: v, 0)
    with pytest.raises(ArgumentError, match="WhileLoop: expected `loop_func` to be a function"):
        ops.WhileLoop()(lambda v: v < 3, 3, 0)
    with pytest.raises(ArgumentError, match="Scan: expected `xs` to be a tuple, a list or None"):
        ops.Scan()(lambda c, x: (c, x), 0, 3)

    class Grows(nn.Cell):
        def construct(self, x):
            return ops.WhileLoop()(lambda v: v.sum() < 10, lambda v: ops.concat((v, v)), x)

    with pytest.raises(ShapeError, match="keep the shape and dtype"):
        Grows()(t([1.0]))


def test_set_context_checks_loop_checkpoint():
    with pytest.raises(ArgumentError, match="loop_checkpoint must be an int >= 0"):
        ms.set_context(loop_checkpoint=-1)
    ms.set_context(loop_checkpoint=16)
    assert ms.get_context("loop_checkpoint") == 16
    ms.set_context(loop_checkpoint=0)
