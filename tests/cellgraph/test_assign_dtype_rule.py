"""ops.assign casts the value to the variable's dtype only where the two promote to it; else
MindSpore 2.10's TypeError (the variable's dtype cannot change)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn
from cellgraph.ops import functional as F


class AssignParam(nn.Cell):
    def __init__(self):
        super().__init__()
        self.step = Parameter(0.0, name="step", requires_grad=False)

    def construct(self, y):
        F.assign(self.step, y)
        return self.step


class AssignInput(nn.Cell):
    def construct(self, x, y):
        F.assign(x, y)
        return x


@pytest.mark.parametrize("dtype", [ms.uint8, ms.float16, ms.int32, ms.float32])
def test_values_that_promote_to_the_variable_dtype(dtype):
    out = AssignParam()(Tensor(3, dtype))
    assert out.dtype == ms.float32 and float(out.asnumpy()) == 3.0


def test_values_that_would_change_it():
    with pytest.raises(TypeError, match="so data type Float32, which cannot be converted to "
                                        "data type Float64 automatically"):
        AssignParam()(Tensor(3, ms.float64))
    with pytest.raises(TypeError, match="so data type Int8, which cannot be converted to data "
                                        "type Int16 automatically"):
        AssignInput()(Tensor(2, ms.int8), Tensor(3, ms.uint8))
    assert int(AssignInput()(Tensor(np.int32(2)), Tensor(3, ms.int8)).asnumpy()) == 3
