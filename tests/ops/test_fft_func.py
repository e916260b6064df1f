"""`ops.fft` and its family: values against NumPy's transforms (every norm, cut and padded
sizes, chosen axes) and MindSpore 2.10's for the Hermitian n-D forms NumPy lacks, MindSpore's
dtype rules and errors, Tensor-valued sizes in a compiled Cell, and gradients against finite
differences in float64 (first order, and second order through a squared magnitude)."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, mutable, nn, ops
from tests.ops.test_fft_with_size import _numeric_grad

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4, 5))
XC = X + 1j * RNG.standard_normal((3, 4, 5))
NORMS = [None, "backward", "forward", "ortho"]


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("n, dim", [(None, -1), (3, 0), (8, 1)])
def test_one_axis_matches_numpy(name, norm, n, dim):
    x = X if name in ("rfft", "ihfft") else XC
    got = getattr(ops, name)(Tensor(x), n=n, dim=dim, norm=norm).asnumpy()
    want = getattr(np.fft, name)(x, n=n, axis=dim, norm=norm)
    np.testing.assert_allclose(got, want, atol=1e-10)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn", "rfftn",
                                  "irfftn"])
@pytest.mark.parametrize("s, dim", [(None, None), ((2, 6), None), ((3, 4), (0, 2)),
                                    (None, (2, 0))])
def test_many_axes_match_numpy(name, norm, s, dim):
    x = X if name.startswith("rfft") else XC
    kwargs = {k: v for k, v in (("s", s), ("dim", dim)) if v is not None}
    got = getattr(ops, name)(Tensor(x), norm=norm, **kwargs).asnumpy()
    if "dim" in kwargs:
        kwargs["axes"] = kwargs.pop("dim")
    elif s is not None:
        kwargs["axes"] = tuple(range(-len(s), 0))  # ours without `dim`, NumPy's old default
    want = getattr(np.fft, name)(x, norm=norm, **kwargs)
    np.testing.assert_allclose(got, want, atol=1e-10)


XH = np.array([[1 + 2j, -0.5 + 0j, 2 - 1j], [0.5j, 3 - 1j, -1.5 + 0.5j]])
XR = np.array([[1.5, -0.5, 2.0, 0.25, -1.0], [0.0, 3.0, -2.5, 1.0, 0.5]])
# MindSpore 2.10 CPU, rounded to 6 places
HERMITIAN = {
    "hfft2": ((XH, {}), [[6.5, -1.5, -3.5, 2.5], [-2.5, -0.5, 11.5, -4.5]]),
    "hfftn": ((XH, {"s": (2, 5), "norm": "ortho"}),
              [[2.213594, -0.238382, -0.936218, -0.794223, 1.336368],
               [0.316228, -2.114767, 4.065101, 1.517102, -2.202525]]),
    "ihfft2": ((XR, {}), [[0.425, 0.151127 + 0.182455j, 0.011373 + 0.34277j],
                          [0.025, -0.30789 + 0.118376j, 0.67039 - 0.616862j]]),
    "ihfftn": ((XR, {"dim": (0, 1), "norm": "forward"}),
               [[4.25, 1.511271 + 1.824545j, 0.113729 + 3.427705j],
                [0.25, -3.078899 + 1.18376j, 6.703899 - 6.168617j]]),
}


@pytest.mark.parametrize("name", sorted(HERMITIAN))
def test_hermitian_many_axes_match_mindspore(name):
    (x, kwargs), want = HERMITIAN[name]
    np.testing.assert_allclose(getattr(ops, name)(Tensor(x), **kwargs).asnumpy(), want,
                               atol=2e-6)


@pytest.mark.parametrize("dtype, complex_out, real_out", [
    (np.float32, cg.complex64, cg.float32), (np.float64, cg.complex128, cg.float64),
    (np.int32, cg.complex64, cg.float32), (np.float16, cg.complex64, cg.float32),
    (np.complex64, cg.complex64, cg.float32)])
def test_dtypes_as_mindspore(dtype, complex_out, real_out):
    x = Tensor(np.arange(12).reshape(3, 4).astype(dtype))
    for name in ("fft", "ifft", "rfft", "ihfft", "fft2", "rfftn", "ihfftn"):
        assert getattr(ops, name)(x).dtype == complex_out, name
    for name in ("irfft", "hfft", "irfft2", "hfftn"):
        out = getattr(ops, name)(x)
        assert out.dtype == real_out and out.shape == (3, 6), name
    assert ops.fftshift(x).dtype == x.dtype


def test_shifts_and_frequencies():
    x = np.arange(15.0).reshape(3, 5)
    for dim in (None, 0, (1,), (0, -1)):
        axes = dim if dim is None or isinstance(dim, tuple) else (dim,)
        np.testing.assert_array_equal(ops.fftshift(Tensor(x), dim).asnumpy(),
                                      np.fft.fftshift(x, axes))
        np.testing.assert_array_equal(ops.ifftshift(Tensor(x), dim).asnumpy(),
                                      np.fft.ifftshift(x, axes))
    np.testing.assert_allclose(ops.fftfreq(7, 0.5).asnumpy(), np.fft.fftfreq(7, 0.5), rtol=1e-6)
    assert ops.fftfreq(5).dtype == cg.float32
    assert ops.rfftfreq(6, dtype=cg.float64).dtype == cg.float64
    np.testing.assert_allclose(ops.rfftfreq(6).asnumpy(), np.fft.rfftfreq(6), rtol=1e-6)


class Sized(nn.Cell):
    def construct(self, x, n, dim):
        return ops.rfft(x, n, dim)


def test_sizes_passed_as_mutable_numbers_in_a_graph():
    out = Sized()(Tensor(X), mutable(8), mutable(1))
    np.testing.assert_allclose(out.asnumpy(), np.fft.rfft(X, 8, axis=1), atol=1e-10)


@pytest.mark.parametrize("name, x, kwargs", [
    ("fft", XC, {"n": 7, "norm": "ortho"}),
    ("rfft", X, {"dim": 1}),
    ("irfft", XC, {"n": 6}),
    ("hfft", XC, {}),
    ("ihfft", X, {"n": 4}),
    ("rfftn", X, {"s": (2, 3), "dim": (0, 2)}),
    ("hfftn", XC, {"norm": "forward"}),
])
def test_gradient_matches_finite_differences(name, x, kwargs):
    x = x[:2, :2]
    op = lambda v: getattr(ops, name)(v, **kwargs)
    np.testing.assert_allclose(ops.grad(op)(Tensor(x)).asnumpy(), _numeric_grad(op, x),
                               rtol=1e-6, atol=1e-6)


def test_second_derivative_through_a_squared_magnitude():
    x = X[0, 0, :4]
    energy = lambda v: ops.abs(ops.rfft(v)) ** 2
    first = lambda v: ops.grad(lambda u: ops.sum(energy(u)))(v)
    # sum |rfft(x)|^2 is a quadratic form x^T A x: its Hessian A, column by column
    hess = np.stack([_numeric_grad(lambda v, i=i: first(v)[i], x) for i in range(x.size)])
    got = ops.grad(lambda v: ops.sum(first(v) * Tensor(np.arange(1.0, 1 + x.size))))(Tensor(x))
    np.testing.assert_allclose(got.asnumpy(), hess.T @ np.arange(1.0, 1 + x.size), rtol=1e-5)


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.fft(Tensor(X), n=0), ValueError, "the argument[n] must be greater than 0"),
    (lambda: ops.fft(Tensor(X), dim=5), ValueError, "the dim must be in [-3,3), but got 5"),
    (lambda: ops.fft(Tensor(X), norm="xx"), ValueError,
     "Failed to convert the value \"xx\" of input 'norm' of 'FFT' to enum."),
    (lambda: ops.fft2(Tensor(X), s=(2,)), ValueError, "dim and s arguments must have the same"),
    (lambda: ops.fftn(Tensor(X), dim=(0, 0)), ValueError, "The dims must be unique."),
    (lambda: ops.fft(Tensor(np.float32(1))), ValueError, "the rank of input must be in [1,8]"),
    (lambda: ops.fft(Tensor(X), n=2.0), TypeError, "the argument[n] must be an int"),
    (lambda: ops.fft([1.0, 2.0]), TypeError, "Failed calling FFT"),
    (lambda: ops.fft(Tensor(np.ones(3, np.bool_))), TypeError, "but got Bool"),
])
def test_errors(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


def test_primitive_classes_take_every_argument():
    from cellgraph.ops import auto_generate as P

    x = Tensor(X)
    np.testing.assert_allclose(P.RFFT()(x, 6, 1, "ortho").asnumpy(),
                               np.fft.rfft(X, 6, axis=1, norm="ortho"), atol=1e-10)
    np.testing.assert_allclose(P.IFFTN()(x, (2, 3), (0, 2), None).asnumpy(),
                               np.fft.ifftn(X, (2, 3), axes=(0, 2)), atol=1e-10)
    np.testing.assert_array_equal(P.IFFTShift()(x, (1,)).asnumpy(), np.fft.ifftshift(X, 1))
