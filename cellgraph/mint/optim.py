"""`mindspore.mint.optim`: PyTorch-style optimizer constructors over cellgraph's optimizers."""
from __future__ import annotations

from cellgraph import nn
from cellgraph.primitives.errors import ArgumentValueError

__all__ = ["SGD", "Adam", "AdamW"]


def _params(params) -> list:
    return list(params)


class AdamW(nn.AdamW):
    """AdamW(params, lr, betas, eps, weight_decay): decoupled weight decay."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        if amsgrad or maximize:
            raise ArgumentValueError("mint.optim.AdamW: amsgrad and maximize are not supported")
        super().__init__(_params(params), lr, betas[0], betas[1], eps, weight_decay)


class Adam(nn.Adam):
    """Adam(params, lr, betas, eps, weight_decay) with L2 weight decay in the gradient."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        if maximize:
            raise ArgumentValueError("mint.optim.Adam: maximize is not supported")
        super().__init__(_params(params), lr, betas[0], betas[1], eps,
                         weight_decay=weight_decay, use_amsgrad=amsgrad)


class SGD(nn.SGD):
    """SGD(params, lr, momentum, dampening, weight_decay, nesterov)."""

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False):
        if maximize:
            raise ArgumentValueError("mint.optim.SGD: maximize is not supported")
        super().__init__(_params(params), lr, momentum, dampening, weight_decay, nesterov)
