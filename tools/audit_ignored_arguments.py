"""List the arguments of cellgraph's public API that are accepted and never read.

An argument that changes results, files or security must act or raise; one that is only a
device or performance hint in MindSpore may be accepted without effect, but then it is listed
in the README's table of such arguments and in `HINTS` below with the reason. This script
walks every public callable (functions; for classes `__init__`/`__new__` and the public
methods; the methods of Tensor, Parameter, Cell, Optimizer and Dataset) and, from the AST of
each, reports the parameters that are:

* never referenced in the body (`del x` and `_ = x` do not count as a use), or
* only stored as `self.<attr> = x` where no code in the package ever reads `<attr>`.

A function whose body is empty (a hook meant to be overridden) or starts by raising is skipped.

    python tools/audit_ignored_arguments.py          # the unreviewed hits, exit 1 if any
    python tools/audit_ignored_arguments.py --all    # every hit, reviewed ones marked
"""
from __future__ import annotations

import ast
import importlib
import inspect
import pathlib
import sys
import textwrap
import types

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "cellgraph"

MODULES = (
    "cellgraph", "cellgraph.ops", "cellgraph.ops.functional", "cellgraph.ops.operations",
    "cellgraph.nn", "cellgraph.mint", "cellgraph.mint.nn", "cellgraph.mint.nn.functional",
    "cellgraph.numpy", "cellgraph.dataset", "cellgraph.dataset.vision",
    "cellgraph.dataset.transforms", "cellgraph.dataset.text", "cellgraph.train",
    "cellgraph.amp", "cellgraph.communication", "cellgraph.common.initializer",
    "cellgraph.experimental.optim",
)

# (qualified name of the function as defined, parameter) -> why it has no effect here.
# Only device or performance hints in MindSpore belong here; each is in the README's table.
HINTS: dict[tuple[str, str], str] = {
}


def _read_names() -> set[str]:
    """Every attribute name some code of the package reads, and every identifier-like string
    constant (names read through getattr, __dict__ or lists of attribute names)."""
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Attribute):
                names.add(node.target.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value.isidentifier():
                names.add(node.value)
    return names


def _public_objects():
    seen: set[int] = set()
    for modname in MODULES:
        module = importlib.import_module(modname)
        names = getattr(module, "__all__", None)
        if names is None:
            names = [n for n in dir(module) if not n.startswith("_")]
        lazy = getattr(module, "_LAZY", None)
        if isinstance(lazy, dict):
            names = sorted(set(names) | set(lazy))
        for name in names:
            if name.startswith("_"):
                continue
            try:
                obj = getattr(module, name)
            except (ImportError, AttributeError):  # an optional extra missing
                continue
            if isinstance(obj, types.ModuleType) or id(obj) in seen:
                continue
            seen.add(id(obj))
            yield f"{modname}.{name}", obj


def _own(obj) -> bool:
    return (getattr(obj, "__module__", "") or "").startswith("cellgraph")


def _functions_of(qualname: str, obj):
    """(public name, function) pairs to audit for one public object."""
    if isinstance(obj, type):
        if not _own(obj):
            return
        for meth in ("__init__", "__new__"):
            fn = obj.__dict__.get(meth)
            if fn is not None:
                yield f"{qualname}.{meth}", fn
        for name, fn in vars(obj).items():
            if not name.startswith("_") or name == "__call__":
                yield f"{qualname}.{name}", fn
        return
    yield qualname, obj


def _base_classes():
    import cellgraph
    from cellgraph import dataset, nn
    for cls in (cellgraph.Tensor, cellgraph.Parameter, nn.Cell, nn.Optimizer, dataset.Dataset):
        for klass in cls.__mro__:
            if _own(klass):
                yield f"{klass.__module__}.{klass.__qualname__}", klass


def _unwrap(fn):
    if isinstance(fn, (staticmethod, classmethod)):
        fn = fn.__func__
    if isinstance(fn, property):
        return None
    fn = inspect.unwrap(fn) if callable(fn) else None
    if not isinstance(fn, types.FunctionType) or not _own(fn):
        return None
    return fn


def _is_trivial(body) -> bool:
    stmts = [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if not stmts:
        return True
    first = stmts[0]
    if isinstance(first, ast.Raise):
        return True
    return all(isinstance(s, ast.Pass) or (isinstance(s, ast.Return) and (
        s.value is None or isinstance(s.value, ast.Constant))) for s in stmts)


def _parents(tree):
    parent = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parent[child] = node
    return parent


def unread_parameters(fn, read_names: set[str]) -> list[str]:
    """The parameters of `fn` its body never reads (see the module docstring)."""
    try:
        source = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return []
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    node = next((n for n in ast.walk(tree)
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == fn.__name__), None)
    if node is None or _is_trivial(node.body):
        return []
    args = node.args
    params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    if args.vararg:
        params.append(args.vararg.arg)
    if args.kwarg:
        params.append(args.kwarg.arg)
    if params and params[0] in ("self", "cls") and "." in fn.__qualname__:
        params = params[1:]
    body = ast.Module(body=node.body, type_ignores=[])
    parent = _parents(body)
    calls_locals = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                       and n.func.id in ("locals", "vars") and not n.args
                       for n in ast.walk(body))
    if calls_locals:
        return []
    uses: dict[str, bool] = {p: False for p in params}
    for n in ast.walk(body):
        if not (isinstance(n, ast.Name) and n.id in uses and isinstance(n.ctx, ast.Load)):
            continue
        up = parent.get(n)
        if isinstance(up, ast.Expr):  # a bare `x` statement
            continue
        if isinstance(up, ast.Assign) and up.value is n:
            targets = up.targets
            if all(isinstance(t, ast.Name) and t.id == "_" for t in targets):
                continue  # `_ = x`
            if all(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                   and t.value.id == "self" for t in targets) and not any(
                    t.attr in read_names for t in targets):
                continue  # stored where nothing reads it
        if isinstance(up, ast.Tuple) and isinstance(parent.get(up), ast.Assign) \
                and parent[up].value is up and all(
                    isinstance(t, ast.Name) and t.id == "_" for t in parent[up].targets):
            continue  # `_ = x, y`
        uses[n.id] = True
    return [p for p, used in uses.items() if not used]


def audit():
    """{(defined qualname, parameter): public name} of every hit."""
    read_names = _read_names()
    seen: set[int] = set()
    hits: dict[tuple[str, str], str] = {}
    sources = list(_public_objects())
    sources += [(q, o) for q, o in _base_classes()]
    for qualname, obj in sources:
        for public, fn in _functions_of(qualname, obj):
            fn = _unwrap(fn)
            if fn is None or id(fn.__code__) in seen:
                continue
            seen.add(id(fn.__code__))
            defined = f"{fn.__module__}.{fn.__qualname__}"
            for param in unread_parameters(fn, read_names):
                hits.setdefault((defined, param), public)
    return hits


def main(argv) -> int:
    hits = audit()
    show_all = "--all" in argv
    new = 0
    for (defined, param), public in sorted(hits.items()):
        reviewed = (defined, param) in HINTS
        new += not reviewed
        if show_all or not reviewed:
            mark = "hint " if reviewed else "NEW  "
            print(f"{mark}{defined}({param})  [{public}]")
    stale = sorted(set(HINTS) - set(hits))
    for defined, param in stale:
        print(f"STALE allow-list entry (the argument is read now): {defined}({param})")
    print(f"{len(hits)} hits, {len(hits) - new} reviewed hints, {new} unreviewed")
    return 1 if new or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
