"""Containers: SequentialCell (runs its cells in order) and CellList (a list of cells that a
construct indexes or iterates). Children are stored under "0", "1", ... as MindSpore does, so
parameters are named "layers.0.weight". A compiled graph is rebuilt when the list changes."""
from __future__ import annotations

from collections import OrderedDict

from cellgraph.ops.errors import DTypeError

from .cell import Cell
from .layers import guarded

__all__ = ["CellList", "SequentialCell"]


def _check_cell(value, op: str) -> Cell:
    if not isinstance(value, Cell):
        raise DTypeError(f"{op}: expected a Cell, got {type(value).__name__}")
    return value


class _CellContainer(Cell):
    """Cells under the keys of `_names`, in order; `_layout` changes whenever they do."""

    op = ""

    def __init__(self):
        super().__init__()
        object.__setattr__(self, "_names", [])
        object.__setattr__(self, "_layout", object())

    def _changed(self) -> None:
        object.__setattr__(self, "_layout", object())

    def _add(self, name: str, cell) -> None:
        setattr(self, name, _check_cell(cell, self.op))  # prefixes the cell's parameter names
        self._names.append(name)
        self._changed()

    def _reindex(self, cells, new_cell=None) -> None:
        """Store `cells` under "0".."n-1" again (after an insert, a replacement or a deletion);
        `new_cell` is the one that joined, whose parameter names get its index."""
        for name in self._names:
            object.__delattr__(self, name)
        self._names.clear()
        for i, cell in enumerate(cells):
            if cell is new_cell:
                cell._prefix_parameter_names(str(i))
            object.__setattr__(self, str(i), cell)
            self._names.append(str(i))
        self._changed()

    def _cells_list(self) -> list:
        guarded(self, "_layout")  # a graph that iterated this list is rebuilt when it changes
        return [self.__dict__[name] for name in self._names]

    def __len__(self) -> int:
        return len(self._cells_list())

    def __iter__(self):
        return iter(self._cells_list())

    def __getitem__(self, index):
        cells = self._cells_list()
        if isinstance(index, slice):
            part = type(self)()
            part._reindex(cells[index])  # a view: the cells keep their parameter names
            return part
        if not isinstance(index, int) or isinstance(index, bool):
            raise DTypeError(f"{self.op}: index must be an int or a slice, got "
                             f"{type(index).__name__}")
        if not -len(cells) <= index < len(cells):
            raise IndexError(f"{self.op}: index {index} is out of range for {len(cells)} cells")
        return cells[index]

    def __setitem__(self, index, cell):
        cells = self._cells_list()
        cells[index] = _check_cell(cell, self.op)
        self._reindex(cells, cell)

    def __delitem__(self, index):
        cells = self._cells_list()
        del cells[index]
        self._reindex(cells)


class SequentialCell(_CellContainer):
    """`SequentialCell([c1, c2, ...])` or `SequentialCell(OrderedDict(name=cell))`: construct
    feeds the input through each cell in turn."""

    op = "SequentialCell"

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], (OrderedDict, dict)):
            for name, cell in args[0].items():
                self._add(str(name), cell)
            return
        cells = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        for i, cell in enumerate(cells):
            self._add(str(i), cell)

    def append(self, cell) -> SequentialCell:
        self._add(str(len(self._names)), cell)
        return self

    def construct(self, input_data):
        for cell in self._cells_list():
            input_data = cell(input_data)
        return input_data


class CellList(_CellContainer):
    """A list of cells: indexable, iterable (a `for` over it in construct is unrolled)."""

    op = "CellList"

    def __init__(self, *args):
        super().__init__()
        cells = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        self.extend(cells)

    def append(self, cell) -> CellList:
        self._add(str(len(self._names)), cell)
        return self

    def extend(self, cells) -> CellList:
        for cell in cells:
            self.append(cell)
        return self

    def insert(self, index, cell) -> None:
        cells = self._cells_list()
        cells.insert(index, _check_cell(cell, self.op))
        self._reindex(cells, cell)

    def construct(self, *inputs):
        raise NotImplementedError("CellList has no construct; index or iterate it in the "
                                  "construct of the Cell that owns it")
