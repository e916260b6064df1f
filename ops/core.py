"""Primitives, abstract values and `bind`, the one entry point every operation goes through.

A primitive is a name plus rules: how its output type follows from its input types, how to
differentiate it (written with ops, so the rule is itself differentiable), how to batch it.
`bind(prim, *args, **params)` hands the call to whoever is listening: at the bottom of the
stack the eager runtime runs a kernel; while a graph is being built the builder emits a node.
This is the pattern of JAX's autodidax, and it keeps this package free of imports from above.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import dtype as dt
from .errors import CellgraphError, DTypeError, ShapeError

Shape = tuple  # of int (or None for a size known only at run time)


@dataclass(frozen=True)
class TensorType:
    """The abstract value of a tensor: its shape and dtype.

    `weak` marks a Python scalar: it takes the other operand's dtype in arithmetic, as a Python
    float does with a NumPy float32 array.
    """

    shape: Shape
    dtype: dt.DType
    weak: bool = False

    def __post_init__(self):
        assert isinstance(self.shape, tuple), self.shape
        assert all(d is None or (isinstance(d, int) and d >= 0) for d in self.shape), self.shape
        assert isinstance(self.dtype, dt.DType), self.dtype

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int | None:
        n = 1
        for d in self.shape:
            if d is None:
                return None
            n *= d
        return n

    def strong(self) -> TensorType:
        return TensorType(self.shape, self.dtype) if self.weak else self

    def __str__(self) -> str:
        dims = ",".join("?" if d is None else str(d) for d in self.shape)
        return f"{self.dtype.short}[{dims}]"


def abstract_of(value) -> TensorType:
    """The abstract value of a Tensor, a tracer or a Python/NumPy scalar or array."""
    aval = getattr(value, "aval", None)
    if aval is not None:
        return aval
    if isinstance(value, bool):
        return TensorType((), dt.bool_, weak=True)
    if isinstance(value, int):
        return TensorType((), dt.int64, weak=True)
    if isinstance(value, float):
        return TensorType((), dt.float32, weak=True)
    import numpy as np

    if isinstance(value, (np.ndarray, np.generic)):
        return TensorType(tuple(value.shape), dt.from_numpy(value.dtype))
    raise DTypeError(f"expected a Tensor or a number, got {type(value).__name__} {value!r:.60}")


def operand_error(prim: Primitive, index: int, value) -> DTypeError:
    """The error for a non-Tensor operand: names the op, the operand and what it got."""
    return DTypeError(f"{prim.label}: expected a Tensor or a number for input {index + 1}, got "
                      f"{type(value).__name__} {value!r:.60}")


def is_value(x) -> bool:
    """True for what an operation can take as an operand (tensor-like or number)."""
    import numpy as np

    return (hasattr(x, "aval") or isinstance(x, (bool, int, float, np.ndarray, np.generic)))


class Primitive:
    """One operation: its name (snake_case, as in the IR and the kernel tables) and its rules."""

    def __init__(self, name: str, abstract: Callable, *, label: str | None = None,
                 nondifferentiable: bool = False, multiple_results: bool = False):
        self.name = name
        self.label = label or "".join(p.capitalize() for p in name.split("_"))
        self.abstract_rule = abstract
        self.bprop_rule: Callable | None = None
        self.batch_rule: Callable | None = None
        self.nondifferentiable = nondifferentiable
        self.multiple_results = multiple_results
        assert name not in PRIMITIVES, f"primitive {name} declared twice"
        PRIMITIVES[name] = self

    def __repr__(self) -> str:
        return self.name

    def __call__(self, *args, **params):
        return bind(self, *args, **params)

    def def_bprop(self, rule: Callable) -> Callable:
        """rule(*inputs, out=..., dout=..., **params) -> one gradient per input (None: zero)."""
        self.bprop_rule = rule
        return rule

    def def_batch(self, rule: Callable) -> Callable:
        """rule(args, dims, **params) -> (out, out_dim); dims[i] is None when unbatched."""
        self.batch_rule = rule
        return rule

    def abstract_eval(self, avals, params) -> TensorType | tuple:
        """Output type(s); a mistake in the operands raises an error that names this op."""
        try:
            return self.abstract_rule(*avals, **params)
        except CellgraphError as e:
            if not e.message.startswith(self.label):
                e.message = f"{self.label}: {e.message}"
                e.args = (e._text(),)
            raise


PRIMITIVES: dict[str, Primitive] = {}


class Trace:
    """Whoever listens to `bind`: the eager runtime or a graph builder."""

    def process(self, prim: Primitive, args: tuple, params: dict) -> Any:
        raise NotImplementedError


class ThreadLocalStack(threading.local):
    """A list-like stack whose contents belong to the calling thread: compiler state that must
    never leak between threads compiling at once. `initial` seeds every thread's stack."""

    def __init__(self, *initial):
        self.items = list(initial)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index):
        return self.items[index]

    def __iter__(self):
        return iter(self.items)

    def __reversed__(self):
        return reversed(self.items)

    def append(self, item) -> None:
        self.items.append(item)

    def pop(self):
        return self.items.pop()


class _ThreadTraceStack(ThreadLocalStack):
    """The listening traces, per thread: a graph being built in one thread never receives
    another thread's operations. Every thread's stack starts with the eager trace."""

    bottom: Trace | None = None  # the eager trace, shared by all threads (it holds no state)

    def __init__(self):
        super().__init__(*([] if self.bottom is None else [self.bottom]))


_trace_stack = _ThreadTraceStack()


def bind(prim: Primitive, *args, **params):
    """Apply `prim` to `args` through the innermost listening trace."""
    stack = _trace_stack.items
    if not stack:
        raise RuntimeError("no eager runtime registered; import cellgraph first")
    return stack[-1].process(prim, args, params)


def push_trace(trace: Trace) -> None:
    _trace_stack.items.append(trace)


def pop_trace(trace: Trace) -> None:
    stack = _trace_stack.items
    if not stack or stack[-1] is not trace:
        raise RuntimeError("trace stack out of order: a graph was left while another was open")
    stack.pop()


def current_trace() -> Trace:
    return _trace_stack.items[-1]


def set_eager_trace(trace: Trace) -> None:
    """Install the bottom of every thread's stack (called once by the runtime)."""
    _ThreadTraceStack.bottom = trace
    stack = _trace_stack.items
    if stack:
        stack[0] = trace
    else:
        stack.append(trace)


# ----- shape-rule helpers shared by the primitive declarations --------------------------------

def broadcast_shapes(*shapes: Shape) -> Shape:
    """NumPy broadcasting; a None dim stays None unless the other side fixes it."""
    ndim = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(ndim):
        dims = [s[len(s) - ndim + i] for s in shapes if len(s) - ndim + i >= 0]
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            raise ShapeError("shapes " + ", ".join(_fmt_shape(s) for s in shapes)
                             + " cannot be broadcast together")
        if known:
            out.append(known.pop())
        elif any(d is None for d in dims):
            out.append(None)
        else:
            out.append(1)
    return tuple(out)


def result_dtype(*avals: TensorType) -> dt.DType:
    """The dtype of an arithmetic result: strong operands win over Python scalars (NEP 50)."""
    strong = [a.dtype for a in avals if not a.weak]
    if strong:
        out = strong[0]
        for d in strong[1:]:
            out = dt.promote(out, d)
        weak_kinds = {a.dtype.np.kind for a in avals if a.weak}
        if out.is_bool and weak_kinds - {"b"}:
            out = dt.int64 if weak_kinds <= {"b", "i"} else dt.float32
        if out.is_int and "f" in weak_kinds:
            out = dt.float32
        return out
    kinds = [a.dtype for a in avals]
    return max(kinds, key=lambda d: "bif".index(d.np.kind) if d.np.kind in "bif" else 0)


def _fmt_shape(shape: Shape) -> str:
    return "(" + ", ".join("?" if d is None else str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


fmt_shape = _fmt_shape


def normalize_axis(axis: int, ndim: int, op: str = "") -> int:
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ShapeError(f"axis {axis} is out of range for a tensor of rank {ndim}")
    return axis % max(ndim, 1)


def normalize_axes(axis, ndim: int) -> tuple[int, ...]:
    """None -> all axes; int or tuple -> sorted non-negative tuple. A 0-d tensor has no axes:
    axis 0 or -1 of it (accepted, as in MindSpore) is no axis."""
    if axis is None or axis == () or ndim == 0:
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    return tuple(sorted({normalize_axis(a, ndim) for a in axis}))
