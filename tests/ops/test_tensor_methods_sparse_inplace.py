"""Tensor methods MindSpore has: index_copy_, index_put_ and fill_diagonal_ (in place, eagerly
and in a graph), kthvalue, searchsorted, unique, triangular_solve, fills, bfloat16,
random_categorical, to_coo and to_csr. Values where MindSpore 2.10 CPU has a kernel are its
(searchsorted, bfloat16, to_coo, to_csr); the others follow the documented definition (its CPU
build has no kernel for them)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn

X = np.arange(12, dtype=np.float32).reshape(3, 4)


def test_index_copy_in_place_along_each_axis():
    y = Tensor(X)
    assert y.index_copy_(0, Tensor(np.array([2, 0], np.int32)),
                         Tensor(np.array([[10, 11, 12, 13], [20, 21, 22, 23]], np.float32))) is y
    np.testing.assert_array_equal(y.asnumpy(), [[20, 21, 22, 23], [4, 5, 6, 7],
                                                [10, 11, 12, 13]])
    z = Tensor(X)
    z.index_copy_(-1, Tensor(np.array([3, 1], np.int32)), Tensor(np.full((3, 2), 7, np.float32)))
    np.testing.assert_array_equal(z.asnumpy()[:, [1, 3]], np.full((3, 2), 7))
    np.testing.assert_array_equal(z.asnumpy()[:, [0, 2]], X[:, [0, 2]])
    with pytest.raises(ValueError, match="index_copy"):
        Tensor(X).index_copy_(0, Tensor(np.array([0], np.int32)), Tensor(np.ones((2, 4),
                                                                                 np.float32)))


def test_in_place_methods_write_back_from_a_graph():
    class Net(nn.Cell):
        def construct(self, x, index, rows):
            x.index_copy_(0, index, rows)
            x.fill_diagonal_(-1.0)
            return x * 1

    x = Tensor(X)
    out = Net()(x, Tensor(np.array([1], np.int32)), Tensor(np.full((1, 4), 9, np.float32)))
    expected = X.copy()
    expected[1] = 9
    np.fill_diagonal(expected, -1)
    np.testing.assert_array_equal(out.asnumpy(), expected)
    np.testing.assert_array_equal(x.asnumpy(), expected)


def test_index_put_and_fill_diagonal_in_place():
    v = Tensor(np.zeros((3, 2), np.float32))
    v.index_put_((Tensor(np.array([0, 2, 2], np.int32)),), Tensor(np.array([1.0], np.float32)),
                 True)
    np.testing.assert_array_equal(v.asnumpy(), [[1, 1], [0, 0], [2, 2]])
    w = Tensor(np.zeros((4, 3), np.float32))
    w.fill_diagonal_(5.0, wrap=True)
    expected = np.zeros((4, 3), np.float32)
    np.fill_diagonal(expected, 5.0, wrap=True)
    np.testing.assert_array_equal(w.asnumpy(), expected)


def test_functional_methods():
    x = Tensor(X)
    values, indices = x.kthvalue(2, 1)
    np.testing.assert_array_equal(values.asnumpy(), [1, 5, 9])
    np.testing.assert_array_equal(indices.asnumpy(), [1, 1, 1])
    found = Tensor(np.array([1, 3, 5], np.float32)).searchsorted(
        Tensor(np.array([2.0, 5.0], np.float32)), side="right")
    np.testing.assert_array_equal(found.asnumpy(), [1, 3])  # MindSpore's
    assert Tensor(np.array([3, 1, 3, 2], np.int32)).unique().asnumpy().tolist() == [1, 2, 3]
    a = np.array([[2.0, 0.0], [1.0, 4.0]], np.float32)
    b = np.array([[2.0], [9.0]], np.float32)
    solution, _ = Tensor(b).triangular_solve(Tensor(a), upper=False)
    np.testing.assert_allclose(a @ solution.asnumpy(), b, rtol=1e-6)
    assert x.fills(2.5).asnumpy().tolist()[0] == [2.5] * 4
    with pytest.raises(TypeError, match="fills"):
        x.fills("a")
    try:
        import ml_dtypes  # noqa: F401  (bfloat16 arrays need it)
    except ImportError:
        pass
    else:
        assert x.bfloat16().dtype == cg.bfloat16
    draws = Tensor(np.log(np.array([[0.0, 1.0], [1.0, 0.0]], np.float32) + 1e-30)
                   ).random_categorical(5, seed=1)
    np.testing.assert_array_equal(draws.asnumpy(), [[1] * 5, [0] * 5])


def test_to_coo_and_to_csr():
    dense = Tensor(np.array([[0, 2.0], [3.0, 0]], np.float32))
    coo = dense.to_coo()  # MindSpore's indices, values and shape
    assert coo.indices.asnumpy().tolist() == [[0, 1], [1, 0]]
    assert coo.values.asnumpy().tolist() == [2.0, 3.0] and coo.shape == (2, 2)
    csr = dense.to_csr()
    assert csr.indptr.asnumpy().tolist() == [0, 1, 2]
    assert csr.indices.asnumpy().tolist() == [1, 0]
    assert csr.values.asnumpy().tolist() == [2.0, 3.0]
    with pytest.raises(ValueError, match="2-D"):
        Tensor(np.ones(3, np.float32)).to_coo()
