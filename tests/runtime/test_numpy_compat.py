"""cellgraph on NumPy 1.26 and 2.x: the array-API names and keywords NumPy 1 lacks
(runtime/numpy_compat.py) behave as NumPy 2's, and results do not depend on the NumPy version's
scalar promotion (NEP 50): the expected values are MindSpore 2.10's."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops
from cellgraph.runtime import numpy_compat
from cellgraph.runtime.numpy_backend import NAMESPACE as xp

SHIMS = {"asarray": numpy_compat._asarray, "argsort": numpy_compat._argsort,
         "cumulative_sum": numpy_compat._cumulative_sum, "isdtype": numpy_compat._isdtype,
         "unique_inverse": numpy_compat._unique_inverse, "astype": numpy_compat._astype,
         "cholesky": numpy_compat._cholesky, "solve": numpy_compat._solve,
         "matrix_transpose": numpy_compat._matrix_transpose}


def test_the_namespace_has_the_array_api_names():
    for name in ("acos", "atan2", "bitwise_left_shift", "bitwise_invert", "concat",
                 "permute_dims", "pow", "astype", "cumulative_sum", "isdtype",
                 "unique_inverse", "matrix_transpose"):
        assert callable(getattr(xp, name)), name
    assert callable(xp.linalg.matrix_transpose) and callable(xp.linalg.cholesky)
    assert numpy_compat.ARRAY_API == {} if numpy_compat.NUMPY2 else numpy_compat.ARRAY_API


def test_the_shims_behave_as_numpy_2():
    x = np.array([[3.0, 1.0], [1.0, 2.0]], np.float32)
    assert SHIMS["asarray"](x, copy=False) is x
    assert not np.shares_memory(SHIMS["asarray"](x, copy=True), x)
    with pytest.raises(ValueError, match="avoid copy"):
        SHIMS["asarray"](x, dtype=np.float64, copy=False)
    ties = np.array([1, 0, 1, 0, 1])
    np.testing.assert_array_equal(SHIMS["argsort"](ties, stable=True), [1, 3, 0, 2, 4])
    np.testing.assert_array_equal(
        SHIMS["cumulative_sum"](np.array([1, 2, 3]), axis=0, include_initial=True), [0, 1, 3, 6])
    assert SHIMS["isdtype"](np.int32, "integral") and not SHIMS["isdtype"](np.float32, "integral")
    assert SHIMS["isdtype"](np.float32, ("integral", "real floating"))
    values, inverse = SHIMS["unique_inverse"](np.array([[3, 1], [1, 3]]))
    np.testing.assert_array_equal(values, [1, 3])
    np.testing.assert_array_equal(inverse, [[1, 0], [0, 1]])  # the input's shape, as NumPy 2
    upper = SHIMS["cholesky"](x, upper=True)
    np.testing.assert_allclose(upper.T @ upper, x, rtol=1e-6)
    assert np.allclose(np.tril(upper, -1), 0)
    # b with one axis fewer than a is a matrix, as in NumPy 2 (NumPy 1: a stack of vectors)
    a = np.stack([np.eye(2) * 2, np.eye(2) * 4])
    b = np.array([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(SHIMS["solve"](a, b), np.stack([b / 2, b / 4]))
    np.testing.assert_allclose(SHIMS["solve"](a[0], np.array([2.0, 4.0])), [1.0, 2.0])
    assert SHIMS["matrix_transpose"](np.zeros((2, 3, 4))).shape == (2, 4, 3)
    assert SHIMS["astype"](x, np.float64).dtype == np.float64


@pytest.mark.parametrize("mode", [cellgraph.GRAPH_MODE, cellgraph.PYNATIVE_MODE])
def test_python_ints_meet_integer_tensors_in_their_dtype(mode):
    """MindSpore 2.10's values; NumPy 2 refused these ints (OverflowError) and NumPy 1 gave
    max(uint8 200, 300) as 44."""
    cellgraph.set_context(mode=mode)
    u = Tensor(np.array([200, 10], np.uint8))
    i = Tensor(np.array([100, -3], np.int8))
    u8, i8, b = cellgraph.uint8, cellgraph.int8, cellgraph.bool_
    cases = [(lambda: u + 300, [244, 54], u8), (lambda: u - 300, [156, 222], u8),
             (lambda: u // 300, [4, 0], u8), (lambda: i * 300, [48, 124], i8),
             (lambda: i + (-200), [-100, 53], i8), (lambda: ops.maximum(u, 300), [200, 44], u8),
             (lambda: u < 300, [True, True], b), (lambda: u == 300, [False, False], b)]
    for fn, expected, dtype in cases:
        out = cellgraph.jit(fn)() if mode == cellgraph.GRAPH_MODE else fn()
        np.testing.assert_array_equal(out.asnumpy(), expected)
        assert out.dtype == dtype


def test_zero_dimensional_results_keep_their_dtype():
    """0-d operands are where NumPy 1's value-based promotion acted (float32 0-d * 2.0 was
    float64 there; a masked float16 0-d value took a narrower integer view)."""
    half = Tensor(np.array(2.0, np.float16))
    assert (Tensor(np.array(3.0, np.float32)) * 2.0).dtype == cellgraph.float32
    grad = cellgraph.grad(ops.relu)(half)
    assert grad.dtype == cellgraph.float16 and float(grad.asnumpy()) == 1.0
    with np.errstate(over="ignore"):  # MindSpore 2.10: inf, in float16
        assert (Tensor(np.array(1, np.float16)) + 1e5).dtype == cellgraph.float16


def test_python_floats_beside_zero_dimensional_float32_compute_in_float32():
    """A chain of 0-d float32 operations with Python floats: every step in float32, bit for bit
    (NumPy 1 computed `0-d float32 * 0.5` in float64 and rounded at the end)."""
    def f(x):
        for _ in range(9):
            x = x * 1.1 + 0.5 * x - x * x * 0.01
        return ops.maximum(x, 0.25)

    expected = np.float32(0.7)
    for _ in range(9):
        expected = (expected * np.float32(1.1) + np.float32(0.5) * expected
                    - expected * expected * np.float32(0.01))
    for mode in (cellgraph.GRAPH_MODE, cellgraph.PYNATIVE_MODE):
        cellgraph.set_context(mode=mode)
        out = f(Tensor(np.array(0.7, np.float32)))
        assert out.dtype == cellgraph.float32
        assert out.asnumpy() == expected, mode


def test_weak_python_numbers_take_the_arrays_dtype():
    """numpy_compat's weak operands (used on NumPy 1): a number of a kind the array's dtype
    holds takes that dtype; an int out of the dtype's range, or a float beside integers, stays
    as it is, for the kernel's own rule."""
    zero_d = np.array(0.7, np.float32)
    multiply = numpy_compat._weak_scalars(np.multiply)
    where = numpy_compat._weak_scalars(np.where, first=1)
    assert multiply(zero_d, 0.5).dtype == np.float32
    assert multiply(0.5, np.float32(3.0)) == np.float32(1.5)
    assert where(True, zero_d, 0.5).dtype == np.float32
    assert numpy_compat._weak_operand(300, np.dtype(np.uint8)) == 300
    assert type(numpy_compat._weak_operand(0.5, np.dtype(np.int32))) is float
    assert type(numpy_compat._weak_operand(3, np.dtype(np.int16))) is np.int16
    with np.errstate(over="raise"):
        assert np.isinf(numpy_compat._weak_operand(1e300, np.dtype(np.float32)))


def test_numpy_array_on_the_left_gives_an_ndarray_as_mindspore():
    """`ndarray - tensor` (and the other operators, a NumPy scalar or 0-d array on the left too)
    converts the Tensor and gives an ndarray, as MindSpore 2.10 does, so `np.all(out - expect)`
    works when `expect` is a Tensor; in a graph, NumPy constants still defer to graph values."""
    import cellgraph as cg

    t = cg.Tensor(np.array([1.0, 2.0], np.float32))
    a = np.ones(2, np.float32)
    for out, expected in ((a - t, [0.0, -1.0]), (a + t, [2.0, 3.0]), (a * t, [1.0, 2.0]),
                          (a < t, [False, True]), (a == t, [True, False]),
                          (np.float32(2) * t, [2.0, 4.0])):
        assert type(out) is np.ndarray
        np.testing.assert_array_equal(out, expected)
    assert np.all(a - t < 1e-4)

    class Net(cg.nn.Cell):
        def construct(self, x):
            return np.array([1.0, 2.0], np.float32) * x

    out = Net()(t)
    assert isinstance(out, cg.Tensor)
    np.testing.assert_array_equal(out.asnumpy(), [1.0, 4.0])
