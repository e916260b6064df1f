"""The Hurwitz zeta function (ops.zeta, ops.Zeta): values against closed forms and MindSpore
2.10, its poles and NaNs, its gradients (in q MindSpore's; in x the true derivative, where
MindSpore's is zero), and MindSpore's operand checks."""
import math

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations.math_ops import Zeta

ZETA3 = 1.2020569031595942


def _f64(values):
    return Tensor(np.asarray(values, np.float64))


def test_closed_forms_in_float64():
    x = _f64([2.0, 4.0, 2.0, 3.0, 6.0, 2.0])
    q = _f64([1.0, 1.0, 0.5, 2.0, 1.0, 25.5])
    want = [math.pi ** 2 / 6, math.pi ** 4 / 90, math.pi ** 2 / 2, ZETA3 - 1,
            math.pi ** 6 / 945, math.pi ** 2 / 2 - 4 * sum(1 / (2 * k + 1) ** 2 for k in range(25))]
    np.testing.assert_allclose(ops.zeta(x, q).asnumpy(), want, rtol=1e-13)


def test_values_poles_and_nans_match_mindspore():
    x = Tensor(np.float32([2.0, 3, 4.5, 1.0, 0.5, 2, 2]))
    q = Tensor(np.float32([1.0, 2, 0.5, 1, 1, -1.5, -2]))
    out = Zeta()(x, q)
    assert out.dtype == ms.float32
    # MindSpore 2.10 CPU
    np.testing.assert_allclose(out.asnumpy(), [1.644934, 0.20205691, 22.810602, np.inf, np.nan,
                                               9.379247, np.inf], rtol=1e-6)
    np.testing.assert_allclose(Zeta()(_f64([2.0]), _f64([-1.5])).asnumpy(), [9.37924664],
                               rtol=1e-8)


def test_gradients():
    x, q = Tensor(np.float32([2.0, 3, 4.5])), Tensor(np.float32([1.0, 2, 0.5]))
    dx, dq = ops.grad(lambda x, q: Zeta()(x, q), grad_position=(0, 1))(x, q)
    # the derivative in x, -sum_k log(q + k) (q + k)^-x (MindSpore's gradient here is 0):
    # zeta'(2) = -0.93754825..., mpmath's zeta(x, q, derivative=1) for the others
    np.testing.assert_allclose(dx.asnumpy(), [-0.9375482543, -0.1981262429, 15.5958071],
                               rtol=1e-6)
    # MindSpore 2.10 CPU
    np.testing.assert_allclose(dq.asnumpy(), [-2.40411401, -0.2469697, -204.166138], rtol=1e-6)
    x64, q64, h = np.array([2.0, 3.5, 5.0]), np.array([0.7, 2.0, 9.0]), 1e-6
    fd = (ops.zeta(_f64(x64), _f64(q64 + h)).asnumpy()
          - ops.zeta(_f64(x64), _f64(q64 - h)).asnumpy()) / (2 * h)
    dq = ops.grad(ops.zeta, grad_position=1)(_f64(x64), _f64(q64))
    np.testing.assert_allclose(dq.asnumpy(), fd, rtol=1e-7)


def test_operand_checks():
    f32 = Tensor(np.float32([1.0, 2.0]))
    with pytest.raises(TypeError, match=r"For primitive\[Zeta\], the input type must be same"):
        Zeta()(f32, Tensor(np.float64([1.0, 2.0])))
    with pytest.raises(TypeError, match=r"must be a type of \{Tensor\[Float32\], Tensor\[Float64\]"):
        Zeta()(Tensor(np.int32([1])), Tensor(np.int32([1])))
    with pytest.raises(ValueError, match=r"ZetaShape of x\(2\) are not consistent with the "
                                         r"shape q\(3\)"):
        Zeta()(f32, Tensor(np.float32([1.0, 2.0, 3.0])))


def test_functional_casts_numbers_and_broadcasts_as_mindspore():
    # MindSpore 2.10's values: ops.zeta casts a number to the Tensor operand's dtype and
    # broadcasts the operand of fewer elements; ops.Zeta does neither
    x = Tensor(np.array([2.0, 4.0], np.float32))
    out = ops.zeta(x, 1)
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), [1.64493, 1.08232], rtol=1e-5)
    np.testing.assert_allclose(ops.zeta(x, 2.5).asnumpy(), [0.49036, 0.03732], rtol=1e-4)
    out = ops.zeta(3, Tensor(np.array([1.0, 2.0])))
    assert out.dtype == ms.float64
    np.testing.assert_allclose(out.asnumpy(), [1.20206, 0.20206], atol=1e-5)
    out = ops.zeta(Tensor(np.array([2.0, 3.0, 4.0], np.float32)),
                   Tensor(np.array([1.0], np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [1.64493, 1.20206, 1.08232], rtol=1e-5)

    class Zeta(nn.Cell):
        def construct(self, a):
            return ops.zeta(a, 1)

    np.testing.assert_allclose(Zeta()(x).asnumpy(), [1.64493, 1.08232], rtol=1e-5)
    with pytest.raises(TypeError, match="at least one of the inputs should be Tensor"):
        ops.zeta(2, 1)
    with pytest.raises(TypeError, match="input type must be same"):
        ops.Zeta()(x, Tensor(np.array([1.0, 1.0])))
    with pytest.raises(TypeError, match=r"must be a type of \{Tensor\[Float32\], "
                                        r"Tensor\[Float64\]\}, but got Tensor\[Int32\]"):
        ops.zeta(Tensor(np.array([2, 3], np.int32)), 1)
