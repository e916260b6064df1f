"""vmap as the MindSpore tutorial uses it beyond per-example gradients: nested in_axes over
tuples, several outputs with their own out_axes, vmap of vmap (pairwise distances), vmap of a
jit function, and model ensembling by vmapping a CellList of same-shaped networks."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops


def test_nested_in_axes_and_several_outputs():
    def affine(inputs, scale):
        x, shift = inputs
        return x * scale + shift, (x * scale).sum()

    x = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
    shift = Tensor(np.array([1.0, 2.0, 3.0, 4.0], np.float32))
    scale = Tensor(np.array([2.0, 3.0, 4.0], np.float32))
    out, total = ops.vmap(affine, in_axes=((0, None), 0), out_axes=(1, 0))((x, shift), scale)
    xn = x.asnumpy()
    expected = xn * scale.asnumpy()[:, None] + shift.asnumpy()
    np.testing.assert_allclose(out.asnumpy(), expected.T)
    np.testing.assert_allclose(total.asnumpy(), (xn * scale.asnumpy()[:, None]).sum(1))


def test_vmap_of_vmap_pairwise_distances():
    def dist(a, b):
        return ops.sqrt(((a - b) ** 2).sum())

    pairwise = ops.vmap(ops.vmap(dist, in_axes=(None, 0)), in_axes=(0, None))
    rng = np.random.default_rng(0)
    a = rng.normal(size=(4, 3)).astype(np.float32)
    b = rng.normal(size=(5, 3)).astype(np.float32)
    expected = np.sqrt(((a[:, None] - b[None]) ** 2).sum(-1))
    np.testing.assert_allclose(pairwise(Tensor(a), Tensor(b)).asnumpy(), expected, rtol=1e-5)

    @ms.jit
    def jit_dist(p, q):
        return dist(p, q)

    np.testing.assert_allclose(ops.vmap(jit_dist, in_axes=(0, 0))(Tensor(a[:3]),
                                                                  Tensor(b[:3])).asnumpy(),
                               expected[[0, 1, 2], [0, 1, 2]], rtol=1e-5)


def test_model_ensembling_with_a_cell_list():
    ms.set_seed(0)
    nets = nn.CellList([nn.SequentialCell(nn.Dense(3, 4), nn.Tanh(), nn.Dense(4, 2))
                        for _ in range(3)])
    x = Tensor(np.random.default_rng(1).normal(size=(5, 3)).astype(np.float32))
    ensemble = ops.vmap(nets, in_axes=None)
    out = ensemble(x)
    assert out.shape == (3, 5, 2)
    for i, net in enumerate(nets):
        np.testing.assert_allclose(out.asnumpy()[i], net(x).asnumpy(), rtol=1e-5, atol=1e-6)
    batches = Tensor(np.random.default_rng(2).normal(size=(3, 5, 3)).astype(np.float32))
    per_model = ops.vmap(nets, in_axes=0)(batches)
    np.testing.assert_allclose(per_model.asnumpy()[2], nets[2](batches[2]).asnumpy(),
                               rtol=1e-5, atol=1e-6)
