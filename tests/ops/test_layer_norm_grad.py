"""G.LayerNormGrad: (dx, dgamma, dbeta) from the saved mean and variance for several norm and
params axes, as MindSpore 2.10 gives them (recorded below, to 4 places)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph.ops.operations import _grad_ops as G

EXPECTED = {'((2, 3, 4), 1, 1)': [[[[-0.8228, 0.3773, -0.5403, 1.2987], [1.798, -0.7367, -0.7879, -0.1251], [0.8924, -0.3204, -0.8389, -0.1944]], [[-0.0777, 0.2757, 0.577, -0.1164], [0.0008, -0.3224, -0.0639, -0.398], [0.937, 0.0226, -0.4356, -0.3991]]], [[-0.1031, 0.9282, -1.4825, -1.4435], [-1.1989, 0.3558, 0.0947, 1.2198], [1.6239, -0.3693, -0.0667, -0.2586]], [[0.7304, 1.2569, 1.0871, 1.6265], [0.8814, 0.8517, 0.9622, 0.8345], [1.1229, 1.2391, 0.2292, 0.7466]]], '((2, 3, 4), 2, 2)': [[[[-0.1414, 0.4478, 0.0297, -0.3361], [-1.3219, 1.6373, -0.4327, 0.1173], [-0.1825, 0.3243, 0.3707, -0.5125]], [[-0.2463, -0.3342, 0.5999, -0.0194], [-1.2083, -3.2252, 1.1442, 3.2894], [-1.1465, 0.8499, 0.307, -0.0104]]], [0.6852, -1.3912, 2.0821, -0.9404], [2.7874, 2.7773, 3.2874, 2.4837]], '((3, 5), 1, 1)': [[[-0.3828, 0.1795, 0.4652, -0.1373, -0.1246], [-0.9041, -1.1342, 1.5014, 0.9676, -0.4307], [-0.8271, 0.526, 0.0385, 0.7334, -0.4709]], [0.9133, -0.2035, 0.1685, -0.1476, -0.8944], [1.0902, 1.6106, 1.2915, 2.1054, 1.3707]], '((2, 3, 4), -1, -1)': [[[[0.0136, 0.0466, -0.0433, -0.0169], [-0.2038, -0.0004, 0.3085, -0.1043], [-0.1399, -0.0427, 0.4862, -0.3037]], [[-0.0543, 0.3214, 0.1027, -0.3697], [0.3033, -0.0636, -0.2344, -0.0052], [-0.1668, 0.171, 0.1792, -0.1834]]], [0.1981, 1.4134, -0.9667, -2.7594], [1.3477, 2.5606, 3.4384, 3.7487]]}


def test_as_mindspore():
    rng=np.random.RandomState(0)
    out={}
    for (shape, bn, bp) in [((2,3,4),1,1), ((2,3,4),2,2), ((3,5),1,1), ((2,3,4),-1,-1)]:
        x=rng.rand(*shape).astype(np.float32); dy=rng.rand(*shape).astype(np.float32)
        norm=tuple(range(bn % len(shape), len(shape)))
        g=rng.rand(*shape[bp % len(shape):]).astype(np.float32)
        mean=x.mean(axis=norm, keepdims=True); var=x.var(axis=norm, keepdims=True)
        r=G.LayerNormGrad(bn,bp)(ms.Tensor(x), ms.Tensor(dy), ms.Tensor(var), ms.Tensor(mean), ms.Tensor(g))
        out[str((shape,bn,bp))]=[np.asarray(t.asnumpy(),np.float64).round(4).tolist() for t in r]
    for key, want in EXPECTED.items():
        for got, expected in zip(out[key], want, strict=True):
            np.testing.assert_allclose(np.array(got), np.array(expected), atol=2e-4)


X = np.array([[0.42, 0.72, 0.0], [0.3, 0.15, 0.09]], np.float32)
DY = np.array([[0.19, 0.35, 0.4], [0.54, 0.42, 0.69]], np.float32)


# statistics that are not x's own, and begin_params_axis 0 (dgamma and dbeta unsummed):
# MindSpore 2.10's outputs, recorded to 6 places
@pytest.mark.parametrize("axes, mean, var, gamma, expected", [
    ((0, 0), [[0.2]], [[0.88]], [[0.03, 0.67, 0.42], [0.56, 0.14, 0.2]],
     [[[-0.158014, 0.079727, 0.023623], [0.160734, -0.095865, -0.010205]],
      [[0.044559, 0.194013, -0.08528], [0.057564, -0.022386, -0.08091]],
      [[0.19, 0.35, 0.4], [0.54, 0.42, 0.69]]]),
    ((1, 1), [[0.8], [0.97]], [[0.31], [0.69]], [0.88, 0.89, 0.09],
     [[[0.001215, 0.32832, -0.329536], [0.253887, 0.072534, -0.326421]],
      [-0.565231, -0.464898, -1.30572], [0.73, 0.77, 1.09]]),
    ((1, 0), [[0.04], [0.17]], [[0.88], [0.1]], [[0.42, 0.96, 0.53], [0.69, 0.32, 0.69]],
     [[[-0.142055, 0.100732, 0.041323], [0.132295, -0.608845, 0.47655]],
      [[0.076965, 0.253709, -0.017056], [0.221992, -0.026563, -0.174558]],
      [[0.19, 0.35, 0.4], [0.54, 0.42, 0.69]]]),
])
def test_given_statistics_and_unsummed_params(axes, mean, var, gamma, expected):
    args = (X, DY, np.array(var, np.float32), np.array(mean, np.float32),
            np.array(gamma, np.float32))
    outputs = G.LayerNormGrad(*axes)(*map(ms.Tensor, args))
    for got, want in zip(outputs, expected, strict=True):
        np.testing.assert_allclose(got.asnumpy(), np.array(want), atol=2e-6)


def test_vmap_with_params_axis_zero():
    """vmap over LayerNormGrad(0, 0): each example normalised over all its axes, its dgamma and
    dbeta of gamma's shape (MindSpore 2.10 gives the per-example results stacked)."""
    args = [np.stack([a, a * 0.5]) for a in (X, DY)]
    stats = [np.array([[[0.2]], [[0.3]]], np.float32), np.array([[[0.88]], [[0.5]]], np.float32)]
    gamma = np.stack([X + 0.1, DY])
    batched = ms.ops.vmap(G.LayerNormGrad(0, 0), in_axes=0)(
        *map(ms.Tensor, (*args, stats[1], stats[0], gamma)))
    for i in range(2):
        single = G.LayerNormGrad(0, 0)(*(ms.Tensor(a[i]) for a in
                                         (*args, stats[1], stats[0], gamma)))
        for got, want in zip(batched, single, strict=True):
            assert got.shape == (2, 2, 3)
            np.testing.assert_allclose(got.asnumpy()[i], want.asnumpy(), rtol=1e-6)
