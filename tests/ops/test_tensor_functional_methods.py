"""The Tensor methods that are MindSpore's functional op of the same name with the Tensor first
(`x.hypot(y)` is `ops.hypot(x, y)`): the same values eagerly and inside a graph."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.ops.tensor_method import FUNCTIONAL_METHODS

X = Tensor(np.array([[0.5, -2.0], [3.0, 0.25]], np.float32))
Y = Tensor(np.array([[1.5, 2.0], [-1.0, 4.0]], np.float32))

CALLS = {  # method: extra arguments
    "absolute": (), "arctan": (), "hardshrink": (1.0,), "hypot": (Y,), "fmod": (Y,),
    "remainder": (Y,), "subtract": (Y,), "divide": (Y,), "logaddexp": (Y,), "t": (),
    "swapdims": (0, 1), "movedim": (0, 1), "flipud": (), "signbit": (), "xlogy": (Y,),
    "nan_to_num": (), "negative": (), "isinf": (), "mm": (Y,), "inner": (Y,),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_method_is_the_functional_op(name):
    args = CALLS[name]
    expected = getattr(ops, name)(X, *args).asnumpy()
    np.testing.assert_allclose(getattr(X, name)(*args).asnumpy(), expected, rtol=1e-6)

    @ms.jit
    def in_graph(x, *rest):
        return getattr(x, name)(*rest)

    np.testing.assert_allclose(in_graph(X, *args).asnumpy(), expected, rtol=1e-6)


def test_every_listed_method_is_installed():
    assert all(hasattr(X, name) for name in FUNCTIONAL_METHODS)
