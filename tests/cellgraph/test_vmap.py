"""vmap over a CellList (model ensembling): the i-th member of the batch runs with the i-th
cell's parameters, stacked along axis 0; gradients reach every cell's parameters."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.primitives.errors import ArgumentError, ShapeError


def _ensemble(n=3, dtype=ms.float32):
    ms.set_seed(0)
    return nn.CellList([nn.SequentialCell(nn.Dense(3, 4, dtype=dtype), nn.Tanh(),
                                          nn.Dense(4, 2, dtype=dtype)) for _ in range(n)])


def _x(*shape, seed=1):
    return Tensor(np.random.default_rng(seed).normal(size=shape))


def test_shared_input_and_mapped_inputs():
    nets = _ensemble(dtype=ms.float64)
    x = _x(5, 3)
    out = ops.vmap(nets, in_axes=None)(x)
    np.testing.assert_allclose(out.asnumpy(), np.stack([n(x).asnumpy() for n in nets]),
                               rtol=1e-12)
    xs = _x(3, 5, 3, seed=2)
    out = ops.vmap(nets, in_axes=0, out_axes=1)(xs)
    expected = np.stack([n(xs[i]).asnumpy() for i, n in enumerate(nets)], axis=1)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-12)


def test_gradients_reach_every_cell():
    nets = _ensemble(dtype=ms.float64)
    x = _x(5, 3)
    params = [p for n in nets for p in n.trainable_params()]
    grads = ms.grad(lambda t: ops.vmap(nets, in_axes=None)(t).sum(), None, params)(x)
    for k, net in enumerate(nets):
        own = ms.grad(lambda t, n=net: n(t).sum(), None, net.trainable_params())(x)
        for g, e in zip(grads[4 * k:4 * k + 4], own):
            np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-12)


def test_inside_construct():
    class Mean(nn.Cell):
        def __init__(self, members):
            super().__init__()
            self.members = members

        def construct(self, x):
            return ops.vmap(self.members, in_axes=None)(x).mean(0)

    nets = _ensemble()
    x = _x(2, 3).astype(ms.float32)
    np.testing.assert_allclose(Mean(nets)(x).asnumpy(),
                               np.mean([n(x).asnumpy() for n in nets], axis=0), rtol=1e-5)


def test_errors():
    with pytest.raises(ArgumentError, match=r"vmap: the cells of a CellList must have one "
                                            r"structure .* cell 1 \(Dense\) differs"):
        ops.vmap(nn.CellList([nn.Dense(3, 2), nn.Dense(3, 4)]), in_axes=None)(_x(1, 3))
    with pytest.raises(ShapeError, match="the CellList has 3 along axis 0, argument 0 has 4"):
        ops.vmap(_ensemble(), in_axes=0)(_x(4, 2, 3).astype(ms.float32))
