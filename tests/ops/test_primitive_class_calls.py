"""A primitive instance (`ops.Mod()`) called in a graph with fewer operands than it takes raises
MindSpore 2.10's RuntimeError, naming the operation as MindSpore does (S_Prim_<name>)."""
import numpy as np
import pytest

from cellgraph import Tensor, nn, ops


class _CallWith(nn.Cell):
    def __init__(self, prim, count):
        super().__init__()
        self.prim, self.count = prim, count

    def construct(self, x):
        return self.prim(*((x,) * self.count))


@pytest.mark.parametrize("prim, count, size", [(ops.Mod(), 1, 2), (ops.Add(), 1, 2),
                                               (ops.Select(), 1, 3), (ops.ReduceSum(), 0, 2),
                                               (ops.Maximum(), 1, 2), (ops.Pow(), 1, 2)])
def test_too_few_operands_raise_mindspores_runtime_error(prim, count, size):
    with pytest.raises(RuntimeError, match=f"For 'S_Prim_{prim.name}', the size of input should "
                                           f"be {size}, but got {count}. Please check inputs of "
                                           f"the operator."):
        _CallWith(prim, count)(Tensor(np.array([2.0], np.float32)))


def test_a_type_error_inside_the_operation_is_its_own():
    with pytest.raises(TypeError) as info:
        ops.Add()(Tensor(np.array([2.0], np.float32)), "a")
    assert "S_Prim_" not in str(info.value)
