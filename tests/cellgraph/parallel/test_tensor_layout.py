"""`parallel._tensor`: a parameter put back together from the slices every device holds, by
its device matrix and tensor map. Expected values recorded from MindSpore 2.10 (the highest
rank's copy of a slice held by several devices is the one kept)."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor
from cellgraph.parallel._tensor import _get_tensor_strategy, _reshape_param_data

CASES = [
    ([2, 2], [0, 1], [[1, 2], [5, 6], [3, 4], [7, 8]], [2, 2], [[1, 2, 3, 4], [5, 6, 7, 8]]),
    ([2, 2], [1, -1], [[1, 2, 3, 4], [1, 2, 3, 4], [5, 6, 7, 8], [5, 6, 7, 8]], [2, 1],
     [[1, 2, 3, 4], [5, 6, 7, 8]]),
    ([2, 2], [1, 0], np.arange(16).reshape(8, 2).tolist(), [2, 2],
     [[0, 1, 4, 5], [2, 3, 6, 7], [8, 9, 12, 13], [10, 11, 14, 15]]),
    ([4], [-1, -1], np.arange(8).reshape(8, 1).tolist(), [1, 1], [[6], [7]]),
    ([2, 2], [-1, 0], [[1, 2], [3, 4], [9, 9], [8, 8]], [1, 2], [[9, 9, 8, 8]]),
]


@pytest.mark.parametrize("dev_mat, tensor_map, stacked, strategy, whole", CASES)
def test_reshape_param_data_as_mindspore(dev_mat, tensor_map, stacked, strategy, whole):
    assert _get_tensor_strategy(dev_mat, tensor_map) == strategy
    out = _reshape_param_data(Tensor(np.array(stacked)), dev_mat, tensor_map)
    assert out.dtype == Tensor(np.array(stacked)).dtype
    assert out.asnumpy().tolist() == whole
