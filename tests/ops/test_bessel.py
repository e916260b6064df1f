"""The Bessel functions of order 0 and 1 against the values MindSpore 2.10 gives, their
derivatives against finite differences at orders 1 and 2, and MindSpore's dtype and domain
rules."""
import numpy as np
import pytest

from cellgraph import Tensor, jit, ops
from cellgraph.ops.operations.math_ops import BesselI1, BesselJ1
from cellgraph.testing import check_grads

X = np.array([-2.0, 0.0, 1e-3, 0.7, 8.0, 25.0, 30.0, 100.0])

# MindSpore 2.10's float64 results at X
EXPECTED = {
    "bessel_i0": [2.27958530e+00, 1.0, 1.00000025e+00, 1.12630302e+00, 4.27564116e+02,
                  5.77456061e+09, 7.81672298e+11, 1.07375171e+42],
    "bessel_i0e": [0.30850832, 1.0, 0.99900075, 0.55930553, 0.14343178, 0.08019677,
                   0.07314595, 0.03994438],
    "bessel_i1": [-1.59063685e+00, 0.0, 5.00000063e-04, 3.71879678e-01, 3.99873137e+02,
                  5.65786513e+09, 7.68532039e+11, 1.06836939e+42],
    "bessel_i1e": [-0.21526929, 0.0, 4.995003124e-04, 0.18466998, 0.13414249, 0.07857611,
                   0.07191633, 0.03974415],
    "bessel_j0": [0.22389078, 1.0, 0.99999975, 0.88120089, 0.17165081, 0.09626678,
                  -0.08636798, 0.01998585],
    "bessel_j1": [-5.76724808e-01, 0.0, 4.99999938e-04, 3.28995742e-01, 2.34636347e-01,
                  -1.25350250e-01, -1.18751063e-01, -7.71453520e-02],
    "bessel_y0": [-np.inf, -np.inf, -4.47141661, -0.19066493, 0.22352149, -0.12724943,
                  -0.11729573, -0.07724431],
    "bessel_y1": [-np.inf, -np.inf, -6.36622167e+02, -1.10324987e+00, -1.58060462e-01,
                  -9.88299648e-02, 8.44255707e-02, -2.03723120e-02],
    "bessel_k0": [np.inf, np.inf, 7.02368880e+00, 6.60519860e-01, 1.46470705e-04,
                  3.46416156e-12, 2.13247750e-14, 4.65662823e-45],
    "bessel_k0e": [np.inf, np.inf, 7.030716, 1.33012366, 0.43662302, 0.2494366, 0.22788667,
                   0.12517562],
    "bessel_k1": [np.inf, np.inf, 9.99996238e+02, 1.05028354e+00, 1.55369212e-04,
                  3.53277807e-12, 2.16773200e-14, 4.67985374e-45],
    "bessel_k1e": [np.inf, np.inf, 1.00099673e+03, 2.11501131e+00, 4.63149093e-01,
                   2.54377330e-01, 2.31654129e-01, 1.25799950e-01],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_values_match_mindspore_eager_and_in_a_graph(name):
    fn = getattr(ops, name)
    for out in (fn(Tensor(X)), jit(fn)(Tensor(X))):
        np.testing.assert_allclose(out.asnumpy(), EXPECTED[name], rtol=2e-7, atol=1e-12)
    single = fn(Tensor(X[:6].astype(np.float32)))
    assert single.dtype == Tensor(X[:6].astype(np.float32)).dtype


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_derivatives_to_order_two(name):
    fn = getattr(ops, name)
    points = np.array([0.3, 0.9, 2.5, 7.0]) * (-1 if name[-2] in "ij" or name[-3] in "ij"
                                                 else 1)
    check_grads(fn, (Tensor(points),), order=2)


def test_odd_functions_have_slope_one_half_at_zero():
    for fn in (ops.bessel_j1, ops.bessel_i1, ops.bessel_i1e):
        grad = ops.grad(fn)(Tensor(np.array([0.0, 0.0])))
        np.testing.assert_array_equal(grad.asnumpy(), [0.5, 0.5])


def test_classes_and_integer_inputs():
    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(BesselI1()(x).asnumpy(), [0.5651591, 1.5906368], rtol=1e-6)
    np.testing.assert_allclose(BesselJ1()(x).asnumpy(), [0.4400506, 0.5767248], rtol=1e-6)
    with pytest.raises(TypeError, match="float"):
        ops.bessel_j0(Tensor(np.array([1, 2], np.int32)))
