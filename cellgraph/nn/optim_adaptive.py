"""Optimizers with per-element step sizes: RMSProp, Adagrad, Adadelta (MindSpore's update
rules and state names, so checkpoints carry "mean_square.fc.weight" and the like)."""
from __future__ import annotations

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F

from .optim import Optimizer, _lr_like, _real

__all__ = ["Adadelta", "Adagrad", "Lamb", "RMSProp"]


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


class Lamb(Optimizer):
    """Layer-wise adaptive moments (You et al.): r = m_hat / (sqrt(v_hat) + eps) + wd * param;
    param -= lr * (||param|| / ||r||) * r, the trust ratio taken as 1 where either norm is
    zero, so each tensor moves by a step proportional to its own size."""

    decoupled_weight_decay = True

    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        self.beta1 = _real(beta1, "Lamb", "beta1", 0.0, 1.0, low_open=True, high_open=True)
        self.beta2 = _real(beta2, "Lamb", "beta2", 0.0, 1.0, low_open=True, high_open=True)
        self.eps = _real(eps, "Lamb", "eps", low=0.0, low_open=True)
        self.moments1 = self.clone_state("lamb_m")
        self.moments2 = self.clone_state("lamb_v")

    def update(self, index, param, grad, lr, step):
        m = assign(self.moments1[index], F.add(F.mul(self.moments1[index], self.beta1),
                                               F.mul(grad, 1 - self.beta1)))
        v = assign(self.moments2[index], F.add(F.mul(self.moments2[index], self.beta2),
                                               F.mul(F.square(grad), 1 - self.beta2)))
        t = F.cast(F.add(step, 1), param.dtype)
        m_hat = F.div(m, F.sub(1, F.pow(self.beta1, t)))
        v_hat = F.div(v, F.sub(1, F.pow(self.beta2, t)))
        ratio = F.div(m_hat, F.add(F.sqrt(v_hat), self.eps))
        if self.weight_decays[index]:
            ratio = F.add(ratio, F.mul(param, self.weight_decays[index]))
        w_norm, r_norm = F.norm(param), F.norm(ratio)
        usable = F.logical_and(F.greater(w_norm, 0), F.greater(r_norm, 0))
        trust = F.select(usable, F.div(w_norm, F.select(usable, r_norm, F.ones_like(r_norm))),
                         F.ones_like(w_norm))
        assign(param, F.sub(param, F.mul(F.mul(_lr_like(lr, param), trust), ratio)))
