"""ops.arange with 0-d Tensor bounds, eager and in a graph (where the bounds are graph inputs
it is specialised on): MindSpore 2.10's values, dtypes and errors (recorded below)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import nn, ops


class Arange(nn.Cell):
    def construct(self, start=0, end=None, step=1, dtype=None):
        return ops.arange(start, end, step, dtype=dtype)


CASES = [
    ((ms.Tensor(12.0, ms.float64), 2, ms.Tensor(-1.0, ms.float32)), ms.float32,
     [12.0, 11.0, 10.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0]),
    ((ms.Tensor(5, ms.int32),), ms.int64, [0, 1, 2, 3, 4]),
    ((ms.Tensor(1, ms.int32), ms.Tensor(4.5, ms.float32)), ms.float32, [1.0, 2.0, 3.0, 4.0]),
    ((0, ms.Tensor(3, ms.int64), 1.0), ms.float32, [0.0, 1.0, 2.0]),
]


@pytest.mark.parametrize("args, dtype, expected", CASES)
def test_tensor_bounds_as_mindspore(args, dtype, expected):
    for out in (ops.arange(*args), Arange()(*args)):
        assert out.dtype == dtype
        assert out.asnumpy().tolist() == expected
    out = Arange()(ms.Tensor(6, ms.int32), dtype=ms.float32)
    assert out.dtype == ms.float32 and out.asnumpy().tolist() == [0, 1, 2, 3, 4, 5]


def test_tensor_bound_errors_as_mindspore():
    with pytest.raises(ValueError, match="the input args must be a TensorScalar"):
        ops.arange(ms.Tensor([1, 2]))
    for bad in (ms.Tensor(True), ms.Tensor(3, ms.int16)):
        with pytest.raises(TypeError, match="must be int or float or a TensorScalar in"):
            ops.arange(bad)
    np.testing.assert_array_equal(ops.arange(ms.Tensor(7), ms.Tensor(1), -2).asnumpy(),
                                  [7, 5, 3])
