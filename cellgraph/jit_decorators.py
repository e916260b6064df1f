"""`cellgraph.jit` and the other graph-mode decorators: compile a function (or a Cell's
construct) in graph mode."""
from __future__ import annotations

import functools

from cellgraph import context, log
from cellgraph.compiler.builder import current_builder
from cellgraph.compiler.compile_context import STRICT
from cellgraph.compiler.frontend import (
    KeywordOnlyCall,
    keyword_arguments,
    keyword_only_names,
    top_level_arguments,
    trace_call,
)
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.executor import GraphCache, run_cached
from cellgraph.transform import user_loc


class JitFunction:
    """A function compiled once per input signature; inlined when called inside a graph."""

    def __init__(self, fn, fullgraph: bool = False):
        if not callable(fn):  # the sentence of grad, vmap and the other transforms
            raise DTypeError(f"For 'jit', the first argument must be a 'Function' or 'Cell', "
                             f"but got {type(fn).__name__} {fn!r:.60}", user_loc())
        functools.update_wrapper(self, fn)
        self.fn = fn
        self._cache = GraphCache(graph_print=True)
        if fullgraph:  # MindSpore compiles a fullgraph jit at jit_syntax_level STRICT
            self._cache.syntax_level = STRICT

    def __call__(self, *args, **kwargs):
        if current_builder() is not None:
            return trace_call(self.fn, args, kwargs)
        fn, names = self.fn, keyword_only_names(self.fn)
        if kwargs or names:
            args = top_level_arguments(fn, getattr(fn, "__name__", type(fn).__name__), args,
                                       kwargs)
        if names:
            fn = KeywordOnlyCall(fn, names)
        return run_cached(self._cache, fn, tuple(args), context.dump_dir())

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        bound = obj.__dict__.get(f"_jit_{self.fn.__name__}")
        if bound is None:
            bound = _BoundJit(self, obj)
            obj.__dict__[f"_jit_{self.fn.__name__}"] = bound
        return bound


class _BoundJit:
    """`@jit` on a method: the instance is a compile-time constant of the graph."""

    def __init__(self, jit_fn: JitFunction, obj):
        self.jit_fn, self.obj = jit_fn, obj
        self._cache = GraphCache()
        self.__wrapped__ = jit_fn.fn

    def __call__(self, *args, **kwargs):
        fn = self.jit_fn.fn
        if current_builder() is not None:
            return trace_call(fn, (self.obj,) + args, kwargs)
        names = keyword_only_names(fn)
        if kwargs or names:  # bound as the method binds them, `self` given
            args = top_level_arguments(fn, fn.__qualname__, (self.obj,) + args, kwargs)[1:]
        return run_cached(self._cache, functools.partial(_call_method, fn, self.obj, names),
                          tuple(args), context.dump_dir(), fn.__name__)


def _call_method(fn, obj, names, *args):
    split = len(args) - len(names)
    return trace_call(fn, (obj,) + args[:split], keyword_arguments(names, args[split:]))


_JIT_CHOICES = {"capture_mode": ("ast", "bytecode", "trace"), "jit_level": ("O0", "O1"),
                "dynamic": (0, 1)}


def _check_jit_options(options: dict) -> None:
    for name, allowed in _JIT_CHOICES.items():
        value = options.get(name, allowed[0])
        if isinstance(value, bool) or value not in allowed:
            raise ArgumentValueError(f"For 'jit', the argument '{name}' must be one of "
                                     f"{list(allowed)}, but got {value!r}", user_loc())
    if not isinstance(options.get("fullgraph", False), bool):
        raise DTypeError(f"For 'jit', the argument 'fullgraph' must be a bool, but got "
                         f"{options['fullgraph']!r}", user_loc())
    if not isinstance(options.get("backend", ""), str):
        raise DTypeError(f"For 'jit', the argument 'backend' must be a str, but got "
                         f"{options['backend']!r}", user_loc())


# MindSpore 2.10 drops these options of earlier versions with a warning naming the successor
_DEPRECATED_JIT_OPTIONS = {"mode": "capture_mode", "input_signature": "dynamic", "hash_args": "",
                           "jit_config": "jit_level, fullgraph or options", "compile_once": ""}


def jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=0, fullgraph=False,
        backend="", **options):
    """Decorator: `@jit def f(x): ...` or `@jit(...)`. MindSpore 2.10's options (capture_mode,
    jit_level, dynamic, fullgraph, backend, ...) tune its own compiler: their values are
    checked as MindSpore checks them, and cellgraph compiles the same way whatever they say
    (as it does at every jit_syntax_level); `mode`, `input_signature`, `jit_config`, ... are
    dropped with MindSpore's deprecation warning."""
    _check_jit_options({"capture_mode": capture_mode, "jit_level": jit_level, "dynamic": dynamic,
                        "fullgraph": fullgraph, "backend": backend})
    for name, successor in _DEPRECATED_JIT_OPTIONS.items():
        if name in options:
            log.warning(f"For 'jit', the parameter '{name}' has been deprecated."
                        + (f" Please use the parameter '{successor}' instead." if successor
                           else ""))
            del options[name]
    if function is None:
        return lambda f: _jit_wrap(f, fullgraph)
    return _jit_wrap(function, fullgraph)


def _jit_wrap(function, fullgraph):
    """What `jit` returns for `function`: a Cell class has its `construct` compiled and is
    returned itself (MindSpore's class decorator), anything else is a JitFunction."""
    if isinstance(function, type) and getattr(function, "_cellgraph_cell", False):
        function.construct = JitFunction(function.construct, fullgraph)
        return function
    return JitFunction(function, fullgraph)


ms_function = jit


def jit_class(cls):
    """Class decorator: instances of `cls` may be built, read and called inside construct; its
    `__init__`, methods and `__call__` are parsed like construct is."""
    import inspect

    if not inspect.isclass(cls):
        raise DTypeError(f"jit_class: expected a class, got {type(cls).__name__} {cls!r:.60}")
    if getattr(cls, "_cellgraph_cell", False):
        raise DTypeError(f"jit_class: expected a plain class, got the nn.Cell subclass "
                        f"{cls.__name__}; Cells are compiled already")
    cls._cellgraph_jit_class = True
    return cls


ms_class = jit_class


class JitConfig:
    """`JitConfig(jit_level=..., exc_mode=..., jit_syntax_level=...)` for `jit(jit_config=)`
    and `Cell.set_jit_config`. The options tune MindSpore's own compiler; cellgraph keeps them
    for inspection and compiles the same way whatever they say."""

    def __init__(self, jit_level="", exc_mode="auto", jit_syntax_level="", debug_level="RELEASE",
                 infer_boost="off", **kwargs):
        from .context import SYNTAX_LEVELS, check_syntax_level

        check_syntax_level(jit_syntax_level, "JitConfig", ("", *SYNTAX_LEVELS))
        self.jit_config_dict = dict(jit_level=jit_level, exc_mode=exc_mode,
                                    jit_syntax_level=jit_syntax_level, debug_level=debug_level,
                                    infer_boost=infer_boost, **kwargs)

    def __repr__(self) -> str:
        return f"JitConfig({self.jit_config_dict})"


def lazy_inline(fn=None, attrs=None, policy=None):
    """Decorator on a Cell's `__init__` that asks MindSpore to compile repeated sub-Cells once.
    cellgraph inlines every sub-Cell and deduplicates afterwards (CSE), so the function is
    returned unchanged."""
    if fn is None:
        return lambda f: f
    return fn
