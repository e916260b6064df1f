"""nn.FTRL: follow-the-regularized-leader with L1 and L2 terms (MindSpore's ApplyFtrl), state
`moments` (the accumulated squared gradients) and `linear`."""
from __future__ import annotations

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

from .optimizer import Optimizer, _lr_like

__all__ = ["FTRL"]


def _float_at_least(value, op: str, name: str, low: float, high=None) -> float:
    if not isinstance(value, float):
        raise DTypeError(f"{op}: `{name}` must be a float, got {type(value).__name__}")
    if value < low or (high is not None and value > high):
        bound = f">= {low}" if high is None else f"<= {high}"
        raise ArgumentValueError(f"{op}: `{name}` must be {bound}, got {value}")
    return value


class FTRL(Optimizer):
    """accum' = accum + g^2; linear += g - (accum'^-p - accum^-p) / lr * w, p = lr_power;
    w = (sign(linear) l1 - linear) / (accum'^-p / lr + 2 l2) where |linear| > l1, else 0.
    The learning rate is a fixed float (no schedule, no groups), as MindSpore requires. This
    is MindSpore's documented rule; its 2.10 CPU kernel instead moves a weight whose `linear`
    is negative by (l1 - linear) / quadratic, i.e. with the sign of the l1 term flipped, which
    only shows when l1 > 0."""

    def __init__(self, params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0,
                 l2=0.0, use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        op = "FTRL"
        if self.dynamic_lr or self.is_group_lr:
            raise ArgumentValueError(f"{op}: dynamic and group learning rates are not supported "
                                     f"in FTRL, as in MindSpore")
        self.initial_accum = _float_at_least(initial_accum, op, "initial_accum", 0.0)
        self.lr = _float_at_least(learning_rate, op, "learning_rate", 0.0)
        if self.lr == 0.0:
            raise ArgumentValueError(f"{op}: `learning_rate` must be > 0, got {learning_rate}")
        self.lr_power = _float_at_least(lr_power, op, "lr_power", float("-inf"), 0.0)
        self.l1 = _float_at_least(l1, op, "l1", 0.0)
        self.l2 = _float_at_least(l2, op, "l2", 0.0)
        if not isinstance(use_locking, bool):
            raise DTypeError(f"{op}: `use_locking` must be a bool, got "
                             f"{type(use_locking).__name__}")
        self.use_locking = use_locking
        self.moments = self.clone_state("moments", initial_accum)
        self.linear = self.clone_state("linear")

    def update(self, index, param, grad, lr, step):
        lr = _lr_like(lr, param)
        power = -self.lr_power
        accum = self.moments[index]
        new_accum = F.add(accum, F.square(grad))
        new_pow = F.pow(new_accum, power)
        sigma = F.div(F.sub(new_pow, F.pow(accum, power)), lr)
        linear = assign(self.linear[index],
                        F.sub(F.add(self.linear[index], grad), F.mul(sigma, param)))
        assign(accum, new_accum)
        shrunk = F.div(F.sub(F.mul(F.sign(linear), self.l1), linear),
                       F.add(F.div(new_pow, lr), 2 * self.l2))
        assign(param, F.select(F.greater(F.abs(linear), self.l1), shrunk, F.zeros_like(param)))
