"""`mindspore.ops.composite` (imported as `C`): higher-order functions over graph values.

`HyperMap`, `Map`, `MultitypeFuncGraph` and `Partial` are ordinary Python run by the front end's
partial evaluator: inside construct they execute at compile time over graph values, and every
user function they apply is parsed and inlined like a direct call (so a Tensor `if` inside it
still becomes a branch); outside a graph they simply call it.

    add = C.MultitypeFuncGraph("add")

    @add.register("Tensor", "Tensor")
    def _add_tensors(x, y): return x + y

    C.HyperMap()(add, (x1, (x2, x3)), (y1, (y2, y3)))  # -> (x1 + y1, (x2 + y2, x3 + y3))
"""
from __future__ import annotations

import numbers

from cellgraph._check_jit_forbidden_api import jit_forbidden_instances
from cellgraph._lazy import lazy_names as _lazy_names
from cellgraph.autograd import GradOperation, grad, value_and_grad
from cellgraph.compiler.builder import Tracer, current_builder
from cellgraph.compiler.frontend import trace_call
from cellgraph.forward import jvp, vjp
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.dtype import DType, TensorType, _ObjectType
from cellgraph.primitives.errors import ArgumentError, DTypeError
from cellgraph.primitives.functional import ones_like, zeros_like
from cellgraph.primitives.nn_functional import clip_by_value
from cellgraph.vectorize import vmap

from .multitype_ops.add_impl import add_backward as _add_backward
from .multitype_ops.augassign_impl import (
    augassign_add,
    augassign_div,
    augassign_floordiv,
    augassign_mod,
    augassign_mul,
    augassign_sub,
)

__all__ = [
    "GradOperation",
    "HyperMap",
    "Map",
    "MultitypeFuncGraph",
    "Partial",
    "add_flags",
    "augassign_add",
    "augassign_div",
    "augassign_floordiv",
    "augassign_mod",
    "augassign_mul",
    "augassign_sub",
    "batch_dot",
    "clip_by_global_norm",
    "clip_by_value",
    "count_nonzero",
    "cummin",
    "dot",
    "gamma",
    "grad",
    "hyper_add",
    "jvp",
    "laplace",
    "mm",
    "multinomial",
    "normal",
    "ones_like",
    "partial",
    "poisson",
    "repeat_elements",
    "repeat_interleave",
    "sequence_mask",
    "tail",
    "tensor_dot",
    "uniform",
    "value_and_grad",
    "vecdot",
    "vjp",
    "vmap",
    "zeros_like",
    "zip_operation",
]


# MindSpore's composite has some of ops.function's functions too (model-zoo code calls
# C.tensor_dot); ops.function reaches this module, so they load on first use
_RANDOM = "cellgraph.ops.function.random_func"
_LINALG = "cellgraph.ops.function.math_func.linalg"
_SHAPE = "cellgraph.ops.function.array_func.shape"
__getattr__, __dir__ = _lazy_names(globals(), {
    **{name: (_RANDOM, name) for name in ("gamma", "laplace", "multinomial", "normal",
                                           "poisson", "uniform")},
    **{name: (_LINALG, name) for name in ("batch_dot", "dot", "tensor_dot")},
    **{name: (_SHAPE, name) for name in ("repeat_elements", "repeat_interleave")},
    "count_nonzero": ("cellgraph.ops.function.math_func.reduction", "count_nonzero"),
    "cummin": ("cellgraph.primitives.sort_ops", "cummin_"),
    "mm": ("cellgraph.primitives.functional", "mm"),
    "sequence_mask": ("cellgraph.ops.function.array_func.stacking", "sequence_mask"),
    "vecdot": ("cellgraph.ops.function.math_func.statistics", "vecdot")})


def apply(fn, *args, **kwargs):
    """Call `fn` as graph code would: parsed and inlined while a graph is being built."""
    if current_builder() is not None:
        return trace_call(fn, args, kwargs)
    return fn(*args, **kwargs)


# ----- MultitypeFuncGraph: overloads chosen by the argument types ------------------------------

def _is_tensor(value) -> bool:
    return isinstance(value, Tracer) or getattr(type(value), "_is_tensor_class", False)


# How each MindSpore type name recognises a Python value.
_TYPE_TESTS = {
    "tensor": _is_tensor,
    "number": lambda v: isinstance(v, numbers.Number) and not _is_tensor(v),
    "bool": lambda v: isinstance(v, bool),
    "int": lambda v: isinstance(v, numbers.Integral) and not isinstance(v, bool),
    "float": lambda v: isinstance(v, float),
    "tuple": lambda v: isinstance(v, tuple),
    "list": lambda v: isinstance(v, list),
    "dict": lambda v: isinstance(v, dict),
    "string": lambda v: isinstance(v, str),
    "str": lambda v: isinstance(v, str),
    "none": lambda v: v is None,
    "function": callable,
    # the sparse tensors (cellgraph.sparse) name their kind; a dense Tensor is none of them
    "rowtensor": lambda v: getattr(type(v), "_sparse_kind", None) == "rowtensor",
    "cootensor": lambda v: getattr(type(v), "_sparse_kind", None) == "cootensor",
    "csrtensor": lambda v: getattr(type(v), "_sparse_kind", None) == "csrtensor",
}
# Scalars by MindSpore's type names: a Python int is an Int64 and a float a Float32 to MindSpore's
# graph compiler, so every integer name matches Python ints and every float name Python floats.
_TYPE_TESTS.update({f"{kind}{bits}": _TYPE_TESTS["int" if kind != "float" else "float"]
                    for kind in ("int", "uint", "float") for bits in (8, 16, 32, 64)})
_GENERIC = {"number", "function"}  # a specific match (Int, Tensor) wins over these


def _type_test(type_name):
    if isinstance(type_name, type):
        return lambda v: isinstance(v, type_name)
    if isinstance(type_name, DType):  # mstype.int64, mstype.float32, ...
        type_name = type_name.name.rstrip("_")
    name = str(type_name).lower()
    if isinstance(type_name, (TensorType, _ObjectType)):  # mstype.tensor_type, mstype.number
        name = name.removeprefix("cellgraph.").rstrip("_")
    if name not in _TYPE_TESTS:
        raise ArgumentError(f"MultitypeFuncGraph.register: unknown type name {type_name!r}; "
                            f"expected one of {', '.join(sorted(_TYPE_TESTS))}")
    return _TYPE_TESTS[name]


@jit_forbidden_instances  # a graph refuses to create one (MindSpore's ValueError)
class MultitypeFuncGraph:
    """A function with one implementation per argument-type signature (`register`)."""

    def __init__(self, name, read_value=False):
        self.name = name
        self.read_value = read_value
        self.entries: list[tuple[tuple, int, object]] = []

    def register(self, *type_names):
        """Decorator: `@add.register("Tensor", "Number")` adds an implementation."""
        tests = tuple(_type_test(t) for t in type_names)
        generic = sum(str(t).lower() in _GENERIC for t in type_names)

        def add(fn):
            self.entries.append((tests, generic, fn))
            return fn

        return add

    def _matches(self, args) -> list:
        return [(generic, i, fn) for i, (tests, generic, fn) in enumerate(self.entries)
                if len(tests) == len(args) and all(t(a) for t, a in zip(tests, args))]

    def accepts(self, *args) -> bool:
        """Whether an implementation is registered for arguments of these types."""
        return bool(self._matches(args))

    def __call__(self, *args):
        matches = self._matches(args)
        if not matches:
            given = ", ".join("Tensor" if _is_tensor(a) else type(a).__name__ for a in args)
            raise DTypeError(f"MultitypeFuncGraph '{self.name}': no implementation registered "
                            f"for arguments ({given})")
        return apply(min(matches, key=lambda m: m[:2])[2], *args)

    def __repr__(self) -> str:
        return f"MultitypeFuncGraph({self.name!r}, {len(self.entries)} implementations)"


# ----- HyperMap and Map ---------------------------------------------------------------------

def _is_sequence(value) -> bool:
    return isinstance(value, (tuple, list))


class HyperMap:
    """`HyperMap(ops=None)(fn?, *seqs)`: apply `fn` leaf by leaf over equally nested tuples and
    lists (Tensors and scalars are leaves; a leaf given alongside sequences is reused for every
    element). Without `ops` at construction, the first call argument is the function."""

    recursive = True

    def __init__(self, ops=None, reverse=False):
        self.ops = ops

    def __call__(self, *args):
        fn, seqs = (self.ops, args) if self.ops is not None else (args[0], args[1:])
        if not seqs:
            raise ArgumentError(f"{type(self).__name__}: expected at least one argument to map "
                                f"over, got none")
        return self._map(fn, seqs, top=True)

    def _map(self, fn, seqs, top):
        lengths = {len(s) for s in seqs if _is_sequence(s)}
        if not lengths or (not top and not self.recursive) or (
                isinstance(fn, MultitypeFuncGraph) and fn.accepts(*seqs)):
            return apply(fn, *seqs)  # (a MultitypeFuncGraph registered for a sequence takes it)
        if len(lengths) > 1:
            raise ArgumentError(f"{type(self).__name__}: expected sequences of one length, got "
                                f"lengths {sorted(lengths)}")
        kind = next(type(s) for s in seqs if _is_sequence(s))
        out = [self._map(fn, [s[i] if _is_sequence(s) else s for s in seqs], top=False)
               for i in range(lengths.pop())]
        return list(out) if kind is list else tuple(out)


hyper_add = HyperMap(_add_backward)  # MindSpore's: sums gradients leaf by leaf


class Map(HyperMap):
    """`Map(ops=None)(fn?, *seqs)`: like HyperMap, one level deep (elements are not entered)."""

    recursive = False


# ----- partial application --------------------------------------------------------------------

class _Partial:
    """`fn` with its first arguments (and some keywords) fixed; calls go through `apply` like
    any graph call; a call's keywords override the fixed ones, as functools.partial's do."""

    def __init__(self, fn, args, kwargs=None):
        self.fn, self.args, self.kwargs = fn, tuple(args), dict(kwargs or {})

    def __call__(self, *args, **kwargs):
        return apply(self.fn, *(self.args + args), **{**self.kwargs, **kwargs})

    def __repr__(self) -> str:
        return f"partial({getattr(self.fn, '__name__', self.fn)!r}, {len(self.args)} args)"


def partial(func, *args, **kwargs):
    """`ops.partial(fn, a, k=b)`: a function that calls `fn(a, *rest, k=b, **rest_keywords)`
    (MindSpore's graph mode takes the keywords: `ops.partial(add, x=2)(y=3)`)."""
    if not callable(func):
        raise DTypeError(f"partial: expected a callable, got {type(func).__name__}")
    return _Partial(func, args, kwargs)


class Partial:
    """The primitive class `ops.Partial()`: `Partial()(fn, a, k=b)` is `partial(fn, a, k=b)`."""

    def __call__(self, func, *args, **kwargs):
        return partial(func, *args, **kwargs)


def add_flags(fn=None, **flags):
    """Attach compiler flags to a function or Cell and return it (flags are informational)."""
    def mark(target):
        existing = dict(getattr(target, "_cellgraph_flags", {}))
        existing.update(flags)
        try:
            target._cellgraph_flags = existing
        except AttributeError:  # builtins and bound methods take no attributes
            pass
        return target

    return mark if fn is None else mark(fn)


def clip_by_global_norm(x, clip_norm=1.0, use_norm=None):
    """Scale every tensor of `x` by clip_norm / max(global_norm, clip_norm), where global_norm
    is the L2 norm of all of them together (gradient clipping)."""
    if not _is_sequence(x):
        raise DTypeError(f"clip_by_global_norm: expected a tuple or list of Tensors, got "
                        f"{type(x).__name__}")
    if use_norm is None:
        squares = [F.reduce_sum(F.square(F.cast(t, dt.float32))) for t in x]
        total = squares[0]
        for s in squares[1:]:
            total = total + s
        use_norm = F.sqrt(total)
    scale = clip_norm / F.maximum(use_norm, clip_norm)
    return tuple(F.cast(t * scale, t.dtype) for t in x)


def tail(data):
    """A tuple or list without its first item (empty stays empty). MindSpore's `tail` and
    `zip_operation` return None outside a graph (their Python `__call__` is empty); these
    return what they return in a graph."""
    if not isinstance(data, (tuple, list)):
        raise RuntimeError(  # noqa: TRY004 (MindSpore's type)
            f"'Tail' arg0 must be tuple or list, but got {type(data).__name__}")
    return data[1:]


def zip_operation(*sequences) -> tuple:
    """`tuple(zip(*sequences))`: tuples of the sequences' items, as long as the shortest."""
    if not sequences:
        raise RuntimeError("The zip operator must have at least 1 argument, but the size of "
                           "arguments is 0.")
    for value in sequences:
        if not isinstance(value, (tuple, list)):
            raise DTypeError(f"For 'zip_operation', each input should be a tuple or list, but "
                             f"got {type(value).__name__}.")
    return tuple(zip(*sequences))
