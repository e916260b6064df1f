"""The in-place Tensor methods (`x.add_(y)`, ...) and MindSpore's in-place primitive classes
(`gen_ops_prim.InplaceAddExt`, `ops.InplaceIndexAdd`) in PyNative mode: the input's data
changes, in its own dtype, and the input is returned. Values as MindSpore 2.10 gives them."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.ops.auto_generate import gen_ops_prim

pytestmark = pytest.mark.usefixtures("pynative_mode")


def f32(*values):
    return Tensor(np.array(values, np.float32))


def test_arithmetic_methods_update_in_place():
    x = f32(1.0, 2.0)
    assert x.add_(f32(1.0, 1.0), alpha=2) is x
    np.testing.assert_allclose(x.asnumpy(), [3.0, 4.0])
    x.sub_(1).mul_(2).div_(4)
    np.testing.assert_allclose(x.asnumpy(), [1.0, 1.5])
    x.clamp_(max=1.2)
    np.testing.assert_allclose(x.asnumpy(), [1.0, 1.2])


def test_fill_zero_copy_keep_the_dtype_and_shape():
    x = Tensor(np.array([1, 2, 3], np.int32))
    x.fill_(7)
    np.testing.assert_array_equal(x.asnumpy(), [7, 7, 7])
    x.copy_(Tensor(np.array([4, 5, 6], np.int64)))
    assert x.dtype == ms.int32
    np.testing.assert_array_equal(x.asnumpy(), [4, 5, 6])
    x.zero_()
    np.testing.assert_array_equal(x.asnumpy(), [0, 0, 0])


def test_index_add_along_a_dim_adds_repeated_indices():
    x = Tensor(np.zeros((2, 3), np.float32))
    x.index_add_(1, Tensor(np.array([0, 2, 0], np.int32)), Tensor(np.ones((2, 3), np.float32)),
                 alpha=2)
    np.testing.assert_allclose(x.asnumpy(), [[4, 0, 2], [4, 0, 2]])


def test_the_generated_inplace_classes():
    x = f32(1.0, 2.0)
    out = gen_ops_prim.InplaceAddExt()(x, f32(1.0, 1.0), alpha=3)
    np.testing.assert_allclose(x.asnumpy(), [4.0, 5.0])
    assert out is x
    gen_ops_prim.InplaceZero()(x)
    np.testing.assert_allclose(x.asnumpy(), [0.0, 0.0])
    y = Tensor(np.array([[1, 2], [3, 4]], np.int32))
    ops.InplaceIndexAdd(0)(y, Tensor(np.array([1], np.int32)), Tensor(np.array([[1, 1]], np.int32)))
    np.testing.assert_array_equal(y.asnumpy(), [[1, 2], [4, 5]])
    with pytest.raises(TypeError, match="'axis' must be int"):
        ops.InplaceIndexAdd(0.5)


def test_assign_add_updates_a_tensor_and_refuses_a_float_into_an_int():
    x = Tensor(np.array([1, 2], np.int32))
    ops.AssignAdd()(x, Tensor(np.array([1, 1], np.int32)))
    np.testing.assert_array_equal(x.asnumpy(), [2, 3])
    with pytest.raises(TypeError, match="data type Int32, which cannot be converted to data type Float32"):
        ops.assign(x, f32(1.5, 1.5))
