"""Optimizers with per-element or per-tensor step sizes: RMSProp, Adagrad, Adadelta, Lamb,
AdaFactor (MindSpore's update rules and state names, so checkpoints carry
"mean_square.fc.weight" and the like)."""
from __future__ import annotations

import numpy as np

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F
from cellgraph.primitives.errors import ArgumentValueError
from cellgraph.runtime.tensor import Parameter, ParameterTuple, Tensor

from .optim import Optimizer, _lr_like, _real

__all__ = ["AdaFactor", "Adadelta", "Adagrad", "Lamb", "RMSProp"]


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


def _rms(x):
    return F.sqrt(F.reduce_mean(F.square(x)))


class AdaFactor(Optimizer):
    """Adafactor (Shazeer & Stern): second moments of a matrix kept as running row and column
    means of g^2 + eps1 (their outer product over the row mean estimates the full matrix), of a
    vector in full; the update g / sqrt(v_hat) is clipped to RMS clip_threshold, scaled by
    max(eps2, RMS(param)) (scale_parameter) and a step size min(1e-2, 1 / sqrt(t))
    (relative_step) or the given learning rate, averaged by beta1 when that is set; the decay
    rate of the second moments is 1 - t^-decay_rate."""

    decoupled_weight_decay = True

    def __init__(self, params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0,
                 decay_rate=0.8, beta1=0.9, weight_decay=0.0, scale_parameter=True,
                 relative_step=True, warmup_init=False, compression=False, loss_scale=1.0):
        op = "AdaFactor"
        if learning_rate is not None and relative_step:
            raise ArgumentValueError(f"{op}: a learning_rate cannot be combined with "
                                     f"relative_step=True")
        if warmup_init and not relative_step:
            raise ArgumentValueError(f"{op}: warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ArgumentValueError(f"{op}: learning_rate is None and relative_step=False")
        super().__init__(0.0 if learning_rate is None else learning_rate, params, weight_decay,
                         loss_scale)
        if not isinstance(eps, (tuple, list)) or len(eps) != 2:
            raise ArgumentValueError(f"{op}: `eps` must be (eps1, eps2), got {eps!r}")
        self.eps = tuple(_real(e, op, f"eps{i}", low=0.0) for i, e in enumerate(eps))
        self.clip_threshold = _real(clip_threshold, op, "clip_threshold", low=0.0)
        self.decay_rate = _real(decay_rate, op, "decay_rate", 0.0, 1.0, low_open=True,
                                high_open=True)
        self.beta1 = _real(0.0 if beta1 is None else beta1, op, "beta1", low=0.0)
        self.scale_parameter, self.relative_step = bool(scale_parameter), bool(relative_step)
        self.warmup_init, self.compression = bool(warmup_init), bool(compression)
        if self.beta1 > 0:
            self.exp_avg = self.clone_state("exp_avg")
        self.exp_avg_sq_row = self._state("exp_avg_sq_row", lambda s: s[:-1])
        self.exp_avg_sq_col = self._state("exp_avg_sq_col", lambda s: s[:-2] + s[-1:])
        self.exp_avg_sq = self._state("exp_avg_sq", lambda s: (1,), factored=False)

    def _state(self, prefix: str, factored_shape, factored=True) -> ParameterTuple:
        """Zeros of factored_shape(param shape) for matrices, of the parameter's shape (or one
        element where the state is unused) for vectors."""
        def shape(p):
            matrix = len(p.shape) > 1
            if matrix == factored:
                return tuple(factored_shape(tuple(p.shape))) if matrix else tuple(p.shape)
            return (1,)
        return ParameterTuple(Parameter(Tensor(np.zeros(shape(p), p.dtype.np), p.dtype),
                                        name=f"{prefix}_{p.name}", requires_grad=False)
                              for p in self.parameters)

    def update(self, index, param, grad, lr, step):
        t = F.cast(F.add(step, 1), param.dtype)
        if self.relative_step:
            lr = F.minimum(F.mul(t, 1e-6) if self.warmup_init else 1e-2, F.rsqrt(t))
        lr = _lr_like(lr, param)
        if self.scale_parameter:
            lr = F.mul(lr, F.maximum(_rms(param), self.eps[1]))
        beta2t = F.sub(1.0, F.pow(t, -self.decay_rate))
        squared = F.add(F.square(grad), self.eps[0])
        if len(param.shape) > 1:
            row = assign(self.exp_avg_sq_row[index], _average(
                self.exp_avg_sq_row[index], F.reduce_mean(squared, -1), beta2t))
            col = assign(self.exp_avg_sq_col[index], _average(
                self.exp_avg_sq_col[index], F.reduce_mean(squared, -2), beta2t))
            row_factor = F.rsqrt(F.div(row, F.reduce_mean(row, -1, True)))
            update = F.mul(F.mul(F.expand_dims(row_factor, -1),
                                 F.expand_dims(F.rsqrt(col), -2)), grad)
        else:
            v = assign(self.exp_avg_sq[index], _average(self.exp_avg_sq[index], squared, beta2t))
            update = F.mul(F.rsqrt(v), grad)
        clip = F.maximum(F.div(_rms(update), self.clip_threshold), 1.0)
        update = F.mul(F.div(update, clip), lr)
        if self.beta1 > 0:
            update = assign(self.exp_avg[index], F.add(F.mul(self.exp_avg[index], self.beta1),
                                                       F.mul(update, 1 - self.beta1)))
        new = param
        if self.weight_decay:
            new = F.sub(new, F.mul(F.mul(param, self.weight_decay), lr))
        assign(param, F.sub(new, update))


def _average(state, value, beta2t):
    """beta2t * state + (1 - beta2t) * value."""
    return F.add(F.mul(state, beta2t), F.mul(value, F.sub(1.0, beta2t)))
