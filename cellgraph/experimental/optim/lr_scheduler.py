"""Learning-rate schedulers over an optimizer's parameter groups (PyTorch's rules, in closed
form): `scheduler.step()` after each epoch assigns every group's new "lr"."""
from __future__ import annotations

import bisect
import math

import numpy as np

from cellgraph.primitives.errors import ArgumentValueError

__all__ = ["ConstantLR", "CosineAnnealingLR", "ExponentialLR", "LRScheduler", "LambdaLR",
           "LinearLR", "MultiStepLR", "ReduceLROnPlateau", "SequentialLR", "StepLR"]


def _set_lr(group, value: float) -> None:
    group["lr"].set_data(np.array(value, np.float32))


class LRScheduler:
    """Base: `lr_at(base_lr, epoch)` gives a group's rate at `epoch`; step() advances."""

    def __init__(self, optimizer, last_epoch=-1):
        self.optimizer = optimizer
        self.base_lrs = [g["initial_lr"] for g in optimizer.param_groups]
        self.last_epoch = last_epoch
        self.step()

    def lr_at(self, base_lr: float, epoch: int) -> float:
        raise NotImplementedError

    def get_last_lr(self) -> list:
        return [float(g["lr"].asnumpy()) for g in self.optimizer.param_groups]

    def step(self, epoch=None) -> None:
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        for group, base in zip(self.optimizer.param_groups, self.base_lrs):
            _set_lr(group, self.lr_at(base, self.last_epoch))


class StepLR(LRScheduler):
    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr, epoch):
        return base_lr * self.gamma ** (epoch // self.step_size)


class MultiStepLR(LRScheduler):
    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones, self.gamma = sorted(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr, epoch):
        return base_lr * self.gamma ** bisect.bisect_right(self.milestones, epoch)


class ExponentialLR(LRScheduler):
    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr, epoch):
        return base_lr * self.gamma ** epoch


class LambdaLR(LRScheduler):
    """base_lr * lr_lambda(epoch) (one function, or one per group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        count = len(optimizer.param_groups)
        self.lr_lambdas = list(lr_lambda) if isinstance(lr_lambda, (list, tuple)) else [
            lr_lambda] * count
        if len(self.lr_lambdas) != count:
            raise ArgumentValueError(f"LambdaLR: expected {count} functions, one per group, got "
                                     f"{len(self.lr_lambdas)}")
        self._group = 0
        super().__init__(optimizer, last_epoch)

    def step(self, epoch=None) -> None:
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        for group, base, fn in zip(self.optimizer.param_groups, self.base_lrs, self.lr_lambdas):
            _set_lr(group, base * fn(self.last_epoch))


class CosineAnnealingLR(LRScheduler):
    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr, epoch):
        return self.eta_min + (base_lr - self.eta_min) * (
            1 + math.cos(math.pi * epoch / self.T_max)) / 2


class LinearLR(LRScheduler):
    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5,
                 last_epoch=-1):
        self.start_factor, self.end_factor, self.total_iters = start_factor, end_factor, \
            total_iters
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr, epoch):
        done = min(epoch, self.total_iters) / self.total_iters
        return base_lr * (self.start_factor + (self.end_factor - self.start_factor) * done)


class ConstantLR(LRScheduler):
    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def lr_at(self, base_lr, epoch):
        return base_lr * (self.factor if epoch < self.total_iters else 1.0)


class SequentialLR:
    """schedulers[i] from milestones[i-1] on (each restarted at its own epoch 0)."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        if len(milestones) != len(schedulers) - 1:
            raise ArgumentValueError(f"SequentialLR: expected {len(schedulers) - 1} milestones, "
                                     f"got {len(milestones)}")
        self.optimizer, self.schedulers, self.milestones = optimizer, schedulers, milestones
        self.last_epoch = last_epoch + 1
        schedulers[0].step(0)

    def step(self) -> None:
        self.last_epoch += 1
        index = bisect.bisect_right(self.milestones, self.last_epoch)
        start = self.milestones[index - 1] if index > 0 else 0
        self.schedulers[index].step(self.last_epoch - start)

    def get_last_lr(self) -> list:
        return [float(g["lr"].asnumpy()) for g in self.optimizer.param_groups]


class ReduceLROnPlateau:
    """Multiply the rates by `factor` when the metric passed to step() has not improved for
    more than `patience` epochs (then wait `cooldown` epochs)."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0.0, eps=1e-8):
        if factor >= 1.0:
            raise ArgumentValueError(f"ReduceLROnPlateau: `factor` must be < 1, got {factor}")
        self.optimizer, self.mode, self.factor, self.patience = optimizer, mode, factor, patience
        self.threshold, self.threshold_mode, self.cooldown = threshold, threshold_mode, cooldown
        count = len(optimizer.param_groups)
        self.min_lrs = list(min_lr) if isinstance(min_lr, (list, tuple)) else [min_lr] * count
        self.eps = eps
        self.best = math.inf if mode == "min" else -math.inf
        self.bad_epochs = self.cooldown_counter = 0

    def _improved(self, value: float) -> bool:
        scale = (1 - self.threshold if self.mode == "min" else 1 + self.threshold) \
            if self.threshold_mode == "rel" else None
        if self.mode == "min":
            bound = self.best * scale if scale is not None else self.best - self.threshold
            return value < bound
        bound = self.best * scale if scale is not None else self.best + self.threshold
        return value > bound

    def step(self, metrics) -> None:
        value = float(np.asarray(metrics))
        if self._improved(value):
            self.best, self.bad_epochs = value, 0
        else:
            self.bad_epochs += 1
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.bad_epochs = 0
        if self.bad_epochs > self.patience:
            for group, floor in zip(self.optimizer.param_groups, self.min_lrs):
                old = float(group["lr"].asnumpy())
                new = max(old * self.factor, floor)
                if old - new > self.eps:
                    _set_lr(group, new)
            self.cooldown_counter, self.bad_epochs = self.cooldown, 0

    def get_last_lr(self) -> list:
        return [float(g["lr"].asnumpy()) for g in self.optimizer.param_groups]
