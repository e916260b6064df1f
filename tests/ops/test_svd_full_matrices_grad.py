"""The gradient of ops.svd with full_matrices=True: MindSpore 2.10's (TensorFlow's) rule for
the extra singular vectors where the sides differ by one, its RuntimeError beyond that."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops

# MindSpore 2.10's gradients (float64) of the loss below, for inputs from default_rng(3)
MINDSPORE = {
    (2, 3): [-0.855261, 1.94982, 0.067743, -0.955999, 0.971626, 1.107715],
    (3, 2): [-0.575679, -0.467446, -0.08961, -0.281229, 0.182533, 0.010546],
    (3, 3): [2.596426, -0.354479, -0.899763, 2.066577, -1.803794, 0.927411, -1.377719,
             0.72325, -3.810606],
    (2, 2, 3): [-0.705219, -1.623694, 1.488447, -0.773801, -1.043731, 1.84591, 0.853824,
                2.401767, 1.082962, -0.653039, -1.069262, 0.641009],
}


def test_full_matrices_gradient_as_mindspore():
    rng = np.random.default_rng(3)
    for shape, expected in MINDSPORE.items():
        a = Tensor(rng.standard_normal(shape))
        weights = [Tensor(rng.standard_normal(o.shape))
                   for o in ops.svd(a, full_matrices=True)]

        def loss(x, weights=weights):
            s, u, v = ops.svd(x, full_matrices=True)
            return ((s * weights[0]).sum() + (u.abs() * weights[1]).sum()
                    + (v.abs() * weights[2]).sum())

        np.testing.assert_allclose(ms.grad(loss)(a).asnumpy().ravel(), expected, atol=2e-6)


def test_full_matrices_gradient_refused_where_the_sides_differ_by_more_than_one():
    with pytest.raises(RuntimeError, match=r"not support for abs\(m - n\) > 1 with "
                                           "full_matrices is True"):
        ms.grad(lambda x: ops.svd(x, full_matrices=True)[1].sum())(Tensor(np.ones((2, 4))))
