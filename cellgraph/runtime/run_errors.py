"""Errors raised while a compiled graph runs, located like compile-time errors.

A kernel that fails (NumPy's IndexError for an index out of range, its ValueError for the
maximum of an empty array) raised from a line of generated code. Code generation notes which
node every line runs (`Module.line_nodes`), so the error is re-raised as a cellgraph error that
names the operation, the IR node, the values it got and the user's line, with a caret.
"""
from __future__ import annotations

import numpy as np

from cellgraph.primitives.errors import (
    ArgumentValueError,
    CellgraphError,
    DTypeError,
    IndexRangeError,
    RunError,
    raised_by_user_function,
)

# the Python exception -> the cellgraph error it becomes (first match in the exception's MRO)
ERROR_CLASSES = {IndexError: IndexRangeError, ValueError: ArgumentValueError,
                 TypeError: DTypeError}
SHOWN_VALUES = 8  # inputs with at most this many elements are shown in full


class UnappliedRun(Exception):
    """A compiled run that ended in a failed check (a backend that reads its checks after the
    run: runtime/jax_lowering.py): `error` is raised once the Parameters the run updates are
    given back `outputs`' values for them, which the program left as they were."""

    def __init__(self, error: BaseException, outputs: tuple):
        super().__init__(str(error))
        self.error, self.outputs = error, outputs


def located_error(exc: BaseException, module, namespace: dict) -> BaseException:
    """The error to raise for `exc`, raised inside the generated code bound to `namespace`."""
    frame, line = _failing_frame(exc, namespace)
    entry = module.line_nodes.get(line) if frame is not None else None
    if entry is None:
        return exc  # not raised by a node of this graph: leave it as it is
    node, inputs, graph_name = entry
    if isinstance(exc, CellgraphError):
        return exc.with_loc(node.loc)
    if raised_by_user_function(exc):
        return exc
    cls = next((ERROR_CLASSES[c] for c in type(exc).__mro__ if c in ERROR_CLASSES), RunError)
    if node.callee.name == "raise":
        if issubclass(cls, type(exc)):  # the program's own message, as MindSpore gives it
            return cls(str(exc), node.loc)
        # the program's own `raise KeyError(...)` or failed `assert` reaches it as that type,
        # as in MindSpore; no cellgraph class is one, so the line goes in a note
        if node.loc is not None and hasattr(exc, "add_note"):
            exc.add_note(node.loc.render())
        return exc
    described = ", ".join(_describe(name, frame.f_locals, frame.f_globals) for name in inputs)
    params = {k: v for k, v in node.params.items() if not hasattr(v, "nodes")}
    op = params.get("op") or node.callee.label  # a check node names the operation it is for
    shown_params = (" {" + ", ".join(f"{k}={v!r:.40}" for k, v in params.items()) + "}"
                    if params else "")
    message = (f"{op}: {type(exc).__name__}: {exc}\n"
               f"  while running node {node.callee.name}({', '.join(inputs)}){shown_params} "
               f"of graph @{graph_name}\n  inputs: {described or 'none'}")
    return cls(message, node.loc)


def kernel_error(exc: Exception, prim, args, params: dict) -> BaseException:
    """The error to raise for `exc`, raised by `prim`'s kernel run eagerly (PyNative mode,
    `__init__` code, constant folding) on `args`: typed as in a graph, naming the operation,
    its parameters and the values it got."""
    if isinstance(exc, (CellgraphError, NotImplementedError)) or \
            raised_by_user_function(exc):
        return exc
    cls = next((ERROR_CLASSES[c] for c in type(exc).__mro__ if c in ERROR_CLASSES), RunError)
    names = [f"x{i}" for i in range(len(args))]
    values = {name: getattr(a, "_data", a) for name, a in zip(names, args)}
    described = ", ".join(_describe(name, values, {}) for name in names)
    shown = {k: v for k, v in params.items() if not hasattr(v, "nodes")}
    shown_params = (" {" + ", ".join(f"{k}={v!r:.40}" for k, v in shown.items()) + "}"
                    if shown else "")
    op = shown.get("op") or prim.label
    return cls(f"{op}: {type(exc).__name__}: {exc}\n  while running {prim.name}{shown_params}"
               f"\n  inputs: {described or 'none'}")


def _failing_frame(exc: BaseException, namespace: dict):
    """The innermost frame of the generated code in `exc`'s traceback and its line."""
    found, line = None, None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_globals is namespace:
            found, line = tb.tb_frame, tb.tb_lineno
        tb = tb.tb_next
    return found, line


def _describe(name: str, local: dict, globs: dict) -> str:
    value = local[name] if name in local else globs.get(name, name)
    if not hasattr(value, "shape") or not hasattr(value, "dtype"):
        return f"{name} = {value!r:.40}"
    array = np.asarray(value) if isinstance(value, np.ndarray) else None
    head = f"{name}: {value.dtype}{list(value.shape)}"
    if array is None:
        return head
    if array.size <= SHOWN_VALUES:
        return f"{head} = {np.array2string(array, separator=', ', max_line_width=10**6)}"
    if array.dtype.kind in "iub" and array.size:
        return f"{head} with values in [{array.min()}, {array.max()}]"
    return head
