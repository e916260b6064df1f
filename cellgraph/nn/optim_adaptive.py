"""Optimizers with per-element step sizes: RMSProp, Adagrad, Adadelta (MindSpore's update
rules and state names, so checkpoints carry "mean_square.fc.weight" and the like)."""
from __future__ import annotations

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F

from .optim import Optimizer, _lr_like, _real

__all__ = ["Adadelta", "Adagrad", "RMSProp"]


class RMSProp(Optimizer):
    """ms = decay ms + (1 - decay) g^2; mom = momentum mom + lr g / sqrt(ms + eps);
    param -= mom. Centered: the denominator is sqrt(ms - mg^2 + eps), mg the mean gradient.
    The mean square starts at ones, as in MindSpore."""

    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.decay = _real(decay, "RMSProp", "decay", low=0.0)
        self.momentum = _real(momentum, "RMSProp", "momentum", low=0.0)
        self.epsilon = _real(epsilon, "RMSProp", "epsilon", low=0.0, low_open=True)
        self.centered = bool(centered)
        self.mean_square = self.clone_state("mean_square", 1.0)
        self.moment = self.clone_state("moment")
        if self.centered:
            self.mean_grad = self.clone_state("mean_grad")

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
