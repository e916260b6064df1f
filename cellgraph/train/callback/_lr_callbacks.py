"""Callbacks that change the optimizer's learning rate while Model.train runs:
LearningRateScheduler (a function of the current rate and step, after every step) and
ReduceLROnPlateau (the rate times `factor` when a monitored value stops improving). Both write
the optimizer's fixed-rate Parameter with ops.assign, so the compiled step reads the new rate."""
from __future__ import annotations

import math
import numbers

import numpy as np

from cellgraph.common.assign import assign
from cellgraph.runtime.tensor import Tensor

from ._callback import Callback
from ._monitors import _non_negative_int, monitored_value

__all__ = ["LearningRateScheduler", "ReduceLROnPlateau"]


def _fixed_rate(cb_params, op: str):
    optimizer = cb_params.get("optimizer")
    if optimizer is None or getattr(optimizer, "dynamic_lr", True) or \
            getattr(optimizer, "is_group_lr", True):
        raise TypeError(f"{op}: needs an optimizer with one fixed learning rate (a float), "
                        f"not a list or a LearningRateSchedule")
    return optimizer.learning_rate


def _set_rate(rate_parameter, value: float) -> None:
    assign(rate_parameter, Tensor(np.array(value, np.float32)))


class LearningRateScheduler(Callback):
    """After each step, the rate becomes `learning_rate_function(rate, cur_step_num)`."""

    def __init__(self, learning_rate_function):
        if not callable(learning_rate_function):
            raise TypeError(f"LearningRateScheduler: `learning_rate_function` must be "
                            f"callable, got {learning_rate_function!r}")
        self.learning_rate_function = learning_rate_function

    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        rate = _fixed_rate(cb_params, "LearningRateScheduler")
        old = float(rate.asnumpy())
        new = float(self.learning_rate_function(old, cb_params.cur_step_num))
        if not math.isclose(old, new, rel_tol=1e-10):
            _set_rate(rate, new)


class ReduceLROnPlateau(Callback):
    """At each epoch end: when `monitor` has not improved by `min_delta` for `patience`
    epochs, the rate becomes max(rate * factor, min_lr), then `cooldown` epochs pass before
    waiting starts again."""

    def __init__(self, monitor="eval_loss", factor=0.1, patience=10, verbose=False, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0):
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"ReduceLROnPlateau: `mode` must be 'auto', 'min' or 'max', got "
                             f"{mode!r}")
        if isinstance(factor, bool) or not isinstance(factor, numbers.Real) or \
                not 0 <= factor < 1:
            raise ValueError(f"ReduceLROnPlateau: `factor` must be in [0, 1), got {factor!r}")
        self.monitor, self.factor, self.verbose = monitor, float(factor), bool(verbose)
        self.patience = _non_negative_int(patience, "ReduceLROnPlateau", "patience")
        self.cooldown = _non_negative_int(cooldown, "ReduceLROnPlateau", "cooldown")
        self.min_delta, self.min_lr = abs(float(min_delta)), float(min_lr)
        higher_better = mode == "max" or (mode == "auto" and "acc" in monitor)
        self.sign = 1.0 if higher_better else -1.0
        self.best, self.wait, self.cooldown_counter = None, 0, 0

    def on_train_begin(self, run_context):
        self.best, self.wait, self.cooldown_counter = None, 0, 0

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        value = monitored_value(cb_params, self.monitor)
        if value is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.best is None or self.sign * (value - self.best) > self.min_delta:
            self.best, self.wait = value, 0
            return
        if self.cooldown_counter > 0:
            return
        self.wait += 1
        if self.wait < self.patience:
            return
        rate = _fixed_rate(cb_params, "ReduceLROnPlateau")
        old = float(rate.asnumpy())
        if old > self.min_lr:
            new = max(old * self.factor, self.min_lr)
            _set_rate(rate, new)
            if self.verbose:
                print(f"Epoch {cb_params.cur_epoch_num}: ReduceLROnPlateau reducing learning "
                      f"rate to {new}.", flush=True)
        self.cooldown_counter, self.wait = self.cooldown, 0
