"""`Tensor.register_hook(hook)` and `Parameter.register_hook(hook)`: `hook(grad)` is called on
the gradient of that tensor during the backward pass and may return a replacement. And the
parameter forward hooks of `Cell.register_parameter_forward_hook`: a graph reads a hooked
Parameter as hook(Parameter).

On a Tensor or Parameter outside a graph, the hooks are kept with the object (in the order they
were registered; the handle's `remove()` drops one) and a graph that takes the Tensor as an
input, or reads the Parameter, reads it through them: `grad`, `GradOperation` and
`value_and_grad` then see the hooked gradient with respect to it. A compiled graph depends on
the hooks there are when it is called, so registering or removing one recompiles.

On a Tensor inside `construct` (an intermediate value), the hook applies to the uses of that
Tensor, before the `register_hook` statement too; in GRAPH_MODE one hook per Tensor, and the call
returns the Tensor itself, as in MindSpore.

In GRAPH_MODE a hook is compiled with the graph (ops.InsertGradientOf): it must be graph syntax,
and one that returns None keeps the gradient. In PYNATIVE_MODE it runs in Python on the
gradient's value when the backward pass runs (a `py_hook` node, as ops.HookBackward), so it may
print or log; a gradient of that gradient does not go through it.
"""
from __future__ import annotations

import itertools
import threading
import weakref

import numpy as np

from cellgraph.compiler import builder as _builder
from cellgraph.compiler.builder import Tracer, current_builder, is_tensor_like
from cellgraph.compiler.pytree import flatten
from cellgraph.context import GRAPH_MODE, get_context
from cellgraph.primitives.errors import (
    ArgumentValueError,
    CompileError,
    DTypeError,
    RunError,
    ShapeError,
)
from cellgraph.runtime.tensor import Parameter, Tensor

from .gradient_hooks import InsertGradientOf, _call_user, py_hook_p
from .transform import user_loc

# id(Tensor) -> (weak reference to it, {handle id: hook}); the ids of live Tensors only
_HOOKS: dict[int, tuple[weakref.ref, dict[int, object]]] = {}
_IDS = itertools.count(1)
_LOCK = threading.Lock()


def _check_hook(hook) -> None:
    """MindSpore's check: a callable that is not a `@jit` function."""
    if not callable(hook):
        raise DTypeError(f"Expected a callable hook function, but got {type(hook).__name__}.",
                         user_loc())
    from cellgraph.jit_decorators import JitFunction, _BoundJit

    if isinstance(hook, (JitFunction, _BoundJit)):
        raise DTypeError(f"Decorating hook function {getattr(hook, '__name__', 'hook')} with "
                         f"'@jit' is not supported.", user_loc())


class TensorHookHandle:
    """What `register_hook` returns: `remove()` takes that hook off its Tensor."""

    def __init__(self, tensor, hook_id: int):
        self.id = hook_id
        self.tensor_weakref = weakref.ref(tensor)

    def remove(self) -> None:
        if current_builder() is not None:
            raise CompileError("TensorHookHandle.remove: it is not supported to remove a hook "
                               "inside a graph; remove it outside the compiled function",
                               user_loc())
        tensor = self.tensor_weakref()
        if tensor is None:
            return
        with _LOCK:
            entry = _HOOKS.get(id(tensor))
            if entry is not None and entry[0]() is tensor:
                entry[1].pop(self.id, None)
                if not entry[1]:
                    del _HOOKS[id(tensor)]


def _forget(key: int, ref) -> None:
    with _LOCK:
        entry = _HOOKS.get(key)
        if entry is not None and entry[0] is ref:
            del _HOOKS[key]


def register_hook(self, hook):
    """Register `hook(grad) -> new gradient or None` on this Tensor's gradient; returns a
    handle whose `remove()` removes it (inside a graph in GRAPH_MODE: the Tensor itself)."""
    _check_hook(hook)
    if isinstance(self, Tracer):
        return _register_in_graph(self, hook)
    if isinstance(self, Parameter) and not self.requires_grad:
        raise RunError("The tensor requires grad is false, which can not register tensor hook "
                       f"(Parameter '{self.name}')", user_loc())
    if isinstance(self, Parameter) and current_builder() is not None:
        raise ArgumentValueError(f"Register hook for Parameter inside graph is not supported. "
                                 f"Parameter '{self.name}': register the hook before calling "
                                 f"the network", user_loc())
    hook_id = next(_IDS)
    with _LOCK:
        entry = _HOOKS.get(id(self))
        if entry is None or entry[0]() is not self:
            key = id(self)
            ref = weakref.ref(self, lambda r, key=key: _forget(key, r))
            entry = _HOOKS[key] = (ref, {})
        entry[1][hook_id] = hook
    _builder.read_through_hooks = read_through_hooks
    return TensorHookHandle(self, hook_id)


# id(Parameter) -> (weak reference to it, hook): the parameter forward hooks
# (`Cell.register_parameter_forward_hook`); construct reads the Parameter as hook(Parameter)
_FORWARD: dict[int, tuple[weakref.ref, object]] = {}


def register_parameter_forward_hook(param, hook) -> None:
    """Make graphs read `param` as `hook(param)` (traced with the graph, so gradients flow
    through it to the Parameter); a later hook replaces an earlier one, as in MindSpore."""
    key = id(param)

    def forget(ref, key=key):
        with _LOCK:
            if key in _FORWARD and _FORWARD[key][0] is ref:
                del _FORWARD[key]

    with _LOCK:
        _FORWARD[key] = (weakref.ref(param, forget), hook)
    _builder.parameter_forward_hook = forward_hook_of


def forward_hook_of(value):
    """The forward hook of the Parameter `value`, or None."""
    entry = _FORWARD.get(id(value))
    return entry[1] if entry is not None and entry[0]() is value else None


def hooks_of(value) -> tuple:
    """The hooks registered on the Tensor or Parameter `value`, in order."""
    entry = _HOOKS.get(id(value))
    if entry is None or entry[0]() is not value:
        return ()
    return tuple(entry[1].values())


def hooks_key(args: tuple) -> tuple:
    """What a graph compiled for a call with `args` depends on of the hooks (for the graph
    caches): the hooks of each argument Tensor by position and those of every Parameter (a graph
    reads its Parameters themselves); empty while no Tensor has a hook."""
    if not _HOOKS and not _FORWARD:
        return ()
    leaves, _ = flatten(tuple(args), is_tensor_like)
    with _LOCK:
        hooked = tuple((i, tuple(_HOOKS[id(leaf)][1])) for i, leaf in enumerate(leaves)
                       if id(leaf) in _HOOKS and _HOOKS[id(leaf)][0]() is leaf)
        weights = tuple((key, tuple(entry[1])) for key, entry in _HOOKS.items()
                        if isinstance(entry[0](), Parameter))
        forward = tuple((key, id(entry[1])) for key, entry in _FORWARD.items())
    return ("hooks", get_context("mode"), hooked, weights, forward)


def read_through_hooks(value, tracer):
    """The tracer standing for `value` in the graph being built, through the hooks of `value`
    (a Tensor or Parameter with registered hooks, or a tracer of an enclosing graph that stands
    for one)."""
    if isinstance(value, Tracer):
        entry = value.builder.tensor_hooks.get(id(value))
        hooks = entry[1] if entry is not None else ()
    else:
        hooks = hooks_of(value)
    if not hooks or not is_tensor_like(tracer) or not tracer.aval.dtype.is_float:
        return tracer
    hooked = _apply(tracer, hooks)
    tracer.builder.tensor_hooks[id(hooked)] = (hooked, hooks)
    return hooked


def _apply(tracer, hooks):
    if get_context("mode") == GRAPH_MODE:
        return InsertGradientOf(_CompiledHooks(hooks))(tracer)
    host = _HostHooks(hooks, user_loc())
    return InsertGradientOf(lambda grad: py_hook_p(grad, fn=host))(tracer)


def _register_in_graph(tracer, hook):
    """A hook on a value inside `construct`: its later uses read it through the hook."""
    graph_mode = get_context("mode") == GRAPH_MODE
    records = tracer.builder.__dict__.setdefault("_hooked_tracers", {})
    record = records.get(id(tracer))
    if graph_mode and record is not None:
        raise CompileError("It is not supported to register multiple hooks for a Tensor.",
                           user_loc())
    if record is None:  # (the tracer, the value before any hook, {hook id: hook})
        record = records[id(tracer)] = (tracer, tracer.ir_var, {})
    hook_id = next(_IDS)
    record[2][hook_id] = hook
    _rebind(record)
    return tracer if graph_mode else _InGraphHandle(record, hook_id)


def _rebind(record) -> None:
    """Point the tracer at its value through its hooks now. As in MindSpore, the hooks act on
    the Tensor's whole gradient: the uses before the `register_hook` statement read it through
    them too (the hook node moves to just after the value is made)."""
    tracer, original, hooks = record
    old = tracer.ir_var
    nodes = tracer.builder.graph.nodes
    if old is not original:  # the node of the hooks before this change goes
        nodes[:] = [n for n in nodes if not any(o is old for o in n.outputs)]
    if not hooks or not tracer.aval.dtype.is_float:
        new = original
    else:
        new = _apply(Tracer(tracer.builder, original), tuple(hooks.values())).ir_var
        node = nodes.pop(next(i for i in range(len(nodes) - 1, -1, -1)
                              if any(o is new for o in nodes[i].outputs)))
        made = {id(o): i for i, n in enumerate(nodes) for o in n.outputs}
        at = max((made.get(id(a), -1) for a in node.inputs), default=-1) + 1
        nodes.insert(at, node)
    start = next((i + 1 for i, n in enumerate(nodes) if any(o is new for o in n.outputs)), 0)
    for n in nodes[start:]:  # the uses after the value (and what the hooks read) is made
        n.inputs = [new if a is old else a for a in n.inputs]
    updates = tracer.builder.updates
    for key, (param, value) in list(updates.items()):
        if value is old:
            updates[key] = (param, new)
    tracer.ir_var = new


def graph_hooks(tracer) -> list:
    """The hooks registered on `tracer` inside the graph being built."""
    record = tracer.builder.__dict__.get("_hooked_tracers", {}).get(id(tracer))
    return [] if record is None else list(record[2].values())


class _InGraphHandle:
    """The handle of a hook registered inside a compiled function in PYNATIVE_MODE: removing it
    takes the hook off the uses of the Tensor after the `remove()` statement."""

    def __init__(self, record, hook_id: int):
        self.record, self.id = record, hook_id

    def remove(self) -> None:
        if self.record[2].pop(self.id, None) is not None:
            _rebind(self.record)


class _CompiledHooks:
    """The hooks one after another, parsed into the bprop graph; None keeps the gradient."""

    def __init__(self, hooks):
        self.hooks = hooks
        self.__name__ = "register_hook"

    def __call__(self, grad):
        for hook in self.hooks:
            new = _call_user(hook, grad)
            if new is not None:
                grad = new
        return grad


class _HostHooks:
    """The host side of the `py_hook` node of a Tensor's hooks: each hook is given the gradient
    as a Tensor and returns a Tensor (or array) of its shape, or None to keep it."""

    def __init__(self, hooks, loc):
        self.hooks, self.loc = hooks, loc

    def __repr__(self) -> str:  # kernels are shared by params' repr: two hooks never share one
        return "register_hook@" + ",".join(f"{id(h):x}" for h in self.hooks)

    def __call__(self, grad):
        value = np.asarray(grad)
        for hook in self.hooks:
            new = hook(Tensor(value))
            if new is None:
                continue
            new = np.asarray(new.asnumpy() if isinstance(new, Tensor) else new)
            if new.shape != value.shape:
                name = getattr(hook, "__name__", "the hook")
                raise ShapeError(f"register_hook: expected {name} to return a gradient of shape "
                                 f"{value.shape} or None, got shape {new.shape}", self.loc)
            value = new.astype(value.dtype, copy=False)
        return value
