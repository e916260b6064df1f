"""`mindspore.utils.MsDispatchMode`: intercept the operations PyNative runs.

Inside `with Mode():` (or a function decorated with `@Mode()`), every operation run eagerly is
handed to `Mode().__ms_dispatch__(func, args)` instead of running: `func.name` is MindSpore's
name of the operation, `args` its operands followed by its static parameters, and `func(*args)`
runs it (through the next mode out, when modes nest; the innermost handles first). Operations the
handler itself runs are not dispatched. Graphs (GRAPH_MODE, `jit`, and the gradient transforms,
which cellgraph compiles in PyNative mode too) are not intercepted: MindSpore dispatches its
PyNative gradients operation by operation, cellgraph runs them as one graph.
"""
from __future__ import annotations

import contextlib

from cellgraph.runtime.eager import DISPATCH

__all__ = ["MsDispatchMode"]


class MsDispatchMode(contextlib.ContextDecorator):
    """Base class of dispatch modes: override `__ms_dispatch__(self, func, args, kwargs=None)`
    (by default it runs the operation)."""

    def __enter__(self):
        DISPATCH.modes.append(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        DISPATCH.modes.pop()
        return False

    def __ms_dispatch__(self, func, args, kwargs=None):
        """Run the operation `func` on `args`; a subclass may log, change the arguments or the
        result, or not run it."""
        return func(*args)
