"""`array_ops.ListDiff`: the elements of x not in y and their positions, with MindSpore 2.10's
values and errors (recorded here)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, context, nn
from cellgraph.ops.operations import array_ops as P


class Net(nn.Cell):
    def __init__(self, out_idx=cg.int32):
        super().__init__()
        self.op = P.ListDiff(out_idx)

    def construct(self, x, y):
        return self.op(x, y)


def test_values_keep_order_and_repeats_in_a_graph_with_dynamic_inputs():
    context.set_context(mode=context.GRAPH_MODE)
    try:
        net = Net()
        net.set_inputs(Tensor(shape=[None], dtype=cg.int32), Tensor(shape=[None], dtype=cg.int32))
        out, idx = net(Tensor([1, 2, 3, 4, 5, 6, 3, 2], cg.int32), Tensor([1, 3, 5], cg.int32))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    assert out.asnumpy().tolist() == [2, 4, 6, 2] and out.dtype == cg.int32
    assert idx.asnumpy().tolist() == [1, 3, 5, 7] and idx.dtype == cg.int32


def test_float_input_and_int64_positions():
    out, idx = P.ListDiff(cg.int64)(Tensor([1.5, 2.0, 7.0]), Tensor([2.0]))
    np.testing.assert_array_equal(out.asnumpy(), np.array([1.5, 7.0], np.float32))
    assert idx.asnumpy().tolist() == [0, 2] and idx.dtype == cg.int64
    out, idx = P.ListDiff()(Tensor([3, 4], cg.int16), Tensor(np.zeros((0,), np.int16)))
    assert out.asnumpy().tolist() == [3, 4] and idx.asnumpy().tolist() == [0, 1]


def test_errors():
    with pytest.raises(TypeError, match=r"type of 'x' and 'y' should be same. But get "
                                        r"x\[Int64\], y\[Float32\]"):
        P.ListDiff()(Tensor([1, 2]), Tensor([1.0]))
    with pytest.raises(ValueError, match="input x, y should be 1D, but get x dims = 2, y dims = 1"):
        P.ListDiff()(Tensor([[1]]), Tensor([1]))
    with pytest.raises(TypeError, match=r"but got Tensor\[Bool\]"):
        P.ListDiff()(Tensor([True]), Tensor([True]))
    with pytest.raises(TypeError, match=r"'out_idx' should be in : \[mindspore.int32, "
                                        r"mindspore.int64\], but got Float32"):
        P.ListDiff(cg.float32)
