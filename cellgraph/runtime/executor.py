"""Running compiled graphs: a compile cache keyed by the input signature, guards on the
attributes the graph read, and the generated module bound to a backend's kernels.

The common call (every argument a Tensor) takes a short path: the Executable of the last such
call (or the one a key of shapes and dtype names finds) runs its generated entry function,
which checks the signature and the guards, unwraps the Tensors, runs the graph and wraps the
results in one Python frame (the entry is `Executable.entry_source`):

    def run(leaves, check=2):
        if check == 2 and (len(leaves) != 2 or (backends[-1] if backends else
                                                default_backend) is not backend):
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
looks at every value, and then runs the same entry on the Tensor leaves. A Cell called again
with positional Tensors alone tries `GraphCache.last` from `nn.Cell.__call__` itself.

A backend with a `lower` step rewrites each graph before it is bound (the numpy backend fuses
elementwise runs into compiled kernels where numba is installed: runtime/fused_kernels.py);
the Executable keeps the lowered graph and module, so run-time errors name its nodes.
"""
from __future__ import annotations

import functools
import math
import os
import threading
import types
import weakref
from collections import OrderedDict

import numpy as np

from cellgraph.compiler.builder import ArgumentSlot, AttributeSlot, InputSlot
from cellgraph.compiler.guards import guard_source, stale_checker
from cellgraph.compiler.pipeline import Compiled, compile_callable
from cellgraph.compiler.pytree import (
    MutableBool,
    MutableFloat,
    MutableInt,
    Tree,
    is_plain_dict,
    join_text,
    rebuild_sparse,
    runtime_value,
    sparse_parts,
)
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import VALUE_INPUT_LIMIT
from cellgraph.primitives.errors import CompileError, RunError

from . import backend as backend_module
from .backend import Backend, get_backend
from .run_errors import UnappliedRun, located_error
from .sharded_parameters import hold_slices
from .tensor import Parameter, ScalarArgument, Tensor

STALE = object()  # what an entry returns when a guard failed: recompile
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def signature(value):
    """A hashable key: shapes and dtypes of Tensors (and whether they are Parameters, which a
    graph may assign), values of everything else."""
    if isinstance(value, Parameter):  # an input the graph may assign, and may ask about
        return (Parameter, value._data.shape, value._dtype, bool(value.requires_grad))
    if isinstance(value, Tensor):
        if value.__class__ is ScalarArgument:  # a mutable number: its type, not its value
            return (ScalarArgument, value._dtype)
        if value.const_arg:  # a constant of the graph (MindSpore's): each Tensor its own
            return ("const_arg", id(value), value._data.shape, value._dtype)
        return (value._data.shape, value._dtype)
    if isinstance(value, (tuple, list)):
        return (type(value),) + tuple(signature(v) for v in value)
    if is_plain_dict(value):
        return (type(value),) + tuple((k, signature(v)) for k, v in value.items())
    parts = sparse_parts(value)
    if parts is not None:  # a sparse tensor: its class, dense shape and arrays' types
        return (type(value), getattr(value, type(value)._shape_name)) + tuple(
            signature(p) for p in parts)
    if isinstance(value, np.ndarray):  # a graph input like a Tensor: its type, not its values
        return ("nd", value.shape, value.dtype.str)
    if isinstance(value, (float, np.floating)):  # by bits: -0.0 is not 0.0, NaN equals NaN
        return (type(value), float(value).hex())
    if type(value) is int and not INT64_MIN <= value <= INT64_MAX:
        raise RunError(f"a graph's int inputs are int64 scalars, as MindSpore's are: "
                       f"{value} is outside [{INT64_MIN}, {INT64_MAX}]")
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
        if a.__class__ is Parameter:
            key.append(bool(a.requires_grad))
    return tuple(key)


def repeated_parameters(leaves) -> tuple:
    """Which Parameters a call passes more than once: (position, first position) pairs. A
    graph that assigns a Parameter passed twice wrote one input, so this is part of its key."""
    first, repeats = {}, []
    for i, leaf in enumerate(leaves):
        if leaf.__class__ is Parameter:
            j = first.setdefault(id(leaf), i)
            if j != i:
                repeats.append((i, j))
    return tuple(repeats)


class Executable:
    """One specialisation: `run(*tensor_leaves)` checks its guards, runs, wraps the results."""

    def __init__(self, compiled: Compiled, backend: Backend):
        if backend.lower is not None:
            compiled = backend.lower(compiled)
        self.compiled = compiled
        graph = compiled.graph
        self.weights = list(graph.weights)
        hold_slices(graph)
        self.updates = list(getattr(graph, "updates", ()))  # Parameters the last outputs replace
        # (AttributeSlot, value known when compiling): `self.attr = 2` in construct, set after
        # every run
        self.host_writes = list(graph.host_writes)
        self.out_dtypes = [o.aval.dtype for o in graph.outputs]
        self.out_tree = graph.out_tree
        self.guards = compiled.guards
        self._guards_stale = None  # made on first use: most entries are checked by `run`
        self._weight_ids = None  # ids of `weights`, made on first use by `aliases_hold`
        if backend.compile_graph is not None:  # no generated frames to locate errors in
            self.fn, self.namespace = backend.compile_graph(compiled), {}
        else:
            self.fn, self.namespace = bind_module(compiled.module, backend)
        self.backend = backend
        self.entry_source, self.run = make_entry(self, graph.n_inputs)

    def guards_hold(self) -> bool:
        if self._guards_stale is None:
            self._guards_stale = stale_checker(self.guards)
        return not self._guards_stale()

    def aliases_hold(self, leaves) -> bool:
        """Whether the call's Parameter arguments overlap the graph's weights as when it
        compiled: a Parameter the graph also read as an attribute is passed there again, and
        no other Parameter argument is one of its weights (which has a slot of its own)."""
        arguments = self.compiled.arguments
        if arguments is None or not arguments.first:
            return True
        if self._weight_ids is None:
            self._weight_ids = frozenset(id(w) for w in self.weights)
        for i in set(arguments.first.values()):
            alias = arguments.attributes.get(i)
            if leaves[i] is not alias if alias is not None else id(leaves[i]) in self._weight_ids:
                return False
        return True

    def values_hold(self, leaves) -> bool:
        """Whether the call passes the values the graph was specialised on at the positions of
        its value inputs (a shape, an axis, paddings passed as a Tensor): bit for bit, with
        the same dtype and shape (a NaN is itself, -0.0 is not 0.0)."""
        arguments = self.compiled.arguments
        if arguments is None or not arguments.values:
            return True
        to_host = self.backend.to_host
        for i, expected in arguments.values.items():
            data = leaves[i]._data
            host = data if isinstance(data, np.ndarray) else np.asarray(to_host(data))
            if (host.dtype != expected.dtype or host.shape != expected.shape
                    or host.tobytes() != expected.tobytes()):
                return False
        return True

    def __call__(self, leaves):
        return self.run(leaves, CHECK_NOTHING)


# ----- the entry function ----------------------------------------------------------------------

CHECK_ALL, CHECK_GUARDS, CHECK_NOTHING = 2, 1, 0


def make_entry(ex: Executable, n_inputs: int):
    """Generate `run(leaves, check=CHECK_ALL)` for this Executable; returns (source, function).

    CHECK_ALL: `leaves` are a call's arguments, which must be Tensors of this specialisation's
    shapes and dtypes on its backend; CHECK_GUARDS: only the guards (the caller matched the
    signature); CHECK_NOTHING: just compiled. A failed check returns STALE.
    """
    env = {"graph_fn": ex.fn, "STALE": STALE, "UnappliedRun": UnappliedRun, "ndarray": np.ndarray,
           "Tensor": Tensor, "Parameter": Parameter, "new": object.__new__,
           "backends": backend_module._current,
           "default_backend": backend_module._BACKENDS.get("numpy"), "backend": ex.backend,
           "fix": functools.partial(_fix, ex.backend.asarray)}
    args = [f"a{i}" for i in range(n_inputs)]
    unpack = f"    {''.join(a + ', ' for a in args)}= leaves" if args else None
    lines = [f"def run(leaves, check={CHECK_ALL}):",
             # get_backend(), inlined
             (f"    if check == {CHECK_ALL} and (len(leaves) != {n_inputs} or "
              "(backends[-1] if backends else default_backend) is not backend):"),
             "        return STALE"]
    lines += [unpack] if unpack else []
    arguments = ex.compiled.arguments
    lines += ["    " + line for line in _signature_lines(ex.compiled.graph, args, arguments,
                                                          env)]
    checks_aliases = arguments is not None and bool(arguments.first)
    checks_values = arguments is not None and bool(arguments.values)
    if ex.guards or checks_aliases or checks_values:
        lines += ["    if check:"] + guard_source(ex.guards, env, "        ")
    if checks_aliases:
        env["aliases_hold"] = ex.aliases_hold
        lines += ["        if not aliases_hold(leaves):", "            return STALE"]
    if checks_values:
        env["values_hold"] = ex.values_hold
        lines += ["        if not values_hold(leaves):", "            return STALE"]
    for i, w in enumerate(ex.weights):
        env[f"weight_{i}"] = w
    raw = [f"{a}._data" for a in args] + [f"weight_{i}._data" for i in range(len(ex.weights))]
    # Tensors made before a backend switch (NumPy's, say) are copied to this backend's arrays;
    # a backend that compiles whole graphs (JAX) takes NumPy arrays as they are: its compiled
    # function moves them itself, in a tenth of the time a separate device_put takes
    if ex.backend.array_type is not np.ndarray and ex.backend.compile_graph is None:
        env["native"] = ex.backend.native
        raw = [f"native({r})" for r in raw]
    env["located"] = functools.partial(located_error, module=ex.compiled.module,
                                       namespace=ex.namespace)
    step_start = len(lines)
    lines += ["    try:",
              f"        outs = graph_fn({', '.join(raw)})",
              "    except UnappliedRun as e:  # a check failed after the run: keep the old values",
              "        outs = e.outputs"]
    restore_at = len(lines)
    lines += ["        raise e.error from None",
              "    except Exception as e:  # a kernel failed: name the node and the user's line",
              "        error = located(e)",
              "        if error is e:",
              "            raise",
              "        raise error from None"]
    n_results = len(ex.out_dtypes) - len(ex.updates)
    results = [f"r{i}" for i in range(len(ex.out_dtypes))]
    if results:
        lines.append(f"    {', '.join(results)}, = outs")
    restore = []
    for i, param in enumerate(ex.updates):
        if isinstance(param, ArgumentSlot):  # a Parameter passed as an argument: that one
            env[f"param_dtype_{i}"] = ex.out_dtypes[n_results + i].np
            target = args[param.index]
            lines.append(f"    {target}._data = fix({results[n_results + i]}, param_dtype_{i})")
            if not isinstance(param, InputSlot):  # a plain Tensor has no version to count
                lines.append(f"    {target}._version += 1")
            continue
        if isinstance(param, AttributeSlot):  # `self.attr = tensor` in construct
            dtype = ex.out_dtypes[n_results + i]
            env[f"param_{i}"], env[f"param_dtype_{i}"], env[f"dtype_u{i}"] = param, dtype.np, dtype
            lines.append(f"    param_{i}.write(Tensor(fix({results[n_results + i]}, "
                         f"param_dtype_{i}), dtype_u{i}, internal=True))")
            continue
        env[f"param_{i}"], env[f"param_dtype_{i}"] = param, param.dtype.np
        lines += [f"    param_{i}._data = fix({results[n_results + i]}, param_dtype_{i})",
                  f"    param_{i}._version += 1"]
        # its buffer may have been donated to the failed run, which gives the value back
        restore.append(f"        param_{i}._data = fix(outs[{n_results + i}], param_dtype_{i})")
    lines[restore_at:restore_at] = restore
    for k, (slot, value) in enumerate(ex.host_writes):  # `self.attr = 2` in construct
        env[f"host_slot_{k}"], env[f"host_value_{k}"] = slot, value
        lines.append(f"    host_slot_{k}.write(host_value_{k})")
    if ex.updates or ex.host_writes:
        # a graph that writes Parameters reads them, runs, and writes them back: two calls at
        # once would both start from the old values and one update would be lost
        env["step_lock"] = threading.RLock()
        lines[step_start:] = ["    with step_lock:"] + ["    " + line
                                                         for line in lines[step_start:]]
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


def _signature_lines(graph, args, arguments, env) -> list[str]:
    """Source that returns STALE unless every argument is a Tensor of the compiled type, a
    Parameter where the graph had one (with the same requires_grad, and the same Parameter
    where it had the same one)."""
    if not args:
        return []
    first = arguments.first if arguments is not None else {}
    tests = []
    for i, (a, p) in enumerate(zip(args, graph.params)):
        env[f"shape_{i}"], env[f"dtype_name_{i}"] = p.aval.shape, p.aval.dtype.name
        env[f"dtype_in_{i}"] = p.aval.dtype  # the same object, mostly: then no name compared
        if i in first:  # the graph may read the flag (ParameterArgument.requires_grad)
            env[f"requires_grad_{i}"] = arguments.requires_grad[i]
            kind = (f"{a}.__class__ is not Parameter or "
                    f"bool({a}.requires_grad) is not requires_grad_{i}")
        else:
            kind = f"{a}.__class__ is not Tensor"
        tests.append(f"({kind} or {a}._data.shape != shape_{i} or "
                     f"{a}._dtype is not dtype_in_{i} and {a}._dtype.name != dtype_name_{i})")
    distinct = sorted(set(first.values()))
    tests += [f"{args[i]} is not {args[j]}" for i, j in first.items() if i != j]
    if len(distinct) > 1:
        tests.append(f"len({{{', '.join(f'id({args[i]})' for i in distinct)}}}) != "
                     f"{len(distinct)}")
    return [f"if check == {CHECK_ALL} and ({' or '.join(tests)}):", "    return STALE"]


def _fix(asarray, value, np_dtype):
    """A kernel result as a backend array of the promised dtype."""
    if isinstance(value, np.ndarray) and value.dtype == np_dtype:
        return value
    return asarray(value, np_dtype)  # Backend.asarray: also torch tensors, Python numbers


def _tree_expr(tree: Tree | None, leaves, env) -> str:
    """A Python expression that nests the wrapped results as `tree` says."""
    if tree is None or tree.kind == "leaf":
        return next(leaves, "None")
    if tree.kind == "static":
        name = f"static_{len(env)}"
        env[name] = tree.static
        return name
    items = [_tree_expr(child, leaves, env) for child in tree.children]
    if tree.kind in ("dynseq", "scalar", "optional"):  # a dynamic-length sequence, a variable
        # scalar, a value or None
        name = f"runtime_{len(env)}"
        env[name] = functools.partial(runtime_value, tree)
        return f"{name}([{', '.join(items)}])"
    if tree.kind == "sparse":  # a COOTensor, CSRTensor or RowTensor around its parts
        name = f"sparse_{len(env)}"
        env[name] = functools.partial(rebuild_sparse, tree.static)
        return f"{name}([{', '.join(items)}])"
    if tree.kind == "repr":  # a Tensor written as its repr inside a formatted tuple or list
        env["repr"] = repr
        return f"repr({items[0]})"
    if tree.kind == "text":  # a string with Tensor parts, written when the graph has run
        env["join_text"] = join_text
        return f"join_text([{', '.join(items)}])"
    if tree.kind == "list":
        return f"[{', '.join(items)}]"
    if tree.kind == "dict":  # a construct that returns a dict gives the caller a dict
        keys = f"keys_{len(env)}"
        env[keys] = tree.static
        return f"dict(zip({keys}, ({', '.join(items)}{',' if len(items) == 1 else ''})))"
    if tree.static is not None:  # a namedtuple: its class, called with the items
        cls = f"cls_{len(env)}"
        env[cls] = tree.static
        return f"{cls}({', '.join(items)})"
    return f"({', '.join(items)}{',' if len(items) == 1 else ''})"


def bind_module(module, backend: Backend):
    """Bind the generated functions to the kernels and constants (their globals); returns the
    entry function and the globals (the frames of the generated code are found by them).

    Only the entry function is compiled now. The others (branches, loop bodies, the graphs of
    a gradient's backward loop) compile when first called, so a large program pays Python's
    compile() only for the code that runs, one function at a time."""
    namespace = {"__builtins__": __builtins__}
    for name, (prim_name, params) in module.kernels.items():
        kernel = backend.kernel(prim_name)
        namespace[name] = functools.partial(kernel, **params) if params else kernel
    for name, value in module.constants.items():
        if isinstance(value, np.ndarray):
            value = backend.from_host(value)
            if isinstance(value, np.ndarray):  # handed out as a result, it stays the graph's
                value = value.view()  # (Tensor.__setitem__ copies it first)
                value.flags.writeable = False
        namespace[name] = value
    filename = f"<cellgraph:{module.entry}>"
    for name in module.functions:
        if name != module.entry:
            namespace[name] = _CompileOnCall(module, name, filename, namespace)
    entry = compile_function(module, module.entry, filename, namespace)
    namespace[module.entry] = entry
    return entry, namespace


def compile_function(module, name: str, filename: str, namespace: dict):
    """One generated function, compiled alone but numbered as in `module.source` (tracebacks
    and run-time errors find their line there)."""
    source, first_line = module.function_source(name)
    code = compile(source, filename, "exec")
    body = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    body = body.replace(co_firstlineno=body.co_firstlineno + first_line - 1)
    return types.FunctionType(body, namespace, name)


class _CompileOnCall:
    """Stands for a generated function until its first call, which compiles it and puts it in
    the globals in its place (threads racing here both compile it; either result is right)."""

    def __init__(self, module, name: str, filename: str, namespace: dict):
        self.module, self.name, self.filename, self.namespace = module, name, filename, namespace

    def __call__(self, *args):
        fn = compile_function(self.module, self.name, self.filename, self.namespace)
        self.namespace[self.name] = fn
        return fn(*args)


# ----- the cache -------------------------------------------------------------------------------

# Specialisations kept per callable: a program that calls one Cell with ever new shapes keeps
# the most recently used CACHE_SIZE graphs, not all of them.
CACHE_SIZE = 64
# every GraphCache alive (jit functions', Cells', the transforms'), for clear_all_caches
_ALL_CACHES: weakref.WeakSet = weakref.WeakSet()


class GraphCache:
    """Compiled specialisations of one callable, by signature; stale entries recompile.

    Safe to share between threads: running an entry reads it without a lock; compiling takes
    the cache's lock and looks again, so one signature compiles once even when threads race
    for it. At most `size` entries, the least recently compiled or looked up dropped first.
    `graph_print`: its graphs print as MindSpore's graphs do in any mode (a jit function's).
    """

    def __init__(self, size: int = CACHE_SIZE, graph_print: bool = False):
        self.size, self.graph_print = size, graph_print
        self.owner = None  # a weak reference to the Cell whose graphs these are, if one's
        # the jit_syntax_level its callable asks for (a Cell's JitConfig, jit's fullgraph);
        # None: set_context's (compile_context.syntax_level)
        self.syntax_level = None
        _ALL_CACHES.add(self)
        self.entries: OrderedDict = OrderedDict()  # (backend name, signature) -> Executable
        self.flat: dict = {}  # flat_key(args) -> Executable, for all-Tensor calls
        self.last: Executable | None = None  # the last all-Tensor call's: tried first
        # set by nn.Cell once a call with positional arguments alone went to its construct
        # unchanged (no keyword-only parameters, no step lock, no declared inputs): from then
        # on nn.Cell.__call__ tries `last` first
        self.plain_calls = False
        self.lock = threading.RLock()
        # flat input positions whose values some specialisation read (value inputs): their
        # values are part of the key, so that calls alternating between values find theirs
        self.value_positions: frozenset = frozenset()

    def key(self, args: tuple, leaves: list) -> tuple:
        """The cache key of a call: backend, signature, repeated Parameters and, at the
        positions of value inputs, the values (at most VALUE_INPUT_LIMIT elements each)."""
        sig = (get_backend().name, signature(args), repeated_parameters(leaves))
        if self.value_positions:
            sig += (value_key(leaves, self.value_positions),)
        return sig

    def call(self, fn, args: tuple, dump_dir=None, name=None, key=None):
        """Run `fn(*args)`, compiling it for this signature first when needed.

        With the environment variable MS_DEV_PRECOMPILE_ONLY=1 the call compiles and returns
        None without running, as MindSpore's does (its tests compile loops that never end).
        Such a call leaves the short paths nothing to find, so the next call comes here too."""
        if os.environ.get("MS_DEV_PRECOMPILE_ONLY") == "1":
            self.lookup(fn, args, dump_dir, name)
            return None
        args = graph_arguments(args)
        leaves = tensor_leaves(args)
        sig = self.key(args, leaves)
        entry = self.entries.get(sig)
        out = STALE if entry is None else entry.run(leaves, CHECK_GUARDS)
        if out is STALE:
            entry = self._compile(fn, args, sig, dump_dir, name, leaves)
            out = entry.run(leaves, CHECK_NOTHING)
        if key is not None:
            self.flat[key] = self.last = entry
        return out

    def lookup(self, fn, args: tuple, dump_dir=None, name=None) -> Executable:
        """The Executable for `args`, compiled if missing or stale (without running it)."""
        args = graph_arguments(args)
        leaves = tensor_leaves(args)
        sig = self.key(args, leaves)
        entry = self.entries.get(sig)
        if entry is None or not (entry.guards_hold() and entry.aliases_hold(leaves)
                                 and entry.values_hold(leaves)):
            entry = self._compile(fn, args, sig, dump_dir, name, leaves)
        return entry

    def _compile(self, fn, args, sig, dump_dir, name, leaves) -> Executable:
        with self.lock:
            entry = self.entries.get(sig)  # another thread may have compiled it meanwhile
            if entry is not None and entry.guards_hold() and entry.aliases_hold(leaves) and \
                    entry.values_hold(leaves):
                self.entries.move_to_end(sig)
                return entry
            entry = Executable(compile_callable(fn, args, dump_dir, name,
                                                graph_print=self.graph_print,
                                                syntax_level=self.syntax_level), get_backend())
            arguments = entry.compiled.arguments
            read = frozenset(arguments.values) if arguments is not None else frozenset()
            if not read <= self.value_positions:  # new value inputs: keyed from now on
                self.value_positions |= read
                sig = self.key(args, leaves)
            self.entries[sig] = entry
            self.entries.move_to_end(sig)
            while len(self.entries) > self.size:
                _, dropped = self.entries.popitem(last=False)
                self._forget(dropped)
            return entry

    def _forget(self, entry: Executable) -> None:
        for key in [k for k, e in list(self.flat.items()) if e is entry]:
            self.flat.pop(key, None)
        if self.last is entry:
            self.last = None

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.flat.clear()
            self.last = None


def value_key(leaves: list, positions) -> tuple:
    """The values at `positions` of a call's leaves, as bytes with their dtype and shape (None
    for a leaf too large to be a value input, or a position the call does not have)."""
    out = []
    for i in sorted(positions):
        leaf = leaves[i] if i < len(leaves) else None
        data = getattr(leaf, "_data", None)
        if data is None or math.prod(data.shape) > VALUE_INPUT_LIMIT:
            out.append(None)
            continue
        host = data if isinstance(data, np.ndarray) else np.asarray(get_backend().to_host(data))
        out.append((host.dtype.str, host.shape, host.tobytes()))
    return tuple(out)


_SCALAR_DTYPES = {MutableInt: dt.int64, MutableFloat: dt.float32, MutableBool: dt.bool_}


def graph_arguments(args: tuple) -> tuple:
    """The call's arguments as a graph takes them: each number `mutable()` made (inside
    tuples, lists and dicts too) a ScalarArgument; the rest as given."""
    inside = set()  # the containers being converted (one holding itself is left as it is)

    def convert(value):
        dtype = _SCALAR_DTYPES.get(type(value))
        if dtype is not None:
            return ScalarArgument(value.__ms_origin_object__, dtype)
        container = isinstance(value, (tuple, list)) or is_plain_dict(value)
        if not container or id(value) in inside:
            return value
        inside.add(id(value))
        old = list(value.values()) if is_plain_dict(value) else list(value)
        new = [convert(v) for v in old]
        inside.discard(id(value))
        if all(a is b for a, b in zip(old, new)):
            return value
        return _rebuilt(value, dict(zip(value, new)) if is_plain_dict(value) else new)

    converted = tuple(convert(a) for a in args)
    return converted if any(a is not b for a, b in zip(args, converted)) else args


def _rebuilt(container, items):
    """`container`'s class holding `items` (a namedtuple's by position), with the marks
    `mutable()` set on it (its instance attributes)."""
    cls = type(container)
    out = cls(*items) if hasattr(container, "_fields") else cls(items)
    state = getattr(container, "__dict__", None)
    if state:
        out.__dict__.update(state)
    return out


def tensor_leaves(args, _enclosing: tuple = ()) -> list:
    """The Tensors in a call's arguments (nested tuples, lists and dicts), in order. A container
    that holds itself (`a = [1]; a.append(a)`) is refused, as MindSpore refuses it."""
    out = []
    for a in args:
        if isinstance(a, Tensor):
            out.append(a)
        elif isinstance(a, (tuple, list)) or is_plain_dict(a):
            if id(a) in _enclosing:
                raise CompileError("Detect recursion when converting python object.")
            items = tuple(a.values()) if is_plain_dict(a) else a
            out.extend(tensor_leaves(items, (*_enclosing, id(a))))
        elif isinstance(a, np.ndarray):
            out.append(Tensor(a))
        else:
            parts = sparse_parts(a)
            if parts is not None:
                out.extend(tensor_leaves(parts))
    return out


def run_cached(cache: GraphCache, fn, args: tuple, dump_dir=None, name=None):
    """Compile `fn` for `args` once per signature, then run it.

    All-Tensor calls try the last such call's Executable (its entry checks the signature
    itself), then the one for these shapes and dtypes; anything else takes `GraphCache.call`.
    """
    entry = cache.last  # run_compiled's first try, inlined: the common call's whole path
    if entry is not None:
        out = entry.run(args)
        if out is not STALE:
            return out
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


def all_caches() -> list:
    """The compile caches of every live callable."""
    return list(_ALL_CACHES)


def clear_all_caches() -> None:
    """Drop the compiled graphs of every callable (each compiles again at its next call)."""
    for cache in list(_ALL_CACHES):
        cache.clear()
