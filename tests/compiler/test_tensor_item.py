"""`x.item()` inside a graph: the one element of a Tensor of shape () or (1,) as a number known
when the graph runs (MindSpore 2.10's results, GRAPH_MODE)."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn


class Item(nn.Cell):
    def construct(self, t):
        return t.item()


class ItemPlusOne(nn.Cell):
    def construct(self, t):
        return t.item() + 1


@pytest.mark.parametrize("array, item, plus_one", [
    (np.array([1.5], np.float32), 1.5, 2.5),
    (np.array(2, np.int32), 2, 3),
])
def test_item_is_a_number_of_the_dtype_kind(array, item, plus_one):
    got, got_plus = Item()(Tensor(array)), ItemPlusOne()(Tensor(array))
    assert (type(got), got) == (type(item), item)
    assert (type(got_plus), got_plus) == (type(plus_one), plus_one)


def test_item_inside_computes_with_the_value_of_the_call():
    @ms.jit
    def scaled(x, t):
        return x * t.item()

    x = Tensor(np.ones(2, np.float32))
    assert scaled(x, Tensor([3.0])).asnumpy().tolist() == [3.0, 3.0]
    assert scaled(x, Tensor([4.0])).asnumpy().tolist() == [4.0, 4.0]


@pytest.mark.parametrize("shape", [(3, 4), (1, 1)])
def test_item_of_another_shape_is_a_value_error(shape):
    with pytest.raises(ValueError) as info:
        Item()(Tensor(np.ones(shape, np.float32)))
    assert str(info.value).startswith(f"The tensor should have only one element. But the shape "
                                      f"of input tensor is {shape}.\n  In file {__file__}:")
