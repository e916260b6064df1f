"""`mindspore.graph.api`: the compilation decorators, memory recycling, and the hooks on the
tensors a backward pass saves.

`saved_tensors_hooks(pack_hook, unpack_hook)` is PyNative's: around operations that a gradient
taken from Python runs (inside the function differentiated, or around the gradient's call), each
tensor an operation saves for its backward pass goes through `pack_hook` when the forward pass
computes it, and the backward pass reads `unpack_hook(packed)` instead (compiler/
saved_tensors.py says which tensors and in what order). Both run in Python when the program
runs, on Tensors: pack may return any object, unpack must give back a Tensor of the saved one's
shape and dtype. In graph mode (GRAPH_MODE, `jit`) MindSpore refuses the `with` statement; there
`register_saved_tensors_hooks(pack_hook, unpack_hook)` decorates the function whose operations
it applies to, and the hooks are compiled into the graph (graph syntax, Tensors in and out,
only the tensors the wanted gradients read are packed); in PyNative mode that decorator does
nothing, as in MindSpore. `Cell.register_saved_tensors_hooks` applies to a Cell's construct in
either mode.
"""
from __future__ import annotations

import itertools
import threading

import numpy as np

from cellgraph.compiler import builder as _builder
from cellgraph.compiler.builder import compile_context, current_builder, is_tensor_like
from cellgraph.compiler.py_func_op import HostCall, py_func_p
from cellgraph.compiler.saved_tensors import EAGER_REGIONS, SavedTensorHooks
from cellgraph.jit_decorators import jit, jit_class
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import TensorType, fmt_shape
from cellgraph.primitives.errors import CompileError, DTypeError, RunError
from cellgraph.transform import user_loc

__all__ = ["jit", "jit_class", "ms_memory_recycle", "register_saved_tensors_hooks",
           "saved_tensors_hooks"]


def ms_memory_recycle() -> None:
    """Free what compiled networks hold: every jit function's, Cell's and transform's compiled
    graphs are dropped (each compiles again at its next call), and the backend's allocator gives
    its cached device memory back (runtime.empty_cache). For a process that trains several
    models one after another."""
    from cellgraph.runtime import empty_cache
    from cellgraph.runtime.executor import clear_all_caches

    clear_all_caches()
    empty_cache()


# ----- hooks on saved tensors ---------------------------------------------------------------------

def graph_semantics() -> bool:
    """Whether the graph being built follows MindSpore's graph mode (GRAPH_MODE, or a `jit`
    function's graph) rather than PyNative's."""
    from cellgraph import context

    return context.is_graph_mode() or compile_context().graph_print


class saved_tensors_hooks:
    """`with saved_tensors_hooks(pack_hook, unpack_hook):` packs the tensors the operations of
    the block save for the backward pass, and unpacks them there (PyNative mode)."""

    _enters_while_parsing = True  # the frontend runs __enter__/__exit__ as Python

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook
        self._exits: list = []

    def __enter__(self):
        hooks = HostHooks(self.pack_hook, self.unpack_hook)
        builder = current_builder()
        if builder is None:  # around gradients called from Python
            EAGER_REGIONS.hooks.append(hooks)
            self._exits.append(EAGER_REGIONS.hooks.pop)
            return
        if graph_semantics():
            raise DTypeError(f"Only support jit_class instance, but got PythonObject(type: "
                             f"{type(self)}): saved_tensors_hooks works in PyNative mode; in "
                             f"graph mode decorate the function with "
                             f"register_saved_tensors_hooks(pack_hook, unpack_hook)", user_loc())
        region = builder.saved_tensor_hooks(hooks)
        region.__enter__()
        self._exits.append(lambda: region.__exit__(None, None, None))

    def __exit__(self, *exc):
        self._exits.pop()()
        return False


def register_saved_tensors_hooks(pack_hook, unpack_hook):
    """Decorator: the operations of the function run under the hooks on saved tensors, in
    graph mode (the hooks compiled with the graph); in PyNative mode it changes nothing."""
    import inspect

    def decorator(func):
        wrapped = inspect.unwrap(func)  # through other decorators to the function itself
        wrapped._saved_tensors_pack_hook = pack_hook
        wrapped._saved_tensors_unpack_hook = unpack_hook
        return func

    return decorator


def _function_region(fn):
    """The region a decorated function's body is parsed in: graph mode only."""
    pack = getattr(fn, "_saved_tensors_pack_hook", None)
    if pack is None or not graph_semantics():
        return None
    return current_builder().saved_tensor_hooks(
        GraphHooks(pack, fn._saved_tensors_unpack_hook))


_builder.function_saved_hooks = _function_region


def cell_region(pack_hook, unpack_hook):
    """The region a Cell's construct is parsed in under Cell.register_saved_tensors_hooks."""
    hooks = GraphHooks if graph_semantics() else HostHooks
    return current_builder().saved_tensor_hooks(hooks(pack_hook, unpack_hook))


class HostHooks(SavedTensorHooks):
    """PyNative's: pack and unpack are called in Python when the graph runs. A packed object
    stays on the host, under a number the graph carries to the backward pass."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook
        self.key = (id(pack_hook), id(unpack_hook))
        self._packed: dict[int, object] = {}
        self._numbers = itertools.count()
        self._lock = threading.Lock()

    def pack(self, value):
        call = HostCall(self._pack_on_host, "saved_tensors_pack", (0,),
                        (TensorType((), dt.int64),), single=True, loc=user_loc())
        (number,) = py_func_p(F.stop_gradient(value), call=call)
        return number

    def unpack(self, packed, aval):
        call = HostCall(_Unpack(self, aval), "saved_tensors_unpack", (0,), (aval.strong(),),
                        single=True, loc=user_loc())
        (value,) = py_func_p(packed, call=call)
        return F.stop_gradient(value)

    def _pack_on_host(self, array):
        from cellgraph.runtime.tensor import Tensor

        packed = self.pack_hook(Tensor(np.array(array)))
        with self._lock:
            number = next(self._numbers)
            self._packed[number] = packed
        return np.int64(number)


class _Unpack:
    """The host side of an unpack node: the packed object of that number through unpack_hook,
    which must give a Tensor of the saved one's shape and dtype."""

    def __init__(self, hooks: HostHooks, aval: TensorType):
        self.hooks, self.aval = hooks, aval

    def __call__(self, number):
        with self.hooks._lock:
            packed = self.hooks._packed.pop(int(number))
        value = self.hooks.unpack_hook(packed)
        if not hasattr(value, "asnumpy"):
            raise RunError(f"saved_tensors_hooks: unpack_hook must return a Tensor, got "
                           f"{type(value).__name__}")
        array = value.asnumpy()
        if array.shape != self.aval.shape or array.dtype != self.aval.dtype.np:
            raise RunError(f"saved_tensors_hooks: unpack_hook must return the saved tensor's "
                           f"shape and dtype, {fmt_shape(self.aval.shape)} {self.aval.dtype}, "
                           f"got {fmt_shape(array.shape)} {value.dtype}")
        return array


class GraphHooks(SavedTensorHooks):
    """Graph mode's: pack and unpack are parsed into the graph, on graph values; only what the
    wanted gradients read is packed, in the order the backward pass reads it."""

    order = "use"
    needed_only = True
    unpack_first = True

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = pack_hook, unpack_hook
        self.key = (id(pack_hook), id(unpack_hook))

    def pack(self, value):
        from cellgraph.gradient_hooks import _call_user

        return _call_user(self.pack_hook, value)

    def unpack(self, packed, aval):
        from cellgraph.gradient_hooks import _call_user

        value = _call_user(self.unpack_hook, packed)
        if not is_tensor_like(value) or tuple(value.shape) != aval.shape:
            raise CompileError(f"register_saved_tensors_hooks: unpack_hook must return a Tensor "
                               f"of the saved tensor's shape {fmt_shape(aval.shape)}, got "
                               f"{value!r:.80}", user_loc())
        return value
