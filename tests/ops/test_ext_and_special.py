"""`ops.function.array_func`'s `_ext` functions (mint's forms, not names of `ops`) and
`mint.special`."""
from __future__ import annotations

import numpy as np

from cellgraph import Tensor, mint, ops
from cellgraph.mint import special
from cellgraph.ops.function import array_func

X = np.array([[1.0, 5.0], [3.0, 2.0]])


def test_ext_functions_are_mints():
    x = Tensor(X)
    np.testing.assert_array_equal(array_func.gather_ext(x, 1, Tensor(np.array([[1], [0]])))
                                  .asnumpy(), [[5.0], [3.0]])
    values, indices = array_func.min_ext(x, 1)
    np.testing.assert_array_equal(values.asnumpy(), [1.0, 2.0])
    np.testing.assert_array_equal(indices.asnumpy(), [0, 1])
    assert float(array_func.max_ext(x).asnumpy()) == 5.0
    np.testing.assert_array_equal(array_func.one_hot_ext(Tensor(np.array([1, 0])), 3).asnumpy(),
                                  [[0, 1, 0], [1, 0, 0]])
    np.testing.assert_array_equal(array_func.tril_ext(x).asnumpy(), np.tril(X))
    assert not hasattr(ops, "gather_ext") and "gather_ext" not in array_func.__all__


def test_mint_special():
    x = Tensor(np.array([0.5, 2.5, -0.5]))
    np.testing.assert_allclose(special.log1p(x).asnumpy(), np.log1p([0.5, 2.5, -0.5]))
    np.testing.assert_array_equal(special.round(x).asnumpy(), [0.0, 2.0, -0.0])
    np.testing.assert_allclose(special.expm1(x).asnumpy(), np.expm1([0.5, 2.5, -0.5]))
    np.testing.assert_allclose(np.exp(mint.special.log_softmax(x, 0).asnumpy()).sum(), 1.0)
