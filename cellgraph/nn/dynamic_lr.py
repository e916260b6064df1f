"""Learning-rate lists, one rate per training step (`mindspore.nn.dynamic_lr`); pass the list
to an optimizer as `learning_rate`. The epoch of step i is floor(i / step_per_epoch)."""
from __future__ import annotations

import math

from cellgraph import _checkparam as validator

__all__ = ["cosine_decay_lr", "exponential_decay_lr", "inverse_decay_lr",
           "natural_exp_decay_lr", "piecewise_constant_lr", "polynomial_decay_lr", "warmup_lr"]


def _epochs(total_step, step_per_epoch):
    return [i // step_per_epoch for i in range(total_step)]


def _float(value, op: str, name: str) -> None:
    if not isinstance(value, float):
        raise TypeError(f"For '{op}', the argument '{name}' must be type of float, but got "
                        f"'{name}' type: {type(value)}.")


def piecewise_constant_lr(milestone, learning_rates) -> list:
    """learning_rates[k] for the steps from milestone[k-1] up to milestone[k]. MindSpore's
    checks: positive int milestones that never decrease, float rates."""
    op = "piecewise_constant_lr"
    validator.check_value_type("milestone", milestone, (tuple, list))
    validator.check_value_type("learning_rates", learning_rates, (tuple, list))
    if len(milestone) != len(learning_rates):
        raise ValueError(f"For '{op}', the size of 'milestone' must be same with the size of "
                         f"'learning_rates', but got 'milestone' size: {len(milestone)}, "
                         f"'learning_rates' size: {len(learning_rates)}.")
    rates, last = [], 0
    for i, (step, rate) in enumerate(zip(milestone, learning_rates)):
        validator.check_positive_int(step, f"milestone[{i}]")
        validator.check_is_float(rate, f"learning_rates[{i}]")
        if step < last:
            raise ValueError(f"For '{op}', the value of milestone[{i}] must be greater than "
                             f"milestone[{i - 1}], but got milestone[{i}]: {step}, "
                             f"milestone[{i - 1}]: {last}.")
        rates += [rate] * (step - last)
        last = step
    return rates


def _decayed(op, learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch, is_stair,
             rule, in_epochs=False) -> list:
    """`rule(lr, decay_rate, progress)` per step: progress is epoch / decay_epoch (floored when
    is_stair), or with `in_epochs` the epoch itself (rounded down to a multiple of decay_epoch
    when is_stair), as MindSpore's natural_exp_decay_lr reads it."""
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    validator.check_positive_int(decay_epoch, "decay_epoch")
    validator.check_positive_float(learning_rate, "learning_rate")
    validator.check_positive_float(decay_rate, "decay_rate")
    validator.check_value_type("is_stair", is_stair, [bool])
    if in_epochs:
        progress = (lambda e: math.floor(e / decay_epoch) * decay_epoch) if is_stair else (
            lambda e: e)
    else:
        progress = (lambda e: math.floor(e / decay_epoch)) if is_stair else (
            lambda e: e / decay_epoch)
    return [rule(learning_rate, decay_rate, progress(e))
            for e in _epochs(total_step, step_per_epoch)]


def exponential_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False) -> list:
    """lr * decay_rate ^ (epoch / decay_epoch) (floored when is_stair)."""
    return _decayed("exponential_decay_lr", learning_rate, decay_rate, total_step,
                    step_per_epoch, decay_epoch, is_stair, lambda lr, r, p: lr * r ** p)


def natural_exp_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                         is_stair=False) -> list:
    """lr * e^(-decay_rate * epoch): MindSpore 2.10 reads decay_epoch only for is_stair (the
    epoch rounded down to a multiple of it), as its docs' formula says."""
    return _decayed("natural_exp_decay_lr", learning_rate, decay_rate, total_step,
                    step_per_epoch, decay_epoch, is_stair,
                    lambda lr, r, p: lr * math.e ** (-r * p), in_epochs=True)


def inverse_decay_lr(learning_rate, decay_rate, total_step, step_per_epoch, decay_epoch,
                     is_stair=False) -> list:
    """lr / (1 + decay_rate * epoch / decay_epoch)."""
    return _decayed("inverse_decay_lr", learning_rate, decay_rate, total_step, step_per_epoch,
                    decay_epoch, is_stair, lambda lr, r, p: lr / (1 + r * p))


def cosine_decay_lr(min_lr, max_lr, total_step, step_per_epoch, decay_epoch) -> list:
    """min_lr + (max_lr - min_lr) (1 + cos(pi * min(epoch, decay_epoch) / decay_epoch)) / 2."""
    op = "cosine_decay_lr"
    _float(min_lr, op, "min_lr")
    validator.check_non_negative_float(min_lr, "min_lr", None)
    validator.check_positive_float(max_lr, "max_lr")
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    validator.check_positive_int(decay_epoch, "decay_epoch")
    if min_lr >= max_lr:
        raise ValueError(f"For '{op}', the 'max_lr' must be greater than the 'min_lr', but got "
                         f"'max_lr' value: {max_lr}, 'min_lr' value: {min_lr}.")
    half = 0.5 * (max_lr - min_lr)
    return [min_lr + half * (1 + math.cos(math.pi * min(e, decay_epoch) / decay_epoch))
            for e in _epochs(total_step, step_per_epoch)]


def polynomial_decay_lr(learning_rate, end_learning_rate, total_step, step_per_epoch,
                        decay_epoch, power, update_decay_epoch=False) -> list:
    """(lr - end) (1 - epoch / decay_epoch) ^ power + end, the epoch capped at decay_epoch
    (or decay_epoch raised to the next multiple past the epoch, with update_decay_epoch)."""
    op = "polynomial_decay_lr"
    validator.check_positive_float(learning_rate, "learning_rate")
    _float(end_learning_rate, op, "end_learning_rate")
    validator.check_non_negative_float(end_learning_rate, "end_learning_rate", None)
    validator.check_positive_float(power, "power")
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    validator.check_positive_int(decay_epoch, "decay_epoch")
    validator.check_value_type("update_decay_epoch", update_decay_epoch, [bool])
    end = end_learning_rate
    rates = []
    for epoch in _epochs(total_step, step_per_epoch):
        if update_decay_epoch:
            span, done = decay_epoch * max(math.ceil(epoch / decay_epoch), 1), epoch
        else:
            span, done = decay_epoch, min(epoch, decay_epoch)
        rates.append((learning_rate - end) * (1 - done / span) ** power + end)
    return rates


def warmup_lr(learning_rate, total_step, step_per_epoch, warmup_epoch) -> list:
    """lr * min(epoch, warmup_epoch) / warmup_epoch."""
    op = "warmup_lr"
    _float(learning_rate, op, "learning_rate")
    validator.check_non_negative_float(learning_rate, "learning_rate", None)
    validator.check_positive_int(warmup_epoch, "warmup_epoch")
    validator.check_positive_int(total_step, "total_step")
    validator.check_positive_int(step_per_epoch, "step_per_epoch")
    return [learning_rate * min(e, warmup_epoch) / warmup_epoch
            for e in _epochs(total_step, step_per_epoch)]
