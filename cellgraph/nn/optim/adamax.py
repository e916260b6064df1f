"""nn.AdaMax: Adam with the infinity norm (MindSpore's ApplyAdaMax), state `moment1`,
`moment2` and `beta1_power`."""
from __future__ import annotations

import numpy as np

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Parameter, Tensor

from .optimizer import Optimizer, _lr_like

__all__ = ["AdaMax"]


class AdaMax(Optimizer):
    """beta1_power *= beta1 (once a step); m = beta1 m + (1 - beta1) g;
    v = max(beta2 v, |g|); param -= lr / (1 - beta1_power) * m / (v + eps)."""

    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08,
                 weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        for name, value in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
            if not isinstance(value, float):
                raise DTypeError(f"AdaMax: `{name}` must be a float, got {type(value).__name__}")
        for name, value in (("beta1", beta1), ("beta2", beta2)):
            if not 0.0 < value < 1.0:
                raise ArgumentValueError(f"AdaMax: `{name}` must be in (0, 1), got {value}")
        if eps <= 0:
            raise ArgumentValueError(f"AdaMax: `eps` must be > 0, got {eps}")
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.beta1_power = Parameter(Tensor(np.ones((1,), np.float32)), name="beta1_power")
        self.moment1 = self.clone_state("moment1")
        self.moment2 = self.clone_state("moment2")

    def construct(self, gradients):
        assign(self.beta1_power, F.mul(self.beta1_power, self.beta1))
        return super().construct(gradients)

    def update(self, index, param, grad, lr, step):
        m = assign(self.moment1[index], F.add(F.mul(self.moment1[index], self.beta1),
                                              F.mul(grad, 1 - self.beta1)))
        v = assign(self.moment2[index], F.maximum(F.mul(self.moment2[index], self.beta2),
                                                  F.abs(grad)))
        rate = F.div(_lr_like(lr, param), F.sub(1.0, F.cast(self.beta1_power, param.dtype)))
        assign(param, F.sub(param, F.mul(rate, F.div(m, F.add(v, self.eps)))))
