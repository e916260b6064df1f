"""Learning-rate schedules: Cells mapping the optimizer's step (an int32 scalar Tensor,
0 on the first update) to a learning rate, as MindSpore's `nn.LearningRateSchedule`."""
from __future__ import annotations

import math
import numbers

from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

from .cell import Cell

__all__ = [
    "CosineDecayLR",
    "ExponentialDecayLR",
    "InverseDecayLR",
    "LearningRateSchedule",
    "NaturalExpDecayLR",
    "PolynomialDecayLR",
    "WarmUpLR",
]


def _number(value, op: str, name: str, positive=False) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise DTypeError(f"{op}: `{name}` must be a number, got {type(value).__name__}")
    if positive and value <= 0:
        raise ArgumentValueError(f"{op}: `{name}` must be > 0, got {value}")
    return float(value)


def _steps(value, op: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ArgumentValueError(f"{op}: `{name}` must be an int >= 1, got {value!r}")
    return int(value)


class LearningRateSchedule(Cell):
    """Base class: `construct(global_step)` returns the learning rate for that step."""

    def construct(self, global_step):
        raise NotImplementedError(f"{type(self).__name__} must define construct(global_step)")


def _float_step(step):
    return F.cast(step, dt.float32)


class _DecayLR(LearningRateSchedule):
    """The schedules of (learning_rate, decay_rate, decay_steps, is_stair), with MindSpore's
    checks; `_progress(step)` is step / decay_steps, floored if is_stair."""

    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        op = type(self).__name__
        self.learning_rate = _number(learning_rate, op, "learning_rate", positive=True)
        self.decay_rate = _number(decay_rate, op, "decay_rate", positive=True)
        self.decay_steps = _steps(decay_steps, op, "decay_steps")
        self.is_stair = bool(is_stair)

    def _progress(self, global_step):
        progress = F.div(_float_step(global_step), float(self.decay_steps))
        return F.sub(progress, _fraction(progress)) if self.is_stair else progress


class ExponentialDecayLR(_DecayLR):
    """learning_rate * decay_rate ** (step / decay_steps) (the exponent floored if is_stair)."""

    def construct(self, global_step):
        return F.mul(self.learning_rate, F.pow(self.decay_rate, self._progress(global_step)))


class NaturalExpDecayLR(_DecayLR):
    """learning_rate * e ** (-decay_rate * step), the step floored to a multiple of
    decay_steps if is_stair (MindSpore's definition: the step is not divided by
    decay_steps)."""

    def construct(self, global_step):
        step = _float_step(global_step)
        if self.is_stair:
            step = F.mul(self._progress(global_step), float(self.decay_steps))
        return F.mul(self.learning_rate, F.pow(math.e, F.mul(step, -self.decay_rate)))


class InverseDecayLR(_DecayLR):
    """learning_rate / (1 + decay_rate * step / decay_steps) (the quotient floored if
    is_stair)."""

    def construct(self, global_step):
        return F.div(self.learning_rate,
                     F.add(F.mul(self._progress(global_step), self.decay_rate), 1.0))


def _fraction(x):
    """x - floor(x) for x >= 0, by truncating through an integer cast."""
    return F.sub(x, F.cast(F.cast(x, dt.int64), dt.float32))


class CosineDecayLR(LearningRateSchedule):
    """min_lr + (max_lr - min_lr) (1 + cos(pi * min(step, decay_steps) / decay_steps)) / 2."""

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        op = "CosineDecayLR"
        self.min_lr = _number(min_lr, op, "min_lr")
        self.max_lr = _number(max_lr, op, "max_lr", positive=True)
        if self.min_lr < 0 or self.min_lr >= self.max_lr:
            raise ArgumentValueError(f"{op}: expected 0 <= min_lr < max_lr, got min_lr={min_lr}, "
                                     f"max_lr={max_lr}")
        self.decay_steps = _steps(decay_steps, op, "decay_steps")

    def construct(self, global_step):
        progress = F.div(F.minimum(_float_step(global_step), float(self.decay_steps)),
                         float(self.decay_steps))
        cosine = F.add(F.cos(F.mul(progress, math.pi)), 1.0)
        return F.add(self.min_lr, F.mul(cosine, 0.5 * (self.max_lr - self.min_lr)))


class PolynomialDecayLR(LearningRateSchedule):
    """(learning_rate - end_learning_rate) (1 - min(step, decay_steps) / decay_steps) ** power
    + end_learning_rate."""

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power,
                 update_decay_steps=False):
        super().__init__()
        op = "PolynomialDecayLR"
        self.learning_rate = _number(learning_rate, op, "learning_rate", positive=True)
        self.end_learning_rate = _number(end_learning_rate, op, "end_learning_rate")
        self.decay_steps = _steps(decay_steps, op, "decay_steps")
        self.power = _number(power, op, "power", positive=True)
        if update_decay_steps:
            raise ArgumentValueError(f"{op}: update_decay_steps=True is not supported")

    def construct(self, global_step):
        progress = F.div(F.minimum(_float_step(global_step), float(self.decay_steps)),
                         float(self.decay_steps))
        scale = F.pow(F.sub(1.0, progress), self.power)
        return F.add(F.mul(scale, self.learning_rate - self.end_learning_rate),
                     self.end_learning_rate)


class WarmUpLR(LearningRateSchedule):
    """learning_rate * min(step, warmup_steps) / warmup_steps."""

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        self.learning_rate = _number(learning_rate, "WarmUpLR", "learning_rate", positive=True)
        self.warmup_steps = _steps(warmup_steps, "WarmUpLR", "warmup_steps")

    def construct(self, global_step):
        progress = F.div(F.minimum(_float_step(global_step), float(self.warmup_steps)),
                         float(self.warmup_steps))
        return F.mul(progress, self.learning_rate)
