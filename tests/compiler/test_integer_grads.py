"""Gradients with respect to integer inputs through Tensor control flow, as MindSpore computes
them (integer networks are differentiated: d(x*y)/dx = y in the inputs' dtype)."""
import numpy as np
import pytest

from cellgraph import Tensor, nn, ops


def i32(v):
    return Tensor(np.array(v, np.int32))


class ProductUnderIf(nn.Cell):
    def construct(self, x, y):
        if x < y:
            out = x * y
        else:
            out = x + y
        return out


@pytest.mark.parametrize("x,y,expected", [(2, 3, (3, 2)), (5, 3, (1, 1))])
def test_integer_gradients_through_a_tensor_if(x, y, expected):
    grads = ops.GradOperation(get_all=True)(ProductUnderIf())(i32(x), i32(y))
    assert tuple(int(g.asnumpy()) for g in grads) == expected
    assert all(g.dtype == i32(0).dtype for g in grads)


class RepeatedProduct(nn.Cell):
    """out = n * x * y after n trips (n = max - i)."""

    def construct(self, x, y, i):
        out = x * 0
        while i < 4:
            out = out + x * y
            i = i + 1
        return out


@pytest.mark.parametrize("start", [0, 2, 4])
def test_integer_gradients_through_a_tensor_while(start):
    trips = 4 - start
    grads = ops.GradOperation(get_all=True)(RepeatedProduct())(i32(3), i32(5), i32(start))
    assert [int(g.asnumpy()) for g in grads] == [trips * 5, trips * 3, 0]
