"""nn.ASGD: averaged stochastic gradient descent (Polyak & Juditsky), MindSpore's state
(`mu_<name>`, `eta_<name>`, `ax_.<name>`)."""
from __future__ import annotations

import numpy as np

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import DTypeError
from cellgraph.runtime.tensor import Parameter, ParameterTuple, Tensor

from .optimizer import Optimizer

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """At update t (1 first): eta = lr on the first update; param = param (1 - lambd eta) -
    eta grad; ax (the average) += (param - ax) mu, or ax = param while mu is 1; then
    eta = lr / (1 + lambd lr t)^alpha and mu = 1 / max(1, t - t0). Computed in float32."""

    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        for name, value in (("lambd", lambd), ("alpha", alpha), ("t0", t0)):
            if not isinstance(value, float):
                raise DTypeError(f"For 'ASGD', the type of '{name}' must be float, but got "
                                 f"{type(value).__name__}")
        self.lambd, self.alpha = lambd, alpha
        self.t0 = Tensor(np.array([t0], np.float32))
        self.lens = len(self._parameters)
        self.mu = ParameterTuple(Parameter(Tensor(np.array(1.0, np.float32)), name=f"mu_{p.name}") for p in self._parameters)
        self.eta = ParameterTuple(Parameter(Tensor(np.array(0.0, np.float32)),
                                            name=f"eta_{p.name}")
                                  for p in self._parameters)
        self.ax = self.clone_state("ax_")

    def update(self, index, param, grad, lr, step):
        t = F.cast(F.add(step, 1), dt.float32)
        lr = F.cast(lr, dt.float32)
        mu, eta, ax = self.mu[index], self.eta[index], self.ax[index]
        eta_now = F.select(F.equal(t, 1.0), lr, eta)
        param32 = F.sub(F.mul(F.cast(param, dt.float32), F.sub(1.0, F.mul(eta_now, self.lambd))),
                        F.mul(eta_now, F.cast(grad, dt.float32)))
        new_param = assign(param, F.cast(param32, param.dtype))
        ax32 = F.cast(ax, dt.float32)
        averaged = F.add(ax32, F.mul(F.sub(param32, ax32), mu))
        assign(ax, F.cast(F.select(F.not_equal(mu, 1.0), averaged,
                                   F.cast(new_param, dt.float32)), ax.dtype))
        assign(eta, F.div(lr, F.pow(F.add(1.0, F.mul(F.mul(lr, self.lambd), t)), self.alpha)))
        assign(mu, F.div(1.0, F.reshape(F.maximum(1.0, F.sub(t, self.t0)), ())))
