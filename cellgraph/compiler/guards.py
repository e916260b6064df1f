"""Guards: what a compiled graph read at compile time, checked before the graph is reused.

The front end evaluates Python values while it parses, so a graph is only valid while those
values are the same objects. Every read that a later change could make stale is recorded here,
per thread (`STATE`), while a compile runs:

* an attribute of a Cell (user or library, at any depth of the Cell tree: a library Cell's
  whole `__dict__` is recorded when it is called, since its Python code reads what it likes),
  of an instance of a user-defined class, of a user class or of a user module. An attribute
  that a class computes (a property the front end cannot parse, another descriptor, or
  `__getattr__`) is read again when the guard is checked and compared with what it gave;
* a global name a parsed function reads (on its globals dict, whichever module owns it, or
  none: code run by `exec` or typed into IPython), and every global name that a user function
  run as Python (not parsed) names in its code;
* the closure cells of a parsed function and its default arguments.

A guard holds its object weakly (the cache never keeps a Cell alive) and the value it read
strongly; it is stale when the object is gone or the read would now give another object.
Python numbers, strings and tuples read this way are compared by identity too: an equal value
that is a new object only costs a recompile.
"""
from __future__ import annotations

import contextlib
import re
import threading
import types
import weakref
from dataclasses import dataclass

MISSING = object()


@dataclass(frozen=True)
class Guard:
    """One read: `stale` is a Python expression over `o` (the object, dereferenced from
    `ref`), `d` (its `__dict__`) and `{0}`, `{1}`... (the objects in `values`) that is true,
    or raises LookupError, when the read changed. `stale` is always one of this module's own
    templates: a user's string (an attribute or keyword name) is one of the `values`, bound
    as a value, never part of the source. `ref` is a weak reference, or a `_Held` for a
    globals dict (which cannot be referenced weakly). A guard that `reads` runs the class's
    code again (a property, `__getattr__`): its exceptions are the user's, not a miss."""

    ref: weakref.ref | _Held
    stale: str
    values: tuple
    reads: bool = False


class CompileState(threading.local):
    """One thread's compilation: the guard lists being filled (one per compile in progress,
    innermost last) and how deep user calls are inlined. Per thread, so that threads compiling
    at once never see each other's reads."""

    def __init__(self):
        self.guards: list[list[Guard]] = []
        self.holders: dict[int, _Held] = {}  # id(globals dict) -> its holder, this compile
        self.inline_depth = 0


STATE = CompileState()


@contextlib.contextmanager
def collect_guards():
    """Context: the guards recorded while it is open are appended to the list it yields."""
    STATE.guards.append([])
    try:
        yield STATE.guards[-1]
    finally:
        STATE.guards.pop()
        if not STATE.guards:
            STATE.holders.clear()


def _add(obj, stale: str, values: tuple, reads: bool = False) -> None:
    guards = STATE.guards
    if not guards:
        return
    try:
        ref = weakref.ref(obj)
    except TypeError:
        return  # an object that cannot be referenced weakly is never guarded (builtins)
    guards[-1].append(Guard(ref, stale, values, reads))


class _Held:
    """A strong reference with weakref's interface, for a guarded object that cannot be
    referenced weakly (a globals dict that no module owns); held no longer than the graph."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __call__(self):
        return self.obj


# Descriptors whose value is fixed by the class: a function (a method), staticmethod,
# classmethod. Any other `__get__` computes its value when read.
_PLAIN_DESCRIPTORS = (types.FunctionType, staticmethod, classmethod)


def record_guard(obj, attr: str, value=MISSING, reread: bool = True) -> None:
    """The graph read `obj.attr` (and got `value`). Found in the object's own `__dict__`: it
    must still be the same object there. Found on a class (a method, a class constant): it
    must still be absent from the instance and the classes before the one that defines it,
    and the same there. Computed when read (a property, another descriptor, `__getattr__`):
    with `reread`, reading it again must also give the same value (the front end passes False
    for a property whose getter it parsed, and so guarded read by read)."""
    if not STATE.guards:
        return
    own = getattr(obj, "__dict__", None)
    if own is None:
        return
    if isinstance(obj, type):
        if attr in own:  # a class attribute inherited from a base class is not guarded
            _add(obj, "d[{0}] is not {1}", (attr, own[attr]))
        return
    found = _class_attribute(type(obj), attr)
    data_descriptor = found is not MISSING and hasattr(type(found), "__set__")
    if attr in own and not data_descriptor:
        _add(obj, "d[{0}] is not {1}", (attr, own[attr]))
        return
    # a data descriptor (a property) wins over the instance's dict, so that is not tested
    tests, values = ([] if data_descriptor else ["{0} in d"]), [attr]
    for cls in type(obj).__mro__:
        values.append(cls.__dict__)
        if attr in cls.__dict__:
            tests.append(f"{{{len(values) - 1}}}[{{0}}] is not {{{len(values)}}}")
            values.append(cls.__dict__[attr])
            break
        tests.append(f"{{0}} in {{{len(values) - 1}}}")
    _add(obj, " or ".join(tests), tuple(values))
    computed = found is MISSING or (hasattr(type(found), "__get__")
                                    and not isinstance(found, _PLAIN_DESCRIPTORS))
    if computed and reread:
        read = getattr(obj, attr, MISSING) if value is MISSING else value
        _add(obj, "changed(getattr(o, {0}, MISSING), {1})", (attr, read), reads=True)


def _class_attribute(cls: type, attr: str):
    for klass in cls.__mro__:
        if attr in klass.__dict__:
            return klass.__dict__[attr]
    return MISSING


def changed(new, old) -> bool:
    """Whether a value computed again differs from the one a graph was compiled with: the same
    object, an equal number or string, or a tuple, list or dict of unchanged items is unchanged
    (a property or `__getattr__` may build a new one on each read)."""
    if new is old:
        return False
    if type(new) is not type(old):
        return True
    if type(old) is float:
        return new.hex() != old.hex()  # -0.0 is not 0.0 to a graph; nan is nan
    if type(old) in (int, bool, str, bytes, complex):
        return new != old
    if isinstance(old, (tuple, list)):  # built at each read, of the same items
        return len(new) != len(old) or any(changed(a, b) for a, b in zip(new, old))
    if isinstance(old, dict):
        return new.keys() != old.keys() or any(changed(new[k], v) for k, v in old.items())
    return True


def record_all_attributes(obj, skip=()) -> None:
    """The graph may read any attribute in `obj.__dict__` (a library Cell's Python code)."""
    if STATE.guards:
        for attr in list(obj.__dict__):
            if attr not in skip:
                record_guard(obj, attr)


def record_global(globals_dict: dict, name: str) -> None:
    """A parsed function read the global `name` (or found it missing, and took a builtin): it
    must still be the same object in that globals dict. The dict is guarded itself, so that
    globals no module owns (code run by `exec`, an IPython session) are guarded too."""
    if not STATE.guards:
        return
    value = globals_dict.get(name, MISSING)
    if value is MISSING:  # a builtin, or not defined yet: it must stay undefined
        guard = Guard(_held(globals_dict), "{0} in o", (name,))
    else:
        guard = Guard(_held(globals_dict), "o[{0}] is not {1}", (name, value))
    STATE.guards[-1].append(guard)


def _held(globals_dict: dict) -> _Held:
    """One holder per globals dict per compile, so that its guards share one dereference."""
    holders = STATE.holders
    holder = holders.get(id(globals_dict))
    if holder is None or holder.obj is not globals_dict:
        holder = holders[id(globals_dict)] = _Held(globals_dict)
    return holder


def record_code_globals(fn, follow) -> None:
    """A user function run as Python (its source is not available to parse: `exec`): every
    global name its code, or code nested in it, names is guarded as if it had been read, and
    so are those of the functions it names for which `follow(function)` holds (the user's,
    which Python runs from it without the front end seeing their reads)."""
    if not STATE.guards:
        return
    pending, seen = [fn], set()
    while pending:
        fn = pending.pop()
        if not isinstance(fn, types.FunctionType) or id(fn) in seen:
            continue
        seen.add(id(fn))
        record_function(fn)
        globals_dict, codes = fn.__globals__, [fn.__code__]
        while codes:
            code = codes.pop()
            for name in code.co_names:
                record_global(globals_dict, name)
                value = globals_dict.get(name)
                if isinstance(value, types.FunctionType) and follow(value):
                    pending.append(value)
            codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]


def record_function(fn) -> None:
    """A parsed function's closure cells and default arguments."""
    if not STATE.guards:
        return
    for i, cell in enumerate(fn.__closure__ or ()):
        try:
            value = cell.cell_contents
        except ValueError:
            continue  # not yet assigned: reading it fails at compile time anyway
        # an emptied cell raises ValueError, which the check takes as stale
        _add(fn, f"o.__closure__[{i}].cell_contents is not {{0}}", (value,))
    if fn.__defaults__:
        _add(fn, "o.__defaults__ is not {0}", (fn.__defaults__,))
    for name, value in (fn.__kwdefaults__ or {}).items():
        # __kwdefaults__ set to None raises TypeError: stale too
        _add(fn, "o.__kwdefaults__[{0}] is not {1}", (name, value))


def unique(guards: list[Guard]) -> list[Guard]:
    """Each read once (the same attribute is often read many times while parsing)."""
    seen, out = set(), []
    for g in guards:
        key = (id(g.ref()), g.stale, tuple(v if type(v) is str else id(v) for v in g.values))
        if key not in seen:
            seen.add(key)
            out.append(g)
    return out


# What a template raises when its read changed: a key gone from a dict (KeyError), a closure
# cell emptied (ValueError), keyword defaults removed (TypeError on None)
MISSES = (LookupError, ValueError, TypeError)
_USES_DICT = re.compile(r"\bd\b")


def guard_source(guards: list[Guard], env: dict, indent: str = "") -> list[str]:
    """Source that returns True (the STALE marker of the caller) when a guard fails: per
    object, one dereference, one fetch of its `__dict__` and one condition of plain dict
    reads (a read that misses is stale), then the rereads of computed attributes. The
    objects and names it uses are put in `env`, as values."""
    env.setdefault("MISSING", MISSING)
    env.setdefault("changed", changed)
    env.setdefault("MISSES", MISSES)
    by_object: dict[int, tuple] = {}
    for g in guards:
        by_object.setdefault(id(g.ref), (g.ref, []))[1].append(g)
    lines = []
    for k, (ref, group) in enumerate(by_object.values()):
        env[f"guard_{k}"] = ref
        plain, reads = [], []
        for j, g in enumerate(group):
            names = []
            for m, value in enumerate(g.values):
                env[f"value_{k}_{j}_{m}"] = value
                names.append(f"value_{k}_{j}_{m}")
            (reads if g.reads else plain).append("(" + g.stale.format(*names) + ")")
        lines += [f"{indent}o = guard_{k}()", f"{indent}if o is None:",
                  f"{indent}    return STALE"]
        if plain:
            lines.append(f"{indent}try:")
            if any(_USES_DICT.search(g.stale) for g in group if not g.reads):
                lines.append(f"{indent}    d = o.__dict__")
            lines += [f"{indent}    if {' or '.join(plain)}:", f"{indent}        return STALE",
                      f"{indent}except MISSES:", f"{indent}    return STALE"]
        if reads:
            lines += [f"{indent}if {' or '.join(reads)}:", f"{indent}    return STALE"]
    return lines


def stale_checker(guards: list[Guard]):
    """A function () -> bool: True when some guard no longer holds."""
    env = {"STALE": True}
    body = guard_source(guards, env, "    ")
    source = "def stale():\n" + "".join(line + "\n" for line in body) + "    return False\n"
    exec(compile(source, "<cellgraph:guards>", "exec"), env)  # noqa: S102 - generated above
    return env["stale"]
