"""Forward hooks on Cells (`register_forward_pre_hook`, `register_forward_hook`).

A hook is user Python: in PyNative mode it runs around construct on every call; in graph mode
it runs while the graph is built (parsed like construct, so Tensor operations in it become
part of the graph). Registering or removing a hook replaces the Cell's hook table, and the
compiled graph guards on that table, so the next call recompiles with the new hooks.
"""
from __future__ import annotations

import itertools

from cellgraph.compiler.builder import current_builder
from cellgraph.compiler.frontend import trace_call
from cellgraph.compiler.guards import record_guard
from cellgraph.primitives.errors import DTypeError

_ids = itertools.count()


class HookHandle:
    """Returned by register_*_hook; `remove()` takes the hook off its Cell."""

    def __init__(self, cell, table: str, key: int):
        self.cell, self.table, self.key = cell, table, key

    def remove(self) -> None:
        hooks = dict(getattr(self.cell, self.table) or {})
        hooks.pop(self.key, None)
        object.__setattr__(self.cell, self.table, hooks or None)


class _Hook(tuple):
    """(function, with_kwargs, always_call): one entry of a Cell's hook table."""

    __slots__ = ()

    def __new__(cls, fn, with_kwargs=False, always_call=False):
        return super().__new__(cls, (fn, bool(with_kwargs), bool(always_call)))


def register(cell, table: str, hook_fn, prepend=False, with_kwargs=False,
             always_call=False) -> HookHandle:
    """Add hook_fn to the Cell's table: last, or first with `prepend`; `with_kwargs` passes
    the keyword arguments of the call too; `always_call` runs a forward hook even when
    construct raises."""
    if not callable(hook_fn):
        raise DTypeError(f"{type(cell).__name__}.register_*_hook: expected a function, got "
                        f"{type(hook_fn).__name__}")
    key = next(_ids)
    old = dict(getattr(cell, table) or {})
    entry = _Hook(hook_fn, with_kwargs, always_call)
    hooks = {key: entry, **old} if prepend else {**old, key: entry}
    object.__setattr__(cell, table, hooks)
    return HookHandle(cell, table, key)


def _hooks(cell, table: str) -> tuple:
    value = getattr(cell, table)
    record_guard(cell, table, value)
    return tuple(value.values()) if value else ()


def _call(hook, args):
    return trace_call(hook, args) if current_builder() is not None else hook(*args)


def call_with_hooks(cell, run, args: tuple, kwargs: dict):
    """run(args, kwargs) between the Cell's pre-hooks and hooks."""
    pre, post = _hooks(cell, "_forward_pre_hooks"), _hooks(cell, "_forward_hooks")
    args = tuple(args)  # hooks see a tuple, as MindSpore's do, however the call came
    for hook, with_kwargs, _ in pre:
        if with_kwargs:
            replaced = _call(hook, (cell, args, kwargs))
            if replaced is not None:
                if isinstance(replaced, list):   # a tuple returned from traced code
                    replaced = tuple(replaced)
                if not (isinstance(replaced, tuple) and len(replaced) == 2):
                    raise DTypeError(f"{type(cell).__name__}: a forward pre-hook registered "
                                     f"with_kwargs=True must return None or (args, kwargs), "
                                     f"got {type(replaced).__name__}")
                args, kwargs = replaced
                args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
            continue
        replaced = _call(hook, (cell, args))
        if replaced is not None:
            args = replaced if isinstance(replaced, tuple) else (replaced,)
    try:
        output = run(args, kwargs)
    except Exception:
        for hook, with_kwargs, always_call in post:
            if always_call:
                _call(hook, (cell, args, kwargs, None) if with_kwargs else (cell, args, None))
        raise
    for hook, with_kwargs, _ in post:
        replaced = _call(hook, (cell, args, kwargs, output) if with_kwargs else
                         (cell, args, output))
        if replaced is not None:
            output = replaced
    return output
