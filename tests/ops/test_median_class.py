"""ops.Median (global_median, axis, keep_dims, ignore_nan): the values and int64 indices
MindSpore 2.10's CPU kernel gives (ties by position, NaN handling, empty inputs), and its
checks."""
import numpy as np
import pytest

from cellgraph import Tensor, nn, ops

nan = np.nan
X = np.array([[3., nan, 1., 7.], [nan, nan, 2., 5.], [nan, nan, nan, nan], [4., 2., 9., 1.]],
             np.float32)
XI = np.array([[5, 1, 4, 1], [2, 8, 3, 3]], np.int32)
CASES = [
    (X, {"axis": 1}, [nan, nan, nan, 2.0], [1, 0, 0, 1]),
    (X, {"axis": 1, "ignore_nan": True}, [3.0, 2.0, nan, 2.0], [0, 2, 2, 1]),
    (X, {"axis": 0, "ignore_nan": True, "keep_dims": True}, [[3.0, 2.0, 2.0, 5.0]], [[0, 3, 1, 1]]),
    (X, {"global_median": True}, nan, 0),
    (X, {"global_median": True, "ignore_nan": True}, 3.0, 0),
    (XI, {"axis": 1}, [1, 3], [3, 2]),
    (XI, {"axis": -1, "keep_dims": True}, [[1], [3]], [[3], [2]]),
    (XI, {"global_median": True}, 3, 0),
    (XI, {"axis": 0}, [2, 1, 3, 1], [1, 0, 1, 0]),
    (np.zeros((2, 0), np.float32), {"global_median": True}, nan, 0),
    (np.zeros((2, 0), np.int32), {"global_median": True}, 0, 0),
]


@pytest.mark.parametrize("x, kwargs, values, indices", CASES)
def test_as_mindspore(x, kwargs, values, indices):
    value, index = ops.Median(**kwargs)(Tensor(x))
    assert value.asnumpy().dtype == x.dtype and index.asnumpy().dtype == np.int64
    np.testing.assert_array_equal(value.asnumpy(), np.asarray(values, x.dtype))
    np.testing.assert_array_equal(index.asnumpy(), indices)


def test_an_all_nan_slice_ignoring_nan_takes_nth_elements_position():
    # MindSpore 2.10, slices of n NaNs for n = 1..11
    got = [int(ops.Median(axis=0, ignore_nan=True)(Tensor(np.full(n, nan, np.float32)))[1])
           for n in range(1, 12)]
    assert got == [0, 0, 0, 2, 2, 3, 5, 6, 7, 8, 8]


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.median = ops.Median(axis=1, ignore_nan=True)

    def construct(self, x):
        return self.median(x)


def test_in_a_graph_and_empty_slices():
    value, index = _Net()(Tensor(X))
    np.testing.assert_array_equal(index.asnumpy(), [0, 2, 2, 1])
    value, index = ops.Median(axis=0)(Tensor(np.zeros((2, 0, 3), np.float32)))
    assert value.shape == (0, 3) and index.shape == (0, 3)


def test_checks_as_mindspore():
    with pytest.raises(ValueError, match=r"the axis must be in \[-2,2\), but got 2"):
        ops.Median(axis=2)(Tensor(XI))
    with pytest.raises(TypeError, match=r"but got Tensor\[UInt8\]"):
        ops.Median()(Tensor(XI.astype(np.uint8)))
    with pytest.raises(TypeError, match="the type of 'axis' should be 'int', but got type "
                                        "'float'"):
        ops.Median(axis=1.0)
    with pytest.raises(TypeError, match="the type of 'ignore_nan' should be 'bool', but got "
                                        "type 'int'"):
        ops.Median(ignore_nan=1)
