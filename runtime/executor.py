"""Running compiled graphs: a compile cache keyed by the input signature, guards on the
attributes the graph read, and the generated module bound to a backend's kernels.

The common call (every argument a Tensor) takes a short path: a key made of the arguments'
shapes and dtype names finds the Executable, whose generated entry function checks the guards,
unwraps the Tensors, runs the graph and wraps the results in one Python frame:

    def run(a0, a1, _check=True):
        if _check:
            o = guard_0()
            if o is None or o.__dict__.get('net', MISSING) is not value_0_0:
                return STALE
        outs = graph_fn(a0._data, a1._data, weight_0._data)
        r0, = outs
        if r0.__class__ is not ndarray or r0.dtype is not np_dtype_0:
            r0 = fix(r0, np_dtype_0)
        return wrap(r0, dtype_0)

Anything else (nested tuples, Python numbers, NumPy arrays) goes through `signature`, which
looks at every value, and then runs the same entry on the Tensor leaves.
"""
from __future__ import annotations

import functools
import numbers
import weakref

import numpy as np

from cellgraph.compiler.pipeline import Compiled, compile_callable
from cellgraph.compiler.pytree import Tree

from .backend import Backend, get_backend
from .tensor import Parameter, Tensor

MISSING = object()
STALE = object()  # what an entry returns when a guard failed: recompile


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


def flat_key(args: tuple):
    """The short-path key when every argument is a Tensor (or Parameter), else None."""
    key = []
    for a in args:
        if a.__class__ is not Tensor and a.__class__ is not Parameter:
            return None
        key.append(a._data.shape)
        key.append(a._dtype.name)
    return tuple(key)


class Executable:
    """One specialisation: `run(*tensor_leaves)` checks its guards, runs, wraps the results."""

    def __init__(self, compiled: Compiled, backend: Backend):
        self.compiled = compiled
        graph = compiled.graph
        self.weights = list(graph.weights)
        self.updates = list(getattr(graph, "updates", ()))  # Parameters the last outputs replace
        self.out_dtypes = [o.aval.dtype for o in graph.outputs]
        self.out_tree = graph.out_tree
        self.guards = guard_table(compiled.guards)
        self.fn = bind_module(compiled.module, backend)
        self.backend = backend
        self.entry_source, self.run = make_entry(self, graph.n_inputs)

    def guards_hold(self) -> bool:
        return all(_guard_holds(g) for g in self.guards)

    def __call__(self, leaves):
        return self.run(*leaves, _check=False)


# ----- guards ----------------------------------------------------------------------------------

def guard_table(recorded) -> list[tuple]:
    """One guard per (object, attribute) read: (weakref, attr, value, class dicts or None).

    An attribute found in the object's own `__dict__` must still be the same object there. One
    that came from a class (a method, a class constant) must still be absent from the instance
    and from the classes before the one that defined it, and the same object in that one.
    """
    guards, seen = [], set()
    for obj, attr, _ in recorded:
        if (id(obj), attr) in seen:
            continue
        seen.add((id(obj), attr))
        own = getattr(obj, "__dict__", {})
        if attr in own:
            guards.append((weakref.ref(obj), attr, own[attr], None))
            continue
        classes = []
        for cls in type(obj).__mro__:
            classes.append(cls.__dict__)
            if attr in cls.__dict__:
                guards.append((weakref.ref(obj), attr, cls.__dict__[attr], tuple(classes)))
                break
    return guards


def _guard_holds(guard) -> bool:
    ref, attr, value, classes = guard
    obj = ref()
    if obj is None:
        return False
    if classes is None:
        return obj.__dict__.get(attr, MISSING) is value
    return (attr not in obj.__dict__ and not any(attr in c for c in classes[:-1])
            and classes[-1].get(attr, MISSING) is value)


# ----- the entry function ----------------------------------------------------------------------

def make_entry(ex: Executable, n_inputs: int):
    """Generate `run(*leaves, _check=True)` for this Executable; returns (source, function)."""
    env = {"graph_fn": ex.fn, "MISSING": MISSING, "STALE": STALE, "ndarray": np.ndarray,
           "wrap": Tensor._wrap, "fix": functools.partial(_fix, ex.backend.xp)}
    args = [f"a{i}" for i in range(n_inputs)]
    lines = [f"def run({''.join(a + ', ' for a in args)}_check=True):"]
    lines += ["    " + line for line in _guard_lines(ex.guards, env)]
    for i, w in enumerate(ex.weights):
        env[f"weight_{i}"] = w
    raw = [f"{a}._data" for a in args] + [f"weight_{i}._data" for i in range(len(ex.weights))]
    lines.append(f"    outs = graph_fn({', '.join(raw)})")
    n_results = len(ex.out_dtypes) - len(ex.updates)
    results = [f"r{i}" for i in range(len(ex.out_dtypes))]
    if results:
        lines.append(f"    {', '.join(results)}, = outs")
    for i, param in enumerate(ex.updates):
        env[f"param_{i}"], env[f"param_dtype_{i}"] = param, param.dtype.np
        lines += [f"    param_{i}._data = fix({results[n_results + i]}, param_dtype_{i})",
                  f"    param_{i}._version += 1"]
    for i, dtype in enumerate(ex.out_dtypes[:n_results]):
        env[f"np_dtype_{i}"], env[f"dtype_{i}"] = dtype.np, dtype
        lines += [f"    if r{i}.__class__ is not ndarray or r{i}.dtype is not np_dtype_{i}:",
                  f"        r{i} = fix(r{i}, np_dtype_{i})"]
    wrapped = [f"wrap(r{i}, dtype_{i})" for i in range(n_results)]
    lines.append(f"    return {_tree_expr(ex.out_tree, iter(wrapped), env)}")
    source = "\n".join(lines) + "\n"
    exec(compile(source, "<cellgraph:entry>", "exec"), env)  # noqa: S102 - generated above
    return source, env["run"]


def _fix(xp, value, np_dtype):
    """A kernel result as a backend array of the promised dtype."""
    if isinstance(value, np.ndarray) and value.dtype == np_dtype:
        return value
    return xp.asarray(value, dtype=np_dtype)


def _guard_lines(guards, env) -> list[str]:
    """Source that returns STALE when a guard fails, each object dereferenced once."""
    by_object: dict[int, list] = {}
    for ref, attr, value, classes in guards:
        by_object.setdefault(id(ref), [ref, []])[1].append((attr, value, classes))
    if not by_object:
        return []
    lines = ["if _check:"]
    for k, (ref, attrs) in enumerate(by_object.values()):
        env[f"guard_{k}"] = ref
        tests = ["o is None"]
        for j, (attr, value, classes) in enumerate(attrs):
            env[f"value_{k}_{j}"] = value
            if classes is None:
                tests.append(f"o.__dict__.get({attr!r}, MISSING) is not value_{k}_{j}")
                continue
            tests.append(f"{attr!r} in o.__dict__")
            for c, class_dict in enumerate(classes):
                env[f"class_{k}_{j}_{c}"] = class_dict
                tests.append(f"{attr!r} in class_{k}_{j}_{c}" if c < len(classes) - 1 else
                             f"class_{k}_{j}_{c}.get({attr!r}, MISSING) is not value_{k}_{j}")
        lines += [f"    o = guard_{k}()", f"    if {' or '.join(tests)}:", "        return STALE"]
    return lines


def _tree_expr(tree: Tree | None, leaves, env) -> str:
    """A Python expression that nests the wrapped results as `tree` says."""
    if tree is None or tree.kind == "leaf":
        return next(leaves, "None")
    if tree.kind == "static":
        name = f"static_{len(env)}"
        env[name] = tree.static
        return name
    items = [_tree_expr(child, leaves, env) for child in tree.children]
    if tree.kind == "list":
        return f"[{', '.join(items)}]"
    return f"({', '.join(items)}{',' if len(items) == 1 else ''})"


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


# ----- the cache -------------------------------------------------------------------------------

class GraphCache:
    """Compiled specialisations of one callable, by signature; stale entries recompile."""

    def __init__(self):
        self.entries: dict = {}  # (backend name, signature(args)) -> Executable
        self.flat: dict = {}  # (backend name, *flat_key(args)) -> Executable: the short path

    def call(self, fn, args: tuple, dump_dir=None, name=None, key=None):
        """Run `fn(*args)`, compiling it for this signature first when needed."""
        backend = get_backend()
        sig = (backend.name, signature(args))
        leaves = tensor_leaves(args)
        entry = self.entries.get(sig)
        if entry is not None:
            out = entry.run(*leaves)
            if out is not STALE:
                if key is not None:
                    self.flat[key] = entry
                return out
        entry = Executable(compile_callable(fn, args, dump_dir, name), backend)
        self.entries[sig] = entry
        if key is not None:
            self.flat[key] = entry
        return entry.run(*leaves, _check=False)

    def lookup(self, fn, args: tuple, dump_dir=None, name=None) -> Executable:
        """The Executable for `args`, compiled if missing or stale (without running it)."""
        backend = get_backend()
        sig = (backend.name, signature(args))
        entry = self.entries.get(sig)
        if entry is None or not entry.guards_hold():
            entry = Executable(compile_callable(fn, args, dump_dir, name), backend)
            self.entries[sig] = entry
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
    key = flat_key(args)
    if key is not None:
        key = (get_backend().name, *key)
        entry = cache.flat.get(key)
        if entry is not None:
            out = entry.run(*args)
            if out is not STALE:
                return out
    return cache.call(fn, args, dump_dir, name, key)


def is_number(x) -> bool:
    return isinstance(x, numbers.Number)
