"""Learning-rate lists, one rate per training step (`mindspore.nn.dynamic_lr`); pass the list
to an optimizer as `learning_rate`. The epoch of step i is floor(i / step_per_epoch)."""
from __future__ import annotations

import math

from cellgraph.primitives.errors import ArgumentValueError, DTypeError

from .learning_rate_schedule import _number, _steps

__all__ = ["cosine_decay_lr", "exponential_decay_lr", "inverse_decay_lr",
           "natural_exp_decay_lr", "piecewise_constant_lr", "polynomial_decay_lr", "warmup_lr"]


def _epochs(op, total_step, step_per_epoch):
    total_step = _steps(total_step, op, "total_step")
    step_per_epoch = _steps(step_per_epoch, op, "step_per_epoch")
    return [i // step_per_epoch for i in range(total_step)]


def piecewise_constant_lr(milestone, learning_rates) -> list:
    """learning_rates[k] for the steps from milestone[k-1] up to milestone[k]."""
    op = "piecewise_constant_lr"
    if not isinstance(milestone, (tuple, list)) or not isinstance(learning_rates, (tuple, list)):
        raise DTypeError(f"{op}: `milestone` and `learning_rates` must be lists")
    if len(milestone) != len(learning_rates):
        raise ArgumentValueError(f"{op}: expected one learning rate per milestone, got "
                                 f"{len(milestone)} milestones and {len(learning_rates)} rates")
    rates, last = [], 0
    for step, rate in zip(milestone, learning_rates):
        step = _steps(step, op, "milestone")
        if step <= last:
            raise ArgumentValueError(f"{op}: `milestone` must increase, got {list(milestone)}")
        rates += [_number(rate, op, "learning_rates", positive=False)] * (step - last)
        last = step
    return rates


def _decayed(op, learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair,
             rule) -> list:
    learning_rate = _number(learning_rate, op, "learning_rate", positive=True)
    decay_rate = _number(decay_rate, op, "decay_rate", positive=True)
    decay_epoch = _steps(decay_epoch, op, "decay_epoch")
    if not isinstance(is_stair, bool):
        raise DTypeError(f"{op}: `is_stair` must be a bool, got {is_stair!r}")
    progress = (lambda e: math.floor(e / decay_epoch)) if is_stair else (
        lambda e: e / decay_epoch)
    return [rule(learning_rate, decay_rate, progress(e))
            for e in _epochs(op, total_step, step_per_epoch)]


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False) -> list:
    """lr * decay_rate ^ (epoch / decay_epoch) (floored when is_stair)."""
    return _decayed("exponential_decay_lr", learning_rate, decay_rate, total_step,
                    step_per_epoch, decay_epoch, is_stair, lambda lr, r, p: lr * r ** p)


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False) -> list:
    """lr * exp(-decay_rate * epoch / decay_epoch)."""
    return _decayed("natural_exp_decay_lr", learning_rate, decay_rate, total_step,
                    step_per_epoch, decay_epoch, is_stair,
                    lambda lr, r, p: lr * math.exp(-r * p))


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                     is_stair=False) -> list:
    """lr / (1 + decay_rate * epoch / decay_epoch)."""
    return _decayed("inverse_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch,
                    decay_epoch, is_stair, lambda lr, r, p: lr / (1 + r * p))


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch) -> list:
    """min_lr + (max_lr - min_lr) (1 + cos(pi * min(epoch, decay_epoch) / decay_epoch)) / 2."""
    op = "cosine_decay_lr"
    min_lr = _number(min_lr, op, "min_lr", positive=False)
    max_lr = _number(max_lr, op, "max_lr", positive=True)
    if min_lr < 0 or min_lr >= max_lr:
        raise ArgumentValueError(f"{op}: expected 0 <= min_lr < max_lr, got {min_lr}, {max_lr}")
    decay_epoch = _steps(decay_epoch, op, "decay_epoch")
    half = 0.5 * (max_lr - min_lr)
    return [min_lr + half * (1 + math.cos(math.pi * min(e, decay_epoch) / decay_epoch))
            for e in _epochs(op, total_step, step_per_epoch)]


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch,
                        decay_epoch, power, update_decay_epoch=False) -> list:
    """(lr - end) (1 - epoch / decay_epoch) ^ power + end, the epoch capped at decay_epoch
    (or decay_epoch raised to the next multiple past the epoch, with update_decay_epoch)."""
    op = "polynomial_decay_lr"
    learning_rate = _number(learning_rate, op, "learning_rate", positive=True)
    end = _number(end_learning_rate, op, "end_learning_rate", positive=False)
    decay_epoch = _steps(decay_epoch, op, "decay_epoch")
    power = _number(power, op, "power", positive=True)
    rates = []
    for epoch in _epochs(op, total_step, step_per_epoch):
        if update_decay_epoch:
            span, done = decay_epoch * max(math.ceil(epoch / decay_epoch), 1), epoch
        else:
            span, done = decay_epoch, min(epoch, decay_epoch)
        rates.append((learning_rate - end) * (1 - done / span) ** power + end)
    return rates


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch) -> list:
    """lr * min(epoch, warmup_epoch) / warmup_epoch."""
    op = "warmup_lr"
    learning_rate = _number(learning_rate, op, "learning_rate", positive=True)
    warmup_epoch = _steps(warmup_epoch, op, "warmup_epoch")
    return [learning_rate * min(e, warmup_epoch) / warmup_epoch
            for e in _epochs(op, total_step, step_per_epoch)]
