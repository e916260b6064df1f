"""nn.Momentum: gradient descent with (Nesterov) momentum, MindSpore's `moments` state."""
from __future__ import annotations

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F

from .optimizer import Optimizer, _lr_like, _real

__all__ = ["Momentum"]


class Momentum(Optimizer):
    """v = momentum * v + grad; param -= lr * v (or lr * (grad + momentum * v), Nesterov)."""

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0,
                 use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.momentum = _real(momentum, "Momentum", "momentum", low=0.0)
        self.use_nesterov = bool(use_nesterov)
        self.moments = self.clone_state("moments")

    def update(self, index, param, grad, lr, step):
        lr = _lr_like(lr, param)
        velocity = assign(self.moments[index],
                          F.add(F.mul(self.moments[index], self.momentum), grad))
        direction = F.add(grad, F.mul(velocity, self.momentum)) if self.use_nesterov \
            else velocity
        assign(param, F.sub(param, F.mul(lr, direction)))
