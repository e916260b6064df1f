"""DebugHook: the base of the hooks of the pipeline's debug mode."""
from __future__ import annotations

from abc import ABC, abstractmethod

__all__ = ["DebugHook"]


class DebugHook(ABC):
    """A hook called with the columns before and after an operation of a `map` (debug mode
    puts one copy of each configured hook there); `compute` does the debugging. Called, it
    prints which operation's input or output it sees, runs `compute(args)` and gives the
    columns back as it got them."""

    def __init__(self, prev_op_name=None):
        self.prev_op_name = prev_op_name
        self.is_first_op = None

    def __call__(self, *args):
        if self.prev_op_name:
            side = "INPUT" if self.is_first_op else "OUTPUT"
            print(f"[Dataset debugger] Print the [{side}] of the operation "
                  f"[{self.prev_op_name}].", flush=True)
        self.compute(args)
        return args

    @abstractmethod
    def compute(self, *args):
        """The debugging done with the columns (`args` holds one tuple of them)."""
        raise RuntimeError("compute() is not overridden in subclass of class DebugHook.")

    def set_previous_op_name(self, prev_op_name):
        self.prev_op_name = prev_op_name

    def set_is_first(self, is_first_op):
        self.is_first_op = is_first_op
