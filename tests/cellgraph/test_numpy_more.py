"""The added mindspore.numpy functions against NumPy, with gradients where they are smooth."""
import numpy as np
import pytest

import cellgraph.numpy as mnp
from cellgraph.testing import check_grads


@pytest.mark.parametrize("fn,ref", [
    (lambda x: mnp.reciprocal(x), lambda x: 1 / x),
    (lambda x: mnp.clip(x, -0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5)),
    (lambda x: mnp.tile(x, (2, 1, 1)), lambda x: np.tile(x, (2, 1, 1))),
    (lambda x: mnp.flip(x), lambda x: np.flip(x)),
    (lambda x: mnp.roll(x, 2, 1), lambda x: np.roll(x, 2, 1)),
    (lambda x: mnp.swapaxes(x, 0, 1), lambda x: np.swapaxes(x, 0, 1)),
    (lambda x: mnp.moveaxis(x, 0, -1), lambda x: np.moveaxis(x, 0, -1)),
    (lambda x: mnp.split(x, [1, 2], 1)[2], lambda x: np.split(x, [1, 2], 1)[2]),
    (lambda x: mnp.hstack((x, x)), lambda x: np.hstack((x, x))),
    (lambda x: mnp.vstack((x[0], x[1])), lambda x: np.vstack((x[0], x[1]))),
    (lambda x: mnp.norm(x), lambda x: np.linalg.norm(x)),
    (lambda x: mnp.tensordot(x, x, ((1, 2), (1, 2))),
     lambda x: np.tensordot(x, x, ((1, 2), (1, 2)))),
    (lambda x: mnp.tril(x[0], 1), lambda x: np.tril(x[0], 1)),
    (lambda x: mnp.triu(x[0]), lambda x: np.triu(x[0])),
    (lambda x: mnp.diag(x[0]), lambda x: np.diag(x[0])),
    (lambda x: mnp.diag(x[0, 0], -1), lambda x: np.diag(x[0, 0], -1)),
    (lambda x: mnp.trace(x[0], 1), lambda x: np.trace(x[0], 1)),
    (lambda x: mnp.take(x, np.array([5, 1])), lambda x: np.take(x, [5, 1])),
    (lambda x: mnp.take_along_axis(x, np.array([[[0], [2], [1]]] * 2), 2),
     lambda x: np.take_along_axis(x, np.array([[[0], [2], [1]]] * 2), 2)),
    (lambda x: mnp.average(x, 1, np.array([1.0, 2.0, 3.0])),
     lambda x: np.average(x, 1, np.array([1.0, 2.0, 3.0]))),
    (lambda x: mnp.logaddexp(x, x[::-1]), lambda x: np.logaddexp(x, x[::-1])),
    (lambda x: mnp.arctan2(x, x[::-1] + 0.1), lambda x: np.arctan2(x, x[::-1] + 0.1)),
    (lambda x: mnp.pad(x, ((0, 0), (1, 2), (2, 1)), "symmetric"),
     lambda x: np.pad(x, ((0, 0), (1, 2), (2, 1)), "symmetric")),
    (lambda x: mnp.pad(x, 1, constant_values=2.0), lambda x: np.pad(x, 1, constant_values=2.0)),
    (lambda x: mnp.cross(x, x[:, ::-1]), lambda x: np.cross(x, x[:, ::-1])),
])
def test_against_numpy_with_gradients(fn, ref, rng):
    x = rng.uniform(0.5, 1.5, (2, 3, 3)) * np.sign(rng.standard_normal((2, 3, 3)))
    got = fn(mnp.asarray(x.astype(np.float32))).asnumpy()
    np.testing.assert_allclose(got, ref(x), rtol=1e-5, atol=1e-5)
    check_grads(fn, (x,), order=2, rtol=1e-4)


def test_predicates_and_counts():
    a = mnp.asarray(np.array([1.0, np.nan, 3.0], np.float32))
    np.testing.assert_array_equal(mnp.isnan(a).asnumpy(), [False, True, False])
    np.testing.assert_array_equal(mnp.equal(mnp.asarray([1, 2]), mnp.asarray([1, 3])).asnumpy(),
                                  [True, False])
    np.testing.assert_array_equal(mnp.logical_xor(mnp.asarray([True, False]),
                                                  mnp.asarray([True, True])).asnumpy(),
                                  [False, True])
    assert int(mnp.count_nonzero(mnp.asarray([0, 1, 2, 0])).asnumpy()) == 2
    np.testing.assert_array_equal(mnp.isclose(mnp.asarray([1.0]), mnp.asarray([1.0 + 1e-9])
                                              ).asnumpy(), [True])
    grid = mnp.meshgrid(mnp.asarray([1, 2, 3]), mnp.asarray([4, 5]))
    np.testing.assert_array_equal(grid[1].asnumpy(), np.meshgrid([1, 2, 3], [4, 5])[1])


def test_floor_and_ceil_against_numpy():
    x = np.array([[-2.5, -0.5, 0.0], [0.5, 1.49, 3.0]], np.float32)
    np.testing.assert_array_equal(mnp.floor(mnp.asarray(x)).asnumpy(), np.floor(x))
    np.testing.assert_array_equal(mnp.ceil(mnp.asarray(x)).asnumpy(), np.ceil(x))
    ints = mnp.ceil(mnp.asarray(np.array([1, -2], np.int32)))
    assert ints.dtype == mnp.float32
    np.testing.assert_array_equal(ints.asnumpy(), [1.0, -2.0])
    assert mnp.floor(mnp.asarray(x), dtype=mnp.int32).asnumpy().tolist() == [[-3, -1, 0],
                                                                             [0, 1, 3]]
