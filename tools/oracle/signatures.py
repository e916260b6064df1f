"""Record the signatures of MindSpore's public callables as test data.

Run with the oracle's interpreter (``make oracle`` builds it in ``.ms/``)::

    .ms/bin/python tools/oracle/signatures.py            # writes tests/data/...
    .venv/bin/python tools/oracle/signatures.py --report # compare, list what is missing

Recording (under MindSpore) walks the modules cellgraph mirrors and the methods of the classes
programs subclass or call methods on, and writes, for each public callable, its parameters as
``[name, kind, default]`` (kind: ``P`` positional-only, ``PK`` positional-or-keyword, ``V``
``*args``, ``K`` keyword-only, ``VK`` ``**kwargs``; default: its ``repr`` or null). A callable
whose signature Python cannot read (a C++ builtin) is recorded as the string ``"?"``. A class is
recorded with the signature of its constructor; the primitive classes of
``ops.auto_generate.gen_ops_prim`` also with their call's (their operands).

``--report`` (under cellgraph's interpreter) writes ``tools/oracle/missing_names.md``: how many
of cellgraph's callables take MindSpore's parameters, and the names MindSpore has that cellgraph
lacks, ordered by how many real source files use them.
"""
import argparse
import gzip
import importlib
import inspect
import json
import re
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "mindspore_signatures.json.gz"
USAGE = ROOT.parent / "shared" / "mindspore_api_usage.tsv"

# module paths relative to the package root ("" is the package itself)
MODULES = ["", "nn", "ops", "ops.functional", "ops.operations", "mint", "mint.nn",
           "mint.nn.functional", "numpy", "dataset", "dataset.vision", "dataset.transforms",
           "dataset.text", "train", "amp", "communication", "common.initializer",
           "experimental.optim"]
# the module of primitive classes whose calls are recorded too (a generated primitive's call
# takes its operands; its constructor, recorded with the module's classes, its attributes)
PRIMITIVES = "ops.auto_generate.gen_ops_prim"
# classes whose methods are recorded: name -> path relative to the package root
CLASSES = {"Tensor": "Tensor", "Parameter": "Parameter", "Cell": "nn.Cell",
           "Optimizer": "nn.Optimizer", "Dataset": "dataset.Dataset"}

KINDS = {inspect.Parameter.POSITIONAL_ONLY: "P", inspect.Parameter.POSITIONAL_OR_KEYWORD: "PK",
         inspect.Parameter.VAR_POSITIONAL: "V", inspect.Parameter.KEYWORD_ONLY: "K",
         inspect.Parameter.VAR_KEYWORD: "VK"}

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def resolve(package, path):
    obj = importlib.import_module(package)
    for part in path.split(".") if path else []:
        obj = getattr(obj, part)
    return obj


def default_repr(value, package):
    """A default's repr with memory addresses dropped and the package name written `mindspore`."""
    text = _ADDRESS.sub("", repr(value))
    if package == "mindspore":
        return text
    return re.sub(r"\b" + re.escape(package) + r"\b", "mindspore", text)


def _only_varargs(sig):
    kinds = [p.kind for p in sig.parameters.values()]
    return bool(kinds) and all(k in (inspect.Parameter.VAR_POSITIONAL,
                                     inspect.Parameter.VAR_KEYWORD) or n == "self"
                               for n, k in zip(sig.parameters, kinds))


def _takes_any(sig):
    kinds = {p.kind for p in sig.parameters.values()}
    return {inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD} <= kinds


def _wrapped_in_closure(func, name, depth=0):
    """The function a decorator without functools.wraps closed over, found by its name."""
    for cell in getattr(func, "__closure__", None) or ():
        try:
            inner = cell.cell_contents
        except ValueError:
            continue
        if isinstance(inner, types.FunctionType):
            if inner.__name__ == name:
                return inner
            if depth < 3:
                found = _wrapped_in_closure(inner, name, depth + 1)
                if found is not None:
                    return found
    return None


def signature_of(obj, drop_self=False):
    """inspect.signature of obj, seeing through decorators that hide it; None if unreadable."""
    try:
        sig = inspect.signature(obj)
    except (ValueError, TypeError):
        return None
    if _only_varargs(sig):
        target = obj.__init__ if isinstance(obj, type) else obj
        name = "__init__" if isinstance(obj, type) else getattr(obj, "__name__", "")
        inner = _wrapped_in_closure(target, name)
        if inner is not None:
            try:
                sig = inspect.signature(inner)
            except (ValueError, TypeError):
                return None
            params = list(sig.parameters.values())
            if isinstance(obj, type) and params and params[0].name == "self":
                sig = sig.replace(parameters=params[1:])
    if isinstance(obj, type) and _takes_any(sig) and "__init__" in vars(obj) \
            and isinstance(vars(obj)["__init__"], types.FunctionType):
        # a class whose __new__ passes everything on: its __init__ says what a call takes
        init = signature_of(vars(obj)["__init__"], drop_self=True)
        if init is not None and not _takes_any(init):
            sig = init
    if drop_self:
        params = list(sig.parameters.values())
        if params and params[0].kind in (inspect.Parameter.POSITIONAL_ONLY,
                                         inspect.Parameter.POSITIONAL_OR_KEYWORD):
            sig = sig.replace(parameters=params[1:])
    return sig


def encode(sig, package):
    if sig is None:
        return "?"
    out = []
    for p in sig.parameters.values():
        d = None if p.default is inspect.Parameter.empty else _normalise_default(p.default, package)
        out.append([p.name, KINDS[p.kind], d])
    return out


def public_callable(mod, name):
    """mod.name if it is a callable other than a module (a lazy attribute included), else None."""
    try:
        obj = getattr(mod, name)
    except (AttributeError, ImportError):
        return None
    if isinstance(obj, types.ModuleType) or not callable(obj):
        return None
    return obj


def module_callables(mod):
    """Public callables of a module (submodules left out), name -> object."""
    out = {}
    for name in dir(mod):
        obj = None if name.startswith("_") else public_callable(mod, name)
        if obj is not None:
            out[name] = obj
    return out


def class_method(cls, name):
    """(callable, drop_self) for a public method of cls; None for a property or no method."""
    try:
        static = inspect.getattr_static(cls, name)
    except AttributeError:
        static = getattr(cls, name, None)   # provided by a metaclass or __getattr__
        return None if static is None or not callable(static) else (static, False)
    if isinstance(static, (property, types.GetSetDescriptorType, types.MemberDescriptorType)):
        return None
    if isinstance(static, staticmethod):
        return (static.__func__, False)
    if isinstance(static, classmethod):
        return (getattr(cls, name), False)
    if callable(static):   # functions, builtin method descriptors and the like
        return (static, True)
    return None


def class_methods(cls):
    """Public methods of a class, name -> (callable, drop_self). Properties are left out."""
    out = {}
    for name in dir(cls):
        found = None if name.startswith("_") else class_method(cls, name)
        if found is not None:
            out[name] = found
    return out


def record(package):
    modules = {}
    for path in MODULES:
        mod = resolve(package, path)
        entries = {}
        for name, obj in sorted(module_callables(mod).items()):
            entries[name] = encode(signature_of(obj), package)
        modules[path] = entries
    classes = {}
    for cname, path in CLASSES.items():
        cls = resolve(package, path)
        classes[cname] = {name: encode(signature_of(fn, drop_self), package)
                          for name, (fn, drop_self) in sorted(class_methods(cls).items())}
    return {"modules": modules, "classes": classes, "primitives": record_primitives(package)}


def call_signature(cls):
    """The parameters a primitive class's call takes: its own `__call__`'s (self dropped), or,
    for cellgraph's classes that call a function with their attributes (`_fn`), that
    function's less the constructor's arguments. None when the class has no call of its own
    (MindSpore's base Primitive takes `*args`)."""
    if getattr(cls, "_operands", None) is not None:  # cellgraph's: bound by MindSpore's names
        return cls._operands
    owner = next((k for k in cls.__mro__ if "__call__" in vars(k)), None)
    function = getattr(cls, "_fn", None)
    if function is not None and owner is not None and owner.__name__ == "PrimitiveClass":
        try:
            sig = inspect.signature(function)
        except (ValueError, TypeError):
            return None
        attributes = set(getattr(cls, "_init_names", ()))
        return sig.replace(parameters=[p for p in sig.parameters.values()
                                       if p.name not in attributes])
    if owner is None or owner.__name__ == "Primitive":
        return None
    return signature_of(vars(owner)["__call__"], drop_self=True)


def record_primitives(package):
    """{class name: {"init": constructor's parameters, "call": the call's}} for the classes of
    the PRIMITIVES module."""
    mod = resolve(package, PRIMITIVES)
    out = {}
    for name in sorted(dir(mod)):
        obj = getattr(mod, name, None)
        if isinstance(obj, type) and name[:1].isupper():
            call = call_signature(obj)
            if call is not None:
                out[name] = {"init": encode(signature_of(obj), package),
                             "call": encode(call, package)}
    return out


def _normalise_default(value, package):
    """repr of a default as MindSpore writes it: dtypes print as `mindspore.float32`."""
    if package != "mindspore":
        dtype_cls = type(getattr(importlib.import_module(package), "float32", None))
        if isinstance(value, dtype_cls) and dtype_cls is not type(None):
            return "mindspore." + str(value).lower()
    return default_repr(value, package)


def load_recorded(path=DATA):
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return json.load(fh)


def main_record(out):
    import mindspore
    data = record("mindspore")
    data = {"mindspore": mindspore.__version__, "python": sys.version.split()[0], **data}
    out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, separators=(",", ":"), sort_keys=True)
    with gzip.GzipFile(out, "wb", mtime=0) as fh:   # mtime 0: the same data, the same bytes
        fh.write(text.encode("utf-8"))
    n = sum(len(v) for v in data["modules"].values()) + sum(len(v) for v in data["classes"].values())
    print(f"{n} signatures from MindSpore {data['mindspore']} -> {out} ({out.stat().st_size} bytes)")


def keyed(recorded):
    """{"mindspore.nn.Dense": signature, "mindspore.Tensor.add": signature, ...}"""
    out = {}
    for path, entries in recorded["modules"].items():
        for name, sig in entries.items():
            out[".".join(p for p in ("mindspore", path, name) if p)] = ("module", path, name, sig)
    for cname, entries in recorded["classes"].items():
        for name, sig in entries.items():
            out[f"mindspore.{CLASSES[cname]}.{name}"] = ("class", cname, name, sig)
    for cname, sigs in recorded.get("primitives", {}).items():
        for part, sig in sigs.items():
            out[f"mindspore.{PRIMITIVES}.{cname}" + (".__call__" if part == "call" else "")] = (
                "primitive", cname, part, sig)
    return out


def _comparable(sig):
    """A recorded signature that says which parameters a call takes: not unreadable, and not
    only `*args, **kwargs` (MindSpore's overloaded functions dispatch in C++)."""
    return sig != "?" and not (sig and all(p[1] in ("V", "VK") for p in sig))


def describe(ms_sig, cg_sig):
    """One line saying how cellgraph's parameters differ from MindSpore's ('' if they match)."""
    if cg_sig == "?":
        return "cellgraph's signature is unreadable"
    if ms_sig == cg_sig:
        return ""
    def fmt(sig):
        return "(" + ", ".join(
            {"V": "*", "VK": "**", "K": "*:"}.get(k, "") + n + ("" if d is None else "=" + d)
            + ("/" if k == "P" else "") for n, k, d in sig) + ")"
    return f"mindspore {fmt(ms_sig)} cellgraph {fmt(cg_sig)}"


def _primitive_part(package, cname, part):
    """The signature of `package`'s primitive class `cname`'s constructor ("init") or call
    ("call"); None when the package lacks the class."""
    try:
        cls = getattr(resolve(package, PRIMITIVES), cname)
    except (ImportError, AttributeError):
        return None
    if not isinstance(cls, type):
        return None
    return signature_of(cls) if part == "init" else call_signature(cls)


def compare_all(recorded, package="cellgraph"):
    """Check every callable `package` provides against MindSpore's recorded signature.

    Returns total (comparable pairs), matched, mismatches {key: description}, missing (keys
    MindSpore has and the package lacks), unreadable (pairs MindSpore's side cannot be read for).
    """
    mismatches, missing = {}, []
    counts = {"total": 0, "matched": 0, "unreadable": 0}
    owners = {}

    def tally(key, ms_sig, signature):
        if not _comparable(ms_sig):
            counts["unreadable"] += 1
            return
        counts["total"] += 1
        why = describe(ms_sig, encode(signature, package))
        if why:
            mismatches[key] = why
        else:
            counts["matched"] += 1

    for key, (where, owner, name, ms_sig) in sorted(keyed(recorded).items()):
        if where == "primitive":
            found = _primitive_part(package, owner, name)
            if found is None:
                missing.append(key)
            else:
                tally(key, ms_sig, found)
            continue
        path = owner if where == "module" else CLASSES[owner]
        if path not in owners:
            try:
                owners[path] = resolve(package, path)
            except (ImportError, AttributeError):
                owners[path] = None
        found = None
        if owners[path] is not None:
            if where == "module":
                obj = public_callable(owners[path], name)
                found = None if obj is None else (obj, False)
            else:
                found = class_method(owners[path], name)
        if found is None:
            missing.append(key)
        else:
            tally(key, ms_sig, signature_of(*found))
    return {**counts, "mismatches": mismatches, "missing": missing}


def usage_counts(path=USAGE):
    counts = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("#") or "\t" not in line:
                continue
            n, name = line.split("\t", 1)
            if n.isdigit():
                counts[name.strip()] = int(n)
    return counts


def _spellings(full):
    owner, name = full.rsplit(".", 1)
    if owner == "mindspore":
        return [("ms", name), ("mindspore", name)]
    if owner.rsplit(".", 1)[1][:1].islower():
        return [(owner.rsplit(".", 1)[1], name)]
    return []


def corpus_counts(tree, names, provided=()):
    """How many .py files under tree/tests write each module-level name as its module's last
    part would spell it (`ops.Dense`, `nn.Cell`, `ms.seed` or `mindspore.seed`): a rough
    measure of what MindSpore's own tests call. Methods are not counted (a method name alone
    says nothing about its class), nor spellings shared with a name in `provided`."""
    taken = {form for full in provided for form in _spellings(full)}
    # a spelling that also names something cellgraph has (nn.Cell for mint.nn.Cell) is left out
    spelled = {full: [f for f in _spellings(full) if f not in taken] for full in names}
    pair = re.compile(r"\b(\w+)\.(\w+)\b")
    counts = dict.fromkeys(names, 0)
    for path in Path(tree, "tests").rglob("*.py"):
        used = set(pair.findall(path.read_text(encoding="utf-8", errors="replace")))
        for full, forms in spelled.items():
            if any(f in used for f in forms):
                counts[full] += 1
    return counts


def main_report(out, usage_path=USAGE, tree=None):
    recorded = load_recorded()
    result = compare_all(recorded)
    usage = usage_counts(usage_path)
    missing = []
    for full in result["missing"]:
        missing.append((usage.get(full, 0), full))
    missing.sort(key=lambda t: (-t[0], t[1]))
    used = [m for m in missing if m[0]]
    rest = [full for n, full in missing if not n]
    provided = set(keyed(recorded)) - set(result["missing"])
    in_tests = corpus_counts(tree, rest, provided) if tree else {}
    rest.sort(key=lambda full: (-in_tests.get(full, 0), full))
    lines = [
        "# MindSpore callables and cellgraph",
        "",
        "Generated by `tools/oracle/signatures.py --report` from the signatures of MindSpore "
        + recorded["mindspore"] + ".",
        "",
        "* cellgraph callables with a MindSpore counterpart whose signature Python can read "
        + f"(and is not only `*args, **kwargs`): {result['total']}",
        f"* taking MindSpore's parameters (names, kinds, order, defaults): {result['matched']}",
        f"* differing: {len(result['mismatches'])} (tests/data/signature_divergences.txt)",
        "* MindSpore side unreadable or only `*args, **kwargs` (overloads dispatched in C++): "
        + str(result["unreadable"]),
        f"* MindSpore callables cellgraph lacks: {len(missing)}, of which {len(used)} are used "
        + "by the real source files counted in mindspore_api_usage.tsv",
        "",
        "## Missing, most used first (files using the name)",
        ""]
    lines += [f"{n:5d}  {full}" for n, full in used]
    lines += ["", "## Missing, not seen in the counted sources"
              + (" (ordered by how many files of MindSpore's own tests use the name as an "
                 "attribute)" if tree else ""), ""]
    lines += [f"{in_tests[full]:5d}  {full}" if tree else f"       {full}" for full in rest]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{result['matched']}/{result['total']} match; {len(missing)} missing "
          f"({len(used)} used) -> {out}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, help="output file")
    ap.add_argument("--report", action="store_true",
                    help="with cellgraph's interpreter: write the match figure and missing names")
    ap.add_argument("--usage", type=Path, default=USAGE,
                    help="use counts, `files<TAB>name` per line (default: %(default)s)")
    ap.add_argument("--tree", type=Path,
                    help="a checkout of MindSpore's tests (run_corpus.py checkout): order the "
                         "names no counted source uses by their use in those tests")
    args = ap.parse_args()
    if args.report:
        main_report(args.out or Path(__file__).resolve().parent / "missing_names.md", args.usage, args.tree)
    else:
        main_record(args.out or DATA)


if __name__ == "__main__":
    main()
