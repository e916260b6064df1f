"""`custom_vjp`: a function whose gradient is given by the user, as a Cell's `bprop` is.

    @custom_vjp
    def mul_add(x, y):
        return 2 * x + y

    def mul_add_bprop(x, y, out, dout):
        return 2 * dout, dout

    mul_add.defbwd(mul_add_bprop)

Called inside a graph, the decorated function emits the same custom_vjp node as a Cell with
`bprop` (compiler/custom.py): the forward and the backward are traced into their own graphs,
differentiation inlines the backward, and an undifferentiated call inlines the forward. So
everything said there holds here: higher orders go through the user's backward, which is
checked when traced (one gradient per input, each shaped like its input).

Called from Python, it runs as a compiled graph (the forward; a gradient transform around it
compiles the node). Before `defbwd`, the function is differentiated as written.
"""
from __future__ import annotations

import functools
import inspect

from cellgraph.compiler.builder import current_builder
from cellgraph.compiler.custom import custom_vjp_function_call
from cellgraph.compiler.frontend import trace_call
from cellgraph.primitives.errors import DTypeError

from .transform import Transform, user_loc


class CustomVjp:
    """A function with a user-defined backward; made by `custom_vjp`."""

    def __init__(self, fn):
        if not callable(fn):
            raise DTypeError(f"custom_vjp: expected a function, got {type(fn).__name__} "
                             f"{fn!r:.60}", user_loc())
        functools.update_wrapper(self, fn)
        self.fwd, self.bwd = fn, None

    def defbwd(self, bwd):
        """Use `bwd(*inputs, out, dout)` -> one gradient per input as the backward."""
        if not callable(bwd):
            raise DTypeError(f"custom_vjp: `defbwd` expected a function, got "
                             f"{type(bwd).__name__} {bwd!r:.60}", user_loc())
        self.bwd = bwd
        return bwd

    def __call__(self, *args, **kwargs):
        if current_builder() is None:
            return _Apply(self)(*args, **kwargs)
        if self.bwd is None:
            return trace_call(self.fwd, args, kwargs)
        return custom_vjp_function_call(self.__name__, self.fwd, self.bwd, args, kwargs)

    def __repr__(self) -> str:
        return f"custom_vjp({self.__name__})"


class _Apply(Transform):
    """A call of a CustomVjp from Python: its graph, compiled once per input signature."""

    api = "custom_vjp"

    def __init__(self, fn: CustomVjp):
        super().__init__(fn)

    def cache_key(self):
        return (id(self.fn.bwd),)

    def emit(self, *args):
        return self.fn(*args)

    def __call__(self, *args, **kwargs):
        if kwargs:  # compiled graphs take positional inputs only
            return self.fn(*_bind(self.fn.fwd, args, kwargs))
        return super().__call__(*args)


def _bind(fn, args, kwargs) -> tuple:
    binding = inspect.signature(fn).bind(*args, **kwargs)
    binding.apply_defaults()
    return tuple(binding.arguments.values())


def custom_vjp(fn=None):
    """Decorator: `fn` with a backward given later by `fn.defbwd(bprop)`, where
    `bprop(*inputs, out, dout)` returns one gradient per input."""
    if fn is None:
        return CustomVjp
    return CustomVjp(fn)
