"""In PyNative mode, an element assignment into a Tensor read by indexing another writes that
other Tensor too, in the graph a gradient traces (compiler/pynative_indexing.py); graph mode
and `jit` functions rebind the indexed Tensor alone. The values and gradients are MindSpore
2.10's for x = [[1, 2, 3], [4, 5, 6]]."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import nn, ops


def _x():
    return ms.Tensor(np.arange(1, 7, dtype=np.float32).reshape(2, 3))


def _view_write(x):
    y = x * 2
    z = y[0]
    z[1] = 5
    return (y * y).sum()


def _copy_write(x):
    y = x * 2
    z = y[[0]]
    z[0, 0] = 7
    return (y * y).sum()


def _chain(x):
    y = x * 2
    z = y[[1, 0]]
    w = z[0]
    w[2] = x[0, 0] * 10
    w[0] = 0
    return (y * x).sum()


def _twice(x):
    y = x + 0
    z = y[:, 1]
    z[0] = 3
    z[1] = z[0] * x[1, 2]
    return (y * y).sum()


def _reshaped(x):  # a reshape's result is written alone, as in MindSpore's gradient
    y = x * 2
    z = y.reshape(-1)
    z[0] = z[1] * 3
    return (y * x).sum()


class _Net(nn.Cell):
    def construct(self, x):
        y = x * 2
        z = y[1]
        z[0] = 7
        return (y * x).sum()


CASES = [
    ("view", _view_write, 373.0, [8, 0, 24, 32, 40, 48]),
    ("copy", _copy_write, 409.0, [0, 16, 24, 32, 40, 48]),
    ("chain", _chain, 138.0, [64, 8, 12, 0, 20, 10]),
    ("twice", _twice, 395.0, [2, 0, 6, 8, 0, 120]),
    ("reshape", _reshaped, 182.0, [4, 8, 12, 16, 20, 24]),
    ("cell", _Net(), 178.0, [4, 8, 12, 7, 20, 24]),
]


@pytest.mark.parametrize("what, fn, value, grad", CASES, ids=[c[0] for c in CASES])
def test_pynative_gradient_sees_writes_through_indexing(pynative_mode, what, fn, value, grad):
    got_value, got_grad = ops.value_and_grad(fn)(_x())
    np.testing.assert_allclose(got_value.asnumpy(), value)
    np.testing.assert_allclose(got_grad.asnumpy().ravel(), grad)


@pytest.mark.parametrize("fn", [_view_write, _copy_write])
def test_jit_functions_keep_graph_semantics(pynative_mode, fn):
    """MindSpore 2.10: under jit, `z[...] = v` leaves y as it was (364, gradient 4x)."""
    compiled = ms.jit(fn)
    value, grad = ops.value_and_grad(compiled)(_x())
    np.testing.assert_allclose(value.asnumpy(), 364.0)
    np.testing.assert_allclose(grad.asnumpy().ravel(), [8, 16, 24, 32, 40, 48])
    np.testing.assert_allclose(compiled(_x()).asnumpy(), 364.0)


def test_graph_mode_keeps_graph_semantics():
    value, grad = ops.value_and_grad(_view_write)(_x())
    np.testing.assert_allclose(value.asnumpy(), 364.0)
    np.testing.assert_allclose(grad.asnumpy().ravel(), [8, 16, 24, 32, 40, 48])


# ----- in-place operations on a view ------------------------------------------------------------
# MindSpore 2.10's CPU build cannot show these (its add_/mul_ write nothing, and copy_ into a view
# fails in its kernel); the gradient must be that of what the forward pass computes, which is
# the eager run's value: d/dx and d/dw are worked out by hand.

class _InPlaceOnView(nn.Cell):
    def __init__(self, take, update):
        super().__init__()
        self.take, self.update = take, update

    def construct(self, x, w):
        y = x * 2
        self.update(self.take(y), w)
        return y * 1


def _add_then_mul(z, w):
    z.add_(w)
    z.mul_(w)


X = [[1.0, 2.0], [3.0, 4.0]]
W = [5.0, 6.0]


@pytest.mark.parametrize("take, update, value, dx, dw", [
    # a basic index is a view: y[0] = (2 x0 + w) * w
    (lambda y: y[0], _add_then_mul, [[35, 60], [6, 8]], [[10, 12], [2, 2]], [12, 16]),
    # mint.select is a view too: y[0] = w
    (lambda y: ms.mint.select(y, 0, 0), lambda z, w: z.copy_(w), [[5, 6], [6, 8]],
     [[0, 0], [2, 2]], [1, 1]),
    # a Tensor index makes a copy: the update stays in it
    (lambda y: y[ms.Tensor(np.array([0]))], lambda z, w: z.copy_(w), [[2, 4], [6, 8]],
     [[2, 2], [2, 2]], [0, 0]),
])
def test_an_in_place_update_of_a_view_reaches_its_base_in_a_pynative_gradient(
        take, update, value, dx, dw):
    ms.set_context(mode=ms.PYNATIVE_MODE)  # the autouse set-up puts graph mode back after
    x, w = ms.Tensor(np.array(X, np.float32)), ms.Tensor(np.array(W, np.float32))
    net = _InPlaceOnView(take, update)
    np.testing.assert_array_equal(net(x, w).asnumpy(), value)  # eager
    out, (gx, gw) = ms.value_and_grad(net, grad_position=(0, 1))(x, w)
    np.testing.assert_array_equal(out.asnumpy(), value)
    np.testing.assert_array_equal(gx.asnumpy(), dx)
    np.testing.assert_array_equal(gw.asnumpy(), dw)
