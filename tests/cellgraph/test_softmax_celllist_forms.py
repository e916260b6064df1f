"""ops.Softmax keeps its axis as a tuple and CellList takes `+= [cells]`, as in MindSpore 2.10
(its values and messages)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops


def test_softmax_axis_is_a_tuple():
    assert ops.Softmax().axis == (-1,)
    assert ops.Softmax(1).axis == (1,)
    assert ops.Softmax((0, 1)).axis == (0, 1)
    assert nn.Softmax(1).softmax.axis == (1,)
    assert ops.LogSoftmax(1).axis == 1
    for bad in (1.0, [1], True):
        with pytest.raises(TypeError, match="should be one of '\\[int, tuple of int\\]'"):
            ops.Softmax(bad)
    x = Tensor(np.array([[0.0, 1.0], [2.0, 4.0]], np.float32))
    np.testing.assert_allclose(ops.Softmax(0)(x).asnumpy(),
                               [[0.11920292, 0.04742587], [0.880797, 0.95257413]], rtol=1e-6)
    assert cg.jit(lambda t: ops.Softmax(1)(t))(x).shape == (2, 2)


def test_cell_list_iadd():
    cells = nn.CellList([nn.ReLU()])
    same = cells
    cells += [nn.Tanh(), nn.ReLU()]
    assert cells is same and len(cells) == 3 and isinstance(cells[1], nn.Tanh)
    with pytest.raises(TypeError, match="should be instance of list, but got CellList"):
        cells += nn.CellList([nn.ReLU()])
    with pytest.raises(TypeError, match="each cell must be subclass of Cell, but got int"):
        cells += [1]
    assert len(cells) == 3
