"""nn.Adadelta: per-element step sizes from running averages of gradients and updates."""
from __future__ import annotations

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F

from .optimizer import Optimizer, _lr_like, _real

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    """accum = rho accum + (1 - rho) g^2; u = sqrt(accum_update + eps) / sqrt(accum + eps) g;
    accum_update = rho accum_update + (1 - rho) u^2; param -= lr u."""

    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.rho = _real(rho, "Adadelta", "rho", 0.0, 1.0)
        self.epsilon = _real(epsilon, "Adadelta", "epsilon", low=0.0, low_open=True)
        self.accum = self.clone_state("accum")
        self.accum_update = self.clone_state("accum_update")

    def update(self, index, param, grad, lr, step):
        accum = assign(self.accum[index], F.add(F.mul(self.accum[index], self.rho),
                                                F.mul(F.square(grad), 1 - self.rho)))
        ratio = F.div(F.sqrt(F.add(self.accum_update[index], self.epsilon)),
                      F.sqrt(F.add(accum, self.epsilon)))
        delta = F.mul(ratio, grad)
        assign(self.accum_update[index], F.add(F.mul(self.accum_update[index], self.rho),
                                               F.mul(F.square(delta), 1 - self.rho)))
        assign(param, F.sub(param, F.mul(_lr_like(lr, param), delta)))
