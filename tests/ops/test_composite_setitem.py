"""`x[index] = value` on Tensors in construct: a new value bound to x, differentiable in both x
and the value; indices static, an integer Tensor, or an integer Tensor with slices."""
import numpy as np
import pytest

from cellgraph import Tensor, nn
from cellgraph.testing import check_grads


class StaticWrites(nn.Cell):
    def construct(self, x, v):
        x[1] = v
        x[:, 0] = x[:, 0] * 3
        x[0, 1:] = 7.0
        return (x * x).sum()


def static_writes(x, v):
    x = x.copy()
    x[1] = v
    x[:, 0] = x[:, 0] * 3
    x[0, 1:] = 7.0
    return (x * x).sum()


def test_static_index_writes_match_numpy_and_differentiate():
    x, v = np.arange(9.0).reshape(3, 3), np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(StaticWrites()(Tensor(x), Tensor(v)).asnumpy(),
                               static_writes(x, v))
    check_grads(StaticWrites(), (Tensor(x), Tensor(v)), order=2)


class RowMaxInLoop(nn.Cell):
    """Each row's first two columns take the row's maximum, row by row in a Tensor loop."""

    def construct(self, i, end, x):
        while i < end:
            x[i, :, 0:2] = x[i, :, :].max()
            i = i + 1
        return x


def test_tensor_index_with_slices_inside_a_tensor_loop():
    x = np.arange(24.0).reshape(2, 3, 4)
    expected = x.copy()
    for i in range(2):
        expected[i, :, 0:2] = x[i].max()
    out = RowMaxInLoop()(Tensor(np.array(0, np.int32)), Tensor(np.array(2, np.int32)),
                         Tensor(x))
    np.testing.assert_allclose(out.asnumpy(), expected)


@pytest.mark.parametrize("row", [0, 2])
def test_tensor_index_write_differentiates(row):
    class WriteRow(nn.Cell):
        def construct(self, x, v, i):
            x[i] = v * 2
            return (x * x * x).sum()

    i = Tensor(np.array(row, np.int32))
    x, v = Tensor(np.arange(6.0).reshape(3, 2) / 5), Tensor(np.array([0.3, -0.4]))
    check_grads(lambda a, b: WriteRow()(a, b, i), (x, v), order=2)
