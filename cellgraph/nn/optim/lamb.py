"""nn.Lamb: Adam moments with a per-tensor trust ratio."""
from __future__ import annotations

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F

from .optimizer import Optimizer, _is_zero, _like, _lr_like, _real

__all__ = ["Lamb"]


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
        decay = self._step_decays[index]
        if not _is_zero(decay):
            ratio = F.add(ratio, F.mul(param, _like(decay, param)))
        w_norm, r_norm = F.norm(param), F.norm(ratio)
        usable = F.logical_and(F.greater(w_norm, 0), F.greater(r_norm, 0))
        trust = F.select(usable, F.div(w_norm, F.select(usable, r_norm, F.ones_like(r_norm))),
                         F.ones_like(w_norm))
        assign(param, F.sub(param, F.mul(F.mul(_lr_like(lr, param), trust), ratio)))
