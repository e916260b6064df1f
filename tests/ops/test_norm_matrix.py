"""ops.norm and Tensor.norm against MindSpore 2.10 CPU: vector norms over one axis, matrix
norms over two (a pair `dim`, or a 2-D input with `dim=None` and an `ord`), values recorded
from MindSpore (rounded to 4 places)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import ops

INF = float("inf")
X = {"a": np.arange(9, dtype=np.float32) - 4,
     "b": (np.arange(9, dtype=np.float32) - 4).reshape(3, 3),
     "c": np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 7}
RECORDED = [  # (input, ord, dim, keepdim, shape, value)
    ("a", None, None, False, (), 7.746),
    ("a", None, None, True, (1,), [7.746]),
    ("b", None, None, False, (), 7.746),
    ("b", None, None, True, (1, 1), [[7.746]]),
    ("a", -INF, None, False, (), 0.0),
    ("a", -INF, None, True, (1,), [0.0]),
    ("b", -INF, None, False, (), 2.0),
    ("b", -INF, None, True, (1, 1), [[2.0]]),
    ("b", INF, None, False, (), 9.0),
    ("b", INF, None, True, (1, 1), [[9.0]]),
    ("b", 1, None, False, (), 7.0),
    ("b", 1, None, True, (1, 1), [[7.0]]),
    ("b", -1, None, False, (), 6.0),
    ("b", -1, None, True, (1, 1), [[6.0]]),
    ("b", 2, None, False, (), 7.3485),
    ("b", 2, None, True, (1, 1), [[7.3485]]),
    ("b", -2, None, False, (), 0.0),
    ("b", -2, None, True, (1, 1), [[0.0]]),
    ("b", 'fro', None, False, (), 7.746),
    ("b", 'fro', None, True, (1, 1), [[7.746]]),
    ("b", 'nuc', None, False, (), 9.798),
    ("b", 'nuc', None, True, (1, 1), [[9.798]]),
    ("a", 3, None, False, (), 5.848),
    ("a", 3, None, True, (1,), [5.848]),
    ("a", 0, None, False, (), 8.0),
    ("a", 0, None, True, (1,), [8.0]),
    ("a", -2, None, False, (), 0.0),
    ("a", -2, None, True, (1,), [0.0]),
    ("c", 1, (0, 2), False, (3,), [12.0, 12.0, 20.0]),
    ("c", 1, (0, 2), True, (1, 3, 1), [[[12.0], [12.0], [20.0]]]),
    ("c", INF, (2, 1), False, (2,), [11.0, 36.0]),
    ("c", INF, (2, 1), True, (2, 1, 1), [[[11.0]], [[36.0]]]),
    ("c", 'nuc', (1, 2), False, (2,), [16.051, 39.4162]),
    ("c", 'nuc', (1, 2), True, (2, 1, 1), [[[16.051]], [[39.4162]]]),
    ("c", -1, (-1, 0), False, (3,), [22.0, 6.0, 10.0]),
    ("c", -1, (-1, 0), True, (1, 3, 1), [[[22.0], [6.0], [10.0]]]),
    ("c", 2, 1, False, (2, 4), [[7.6811, 6.6332, 5.9161, 5.6569], [16.5831, 18.2209, 19.8746, 21.5407]]),
    ("c", 2, 1, True, (2, 1, 4), [[[7.6811, 6.6332, 5.9161, 5.6569]], [[16.5831, 18.2209, 19.8746, 21.5407]]]),
    ("c", None, (0, 1), False, (4,), [18.2757, 19.3907, 20.7364, 22.2711]),
    ("c", None, (0, 1), True, (1, 1, 4), [[[18.2757, 19.3907, 20.7364, 22.2711]]]),
    ("c", 'fro', (2, 0), False, (3,), [17.3205, 21.4476, 29.5973]),
    ("c", 'fro', (2, 0), True, (1, 3, 1), [[[17.3205], [21.4476], [29.5973]]]),
]


@pytest.mark.parametrize("name, ord, dim, keepdim, shape, expected", RECORDED)
def test_norm_matches_mindspore(name, ord, dim, keepdim, shape, expected):
    x = ms.Tensor(X[name])
    for out in (x.norm(ord, dim, keepdim), ops.norm(x, ord, dim, keepdim)):
        assert out.shape == shape
        np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-4, atol=1e-4)


def test_matrix_norm_in_a_graph():
    class Net(ms.nn.Cell):
        def construct(self, a, norm_ord=None, dim=None, keepdim=False, dtype=None):
            return a.norm(norm_ord, dim, keepdim, dtype=dtype)

    np.testing.assert_allclose(Net()(ms.Tensor(X["b"]), -INF).asnumpy(), 2.0)
    np.testing.assert_allclose(Net()(ms.Tensor(X["b"]), 2).asnumpy(), 7.3485, rtol=1e-4)


@pytest.mark.parametrize("ord, dim, error, message", [
    (3, None, ValueError, "the ord mode must be in"),
    ("fro", 0, TypeError, "ord mode can not be str for vectors"),
    (2, (0, 1, 2), ValueError, "the dimensions is out of range"),
    (2, [0, 1], TypeError, "the dim should be int or tuple of int"),
])
def test_norm_refuses_what_mindspore_refuses(ord, dim, error, message):
    x = ms.Tensor(X["b"] if dim is None else X["c"])
    with pytest.raises(error, match=message):
        x.norm(ord, dim)
