"""Forward hooks on Cells (`register_forward_pre_hook`, `register_forward_hook`), and
backward hooks (`register_backward_pre_hook`, `register_backward_hook`, below).

A forward hook is user Python: in PyNative mode it runs around construct on every call; in
graph mode it runs while the graph is built (parsed like construct, so Tensor operations in it
become part of the graph). A backward hook runs in Python on the gradients' values when the
backward pass runs (`backward_hooks`, below): the pre-hooks where the gradients of
the Cell's outputs arrive, the hooks where those of its Tensor inputs leave, with both; each may
return replacements. Registering or removing a hook replaces the Cell's hook table, and the compiled graph guards on that table,
so the next call recompiles with the new hooks.
"""
from __future__ import annotations

import itertools
import weakref

import numpy as np

from cellgraph.compiler.builder import current_builder, is_tensor_like
from cellgraph.compiler.frontend import trace_call
from cellgraph.compiler.guards import record_guard
from cellgraph.compiler.pytree import flatten, unflatten
from cellgraph.gradient_hooks import identity_with_host_bprop
from cellgraph.jit_decorators import JitFunction, _BoundJit
from cellgraph.primitives.errors import DTypeError

_ids = itertools.count()


CALL_STATE = ("_amp_types", "_amp_strategy", "_forward_pre_hooks", "_forward_hooks",
              "_backward_pre_hooks", "_backward_hooks", "_saved_tensors_pack_hook",
              "_saved_tensors_unpack_hook")


def set_call_state(cell, name: str, value) -> None:
    """Replace one of the Cell's CALL_STATE attributes, and its `_call_version` with it: the
    graphs compiled under the old state see the change through their guard on the version."""
    object.__setattr__(cell, name, value)
    object.__setattr__(cell, "_call_version", object())


class HookHandle:
    """Returned by register_*_hook; `remove()` takes the hook off its Cell. `handle_id` numbers
    the handles in the order they were made, as MindSpore's; the Cell is held weakly."""

    def __init__(self, cell, table: str, key: int):
        self._cell, self.table, self.key = weakref.ref(cell), table, key

    @property
    def handle_id(self) -> int:
        return self.key

    def remove(self) -> None:
        cell = self._cell()
        if cell is None:  # the Cell is gone, and its hooks with it
            return
        hooks = dict(getattr(cell, self.table) or {})
        hooks.pop(self.key, None)
        set_call_state(cell, self.table, hooks or None)


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
    if isinstance(hook_fn, (JitFunction, _BoundJit)):  # a hook runs eagerly, as MindSpore's
        raise DTypeError(f"Decorating hook function {hook_fn.__name__} with '@jit' is not "
                         f"supported.")
    key = next(_ids)
    old = dict(getattr(cell, table) or {})
    entry = _Hook(hook_fn, with_kwargs, always_call)
    hooks = {key: entry, **old} if prepend else {**old, key: entry}
    set_call_state(cell, table, hooks)
    return HookHandle(cell, table, key)


def _hooks(cell, table: str) -> tuple:
    value = getattr(cell, table)
    record_guard(cell, "_call_version", cell._call_version)
    return tuple(value.values()) if value else ()


def _call(hook, args):
    return trace_call(hook, args) if current_builder() is not None else hook(*args)


def call_with_hooks(cell, run, args: tuple, kwargs: dict, backward: bool = False):
    """run(args, kwargs) between the Cell's pre-hooks and hooks, and with `backward`, its
    backward hooks on the gradients through it (`backward_hooks`)."""
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
    gradients = backward_hooks(cell) if backward else None
    if gradients is not None:
        args = gradients.wrap_inputs(args)
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
    return output if gradients is None else gradients.wrap_outputs(output)


# ----- backward hooks ---------------------------------------------------------------------------

def backward_hooks(cell):
    """The Cell's backward hooks for one call being traced (None when it has none, or nothing
    is traced): `hook_fn(cell, grad_output)` of `register_backward_pre_hook` on the gradients
    of the outputs, then `hook_fn(cell, grad_input, grad_output)` of `register_backward_hook`
    on those of the Tensor inputs; each may return new gradients (a tuple) or None. They are
    Python run on the host when the backward pass runs, as in MindSpore's PyNative mode. As in
    MindSpore, the inputs are wrapped after the forward pre-hooks and the outputs after the
    forward hooks (`call_with_hooks`)."""
    pre, post = _hooks(cell, "_backward_pre_hooks"), _hooks(cell, "_backward_hooks")
    if not (pre or post) or current_builder() is None:
        return None
    return _BackwardHooks(cell, [h for h, _, _ in pre], [h for h, _, _ in post])


class _BackwardHooks:
    """The host side of one Cell call's backward hooks: the outputs' gradients (through the
    pre-hooks) are kept for the input hooks, which the backward pass reaches after them."""

    def __init__(self, cell, pre: list, post: list):
        self.cell, self.pre, self.post = cell, pre, post
        self.grad_output: tuple = ()

    def __repr__(self) -> str:  # a py_func node's params print by repr: one per Cell call
        return f"backward_hooks({type(self.cell).__name__})@{id(self):x}"

    def wrap_inputs(self, args: tuple) -> tuple:
        leaves, tree = flatten(tuple(args), is_tensor_like)
        if not (leaves and self.post):
            return args
        leaves = identity_with_host_bprop(leaves, self.input_grads,
                                          f"{type(self.cell).__name__}_backward_hook")
        return tuple(unflatten(tree, leaves))

    def wrap_outputs(self, output):
        leaves, tree = flatten(output, is_tensor_like)
        if not leaves:
            return output
        leaves = identity_with_host_bprop(leaves, self.output_grads,
                                          f"{type(self.cell).__name__}_backward_pre_hook")
        return unflatten(tree, leaves)

    def output_grads(self, *arrays) -> tuple:
        grads = _as_tensors(arrays)
        for hook in self.pre:
            grads = _replaced(hook, self.cell, grads, hook(self.cell, grads))
        self.grad_output = grads
        return _as_arrays(grads, arrays)

    def input_grads(self, *arrays) -> tuple:
        grads = _as_tensors(arrays)
        for hook in self.post:
            grads = _replaced(hook, self.cell, grads, hook(self.cell, grads, self.grad_output))
        return _as_arrays(grads, arrays)


def _as_tensors(arrays) -> tuple:
    from cellgraph.runtime.tensor import Tensor

    return tuple(Tensor(np.asarray(a)) for a in arrays)


def _replaced(hook, cell, grads: tuple, new) -> tuple:
    """The gradients a hook returned (None: unchanged), as many as it was given."""
    if new is None:
        return grads
    new = tuple(new) if isinstance(new, (tuple, list)) else (new,)
    if len(new) != len(grads):
        raise DTypeError(f"{type(cell).__name__}: the backward hook "
                         f"{getattr(hook, '__name__', hook)!s} returned {len(new)} gradients "
                         f"for {len(grads)}")
    return new


def _as_arrays(grads: tuple, like) -> tuple:
    """The gradients as arrays of the dtypes of `like` (shaped by the node that called)."""
    return tuple(np.asarray(g.asnumpy() if hasattr(g, "asnumpy") else g,
                            dtype=np.asarray(want).dtype) for g, want in zip(grads, like))
