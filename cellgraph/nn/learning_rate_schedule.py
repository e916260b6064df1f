"""Learning-rate schedules: Cells mapping the optimizer's step (its int32 `global_step` of
shape (1,), 0 on the first update) to a learning rate, as MindSpore's `nn.LearningRateSchedule`."""
from __future__ import annotations

import math

from cellgraph import _checkparam as validator
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


def _float(value, op: str, name: str) -> None:
    if not isinstance(value, float):
        raise DTypeError(f"For '{op}', the argument '{name}' must be type of float, but got "
                         f"'{name}' type: {type(value)}.")


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
        # MindSpore's checks: an int count, float rates, a bool flag (TypeError otherwise)
        validator.check_positive_int(decay_steps, "decay_steps", op)
        validator.check_positive_float(learning_rate, "learning_rate", op)
        validator.check_positive_float(decay_rate, "decay_rate", op)
        validator.check_value_type("is_stair", is_stair, [bool], op)
        self.learning_rate, self.decay_rate = learning_rate, decay_rate
        self.decay_steps, self.is_stair = decay_steps, is_stair

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
        _float(min_lr, op, "min_lr")
        validator.check_non_negative_float(min_lr, "min_lr", op)
        validator.check_positive_float(max_lr, "max_lr", op)
        validator.check_positive_int(decay_steps, "decay_steps", op)
        if min_lr >= max_lr:
            raise ArgumentValueError(f"For '{op}', the 'max_lr' must be greater than the "
                                     f"'min_lr', but got 'max_lr' value: {max_lr}, 'min_lr' "
                                     f"value: {min_lr}.")
        self.min_lr, self.max_lr, self.decay_steps = min_lr, max_lr, decay_steps

    def construct(self, global_step):
        progress = F.div(F.minimum(_float_step(global_step), float(self.decay_steps)),
                         float(self.decay_steps))
        cosine = F.add(F.cos(F.mul(progress, math.pi)), 1.0)
        return F.add(self.min_lr, F.mul(cosine, 0.5 * (self.max_lr - self.min_lr)))


class PolynomialDecayLR(LearningRateSchedule):
    """(learning_rate - end_learning_rate) (1 - min(step, decay_steps) / decay_steps) ** power
    + end_learning_rate; with update_decay_steps the step is not capped and decay_steps grows
    to the next multiple of itself past the step."""

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power,
                 update_decay_steps=False):
        super().__init__()
        op = "PolynomialDecayLR"
        validator.check_positive_float(learning_rate, "learning_rate")
        _float(end_learning_rate, op, "end_learning_rate")
        validator.check_non_negative_float(end_learning_rate, "end_learning_rate", op)
        validator.check_positive_int(decay_steps, "decay_steps", op)
        validator.check_value_type("update_decay_steps", update_decay_steps, [bool], op)
        validator.check_positive_float(power, "power", op)
        self.learning_rate, self.end_learning_rate = learning_rate, end_learning_rate
        self.decay_steps, self.power = decay_steps, power
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step):
        step, decay_steps = _float_step(global_step), float(self.decay_steps)
        if self.update_decay_steps:
            decay_steps = F.mul(F.maximum(F.ceil(F.div(step, decay_steps)), 1.0), decay_steps)
        else:
            step = F.minimum(step, decay_steps)
        progress = F.div(step, decay_steps)
        scale = F.pow(F.sub(1.0, progress), self.power)
        return F.add(F.mul(scale, self.learning_rate - self.end_learning_rate),
                     self.end_learning_rate)


class WarmUpLR(LearningRateSchedule):
    """learning_rate * min(step, warmup_steps) / warmup_steps."""

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        _float(learning_rate, "WarmUpLR", "learning_rate")
        validator.check_non_negative_float(learning_rate, "learning_rate", "WarmUpLR")
        validator.check_positive_int(warmup_steps, "warmup_steps", "WarmUpLR")
        self.learning_rate, self.warmup_steps = learning_rate, warmup_steps

    def construct(self, global_step):
        progress = F.div(F.minimum(_float_step(global_step), float(self.warmup_steps)),
                         float(self.warmup_steps))
        return F.mul(progress, self.learning_rate)
