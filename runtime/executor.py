"""Running compiled graphs: a compile cache keyed by the input signature, guards on the
attributes the graph read, and the generated module bound to a backend's kernels."""
from __future__ import annotations

import functools
import numbers
import weakref

import numpy as np

from cellgraph.compiler.pipeline import Compiled, compile_callable
from cellgraph.compiler.pytree import unflatten

from .backend import Backend, get_backend
from .tensor import Tensor

MISSING = object()


def signature(value):
    """A hashable key: shapes and dtypes of Tensors, values of everything else."""
    if isinstance(value, Tensor):
        return (value._data.shape, value._dtype)
    if isinstance(value, (tuple, list)):
        return (type(value),) + tuple(signature(v) for v in value)
    if isinstance(value, dict):
        return (dict,) + tuple((k, signature(v)) for k, v in sorted(value.items()))
    if isinstance(value, np.ndarray):
        return ("nd", value.shape, value.dtype.str, value.tobytes())
    try:
        hash(value)
        return (type(value), value)
    except TypeError:
        return (type(value), id(value))


class Executable:
    """One specialisation, ready to run on raw arrays."""

    def __init__(self, compiled: Compiled, backend: Backend):
        self.compiled = compiled
        graph = compiled.graph
        self.weights = list(graph.weights)
        self.updates = list(graph.updates)  # Parameters the last len(updates) outputs replace
        self.out_dtypes = [o.aval.dtype for o in graph.outputs]
        self.out_tree = graph.out_tree
        self.guards = [(weakref.ref(obj), attr, value) for obj, attr, value in compiled.guards]
        self.fn = bind_module(compiled.module, backend)
        self.backend = backend

    def guards_hold(self) -> bool:
        for ref, attr, value in self.guards:
            obj = ref()
            if obj is None or obj.__dict__.get(attr, MISSING) is not value:
                return False
        return True

    def __call__(self, leaves):
        raw = [leaf._data if isinstance(leaf, Tensor) else leaf for leaf in leaves]
        raw += [w._data for w in self.weights]
        outs = self.fn(*raw)
        xp = self.backend.xp
        if self.updates:
            n_results = len(outs) - len(self.updates)
            for param, value in zip(self.updates, outs[n_results:]):
                param._data = xp.asarray(value, dtype=param.dtype.np)  # in place, as ops.assign
                param._version += 1
            outs = outs[:n_results]
        wrapped = []
        for r, dtype in zip(outs, self.out_dtypes):
            if type(r) is not np.ndarray or r.dtype != dtype.np:
                r = xp.asarray(r, dtype=dtype.np)
            wrapped.append(Tensor._wrap(r, dtype))
        return unflatten(self.out_tree, wrapped)


def bind_module(module, backend: Backend):
    """exec the generated source with kernels and constants as its globals."""
    namespace = {"__builtins__": __builtins__}
    for name, (prim_name, params) in module.kernels.items():
        kernel = backend.kernel(prim_name)
        namespace[name] = functools.partial(kernel, **params) if params else kernel
    for name, value in module.constants.items():
        namespace[name] = backend.from_host(value) if isinstance(value, np.ndarray) else value
    code = compile(module.source, f"<cellgraph:{module.entry}>", "exec")
    exec(code, namespace)  # noqa: S102 - our own generated source
    return namespace[module.entry]


class GraphCache:
    """Compiled specialisations of one callable, by signature; stale entries recompile."""

    def __init__(self):
        self.entries: dict = {}

    def lookup(self, fn, args: tuple, dump_dir=None, name=None) -> Executable:
        backend = get_backend()
        key = (backend.name, signature(args))
        entry = self.entries.get(key)
        if entry is None or (entry.guards and not entry.guards_hold()):
            entry = Executable(compile_callable(fn, args, dump_dir, name), backend)
            self.entries[key] = entry
        return entry


def tensor_leaves(args) -> list:
    out = []
    for a in args:
        if isinstance(a, Tensor):
            out.append(a)
        elif isinstance(a, (tuple, list)):
            out.extend(tensor_leaves(a))
        elif isinstance(a, np.ndarray):
            out.append(Tensor(a))
    return out


def run_cached(cache: GraphCache, fn, args: tuple, dump_dir=None, name=None):
    """Compile `fn` for `args` once per signature, then run it."""
    entry = cache.lookup(fn, args, dump_dir, name)
    return entry(tensor_leaves(args))


def is_number(x) -> bool:
    return isinstance(x, numbers.Number)
