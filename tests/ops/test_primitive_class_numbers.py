"""An arithmetic Primitive class called on Python numbers alone inside a graph takes them as
Tensors (int64, float32) and gives a Tensor, as MindSpore's graphs do; the numbers' own
arithmetic (`x + y`) stays Python's, and outside a graph the eager call gives a Tensor too.
MindSpore 2.10's results, recorded from the oracle."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import nn
from cellgraph.ops import operations as P


class _Apply(nn.Cell):
    def __init__(self, op):
        super().__init__()
        self.op = op

    def construct(self, x, y):
        return self.op(x, y), x + y


@pytest.mark.parametrize("op, x, y, value, dtype", [
    (P.Add(), 0.1, -3.2, -3.1000001, ms.float32),
    (P.Add(), 3, 2, 5, ms.int64),
    (P.Mul(), 0.1, -3.2, -0.32000002, ms.float32),
    (P.Div(), 3, 2, 1.5, ms.float32),
    (P.FloorDiv(), 3, 2, 1, ms.int64),
    (P.Sub(), 0.1, -3.2, 3.3, ms.float32),
    (P.Maximum(), 3, 2, 3, ms.int64),
])
def test_an_arithmetic_primitive_on_numbers_gives_a_tensor_in_a_graph(op, x, y, value, dtype):
    out, python_sum = _Apply(op)(x, y)
    assert isinstance(out, ms.Tensor) and out.dtype == dtype
    np.testing.assert_allclose(out.asnumpy(), np.float32(value) if dtype == ms.float32 else value)
    assert python_sum == x + y and not isinstance(python_sum, ms.Tensor)
    assert isinstance(op(x, y), ms.Tensor)  # outside a graph as well
