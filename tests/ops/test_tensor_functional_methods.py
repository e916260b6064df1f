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


def test_reverse_sequence_method_as_mindspore():
    import numpy as np

    from cellgraph import Tensor, jit
    x = Tensor(np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], np.int8))
    lengths = Tensor(np.array([1, 2, 3]))
    # MindSpore 2.10: Tensor.reverse_sequence(seq_lengths, seq_dim=0, batch_dim=0)
    for got in (x.reverse_sequence(lengths, seq_dim=1),
                jit(lambda a, n: a.reverse_sequence(n, 1))(x, lengths)):
        np.testing.assert_array_equal(got.asnumpy(), [[1, 2, 3], [5, 4, 6], [9, 8, 7]])
    np.testing.assert_array_equal(x.reverse_sequence(lengths, batch_dim=1).asnumpy(),
                                  [[1, 5, 9], [4, 2, 6], [7, 8, 3]])
