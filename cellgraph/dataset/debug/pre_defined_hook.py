"""The debug hooks MindSpore defines: the columns' types and shapes, or their values."""
from __future__ import annotations

import collections.abc

import numpy as np

from .debug_hook import DebugHook

__all__ = ["PrintDataHook", "PrintMetaDataHook"]


def _is_pil(value) -> bool:
    return type(value).__module__.startswith("PIL.")


class PrintMetaDataHook(DebugHook):
    """Prints each column's dtype and shape (an array), type and size (a Pillow image) or
    type and length (any other sized value)."""

    def __init__(self):
        super().__init__()

    def compute(self, *args):
        for index, column in enumerate(*args):
            message = f"Column {index}. "
            if isinstance(column, np.ndarray):
                message += f"The dtype is [{column.dtype}]. The shape is [{column.shape}]."
            elif _is_pil(column):
                message += f"The type is [{type(column)}]. The shape is [{column.size}]."
            elif isinstance(column, collections.abc.Sized):
                message += f"The type is [{type(column)}]. The size is [{len(column)}]."
            print(message, flush=True)
        return args


class PrintDataHook(DebugHook):
    """Prints each column's values (a Pillow image as its array)."""

    def __init__(self):
        super().__init__()

    def compute(self, *args):
        for index, column in enumerate(*args):
            data = np.asarray(column) if _is_pil(column) else column
            print(f"Column {index}. The data is [{data}].", flush=True)
        return args
