"""Tensor as people handle it outside and inside construct: construction and default dtypes,
shape/ndim/size/len, astype, reshape/view, transpose, squeeze/expand_dims, reductions with axis
and keepdims, argmax, clip, item/tolist/asnumpy, iteration, boolean-mask reads, setitem in
PyNative, initializer-made Tensors, and the same methods inside a graph."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.common.initializer import Normal, One, initializer

M = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], np.float32)


def test_construction_and_default_dtypes():
    assert Tensor(1.0).dtype == ms.float32
    assert Tensor(3).dtype == ms.int64
    assert Tensor([1, 2, 3]).dtype == ms.int64
    assert Tensor(np.array([1, 2], np.int32)).dtype == ms.int32
    assert Tensor([True, False]).dtype == ms.bool_
    assert Tensor(M, dtype=ms.float16).dtype == ms.float16
    assert Tensor(np.float64(2.0)).dtype == ms.float64
    t = Tensor(M)
    assert t.shape == (2, 3) and t.ndim == 2 and t.size == 6 and len(t) == 2
    assert isinstance(t.shape, tuple)
    w = initializer(Normal(0.1), [4, 5], ms.float32)
    assert w.shape == (4, 5) and np.abs(w.asnumpy()).max() < 1.0
    np.testing.assert_array_equal(initializer(One(), (2,), ms.float32).asnumpy(), [1.0, 1.0])


def test_from_numpy_and_norm():
    t = Tensor.from_numpy(M)
    np.testing.assert_array_equal(t.asnumpy(), M)
    assert float(t.norm().asnumpy()) == pytest.approx(np.linalg.norm(M), rel=1e-6)


def test_methods_eagerly():
    t = Tensor(M)
    assert t.astype(ms.int32).dtype == ms.int32
    assert t.reshape(3, 2).shape == (3, 2) and t.reshape((6,)).shape == (6,)
    assert t.view(3, 2).shape == (3, 2)
    assert t.transpose().shape == (3, 2) and t.transpose(1, 0).shape == (3, 2)
    assert t.T.shape == (3, 2)
    assert t.expand_dims(0).shape == (1, 2, 3) and t.expand_dims(0).squeeze(0).shape == (2, 3)
    assert t.flatten().shape == (6,)
    np.testing.assert_allclose(t.sum().asnumpy(), M.sum())
    np.testing.assert_allclose(t.sum(axis=1, keepdims=True).asnumpy(), M.sum(1, keepdims=True))
    np.testing.assert_allclose(t.mean(0).asnumpy(), M.mean(0))
    np.testing.assert_allclose(t.max(axis=1).asnumpy(), M.max(1))
    np.testing.assert_allclose(t.min().asnumpy(), M.min())
    np.testing.assert_array_equal(t.argmax(axis=1).asnumpy(), M.argmax(1))
    np.testing.assert_allclose(t.abs().asnumpy(), np.abs(M))
    np.testing.assert_allclose(t.clip(-1.0, 1.0).asnumpy(), np.clip(M, -1, 1))
    np.testing.assert_allclose(t.var(axis=0).asnumpy(), M.var(0), rtol=1e-6)
    np.testing.assert_allclose(t.std().asnumpy(), M.std(), rtol=1e-6)
    assert t[1, 2].item() == -6.0 and isinstance(t[0, 0].item(), float)
    assert t.tolist() == M.tolist()
    rows = [row.asnumpy().tolist() for row in t]
    assert rows == M.tolist()
    np.testing.assert_array_equal(t[t > 0].asnumpy(), M[M > 0])
    np.testing.assert_array_equal(t[..., None].shape, (2, 3, 1))
    np.testing.assert_array_equal(t[:, [2, 0]].asnumpy(), M[:, [2, 0]])
    assert str(Tensor(np.array([1.5], np.float32))).startswith("[")


def test_setitem_in_pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    t = Tensor(M.copy())
    t[0, 1] = 10.0
    t[1] = Tensor(np.zeros(3, np.float32))
    t[t > 5] = 0.0
    expected = M.copy()
    expected[0, 1] = 10.0
    expected[1] = 0
    expected[expected > 5] = 0
    np.testing.assert_array_equal(t.asnumpy(), expected)


class Features(nn.Cell):
    def construct(self, x):
        centered = x - x.mean(axis=0, keep_dims=True)
        scale = centered.std(axis=0, keepdims=True) + 1e-6
        z = (centered / scale).astype(ms.float32)
        top = z.argmax(axis=1)
        picked = ops.gather(z.T, top, 0)
        return z.reshape(-1), top, picked.shape[0], z.clip(-1.0, 1.0).sum(1)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_methods_inside_construct(mode):
    ms.set_context(mode=mode)
    x = np.random.default_rng(0).normal(size=(5, 3)).astype(np.float32)
    flat, top, count, clipped = Features()(Tensor(x))
    z = (x - x.mean(0)) / (x.std(0) + 1e-6)
    np.testing.assert_allclose(flat.asnumpy(), z.reshape(-1), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(top.asnumpy(), z.argmax(1))
    assert count == 5  # one row of z.T per example
    np.testing.assert_allclose(clipped.asnumpy(), np.clip(z, -1, 1).sum(1), rtol=1e-5,
                               atol=1e-6)
