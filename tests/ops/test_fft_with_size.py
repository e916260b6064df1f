"""`ops.FFTWithSize`: MindSpore 2.10's values for fft, ifft, rfft and irfft over 1 and 2 axes
(each norm, onesided and two-sided, an odd irfft length from signal_sizes) in a compiled Cell;
gradients against finite differences in float64; MindSpore's argument errors."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self, op):
        super().__init__()
        self.op = op

    def construct(self, x):
        return self.op(x)


XR = np.array([[1.5, -0.5, 2.0, 0.25, -1.0], [0.0, 3.0, -2.5, 1.0, 0.5]])
XC = np.array([[1 + 2j, -0.5 + 0j, 2 - 1j], [0.5j, 3 - 1j, -1.5 + 0.5j]])
INPUTS = {"rfft1": (XR, np.float64), "rfft2_ortho_f32": (XR, np.float32),
          "rfft1_twosided_forward": (XR, np.float64), "fft2_c64": (XC, np.complex64),
          "ifft1_forward": (XC, np.complex128), "irfft1": (XC, np.complex128),
          "irfft2_odd_ortho": (XC, np.complex128), "irfft1_twosided": (XC, np.complex64)}
# MindSpore 2.10 CPU, GRAPH_MODE: Net(ops.FFTWithSize(*args))(Tensor(x)), rounded to 6 places
EXPECTED = {
    'rfft1': ((1, False, True), 'complex128', [[(2.25-0j), (-0.783814-1.504152j), (3.408814+1.370456j)], [(2+0j), (2.295085-0.320393j), (-3.295085-4.798161j)]]),
    'rfft2_ortho_f32': ((2, False, True, 'ortho'), 'complex64', [[(1.3439680337905884-0j), (0.4779059886932373-0.5769720077514648j), (0.0359640009701252-1.083935022354126j)], [(0.0790570005774498+0j), (-0.9736329913139343-0.3743380010128021j), (2.1199591159820557+1.9506880044937134j)]]),
    'rfft1_twosided_forward': ((1, False, True, 'forward', False), 'complex128', [[(0.45-0j), (-0.156763-0.30083j), (0.681763+0.274091j), (0.681763-0.274091j), (-0.156763+0.30083j)], [(0.4+0j), (0.459017-0.064079j), (-0.659017-0.959632j), (-0.659017+0.959632j), (0.459017+0.064079j)]]),
    'fft2_c64': ((2, False, False), 'complex64', [[(4+1j), (-0.9330120086669922+1.5179489850997925j), (-0.06698700040578842+4.982049942016602j)], [(1+1j), (3.1650640964508057+7.8121771812438965j), (-1.1650639772415161-4.312178134918213j)]]),
    'ifft1_forward': ((1, True, False, 'forward'), 'complex128', [[(2.5+1j), (-0.616025+0.334936j), (1.116025+4.665064j)], [(1.5-0j), (0.549038+4.647114j), (-2.049038-3.147114j)]]),
    'irfft1': ((1, True, True), 'float64', [[0.5, -0.25, 1.0, -0.25], [1.125, 0.875, -1.875, -0.125]]),
    'irfft2_odd_ortho': ((2, True, True, 'ortho', True, (2, 5)), 'float64', [[2.213594, 1.336368, -0.794223, -0.936218, -0.238382], [0.316228, -2.202525, 1.517102, 4.065101, -2.114767]]),
    'irfft1_twosided': ((1, True, True, 'backward', False), 'float32', [[0.8333330154418945, -0.20534199476242065, 0.37200799584388733], [0.5, 0.18301300704479218, -0.6830130219459534]]),
}


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_values(case):
    args, dtype, expected = EXPECTED[case]
    x, in_dtype = INPUTS[case]
    out = Net(ops.FFTWithSize(*args))(Tensor(x.astype(in_dtype))).asnumpy()
    assert str(out.dtype) == dtype
    np.testing.assert_allclose(out, np.array(expected), rtol=1e-5, atol=2e-6)


def test_eager_matches_numpy_3d():
    x = np.arange(24, dtype=np.float64).reshape(1, 2, 3, 4)
    out = ops.FFTWithSize(3, False, True)(Tensor(x))
    np.testing.assert_allclose(out.asnumpy(), np.fft.rfftn(x, s=(2, 3, 4), axes=(1, 2, 3)), atol=1e-12)
    back = ops.FFTWithSize(3, True, True)(out)
    np.testing.assert_allclose(back.asnumpy(), x, atol=1e-12)


def _numeric_grad(f, x, h=1e-6):
    """d sum(Re f) / dx (the gradient for a cotangent of ones) by central differences; x real,
    or complex (d/dre + i d/dim)."""
    def total(v):
        return float(np.sum(f(Tensor(v)).asnumpy().real))
    grad = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        for unit in ((1.0, 1j) if np.iscomplexobj(x) else (1.0,)):
            bump = np.zeros_like(x)
            bump[idx] = h * unit
            grad[idx] += unit * (total(x + bump) - total(x - bump)) / (2 * h)
    return grad


@pytest.mark.parametrize("x, args", [
    (XR, (1, False, True)),
    (XR, (2, False, True, "ortho", False)),
    (XC, (2, False, False, "forward")),
    (XC, (1, True, True)),
    (XC, (2, True, True, "ortho", True, (2, 5))),
])
def test_gradient_matches_finite_differences(x, args):
    op = ops.FFTWithSize(*args)
    got = ops.grad(op)(Tensor(x)).asnumpy()
    np.testing.assert_allclose(got, _numeric_grad(op, x), rtol=1e-6, atol=1e-6)


def test_vmap_over_a_leading_axis():
    op = ops.FFTWithSize(1, False, True)
    out = ops.vmap(op, 1, 1)(Tensor(XR.T.copy()))
    np.testing.assert_allclose(out.asnumpy(), np.fft.rfft(XR.T, axis=0), atol=1e-12)


@pytest.mark.parametrize("x, args, error, message", [
    (np.ones((2, 1), np.complex64), (2, True, True), ValueError,
     "For 'FFTWithSize', the last dimension of the input cannot be 1, but got: 1"),
    (np.ones((2, 3), np.complex64), (1, True, True, "backward", True, (5, 5)), ValueError,
     "For 'FFTWithSize', signal_sizes is expected to be empty (default) or of signal_ndim=1D"),
    (np.ones((2, 3), np.complex64), (2, True, True, "backward", True, (3, 7)), ValueError,
     "For 'FFTWithSize', got invalid signal_sizes: [3, 7], a valid one should be [2, 4], "),
    (np.ones((2, 3), np.complex64), (1, True, True, "bad"), ValueError,
     "Failed to convert the value \"bad\" of input 'norm' of 'FFTWithSize' to enum."),
    (np.ones((2, 4), np.float32), (1, True, True), TypeError,
     ("For primitive[FFTWithSize], the input argument[x] in irfft mode must be a type of "
      "{Complex128, Complex64}, but got Float32.")),
])
def test_errors(x, args, error, message):
    with pytest.raises(error) as info:
        ops.FFTWithSize(*args)(Tensor(x))
    assert message in str(info.value)


def test_integer_input_gives_complex64():
    out = ops.FFTWithSize(1, False, True)(Tensor(np.arange(4, dtype=np.int32)))
    assert out.dtype == cg.complex64
    np.testing.assert_allclose(out.asnumpy(), np.fft.rfft(np.arange(4)), atol=1e-6)
