"""ops.gather with batch_dims: each batch element gathers with its own indices, as MindSpore
2.10 (outputs params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:]),
eagerly, compiled and under grad."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, ops
from tests.ops.nn_helpers import both_ways

P = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
I3 = np.array([[[0, 3], [2, 2], [1, 0]], [[3, 3], [0, 1], [2, 0]]], np.int32)
I2 = np.array([[1, 0, 2, 2], [0, 0, 1, 2]], np.int64)


def _reference(params, indices, axis, batch_dims):
    out = [_reference(p, i, axis - 1, batch_dims - 1) if batch_dims > 1 else
           np.take(p, i, axis=axis - 1) for p, i in zip(params, indices)]
    return np.stack(out)


@pytest.mark.parametrize("indices, axis, batch_dims, shape", [
    (I3, 2, 2, (2, 3, 2, 5)), (I2, 1, 1, (2, 4, 4, 5)), (I2, 2, 1, (2, 3, 4, 5)),
])
def test_batch_dims_as_mindspore(indices, axis, batch_dims, shape):
    for got in both_ways(lambda p, i: ops.gather(p, i, axis, batch_dims), P, indices):
        assert got.shape == shape
        np.testing.assert_array_equal(got, _reference(P, indices, axis, batch_dims))


def test_mindspore_example_and_first_values():
    params = Tensor(np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]], np.float32))
    out = ops.gather(params, Tensor(np.array([0, 2, 1], np.int32)), 1, 1)
    np.testing.assert_array_equal(out.asnumpy(), [1, 7, 10])  # MindSpore 2.10
    out = ops.gather(Tensor(P), Tensor(I3), 2, 2).asnumpy()
    np.testing.assert_array_equal(out.ravel()[:15], [0, 1, 2, 3, 4, 15, 16, 17, 18, 19, 30, 31,
                                                     32, 33, 34])
    assert ops.gather(Tensor(P), Tensor(I2[:, :4]), -1, -1).shape == (2, 3, 4, 4)


def test_gradient_scatters_back_per_batch():
    weights = np.cos(np.arange(2 * 3 * 2 * 5)).reshape(2, 3, 2, 5).astype(np.float32)
    grad = ops.grad(lambda p: (ops.gather(p, Tensor(I3), 2, 2) * Tensor(weights)).sum())(
        Tensor(P)).asnumpy()
    expected = np.zeros_like(P)
    for b in range(2):
        for c in range(3):
            np.add.at(expected[b, c], I3[b, c], weights[b, c])
    np.testing.assert_allclose(grad, expected, rtol=1e-6)


def test_batch_axes_must_agree():
    with pytest.raises(ValueError, match="must be equal"):
        ops.gather(Tensor(P), Tensor(I2[:1]), 1, 1)
