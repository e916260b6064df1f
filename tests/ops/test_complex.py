"""Complex numbers: dtypes and promotion, Tensors from Python/NumPy complex values, the complex
operations against NumPy, and gradients under MindSpore's convention (dL/dx + i dL/dy) against
finite differences along real and imaginary perturbations."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.common import dtype as mstype
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import DTypeError
from cellgraph.testing import check_grads, numerical_grad

_rng = np.random.default_rng(7)


def cnormal(shape=(2, 3)):
    return Tensor(_rng.standard_normal(shape) + 1j * _rng.standard_normal(shape))


def rnormal(shape=(2, 3)):
    return Tensor(_rng.standard_normal(shape))


@pytest.mark.parametrize("a, b, expected", [
    (dt.float32, dt.complex64, dt.complex64),
    (dt.float64, dt.complex64, dt.complex128),
    (dt.float16, dt.complex64, dt.complex64),
    (dt.int32, dt.complex64, dt.complex64),
    (dt.bool_, dt.complex128, dt.complex128),
    (dt.complex64, dt.complex128, dt.complex128),
])
def test_promotion_between_tensors(a, b, expected):
    assert dt.promote(a, b) == dt.promote(b, a) == expected


def test_python_complex_is_weak():
    x32, x64 = Tensor(np.ones(2, np.float32)), Tensor(np.ones(2))
    assert (x32 * 1j).dtype == ms.complex64
    assert (x64 * 1j).dtype == ms.complex128
    assert (Tensor(np.ones(2, np.int32)) + 2j).dtype == ms.complex64
    assert (Tensor(np.ones(2, np.complex64)) * 2.5).dtype == ms.complex64


def test_tensor_from_complex_values():
    assert Tensor(1 + 2j).dtype == ms.complex128  # NumPy's dtype for Python complex
    assert Tensor([1j, 2]).dtype == ms.complex128
    z = Tensor(np.asarray(1.3 + 0.4j), mstype.complex64)
    assert z.dtype == mstype.complex64 and z.asnumpy().dtype == np.complex64
    np.testing.assert_allclose(z.asnumpy(), np.complex64(1.3 + 0.4j))
    assert "[1.3+0.4j]" in repr(Tensor(np.asarray([1.3 + 0.4j])))
    assert mstype.complex_type == (mstype.complex64, mstype.complex128)
    assert mstype.dtype_to_pytype(mstype.complex64) is complex


def test_parts_angle_and_conj_match_numpy():
    z = np.array([[1.3 + 0.4j, -2 - 1j], [0.5j, -3.0]], np.complex64)
    t = Tensor(z)
    for op, ref in ((ops.real, np.real), (ops.imag, np.imag), (ops.conj, np.conj),
                    (ops.angle, np.angle), (ops.abs, np.abs)):
        out = op(t)
        np.testing.assert_allclose(out.asnumpy(), ref(z), rtol=1e-6)
        assert out.asnumpy().dtype == ref(z).dtype
    np.testing.assert_allclose(t.real().asnumpy(), z.real)
    np.testing.assert_allclose(t.imag().asnumpy(), z.imag)
    np.testing.assert_allclose(ops.Conj()(t).asnumpy(), np.conj(z))
    np.testing.assert_allclose(ops.Angle()(t).asnumpy(), np.angle(z), rtol=1e-6)


def test_real_tensors_through_the_part_ops():
    x = Tensor(np.array([0.5, -1.5], np.float32))
    assert ops.real(x) is x and ops.conj(x) is x
    np.testing.assert_array_equal(ops.imag(x).asnumpy(), [0, 0])
    assert ops.Imag()(x).dtype == ms.float32
    with pytest.raises(TypeError):
        ops.angle(x)


def test_complex_from_parts():
    re, im = np.array([1.0, -2.0], np.float32), np.array([0.5, 3.0], np.float32)
    out = ops.Complex()(Tensor(re), Tensor(im))
    assert out.dtype == ms.complex64
    np.testing.assert_array_equal(out.asnumpy(), re + 1j * im)
    both_inf = ops.complex(Tensor([np.inf]), Tensor([np.inf])).asnumpy()
    assert both_inf[0].real == np.inf and both_inf[0].imag == np.inf
    with pytest.raises(TypeError):
        ops.complex(Tensor([1], ms.int32), Tensor([2], ms.int32))
    with pytest.raises(DTypeError):
        ops.complex(Tensor([1.0], ms.float32), Tensor([2.0], ms.float64))


def test_reductions_and_norms():
    z = cnormal((2, 3))
    np.testing.assert_allclose(ops.norm(z).asnumpy(), np.linalg.norm(z.asnumpy()))
    np.testing.assert_allclose(ops.norm(z, 1, 1).asnumpy(), np.abs(z.asnumpy()).sum(1))
    np.testing.assert_allclose(ops.mean(z, 0).asnumpy(), z.asnumpy().mean(0))
    np.testing.assert_allclose(z.sum().asnumpy(), z.asnumpy().sum())
    check_grads(lambda a: ops.norm(a, dim=1), (z,), order=2)


def test_polar():
    magnitude, phase = np.array([1.0, 2.5], np.float32), np.array([0.3, -2.0], np.float32)
    out = ops.polar(Tensor(magnitude), Tensor(phase))
    assert out.dtype == ms.complex64
    np.testing.assert_allclose(out.asnumpy(), magnitude * np.exp(1j * phase), rtol=1e-6)
    check_grads(lambda r, t: ops.polar(r, t) ** 2, (rnormal(), rnormal()), order=2)


def test_views():
    z = np.array([[1 + 2j, 3 - 4j]], np.complex64)
    pairs = ops.view_as_real(Tensor(z))
    assert pairs.shape == (1, 2, 2) and pairs.dtype == ms.float32
    np.testing.assert_array_equal(pairs.asnumpy(), np.stack([z.real, z.imag], -1))
    np.testing.assert_array_equal(ops.view_as_complex(pairs).asnumpy(), z)
    with pytest.raises(ValueError):
        ops.view_as_complex(Tensor(np.ones((2, 3), np.float32)))


def test_graph_mode_arithmetic_matches_numpy():
    class Net(nn.Cell):
        def construct(self, x, y):
            z = ops.Complex()(x, y)
            return ops.abs(ops.exp(z) * z - 1j), ops.angle(z / (z + 2))

    x, y = _rng.standard_normal(4).astype(np.float32), _rng.standard_normal(4).astype(np.float32)
    z = x + 1j * y.astype(np.complex64)
    mag, ang = Net()(Tensor(x), Tensor(y))
    np.testing.assert_allclose(mag.asnumpy(), np.abs(np.exp(z) * z - 1j), rtol=1e-5)
    np.testing.assert_allclose(ang.asnumpy(), np.angle(z / (z + 2)), rtol=1e-5, atol=1e-6)


# ----- gradients --------------------------------------------------------------------------------

def test_convention_on_hand_derived_values():
    z = Tensor(np.asarray(1.3 + 0.4j, np.complex64))
    # L = Im(z): dL/dx + i dL/dy = i
    np.testing.assert_allclose(ms.grad(ops.imag)(z).asnumpy(), 1j)
    np.testing.assert_allclose(ms.grad(ops.real)(z).asnumpy(), 1)
    # real input, complex path: the gradient stays real
    x = Tensor(np.array([0.5, 0.6], np.float32))
    g = ms.grad(ops.imag)(x)
    assert g.dtype == ms.float32
    np.testing.assert_array_equal(g.asnumpy(), [0, 0])
    # a holomorphic f with a complex cotangent g gives g * conj(f'(z)) (MindSpore, PyTorch)
    w = np.complex64(0.3 - 2j)
    sens = Tensor(np.asarray(0.5 + 1j, np.complex64))
    grads = ops.GradOperation(sens_param=True)(lambda a: a * Tensor(w))(z, sens)
    np.testing.assert_allclose(grads.asnumpy(), (0.5 + 1j) * np.conj(w), rtol=1e-6)


HOLOMORPHIC = {
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / (b + 3),
    "exp": lambda a, b: ops.exp(a) + b,
    "sin_tanh": lambda a, b: ops.sin(a) * ops.tanh(b),
    "sqrt_log": lambda a, b: ops.sqrt(a * a + 4) + ops.log(b * b + 2),
    "square_sum": lambda a, b: (a * a).sum() * b,
    "matmul": lambda a, b: ops.matmul(a, b.T),
    "pow": lambda a, b: (a + 4) ** (b * 0.5),  # the base away from log's branch cut
}
NON_HOLOMORPHIC = {
    "abs": lambda a, b: ops.abs(a * b),
    "angle": lambda a, b: ops.angle(a + b),
    "conj": lambda a, b: ops.conj(a) * b,
    "real_imag": lambda a, b: ops.real(a * b) * ops.imag(a),
    "views": lambda a, b: ops.view_as_complex(ops.view_as_real(a) * 2) * b,
}


@pytest.mark.parametrize("name", sorted({**HOLOMORPHIC, **NON_HOLOMORPHIC}))
@pytest.mark.parametrize("order", [1, 2])
def test_complex_gradients_against_finite_differences(name, order):
    fn = {**HOLOMORPHIC, **NON_HOLOMORPHIC}[name]
    check_grads(fn, (cnormal(), cnormal()), order=order)


def test_mixed_real_and_complex_inputs():
    def fn(x, z):
        return ops.abs(ops.Complex()(x, x * 2) * z) + ops.real(z) * x

    check_grads(fn, (rnormal(), cnormal()), order=2)


def test_numerical_grad_matches_elementwise():
    z = cnormal((3,))
    fn = lambda a: ops.abs(ops.exp(a)) + ops.imag(a * a)
    (numeric,) = numerical_grad(fn, (z,))
    analytic = ms.grad(fn)(Tensor(z.asnumpy().astype(np.complex128)))
    np.testing.assert_allclose(analytic.asnumpy(), numeric, rtol=1e-6, atol=1e-8)


def test_complex_grad_in_a_graph_with_control_flow():
    class Net(nn.Cell):
        def construct(self, z):
            if ops.abs(z).sum() > 1:
                z = z * z
            return ops.abs(z)

    check_grads(Net(), (cnormal((3,)),), order=2)


def test_vmap_over_complex():
    z = cnormal((4, 3))
    out = ms.vmap(lambda a: ops.abs(ops.exp(a)).sum() + ops.angle(a))(z)
    ref = np.abs(np.exp(z.asnumpy())).sum(1, keepdims=True) + np.angle(z.asnumpy())
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-12)


def test_complex_values_have_no_order():
    z = cnormal((3,))
    for op in (ops.greater, ops.less_equal, ops.maximum, ops.minimum):
        with pytest.raises(TypeError):
            op(z, z)
    with pytest.raises(TypeError):
        ops.sort(z)
    np.testing.assert_array_equal(ops.equal(z, z).asnumpy(), [True] * 3)
