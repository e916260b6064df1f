"""Float32 sums and means add as MindSpore's CPU ReduceSum / ReduceMean kernel does: a double
running sum rounded once, except on its two float32 kernels (a 2-D tensor's rows: eight lanes
added in turn, then the columns left; a sum down the leading axis: row after row). The values
1e8, 1, -1e8, 1 tell the orders apart: a double sums them to 2, a float32 running sum to 1.
Expected values are MindSpore 2.10's."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.runtime import blocked_kernels
from cellgraph.runtime.blocked_kernels import NAMESPACE
from cellgraph.runtime.kernels import TABLE as SHARED

V = np.array([1e8, 1, -1e8, 1], np.float32)


@pytest.mark.parametrize("what, run, expected", [
    ("sum over (2, 3) of 4-D", lambda: ops.sum(Tensor(V.reshape(1, 1, 2, 2)), (2, 3)), 2.0),
    ("mean over (2, 3) of 4-D", lambda: ops.mean(Tensor(V.reshape(1, 1, 2, 2)), (2, 3)), 0.5),
    ("ReduceMean keep_dims", lambda: ops.ReduceMean(keep_dims=True)(
        Tensor(V.reshape(1, 1, 2, 2)), (2, 3)), 0.5),
    ("ReduceSum of 1-D", lambda: ops.ReduceSum()(Tensor(V)), 2.0),
    ("mean of 1-D", lambda: ops.mean(Tensor(V)), 0.5),
    ("sum of all of 2-D", lambda: ops.sum(Tensor(V.reshape(2, 2))), 2.0),
    ("sum over axis 1 of 2-D", lambda: ops.sum(Tensor(V.reshape(1, 4)), 1), 1.0),
    ("mean over axis -1 of 2-D", lambda: ops.mean(Tensor(V.reshape(1, 4)), -1), 0.25),
    ("sum over axis 0 of 2-D", lambda: ops.sum(Tensor(V.reshape(4, 1)), 0), 1.0),
    ("mean over axis 0 of 2-D", lambda: ops.mean(Tensor(V.reshape(4, 1)), 0), 0.5),
    ("sum over (0, 2), axis 2 of size 1", lambda: ops.sum(Tensor(V.reshape(4, 1, 1)), (0, 2)),
     1.0),
    ("sum over axis 1 of 3-D", lambda: ops.sum(Tensor(V.reshape(1, 4, 1)), 1), 2.0),
    ("sum of all of (4, 1)", lambda: ops.sum(Tensor(V.reshape(4, 1))), 1.0),
    ("Tensor.sum over the last axis of 3-D", lambda: Tensor(V.reshape(1, 1, 4)).sum(2), 2.0),
    ("Tensor.mean over the last axis of 3-D", lambda: Tensor(V.reshape(1, 1, 4)).mean(2), 0.5),
])
def test_float32_sums_as_mindspore(what, run, expected):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    out = run()
    assert out.dtype == ms.float32
    assert out.asnumpy().ravel().tolist() == [expected], what


def test_a_matrix_rows_add_in_eight_lanes():
    row = np.zeros((2, 19), np.float32)
    row[0, :4] = [1e8, 1, -1e8, 1]    # the lanes added in turn: ((1e8 + 1) - 1e8) + 1
    row[1, :8], row[1, 8:16], row[1, 16:] = 1e8, 1, [-4e8, -4e8, 3]
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert ops.sum(Tensor(row), 1).asnumpy().tolist() == [1.0, 3.0]
    assert ops.sum(Tensor(row[:, :16]), 1).asnumpy().tolist() == [1.0, 8e8]
    assert ops.mean(Tensor(row), 1).asnumpy().tolist() == [0.05263157933950424,
                                                           0.15789473056793213]


class Pooled(nn.Cell):
    """A global average pool and a sum over channels, as a selective-kernel block's attention
    begins."""

    def construct(self, x):
        return ops.mean(x, (2, 3), keep_dims=True), x.sum(1)


def test_in_a_graph_the_sums_are_rounded_once():
    x = np.random.default_rng(3).standard_normal((2, 8, 16, 16)).astype(np.float32) + 1.5
    mean, total = Pooled()(Tensor(x))
    want_mean = (x.astype(np.float64).sum(axis=(2, 3), keepdims=True).astype(np.float32)
                 / np.float32(256))
    np.testing.assert_array_equal(mean.asnumpy(), want_mean)
    np.testing.assert_array_equal(total.asnumpy(), x.astype(np.float64).sum(1).astype(np.float32))


@pytest.mark.parametrize("shape, axis", [
    ((3, 5, 7, 9), (2, 3)), ((3, 5, 7, 9), (0, 2, 3)), ((3, 5, 7, 9), ()), ((4, 9), (0,)),
    ((4, 37), (1,)), ((4, 37), (-1,)), ((6, 1, 5), (0, 1)), ((6, 3, 5), (1,)), ((70,), (0,)),
    ((5000, 3), (0,)), ((3, 5000), (1,))])
@pytest.mark.parametrize("keep_dims", [False, True])
@pytest.mark.parametrize("name", ["reduce_sum", "reduce_mean"])
def test_numpy_kernels_match_the_shared_ones_exactly(shape, axis, keep_dims, name):
    """The NumPy backend's BLAS paths give the shared kernels' float32 results bit for bit;
    away from MindSpore's two float32 kernels, that is the float64 result rounded."""
    x = np.random.default_rng(7).uniform(-3, 3, shape).astype(np.float32)
    got = blocked_kernels.TABLE[name](x, axis=axis, keep_dims=keep_dims)
    want = SHARED[name](NAMESPACE, x, axis=axis, keep_dims=keep_dims)
    assert got.dtype == want.dtype == np.float32 and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    ndim = len(shape)
    axes = sorted(a % ndim for a in axis) if axis else list(range(ndim))
    on_a_float32_kernel = (ndim == 2 and axes == [1]) or (
        name == "reduce_sum" and axes[0] == 0 and all(shape[a] == 1 for a in axes[1:]))
    if not on_a_float32_kernel:
        total = np.sum(x.astype(np.float64), axis=axis or None, keepdims=keep_dims)
        rounded = total.astype(np.float32)
        if name == "reduce_mean":
            rounded = rounded / np.float32(x.size // max(rounded.size, 1))
        np.testing.assert_array_equal(got, rounded)


def test_softmax_across_a_leading_axis_divides_as_mindspore():
    """Across an axis other than the last, MindSpore's Softmax divides exp(x - max) by the sum
    of the terms (a selective-kernel block's branch weights are such a softmax)."""
    x = np.array([[0.88, -0.66, 4.86, -0.5], [0.22, 3.16, -1.82, -1.18]], np.float32)
    want = np.array([[0.6592603325843811, 0.021457284688949585, 0.9987457990646362,
                      0.6637386679649353],
                     [0.3407396078109741, 0.978542685508728, 0.001254202565178275,
                      0.3362613022327423]], np.float32)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(ops.softmax(Tensor(x), axis=0).asnumpy(), want)
    out = nn.Softmax(axis=1)(Tensor(x.reshape(1, 2, 4, 1)))
    np.testing.assert_array_equal(out.asnumpy().reshape(2, 4), want)
    out = nn.Softmax(axis=1)(Tensor(x.T.reshape(4, 2, 1)))  # the terms along the contiguous axis
    np.testing.assert_array_equal(out.asnumpy().reshape(4, 2), want.T)
