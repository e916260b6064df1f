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
