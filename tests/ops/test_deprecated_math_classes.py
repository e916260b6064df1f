"""MindSpore's deprecated math and nn classes that its CPU kernels still run: Histogram,
CompareAndBitpack, TridiagonalMatMul, MatrixSolveLs, RaggedRange (math_ops), NthElement and
DataFormatVecPermute (nn_ops). Expected values are MindSpore 2.10's (CPU, PyNative), recorded
as literals; gradients are checked against finite differences in float64."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, ops
from cellgraph.testing import check_grads
from tests.ops.conftest import in_a_cell


def test_histogram_counts_in_the_input_dtype():
    data = Tensor(np.array([1.0, 2, 1, -1, 3.5, 3.0], np.float32))
    out = ops.Histogram(4, 0.0, 3.0)(data)
    assert out.dtype == cg.float32
    np.testing.assert_array_equal(out.asnumpy(), [0, 2, 1, 1])
    ints = ops.Histogram(3)(Tensor(np.array([1, 2, 5], np.int32)))  # the data's own range
    assert ints.dtype == cg.int32
    np.testing.assert_array_equal(ints.asnumpy(), [2, 0, 1])
    # one value and min == max: the range widened to [0, 2]; float16 counts come as float32
    half = ops.Histogram(3, 1.0, 1.0)(Tensor(np.array([1.0, 1, 1], np.float16)))
    assert half.dtype == cg.float32
    np.testing.assert_array_equal(half.asnumpy(), [0, 3, 0])
    edge = ops.Histogram(5, 0.0, 1.0)(Tensor(np.array([[0.1, 0.2], [0.99, 1.0]], np.float32)))
    np.testing.assert_array_equal(edge.asnumpy(), [1, 1, 0, 0, 2])


def test_histogram_errors():
    with pytest.raises(ValueError, match="'bins' must be int and must > 0, but got '0'"):
        ops.Histogram(0)
    with pytest.raises(TypeError, match="the type of 'min' should be 'float', but got type 'int'"):
        ops.Histogram(3, 0, 1.0)
    with pytest.raises(ValueError, match="'min' should be <= max: 1.0, but got 2.0"):
        ops.Histogram(3, 2.0, 1.0)
    with pytest.raises(TypeError, match=r"Tensor\[Int32\]\}, but got Tensor\[Int64\]"):
        ops.Histogram(3)(Tensor(np.array([1, 2, 5], np.int64)))
    with pytest.raises(ValueError):  # MindSpore: "range of [nan, 2] is not finite."
        ops.Histogram(3)(Tensor(np.array([np.nan, 1, 2], np.float32)))


def test_histogram_in_ain_a_cell(graph_mode):
    out = in_a_cell(ops.Histogram(2))(Tensor(np.array([0.0, 0.2, 0.9, 1.0], np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [2, 2])


def test_compare_and_bitpack():
    x = Tensor(np.arange(1, 17, dtype=np.float32).reshape(2, 8))
    out = ops.CompareAndBitpack()(x, Tensor(6.0, cg.float32))
    assert out.dtype == cg.uint8 and out.shape == (2, 1)
    np.testing.assert_array_equal(out.asnumpy(), [[3], [255]])
    # bools are packed as they are, the first in the lowest bit (MindSpore's kernel)
    bools = ops.CompareAndBitpack()(Tensor(np.array([True, False] * 4)), Tensor(False))
    np.testing.assert_array_equal(bools.asnumpy(), [85])
    with pytest.raises(ValueError, match=r"innermost dimension % 8\] must be equal to 0, but got 6"):
        ops.CompareAndBitpack()(Tensor(np.arange(1, 7, dtype=np.float32)), Tensor(6.0, cg.float32))
    with pytest.raises(ValueError, match="threshold's rank' must be equal to 0, but got 1"):
        ops.CompareAndBitpack()(Tensor(np.arange(8, dtype=np.float32)), Tensor([6.0], cg.float32))
    with pytest.raises(TypeError, match="the input type must be same"):
        ops.CompareAndBitpack()(Tensor(np.arange(8, dtype=np.int32)), Tensor(6.0, cg.float32))
    with pytest.raises(TypeError, match=r"argument\[threshold\] must be a type of"):
        ops.CompareAndBitpack()(Tensor(np.arange(8, dtype=np.uint8)), Tensor(6, cg.uint8))


def _diagonals():
    return (Tensor(np.array([[1.0, 2, 0]], np.float32)), Tensor(np.array([[4.0, 5, 6]], np.float32)),
            Tensor(np.array([[0.0, 3, 7]], np.float32)))


def test_tridiagonal_matmul():
    rhs = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))
    out = ops.TridiagonalMatMul()(*_diagonals(), rhs)
    np.testing.assert_array_equal(out.asnumpy(), [[2, 7], [18, 28], [38, 51]])
    batched = ops.TridiagonalMatMul()(*(d.reshape(1, 1, 3) for d in _diagonals()),
                                      rhs.reshape(1, 3, 2))
    np.testing.assert_array_equal(batched.asnumpy(), [[[2, 7], [18, 28], [38, 51]]])
    with pytest.raises(ValueError, match="dimension of 'superdiag' must be greater than or equal to 2"):
        ops.TridiagonalMatMul()(*(d.reshape(3) for d in _diagonals()), rhs)
    with pytest.raises(TypeError, match="the input type must be same"):
        ops.TridiagonalMatMul()(*_diagonals(), rhs.astype(cg.float64))
    with pytest.raises(TypeError, match=r"argument\[superdiag\].*but got Tensor\[Int32\]"):
        ops.TridiagonalMatMul()(*(d.astype(cg.int32) for d in _diagonals()), rhs.astype(cg.int32))


def test_tridiagonal_matmul_gradients():
    rng = np.random.default_rng(0)
    args = tuple(Tensor(rng.normal(size=shape)) for shape in ((2, 1, 4),) * 3 + ((2, 4, 3),))
    check_grads(lambda *a: ops.TridiagonalMatMul()(*a), args, order=2)


A = np.array([[1.0, 2], [3, 4], [5, 7]])
B = np.array([[1.0], [2], [4]])


def test_matrix_solve_ls():
    l2 = Tensor(0.5, cg.float64)
    a, b = Tensor(A, cg.float32), Tensor(B, cg.float32)
    np.testing.assert_allclose(ops.MatrixSolveLs()(a, b, Tensor(0.0, cg.float64)).asnumpy(),
                               [[0.07142], [0.5]], atol=2e-5)
    np.testing.assert_allclose(ops.MatrixSolveLs()(a, b, l2).asnumpy(),
                               [[0.21887], [0.39245]], atol=2e-5)
    # not fast: the unregularised solution
    np.testing.assert_allclose(ops.MatrixSolveLs(False)(a, b, l2).asnumpy(), [[0.07143], [0.5]],
                               atol=1e-5)
    # fewer equations than unknowns: the minimum-norm solution
    under = ops.MatrixSolveLs()(Tensor(A.T, cg.float32), Tensor(B[:2], cg.float32), l2)
    np.testing.assert_allclose(under.asnumpy(), [[0.23396], [0.03774], [0.17358]], atol=2e-5)
    exact = ops.MatrixSolveLs()(Tensor(A.T, cg.float32), Tensor(B[:2], cg.float32),
                                Tensor(0.0, cg.float64))
    np.testing.assert_allclose(exact.asnumpy(), [[0.92857], [-0.21428], [0.14286]], atol=5e-5)
    double = ops.MatrixSolveLs()(Tensor(A), Tensor(B), Tensor(0.0, cg.float64))
    assert double.dtype == cg.float64
    np.testing.assert_allclose(double.asnumpy(), np.linalg.lstsq(A, B, rcond=None)[0], rtol=1e-10)
    with pytest.raises(TypeError, match=r"argument\[l2_regularizer\].*Tensor\[Float32\]"):
        ops.MatrixSolveLs()(a, b, Tensor(0.5, cg.float32))
    with pytest.raises(TypeError, match="the type of 'fast' should be 'bool', but got type 'int'"):
        ops.MatrixSolveLs(1)


def test_matrix_solve_ls_complex_and_gradients():
    rng = np.random.default_rng(1)
    a = rng.normal(size=(4, 3)) + 1j * rng.normal(size=(4, 3))
    b = rng.normal(size=(4, 2)) + 1j * rng.normal(size=(4, 2))
    out = ops.MatrixSolveLs()(Tensor(a), Tensor(b), Tensor(0.0, cg.float64))
    np.testing.assert_allclose(out.asnumpy(), np.linalg.lstsq(a, b, rcond=None)[0], rtol=1e-9)
    l2 = Tensor(0.3, cg.float64)
    check_grads(lambda m, r: ops.MatrixSolveLs()(m, r, l2), (Tensor(A), Tensor(B)), order=2,
                rtol=1e-4)


def test_ragged_range():
    splits, values = ops.RaggedRange(cg.int64)(Tensor(np.array([2, 5, 8]), cg.int32),
                                               Tensor(np.array([3, 5, 12]), cg.int32),
                                               Tensor(np.array([1, 1, 1]), cg.int32))
    assert splits.dtype == cg.int64 and values.dtype == cg.int32
    np.testing.assert_array_equal(splits.asnumpy(), [0, 1, 1, 5])
    np.testing.assert_array_equal(values.asnumpy(), [2, 8, 9, 10, 11])
    splits, values = ops.RaggedRange(cg.int32)(Tensor(np.array([0.0, 5]), cg.float32),
                                               Tensor(np.array([1.0, 2]), cg.float32),
                                               Tensor(np.array([0.3, -1]), cg.float32))
    np.testing.assert_array_equal(splits.asnumpy(), [0, 4, 7])
    np.testing.assert_allclose(values.asnumpy(), [0, 0.3, 0.6, 0.9, 5, 4, 3], rtol=1e-6)
    scalars = ops.RaggedRange(cg.int32)(Tensor(3, cg.int32), Tensor(7, cg.int32), Tensor(2, cg.int32))
    np.testing.assert_array_equal(scalars[1].asnumpy(), [3, 5])


def test_ragged_range_errors():
    op = ops.RaggedRange(cg.int32)
    one = Tensor(np.array([2]), cg.int32)
    with pytest.raises(ValueError, match="requires input delta != 0"):
        op(one, Tensor(np.array([3]), cg.int32), Tensor(np.array([0]), cg.int32))
    with pytest.raises(ValueError, match="must have the same shape"):
        op(Tensor(3, cg.int32), Tensor(np.array([5, 7]), cg.int32), Tensor(2, cg.int32))
    with pytest.raises(TypeError, match="must have the same type"):
        op(one, Tensor(np.array([3]), cg.int64), one)
    with pytest.raises(TypeError, match="'Tsplits' should be one of"):
        ops.RaggedRange(cg.float32)


def test_nth_element():
    x = Tensor(np.array([[3, 1, 4, 1], [5, 9, 2, 6]], np.float32))
    np.testing.assert_array_equal(ops.NthElement()(x, 1).asnumpy(), [1, 5])
    np.testing.assert_array_equal(ops.NthElement(True)(x, 1).asnumpy(), [3, 6])
    np.testing.assert_array_equal(ops.NthElement()(x, Tensor(3, cg.int32)).asnumpy(), [4, 9])
    small = ops.NthElement()(Tensor(np.array([3, 1, 2], np.int8)), 0)
    assert small.dtype == cg.int8 and small.shape == () and int(small) == 1
    with pytest.raises(ValueError, match="the n_value must be less than 4, but got 4"):
        ops.NthElement()(x, 4)
    with pytest.raises(TypeError, match="the type of 'reverse' should be 'bool', but got type 'int'"):
        ops.NthElement(1)
    with pytest.raises(TypeError, match=r"\{Tensor\[Int32\]\}, but got Tensor\[Int64\]"):
        ops.NthElement()(Tensor(np.array([3.0, 1, 2])), Tensor(2, cg.int64))
    with pytest.raises(ValueError, match="must be greater than or equal to 1, but got 0"):
        ops.NthElement()(Tensor(np.array(3.0, np.float32)), 0)


def test_nth_element_gradients_andin_a_cell(graph_mode):
    x = Tensor(np.random.default_rng(2).normal(size=(3, 5)))
    check_grads(lambda v: ops.NthElement(True)(v, 2), (x,), order=2)
    out = in_a_cell(lambda v: ops.NthElement()(v, 2))(x)
    np.testing.assert_allclose(out.asnumpy(), np.sort(x.asnumpy(), -1)[:, 2])


def test_data_format_vec_permute():
    vec = Tensor(np.array([1, 2, 3, 4]), cg.int32)
    np.testing.assert_array_equal(ops.DataFormatVecPermute()(vec).asnumpy(), [1, 4, 2, 3])
    back = ops.DataFormatVecPermute("NCHW", "NHWC")(Tensor(np.array([1, 2, 3, 4]), cg.int64))
    assert back.dtype == cg.int64
    np.testing.assert_array_equal(back.asnumpy(), [1, 3, 4, 2])
    rows = ops.DataFormatVecPermute()(Tensor(np.arange(1, 9).reshape(4, 2), cg.int32))
    np.testing.assert_array_equal(rows.asnumpy(), [[1, 2], [7, 8], [3, 4], [5, 6]])
    same = ops.DataFormatVecPermute("NHWC", "NHWC")(vec)
    np.testing.assert_array_equal(same.asnumpy(), [1, 2, 3, 4])
    with pytest.raises(ValueError, match="'src_format' must be str and must be in"):
        ops.DataFormatVecPermute("NDHWC")
    with pytest.raises(ValueError, match=r"input shape must be \(4, \) or \(4, 2\)"):
        ops.DataFormatVecPermute()(Tensor(np.array([1, 2, 3]), cg.int32))
    with pytest.raises(TypeError, match=r"but got Tensor\[Float32\]"):
        ops.DataFormatVecPermute()(Tensor(np.array([1.0, 2, 3, 4]), cg.float32))


def test_matrix_logarithm():
    """MindSpore 2.10's values (the docstring's matrix, a diagonal and a Jordan block)."""
    x = Tensor(np.array([[1 + 2j, 0.5], [0.3j, 3 - 1j]]), cg.complex64)
    out = ops.MatrixLogarithm()(x)
    assert out.dtype == cg.complex64
    np.testing.assert_allclose(out.asnumpy(), [[0.79231 + 1.10223j, 0.19291 - 0.06921j],
                                               [0.04152 + 0.11575j, 1.1487 - 0.33206j]], atol=2e-5)
    batch = ops.MatrixLogarithm()(Tensor(np.array([[[2, 0], [0, 3]], [[1, 1], [0, 1]]]),
                                         cg.complex128))
    np.testing.assert_allclose(batch.asnumpy(), [[[np.log(2), 0], [0, np.log(3)]],
                                                 [[0, 1], [0, 0]]], atol=1e-12)
    rng = np.random.default_rng(7)
    a = rng.normal(size=(4, 4)) + 1j * rng.normal(size=(4, 4)) + 3 * np.eye(4)
    values, vectors = np.linalg.eig(a)
    want = vectors @ np.diag(np.log(values)) @ np.linalg.inv(vectors)
    np.testing.assert_allclose(ops.MatrixLogarithm()(Tensor(a)).asnumpy(), want, atol=1e-10)
    with pytest.raises(TypeError, match=r"but got Tensor\[Float32\]"):
        ops.MatrixLogarithm()(Tensor(np.eye(2, dtype=np.float32)))
    with pytest.raises(ValueError, match="last two dimensions"):
        ops.MatrixLogarithm()(Tensor(np.ones((2, 3), np.complex64)))


def test_matrix_logarithm_in_ain_a_cell(graph_mode):
    out = in_a_cell(ops.MatrixLogarithm())(Tensor(np.array([[2, 0], [0, 3]]), cg.complex64))
    np.testing.assert_allclose(out.asnumpy(), [[np.log(2), 0], [0, np.log(3)]], atol=1e-6)
