"""The reduce primitives take their axis as a 0-d or 1-D integer Tensor, read for its values,
as MindSpore 2.10's do (its results for the same calls recorded below)."""
import cellgraph as ms
from cellgraph import Tensor, ops


def test_axis_as_a_tensor():
    x = Tensor([1, 2, 3, 4, 5])
    out = ops.ReduceSum()(x, ops.ReLU()(Tensor(0)))
    assert out.shape == () and int(out) == 15
    m = Tensor([[1, 2], [3, 4]])
    assert ops.ReduceSum()(m, Tensor(1)).asnumpy().tolist() == [3, 7]
    assert ops.ReduceSum(True)(m, Tensor([0, 1])).asnumpy().tolist() == [[10]]
    assert ops.ReduceMax()(m, Tensor(0)).asnumpy().tolist() == [3, 4]
    assert ops.ReduceSum()(m, Tensor(1)).dtype == ms.int64
