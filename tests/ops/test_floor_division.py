"""`//` and `%` on Tensors (FloorDiv, FloorMod): Python's rounding and signs, the operands' dtype,
and FloorMod's gradient."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.testing import check_grads

X = np.array([7, -7, 6, -9, 0], np.int32)
Y = np.array([2, 2, -4, -4, 3], np.int32)


def test_integer_floor_division_matches_python():
    q, r = Tensor(X) // Tensor(Y), Tensor(X) % Tensor(Y)
    np.testing.assert_array_equal(q.asnumpy(), X // Y)
    np.testing.assert_array_equal(r.asnumpy(), X % Y)
    assert q.asnumpy().dtype == np.int32 and r.asnumpy().dtype == np.int32


@pytest.mark.parametrize("scalar", [3, 2.5, -1.5])
def test_float_operands_and_python_scalars_on_either_side(scalar):
    x = np.array([2.5, -2.5, 7.0, -0.25])
    np.testing.assert_allclose((Tensor(x) // scalar).asnumpy(), x // scalar)
    np.testing.assert_allclose((Tensor(x) % scalar).asnumpy(), x % scalar)
    np.testing.assert_allclose((scalar // Tensor(x)).asnumpy(), scalar // x)
    np.testing.assert_allclose((scalar % Tensor(x)).asnumpy(), scalar % x)


def test_functional_and_class_forms():
    np.testing.assert_array_equal(ops.floor_div(Tensor(X), Tensor(Y)).asnumpy(), X // Y)
    np.testing.assert_array_equal(ops.FloorMod()(Tensor(X), Tensor(Y)).asnumpy(), X % Y)


class Remainders(nn.Cell):
    def construct(self, x, y):
        return (x % y) * x + (x // y) * y


def test_gradients_in_a_graph():
    # away from the jumps of floor(x / y)
    x, y = Tensor(np.array([2.5, -1.3, 4.1])), Tensor(np.array([0.7, 0.9, -1.7]))
    check_grads(Remainders(), (x, y), order=2)
    xs, ys = x.asnumpy(), y.asnumpy()
    np.testing.assert_allclose(Remainders()(x, y).asnumpy(),
                               (xs % ys) * xs + (xs // ys) * ys)


# MindSpore 2.10 CPU (PyNative and graph alike) on x = [7, -7, 0, 5], y = [0, 0, 0, 2]
A, B = [7, -7, 0, 5], [0, 0, 0, 2]
MS_BY_ZERO = {
    # dtype: (x // y, x % y) -- floor_divide/FloorDiv/floor_div and floor_mod/FloorMod alike
    "int8": ([127, -128, 0, 2], [0, 0, 0, 1]),
    "int16": ([32767, -32768, 0, 2], [0, 0, 0, 1]),
    "int32": ([2**31 - 1, -2**31, 0, 2], [-2**31, -2**31, -2**31, 1]),
    "int64": ([2**63 - 1, -2**63, 0, 2], [-2**63, -2**63, -2**63, 1]),
    "uint8": ([255, 255, 0, 2], [0, 0, 0, 1]),
}


def _by_zero_forms():
    return {
        "//": (lambda x, y: x // y, 0), "floor_divide": (ops.floor_divide, 0),
        "floor_div": (ops.floor_div, 0), "FloorDiv": (lambda x, y: ops.FloorDiv()(x, y), 0),
        "%": (lambda x, y: x % y, 1), "floor_mod": (ops.floor_mod, 1),
        "FloorMod": (lambda x, y: ops.FloorMod()(x, y), 1),
    }


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
@pytest.mark.parametrize("dtype", list(MS_BY_ZERO))
def test_integer_division_by_zero_gives_mindsporess_values(dtype, graph):
    import cellgraph

    x = Tensor(np.array(A).astype(dtype))
    y = Tensor(np.array(B).astype(dtype))
    for name, (fn, which) in _by_zero_forms().items():
        call = cellgraph.jit(fn) if graph else fn
        got = call(x, y).asnumpy()
        assert got.dtype == np.dtype(dtype), name
        np.testing.assert_array_equal(got, np.array(MS_BY_ZERO[dtype][which], dtype), name)
    # a Python 0 divisor: every element is divided by zero
    np.testing.assert_array_equal((x // 0).asnumpy(), np.array(
        [MS_BY_ZERO[dtype][0][0], MS_BY_ZERO[dtype][0][1], 0, MS_BY_ZERO[dtype][0][0]], dtype))
    # remainder and fmod leave an integer taken modulo 0 as it is
    for fn in (ops.remainder, ops.fmod):
        np.testing.assert_array_equal(fn(x, y).asnumpy(),
                                      np.array([7, -7, 0, 1]).astype(dtype))


@pytest.mark.parametrize("graph", [False, True], ids=["eager", "graph"])
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64])
def test_truncating_integer_division_by_zero(dtype, graph):
    """TruncateDiv and RealDiv (ops.tensor_div) of integers: rounded towards zero, and by zero
    the dtype's max for x > 0, its min for x < 0, 0 for x = 0 (MindSpore 2.10's values)."""
    import cellgraph

    info = np.iinfo(dtype)
    x = Tensor(np.array([5, -5, 0, 7, -7], dtype))
    y = Tensor(np.array([0, 0, 0, 2, 2], dtype))
    expected = [info.max, info.min, 0, 3, -3]
    for fn in (lambda a, b: ops.TruncateDiv()(a, b), ops.tensor_div, ops.truncate_div):
        got = (cellgraph.jit(fn) if graph else fn)(x, y).asnumpy()
        assert got.dtype == np.dtype(dtype)
        assert got.tolist() == expected
    assert ops.tensor_div(x, 0).asnumpy().tolist() == [info.max, info.min, 0, info.max,
                                                       info.min]


def test_float_division_by_zero_and_large_quotients():
    # MindSpore: [inf, -inf, nan, 2] and [nan, nan, nan, 1] in float32 and float64; the
    # quotient was once truncated through int64, which turned inf and 1e20 into -2**63
    for dtype in (np.float32, np.float64):
        x, y = Tensor(np.array(A, dtype)), Tensor(np.array(B, dtype))
        np.testing.assert_array_equal((x // y).asnumpy(), np.array([np.inf, -np.inf, np.nan, 2]))
        np.testing.assert_array_equal((x % y).asnumpy(), np.array([np.nan, np.nan, np.nan, 1]))
        np.testing.assert_array_equal(ops.remainder(x, y).asnumpy(),
                                      np.array([np.nan, np.nan, np.nan, 1]))
    big = Tensor(np.array([1e20, -1e20]))
    np.testing.assert_array_equal((big // 1.0).asnumpy(), [1e20, -1e20])


@pytest.mark.parametrize("name, int_by_bool, bool_by_int", [
    ("TruncateDiv", [1, 4, -3], [1, 0, 0]),
    ("TruncateMod", [0, 0, 0], [0, 1, 1]),
    ("FloorDiv", [1, 4, -3], [1, 0, -1]),
    ("FloorMod", [0, 0, 0], [0, 1, -2]),
    ("Mod", [0, 0, 0], [0, 1, 1]),
])
def test_a_bool_operand_takes_the_other_operands_dtype(name, int_by_bool, bool_by_int):
    # values recorded from MindSpore 2.10 (CPU): the bool converts to int32, the result int32
    x = Tensor(np.array([1, 4, -3], np.int32))
    flag = Tensor(np.array([True]))
    op = getattr(ops, name)()
    for out, expected in ((op(x, flag), int_by_bool), (op(flag, x), bool_by_int)):
        assert out.dtype == ms.int32
        assert out.asnumpy().tolist() == expected
    if name != "FloorDiv":  # two bools: MindSpore's TypeError (its FloorDiv gives a bool)
        with pytest.raises(TypeError):
            op(flag, flag)
