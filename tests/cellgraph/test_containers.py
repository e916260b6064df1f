"""CellDict (MindSpore's dict of cells: key rules, update order, pop/clear, graphs rebuilt
when it changes), SequentialCell.insert, and Parameters held in a tuple attribute."""
from collections import OrderedDict

import numpy as np
import pytest

from cellgraph import Parameter, Tensor, nn


def test_celldict_behaves_like_a_dict():
    cells = nn.CellDict({"conv": nn.Conv2d(2, 3, 3), "relu": nn.ReLU()})
    assert len(cells) == 2 and list(cells) == ["conv", "relu"]
    cells.update(OrderedDict([("pool", nn.MaxPool2d(2, 2)), ("relu", nn.Tanh())]))
    assert list(cells.keys()) == ["conv", "pool", "relu"]
    assert isinstance(cells["relu"], nn.Tanh)
    assert [name for name, _ in cells.items()] == ["conv", "pool", "relu"]
    assert cells["conv"].weight.name == "conv.weight"
    popped = cells.pop("conv")
    assert isinstance(popped, nn.Conv2d) and "conv" not in cells
    cells.clear()
    assert len(cells) == 0


def test_celldict_refuses_bad_keys_and_values():
    cells = nn.CellDict()
    with pytest.raises(TypeError, match="keys must be str"):
        cells[1] = nn.ReLU()
    for key in ("", "a.b", "construct"):
        with pytest.raises(KeyError):
            cells[key] = nn.ReLU()
    with pytest.raises(TypeError, match="CellList"):
        cells["list"] = nn.CellList([nn.ReLU()])
    with pytest.raises(ValueError, match="length 2"):
        cells.update([("a", nn.ReLU(), 3)])
    with pytest.raises(KeyError, match="no cell"):
        cells.pop("missing")


def test_graph_picking_by_key_is_rebuilt_when_the_dict_changes():
    class Pick(nn.Cell):
        def __init__(self):
            super().__init__()
            self.acts = nn.CellDict({"act": nn.ReLU()})

        def construct(self, x):
            return self.acts["act"](x)

    net = Pick()
    x = Tensor(np.array([-1.0, 2.0], np.float32))
    np.testing.assert_allclose(net(x).asnumpy(), [0.0, 2.0])
    net.acts["act"] = nn.Tanh()
    np.testing.assert_allclose(net(x).asnumpy(), np.tanh([-1.0, 2.0]), rtol=1e-6)


def test_sequential_insert_names_the_new_cell_by_its_index():
    seq = nn.SequentialCell([nn.ReLU(), nn.Dense(2, 2)])
    seq.insert(0, nn.Dense(2, 2))
    assert [type(c).__name__ for c in seq] == ["Dense", "ReLU", "Dense"]
    assert seq[0].weight.name == "0.weight"


def test_parameters_in_a_tuple_attribute_are_not_the_cells_as_in_mindspore():
    """MindSpore's Cell keeps a plain tuple of Parameters as an attribute only: they are read
    in construct but no walk (trainable_params, checkpoints) finds them (MindSpore 2.10)."""
    class Scales(nn.Cell):
        def __init__(self):
            super().__init__()
            self.scales = (Parameter(Tensor(2.0), name="a"), Parameter(Tensor(3.0)))
            self.w = Parameter(Tensor(1.0), name="w")

        def construct(self, x):
            return x * self.scales[0] * self.scales[1] * self.w

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Scales()

        def construct(self, x):
            return self.inner(x)

    net = Outer()
    assert [p.name for p in net.trainable_params()] == ["inner.w"]
    np.testing.assert_allclose(net(Tensor(np.ones(2, np.float32))).asnumpy(), [6.0, 6.0])


def test_sequential_cell_list_attribute_as_mindspore_has_it():
    """`seq.cell_list`: the cells in order (after append too), read in construct as well, as
    MindSpore programs (mindcv's feature extractor) do."""
    seq = nn.SequentialCell([nn.Dense(2, 3), nn.ReLU()])
    seq.append(nn.Dense(3, 1))
    assert [type(c).__name__ for c in seq.cell_list] == ["Dense", "ReLU", "Dense"]

    class Features(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def construct(self, x):
            outs = []
            for cell in self.net.cell_list:
                x = cell(x)
                outs.append(x)
            return tuple(outs)

    x = Tensor(np.ones((1, 2), np.float32))
    outs = Features(seq)(x)
    assert [o.shape for o in outs] == [(1, 3), (1, 3), (1, 1)]
    np.testing.assert_allclose(outs[-1].asnumpy(), seq(x).asnumpy(), rtol=1e-6)


def test_cells_joining_later_take_the_prefix_the_others_carry():
    """MindSpore 2.10: a Cell appended to (or inserted in) a CellList whose Cells already carry
    a prefix ("d.0.weight") gets it too, and an insert renames the Cells that move up."""
    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.c = nn.CellList()
            self.c.append(nn.Dense(2, 2))
            self.d = nn.CellList([nn.Dense(1, 1)])
            self.d.append(nn.Dense(1, 2))
            self.d.insert(0, nn.Dense(1, 3))

        def construct(self, x):
            return x

    net = Holder()
    assert [p.name for p in net.trainable_params()] == [
        "0.weight", "0.bias", "d.0.weight", "d.0.bias", "d.1.weight", "d.1.bias",
        "d.2.weight", "d.2.bias"]
    assert net.d[0].weight.shape == (3, 1) and net.d[1].weight.shape == (1, 1)


def test_sequential_cell_takes_an_ordered_dict_not_a_dict():
    x = Tensor(np.array([[-1.0, 2.0]], np.float32))
    cell = nn.SequentialCell(OrderedDict([("relu", nn.ReLU())]))
    np.testing.assert_array_equal(cell(x).asnumpy(), [[0.0, 2.0]])
    with pytest.raises(TypeError, match="the 'args\\[0\\]' must be Cell, list or orderedDict, "
                                        "but got dict"):
        nn.SequentialCell({"relu": nn.ReLU()})
