"""Containers: SequentialCell (runs its cells in order), CellList (a list of cells that a
construct indexes or iterates) and CellDict (cells by string key). Children are stored under "0", "1", ... as MindSpore does, so
parameters are named "layers.0.weight". A compiled graph is rebuilt when the list changes."""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Self

from cellgraph.primitives.errors import DTypeError

from ..cell import Cell
from ._checks import guarded

__all__ = ["CellDict", "CellList", "SequentialCell"]


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
                cell.update_parameters_name(f"{i}.")
            object.__setattr__(self, str(i), cell)
            self._names.append(str(i))
        self._changed()

    def _name_prefix(self) -> tuple[str, int]:
        """What MindSpore's containers read off their first Parameters' names when a Cell
        joins later: the prefix before the first holding Cell's key ("d." in "d.0.weight")
        and the key's position among the dotted parts."""
        found = []
        for key in self._names:
            first = next(iter(self.__dict__[key].parameters_and_names()), None)
            if first is not None:
                found.append((key, first[1].name.split(".")))
                if len(found) == 2:
                    break
        prefix, position = "", 0
        if not found:
            return prefix, position
        first_key, parts = found[0]
        for i, part in enumerate(parts):
            if part == first_key:
                prefix, position = ".".join(parts[:i]) + "." if i else "", i
                if len(found) > 1 and i < len(found[1][1]) and found[1][1][i] == found[1][0]:
                    break
        return prefix, position

    def _append(self, cell) -> None:
        """A Cell joins at the end, its Parameters named by the prefix the others carry."""
        prefix, _ = self._name_prefix()
        index = str(len(self._names))
        self._add(index, cell)
        if prefix and self._auto_prefix:
            cell.update_parameters_name(f"{prefix}{index}.")

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

    def insert(self, index, cell) -> None:
        """As MindSpore's: the Cells after `index` move up one and their Parameters are
        renamed to their new index, the new Cell's named by its index, under the prefix the
        others carry."""
        cells = self._cells_list()
        prefix, position = self._name_prefix()
        cells.insert(index, _check_cell(cell, self.op))
        self._reindex(cells, cell)
        start = cells.index(cell)
        if prefix and self._auto_prefix:
            cell.update_parameters_name(f"{prefix}{start}.")
        for i in range(start + 1, len(cells)):
            for _, param in cells[i].parameters_and_names():
                rest = param.name.split(".")[position + 1:]
                param.name = ".".join([f"{prefix}{i}", *rest])


class SequentialCell(_CellContainer):
    """`SequentialCell([c1, c2, ...])` or `SequentialCell(OrderedDict(name=cell))`: construct
    feeds the input through each cell in turn."""

    op = "SequentialCell"

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], dict) and not isinstance(args[0], OrderedDict):
            raise DTypeError(f"For '{self.op}', the 'args[0]' must be Cell, list or orderedDict, "
                             f"but got {type(args[0]).__name__}")
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, cell in args[0].items():
                self._add(str(name), cell)
            return
        cells = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        for i, cell in enumerate(cells):
            self._add(str(i), cell)

    def append(self, cell) -> None:
        """Add `cell` at the end; returns None, as MindSpore's."""
        self._append(cell)

    @property
    def cell_list(self) -> list:
        """The cells in order, as a list (MindSpore's attribute, which subclasses and wrappers
        such as mindcv's feature extractor read)."""
        return self._cells_list()

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

    def append(self, cell) -> None:
        """Add `cell` at the end; returns None, as MindSpore's (extend returns the list)."""
        self._append(cell)

    def extend(self, cells) -> CellList:
        for cell in cells:
            self.append(cell)
        return self

    def __iadd__(self, cells) -> Self:
        """`cell_list += [cells]`: a list of Cells appended, as MindSpore takes it (another
        CellList or any other value is a TypeError)."""
        if not isinstance(cells, list):
            raise DTypeError(f"For 'CellList', the new cells wanted to append should be "
                             f"instance of list, but got {type(cells).__name__}.")
        for cell in cells:
            if not isinstance(cell, Cell):
                raise DTypeError(f"For 'CellList', each cell must be subclass of Cell, but "
                                 f"got {type(cell).__name__}.")
        return self.extend(cells)

    def construct(self, *inputs):
        raise NotImplementedError("CellList has no construct; index or iterate it in the "
                                  "construct of the Cell that owns it")


class CellDict(_CellContainer):
    """Cells under string keys, in insertion order, used like a dict (`heads[task]` with a
    Python key in construct picks a cell at compile time). Parameters are named
    "<dict name>.<key>.<name>". Keys must be non-empty, free of ".", and no attribute of Cell;
    the values may not be containers themselves."""

    op = "CellDict"

    def __init__(self, *args, **kwargs):
        super().__init__()
        unknown = sorted(set(kwargs) - {"auto_prefix"})
        if unknown:
            raise TypeError(f"CellDict: unexpected keyword argument(s) {', '.join(unknown)}; "
                            f"expected auto_prefix")
        # MindSpore's only keyword, auto_prefix, leaves the parameter names "<dict name>.<key>.
        # <name>" as they are (checked against MindSpore 2.10), and so it does here
        if len(args) > 1:
            raise TypeError(f"CellDict: expected at most one iterable of (key, Cell) pairs, got "
                            f"{len(args)} arguments")
        if args:
            self.update(args[0])

    def _check_entry(self, key, cell) -> None:
        if not isinstance(key, str):
            raise TypeError(f"CellDict: keys must be str, got {type(key).__name__} {key!r}")
        if not key or "." in key or hasattr(Cell, key):
            raise KeyError(f"CellDict: the key {key!r} must be non-empty, contain no '.' and "
                           f"not name an attribute of Cell")
        if isinstance(cell, _CellContainer):
            raise TypeError(f"CellDict: a value may not be a {type(cell).__name__}, got one "
                            f"for key {key!r}")
        if not isinstance(cell, Cell):
            raise TypeError(f"CellDict: expected a Cell for key {key!r}, got "
                            f"{type(cell).__name__}")

    def __getitem__(self, key):
        guarded(self, "_layout")  # a graph that picked a cell by key is rebuilt when it changes
        if key not in self._names:
            raise KeyError(f"CellDict: no cell under the key {key!r}; keys are "
                           f"{list(self._names)}")
        return self.__dict__[key]

    def __setitem__(self, key, cell):
        self._check_entry(key, cell)
        if key in self._names:
            self._names.remove(key)
            object.__delattr__(self, key)
        self._add(key, cell)

    def __delitem__(self, key):
        self.pop(key)

    def __contains__(self, key) -> bool:
        return key in self._names

    def __iter__(self):
        return iter(self.keys())

    def __len__(self) -> int:
        guarded(self, "_layout")
        return len(self._names)

    def keys(self):
        guarded(self, "_layout")
        return OrderedDict((name, None) for name in self._names).keys()

    def values(self):
        return [self[key] for key in self.keys()]

    def items(self):
        return [(key, self[key]) for key in self.keys()]

    def pop(self, key):
        cell = self[key]
        self._names.remove(key)
        object.__delattr__(self, key)
        self._changed()
        return cell

    def clear(self):
        for key in list(self._names):
            self.pop(key)

    def update(self, cells):
        """Add or replace the cells of a mapping or an iterable of (key, Cell) pairs."""
        if isinstance(cells, (Mapping, CellDict)):
            pairs = list(cells.items())
        else:
            try:
                pairs = list(cells)
            except TypeError:
                raise TypeError(f"CellDict.update: expected a mapping or an iterable of (key, "
                                f"Cell) pairs, got {type(cells).__name__}") from None
        for pair in pairs:
            if not isinstance(pair, (tuple, list)):
                raise TypeError(f"CellDict.update: expected (key, Cell) pairs, got "
                                f"{type(pair).__name__}")
            if len(pair) != 2:
                raise ValueError(f"CellDict.update: expected (key, Cell) pairs of length 2, "
                                 f"got one of length {len(pair)}")
            self[pair[0]] = pair[1]

    def construct(self, *inputs):
        raise NotImplementedError("CellDict has no construct; pick a cell by key in the "
                                  "construct of the Cell that owns it")
