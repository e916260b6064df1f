"""What a network holds that rewrite treats apart: Cells the user wrote (parsed as sub-trees)
and sequences of Cells (CellContainer nodes)."""
from __future__ import annotations

from cellgraph.nn.cell import Cell
from cellgraph.nn.layer.container import CellList, SequentialCell

_LIBRARY_ROOTS = ("cellgraph", "mindspore")


def container_cells(container) -> list:
    """The cells of a SequentialCell, a CellList or a list or tuple of Cells, in order."""
    return list(container.cell_list) if isinstance(container, SequentialCell) \
        else list(container)


def is_cell_sequence(value) -> bool:
    """A CellList, or a non-empty list or tuple of Cells, that a `for` may iterate."""
    if isinstance(value, CellList):
        return True
    return isinstance(value, (list, tuple)) and bool(value) and \
        all(isinstance(v, Cell) for v in value)


def is_user_cell(cell) -> bool:
    """A Cell whose class the user wrote (rewrite parses its forward method as a sub-tree);
    library Cells (nn.Dense, nn.ReLU) are called as they are."""
    module = type(cell).__module__ or ""
    return isinstance(cell, Cell) and module.split(".")[0] not in _LIBRARY_ROOTS
