"""nn.ProximalAdagrad: Adagrad steps followed by the proximal map of L1 and L2 terms
(MindSpore's ApplyProximalAdagrad), state `accum`."""
from __future__ import annotations

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

from .optimizer import Optimizer, _lr_like

__all__ = ["ProximalAdagrad"]


class ProximalAdagrad(Optimizer):
    """accum += g^2; r = lr / sqrt(accum) (the per-element rate); v = w - r g;
    w = sign(v) max(|v| - r l1, 0) / (1 + r l2)."""

    def __init__(self, params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0,
                 use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        op = "ProximalAdagrad"
        for name, value in (("accum", accum), ("l1", l1), ("l2", l2)):
            if not isinstance(value, float):
                raise DTypeError(f"{op}: `{name}` must be a float, got {type(value).__name__}")
            if value < 0:
                raise ArgumentValueError(f"{op}: `{name}` must be >= 0, got {value}")
        if not isinstance(use_locking, bool):
            raise DTypeError(f"{op}: `use_locking` must be a bool, got "
                             f"{type(use_locking).__name__}")
        self.l1, self.l2, self.use_locking = l1, l2, use_locking
        self.accum = self.clone_state("accum", accum)

    def update(self, index, param, grad, lr, step):
        lr = _lr_like(lr, param)
        accum = assign(self.accum[index], F.add(self.accum[index], F.square(grad)))
        rate = F.div(lr, F.sqrt(accum))
        prox = F.sub(param, F.mul(rate, grad))
        shrunk = F.maximum(F.sub(F.abs(prox), F.mul(rate, self.l1)), 0.0)
        assign(param, F.div(F.mul(F.sign(prox), shrunk), F.add(F.mul(rate, self.l2), 1.0)))
