"""nn.SGD: stochastic gradient descent with momentum, dampening and Nesterov's variant, with
MindSpore's state: the `momentum` Parameter, `accum` (the velocity) and `stat` (1 until a
parameter's first step with momentum, which takes the gradient as the velocity)."""
from __future__ import annotations

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

from .momentum import momentum_parameter
from .optimizer import Optimizer, _lr_like, _real

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum (the first step's buffer is the
    gradient itself), dampening and Nesterov momentum."""

    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0,
                 weight_decay=0.0, nesterov=False, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        momentum = _real(momentum, "SGD", "momentum", low=0.0)
        self.dampening = _real(dampening, "SGD", "dampening", low=0.0)
        self.nesterov = bool(nesterov)
        if self.dynamic_weight_decay:
            raise DTypeError("For 'SGD', dynamic weight decay is currently not supported, the "
                             "argument 'weight_decay' or 'weight_decay' set in grouped 'params' "
                             "must be float or int type.")
        if self.nesterov and (momentum <= 0 or self.dampening != 0):
            raise ArgumentValueError("SGD: nesterov=True needs momentum > 0 and dampening = 0")
        self.momentum = momentum_parameter(momentum)
        self.accum = self.clone_state("accum")
        self.stat = self.clone_state("stat", init=1.0)

    def update(self, index, param, grad, lr, step):
        """MindSpore's SGD kernel: with momentum > 0 (read from the Parameter at run time) the
        velocity is the gradient on the first step (`stat` > 0), then
        momentum * velocity + (1 - dampening) * gradient."""
        lr = _lr_like(lr, param)
        momentum = F.cast(self.momentum, param.dtype)
        accum, stat = self.accum[index], self.stat[index]
        moving = F.greater(momentum, 0)
        blended = F.add(F.mul(accum, momentum), F.mul(grad, 1 - self.dampening))
        velocity = assign(accum, F.select(moving, F.select(F.greater(stat, 0), grad, blended),
                                          accum))
        assign(stat, F.select(moving, F.zeros_like(stat), stat))
        step_dir = F.add(grad, F.mul(velocity, momentum)) if self.nesterov else velocity
        assign(param, F.sub(param, F.mul(lr, F.select(moving, step_dir, grad))))
