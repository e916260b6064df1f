"""nn.AdaFactor: factored second moments (row and column averages) for matrices."""
from __future__ import annotations

import numpy as np

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F
from cellgraph.primitives import functional as _core
from cellgraph.primitives.errors import ArgumentValueError
from cellgraph.runtime.tensor import Parameter, ParameterTuple, Tensor

from .optimizer import Optimizer, _is_zero, _like, _lr_like, _real

__all__ = ["AdaFactor"]


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
        # the step count t, as MindSpore's (its checkpoints carry it as "afactor_step")
        self.step = Parameter(Tensor(np.zeros((1,), np.float32)), name="afactor_step")

    def _state(self, prefix: str, factored_shape, factored=True) -> ParameterTuple:
        """Zeros of factored_shape(param shape) for matrices, of the parameter's shape (or one
        element where the state is unused) for vectors."""
        def shape(p):
            matrix = len(p.shape) > 1
            if matrix == factored:
                return tuple(factored_shape(tuple(p.shape))) if matrix else tuple(p.shape)
            return (1,)
        return ParameterTuple(Parameter(Tensor(np.zeros(shape(p), p.dtype.np), p.dtype),
                                        name=f"{prefix}_{p.name}")
                              for p in self.parameters)

    def update(self, index, param, grad, lr, step):
        if index == 0:  # once a step, before the first parameter's update
            self.__dict__["_step_count"] = F.reshape(assign(self.step, F.add(self.step, 1.0)),
                                                     ())
        t = F.cast(self._step_count, param.dtype)
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
            row_factor = F.rsqrt(F.div(row, _core.reduce_mean(row, -1, True)))
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
        decay = self._step_decays[index]
        if not _is_zero(decay):
            new = F.sub(new, F.mul(F.mul(param, _like(decay, param)), lr))
        assign(param, F.sub(new, update))


def _average(state, value, beta2t):
    """beta2t * state + (1 - beta2t) * value."""
    return F.add(F.mul(state, beta2t), F.mul(value, F.sub(1.0, beta2t)))
