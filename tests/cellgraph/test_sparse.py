"""COOTensor and CSRTensor: construction checks, conversions and arithmetic, eagerly and inside a graph."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import COOTensor, CSRTensor, Tensor, nn
from cellgraph.primitives.errors import ShapeError, UnsupportedError

INDICES = np.array([[0, 1], [1, 2], [0, 1]], np.int32)
VALUES = np.array([1.0, -2.0, 3.0], np.float32)
DENSE = np.array([[0, 4.0, 0, 0], [0, 0, -2.0, 0], [0, 0, 0, 0]], np.float32)


def coo(values=VALUES):
    return COOTensor(Tensor(INDICES), Tensor(values), (3, 4))


def test_properties_and_to_dense():
    x = coo()
    assert x.shape == (3, 4) and x.dtype == ms.float32 and x.size == 3 and x.ndim == 2
    assert x.itemsize == 4
    np.testing.assert_array_equal(x.to_dense().asnumpy(), DENSE)  # repeated indices add up
    _indices, values, shape = COOTensor(coo_tensor=x).to_tuple()
    assert shape == (3, 4) and values.asnumpy().tolist() == VALUES.tolist()
    with pytest.raises(ShapeError, match=r"\(N, 2\)"):
        COOTensor(Tensor(np.zeros((2, 3), np.int32)), Tensor(VALUES[:2]), (3, 4))
    with pytest.raises(ShapeError, match="values"):
        COOTensor(Tensor(INDICES), Tensor(VALUES[:2]), (3, 4))


def test_arithmetic():
    x = coo()
    scale = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_allclose((x * Tensor(scale)).to_dense().asnumpy(), DENSE * scale)
    np.testing.assert_allclose((2 * x).to_dense().asnumpy(), 2 * DENSE)
    np.testing.assert_allclose((x / 2).values.asnumpy(), VALUES / 2)
    np.testing.assert_allclose((-x).abs().values.asnumpy(), np.abs(VALUES))
    np.testing.assert_allclose((x + Tensor(scale)).asnumpy(), DENSE + scale)
    np.testing.assert_allclose((1.0 - x).asnumpy(), 1.0 - DENSE)
    assert x.astype(ms.float64).dtype == ms.float64


def test_coalesce_and_add():
    x = coo()
    merged = x.coalesce()
    assert merged.indices.asnumpy().tolist() == [[0, 1], [1, 2]]
    assert merged.values.asnumpy().tolist() == [4.0, -2.0]
    other = COOTensor(Tensor(np.array([[1, 2], [2, 3]], np.int32)),
                      Tensor(np.array([2.5, 0.1], np.float32)), (3, 4))
    total = x.add(other, Tensor(0.2))
    expected = DENSE.copy()
    expected[1, 2] += 2.5  # [2, 3] = 0.1 falls below the threshold
    np.testing.assert_allclose(total.to_dense().asnumpy(), expected)
    np.testing.assert_allclose((x - x).to_dense().asnumpy(), 0)


def test_in_a_graph_with_gradients():
    ms.set_context(mode=ms.GRAPH_MODE)

    @ms.jit
    def weighted(values, weights):
        sparse = COOTensor(Tensor(INDICES), values, (3, 4))
        return (sparse * weights).to_dense()

    weights = np.full((3, 4), 2.0, np.float32)
    np.testing.assert_allclose(weighted(Tensor(VALUES), Tensor(weights)).asnumpy(), 2 * DENSE)
    grad = ms.grad(lambda v: (COOTensor(Tensor(INDICES), v, (3, 4)).to_dense() ** 2).sum())(
        Tensor(VALUES))
    np.testing.assert_allclose(grad.asnumpy(), [8.0, -4.0, 8.0])

    @ms.jit
    def merge(values):
        return COOTensor(Tensor(INDICES), values, (3, 4)).coalesce().values

    with pytest.raises(UnsupportedError, match="eagerly"):
        merge(Tensor(VALUES))


def test_row_tensor_as_mindspore_has_it():
    """RowTensor(indices, values, shape): its parts, a copy through row_tensor=, the rows it
    leaves out zero when made dense, and shapes that do not fit refused."""
    rows = ms.RowTensor(Tensor(np.array([0, 2])), Tensor(np.ones((2, 3), np.float32)), (4, 3))
    assert rows.dense_shape == (4, 3) and rows.dtype == ms.float32
    np.testing.assert_array_equal(rows.indices.asnumpy(), [0, 2])
    copy = ms.RowTensor(row_tensor=rows)
    np.testing.assert_array_equal(copy.to_dense().asnumpy(),
                                  [[1, 1, 1], [0, 0, 0], [1, 1, 1], [0, 0, 0]])
    # MindSpore 2.10's TypeErrors for a dense_shape that does not fit the values
    with pytest.raises(TypeError, match="The 1th element of dense_shape must be same with the "
                                        "1th dimension of values 4, but got 3"):
        ms.RowTensor(Tensor(np.array([0, 2])), Tensor(np.ones((2, 4), np.float32)), (4, 3))
    with pytest.raises(TypeError, match="The size of dense_shape must be the same with the "
                                        "dimension of values 3, but got 2"):
        ms.RowTensor(Tensor(np.array([0, 2])), Tensor(np.ones((2, 4, 5), np.float32)), (4, 3))
    with pytest.raises(ValueError, match="are not 2 rows of a tensor of shape"):
        ms.RowTensor(Tensor(np.array([0, 2])), Tensor(np.ones((3, 3), np.float32)), (4, 3))


def test_multitype_overloads_tell_a_row_tensor_from_a_dense_tensor():
    """A MindSpore program registers one overload for dense gradients and one for RowTensor
    (mindcv's gradient scaling): each value goes to its own."""
    from cellgraph.ops import composite as C

    scale = C.MultitypeFuncGraph("scale")

    @scale.register("Tensor", "RowTensor")
    def _(factor, grad):
        return ms.RowTensor(grad.indices, grad.values * factor, grad.dense_shape)

    @scale.register("Tensor", "Tensor")
    def _(factor, grad):
        return grad * factor

    two = Tensor(np.float32(2))
    dense = scale(two, Tensor(np.ones(3, np.float32)))
    np.testing.assert_array_equal(dense.asnumpy(), [2, 2, 2])
    sparse = scale(two, ms.RowTensor(Tensor(np.array([1])), Tensor(np.ones((1, 2), np.float32)),
                                     (3, 2)))
    assert isinstance(sparse, ms.RowTensor)
    np.testing.assert_array_equal(sparse.values.asnumpy(), [[2, 2]])


# ----- CSRTensor (MindSpore's values where its CPU build runs the operation) ------------------

INDPTR = np.array([0, 1, 2, 2], np.int32)
CSR_COLUMNS = np.array([0, 2], np.int32)
CSR_VALUES = np.array([1.5, -2.0], np.float32)
CSR_DENSE = np.array([[1.5, 0, 0, 0], [0, 0, -2.0, 0], [0, 0, 0, 0]], np.float32)


def csr(values=CSR_VALUES):
    return CSRTensor(Tensor(INDPTR), Tensor(CSR_COLUMNS), Tensor(values), (3, 4))


def test_csr_tensor_parts_and_conversions():
    x = csr()
    assert (x.shape, x.dtype, x.size, x.itemsize, x.ndim) == ((3, 4), ms.float32, 2, 4, 2)
    np.testing.assert_array_equal(x.to_dense().asnumpy(), CSR_DENSE)
    coo = x.to_coo()
    assert coo.indices.asnumpy().tolist() == [[0, 0], [1, 2]] and coo.shape == (3, 4)
    indptr, columns, values, shape = CSRTensor(csr_tensor=x).to_tuple()
    assert indptr.asnumpy().tolist() == INDPTR.tolist() and shape == (3, 4)
    assert columns.asnumpy().tolist() == [0, 2] and values.asnumpy().tolist() == [1.5, -2.0]
    assert x.astype(ms.float64).dtype == ms.float64
    np.testing.assert_array_equal((-x).values.asnumpy(), -CSR_VALUES)
    np.testing.assert_array_equal(x.abs().values.asnumpy(), np.abs(CSR_VALUES))
    empty = np.zeros(0, np.int32)
    assert CSRTensor(Tensor(empty), Tensor(empty), Tensor(empty.astype(np.float32)),
                     (3, 4)).shape == (3, 4)  # an empty one skips the shape checks


@pytest.mark.parametrize("make, error, words", [
    (lambda: CSRTensor(Tensor(INDPTR), Tensor(CSR_COLUMNS), Tensor(CSR_VALUES), (4, 4)),
     ValueError, r"indptr must have length \(1 \+ shape\[0\]\), but got: 4"),
    (lambda: CSRTensor(Tensor(INDPTR.astype(np.float32)), Tensor(CSR_COLUMNS),
                       Tensor(CSR_VALUES), (3, 4)),
     TypeError, "indptr must have int16 or int32 or int64 data type, but got Float32"),
    (lambda: CSRTensor(Tensor(INDPTR), Tensor(CSR_COLUMNS), Tensor(CSR_VALUES), (3, 0)),
     ValueError, "the element of shape must be positive, but got 0"),
    (lambda: CSRTensor([0, 1], Tensor(CSR_COLUMNS), Tensor(CSR_VALUES), (3, 4)),
     TypeError, "'indptr' must be Tensor, but got <class 'list'>"),
    (lambda: CSRTensor(csr_tensor=1), TypeError, "Expect input `csr_tensor` to be a CSRTensor"),
    (lambda: csr() + Tensor(1.0), ValueError, "Input tensors should have the same shape."),
    (lambda: CSRTensor(Tensor(INDPTR), Tensor(CSR_COLUMNS), Tensor(CSR_VALUES), (3, 4, 1)),
     ValueError, "Values' dimension should equal to CSRTensor's dimension - 1"),
    (lambda: CSRTensor(Tensor(INDPTR), Tensor(CSR_COLUMNS), Tensor(np.ones(3, np.float32)),
                       (3, 4)),
     ValueError, ("indices and values must equal in their shape, but got indices shape: 2, "
                  "values shape: 3")),
    (lambda: csr().sum(0), ValueError, "For CSRReduceSum, `axis` should be 1"),
    (lambda: CSRTensor(Tensor(INDPTR), Tensor(CSR_COLUMNS), Tensor(np.ones((2, 5), np.float32)),
                       (3, 4, 5)).to_dense(),
     ValueError, "Currently only support 2-D CSRTensor when converting to COOTensor."),
])
def test_csr_tensor_errors_as_mindspore_says(make, error, words):
    with pytest.raises(error, match=words):
        make()


def test_csr_tensor_products_sums_and_sums_of_two():
    x = csr()
    vector = np.arange(4, dtype=np.float32).reshape(4, 1)
    matrix = np.arange(8, dtype=np.float32).reshape(4, 2)
    np.testing.assert_allclose(x.mv(Tensor(vector)).asnumpy(), CSR_DENSE @ vector)
    np.testing.assert_allclose(x.mm(Tensor(matrix)).asnumpy(), CSR_DENSE @ matrix)
    np.testing.assert_allclose(x.sum(1).asnumpy(), CSR_DENSE.sum(1, keepdims=True))
    scale = np.array([1.0, 2, 3, 4], np.float32)
    np.testing.assert_allclose((x * Tensor(scale)).to_dense().asnumpy(), CSR_DENSE * scale)
    np.testing.assert_allclose((x / 2.0).values.asnumpy(), CSR_VALUES / 2)
    doubled = x + csr()  # MindSpore: values [3, -4] on the same pattern
    assert doubled.values.asnumpy().tolist() == [3.0, -4.0]
    assert doubled.indptr.asnumpy().tolist() == INDPTR.tolist()
    other = CSRTensor(Tensor(np.array([0, 0, 1, 2], np.int32)), Tensor(np.array([2, 3], np.int32)),
                      Tensor(np.array([1.0, 5.0], np.float32)), (3, 4))
    np.testing.assert_allclose((x - other).to_dense().asnumpy(),
                               CSR_DENSE - other.to_dense().asnumpy())


def test_csr_tensor_in_a_graph_with_gradients():
    @ms.jit
    def f(indptr, columns, values):
        x = CSRTensor(indptr, columns, values, (3, 4))
        return x.to_dense(), x.mv(Tensor(np.ones((4, 1), np.float32))), x.sum(1)

    dense, product, sums = f(Tensor(INDPTR), Tensor(CSR_COLUMNS), Tensor(CSR_VALUES))
    np.testing.assert_array_equal(dense.asnumpy(), CSR_DENSE)
    np.testing.assert_allclose(product.asnumpy(), CSR_DENSE.sum(1, keepdims=True))
    np.testing.assert_allclose(sums.asnumpy(), CSR_DENSE.sum(1, keepdims=True))
    weights = np.arange(12, dtype=np.float32).reshape(3, 4)
    grad = ms.ops.grad(lambda v: (csr(v).to_dense() * Tensor(weights)).sum())(
        Tensor(CSR_VALUES))
    np.testing.assert_array_equal(grad.asnumpy(), [weights[0, 0], weights[1, 2]])


class _MakeCOO(nn.Cell):
    def __init__(self, shape):
        super().__init__()
        self.shape = shape

    def construct(self, indices, values):
        return (ms.COOTensor(indices, values, self.shape),)[0]


def test_a_coo_tensor_of_three_dimensions_is_refused_as_mindspore_refuses_it():
    # MindSpore 2.10: TypeError while compiling, ValueError with these words eagerly
    indices = Tensor(np.array([[0, 0], [0, 1]], np.int32))
    values = Tensor(np.array([100, 200], np.float32))
    with pytest.raises(TypeError, match="For COOTensor, the length of `shape`"):
        _MakeCOO((2, 2, 2))(indices, values)
    with pytest.raises(ValueError, match=r"For COOTensor, the length of 'shape' must be 2, but "
                                         r"got \(2, 2, 2\)."):
        ms.COOTensor(indices, values, (2, 2, 2))


def test_sparse_tensors_pass_into_and_out_of_a_graph():
    """A COOTensor, CSRTensor or RowTensor argument is a graph input (its arrays, not a
    constant: new values reuse the graph), a returned one comes back with its arrays
    computed, and a gradient with respect to one is one of its kind, zeros at the indices
    (MindSpore 2.10's)."""
    ms.set_context(mode=ms.GRAPH_MODE)

    class Double(nn.Cell):
        def construct(self, sparse):
            return sparse * 2

    net = Double()
    for values in (VALUES, VALUES + 1):
        out = net(coo(values))
        assert type(out) is COOTensor and out.shape == (3, 4)
        np.testing.assert_array_equal(out.indices.asnumpy(), INDICES)
        np.testing.assert_allclose(out.values.asnumpy(), values * 2)
    assert len(net._graph_cache.entries) == 1
    out = net(csr(Tensor(CSR_VALUES)))
    assert type(out) is CSRTensor and out.shape == (3, 4)
    np.testing.assert_allclose(out.values.asnumpy(), CSR_VALUES * 2)

    @ms.jit
    def rows(indices, values):
        return ms.RowTensor(indices, values * 3, (4, 2))

    out = rows(Tensor(np.array([0, 2], np.int32)), Tensor(np.ones((2, 2), np.float32)))
    assert type(out) is ms.RowTensor and out.dense_shape == (4, 2)
    np.testing.assert_allclose(out.values.asnumpy(), np.full((2, 2), 3.0))

    class Total(nn.Cell):
        def construct(self, sparse):
            return sparse.values.sum()

    grad = ms.grad(Total())(coo())
    assert type(grad) is COOTensor and grad.shape == (3, 4)
    np.testing.assert_array_equal(grad.indices.asnumpy(), np.zeros((3, 2)))
    np.testing.assert_allclose(grad.values.asnumpy(), [1.0, 1.0, 1.0])


def test_a_graph_takes_sparse_tensors_as_inputs_and_gives_them_back():
    """A sparse tensor passed to a graph is its parts (Tensors: one graph serves every tensor
    of those parts' shapes and dtypes), and one the graph returns holds the computed Tensors."""
    from cellgraph.runtime.executor import signature, tensor_leaves

    def csr(values):
        return ms.CSRTensor(Tensor(np.array([0, 1, 2, 2], np.int32)),
                            Tensor(np.array([1, 0], np.int32)),
                            Tensor(np.array(values, np.float32)), (3, 2))

    class Net(nn.Cell):
        def construct(self, x):
            return x * 2.0, x.to_coo()

    net = Net()
    for values in ([2.0, 3.0], [5.0, 7.0]):
        doubled, coo = net(csr(values))
        assert isinstance(doubled, ms.CSRTensor) and isinstance(doubled.values, Tensor)
        np.testing.assert_allclose(doubled.values.asnumpy(), np.array(values) * 2)
        assert isinstance(coo, ms.COOTensor) and coo.shape == (3, 2)
        np.testing.assert_array_equal(coo.indices.asnumpy(), [[0, 1], [1, 0]])
    assert signature(csr([1.0, 2.0])) == signature(csr([3.0, 4.0]))
    assert len(tensor_leaves((csr([1.0, 2.0]),))) == 3
