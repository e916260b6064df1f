"""Operations that act on the gradient flowing back through a value.

`InsertGradientOf(fn)(x)` is `x` going forward; going back, the gradient that reaches it is
replaced by `fn(gradient)` (gradient clipping, scaling, printing). Inside a graph it is a
`custom_vjp` node (compiler/custom.py) whose forward graph is the identity and whose bprop graph
is `fn` traced on the incoming gradient, so `fn` may use any op a graph can, and a second
differentiation goes through it:

    %2 = custom_vjp(%1) {fwd=@InsertGradientOf_forward, bprop=@InsertGradientOf_bprop, n_in=1}

`HookBackward(hook_fn)(x)` is MindSpore's PyNative hook: the same node, but its bprop graph is
one `py_hook` node, which calls `hook_fn` in Python on the gradient's value when the backward
pass runs (so `hook_fn` may print, log or return a new gradient, and is never parsed). A
gradient of that gradient does not go through the hook: `py_hook` is not differentiable. In
GRAPH_MODE it is left out with a warning, as MindSpore leaves it out.
"""
from __future__ import annotations

import numbers
import warnings

from cellgraph.compiler.builder import Builder, current_builder, describe_value, is_tensor_like
from cellgraph.compiler.custom import custom_vjp_p
from cellgraph.compiler.scope import is_user_function
from cellgraph.context import GRAPH_MODE, get_context
from cellgraph.primitives.core import Primitive, abstract_of
from cellgraph.primitives.errors import DTypeError, ShapeError

from .transform import user_loc

# `fn(value) -> value of the same shape and dtype`, called on the host when the graph runs;
# effectful, so it is never merged with another hook, dropped or moved out of order
py_hook_p = Primitive("py_hook", lambda x, *, fn: x, label="PyHook", nondifferentiable=True,
                      effectful=True)


def _call_user(fn, *args):
    """`fn(*args)` in the graph being built: parsed when it is the user's, else run."""
    from cellgraph.compiler.frontend import Interpreter

    if is_user_function(fn):
        return Interpreter.call_function(fn, args, {})
    return fn(*args)


def _trace(name: str, fn, avals: list, hints: list, accepts_updates: bool = False):
    builder = Builder(name, user_loc())
    builder.accepts_updates = accepts_updates
    with builder.active():
        tracers = [builder.add_param(a, h) for a, h in zip(avals, hints)]
        return builder.finish(fn(*tracers))


class InsertGradientOf:
    """`InsertGradientOf(f)(x)`: x, whose gradient becomes `f(gradient)` on the way back."""

    def __init__(self, f):
        if not callable(f):
            raise DTypeError(f"InsertGradientOf: expected a function of the gradient, got "
                             f"{describe_value(f)}", user_loc())
        self.f = f

    def __call__(self, x):
        if current_builder() is None:  # run eagerly: nothing flows back through it
            return x
        if isinstance(x, numbers.Number):  # a constant: no gradient flows back to it
            return x
        if not is_tensor_like(x):
            raise DTypeError(f"InsertGradientOf: expected a Tensor, got {describe_value(x)}",
                             user_loc())
        aval = abstract_of(x).strong()
        forward, forward_captured = _trace("InsertGradientOf_forward", lambda v: v, [aval],
                                           ["x"])
        backward, backward_captured = _trace("InsertGradientOf_bprop", self._backward,
                                             [aval, aval, aval], ["x", "out", "dout"],
                                             accepts_updates=True)
        if backward.updates:  # f assigns Parameters: it runs as Python when the gradient does
            return InsertGradientOf(self._emit_host_call)(x)
        operands = [x, *forward_captured, *forward.weights, *backward_captured,
                    *backward.weights]
        (out,) = custom_vjp_p(*operands, fwd=forward, bprop=backward, n_in=1,
                              cell="InsertGradientOf")
        return out

    def _emit_host_call(self, grad):
        return py_hook_p(grad, fn=_HostGradientFunction(self.f, user_loc()))

    def _backward(self, x, out, dout):
        grad = _call_user(self.f, dout)
        want, got = abstract_of(dout), abstract_of(grad) if is_tensor_like(grad) else None
        if got is None or got.shape != want.shape:
            raise ShapeError(f"InsertGradientOf: expected {self.f.__name__} to return a "
                             f"gradient like the one it was given ({want}), got "
                             f"{describe_value(grad)}", user_loc())
        return [grad]


class HookBackward:
    """MindSpore's backward hook: `hook_fn(grad) -> new gradient or None`, run in Python on the
    gradient of each input when the backward pass runs (PyNative mode only, as in MindSpore)."""

    def __init__(self, hook_fn, cell_id=""):
        if not callable(hook_fn):
            raise DTypeError(f"HookBackward: expected a function, got {describe_value(hook_fn)}",
                             user_loc())
        self.hook_fn, self.cell_id = hook_fn, cell_id

    def __call__(self, *inputs):
        if current_builder() is None:  # run eagerly: nothing flows back through it
            return inputs[0] if len(inputs) == 1 else inputs
        if get_context("mode") == GRAPH_MODE:  # MindSpore leaves the hook out, and says so
            warnings.warn("Hook operation does not work in graph mode or functions decorated "
                          "with 'jit', it will be eliminated during compilation; use "
                          "ops.InsertGradientOf(fn) to act on the gradient in a graph",
                          stacklevel=2)
            return inputs[0] if len(inputs) == 1 else inputs
        hooked = InsertGradientOf(self._emit_hook)
        outs = tuple(hooked(x) for x in inputs)
        return outs[0] if len(outs) == 1 else outs

    def _emit_hook(self, grad):
        return py_hook_p(grad, fn=_HostHook(self.hook_fn, user_loc()))


class _HostHook:
    """The host side of a `py_hook` node: the gradient as a 1-tuple of Tensors in, as MindSpore
    passes it; a Tensor, a 1-tuple of one or None (keep the gradient) out."""

    def __init__(self, hook_fn, loc):
        self.hook_fn, self.loc = hook_fn, loc

    def __repr__(self) -> str:  # kernels are shared by params' repr: two hooks never share one
        return f"{getattr(self.hook_fn, '__qualname__', 'hook')}@{id(self.hook_fn):x}"

    def __call__(self, grad):
        import numpy as np

        from cellgraph.runtime.tensor import Tensor

        new = self.hook_fn((Tensor(np.asarray(grad)),))
        if isinstance(new, (tuple, list)) and len(new) == 1:
            new = new[0]
        if new is None:
            return grad
        value = np.asarray(new.asnumpy() if isinstance(new, Tensor) else new)
        if value.shape != np.shape(grad):
            name = getattr(self.hook_fn, "__name__", "the hook")
            raise ShapeError(f"HookBackward: expected {name} to return a gradient of shape "
                             f"{np.shape(grad)} or None, got shape {value.shape}", self.loc)
        return value.astype(np.asarray(grad).dtype, copy=False)


class _HostGradientFunction:
    """The host side of InsertGradientOf's function when it assigns Parameters (MindSpore runs
    those assignments where the gradient reaches it): `f(gradient Tensor)` run in Python on
    the gradient's value, its result the new gradient."""

    def __init__(self, f, loc):
        self.f, self.loc = f, loc

    def __repr__(self) -> str:  # kernels are shared by params' repr: two never share one
        return f"{getattr(self.f, '__qualname__', 'fn')}@{id(self.f):x}"

    def __call__(self, grad):
        import numpy as np

        from cellgraph.runtime.tensor import Tensor

        new = self.f(Tensor(np.asarray(grad)))
        value = np.asarray(new.asnumpy() if isinstance(new, Tensor) else new)
        if value.shape != np.shape(grad):
            name = getattr(self.f, "__name__", "the function")
            raise ShapeError(f"InsertGradientOf: expected {name} to return a gradient like the "
                             f"one it was given (shape {np.shape(grad)}), got shape "
                             f"{value.shape}", self.loc)
        return value.astype(np.asarray(grad).dtype, copy=False)


def identity_with_host_bprop(values: list, host_fn, name: str) -> list:
    """`values` (graph Tensors) going forward unchanged; going back, their gradients are
    replaced by `host_fn(*gradient arrays)` (a tuple of arrays of the same shapes and dtypes),
    called on the host when the backward pass runs: one custom_vjp node whose bprop graph is
    one effectful py_func node. What Cells' backward hooks are built on (nn/hooks.py)."""
    from cellgraph.compiler.py_func_op import HostCall, py_func_p

    avals = [abstract_of(v).strong() for v in values]
    n = len(avals)
    hints = [f"x{i}" for i in range(n)]
    forward, forward_captured = _trace(f"{name}_forward", lambda *v: list(v), avals, hints)
    call = HostCall(_ShapedHostFunction(host_fn, avals), name, tuple(range(n)), tuple(avals),
                    single=False, loc=user_loc())

    def backward(*tracers):
        return list(py_func_p(*tracers[2 * n:], call=call))

    backward_graph, backward_captured = _trace(f"{name}_bprop", backward, avals * 3,
                                               hints + ["out"] * n + ["dout"] * n)
    operands = [*values, *forward_captured, *forward.weights, *backward_captured,
                *backward_graph.weights]
    return list(custom_vjp_p(*operands, fwd=forward, bprop=backward_graph, n_in=n, cell=name))


class _ShapedHostFunction:
    """`fn(*arrays)`, its results given the shapes and dtypes of `avals` (a gradient that
    reaches the host as shape (1,) for a 0-d value, or a hook's result of that shape)."""

    def __init__(self, fn, avals):
        self.fn, self.avals = fn, avals

    def __repr__(self) -> str:
        return repr(self.fn)

    def __call__(self, *arrays) -> tuple:
        import numpy as np

        out = []
        for value, aval in zip(self.fn(*arrays), self.avals):
            value = np.asarray(value, dtype=aval.dtype.np)
            if value.shape != aval.shape:
                value = (value.reshape(aval.shape) if value.size == int(np.prod(aval.shape))
                         else np.broadcast_to(value, aval.shape))
            out.append(np.array(value))  # its own copy (broadcast_to gives a view)
        return tuple(out)
