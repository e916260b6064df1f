"""ops.operations.sparse_ops over COO parts (indices, values, dense shape), eagerly and in a
graph; the expected values were recorded from MindSpore 2.10 (CPU), but for
SparseDenseCwiseDiv, which MindSpore's CPU build lacks (its values follow from the Mul's)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import sparse_ops as S
from cellgraph.primitives.errors import DTypeError

IDX = Tensor(np.array([[0, 0], [1, 1], [2, 0], [2, 2], [3, 1], [3, 2]], np.int32))
VAL = Tensor(np.array([1, 2, 3, 4, 5, 6], np.float32))
I3 = Tensor(np.array([[0, 0, 1], [1, 2, 0], [1, 1, 3]], np.int64))
V3 = Tensor(np.array([2., 4., 6.], np.float32))
SHAPE3 = Tensor(np.array([2, 3, 4], np.int64))


def _run(graph, fn, *args):
    return (ms.jit(fn) if graph else fn)(*args)


@pytest.mark.parametrize("graph", [False, True])
def test_sparse_to_dense_keeps_the_last_of_a_repeated_index(graph):
    out = _run(graph, lambda i, v: ops.SparseToDense()(i, v, (3, 2)),
               Tensor(np.array([[0, 1], [0, 1], [2, 0]], np.int32)),
               Tensor(np.array([1.5, 2., 3.], np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [[0., 2.], [0., 0.], [3., 0.]])
    coo = ms.COOTensor(Tensor(np.array([[0, 1], [1, 0]], np.int32)),
                       Tensor(np.array([5., 6.], np.float32)), (2, 2))
    np.testing.assert_array_equal(nn.SparseToDense()(coo).asnumpy(), [[0., 5.], [6., 0.]])
    with pytest.raises(DTypeError, match=r"argument\[indices\] must be a type of"):
        ops.SparseToDense()(Tensor(np.zeros((1, 2), np.float32)), Tensor(np.ones(1)), (2, 2))


@pytest.mark.parametrize("graph", [False, True])
def test_sparse_tensor_dense_matmul_and_its_adjoints(graph):
    cases = [((False, False), np.arange(6).reshape(3, 2),
              [[0., 1.], [4., 6.], [16., 23.], [34., 45.]]),
             ((True, False), np.arange(12).reshape(4, 3),
              [[18., 22., 26.], [51., 58., 65.], [78., 88., 98.]]),
             ((False, True), np.arange(6).reshape(2, 3),
              [[0., 3.], [2., 8.], [8., 29.], [17., 50.]])]
    for (adjoint_st, adjoint_dt), dense, expected in cases:
        op = ops.SparseTensorDenseMatmul(adjoint_st=adjoint_st, adjoint_dt=adjoint_dt)
        out = _run(graph, lambda i, v, d, op=op: op(i, v, (4, 3), d), IDX, VAL,
                   Tensor(dense.astype(np.float32)))
        np.testing.assert_allclose(out.asnumpy(), expected)
    layer = nn.SparseTensorDenseMatmul()
    np.testing.assert_allclose(
        layer(IDX, VAL, (4, 3), Tensor(np.arange(6).reshape(3, 2).astype(np.float32))).asnumpy(),
        cases[0][2])


def test_sparse_tensor_dense_matmul_gradients():
    op = ops.SparseTensorDenseMatmul(adjoint_st=True)
    grads = ops.GradOperation(get_all=True)(lambda i, v, s, d: op(i, v, s, d))(
        IDX, VAL, (4, 3), Tensor(np.arange(12).reshape(4, 3).astype(np.float32)))
    assert len(grads) == 3  # indices, values, dense: the shape tuple gets none
    np.testing.assert_allclose(grads[1].asnumpy(), [3., 12., 21., 21., 30., 30.])
    np.testing.assert_allclose(grads[2].asnumpy(), [[1.] * 3, [2.] * 3, [7.] * 3, [11.] * 3])


def test_sparse_tensor_dense_matmul_gradient_against_finite_differences():
    rng = np.random.default_rng(0)
    values = rng.standard_normal(6)
    dense = rng.standard_normal((3, 2))
    op = ops.SparseTensorDenseMatmul()
    indices64 = Tensor(IDX.asnumpy().astype(np.int64))

    def loss(v, d):
        return (op(indices64, v, (4, 3), d) ** 2).sum()

    grads = ops.grad(loss, grad_position=(0, 1))(Tensor(values), Tensor(dense))
    for k, (x, g) in enumerate(zip((values, dense), grads)):
        numeric = np.zeros_like(x)
        for j in np.ndindex(x.shape):
            step = np.zeros_like(x)
            step[j] = 1e-6
            args = [Tensor(values), Tensor(dense)]
            plus, minus = list(args), list(args)
            plus[k], minus[k] = Tensor(x + step), Tensor(x - step)
            numeric[j] = (loss(*plus).asnumpy() - loss(*minus).asnumpy()) / 2e-6
        np.testing.assert_allclose(g.asnumpy(), numeric, rtol=1e-6, atol=1e-8)


def test_sparse_tensor_dense_add_takes_a_shape_tensor_of_the_indices_dtype():
    out = ops.SparseTensorDenseAdd()(
        Tensor(np.array([[0, 0], [0, 0], [1, 2]], np.int64)),
        Tensor(np.array([1., 2., 3.], np.float32)), Tensor(np.array([2, 3], np.int64)),
        Tensor(np.ones((2, 3), np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [[4., 1., 1.], [1., 1., 4.]])
    with pytest.raises(DTypeError, match=r"input argument\[shape\]:tuple"):
        ops.SparseTensorDenseAdd()(Tensor(np.array([[0, 0]], np.int64)),
                                   Tensor(np.array([1.], np.float32)), (2, 3),
                                   Tensor(np.ones((2, 3), np.float32)))


class _DenseAdd(nn.Cell):
    def construct(self, indices, values, shape, x2):
        return ops.SparseTensorDenseAdd()(indices, values, shape, x2)


def test_sparse_tensor_dense_add_reads_a_shape_tensor_passed_to_the_graph():
    """The dense shape a Tensor input of a compiled Cell, also through ConvertToDynamic under
    GradOperation (as MindSpore's dynamic-shape tests pass it)."""
    from cellgraph.ops.operations import _inner_ops as inner

    args = (Tensor(np.array([[0, 0], [0, 1]], np.int64)), Tensor(np.array([1., 1.], np.float32)),
            Tensor(np.array([3, 3], np.int64)), Tensor(np.ones((3, 3), np.float32)))
    out = _DenseAdd()(*args)
    np.testing.assert_array_equal(out.asnumpy(), [[2., 2., 1.], [1., 1., 1.], [1., 1., 1.]])

    class Grad(nn.Cell):
        def __init__(self):
            super().__init__()
            self.net, self.convert = _DenseAdd(), inner.ConvertToDynamic()
            self.grad = ops.GradOperation(get_all=True)

        def construct(self, *inputs):
            return self.grad(self.net)(*[self.convert(x) for x in inputs])

    grads = Grad()(*args)
    np.testing.assert_array_equal(grads[1].asnumpy(), [1., 1.])
    np.testing.assert_array_equal(grads[3].asnumpy(), np.ones((3, 3)))


@pytest.mark.parametrize("graph", [False, True])
@pytest.mark.parametrize("x2, added, multiplied", [
    (np.arange(1, 5), [4., 5., 10.], [4., 4., 24.]),
    (np.arange(1, 13).reshape(3, 4), [4., 13., 14.], [4., 36., 48.]),
    (np.array([[2.], [3.], [5.]]), [4., 9., 9.], [4., 20., 18.]),
    (np.array(4.), [6., 8., 10.], [8., 16., 24.]),
])
def test_sparse_dense_cwise_ops_broadcast_the_dense_operand(graph, x2, added, multiplied):
    x2 = Tensor(x2.astype(np.float32))
    for op, expected in ((S.SparseDenseCwiseAdd(), added), (S.SparseDenseCwiseMul(), multiplied)):
        out = _run(graph, lambda i, v, s, d, op=op: op(i, v, s, d), I3, V3, SHAPE3, x2)
        np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6)
    quotient = _run(graph, lambda i, v, s, d: S.SparseDenseCwiseDiv()(i, v, s, d),
                    I3, V3, SHAPE3, x2)
    np.testing.assert_allclose(quotient.asnumpy(),
                               V3.asnumpy() ** 2 / np.array(multiplied, np.float32), rtol=1e-6)


@pytest.mark.parametrize("graph", [False, True])
def test_sparse_addmm_and_sparse_reorder(graph):
    out = _run(graph, lambda *a: S.SparseAddmm()(*a),
               Tensor(np.array([[0, 1], [1, 2]], np.int32)), Tensor(np.array([1., 2.], np.float32)),
               Tensor(np.array([3, 4], np.int32)),
               Tensor(np.arange(8).reshape(4, 2).astype(np.float32)),
               Tensor(np.ones((3, 2), np.float32)), Tensor(np.array([2.], np.float32)),
               Tensor(np.array([3.], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [[7., 9.], [19., 23.], [3., 3.]])
    indices, values = _run(graph, lambda *a: S.SparseReorder()(*a),
                           Tensor(np.array([[2, 1], [0, 3], [0, 1], [1, 0]], np.int64)),
                           Tensor(np.array([1., 2., 3., 4.], np.float32)),
                           Tensor(np.array([3, 4], np.int64)))
    assert indices.asnumpy().tolist() == [[0, 1], [0, 3], [1, 0], [2, 1]]
    np.testing.assert_array_equal(values.asnumpy(), [3., 2., 4., 1.])


def _slice_inputs():
    i64 = ms.int64
    return (Tensor(np.array([[0, 1], [1, 2], [1, 3], [2, 2], [3, 0]]), i64),
            Tensor(np.array([1, 2, 3, 4, 5]), ms.int32), Tensor(np.array([4, 4]), i64))


def _box(start, size):
    return Tensor(np.array(start), ms.int64), Tensor(np.array(size), ms.int64)


def test_sparse_slice_as_mindspore():
    """MindSpore 2.10's results, recorded."""
    indices, values, shape = _slice_inputs()
    got = ops.SparseSlice()(indices, values, shape, *_box([0, 1], [2, 3]))
    assert [o.dtype for o in got] == [ms.int64, ms.int32, ms.int64]
    assert [o.asnumpy().tolist() for o in got] == [[[0, 0], [1, 1], [1, 2]], [1, 2, 3], [2, 3]]
    got = ops.SparseSlice()(indices, values.astype(ms.float32), shape, *_box([1, 2], [5, 5]))
    assert [o.asnumpy().tolist() for o in got] == [[[0, 0], [0, 1], [1, 0]], [2, 3, 4], [3, 2]]
    empty = ops.SparseSlice()(indices, values, shape, *_box([0, 5], [1, 1]))
    assert empty[0].shape == (0, 2) and empty[2].asnumpy().tolist() == [1, 0]
    before = ops.SparseSlice()(indices, values, shape, *_box([-1, 0], [2, 2]))
    assert [o.asnumpy().tolist() for o in before] == [[[1, 1]], [1], [2, 2]]
    with pytest.raises(ValueError, match="shape.shape must equal to start.shape"):
        ops.SparseSlice()(indices, values, shape, *_box([0], [1, 1]))
    with pytest.raises(TypeError, match=r"argument\[indices\].*Tensor\[Int32\]"):
        ops.SparseSlice()(indices.astype(ms.int32), values, shape, *_box([0, 0], [1, 1]))


@pytest.mark.parametrize("graph", [False, True])
def test_sparse_slice_values_gradient(graph):
    indices, _, shape = _slice_inputs()
    start, size = _box([1, 0], [2, 4])

    def sliced_sum(values):
        return (ops.SparseSlice()(indices, values, shape, start, size)[1] ** 2).sum()

    values = Tensor(np.array([1.0, 2, 3, 4, 5]))
    grad = _run(graph, ops.grad(sliced_sum), values)
    np.testing.assert_allclose(grad.asnumpy(), [0, 4, 6, 8, 0])
