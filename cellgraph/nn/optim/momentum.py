"""nn.Momentum: gradient descent with (Nesterov) momentum, MindSpore's `moments` state."""
from __future__ import annotations

import numpy as np

from cellgraph.common.assign import assign
from cellgraph.common.parameter import Parameter
from cellgraph.ops import functional as F
from cellgraph.runtime.tensor import Tensor

from .optimizer import Optimizer, _lr_like, _real

__all__ = ["Momentum"]


class Momentum(Optimizer):
    """v = momentum * v + grad; param -= lr * v (or lr * (grad + momentum * v), Nesterov)."""

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0,
                 use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        # a float32 Parameter named "momentum", as MindSpore's (checkpoints carry it)
        self.momentum = momentum_parameter(_real(momentum, "Momentum", "momentum", low=0.0))
        self.use_nesterov = bool(use_nesterov)
        self.moments = self.clone_state("moments")

    def update(self, index, param, grad, lr, step):
        lr = _lr_like(lr, param)
        momentum = F.cast(self.momentum, param.dtype)
        velocity = assign(self.moments[index], F.add(F.mul(self.moments[index], momentum), grad))
        direction = F.add(grad, F.mul(velocity, momentum)) if self.use_nesterov else velocity
        assign(param, F.sub(param, F.mul(lr, direction)))


def momentum_parameter(value: float) -> Parameter:
    """MindSpore's optimizers keep their momentum as a float32 Parameter named "momentum"."""
    return Parameter(Tensor(np.array(value, np.float32)), name="momentum")
