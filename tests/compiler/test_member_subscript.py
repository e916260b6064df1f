"""Item assignments into an attribute of `self`, refused as MindSpore 2.10's parser refuses
them (its TypeErrors and words, with the comma and the quote its message misses put back): an
attribute never set, and, below jit_syntax_level LAX, one that is not a Parameter."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn


class Holds(nn.Cell):
    def __init__(self, value, write):
        super().__init__()
        self.z = value
        self.write = write

    def construct(self, x):
        if self.write == "set_item":
            return self.set_item(x)
        if self.write == "set_nested_item":
            return self.set_nested_item(x)
        if self.write == "add_to_item":
            return self.add_to_item(x)
        if self.write == "append_to_item":
            return self.append_to_item(x)
        if self.write == "append_to_member":
            return self.append_to_member(x)
        if self.write == "set_item_of_slice":
            return self.set_item_of_slice(x)
        return self.set_dict_item()

    def set_item(self, x):
        self.z[0] = x
        return self.z[0]

    def set_nested_item(self, x):
        self.z[0][1] = 9
        return x

    def add_to_item(self, x):
        self.z[0] += 1
        return x

    def append_to_item(self, x):
        self.z[0].append(88)
        return x

    def append_to_member(self, x):
        self.z.append(88)
        return x

    def set_item_of_slice(self, x):
        self.z[0:1][0] = 9
        return x

    def set_dict_item(self):
        self.z["x"] = 3
        return self.z["x"]


@pytest.fixture
def strict(monkeypatch):
    ms.set_context(mode=ms.GRAPH_MODE)
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", "0")


@pytest.mark.parametrize("level", ["0", "1"])
@pytest.mark.parametrize("value, write, shown", [
    ([[1, 2], 3], "set_item", r"'\[\[1, 2\], 3\]' with type 'list'"),
    ([[1, 2], 3], "set_nested_item", ".* with type 'list'"),
    ([[1, 2], 3], "append_to_item", ".* with type 'list'"),
    ({"x": 1}, "set_item", ".* with type 'dict'"),
    (5, "set_item", "'5' with type 'int'"),
    (Tensor([1, 2]), "add_to_item", r"'\[1 2\]' with type 'Tensor'"),
])
def test_below_lax_only_a_parameter_takes_items(monkeypatch, level, value, write, shown):
    ms.set_context(mode=ms.GRAPH_MODE)
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", level)
    with pytest.raises(TypeError, match=r"When JIT_SYNTAX_LEVEL is not set to LAX, self.z "
                                        r"should be initialized as a 'Parameter' in the "
                                        r"'__init__' function to perform assign subscript, "
                                        r"but got: " + shown):
        Holds(value, write)(Tensor([7]))


def test_what_strict_leaves_alone(strict):
    # a Parameter takes the item; appending to the member itself, or writing into a slice's
    # copy, is no item assignment of self.z (MindSpore 2.10 runs all three)
    weight = Holds(Parameter(Tensor(np.array([1, 2], np.int32)), name="w"), "set_item")
    assert weight(Tensor(np.array(3, np.int32))).asnumpy() == 3
    assert weight.z.asnumpy().tolist() == [3, 2]
    assert Holds([1, 2], "append_to_member")(Tensor([7])).asnumpy().tolist() == [7]
    assert Holds([1, 2], "set_item_of_slice")(Tensor([7])).asnumpy().tolist() == [7]


@pytest.mark.parametrize("level", ["0", "2"])
def test_an_attribute_never_set_is_refused_at_every_level(monkeypatch, level):
    ms.set_context(mode=ms.GRAPH_MODE)
    monkeypatch.setenv("MS_DEV_JIT_SYNTAX_LEVEL", level)

    class Undefined(nn.Cell):
        def construct(self, x):
            self.x[0][1] = 9
            return self.x

    with pytest.raises(TypeError, match=r"'self.x' should be initialized in the '__init__' "
                                        r"function before subscript."):
        Undefined()(Tensor([1]))


def test_lax_writes_items_of_other_members(monkeypatch):
    ms.set_context(mode=ms.GRAPH_MODE)
    monkeypatch.delenv("MS_DEV_JIT_SYNTAX_LEVEL", raising=False)
    net = Holds({"x": 1, "y": 2}, "set_dict_item")
    assert net(Tensor([1])) == 3 and net.z == {"x": 3, "y": 2}  # MindSpore 2.10's result

