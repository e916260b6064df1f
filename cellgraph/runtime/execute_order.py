"""The record of the collectives a rank runs, in the order it runs them (MindSpore's execute-order
tracker for communication operations).

While collecting is on, each collective kernel (runtime/collective_kernels.py) adds one row: a
running index, the group, the world ranks of the group (space-separated), MindSpore's name of
the primitive, the world rank it sends to (dest_rank), receives from (src_rank) or that roots it
(root_rank), and its input's and output's shape, dtype and size in bytes. `stop` writes the rows
to a CSV file with MindSpore's columns (`comm_execute_order.csv`, which
`mindspore.utils.runtime_execution_order_check` reads back to find ranks whose orders cannot
all complete).
"""
from __future__ import annotations

import csv
import os
import threading

import numpy as np

from cellgraph.primitives import dtype as dtypes

COLUMNS = ("index", "group", "comm_rank", "primitive", "src_rank", "dest_rank", "root_rank",
           "input_shape", "input_type", "output_shape", "output_type", "input_size",
           "output_size")


def _shape(a) -> str:
    return "(" + ", ".join(str(int(d)) for d in a.shape) + ")"


def _dtype(a) -> str:
    name = str(a.dtype).replace("torch.", "")
    try:
        return str(dtypes.from_numpy(np.dtype(name)))
    except TypeError:
        return name


def _nbytes(a) -> str:
    size = 1
    for d in a.shape:
        size *= int(d)
    itemsize = getattr(a, "itemsize", None) or a.element_size()
    return str(size * int(itemsize))


class CommOrderRecorder:
    """The rows of one process; `collecting` says whether the kernels add to them."""

    def __init__(self):
        self._lock = threading.Lock()
        self.collecting = False
        self.rows: list[dict] = []
        self._index = 0

    def start(self) -> None:
        with self._lock:
            self.collecting = True
            self.rows = []
            self._index = 0

    def stop(self, path: str | None) -> str | None:
        """Stop collecting; write the rows to `path` (its folders made) when there are any.
        Returns the path written, or None."""
        with self._lock:
            self.collecting = False
            rows, self.rows = self.rows, []
        if not rows or path is None:
            return None
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(rows)
        return path

    def record(self, primitive: str, group: str, ranks, x=None, out=None, *, src=None,
               dest=None, root=None) -> None:
        """One row for `primitive` on `group` (whose world ranks, in group-rank order, are
        `ranks`); src/dest/root are group ranks; x and out are the input and output arrays."""
        if not self.collecting:
            return
        ranks = [int(r) for r in ranks]

        def world(r):
            return "" if r is None or not 0 <= int(r) < len(ranks) else str(ranks[int(r)])

        row = {"group": group, "comm_rank": " ".join(map(str, ranks)), "primitive": primitive,
               "src_rank": world(src), "dest_rank": world(dest), "root_rank": world(root)}
        for prefix, a in (("input", x), ("output", out)):
            known = a is not None and hasattr(a, "shape")
            row[f"{prefix}_shape"] = _shape(a) if known else "UnknownShape"
            row[f"{prefix}_type"] = _dtype(a) if known else "UnknownType"
            row[f"{prefix}_size"] = _nbytes(a) if known else "0"
        with self._lock:
            row["index"] = str(self._index)
            self._index += 1
            self.rows.append(row)


RECORDER = CommOrderRecorder()
