"""ops._primitive_cache._get_cache_prim: one instance per class and arguments eagerly, a
fresh one inside a graph, usable inside construct and jit functions."""
import numpy as np

import cellgraph
from cellgraph import Tensor, nn, ops
from cellgraph.ops._primitive_cache import _get_cache_prim


def test_eager_calls_share_one_instance_per_arguments():
    assert _get_cache_prim(ops.ReduceSum)(True) is _get_cache_prim(ops.ReduceSum)(True)
    assert _get_cache_prim(ops.ReduceSum)(True) is not _get_cache_prim(ops.ReduceSum)(False)
    assert _get_cache_prim(ops.ReduceSum)(keep_dims=True).keep_dims is True


class AddSub(nn.Cell):
    def construct(self, x, y):
        y = y + 1
        z = _get_cache_prim(ops.Add)()(x, y)
        return _get_cache_prim(ops.Sub)()(z, x)


def test_inside_construct_and_jit():
    x, y = Tensor(np.array([2, 2, 1], np.int32)), Tensor(np.array([1, 1, 1], np.int32))
    np.testing.assert_array_equal(AddSub()(x, y).asnumpy(), [2, 2, 2])

    @cellgraph.jit
    def cube(a, n):
        return _get_cache_prim(ops.Pow)()(a, n)

    np.testing.assert_allclose(cube(Tensor(np.array([1.0, 2.0, 4.0], np.float32)), 3).asnumpy(),
                               [1.0, 8.0, 64.0])
