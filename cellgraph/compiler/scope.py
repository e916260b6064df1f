"""Names, closures and calls for the front end: scopes, closures made inside construct,
Python's argument binding with MindSpore-style messages, which functions are parsed and which
are called."""
from __future__ import annotations

import builtins
import contextlib
import inspect
import linecache
import os
import re
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from cellgraph.primitives.errors import (
    ArgumentError,
    AttributeLookupError,
    CellgraphError,
    CompileError,
    DTypeError,
    IndexValueError,
    KeywordArgumentError,
    ShapeError,
)

from .builder import HostArray, Tracer, compile_context, note_outside
from .guards import record_global
from .source import SourceInfo


# Control leaving a block early, raised by the front end's visitors and caught where the
# statement it leaves is interpreted.
class ReturnSignal(Exception):
    def __init__(self, value, loc=None):
        self.value = value
        self.loc = loc  # the `return` statement (a join failure names it)


class BreakSignal(Exception):
    pass


class ContinueSignal(Exception):
    pass


@dataclass(eq=False)
class Closure:
    """A function defined inside construct (def or lambda), closing over its defining scope."""

    node: object
    scope: Scope
    info: SourceInfo
    defaults: list
    kw_defaults: dict
    name: str
    interpret: Callable  # (closure, args, kwargs) -> result: the front end's call

    def __call__(self, *args, **kwargs):
        return self.interpret(self, args, kwargs)


_ABSENT = object()  # no such name (a global may hold None)


@dataclass(eq=False)
class Scope:
    """Local names, falling back to the enclosing scope, then globals and builtins."""

    vars: dict
    parent: Scope | None = None
    globals: dict = field(default_factory=dict)

    def lookup(self, name: str):
        value = self._from(self, name, _ABSENT)
        if value is not _ABSENT:
            return value
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise KeyError(name)

    def outer_value(self, name: str, missing=None):
        """The value `name` has outside this function's own locals (an enclosing function's
        local, or a global), else `missing`: what a local name assigned only inside a loop or
        one branch holds on the paths that do not assign it, as in MindSpore's parser."""
        return self._from(self.parent, name, missing)

    def _from(self, scope, name: str, missing):
        """`name` in `scope` or the scopes enclosing it, else a global, else `missing`."""
        while scope is not None:
            if name in scope.vars:
                return scope.vars[name]
            scope = scope.parent
        record_global(self.globals, name)  # present, or absent (a builtin) until assigned
        value = self.globals.get(name, missing)
        note_outside(value)
        return value


# ----- what gets interpreted -------------------------------------------------------------------

_LIBRARY_ROOTS = {"cellgraph", "numpy", "gast", "astunparse", "builtins"}


def is_cell(obj) -> bool:
    return getattr(type(obj), "_cellgraph_cell", False)


def is_jit_class(obj) -> bool:
    """A user class decorated with `jit_class`: instances are built and used inside graphs."""
    return inspect.isclass(obj) and getattr(obj, "_cellgraph_jit_class", False)


def mark_compile_time_object(obj) -> None:
    """`obj` was made while this compile parses its graph (a jit_class instance built in
    construct): its attributes may be assigned, since nothing outside the compile can see it.
    The compile context holds it (weakly)."""
    with contextlib.suppress(TypeError):  # a class with __slots__ and no __weakref__
        compile_context().compile_time_objects.add(obj)


def user_property_getter(obj, attr: str):
    """The getter of a property `obj.attr` reads, when the user wrote it (parsed like a method,
    so the reads it makes are guarded and the Tensors it computes are graph values); else
    None."""
    if isinstance(obj, type):
        return None
    for cls in type(obj).__mro__:
        if attr in cls.__dict__:
            found = cls.__dict__[attr]
            return found.fget if isinstance(found, property) and is_user_function(
                found.fget) else None
    return None


def is_compile_time_object(obj) -> bool:
    try:
        return obj in compile_context().compile_time_objects
    except TypeError:  # unhashable or not weakly referable: not one of ours
        return False


def _is_user_module(name: str | None) -> bool:
    root = (name or "").split(".")[0]
    return bool(root) and root not in _LIBRARY_ROOTS and root not in sys.stdlib_module_names


def is_guarded_owner(obj) -> bool:
    """Objects whose attributes are guarded when a graph reads them: Cells, and user-defined
    classes, their instances and user modules. Library objects are taken as fixed."""
    if is_cell(obj):
        return True
    if isinstance(obj, types.ModuleType):
        return _is_user_module(obj.__name__)
    return _is_user_module((obj if isinstance(obj, type) else type(obj)).__module__)


def is_user_function(fn) -> bool:
    """Python functions written by the user are parsed; library functions are called. Code
    from a `<...>` name (an IPython cell, the REPL, a doctest) is the user's when its source
    is registered with linecache, as those register it."""
    if not inspect.isfunction(fn) or _is_library_module(fn.__module__):
        return False
    filename = fn.__code__.co_filename
    if filename.startswith("<"):
        return filename in linecache.cache
    return "site-packages" not in filename


def is_unparsed_user_function(fn) -> bool:
    """A user's function whose source cannot be parsed (made by `exec` of a string): it runs
    as Python, and the globals its code names are guarded instead."""
    return inspect.isfunction(fn) and not _is_library_module(fn.__module__) and \
        fn.__code__.co_filename.startswith("<") and fn.__code__.co_filename not in linecache.cache


def written_by_user(fn) -> bool:
    """A Python function of the user's, parsed or not."""
    return inspect.isfunction(fn) and not _is_library_module(fn.__module__)


def _is_library_module(name: str | None) -> bool:
    root = (name or "").split(".")[0]
    return root in _LIBRARY_ROOTS or root in sys.stdlib_module_names


def tracer_isinstance(classinfo, value=None) -> bool:
    """`isinstance(x, Tensor)` holds for a graph value that stands for a Tensor;
    `isinstance(x, np.ndarray)` for one that stands for `t.asnumpy()` (a HostArray)."""
    classes = classinfo if isinstance(classinfo, tuple) else (classinfo,)
    if isinstance(value, HostArray):
        return any(issubclass(np.ndarray, c) if isinstance(c, type) else False
                   for c in classes)
    return any(getattr(c, "_is_tensor_class", False) or c is Tracer for c in classes)


def tracer_type(value) -> type:
    """`type(x)` of a graph value: the Tensor class (numpy.ndarray for a HostArray), as
    MindSpore's graph mode gives it, not the tracing class."""
    if isinstance(value, HostArray):
        return np.ndarray
    from cellgraph.runtime.tensor import Tensor  # the runtime sits beside the compiler

    return Tensor


def tracer_number(kind, x):
    """`int(x)`/`float(x)` of a one-element graph value: MindSpore's graph mode makes a scalar
    known only at run time; here a 0-d graph value (int64 or float32, MindSpore's scalar
    dtypes) that operations taking a number take as well."""
    from cellgraph.primitives import dtype as dt
    from cellgraph.primitives import functional as F

    shape = x.aval.shape
    if shape not in ((), (1,)):
        raise ValueError(f"{kind.__name__}(): only one element tensors can be converted to Python "
                         f"scalars, got a Tensor of shape {shape}")
    return F.cast(F.reshape(x, ()), dt.int64 if kind is int else dt.float32)


def array_number(kind, array):
    """`int(a)`/`float(a)` of a NumPy array in a graph as MindSpore's graphs compute it, by
    NumPy 1's rule whatever NumPy is installed: an array of one element, of any shape, gives
    that element (NumPy 2 takes 0-d arrays only)."""
    if array.size != 1:
        raise TypeError("only length-1 arrays can be converted to Python scalars")
    return kind(array.reshape(()))


def unexpected_keyword(parameters, kwargs) -> str | None:
    """A keyword in `kwargs` that no parameter takes, or None. Python's binding reports such a
    keyword (a misspelt one, most often) only after the parameter it left missing, which
    points the user at the wrong argument: callers check this first."""
    kinds = [p.kind for p in parameters]
    if inspect.Parameter.VAR_KEYWORD in kinds:
        return None
    names = {p.name for p in parameters if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                      inspect.Parameter.KEYWORD_ONLY)}
    return next((key for key in kwargs if key not in names), None)


def bind_arguments(args_node, name, args, kwargs, defaults, kw_defaults) -> dict:
    """Python's argument binding for a parsed def/lambda, with MindSpore-style messages."""
    params = [inspect.Parameter(a.id, inspect.Parameter.POSITIONAL_ONLY)
              for a in args_node.posonlyargs]
    params += [inspect.Parameter(a.id, inspect.Parameter.POSITIONAL_OR_KEYWORD)
               for a in args_node.args]
    if defaults:
        for i, d in enumerate(defaults, len(params) - len(defaults)):
            params[i] = params[i].replace(default=d)
    if args_node.vararg is not None:
        params.append(inspect.Parameter(args_node.vararg.id, inspect.Parameter.VAR_POSITIONAL))
    for a in args_node.kwonlyargs:
        params.append(inspect.Parameter(a.id, inspect.Parameter.KEYWORD_ONLY,
                                        default=kw_defaults.get(a.id, inspect.Parameter.empty)))
    if args_node.kwarg is not None:
        params.append(inspect.Parameter(args_node.kwarg.id, inspect.Parameter.VAR_KEYWORD))
    unexpected = unexpected_keyword(params, kwargs)
    try:
        if unexpected is not None:
            raise TypeError(f"got an unexpected keyword argument {unexpected!r}")
        bound = inspect.Signature(params).bind(*args, **kwargs)
    except TypeError as e:
        shown = name.split("<locals>.")[-1]
        positional = [p for p in params if p.kind <= inspect.Parameter.POSITIONAL_OR_KEYWORD]
        given = len(args)
        if positional and positional[0].name == "self":  # a method: self is not the user's
            positional, given = positional[1:], given - 1
        names = ", ".join(p.name if p.default is p.empty else f"{p.name}={p.default!r:.20}"
                          for p in positional)
        if shown.endswith(".construct") and given > len(positional) and \
                all(p.name != "self" for p in params):
            # MindSpore's reading: a Cell's construct that forgot its `self`
            raise ArgumentError(f"For 'Cell', the method 'construct' must have parameter "
                                f"'self': {shown}() takes ({names}), got {given} arguments "
                                f"with the Cell itself") from None
        if unexpected is not None:  # MindSpore's words and error type for it in a graph
            raise KeywordArgumentError(
                f"{shown}(): Got an unexpected keyword argument {unexpected!r}; expected "
                f"{len(positional)} positional argument{'' if len(positional) == 1 else 's'} "
                f"({names}), got {given}") from None
        raise ArgumentError(f"{shown}() {e}; expected {len(positional)} positional argument"
                            f"{'' if len(positional) == 1 else 's'} ({names}), got {given}"
                            ) from None
    bound.apply_defaults()
    return dict(bound.arguments)


def parameter_list(params) -> str:
    """`x, y=1, *args, z` as a def spells them (without `self`)."""
    shown, star = [], "*"
    for p in params:
        if p.name == "self" and not shown:
            continue
        if p.kind == p.KEYWORD_ONLY and star:
            shown.append(star)
        if p.kind in (p.VAR_POSITIONAL, p.KEYWORD_ONLY):
            star = ""
        prefix = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "")
        default = "" if p.default is p.empty else f"={p.default!r:.20}"
        shown.append(f"{prefix}{p.name}{default}")
    return ", ".join(shown)


# The package's folders (installed under cellgraph/ by the package-dir mapping), to tell the
# package's own frames from the user's.
_COMPILER_DIR = os.path.dirname(os.path.abspath(__file__))
PACKAGE_DIRS = (os.path.dirname(_COMPILER_DIR) + os.sep,)  # the cellgraph package's folder
# Where the front end evaluates the user's own operations (indexing, arithmetic on values).
_EVALUATORS = tuple(os.path.join(_COMPILER_DIR, f) for f in ("frontend.py", "scope.py"))


def raised_inside_package(e: BaseException) -> str | None:
    """`file:line` of the package frame that raised `e` (its innermost frame), else None."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return None
    filename = tb.tb_frame.f_code.co_filename
    if filename.startswith(PACKAGE_DIRS) and not filename.startswith(_EVALUATORS) and \
            not _is_argument_check(e, filename, tb.tb_lineno):
        root = os.path.dirname(PACKAGE_DIRS[0].rstrip(os.sep))
        return f"{os.path.relpath(filename, root)}:{tb.tb_lineno}"
    return None


def _is_argument_check(e: BaseException, filename: str, lineno: int) -> bool:
    """Whether `e` is a check of the API layer on its arguments (`raise ValueError(...)` in
    ops/function, nn, numpy, ...): the user's mistake, not a fault of the compiler's. One
    raised implicitly (a failed lookup, a bad operand of Python's) or from the compiler's own
    folder stays a fault of cellgraph's."""
    if filename.startswith(_COMPILER_DIR + os.sep) or \
            type(e) not in (TypeError, ValueError, IndexError):
        return False
    return linecache.getline(filename, lineno).lstrip().startswith("raise ")


def _binding_error(e: Exception) -> bool:
    """Python's own refusal of a call's arguments (an unknown keyword, a missing argument),
    raised before the callee ran: MindSpore's graph compiler raises RuntimeError for these."""
    return type(e) is TypeError and raised_inside_package(e) is None and bool(
        re.search(r"got an unexpected keyword argument|missing \d+ required", str(e)))


def user_error(e: Exception, loc) -> CellgraphError:
    """The error for a Python exception while compiling the statement at `loc`. One raised by
    the package's own code is a fault of cellgraph's (or a check it lacks), and says so."""
    where = raised_inside_package(e)
    if where is not None:
        return CompileError(f"internal error in cellgraph while compiling this statement: "
                            f"{type(e).__name__}: {e} (raised at {where}); please report it",
                            loc)
    if isinstance(e, AttributeError):  # MindSpore raises AttributeError, with Python's words
        return AttributeLookupError(str(e), loc)
    if _binding_error(e):
        return KeywordArgumentError(f"{type(e).__name__}: {e}", loc)
    cls = ShapeError
    if isinstance(e, IndexError):  # MindSpore raises Python's IndexError (a list's pop, ...)
        cls = IndexValueError
    elif isinstance(e, TypeError):
        cls = DTypeError if "Tensor" in str(e) else ArgumentError
    return cls(f"{type(e).__name__}: {e}", loc)
