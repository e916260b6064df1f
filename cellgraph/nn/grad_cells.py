"""nn.Jvp and nn.Vjp: the 1.x Cells around `cellgraph.forward`'s jvp and vjp.

    nn.Jvp(net)(x, y, (vx, vy))  ->  (net(x, y), J·(vx, vy))
    nn.Vjp(net)(x, y, v)         ->  (net(x, y), (vᵀ∂/∂x, vᵀ∂/∂y))

The last argument is the vector; every argument before it is an input of `net`. With one input
the vector (and, for Vjp, the cotangent returned) is a single Tensor.
"""
from __future__ import annotations

from cellgraph.compiler.guards import record_guard
from cellgraph.forward import JvpFunction, VjpFunction
from cellgraph.primitives.errors import ArgumentError

from .cell import Cell


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


class ForwardValueAndGrad(Cell):
    """`(network(*inputs), gradients)` in one Cell: gradients as GradOperation(get_all,
    get_by_list, sens_param) gives them (w.r.t. the first input, all inputs, `weights`, or
    inputs and weights); with sens_param the last argument is the output's sensitivity."""

    def __init__(self, network, weights=None, get_all=False, get_by_list=False,
                 sens_param=False):
        super().__init__(auto_prefix=False)
        from cellgraph.autograd import GradOperation

        if get_by_list and weights is None:
            raise ArgumentError("nn.ForwardValueAndGrad: get_by_list=True needs `weights`")
        self.network = network
        self.weights = weights
        self.get_by_list, self.sens_param = bool(get_by_list), bool(sens_param)
        self.grad = GradOperation(get_all=get_all, get_by_list=get_by_list,
                                  sens_param=sens_param)

    def construct(self, *inputs):
        forward_inputs = inputs[:-1] if self.sens_param else inputs
        loss = self.network(*forward_inputs)
        if self.get_by_list:
            grads = self.grad(self.network, self.weights)(*inputs)
        else:
            grads = self.grad(self.network)(*inputs)
        return loss, grads
