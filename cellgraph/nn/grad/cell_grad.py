"""nn.Jvp and nn.Vjp: the 1.x Cells around `cellgraph.forward`'s jvp and vjp.

    nn.Jvp(net)(x, y, (vx, vy))  ->  (net(x, y), J·(vx, vy))
    nn.Vjp(net)(x, y, v)         ->  (net(x, y), (vᵀ∂/∂x, vᵀ∂/∂y))

The last argument is the vector; every argument before it is an input of `net`. With one input
the vector (and, for Vjp, the cotangent returned) is a single Tensor.
"""
from __future__ import annotations

from cellgraph.compiler.builder import is_tensor_like
from cellgraph.compiler.guards import record_guard
from cellgraph.forward import JvpFunction, VjpFunction
from cellgraph.primitives.errors import ArgumentError

from ..cell import Cell

__all__ = ["Jvp", "Vjp"]


class _ProductCell(Cell):
    """Shared by Jvp and Vjp: `construct(*inputs, v)` delegates to one transform of `fn`."""

    transform = JvpFunction

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        if len(args) < 2:
            raise ArgumentError(f"nn.{type(self).__name__}: expected the inputs of the network "
                                f"followed by the vector v, got {len(args)} argument(s)")
        inputs, v = args[:-1], args[-1]
        name = type(self).__name__
        for i, item in enumerate(inputs):  # as MindSpore's: the network's own inputs, each a
            if not is_tensor_like(item):   # Tensor (a tuple of them is no input of the network)
                raise ArgumentError(f"nn.{name}: input {i} of the network must be a Tensor, got "
                                    f"{type(item).__name__}; pass the inputs one by one, then v")
        if len(inputs) == 1 and not is_tensor_like(v):
            raise ArgumentError(f"nn.{name}: with one input, `v` must be a Tensor, got "
                                f"{type(v).__name__}")
        product = self.transform(self.fn)
        return product(inputs[0] if len(inputs) == 1 else inputs, v)

    def _graph_call(self, args, kwargs):
        if kwargs:
            raise ArgumentError(f"nn.{type(self).__name__}: keyword arguments are not "
                                f"supported; pass the inputs and v by position")
        record_guard(self, "fn", self.fn)  # recompile when the wrapped network is replaced
        return self.construct(*args)


class Jvp(_ProductCell):
    """`Jvp(fn)(*inputs, v)` -> `(fn(*inputs), J·v)`: forward-mode differentiation of `fn`."""

    transform = JvpFunction


class Vjp(_ProductCell):
    """`Vjp(fn)(*inputs, v)` -> `(fn(*inputs), vᵀJ)`: reverse-mode differentiation of `fn`."""

    transform = VjpFunction
