"""FractionalAvgPool / FractionalMaxPool and their gradient classes: MindSpore 2.10's values
where the windows are fixed by the ratio (recorded below), plain and overlapping windows; where
they are drawn, the bounds split each axis into windows of k and k + 1 cells (pseudo-random:
within one cell of alpha * i), and a seeded deterministic pooling repeats its windows."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn
from cellgraph.ops.operations import _grad_ops as G
from cellgraph.ops.operations import nn_ops as N

X = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4, 3, 3, 8, 3,
              2, 7, 9, 5, 0, 2, 8, 8], np.float32).reshape(1, 6, 6, 1)
RATIO = [1.0, 2.0, 3.0, 1.0]
# overlapping -> MindSpore's outputs for X; the gradients of 1, 2, 3, ... per output
EXPECTED = {False: {'avg': [3.5, 5.166666030883789, 7.166666030883789, 3.3333330154418945, 4.666666030883789, 5.0], 'rows': [0, 2, 4, 6], 'cols': [0, 3, 6], 'avg_grad': [0.16666699945926666, 0.16666699945926666, 0.16666699945926666, 0.33333298563957214, 0.33333298563957214, 0.33333298563957214, 0.16666699945926666, 0.16666699945926666, 0.16666699945926666, 0.33333298563957214, 0.33333298563957214, 0.33333298563957214, 0.5, 0.5, 0.5, 0.6666669845581055, 0.6666669845581055, 0.6666669845581055, 0.5, 0.5, 0.5, 0.6666669845581055, 0.6666669845581055, 0.6666669845581055, 0.8333330154418945, 0.8333330154418945, 0.8333330154418945, 1.0, 1.0, 1.0, 0.8333330154418945, 0.8333330154418945, 0.8333330154418945, 1.0, 1.0, 1.0], 'max': [6.0, 9.0, 9.0, 6.0, 9.0, 8.0], 'max_grad': [0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.0, 0.0, 0.0, 0.0, 6.0, 0.0]}, True: {'avg': [4.416666030883789, 4.333333969116211, 5.416666030883789, 3.555556058883667, 4.125, 5.0], 'rows': [0, 2, 4, 6], 'cols': [0, 3, 6], 'avg_grad': [0.08333300054073334, 0.08333300054073334, 0.08333300054073334, 0.3055559992790222, 0.2222220003604889, 0.2222220003604889, 0.08333300054073334, 0.08333300054073334, 0.08333300054073334, 0.3055559992790222, 0.2222220003604889, 0.2222220003604889, 0.33333298563957214, 0.33333298563957214, 0.33333298563957214, 1.0, 0.6666669845581055, 0.6666669845581055, 0.25, 0.25, 0.25, 0.6944440007209778, 0.4444440007209778, 0.4444440007209778, 0.875, 0.875, 0.875, 2.319443941116333, 1.444443941116333, 1.444443941116333, 0.625, 0.625, 0.625, 1.625, 1.0, 1.0], 'max': [9.0, 9.0, 9.0, 7.0, 9.0, 8.0], 'max_grad': [0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0, 5.0, 0.0, 0.0, 0.0, 6.0, 0.0]}}


class Pool(nn.Cell):
    def __init__(self, cls, overlapping):
        super().__init__()
        self.pool = cls(RATIO, overlapping=overlapping)

    def construct(self, x):
        return self.pool(x)


@pytest.mark.parametrize("overlapping", [False, True])
def test_fixed_windows_as_mindspore(overlapping):
    want = EXPECTED[overlapping]
    for y, rows, cols in (N.FractionalAvgPool(RATIO, overlapping=overlapping)(Tensor(X)),
                          Pool(N.FractionalAvgPool, overlapping)(Tensor(X))):
        np.testing.assert_allclose(y.asnumpy().reshape(-1), want["avg"], rtol=1e-6)
        np.testing.assert_array_equal(rows.asnumpy(), want["rows"])
        np.testing.assert_array_equal(cols.asnumpy(), want["cols"])
    dy = Tensor(np.arange(1, 1 + y.asnumpy().size, dtype=np.float32).reshape(y.shape))
    grad = G.FractionalAvgPoolGrad(overlapping=overlapping)(
        Tensor(np.array([1, 6, 6, 1], np.int64)), dy, rows, cols)
    np.testing.assert_allclose(grad.asnumpy().reshape(-1), want["avg_grad"], rtol=1e-5)
    for y, rows, cols in (N.FractionalMaxPool(RATIO, overlapping=overlapping)(Tensor(X)),
                          Pool(N.FractionalMaxPool, overlapping)(Tensor(X))):
        np.testing.assert_array_equal(y.asnumpy().reshape(-1), want["max"])
    grad = G.FractionalMaxPoolGrad(overlapping=overlapping)(Tensor(X), y, dy, rows, cols)
    np.testing.assert_array_equal(grad.asnumpy().reshape(-1), want["max_grad"])


class AvgGrad(nn.Cell):
    def __init__(self, overlapping):
        super().__init__()
        self.op = G.FractionalAvgPoolGrad(overlapping=overlapping)

    def construct(self, shape, dy, rows, cols):
        return self.op(shape, dy, rows, cols)


@pytest.mark.parametrize("overlapping", [False, True])
def test_avg_grad_takes_its_shape_as_a_graph_input(overlapping):
    """The input's shape passed to a compiled Cell (the graph is specialised on its values)."""
    dy = Tensor(np.arange(1, 7, dtype=np.float32).reshape(1, 3, 2, 1))
    rows, cols = Tensor(np.array([0, 2, 4, 6])), Tensor(np.array([0, 3, 6]))
    grad = AvgGrad(overlapping)(Tensor(np.array([1, 6, 6, 1], np.int64)), dy, rows, cols)
    np.testing.assert_allclose(grad.asnumpy().reshape(-1), EXPECTED[overlapping]["avg_grad"],
                               rtol=1e-5)


def test_integer_averages_truncate_as_mindspore():
    x = np.arange(1, 17).reshape(1, 4, 4, 1)
    y, _, _ = N.FractionalAvgPool([1.0, 1.5, 1.5, 1.0])(Tensor(x.astype(np.int32)))
    np.testing.assert_array_equal(y.asnumpy().reshape(-1), [3, 5, 11, 13])


@pytest.mark.parametrize("pseudo_random", [False, True])
def test_drawn_windows_split_the_axis(pseudo_random):
    x = Tensor(np.random.default_rng(0).standard_normal((1, 10, 7, 2)).astype(np.float32))
    for _ in range(3):
        y, rows, cols = N.FractionalMaxPool([1.0, 1.6, 1.5, 1.0], pseudo_random)(x)
        assert y.shape == (1, 6, 4, 2)
        for bounds, length, out in ((rows.asnumpy(), 10, 6), (cols.asnumpy(), 7, 4)):
            sizes = np.diff(bounds)
            assert bounds[0] == 0 and bounds[-1] == length and len(sizes) == out
            assert set(sizes) <= {length // out, length // out + 1}


def test_seeded_deterministic_windows_repeat():
    pool = N.FractionalAvgPool([1.0, 1.4, 1.7, 1.0], deterministic=True, seed=5454, seed2=144)
    x = Tensor(np.ones((1, 9, 9, 1), np.float32))
    first, again = pool(x), pool(x)
    np.testing.assert_array_equal(first[1].asnumpy(), again[1].asnumpy())
    np.testing.assert_array_equal(first[2].asnumpy(), again[2].asnumpy())


# deterministic=True: MindSpore 2.10's windows and outputs for the seeds (its CPU kernel draws
# from std::default_random_engine(seed), afresh for each axis)
SEEDED_X = np.arange(1 * 7 * 11 * 2, dtype=np.float32).reshape(1, 7, 11, 2) % 13
SEEDED = [
    ({"seed": 5454, "seed2": 144}, [0, 1, 3, 5, 7], [0, 2, 4, 5, 7, 9, 11],
     [[2, 6, 8, 12, 3, 7], [11, 11, 4, 8, 12, 12], [12, 7, 9, 11, 11, 8], [8, 12, 10, 12, 9, 11]]),
    ({"seed": 0, "seed2": 7}, [0, 2, 4, 6, 7], [0, 2, 4, 5, 7, 9, 11],
     [[11, 6, 8, 12, 12, 7], [7, 11, 9, 11, 8, 12], [12, 12, 5, 9, 11, 11], [4, 8, 10, 12, 5, 9]]),
    ({"seed": 3, "seed2": 0, "pseudo_random": True}, [0, 2, 3, 5, 7], [0, 2, 4, 5, 7, 9, 11],
     [[11, 6, 8, 12, 12, 7], [7, 11, 0, 4, 8, 12], [12, 7, 9, 11, 11, 8], [8, 12, 10, 12, 9, 11]]),
    ({"seed": 123456, "seed2": 1, "pseudo_random": True, "overlapping": True}, [0, 1, 3, 5, 7],
     [0, 1, 3, 5, 7, 9, 11],
     [[11, 11, 10, 12, 12, 7], [11, 11, 11, 11, 12, 12], [12, 12, 12, 11, 11, 11],
      [8, 12, 12, 12, 11, 11]]),
]


@pytest.mark.parametrize("options, rows, cols, maxima", SEEDED)
def test_deterministic_windows_as_mindspore(options, rows, cols, maxima):
    y, got_rows, got_cols = N.FractionalMaxPool([1.0, 1.6, 1.7, 1.0], deterministic=True,
                                                **options)(Tensor(SEEDED_X))
    assert got_rows.asnumpy().tolist() == rows and got_cols.asnumpy().tolist() == cols
    np.testing.assert_array_equal(y.asnumpy()[0, :, :, 0], maxima)
    _, avg_rows, avg_cols = N.FractionalAvgPool([1.0, 1.6, 1.7, 1.0], deterministic=True,
                                                **options)(Tensor(SEEDED_X))
    assert avg_rows.asnumpy().tolist() == rows and avg_cols.asnumpy().tolist() == cols


def test_the_classes_are_in_ops():
    from cellgraph import ops

    assert ops.FractionalMaxPool is N.FractionalMaxPool
    assert ops.FractionalAvgPool is N.FractionalAvgPool
