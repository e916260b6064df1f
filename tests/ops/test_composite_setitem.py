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


class Write(nn.Cell):
    def __init__(self, index, value):
        super().__init__()
        self.index, self.value = index, value

    def construct(self, x):
        x[self.index] = self.value
        return x


X = np.arange(24).reshape(8, 3).astype(np.float32)
# MindSpore 2.10's first three rows after each write
ROWS = {
    "repeated rows": (Tensor(np.array([[2, 0], [0, 2]], np.int32)), 88.0,
                      [[88.0] * 3, [3.0, 4.0, 5.0], [88.0] * 3]),
    "tuple with a Tensor": (2, (1.0, Tensor(np.float32(5)), 8.0),
                            [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [1.0, 5.0, 8.0]]),
    "list on a slice": (slice(0, 2), [1.0, Tensor(np.float32(5)), 8.0],
                        [[1.0, 5.0, 8.0], [1.0, 5.0, 8.0], [6.0, 7.0, 8.0]]),
    "tuple of numbers": (None, (1.0, 2.0, 3.0), [[1.0, 2.0, 3.0]] * 3),
}


@pytest.mark.parametrize("case", sorted(ROWS))
def test_writes_of_repeated_rows_and_sequences_are_mindspores(case):
    index, value, rows = ROWS[case]
    out = Write(index, value)(Tensor(X)).asnumpy()
    np.testing.assert_array_equal(out[:3], rows)
    np.testing.assert_array_equal(out[3:], X[3:] if case != "tuple of numbers" else [[1, 2, 3]] * 5)


def test_a_repeated_row_takes_its_last_write_and_its_gradient():
    class WriteRows(nn.Cell):
        def construct(self, x, v, i):
            x[i] = v
            return (x * x).sum()

    i = Tensor(np.array([1, 0, -2, 1], np.int32))  # row 1 twice: the last write wins
    x, v = np.arange(6.0).reshape(3, 2), np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    expected = x.copy()
    expected[[1, 0, -2, 1]] = v
    np.testing.assert_allclose(WriteRows()(Tensor(x), Tensor(v), i).asnumpy(),
                               (expected * expected).sum())
    check_grads(lambda a, b: WriteRows()(a, b, i), (Tensor(x), Tensor(v)), order=1)
