"""mindspore.numpy's search, product, remainder, statistics and index functions against NumPy,
with gradients (orders 1 and 2) where the function is smooth."""
import numpy as np
import pytest

import cellgraph.numpy as mnp
from cellgraph import Tensor
from cellgraph.testing import check_grads


@pytest.mark.parametrize("fn,ref", [
    (lambda x: mnp.cumprod(x, 1), lambda x: np.cumprod(x, 1)),
    (lambda x: mnp.multi_dot([x[0], x[1], x[0]]), lambda x: np.linalg.multi_dot([x[0], x[1],
                                                                                   x[0]])),
    (lambda x: mnp.hypot(x, x[::-1]), lambda x: np.hypot(x, x[::-1])),
    (lambda x: mnp.logaddexp2(x, x[::-1]), lambda x: np.logaddexp2(x, x[::-1])),
    (lambda x: mnp.var(x, 1, ddof=1), lambda x: np.var(x, 1, ddof=1)),
    (lambda x: mnp.std(x, (0, 2), keepdims=True), lambda x: np.std(x, (0, 2), keepdims=True)),
    (lambda x: mnp.var(x), lambda x: np.var(x)),
    (lambda x: mnp.log1p(x * x), lambda x: np.log1p(x * x)),
    (lambda x: mnp.append(x[0], x[1], 0), lambda x: np.append(x[0], x[1], 0)),
    (lambda x: mnp.append(x, x[0]), lambda x: np.append(x, x[0])),
    (lambda x: mnp.repeat(x, 2, 2), lambda x: np.repeat(x, 2, 2)),
    (lambda x: mnp.array_split(x, 2, 2)[1], lambda x: np.array_split(x, 2, 2)[1]),
    (lambda x: mnp.array_split(x, [1], 1)[1], lambda x: np.array_split(x, [1], 1)[1]),
    (lambda x: mnp.diagonal(x, 1, 1, 2), lambda x: np.diagonal(x, 1, 1, 2)),
    (lambda x: mnp.diagonal(x, -1, 0, 2), lambda x: np.diagonal(x, -1, 0, 2)),
    (lambda x: mnp.diagflat(x[0, 0], 1), lambda x: np.diagflat(x[0, 0], 1)),
    (lambda x: mnp.copy(x), lambda x: np.copy(x)),
])
def test_against_numpy_with_gradients(fn, ref, rng):
    x = rng.uniform(0.5, 1.5, (2, 3, 3)) * np.sign(rng.standard_normal((2, 3, 3)))
    got = fn(mnp.asarray(x.astype(np.float32))).asnumpy()
    np.testing.assert_allclose(got, ref(x), rtol=1e-5, atol=1e-5)
    check_grads(fn, (x,), order=2, rtol=1e-4)


def test_index_and_integer_functions():
    x = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, -1.0]], np.float32)
    t = mnp.asarray(x)
    assert int(mnp.argmin(t)) == 5 and int(mnp.argmax(t)) == 4
    np.testing.assert_array_equal(mnp.argmin(t, 1).asnumpy(), np.argmin(x, 1))
    np.testing.assert_array_equal(mnp.cumprod(t).asnumpy(), np.cumprod(x))
    for got, want in zip(mnp.unravel_index(mnp.asarray(np.array([5, 7, 0])), (2, 4)),
                         np.unravel_index([5, 7, 0], (2, 4))):
        np.testing.assert_array_equal(got.asnumpy(), want)
    for got, want in zip(mnp.triu_indices(3, 1, 4), np.triu_indices(3, 1, 4)):
        np.testing.assert_array_equal(got.asnumpy(), want)
    np.testing.assert_array_equal(mnp.isin(t, [1, 5]).asnumpy(), np.isin(x, [1, 5]))
    np.testing.assert_array_equal(mnp.isin(t, [1, 5], invert=True).asnumpy(),
                                  np.isin(x, [1, 5], invert=True))
    y = np.array([-7.5, 7.5, -3.0, 2.5], np.float32)
    np.testing.assert_array_equal(mnp.fmod(mnp.asarray(y), 2.0).asnumpy(), np.fmod(y, 2.0))
    np.testing.assert_array_equal(mnp.remainder(mnp.asarray(y), 2.0).asnumpy(),
                                  np.remainder(y, 2.0))
    np.testing.assert_array_equal(mnp.trunc(mnp.asarray(y)).asnumpy(), np.trunc(y))
    np.testing.assert_allclose(mnp.round(mnp.asarray(np.array([1.256, -2.5], np.float32)),
                                         2).asnumpy(), [1.26, -2.5], rtol=1e-6)
    np.testing.assert_allclose(mnp.cbrt(mnp.asarray(np.array([-8.0, 27.0], np.float32)))
                               .asnumpy(), [-2.0, 3.0], rtol=1e-5)
    z = np.array([1.0, np.inf, -np.inf, np.nan], np.float32)
    np.testing.assert_array_equal(mnp.isfinite(mnp.asarray(z)).asnumpy(), np.isfinite(z))
    np.testing.assert_array_equal(mnp.isinf(mnp.asarray(z)).asnumpy(), np.isinf(z))
    shapes = [a.shape for a in mnp.broadcast_arrays(t, mnp.asarray(np.ones(3, np.float32)))]
    assert shapes == [(2, 3), (2, 3)]


@pytest.mark.parametrize("args, kwargs", [
    ((0,), {}), ((0,), {"bias": True}), ((0, 1), {}), ((0,), {"rowvar": False}),
    ((0,), {"fweights": True}), ((0,), {"aweights": True}),
    ((0,), {"fweights": True, "aweights": True, "ddof": 0})])
def test_cov_and_corrcoef_match_numpy(args, kwargs):
    rng = np.random.default_rng(0)
    data = [rng.standard_normal((3, 10)), rng.standard_normal(10)]
    arrays = [data[i] if kwargs.get("rowvar", True) else data[i].T for i in args]
    kwargs = dict(kwargs)
    if kwargs.pop("fweights", False):
        kwargs["fweights"] = rng.integers(1, 4, 10)
    if kwargs.pop("aweights", False):
        kwargs["aweights"] = rng.random(10)
    got = mnp.cov(*[Tensor(a) for a in arrays], **kwargs).asnumpy()
    np.testing.assert_allclose(got, np.cov(*arrays, **kwargs), rtol=1e-12, atol=1e-14)
    if len(args) == 1 and "rowvar" not in kwargs and not kwargs:
        np.testing.assert_allclose(mnp.corrcoef(Tensor(data[0])).asnumpy(),
                                   np.corrcoef(data[0]), rtol=1e-12)


def test_interp_search_and_counting():
    xp, fp = np.array([0.0, 1.0, 3.0]), np.array([1.0, 3.0, 2.0])
    x = np.array([-1, 0, 0.5, 1, 2, 3, 4.0])
    np.testing.assert_allclose(mnp.interp(Tensor(x), Tensor(xp), Tensor(fp)).asnumpy(),
                               np.interp(x, xp, fp))
    np.testing.assert_allclose(
        mnp.interp(Tensor(x), Tensor(xp), Tensor(fp), left=-9.0, right=9.0).asnumpy(),
        np.interp(x, xp, fp, left=-9.0, right=9.0))
    check_grads(lambda x, fp: mnp.interp(x, Tensor(xp), fp), (x[1:-1] + 0.1, fp), order=2)
    for side in ("left", "right"):
        np.testing.assert_array_equal(
            mnp.searchsorted(Tensor(xp), Tensor(np.array([1.0, 2.0])), side=side).asnumpy(),
            np.searchsorted(xp, [1.0, 2.0], side=side))
    np.testing.assert_array_equal(mnp.digitize(Tensor(x), Tensor(xp)).asnumpy(),
                                  np.digitize(x, xp))
    values, inverse = mnp.unique(Tensor(np.array([[3, 1], [3, 2]])), return_inverse=True)
    assert values.asnumpy().tolist() == [1, 2, 3]
    assert inverse.asnumpy().tolist() == [2, 0, 2, 1]  # of the flattened input
    np.testing.assert_array_equal(mnp.bincount(Tensor(np.array([0, 2, 2]))).asnumpy(), [1, 0, 2])
    np.testing.assert_array_equal(mnp.argwhere(Tensor(np.eye(2))).asnumpy(), [[0, 0], [1, 1]])
    rows, cols = mnp.nonzero(Tensor(np.eye(2)))
    assert rows.asnumpy().tolist() == [0, 1] and cols.asnumpy().tolist() == [0, 1]
    draws = mnp.randint(5, shape=(100,)).asnumpy()
    assert draws.dtype == np.int32 and draws.min() >= 0 and draws.max() < 5
