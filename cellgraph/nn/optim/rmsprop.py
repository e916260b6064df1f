"""nn.RMSProp (MindSpore's update rule and state names, so checkpoints carry
"mean_square.fc.weight" and the like)."""
from __future__ import annotations

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F

from .optimizer import Optimizer, _bool, _float, _lr_like

__all__ = ["RMSProp"]


class RMSProp(Optimizer):
    """ms = decay ms + (1 - decay) g^2; mom = momentum mom + lr g / sqrt(ms + eps);
    param -= mom. Centered: the denominator is sqrt(ms - mg^2 + eps), mg the mean gradient.
    The mean square starts at ones, as in MindSpore."""

    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        # MindSpore's checks: floats and bools, an int is refused
        self.decay = _float(decay, "RMSProp", "decay", low=0.0)
        self.momentum = _float(momentum, "RMSProp", "momentum", low=0.0)
        self.epsilon = _float(epsilon, "RMSProp", "epsilon", low=0.0, low_open=True)
        self.use_locking = _bool(use_locking, "RMSProp", "use_locking")
        self.centered = _bool(centered, "RMSProp", "centered")
        if self.centered:  # first in MindSpore's checkpoints
            self.mean_grad = self.clone_state("mean_grad")
        self.mean_square = self.clone_state("mean_square", 1.0)
        self.moment = self.clone_state("moment")

    def update(self, index, param, grad, lr, step):
        ms = assign(self.mean_square[index], F.add(F.mul(self.mean_square[index], self.decay),
                                                   F.mul(F.square(grad), 1 - self.decay)))
        denominator = ms
        if self.centered:
            mg = assign(self.mean_grad[index], F.add(F.mul(self.mean_grad[index], self.decay),
                                                     F.mul(grad, 1 - self.decay)))
            denominator = F.sub(ms, F.square(mg))
        scaled = F.div(F.mul(_lr_like(lr, param), grad),
                       F.sqrt(F.add(denominator, self.epsilon)))
        mom = assign(self.moment[index], F.add(F.mul(self.moment[index], self.momentum), scaled))
        assign(param, F.sub(param, mom))
