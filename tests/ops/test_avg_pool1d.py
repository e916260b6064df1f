"""ops.avg_pool1d against MindSpore 2.10 (values and errors recorded from it), and its gradient
against finite differences."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, ops
from cellgraph.ops import functional as F
from cellgraph.testing import check_grads

X = np.arange(2 * 3 * 7, dtype=np.float32).reshape(2, 3, 7)


def test_values_as_mindspore():
    out = ops.avg_pool1d(Tensor(X), 3, 2, 1)
    np.testing.assert_allclose(out.asnumpy()[0], [[0.3333333432674408, 2.0, 4.0, 3.6666667461395264],
                                                  [5.0, 9.0, 11.0, 8.333333015441895],
                                                  [9.666666984558105, 16.0, 18.0, 13.0]],
                               rtol=1e-7)
    out = F.avg_pool1d(Tensor(X), kernel_size=3, stride=2, padding=(1,), count_include_pad=False)
    np.testing.assert_allclose(out.asnumpy()[0], [[0.5, 2.0, 4.0, 5.5], [7.5, 9.0, 11.0, 12.5],
                                                  [14.5, 16.0, 18.0, 19.5]], rtol=1e-7)
    assert ops.avg_pool1d(Tensor(X), kernel_size=6, stride=1).shape == (2, 3, 2)


def test_gradient():
    x = Tensor(np.random.default_rng(0).normal(size=(1, 2, 6)))
    check_grads(lambda t: ops.avg_pool1d(t, 2, 2, 1) ** 2, (x,), order=2)


@pytest.mark.parametrize("options, error, message", [
    ({"kernel_size": 1.0}, TypeError,
     "the type of 'kernel_size' should be 'int', but got type 'float'"),
    ({"stride": 0}, ValueError, "the 'stride' must be int and must >= 1, but got '0'"),
    ({"padding": -1}, ValueError, "the 'padding' must be int and must >= 0, but got '-1'"),
    ({"padding": (1, 2)}, ValueError, "padding should be int or tuple of length 1"),
    ({"ceil_mode": 1}, TypeError, "the type of 'ceil_mode' should be 'bool'"),
    ({"stride": (2,)}, TypeError, "the 'stride' must be int, but got 'tuple'"),
])
def test_errors_as_mindspore(options, error, message):
    with pytest.raises(error, match=message):
        ops.avg_pool1d(Tensor(X), **options)
