"""`bool(x)` of a graph Tensor in construct: a variable bool, returned as a Python bool and
usable as a condition, as MindSpore 2.10's (its results for the same programs recorded below:
False, True, False, True; [4] and [-1]; ValueError for two elements)."""
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn


class Truth(nn.Cell):
    def construct(self, x):
        return bool(x)


class Branch(nn.Cell):
    def construct(self, x):
        if bool(x):
            return x + 1
        return x - 1


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)


@pytest.mark.parametrize("value,dtype,expected", [([0], ms.int32, False), ([1], ms.int32, True),
                                                  (0.0, ms.float32, False),
                                                  (2.5, ms.float32, True)])
def test_value_is_a_python_bool(value, dtype, expected):
    out = Truth()(Tensor(value, dtype))
    assert type(out) is bool and out is expected


def test_as_a_condition():
    assert Branch()(Tensor([3], ms.int32)).asnumpy().tolist() == [4]
    assert Branch()(Tensor([0], ms.int32)).asnumpy().tolist() == [-1]


def test_several_elements_have_no_truth_value():
    with pytest.raises(ValueError, match="more than one element is ambiguous"):
        Truth()(Tensor([1, 2], ms.int32))
