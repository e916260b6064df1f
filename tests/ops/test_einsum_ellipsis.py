"""ops.einsum and ops.Einsum with an ellipsis: each operand's '...' stands for the same axes
(MindSpore's Einsum infers that and raises ValueError otherwise), summed away when the output
leaves it out, first in an implicit output."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops

RNG = np.random.RandomState(0)


def _array(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("equation, shapes", [
    ("ij...,jk...,kl...,l...->i...", [(5, 5, 7), (5, 5, 7), (5, 5, 7), (5, 7)]),
    ("...j,j->...", [(3, 4), (4,)]),
    ("...ij,...jk->...ik", [(2, 3, 4, 5), (2, 3, 5, 6)]),
    ("i...->...", [(2, 3, 4)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("...j,...j", [(3, 4), (3, 4)]),
    ("b...c,bc->b...", [(2, 3, 4), (2, 4)]),
])
def test_einsum_ellipsis_numbers(equation, shapes):
    arrays = [_array(*s) for s in shapes]
    expected = np.einsum(equation, *arrays)
    got = ops.einsum(equation, *[Tensor(a) for a in arrays])
    assert got.shape == expected.shape
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-5, atol=1e-5)


def test_einsum_primitive_ellipsis_in_graph():
    # the Roe flux of MindFlow's CFD solver: eigenvector products per cell
    einsum = ops.Einsum("ij...,jk...,kl...,l...->i...")

    class Flux(ms.nn.Cell):
        def construct(self, r, e, left, d):
            return 0.5 * einsum((r, e, left, d))

    arrays = [_array(3, 3, 6), _array(3, 3, 6), _array(3, 3, 6), _array(3, 6)]
    got = ms.jit(Flux())(*[Tensor(a) for a in arrays])
    np.testing.assert_allclose(got.asnumpy(), 0.5 * np.einsum("ij...,jk...,kl...,l...->i...",
                                                              *arrays), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("equation, shapes", [
    ("b...,...->b...", [(2, 3, 1), (3, 4)]),      # no broadcasting between ellipses
    ("i...,i...->...", [(2, 3), (2, 3, 3)]),      # ellipses of different ranks
    ("ij...,j...->i...", [(2, 3, 4), (3, 5)]),
])
def test_einsum_ellipsis_of_different_axes_raises(equation, shapes):
    with pytest.raises(ValueError, match="the same ellipsis in equation can only represent "
                                         "the same dimension"):
        ops.einsum(equation, *[Tensor(_array(*s)) for s in shapes])
