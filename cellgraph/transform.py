"""What the function transforms share (grad and GradOperation, jvp and vjp, vmap, jacrev,
jacfwd and hessian): one base class, one cache of compiled graphs, one finder of the user's line.

`Transform(fn)` is a callable. Inside a graph being built it emits its nodes there (`emit`);
called from Python it compiles a graph that does the same, once per input signature, and runs
it. The compiled graphs are kept per transformed function, held weakly: when the function (a
Cell, a user function, a bound method's object) is freed, so are its graphs.
"""
from __future__ import annotations

import contextlib
import contextvars
import inspect
import linecache
import sys
import threading
import weakref

from cellgraph.compiler.builder import current_builder
from cellgraph.compiler.effects import PYNATIVE_GRAD
from cellgraph.compiler.pipeline import graph_name
from cellgraph.compiler.pynative_indexing import INDEX_WRITES_BACK
from cellgraph.compiler.pytree import Tree, count_leaves
from cellgraph.compiler.saved_tensors import EAGER_REGIONS
from cellgraph.compiler.scope import PACKAGE_DIRS
from cellgraph.primitives.errors import (
    CellgraphError,
    DTypeError,
    GradRequestError,
    GradValueError,
    SourceLoc,
)
from cellgraph.runtime.executor import STALE, GraphCache, run_cached, run_compiled
from cellgraph.runtime.tensor import Parameter, ParameterTuple


def caller_loc() -> SourceLoc | None:
    """The first Python frame outside cellgraph: the user's line that called in."""
    frame = sys._getframe(1)
    while frame is not None and (frame.f_code.co_filename.startswith(PACKAGE_DIRS)
                                 or frame.f_code.co_filename.startswith("<")):
        frame = frame.f_back
    if frame is None:
        return None
    name, line = frame.f_code.co_filename, frame.f_lineno
    text = linecache.getline(name, line).rstrip("\n")
    return SourceLoc(name, line, len(text) - len(text.lstrip()), text)


def user_loc() -> SourceLoc | None:
    """Where the user called in: the statement being compiled inside a graph, else the first
    Python frame outside cellgraph."""
    builder = current_builder()
    if builder is not None and builder.loc is not None:
        return builder.loc
    return caller_loc()


# ----- compiled graphs per transformed function ------------------------------------------------

_BY_FUNCTION: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # owner -> {key: cache}
_LOCK = threading.Lock()


def graph_cache(fn, key: tuple, fallback) -> GraphCache:
    """The GraphCache of transform settings `key` applied to `fn`. Held by `fn` weakly (a
    bound method's by its object, which outlives the method); a function that cannot be
    referenced weakly keeps its graphs on `fallback` (the transform object) instead."""
    owner = fn
    if inspect.ismethod(fn):
        owner, key = fn.__self__, (fn.__func__,) + key
    try:
        per_owner = _BY_FUNCTION.get(owner)
        if per_owner is None:
            with _LOCK:
                per_owner = _BY_FUNCTION.setdefault(owner, {})
    except TypeError:  # not weakly referenceable or not hashable
        per_owner = fallback.__dict__.setdefault("_graph_caches", {})
    cache = per_owner.get(key)
    if cache is None:
        with _LOCK:
            cache = per_owner.setdefault(key, GraphCache())
    return cache


def _is_jit(fn) -> bool:
    """Whether `fn` is compiled as a graph wherever it runs: a `jit` function, or a Cell whose
    construct is one (`@jit` on the class or on construct, `net.construct = jit(net.construct)`),
    which MindSpore runs as a graph, with graph mode's autograd, in PyNative mode too."""
    from cellgraph.jit_decorators import JitFunction, _BoundJit

    while isinstance(fn, Transform):  # grad of grad of ...
        fn = fn.fn
    if getattr(type(fn), "_cellgraph_cell", False):
        fn = getattr(fn, "construct", None)
    return isinstance(fn, (JitFunction, _BoundJit))


def _context():
    from cellgraph import context  # the API layer's settings, loaded by the time a call is made

    return context


# ----- the base class --------------------------------------------------------------------------

# The transform compiling for a call from Python, that call's line and the hooks regions on
# saved tensors open around it: errors in its arguments have no graph statement to point at,
# so they point there. Per thread (a context variable).
_PYTHON_CALL: contextvars.ContextVar = contextvars.ContextVar("python_call", default=None)


class Transform:
    """A function transform of `fn`. Subclasses define `emit(*args)` (the nodes, inside the
    current builder), `cache_key()` (their settings, hashable, without `fn`) and, optionally,
    `check_call(args)` (argument errors raised before anything compiles)."""

    api = "transform"
    records_gradient = False  # a reverse-mode gradient (PyNative's autograd records it)

    def __init__(self, fn, api: str | None = None):
        if api is not None:
            self.api = api
        if not callable(fn):
            raise DTypeError(f"For '{self.api}', the first argument must be a 'Function' or "
                             f"'Cell', but got {type(fn).__name__} {fn!r:.60}", user_loc())
        self.fn = fn
        self.__name__ = f"{self.api}_{graph_name(fn)}"
        self.__wrapped__ = fn  # for parameter names and locations in the IR

    def cache_key(self) -> tuple:
        return ()

    def check_call(self, args: tuple) -> None:
        """Raise the errors of a call with `args` that need no graph."""

    def emit(self, *args):
        raise NotImplementedError

    def __call__(self, *args):
        builder = current_builder()
        if builder is not None:
            current = _PYTHON_CALL.get()
            regions = current[2] if current is not None and self.top_level() else ()
            if not regions:
                return self.emit(*args)
            with contextlib.ExitStack() as stack:  # saved tensors' hooks opened in Python
                for hooks in regions:
                    stack.enter_context(builder.saved_tensor_hooks(hooks))
                return self.emit(*args)
        # a graph reads hooked inputs through the hooks there are now (none while tensor_hooks,
        # which registers them and sits above this module, is not loaded)
        hooks = sys.modules.get("cellgraph.tensor_hooks")
        key = hooks.hooks_key(args) if hooks is not None else ()
        regions = self._saved_tensor_regions()
        if regions:
            key += ("saved_tensors",) + tuple(h.key for h in regions)
        # hooks compile as MindSpore's mode has them (PyNative's run in Python, graph mode's in
        # the graph): a graph is kept per mode
        key += (_context().is_graph_mode(),)
        cache = graph_cache(self.fn, (type(self),) + self.cache_key() + key, self)
        out = run_compiled(cache, args)  # compiled for these Tensors: nothing to check
        if out is not STALE:
            return out
        loc = caller_loc()
        token = _PYTHON_CALL.set((self, loc, regions))
        # PyNative's element writes through indexed Tensors hold in what it traces
        pynative = not key[-1] and not _is_jit(self.fn)
        indexing = INDEX_WRITES_BACK.set(pynative)
        # and its autograd forbids in-place operations on the gradient's leaves
        grad_leaves = PYNATIVE_GRAD.set(pynative and self.records_gradient)
        try:
            self.check_call(args)
            return run_cached(cache, self, args, _context().dump_dir(), self.__name__)
        except CellgraphError as e:
            raise e.with_loc(loc) from None
        finally:
            INDEX_WRITES_BACK.reset(indexing)
            PYNATIVE_GRAD.reset(grad_leaves)
            _PYTHON_CALL.reset(token)

    @staticmethod
    def _saved_tensor_regions() -> tuple:
        """The hooks regions on saved tensors open in Python around this call (PyNative mode
        only: MindSpore's graph mode does not see them)."""
        if not EAGER_REGIONS.hooks:
            return ()
        return () if _context().is_graph_mode() else tuple(EAGER_REGIONS.hooks)

    def python_call_loc(self) -> SourceLoc | None:
        """The user's line while this transform compiles for a call from Python, else None."""
        current = _PYTHON_CALL.get()
        return current[1] if current is not None and current[0] is self else None

    def top_level(self) -> bool:
        """True while emitting into the graph compiled for a call from Python (not nested)."""
        builder = current_builder()
        return self.python_call_loc() is not None and (builder is None or builder.outer is None)

    def loc(self) -> SourceLoc | None:
        """Where an error in this transform's use points: the Python call that compiles it, or
        the graph statement that uses it."""
        return self.python_call_loc() or user_loc()

    def error(self, cls, message: str) -> CellgraphError:
        """`cls` with "api: message", at the Python call that compiles this transform or the
        graph statement that uses it."""
        builder = current_builder()
        loc = self.python_call_loc() or (builder.loc if builder is not None else None)
        return cls(f"{self.api}: {message}", loc)


# ----- arguments the gradient transforms share -------------------------------------------------

def normalize_weights(weights, api: str) -> tuple | None:
    """None, or the Parameters as a tuple (from a Parameter, a list, a tuple, a ParameterTuple
    or net.trainable_params())."""
    if weights is None:
        return None
    if isinstance(weights, Parameter):
        return (weights,)
    if isinstance(weights, (list, tuple, ParameterTuple)):
        for i, w in enumerate(weights):
            if not isinstance(w, Parameter):
                raise DTypeError(f"{api}: `weights` must hold Parameters, got "
                                 f"{type(w).__name__} {w!r:.60} at index {i}", user_loc())
        return tuple(weights)
    raise DTypeError(f"{api}: `weights` must be a Parameter, a list or tuple of Parameters or "
                     f"a ParameterTuple, got {type(weights).__name__} {weights!r:.60}",
                     user_loc())


def normalize_positions(grad_position, api: str):
    """None, or the positions as a tuple of distinct non-negative ints."""
    if grad_position is None:
        return None
    if isinstance(grad_position, bool) or not isinstance(grad_position, (int, tuple, list)):
        raise DTypeError(f"{api}: `grad_position` must be an int, a tuple of ints or None, got "
                         f"{type(grad_position).__name__} {grad_position!r}", user_loc())
    positions = (grad_position,) if isinstance(grad_position, int) else tuple(grad_position)
    if not positions:
        raise GradRequestError(f"{api}: `grad_position` should not be empty when grad by "
                               f"position; expected at least one position, got "
                               f"{grad_position!r}", user_loc())
    for p in positions:
        if isinstance(p, bool) or not isinstance(p, int):
            raise DTypeError(f"{api}: `grad_position` entries must be ints, got "
                             f"{type(p).__name__} {p!r} in {grad_position!r}", user_loc())
        if p < 0:
            raise GradValueError(f"{api}: `grad_position` entries must be >= 0, got {p} in "
                                 f"{grad_position!r}", user_loc())
    if len(set(positions)) != len(positions):
        raise GradValueError(f"{api}: `grad_position` {grad_position!r} repeats a position",
                             user_loc())
    return positions


def leaf_ranges(in_tree: Tree) -> list[tuple[int, int]]:
    """For each argument of a call, the range of its Tensor leaves in the flat inputs."""
    ranges, start = [], 0
    for child in in_tree.children:
        n = count_leaves(child) if child.kind != "static" else 0
        ranges.append((start, start + n))
        start += n
    return ranges
