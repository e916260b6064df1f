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


def test_from_numpy_shares_the_array_and_tensor_copies_it():
    """As in MindSpore: `Tensor.from_numpy(n)` sees later in-place changes of `n` (and keeps
    its dtype, float64 here); `Tensor(n)` is a copy."""
    n = np.ones(3)
    shared, copied = Tensor.from_numpy(n), Tensor(n)
    np.add(n, 1, out=n)
    assert shared.dtype == ms.float64
    np.testing.assert_array_equal(shared.asnumpy(), [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(copied.asnumpy(), [1.0, 1.0, 1.0])


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


def test_tensor_and_parameter_classes_print_and_pickle_at_their_public_paths():
    """`type(t)` prints MindSpore's path with the package name changed (tutorials print it), and
    pickling finds the classes there."""
    import pickle

    assert repr(Tensor) == "<class 'cellgraph.common.tensor.Tensor'>"
    assert repr(ms.Parameter) == "<class 'cellgraph.common.parameter.Parameter'>"
    p = pickle.loads(pickle.dumps(ms.Parameter(Tensor(M), name="w")))
    assert type(p) is ms.Parameter and p.name == "w"
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(Tensor(M))).asnumpy(), M)


def test_tensor_with_init_waits_for_init_data():
    """As MindSpore: `Tensor(shape=, dtype=, init=)` (and initializer()) fill their values when
    init_data() or asnumpy() asks; until then they print `<uninitialized>` and an operation
    raises RuntimeError; init, shape and dtype come together."""
    from cellgraph.common.initializer import One, initializer

    t = Tensor(shape=(2, 2), dtype=ms.float32, init=One())
    assert t.has_init and t.shape == (2, 2) and t.dtype == ms.float32
    assert str(t) == "Tensor(shape=[2, 2], dtype=Float32, value=\n<uninitialized>)"
    with pytest.raises(RuntimeError, match="is uninitialized.*init_data"):
        ms.ops.add(t, 1)
    assert t.init_data() is t and not t.has_init and type(t) is Tensor
    np.testing.assert_array_equal((t + 1).asnumpy(), np.full((2, 2), 2.0))
    np.testing.assert_array_equal(initializer("ones", (3,), ms.int32).asnumpy(), [1, 1, 1])
    for kwargs in ({"input_data": [1.0], "init": One()}, {"init": One(), "dtype": ms.float32},
                   {"init": One(), "shape": (2,)}):
        with pytest.raises(ValueError, match="init, dtype and shape must have values"):
            Tensor(**kwargs)
