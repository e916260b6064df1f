"""Running compiled graphs: a compile cache keyed by the input signature, guards on the
attributes the graph read, and the generated module bound to a backend's kernels.

The common call (every argument a Tensor) takes a short path: the Executable of the last such
call (or the one a key of shapes and dtype names finds) runs its generated entry function,
which checks the signature and the guards, unwraps the Tensors, runs the graph and wraps the
results in one Python frame (the entry is `Executable.entry_source`):

    def run(leaves, check=2):
        if check == 2 and (len(leaves) != 2 or current_backend() is not backend):
            return STALE
        a0, a1, = leaves
        if check == 2 and ((a0.__class__ is not Tensor and a0.__class__ is not Parameter
                            or a0._data.shape != shape_0 or ...) or ...):
            return STALE
        if check:
            o = guard_0()
            if o is None or o.__dict__.get('net', MISSING) is not value_0_0:
                return STALE
        outs = graph_fn(a0._data, a1._data, weight_0._data)
        r0, = outs
        if r0.__class__ is not ndarray or r0.dtype is not np_dtype_0:
            r0 = fix(r0, np_dtype_0)
        t0 = new(Tensor)
        ...
        return t0

Anything else (nested tuples, Python numbers, NumPy arrays) goes through `signature`, which
looks at every value, and then runs the same entry on the Tensor leaves.
"""
from __future__ import annotations

import functools
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
    if type(value) is dict:
        return (dict,) + tuple((k, signature(v)) for k, v in value.items())
    if isinstance(value, np.ndarray):  # a graph input like a Tensor: its type, not its values
        return ("nd", value.shape, value.dtype.str)
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
        self.fn = (backend.compile_graph(compiled) if backend.compile_graph is not None
                   else bind_module(compiled.module, backend))
        self.backend = backend
        self.entry_source, self.run = make_entry(self, graph.n_inputs)

    def guards_hold(self) -> bool:
        return all(_guard_holds(g) for g in self.guards)

    def __call__(self, leaves):
        return self.run(leaves, CHECK_NOTHING)


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

CHECK_ALL, CHECK_GUARDS, CHECK_NOTHING = 2, 1, 0


def make_entry(ex: Executable, n_inputs: int):
    """Generate `run(leaves, check=CHECK_ALL)` for this Executable; returns (source, function).

    CHECK_ALL: `leaves` are a call's arguments, which must be Tensors of this specialisation's
    shapes and dtypes on its backend; CHECK_GUARDS: only the guards (the caller matched the
    signature); CHECK_NOTHING: just compiled. A failed check returns STALE.
    """
    env = {"graph_fn": ex.fn, "MISSING": MISSING, "STALE": STALE, "ndarray": np.ndarray,
           "Tensor": Tensor, "Parameter": Parameter, "new": object.__new__,
           "current_backend": get_backend, "backend": ex.backend,
           "fix": functools.partial(_fix, ex.backend.asarray)}
    args = [f"a{i}" for i in range(n_inputs)]
    unpack = f"    {''.join(a + ', ' for a in args)}= leaves" if args else None
    lines = [f"def run(leaves, check={CHECK_ALL}):",
             (f"    if check == {CHECK_ALL} and (len(leaves) != {n_inputs} or "
              "current_backend() is not backend):"),
             "        return STALE"]
    lines += [unpack] if unpack else []
    lines += ["    " + line for line in _signature_lines(ex.compiled.graph, args, env)]
    lines += ["    " + line for line in _guard_lines(ex.guards, env)]
    for i, w in enumerate(ex.weights):
        env[f"weight_{i}"] = w
    raw = [f"{a}._data" for a in args] + [f"weight_{i}._data" for i in range(len(ex.weights))]
    if ex.backend.array_type is not np.ndarray:  # Tensors made before a backend switch
        env["native"] = ex.backend.native
        raw = [f"native({r})" for r in raw]
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
        # Tensor._wrap, inlined: a new Tensor around the result, in the promised dtype
        env[f"np_dtype_{i}"], env[f"dtype_{i}"] = dtype.np, dtype
        lines += [f"    if r{i}.__class__ is not ndarray or r{i}.dtype is not np_dtype_{i}:",
                  f"        r{i} = fix(r{i}, np_dtype_{i})",
                  f"    t{i} = new(Tensor)",
                  f"    t{i}._data = r{i}",
                  f"    t{i}._dtype = dtype_{i}"]
    wrapped = [f"t{i}" for i in range(n_results)]
    lines.append(f"    return {_tree_expr(ex.out_tree, iter(wrapped), env)}")
    source = "\n".join(lines) + "\n"
    exec(compile(source, "<cellgraph:entry>", "exec"), env)  # noqa: S102 - generated above
    return source, env["run"]


def _signature_lines(graph, args, env) -> list[str]:
    """Source that returns STALE unless every argument is a Tensor of the compiled type."""
    if not args:
        return []
    tests = []
    for i, (a, p) in enumerate(zip(args, graph.params)):
        env[f"shape_{i}"], env[f"dtype_name_{i}"] = p.aval.shape, p.aval.dtype.name
        tests.append(f"({a}.__class__ is not Tensor and {a}.__class__ is not Parameter "
                     f"or {a}._data.shape != shape_{i} or {a}._dtype.name != dtype_name_{i})")
    return [f"if check == {CHECK_ALL} and ({' or '.join(tests)}):", "    return STALE"]


def _fix(asarray, value, np_dtype):
    """A kernel result as a backend array of the promised dtype."""
    if isinstance(value, np.ndarray) and value.dtype == np_dtype:
        return value
    return asarray(value, np_dtype)  # Backend.asarray: also torch tensors, Python numbers


def _guard_lines(guards, env) -> list[str]:
    """Source that returns STALE when a guard fails, each object dereferenced once."""
    by_object: dict[int, list] = {}
    for ref, attr, value, classes in guards:
        by_object.setdefault(id(ref), [ref, []])[1].append((attr, value, classes))
    if not by_object:
        return []
    lines = ["if check:"]
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
        self.flat: dict = {}  # flat_key(args) -> Executable, for all-Tensor calls
        self.last: Executable | None = None  # the last all-Tensor call's: tried first

    def call(self, fn, args: tuple, dump_dir=None, name=None, key=None):
        """Run `fn(*args)`, compiling it for this signature first when needed."""
        backend = get_backend()
        sig = (backend.name, signature(args))
        leaves = tensor_leaves(args)
        entry = self.entries.get(sig)
        out = STALE if entry is None else entry.run(leaves, CHECK_GUARDS)
        if out is STALE:
            entry = Executable(compile_callable(fn, args, dump_dir, name), backend)
            self.entries[sig] = entry
            out = entry.run(leaves, CHECK_NOTHING)
        if key is not None:
            self.flat[key] = self.last = entry
        return out

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
        elif type(a) is dict:
            out.extend(tensor_leaves(tuple(a.values())))
        elif isinstance(a, np.ndarray):
            out.append(Tensor(a))
    return out


def run_cached(cache: GraphCache, fn, args: tuple, dump_dir=None, name=None):
    """Compile `fn` for `args` once per signature, then run it.

    All-Tensor calls try the last such call's Executable (its entry checks the signature
    itself), then the one for these shapes and dtypes; anything else takes `GraphCache.call`.
    """
    out = run_compiled(cache, args)
    if out is not STALE:
        return out
    return cache.call(fn, args, dump_dir, name, flat_key(args))


def run_compiled(cache: GraphCache, args: tuple):
    """The short path alone: run an all-Tensor call that an earlier call compiled, else STALE.
    Callers that do work before compiling (argument checks, error locations) try it first."""
    entry = cache.last
    if entry is not None:
        out = entry.run(args)
        if out is not STALE:
            return out
    key = flat_key(args)
    if key is not None:
        entry = cache.flat.get(key)
        if entry is not None:
            out = entry.run(args)
            if out is not STALE:
                cache.last = entry
                return out
    return STALE

