"""ops.coo_<op> and ops.csr_<op> (an elementwise op on the stored values), coo_add, coo_concat,
csr_add and csr_softmax, against MindSpore 2.10's outputs, including the sparse tensors' repr
(MindSpore's C++ text: each part's Tensor text without commas)."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import COOTensor, CSRTensor, Tensor, ops
from cellgraph.ops.function.sparse_unary_func import UNARY_OPS

A = COOTensor(Tensor(np.array([[0, 1], [2, 2]], np.int64)), Tensor([1.5, -2.0]), (3, 4))
B = COOTensor(Tensor(np.array([[0, 1], [1, 3]], np.int64)), Tensor([-1.4, 3.0]), (3, 4))
C = CSRTensor(Tensor(np.array([0, 2, 2, 3], np.int32)), Tensor(np.array([0, 3, 1], np.int32)),
              Tensor([1.0, -2.0, 0.5]), (3, 4))
D = CSRTensor(Tensor(np.array([0, 1, 2, 2], np.int32)), Tensor(np.array([3, 2], np.int32)),
              Tensor([4.0, 1.0]), (3, 4))


@pytest.mark.parametrize("op", sorted(UNARY_OPS))
def test_unary_pairs_apply_to_the_stored_values(op):
    values = np.array([0.25, 0.75], np.float32)
    coo = COOTensor(A.indices, Tensor(values), A.shape)
    csr = CSRTensor(D.indptr, D.indices, Tensor(values), D.shape)
    expected = getattr(ops, op)(Tensor(values)).asnumpy()
    out = getattr(ops, f"coo_{op}")(coo)
    assert isinstance(out, COOTensor) and out.shape == (3, 4) and out.indices is coo.indices
    np.testing.assert_allclose(out.values.asnumpy(), expected, rtol=1e-6)
    out = getattr(ops, f"csr_{op}")(csr)
    assert isinstance(out, CSRTensor) and out.indptr is csr.indptr
    np.testing.assert_allclose(out.values.asnumpy(), expected, rtol=1e-6)
    with pytest.raises(TypeError, match=f"Expects COOTensor for coo_{op}"):
        getattr(ops, f"coo_{op}")(csr)
    with pytest.raises(TypeError, match=f"Expects CSRTensor for csr_{op}"):
        getattr(ops.functional, f"csr_{op}")(coo)


def test_mindspore_examples_values():
    # MindSpore 2.10
    np.testing.assert_allclose(ops.coo_sigmoid(A).values.asnumpy(), [0.8175745, 0.11920287],
                               rtol=1e-6)
    np.testing.assert_array_equal(ops.coo_relu6(A).values.asnumpy(), [1.5, 0.0])
    assert ops.csr_isinf(C).values.dtype == cellgraph.bool_


def test_coo_add_and_concat_as_mindspore():
    # MindSpore 2.10: the sum at (0, 1) is 0.1, below the threshold
    assert repr(ops.coo_add(A, B, Tensor(0.2))) == (
        "COOTensor(shape=[3, 4], dtype=Float32, indices=Tensor(shape=[2, 2], dtype=Int64, value=\n"
        "[[1 3]\n [2 2]]), values=Tensor(shape=[2], dtype=Float32, value=[ 3.00000000e+00 "
        "-2.00000000e+00]))")
    out = ops.coo_concat((A, B, A), 0)
    assert out.shape == (9, 4)
    np.testing.assert_array_equal(out.indices.asnumpy(), [[0, 1], [2, 2], [3, 1], [4, 3], [6, 1],
                                                          [8, 2]])
    np.testing.assert_allclose(out.values.asnumpy(), [1.5, -2.0, -1.4, 3.0, 1.5, -2.0])
    out = ops.coo_concat([A, B], -1)  # entries in row-major order
    assert out.shape == (3, 8)
    np.testing.assert_array_equal(out.indices.asnumpy(), [[0, 1], [0, 5], [1, 7], [2, 2]])
    np.testing.assert_allclose(out.values.asnumpy(), [1.5, -1.4, 3.0, -2.0])


def test_csr_add_and_softmax_as_mindspore():
    assert repr(ops.csr_add(C, D, Tensor(2.0), Tensor(-1.0))) == (
        "CSRTensor(shape=[3, 4], dtype=Float32, indptr=Tensor(shape=[4], dtype=Int32, "
        "value=[0 2 3 4]), indices=Tensor(shape=[4], dtype=Int32, value=[0 3 2 1]), "
        "values=Tensor(shape=[4], dtype=Float32, value=[ 2.00000000e+00 -8.00000000e+00 "
        "-1.00000000e+00  1.00000000e+00]))")
    out = ops.csr_softmax(C, cellgraph.float64)
    assert out.dtype == cellgraph.float32  # the logits' dtype, as MindSpore's
    np.testing.assert_allclose(out.values.asnumpy(), [0.952574134, 0.0474258736, 1.0],
                               rtol=1e-6)
    np.testing.assert_array_equal(C.values.asnumpy(), [1.0, -2.0, 0.5])  # logits untouched


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.coo_concat((A,), 0), ValueError, "not support COOTensor input number < 2"),
    (lambda: ops.coo_concat((A, C), 0), TypeError, "must be COOTensors"),
    # MindSpore 2.10's types: IndexError, TypeError, RuntimeError (its graph mode's)
    (lambda: ops.coo_concat((A, B), 2), IndexError, r"'concat_dim' must be in \[-2, 2\)"),
    (lambda: ops.coo_concat((A, B), -1.0), TypeError, "the type of 'concat_dim' should be 'int'"),
    (lambda: ops.coo_concat((A, COOTensor(A.indices, A.values.astype(cellgraph.float16),
                                          A.shape)), 0), TypeError, "the input type must be same"),
    (lambda: ops.coo_concat((A, COOTensor(A.indices, A.values, (4, 4))), 1), RuntimeError,
     "must agree except at 'concat_dim' 1"),
    (lambda: ops.coo_add(A, C, 0.0), TypeError, "'x2' must be a COOTensor"),
    (lambda: ops.csr_add(C, A, 1.0, 1.0), TypeError, "'b' must be a CSRTensor"),
    (lambda: ops.csr_softmax(A, cellgraph.float32), TypeError, "logits must be type of CSRTensor"),
    (lambda: ops.csr_softmax(C, cellgraph.int32), TypeError, "must be float32 or float64"),
])
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ---- the makers, part getters, conversions and products ops.functional has ----------------
E = CSRTensor(Tensor(np.array([0, 1, 2, 2], np.int32)), Tensor(np.array([1, 0], np.int32)),
              Tensor([2.0, 3.0]), (3, 2))


def _in_graph(fn, *args):
    class Net(cellgraph.nn.Cell):
        def construct(self, *inputs):
            return fn(*inputs)

    return Net()(*args)


def test_makers_and_part_getters_eagerly_and_in_a_graph():
    F = ops.functional
    indices, values = Tensor(np.array([[0, 1], [1, 0]], np.int64)), Tensor([2.0, 3.0])
    for run in (lambda f, *a: f(*a), _in_graph):
        coo = run(lambda i, v: F.make_coo_tensor(i, v, (2, 2)), indices, values)
        assert isinstance(coo, COOTensor) and coo.shape == (2, 2)
        assert run(lambda i, v: F.make_sparse_tensor(i, v, (2, 2)), indices, values).shape == (2, 2)
        np.testing.assert_array_equal(run(F.coo_tensor_get_indices, coo).asnumpy(),
                                      [[0, 1], [1, 0]])
        np.testing.assert_array_equal(run(F.coo_tensor_get_values, coo).asnumpy(), [2.0, 3.0])
        assert run(F.coo_tensor_get_dense_shape, coo) == (2, 2)
        csr = run(lambda p, i, v: F.make_csr_tensor(p, i, v, (3, 2)), E.indptr, E.indices,
                  E.values)
        assert isinstance(csr, CSRTensor) and csr.shape == (3, 2)
        np.testing.assert_array_equal(run(F.csr_tensor_get_indptr, csr).asnumpy(), [0, 1, 2, 2])
        np.testing.assert_array_equal(run(F.csr_tensor_get_indices, csr).asnumpy(), [1, 0])
        np.testing.assert_array_equal(run(F.csr_tensor_get_values, csr).asnumpy(), [2.0, 3.0])
        assert run(F.csr_tensor_get_dense_shape, csr) == (3, 2)
        rows = run(lambda i, v: F.make_row_tensor(i, v, (3, 2)), Tensor(np.array([0, 2], np.int32)),
                   Tensor([[1.0, 2.0], [3.0, 4.0]]))
        assert isinstance(rows, cellgraph.RowTensor)
        np.testing.assert_array_equal(run(F.row_tensor_get_indices, rows).asnumpy(), [0, 2])
        np.testing.assert_array_equal(run(F.row_tensor_get_values, rows).asnumpy(),
                                      [[1.0, 2.0], [3.0, 4.0]])
        assert run(F.row_tensor_get_dense_shape, rows) == (3, 2)
    inner = F.make_row_tensor_inner(Tensor(np.array([1], np.int32)), Tensor([[5.0, 6.0]]), (2, 2))
    np.testing.assert_array_equal(inner.to_dense().asnumpy(), [[0, 0], [5, 6]])
    with pytest.raises(TypeError, match="For 'RowTensorGetIndices', input\\[0\\] should be "
                                        "RowTensor"):
        F.row_tensor_get_indices(E)
    with pytest.raises(TypeError, match="For 'CSRTensorGetIndptr', input\\[0\\] should be "
                                        "CSRTensor"):
        F.csr_tensor_get_indptr(A)


def test_conversions_and_products_eagerly_and_in_a_graph():
    dense = Tensor(np.array([[1.0, 10.0]], np.float32))
    for run in (lambda f, *a: f(*a), _in_graph):
        # MindSpore 2.10 (PyNative and graph): csr_to_coo's indices keep the int32 of E's
        coo = run(ops.csr_to_coo, E)
        assert isinstance(coo, COOTensor) and coo.indices.dtype == cellgraph.int32
        np.testing.assert_array_equal(coo.indices.asnumpy(), [[0, 1], [1, 0]])
        np.testing.assert_array_equal(run(ops.csr_to_dense, E).asnumpy(),
                                      [[0, 2], [3, 0], [0, 0]])
        # a one-element y gives the values, as MindSpore 2.10 does: [4, 6] and [1, 1.5]
        np.testing.assert_allclose(run(lambda x: ops.csr_mul(x, 2.0), E).asnumpy(), [4, 6])
        np.testing.assert_allclose(run(lambda x, y: ops.csr_div(x, y), E, Tensor(2.0)).asnumpy(),
                                   [1, 1.5])
        # MindSpore's CPU build cannot compile these (AKG); the values are the definitions'
        product = run(ops.csr_mul, E, dense)
        assert isinstance(product, CSRTensor)
        np.testing.assert_allclose(product.values.asnumpy(), [20.0, 3.0])
        np.testing.assert_allclose(run(ops.csr_div, E, dense).values.asnumpy(), [0.2, 3.0],
                                   rtol=1e-6)
        np.testing.assert_allclose(run(ops.csr_mv, E, Tensor([[1.0], [10.0]])).asnumpy(),
                                   [[20.0], [3.0], [0.0]])
        np.testing.assert_allclose(run(lambda x: ops.csr_reduce_sum(x, 1), E).asnumpy(),
                                   [[2.0], [3.0], [0.0]])
        gathered = run(lambda p, i, d: ops.csr_gather(p, i, d, (3, 2)), E.indptr, E.indices,
                       Tensor(np.arange(6.0).reshape(3, 2)))
        np.testing.assert_allclose(gathered.asnumpy(), [1.0, 2.0])
        np.testing.assert_array_equal(run(lambda p: ops.csr2coo(p, 2), E.indptr).asnumpy(),
                                      [0, 1])
        rows = Tensor(np.array([0, 1, 1], np.int32))
        np.testing.assert_array_equal(run(lambda r: ops.coo2csr(r, 3), rows).asnumpy(),
                                      [0, 1, 3, 3])
    with pytest.raises(TypeError, match="csr_to_dense, input argument must be a CSRTensor"):
        ops.csr_to_dense(A)
    # MindSpore 2.10's checks
    with pytest.raises(TypeError, match="The dtype of row_indices only support Int32 for now, "
                                        "but got Int64."):
        ops.coo2csr(Tensor(np.array([0, 1], np.int64)), 2)
    with pytest.raises(TypeError, match="The dtype of Indptr only support Int32 for now, but "
                                        "got Int64."):
        ops.csr2coo(Tensor(np.array([0, 1, 2], np.int64)), 2)
    with pytest.raises(ValueError, match="Currently, only support Integer height."):
        ops.coo2csr(Tensor(np.array([0, 1], np.int32)), 2.0)


def test_csr_mm_as_mindspore_s_example():
    # MindSpore 2.10's docstring example (it runs on GPUs only there)
    a = CSRTensor(Tensor([0, 1, 1, 3, 4], cellgraph.int32), Tensor([0, 3, 4, 0], cellgraph.int32),
                  Tensor([1.0, 5.0, -1.0, -2.0], cellgraph.float32), (4, 5))
    b = CSRTensor(Tensor([0, 1, 1, 3, 3, 3], cellgraph.int32), Tensor([0, 0, 1], cellgraph.int32),
                  Tensor([2.0, 7.0, 8.0], cellgraph.float32), (5, 3))
    c = ops.csr_mm(a, b)
    assert c.shape == (4, 3)
    np.testing.assert_array_equal(c.values.asnumpy(), [2.0, -4.0])
    np.testing.assert_array_equal(c.indptr.asnumpy(), [0, 1, 1, 1, 2])
    np.testing.assert_array_equal(c.indices.asnumpy(), [0, 0])
    assert ops.csr_mm(b, a, trans_a=True, trans_b=True).shape == (3, 4)
    with pytest.raises(TypeError, match="inputs a and b must be type of CSRTensor"):
        ops.csr_mm(a, Tensor(np.ones((5, 2), np.float32)))


def test_coalesce_as_mindspore():
    # MindSpore 2.10's results
    indices, values, shape = ops.coalesce(Tensor(np.array([[0, 0, 1], [1, 1, 2]], np.int64)),
                                          Tensor([1.0, 5.0, 4.0]),
                                          Tensor(np.array([3, 3], np.int64)))
    np.testing.assert_array_equal(indices.asnumpy(), [[0, 1], [1, 2]])
    np.testing.assert_array_equal(values.asnumpy(), [6.0, 4.0])
    np.testing.assert_array_equal(shape.asnumpy(), [3, 3])
    indices, values, _ = ops.functional.coalesce(
        Tensor(np.array([[2, 0, 1, 0], [0, 1, 2, 1]], np.int64)),
        Tensor(np.array([1, 5, 4, 2], np.float16)), Tensor(np.array([3, 3], np.int64)))
    np.testing.assert_array_equal(indices.asnumpy(), [[0, 1, 2], [1, 2, 0]])
    assert values.dtype == cellgraph.float16
    np.testing.assert_array_equal(values.asnumpy(), [7.0, 4.0, 1.0])
    index64 = Tensor(np.array([[0, 0, 1], [1, 1, 5]], np.int64))
    with pytest.raises(ValueError, match="can not exceed the limit set by x_shape, but got "
                                         "x_indices\\[1\\]\\[2\\] = 5, got x_shape\\[1\\] = 3"):
        ops.coalesce(index64, Tensor([1.0, 5.0, 4.0]), Tensor(np.array([3, 3], np.int64)))
    with pytest.raises(TypeError, match="x_indices\\] must be a type of \\{Tensor\\[Int64\\]\\}"):
        ops.coalesce(Tensor(np.array([[0], [1]], np.int32)), Tensor([1.0]),
                     Tensor(np.array([3, 3], np.int64)))
    with pytest.raises(ValueError, match="second dim of x_indices and first dim of x_values"):
        ops.coalesce(index64, Tensor([1.0, 5.0]), Tensor(np.array([3, 3], np.int64)))


def test_sparse_segment_mean_as_mindspore():
    x = Tensor(np.array([[0, 1, 2], [1, 2, 3], [3, 6, 7]], np.float32))
    ids32 = Tensor(np.array([0, 1, 2], np.int32))
    for run in (lambda f, *a: f(*a), _in_graph):
        out = run(ops.sparse_segment_mean, x, ids32, Tensor(np.array([1, 2, 2], np.int32)))
        np.testing.assert_array_equal(out.asnumpy(), [[0, 0, 0], [0, 1, 2], [2, 4, 5]])
    out = ops.functional.sparse_segment_mean(
        Tensor(x.asnumpy().astype(np.float64)), Tensor(np.array([0, 1, 2], np.int64)),
        Tensor(np.array([0, 0, 3], np.int64)))
    assert out.dtype == cellgraph.float64
    np.testing.assert_array_equal(out.asnumpy(), [[0.5, 1.5, 2.5], [0, 0, 0], [0, 0, 0],
                                                  [3, 6, 7]])
    with pytest.raises(TypeError, match="the input argument\\[x\\] must be a type of"):
        ops.sparse_segment_mean(Tensor(np.ones((3, 3), np.int32)), ids32, ids32)
    with pytest.raises(TypeError, match="the input type must be same"):
        ops.sparse_segment_mean(x, ids32, Tensor(np.array([0, 0, 0], np.int64)))
    with pytest.raises(ValueError, match="the size of 'indices' and 'segment_ids' must be the "
                                         "same, but got 3 vs 2."):
        ops.sparse_segment_mean(x, ids32, Tensor(np.array([0, 0], np.int32)))


def test_csr_primitives_over_the_parts():
    from cellgraph.ops.operations import _csr_ops

    parts = (E.indptr, E.indices, E.values, E.shape)
    dense = Tensor(np.array([[1.0, 10.0]], np.float32))
    np.testing.assert_allclose(_csr_ops.CSRMul()(*parts, dense).asnumpy(), [20.0, 3.0])
    np.testing.assert_allclose(_csr_ops.CSRDiv()(*parts, dense).asnumpy(), [0.2, 3.0], rtol=1e-6)
    np.testing.assert_allclose(_csr_ops.CSRMV()(*parts, Tensor([[1.0], [10.0]])).asnumpy(),
                               [[20.0], [3.0], [0.0]])
    np.testing.assert_allclose(_csr_ops.CSRMM()(*parts, Tensor(np.eye(2, dtype=np.float32)))
                               .asnumpy(), [[0, 2], [3, 0], [0, 0]])
    np.testing.assert_allclose(_csr_ops.CSRReduceSum()(*parts, 1).asnumpy(), [[2.0], [3.0], [0.0]])
    np.testing.assert_allclose(_csr_ops.CSRGather()(E.indptr, E.indices,
                                                    Tensor(np.arange(6.0).reshape(3, 2)),
                                                    (3, 2)).asnumpy(), [1.0, 2.0])
    np.testing.assert_array_equal(_csr_ops.CSR2COO()(E.indptr, 2).asnumpy(), [0, 1])
    rows = Tensor(np.array([0, 1], np.int32))
    np.testing.assert_array_equal(_csr_ops.COO2CSR()(rows, 2).asnumpy(), [0, 1, 2])
