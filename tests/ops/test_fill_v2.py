"""ops.FillV2: a shape given as a 1-D integer Tensor filled with a one-element Tensor, with
MindSpore 2.10's results and errors for the same calls (recorded below)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops


def test_values_and_dtype():
    out = ops.FillV2()(Tensor([2, 3], ms.int64), Tensor(1.5, ms.float16))
    assert out.dtype == ms.float16 and out.asnumpy().tolist() == [[1.5] * 3] * 2
    out = ops.FillV2()(Tensor(np.array([2], np.int32)), Tensor(7, ms.int32))
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [7, 7]
    assert ops.FillV2()((2, 3), Tensor(1.0)).asnumpy().tolist() == [[1.0] * 3] * 2


@pytest.mark.parametrize("shape,value,error,match", [
    (Tensor([2, 3]), 1.0, TypeError, r"argument\[y\] must be Tensor"),
    (Tensor([2, 3]), Tensor([1.0, 2.0]), ValueError, "must be equal to 1, but got 2"),
    (Tensor([[2, 3]]), Tensor(1.0), ValueError, "only could be one-dimensional"),
    (Tensor([2.0, 3.0]), Tensor(1.0), TypeError, r"Tensor\[Float32\]"),
    (Tensor([2, -1]), Tensor(1.0), ValueError, "greater than or equal to 0, but got -1"),
])
def test_errors_as_mindspore(shape, value, error, match):
    with pytest.raises(error, match=match):
        ops.FillV2()(shape, value)
