"""Hooks on Cells: forward (`register_forward_pre_hook`, `register_forward_hook`) and backward
(`register_backward_pre_hook`, `register_backward_hook`).

A forward hook is user Python: in PyNative mode it runs around construct on every call; in
graph mode it runs while the graph is built (parsed like construct, so Tensor operations in it
become part of the graph). A backward hook runs in Python on the gradients' values when the
backward pass runs (a `py_hook` node, as ops.HookBackward): the pre-hook where the gradient of
the Cell's output arrives, the hook where that of its input leaves, with both; each may return
replacements. They take a Cell of one Tensor input and one Tensor output. Registering or
removing a hook replaces the Cell's hook table, and the compiled graph guards on that table,
so the next call recompiles with the new hooks.
"""
from __future__ import annotations

import itertools
import threading

import numpy as np

from cellgraph.compiler.builder import current_builder, is_tensor_like
from cellgraph.compiler.frontend import trace_call
from cellgraph.compiler.guards import record_guard
from cellgraph.gradient_hooks import InsertGradientOf, py_hook_p
from cellgraph.primitives.errors import DTypeError, ShapeError, UnsupportedError
from cellgraph.runtime.tensor import Tensor

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
    backward = _hooks(cell, "_backward_pre_hooks"), _hooks(cell, "_backward_hooks")
    if (backward[0] or backward[1]) and current_builder() is not None:
        return _Backward(cell, *backward).around(
            lambda a, k: _forward(cell, run, pre, post, a, k), tuple(args), kwargs)
    return _forward(cell, run, pre, post, tuple(args), kwargs)


def _forward(cell, run, pre, post, args: tuple, kwargs: dict):
    """run(args, kwargs) between the forward pre-hooks `pre` and hooks `post`."""
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


class _Backward:
    """A Cell's backward hooks around one traced call: the gradient of its output goes through
    the pre-hooks (`output_side`, which keeps it for the hooks), that of its input through the
    hooks (`input_side`); both run on the host when the backward pass reaches them, in that
    order, on the thread running the graph."""

    def __init__(self, cell, pre, post):
        self.cell, self.pre, self.post = cell, [h[0] for h in pre], [h[0] for h in post]
        self.kept = threading.local()

    def __repr__(self) -> str:  # kernels are shared by params' repr: two never share one
        return f"{type(self.cell).__name__}-backward-hooks@{id(self):x}"

    def around(self, call, args: tuple, kwargs: dict):
        name = type(self.cell).__name__
        tensors = [i for i, a in enumerate(args) if is_tensor_like(a)]
        if self.post:
            if len(tensors) != 1:
                raise UnsupportedError(f"{name}.register_backward_hook: a backward hook takes "
                                       f"a Cell called with one Tensor, got {len(tensors)}")
            args = list(args)
            args[tensors[0]] = InsertGradientOf(self._input_side)(args[tensors[0]])
            args = tuple(args)
        output = call(args, kwargs)
        if not is_tensor_like(output):
            raise UnsupportedError(f"{name}: backward hooks take a Cell whose output is one "
                                   f"Tensor, got {type(output).__name__}")
        return InsertGradientOf(self._output_side)(output)

    def _output_side(self, grad):
        return py_hook_p(grad, fn=_Host(self, "output"))

    def _input_side(self, grad):
        return py_hook_p(grad, fn=_Host(self, "input"))

    def run(self, side: str, grad: np.ndarray) -> np.ndarray:
        grads = (Tensor(np.asarray(grad)),)
        if side == "output":
            for hook in self.pre:
                grads = _replaced(hook, hook(self.cell, grads), grads)
            self.kept.grad_output = grads
        else:
            grad_output = getattr(self.kept, "grad_output", None)
            for hook in self.post:
                grads = _replaced(hook, hook(self.cell, grads, grad_output), grads)
        value = np.asarray(grads[0].asnumpy() if isinstance(grads[0], Tensor) else grads[0])
        return value.astype(np.asarray(grad).dtype, copy=False)


class _Host:
    """What a `py_hook` node calls: one side of a Cell's backward hooks."""

    def __init__(self, hooks: _Backward, side: str):
        self.hooks, self.side = hooks, side

    def __repr__(self) -> str:
        return f"{self.hooks!r}:{self.side}"

    def __call__(self, grad):
        return self.hooks.run(self.side, grad)


def _replaced(hook, result, grads: tuple) -> tuple:
    """A backward hook's result: None keeps `grads`; else a Tensor or a tuple of one, shaped
    as the gradient it replaces."""
    if result is None:
        return grads
    new = tuple(result) if isinstance(result, (tuple, list)) else (result,)
    shape = np.shape(grads[0].asnumpy())
    if len(new) != 1 or np.shape(np.asarray(new[0].asnumpy() if isinstance(new[0], Tensor)
                                            else new[0])) != shape:
        raise ShapeError(f"{getattr(hook, '__name__', 'a backward hook')}: expected None or a "
                         f"gradient of shape {shape} (a tuple of one), got {result!r:.80}")
    return new
