"""ops.inplace_add / inplace_sub / inplace_update, their classes, and IndexAdd on a Parameter:
the values MindSpore 2.10 gives for the same inputs (recorded below; repeated rows add up, or
the last wins for an update), and its checks."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import ops

EXPECTED = {'add': [[10.0, 11.0], [2.0, 3.0], [14.0, 15.0]], 'x_kept': [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], 'add_rep': [[2.0, 3.0], [2.0, 3.0], [4.0, 5.0]], 'sub': [[0.0, 1.0], [1.0, 2.0], [4.0, 5.0]], 'upd': [[10.0, 10.0], [2.0, 3.0], [10.0, 10.0]], 'upd_rep': [[0.0, 1.0], [9.0, 9.0], [4.0, 5.0]], 'cls': [[10.0, 10.0], [2.0, 3.0], [10.0, 10.0]], 'cls_add': [[1.0, 2.0], [3.0, 4.0], [4.0, 5.0]], 'index_add': [[[2.0, 2.0], [0.0, 0.0], [1.0, 1.0]], [[2.0, 2.0], [0.0, 0.0], [1.0, 1.0]]], 'index_add1': [[[1.0, 0.0, 0.0], [3.0, 0.0, 2.0]], [[1.0, 0.0, 0.0], [3.0, 0.0, 2.0]]]}


def test_as_mindspore():
    out={}
    x=ms.Tensor(np.arange(6).reshape(3,2).astype(np.float32)); v=ms.Tensor(np.ones((2,2),np.float32)*10)
    out['add']=ops.inplace_add(x, v, (0,2)).asnumpy().tolist(); out['x_kept']=x.asnumpy().tolist()
    out['add_rep']=ops.inplace_add(x, ms.Tensor(np.ones((2,2),np.float32)), (0,0)).asnumpy().tolist()
    out['sub']=ops.inplace_sub(x, ms.Tensor(np.ones((1,2),np.float32)), 1).asnumpy().tolist()
    out['upd']=ops.inplace_update(x, v, ms.Tensor(np.array([0,2],np.int32))).asnumpy().tolist()
    out['upd_rep']=ops.inplace_update(x, ms.Tensor(np.array([[7.,7.],[9.,9.]],np.float32)), (1,1)).asnumpy().tolist()
    out['cls']=ops.InplaceUpdate((0,2))(x, v).asnumpy().tolist()
    out['cls_add']=ops.InplaceAdd((0,1))(x, ms.Tensor(np.ones((2,2),np.float32))).asnumpy().tolist()
    p=ms.Parameter(ms.Tensor(np.zeros((3,2),np.float32)), name='p')
    r=ops.IndexAdd(axis=0)(p, ms.Tensor(np.array([0,2,0],np.int32)), ms.Tensor(np.ones((3,2),np.float32)))
    out['index_add']=[r.asnumpy().tolist(), p.asnumpy().tolist()]
    q=ms.Parameter(ms.Tensor(np.zeros((2,3),np.float32)), name='q')
    r=ops.IndexAdd(axis=1)(q, ms.Tensor(np.array([2,0],np.int32)), ms.Tensor(np.arange(4).reshape(2,2).astype(np.float32)))
    out['index_add1']=[r.asnumpy().tolist(), q.asnumpy().tolist()]
    assert out == EXPECTED


def test_checks_as_mindspore():
    x = ms.Tensor(np.zeros((3, 2), np.float32))
    with pytest.raises(TypeError, match="'indices' should be one of"):
        ops.inplace_add(x, ms.Tensor(np.ones((1, 2), np.float32)), ms.Tensor(np.array([1])))
    with pytest.raises(ValueError, match="the rank of x must be equal to rank of v"):
        ops.inplace_add(x, ms.Tensor(np.ones((2,), np.float32)), 1)


def test_inplace_update_v2_and_the_tensor_method_as_mindspore():
    """InplaceUpdateV2()(x, indices, v) and x.inplace_update(v, indices): a new Tensor with the
    rows replaced, x itself unchanged (MindSpore 2.10's values)."""
    x = ms.Tensor(np.array([[1, 2], [3, 4], [5, 6]], np.float16))
    v = ms.Tensor(np.array([[0.5, 1.0], [1.0, 1.5]], np.float16))
    expected = [[0.5, 1.0], [1.0, 1.5], [5, 6]]
    for indices in (ms.Tensor(np.array([0, 1], np.int32)), (0, 1)):
        for out in (ms.ops.InplaceUpdateV2()(x, indices, v), x.inplace_update(v, indices)):
            assert out.dtype == ms.float16
            np.testing.assert_array_equal(out.asnumpy(), expected)
    np.testing.assert_array_equal(x.asnumpy(), [[1, 2], [3, 4], [5, 6]])


def test_inplace_index_add_writes_its_input_as_mindspore():
    """ops.inplace_index_add(var, indices, updates, axis) adds along `axis` (a repeated index
    adds twice) into `var`, a Tensor or a Parameter, and returns it; math_func's `F` (MindSpore
    binds ops.function there) reaches it too."""
    from cellgraph.ops.function.math_func import F

    x = ms.Tensor(np.array([[1, 2], [3, 4], [5, 6]], np.float32))
    out = F.inplace_index_add(x, ms.Tensor(np.array([0, 1, 0], np.int32)),
                              ms.Tensor(np.array([[1, 2], [7, 8], [1, 1]], np.float32)), axis=0)
    np.testing.assert_array_equal(out.asnumpy(), [[3, 5], [10, 12], [5, 6]])
    np.testing.assert_array_equal(x.asnumpy(), [[3, 5], [10, 12], [5, 6]])
    out = ms.ops.inplace_index_add(x, ms.Tensor(np.array([1], np.int32)),
                                   ms.Tensor(np.array([[1], [2], [3]], np.float32)), 1)
    np.testing.assert_array_equal(out.asnumpy(), [[3, 6], [10, 14], [5, 9]])
    p = ms.Parameter(ms.Tensor(np.ones((3, 2), np.int32)), name="p")
    ms.ops.inplace_index_add(p, ms.Tensor(np.array([2], np.int32)),
                             ms.Tensor(np.array([[4, 5]], np.int32)), 0)
    np.testing.assert_array_equal(p.asnumpy(), [[1, 1], [1, 1], [5, 6]])


def _rows_added_inputs():
    return (ms.Tensor(np.array([0, 2], np.int32)), ms.Tensor(np.ones((3, 2), np.float32)))


def test_index_add_function_and_both_tensor_method_forms_write_into_the_input():
    """ops.index_add(x, indices, y, axis), x.index_add(dim, index, source, *, alpha) and
    x.index_add(indices, y, axis): the sum, written into x as MindSpore 2.10 does (values
    recorded from it)."""
    indices, y = _rows_added_inputs()
    x = ms.Tensor(np.ones((3, 3), np.float32))
    np.testing.assert_array_equal(ops.index_add(x, indices, y, 1).asnumpy()[0], [2, 1, 2])
    np.testing.assert_array_equal(x.asnumpy()[0], [2, 1, 2])
    out = x.index_add(1, indices, y, alpha=2)
    np.testing.assert_array_equal(out.asnumpy()[0], [4, 1, 4])
    np.testing.assert_array_equal(x.asnumpy()[0], [4, 1, 4])
    np.testing.assert_array_equal(x.index_add(indices, y, 1).asnumpy()[0], [5, 1, 5])
    p = ms.Parameter(ms.Tensor(np.ones((3, 3), np.float32)), name="p")
    half = ms.Tensor(np.ones((3, 2), np.float16))  # cast to the Parameter's dtype
    np.testing.assert_array_equal(p.index_add(1, indices, half).asnumpy()[0], [2, 1, 2])
    np.testing.assert_array_equal(p.asnumpy()[0], [2, 1, 2])


def test_index_add_checks_as_mindspore():
    indices, y = _rows_added_inputs()
    x = ms.Tensor(np.ones((3, 3), np.float32))
    with pytest.raises(TypeError, match=r"must be a type of \{Tensor\[Int32\]\}, but got "
                                        r"Tensor\[Int64\]"):
        ops.index_add(x, ms.Tensor(np.array([0, 2], np.int64)), y, 1)
    with pytest.raises(TypeError, match="the type of 'axis' should be 'int', but got type "
                                        "'float'"):
        ops.index_add(x, indices, y, 1.0)
    with pytest.raises(ValueError, match=r"the axis must be in \(-3,2\), but got 2"):
        ops.index_add(x, indices, y, 2)
    with pytest.raises(ValueError, match="size of indices] must be equal to 3, but got 2"):
        ops.index_add(x, indices, y, -2)


class _IndexAddNet(ms.nn.Cell):
    def __init__(self, x):
        super().__init__()
        self.input_x = ms.Parameter(ms.Tensor(x), name="x")
        self.index_add = ops.IndexAdd(1)

    def construct(self, idx, y):
        return self.index_add(self.input_x, idx, y)


class _GradAll(ms.nn.Cell):
    def __init__(self, network):
        super().__init__()
        self.grad = ops.GradOperation(get_all=True, sens_param=True, get_by_list=True)
        self.network = network
        self.params = ms.ParameterTuple(network.trainable_params())

    def construct(self, idx, y, dout):
        return self.grad(self.network, self.params)(idx, y, dout)


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_index_add_result_differentiates_as_the_sum(dtype):
    """IndexAdd's result carries gradients to the Parameter (dout) and to y (dout's slices at
    the indices), and the Parameter holds the sum afterwards (MindSpore 2.10's values)."""
    net = _IndexAddNet(np.arange(15).reshape(5, 3).astype(dtype))
    dout = np.arange(63, 78).reshape(5, 3).astype(dtype)
    out = _GradAll(net)(ms.Tensor(np.array([1], np.int32)),
                        ms.Tensor(np.arange(5).reshape(5, 1).astype(dtype)), ms.Tensor(dout))
    np.testing.assert_array_equal(out[0][1].asnumpy().ravel(), [64, 67, 70, 73, 76])
    np.testing.assert_array_equal(out[1][0].asnumpy(), dout)
    np.testing.assert_array_equal(net.input_x.asnumpy()[:, 1], [1, 5, 9, 13, 17])
