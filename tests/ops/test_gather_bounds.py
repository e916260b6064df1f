"""An index out of range in Gather raises MindSpore's RuntimeError words (its tests match them),
naming the range and the first index outside it."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import ops


def test_out_of_range_index_is_named_as_mindspore_does():
    table = ms.Tensor(np.arange(7).astype(np.float32))
    with pytest.raises(RuntimeError, match=r"For 'Gather', the 'input_indices' should be in the "
                                           r"range \[0, 7\), but got 100"):
        table.gather(ms.Tensor(np.array([0, 100, 4], np.int64)), 0)
    with pytest.raises(RuntimeError, match=r"range \[0, 3\), but got 100"):
        ops.Gather()(ms.Tensor(np.ones((3, 4), np.float32)), ms.Tensor(np.array([0, 100])), 0)
    assert table.gather(ms.Tensor(np.array([-1, 2])), 0).asnumpy().tolist() == [6.0, 2.0]
