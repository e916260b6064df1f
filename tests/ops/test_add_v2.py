"""`ops.operations.math_ops.AddV2`: MindSpore 2.10's results, its same-shape rule (no
broadcasting), dtype promotion of mixed operands, the bool TypeError, and its gradient in a
compiled Cell."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import math_ops as M


def test_values_and_promotion_as_mindspore():
    op = M.AddV2()
    assert repr(op) == "Prim[AddV2]"
    out = op(Tensor(np.array([1, 2], np.int32)), Tensor(np.array([3, 4], np.int32)))
    assert out.asnumpy().dtype == np.int32 and out.asnumpy().tolist() == [4, 6]
    out = op(Tensor(np.array([1, 2], np.int32)), Tensor(np.array([3, 4], np.float32)))
    assert out.asnumpy().dtype == np.float32 and out.asnumpy().tolist() == [4.0, 6.0]
    out = op(Tensor(np.array([1 + 1j], np.complex64)), Tensor(np.array([2j], np.complex64)))
    assert out.asnumpy().tolist() == [1 + 3j]


@pytest.mark.parametrize("y, error, message", [
    (Tensor(np.array([[3], [4]], np.float32)), ValueError,
     "For primitive[AddV2], the input_shape: [2,] must be equal to [2,1,]"),
    (2.0, ValueError, "For primitive[AddV2], the input_shape: [2,] must be equal to []"),
])
def test_shapes_must_match(y, error, message):
    with pytest.raises(error) as info:
        M.AddV2()(Tensor(np.array([1.5, 2], np.float32)), y)
    assert message in str(info.value)


def test_bool_is_a_type_error():
    with pytest.raises(TypeError, match=r"argument\[x\] must be a type of .*but got "
                                        r"Tensor\[Bool\]\."):
        M.AddV2()(Tensor(np.array([True])), Tensor(np.array([True])))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = M.AddV2()

    def construct(self, x, y):
        return self.op(x, y) * x


def test_gradient_in_a_cell():
    x, y = Tensor(np.array([1.0, 2.0, 3.0], np.float32)), Tensor(np.array([4.0, 5.0, 6.0], np.float32))
    dx, dy = ops.GradOperation(get_all=True)(Net())(x, y)
    np.testing.assert_allclose(dx.asnumpy(), [6.0, 9.0, 12.0])  # 2x + y
    np.testing.assert_allclose(dy.asnumpy(), [1.0, 2.0, 3.0])
