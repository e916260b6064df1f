"""nn.Adagrad: per-element step sizes from the sum of squared gradients (`accum`)."""
from __future__ import annotations

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F

from .optimizer import Optimizer, _lr_like, _real

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """accum += g^2; param -= lr g / sqrt(accum); accum starts at `accum`."""

    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True,
                 loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.update_slots = bool(update_slots)
        self.accum = self.clone_state("accum", _real(accum, "Adagrad", "accum", low=0.0))

    def update(self, index, param, grad, lr, step):
        accum = self.accum[index]
        if self.update_slots:
            accum = assign(accum, F.add(accum, F.square(grad)))
        assign(param, F.sub(param, F.div(F.mul(_lr_like(lr, param), grad), F.sqrt(accum))))
