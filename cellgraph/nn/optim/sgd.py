"""nn.SGD: stochastic gradient descent with momentum, dampening and Nesterov's variant."""
from __future__ import annotations

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

from .optimizer import Optimizer, _lr_like, _real

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum (the first step's buffer is the
    gradient itself), dampening and Nesterov momentum."""

    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0,
                 weight_decay=0.0, nesterov=False, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.momentum = _real(momentum, "SGD", "momentum", low=0.0)
        self.dampening = _real(dampening, "SGD", "dampening", low=0.0)
        self.nesterov = bool(nesterov)
        if self.dynamic_weight_decay:
            raise DTypeError("For 'SGD', dynamic weight decay is currently not supported, the "
                             "argument 'weight_decay' or 'weight_decay' set in grouped 'params' "
                             "must be float or int type.")
        if self.nesterov and (self.momentum <= 0 or self.dampening != 0):
            raise ArgumentValueError("SGD: nesterov=True needs momentum > 0 and dampening = 0")
        if self.momentum > 0:
            self.accum = self.clone_state("accum")

    def update(self, index, param, grad, lr, step):
        lr = _lr_like(lr, param)
        if self.momentum == 0:
            assign(param, F.sub(param, F.mul(lr, grad)))
            return
        accum = self.accum[index]
        blended = F.add(F.mul(accum, self.momentum), F.mul(grad, 1 - self.dampening))
        velocity = assign(accum, F.select(F.equal(step, 0), grad, blended))
        direction = F.add(grad, F.mul(velocity, self.momentum)) if self.nesterov else velocity
        assign(param, F.sub(param, F.mul(lr, direction)))
