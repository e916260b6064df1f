"""Primitive classes over compositions (ops.ReLU6 ... ops.FastGeLU): on the same operands, the
values and dtypes MindSpore 2.10 (CPU) gives (recorded below, rounded to 5 places)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph.ops import operations as P


def T(a, dt=np.float32):
    return ms.Tensor(np.asarray(a, dt))


x = T([[-2.5, -0.5, 0.0], [0.5, 1.5, 7.0]]); y = T([[2.0, -1.5, 3.0], [0.0, -2.0, 4.0]])
xi = T([[-7, -3, 0], [3, 7, 9]], np.int32); yi = T([[2, 2, 5], [-2, 3, 4]], np.int32)
m = T(np.arange(12).reshape(3, 4) - 5.0)

CASES = {
 "ReLU6": lambda: P.ReLU6()(T([[-1.0, 3.0, 7.0]])),
 "PReLU": lambda: P.PReLU()(T(np.arange(-6, 6).reshape(1, 3, 2, 2)), T([0.1, 0.2, 0.3])),
 "SeLU": lambda: P.SeLU()(x),
 "Xlogy": lambda: P.Xlogy()(x, T(np.abs(y.asnumpy()) + 0.5)),
 "Mish": lambda: P.Mish()(x),
 "Softsign": lambda: P.Softsign()(x),
 "LogicalXor": lambda: P.LogicalXor()(T([True, False, True], np.bool_), T([True, True, False], np.bool_)),
 "Heaviside": lambda: P.Heaviside()(x, T([[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]])),
 "Hypot": lambda: P.Hypot()(x, y),
 "Lerp": lambda: P.Lerp()(x, y, T(0.25)),
 "Diag": lambda: P.Diag()(T([1.0, 2.0, 3.0])),
 "Trace": lambda: P.Trace()(m),
 "NonZero": lambda: P.NonZero()(x),
 "HSigmoid": lambda: P.HSigmoid()(T([[-4.0, -1.0, 0.0, 1.0, 4.0]])),
 "Tril": lambda: P.Tril(1)(m),
 "Triu": lambda: P.Triu(-1)(m),
 "Meshgrid": lambda: P.Meshgrid("ij")((T([1.0, 2.0]), T([3.0, 4.0, 5.0]))),
 "CumProd": lambda: P.CumProd(exclusive=True, reverse=True)(m + 6, 1),
 "CeLU": lambda: P.CeLU(2.0)(x),
 "InTopK": lambda: P.InTopK(2)(m, T([0, 3, 2], np.int32)),
 "SmoothL1Loss": lambda: P.SmoothL1Loss(beta=0.5)(x, y),
 "SearchSorted": lambda: P.SearchSorted(right=True)(T([1.0, 2.0, 3.0, 3.0, 5.0]), T([3.0, 0.0, 6.0])),
 "SquaredDifference": lambda: P.SquaredDifference()(x, y),
 "Xdivy": lambda: P.Xdivy()(x, T(np.where(y.asnumpy() == 0, 2.0, y.asnumpy()))),
 "DivNoNan": lambda: P.DivNoNan()(x, y),
 "TruncateDiv": lambda: P.TruncateDiv()(xi, yi),
 "TruncateMod": lambda: P.TruncateMod()(xi, yi),
 "Mod": lambda: P.Mod()(xi, yi),
 "ModF": lambda: P.Mod()(x, T([[2.0, 2.0, 2.0], [-2.0, -2.0, 2.0]])),
 "Rint": lambda: P.Rint()(T([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.6])),
 "SquareSumAll": lambda: P.SquareSumAll()(x, y),
 "Addcdiv": lambda: P.Addcdiv()(x, y, T(np.abs(x.asnumpy()) + 1), T(0.5)),
 "EqualCount": lambda: P.EqualCount()(T([1.0, 2.0, 3.0]), T([1.0, 0.0, 3.0])),
 "Ger": lambda: P.Ger()(T([1.0, 2.0]), T([3.0, 4.0, 5.0])),
 "FastGeLU": lambda: P.FastGeLU()(x),
}
EXPECTED = {
    'ReLU6': [['Float32', [[0.0, 3.0, 6.0]]]],
    'PReLU': [['Float32', [[[[-0.6, -0.5], [-0.4, -0.3]], [[-0.4, -0.2], [0.0, 1.0]], [[2.0, 3.0], [4.0, 5.0]]]]]],
    'SeLU': [['Float32', [[-1.61379, -0.69176, 0.0], [0.52535, 1.57605, 7.35491]]]],
    'Xlogy': [['Float32', [[-2.29073, -0.34657, 0.0], [-0.34657, 1.37444, 10.52854]]]],
    'Mish': [['Float32', [[-0.19682, -0.22074, 0.0], [0.37525, 1.40338, 6.99999]]]],
    'Softsign': [['Float32', [[-0.71429, -0.33333, 0.0], [0.33333, 0.6, 0.875]]]],
    'LogicalXor': [['Bool', [0.0, 1.0, 1.0]]],
    'Heaviside': [['Float32', [[0.0, 0.0, 0.5], [1.0, 1.0, 1.0]]]],
    'Hypot': [['Float32', [[3.20156, 1.58114, 3.0], [0.5, 2.5, 8.06226]]]],
    'Lerp': [['Float32', [[-1.375, -0.75, 0.75], [0.375, 0.625, 6.25]]]],
    'Diag': [['Float32', [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]]]],
    'Trace': [['Float32', 0.0]],
    'NonZero': [['Int64', [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [1.0, 2.0]]]],
    'HSigmoid': [['Float32', [[0.0, 0.33333, 0.5, 0.66667, 1.0]]]],
    'Tril': [['Float32', [[-5.0, -4.0, 0.0, 0.0], [-1.0, 0.0, 1.0, 0.0], [3.0, 4.0, 5.0, 6.0]]]],
    'Triu': [['Float32', [[-5.0, -4.0, -3.0, -2.0], [-1.0, 0.0, 1.0, 2.0], [0.0, 4.0, 5.0, 6.0]]]],
    'Meshgrid': [['Float32', [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]]], ['Float32', [[3.0, 4.0, 5.0], [3.0, 4.0, 5.0]]]],
    'CumProd': [['Float32', [[24.0, 12.0, 4.0, 1.0], [336.0, 56.0, 8.0, 1.0], [1320.0, 132.0, 12.0, 1.0]]]],
    'CeLU': [['Float32', [[-1.42699, -0.4424, 0.0], [0.5, 1.5, 7.0]]]],
    'InTopK': [['Bool', [0.0, 1.0, 1.0]]],
    'SmoothL1Loss': [['Float32', [[4.25, 0.75, 2.75], [0.25, 3.25, 2.75]]]],
    'SearchSorted': [['Int64', [4.0, 0.0, 5.0]]],
    'SquaredDifference': [['Float32', [[20.25, 1.0, 9.0], [0.25, 12.25, 9.0]]]],
    'Xdivy': [['Float32', [[-1.25, 0.33333, 0.0], [0.25, -0.75, 1.75]]]],
    'DivNoNan': [['Float32', [[-1.25, 0.33333, 0.0], [0.0, -0.75, 1.75]]]],
    'TruncateDiv': [['Int32', [[-3.0, -1.0, 0.0], [-1.0, 2.0, 2.0]]]],
    'TruncateMod': [['Int32', [[-1.0, -1.0, 0.0], [1.0, 1.0, 1.0]]]],
    'Mod': [['Int32', [[-1.0, -1.0, 0.0], [1.0, 1.0, 1.0]]]],
    'ModF': [['Float32', [[-0.5, -0.5, 0.0], [0.5, 1.5, 1.0]]]],
    'Rint': [['Float32', [-2.0, -2.0, -0.0, 0.0, 2.0, 2.0, 3.0]]],
    'SquareSumAll': [['Float32', 58.0], ['Float32', 35.25]],
    'Addcdiv': [['Float32', [[-2.21429, -1.0, 1.5], [0.5, 1.1, 7.25]]]],
    'EqualCount': [['Float32', [2.0]]],
    'Ger': [['Float32', [[3.0, 4.0, 5.0], [6.0, 8.0, 10.0]]]],
    'FastGeLU': [['Float32', [[-0.03499, -0.14961, 0.0], [0.35039, 1.39166, 6.99995]]]],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_class_as_mindspore(name):
    got = CASES[name]()
    got = got if isinstance(got, (tuple, list)) else (got,)
    assert len(got) == len(EXPECTED[name])
    for value, (dtype, want) in zip(got, EXPECTED[name]):
        assert str(value.dtype) == dtype
        np.testing.assert_allclose(value.asnumpy().astype(np.float64), np.array(want),
                                   rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("a, b, error, message", [
    # MindSpore 2.10's errors (its infer checks)
    (T([1, 2, 4], np.float16), T([0, 1, -1]), TypeError, "the input type must be same"),
    (T([1, 2, 4], np.float64), T([0, 1, -1], np.float64), TypeError,
     r"the input argument\[x\] must be a type of \{Tensor\[Float16\], Tensor\[Float32\]\}"),
    (xi, yi, TypeError, r"the input .*but got Tensor\[Int32\]"),
    (T([1, 2, 4]), T([0, 1]), ValueError, "the x: .*3.* must be equal to .*2"),
])
def test_square_sum_all_checks_its_operands(a, b, error, message):
    with pytest.raises(error, match=r"For primitive\[SquareSumAll\], " + message):
        P.SquareSumAll()(a, b)


class _PReLU(ms.nn.Cell):
    def construct(self, x, w):
        return P.PReLU()(x, w)


@pytest.mark.parametrize("x, w, out, dx, dw", [
    # MindSpore 2.10: the value and the gradients in x and the weight; at 0, dx is the weight
    (-0.8, [0.6], -0.48, 0.6, [-0.8]),
    ([-1.0, 0.0, 2.0], [0.6], [-0.6, 0.0, 2.0], [0.6, 0.6, 1.0], [-1.0]),
    (np.arange(-3.0, 3.0).reshape(1, 2, 3), [0.5, 0.25], [[[-1.5, -1.0, -0.5], [0, 1, 2]]],
     [[[0.5, 0.5, 0.5], [0.25, 1.0, 1.0]]], [-6.0, 0.0]),
])
def test_prelu_values_shapes_and_gradients(x, w, out, dx, dw):
    x, w = T(x), T(w)
    y = _PReLU()(x, w)
    gx, gw = ms.ops.GradOperation(get_all=True)(_PReLU())(x, w)
    assert y.shape == x.shape and gx.shape == x.shape and gw.shape == w.shape
    np.testing.assert_allclose(y.asnumpy(), out, rtol=1e-6)
    np.testing.assert_allclose(gx.asnumpy(), dx, rtol=1e-6)
    np.testing.assert_allclose(gw.asnumpy(), dw, rtol=1e-6)
