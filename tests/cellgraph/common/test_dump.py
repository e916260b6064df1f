"""set_dump marks Cells and primitives as MindSpore's does off Ascend: a warning, the Cell flag
`dump` (recursively, and on the primitives a Cell holds once they are marked), the primitive
attribute "true"/"false", and MindSpore's ValueErrors for other targets."""
import pytest

import cellgraph as ms
from cellgraph import nn
from cellgraph.ops import Primitive


class _Marked(Primitive):
    def __init__(self):
        super().__init__("Marked")

    def __call__(self, x):
        return x


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()
        self.op = _Marked()

    def construct(self, x):
        return self.op(self.relu(x))


def test_set_dump_marks_cells_and_primitives():
    net = _Net()
    with pytest.warns(UserWarning, match="Only Ascend device target is supported"):
        ms.set_dump(net.relu)
    assert net.relu.get_flags()["dump"] is True
    with pytest.warns(UserWarning):
        ms.set_dump(net.op)
    assert net.op.attrs["dump"] == "true"
    with pytest.warns(UserWarning):
        ms.set_dump(net, False)
    assert net.get_flags()["dump"] is False and net.relu.get_flags()["dump"] is False
    assert net.op.attrs["dump"] == "false"


def test_set_dump_refuses_other_targets():
    with pytest.raises(ValueError, match='The "target" parameter must be an instance of Cell or '
                                         'Primitive'):
        ms.set_dump(1)
    with pytest.raises(ValueError, match='The "enabled" parameter must be bool.'):
        ms.set_dump(nn.ReLU(), 1)
