"""Loss-scale managers for `Model` (`loss_scale_manager=`): FixedLossScaleManager and
DynamicLossScaleManager. Each says how `Model` builds its training step: with
`drop_overflow_update=False` a fixed scale is handed to the optimizer (`loss_scale`) and the
plain TrainOneStepCell is used; otherwise the step is a TrainOneStepWithLossScaleCell driven by
`get_update_cell()`."""
from __future__ import annotations

import numbers

from cellgraph.nn.wrap.loss_scale import DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell
from cellgraph.primitives.errors import ArgumentValueError

__all__ = ["DynamicLossScaleManager", "FixedLossScaleManager", "LossScaleManager"]


def _at_least(value, low, op: str, name: str, integral=False):
    kind = numbers.Integral if integral else numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind) or value < low:
        raise ArgumentValueError(f"{op}: `{name}` must be {'an int' if integral else 'a number'}"
                                 f" >= {low}, got {value!r}")
    return value


class LossScaleManager:
    """Base class: get_loss_scale, update_loss_scale, get_update_cell."""

    def get_loss_scale(self):
        raise NotImplementedError

    def update_loss_scale(self, overflow):
        raise NotImplementedError

    def get_update_cell(self):
        raise NotImplementedError


class FixedLossScaleManager(LossScaleManager):
    """A constant scale. With `drop_overflow_update` (default True) a step whose gradients
    overflow is skipped; without it, the optimizer divides the gradients by the scale."""

    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        # kept as given (an int stays an int), as MindSpore keeps it
        self._loss_scale = _at_least(loss_scale, 1, "FixedLossScaleManager", "loss_scale")
        self._drop_overflow_update = bool(drop_overflow_update)

    def get_loss_scale(self):
        return self._loss_scale

    def get_drop_overflow_update(self):
        return self._drop_overflow_update

    def update_loss_scale(self, overflow):
        """The scale is fixed: nothing to update."""

    def get_update_cell(self):
        if not self._drop_overflow_update:
            return None
        return FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """A scale lowered by `scale_factor` on overflow (the step skipped) and raised by it after
    `scale_window` steps without one."""

    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        op = "DynamicLossScaleManager"
        self.loss_scale = _at_least(init_loss_scale, 1, op, "init_loss_scale")  # as given
        self.scale_factor = float(_at_least(scale_factor, 1, op, "scale_factor"))
        self.scale_window = int(_at_least(scale_window, 1, op, "scale_window", integral=True))
        self.increase_ratio = self.scale_factor
        self.decrease_ratio = 1 / self.scale_factor
        self.cur_iter = 1
        self.last_overflow_iter = 0

    def get_loss_scale(self):
        return self.loss_scale

    def get_drop_overflow_update(self):
        return True

    def update_loss_scale(self, overflow):
        """The Python-side rule, for loops that manage the scale themselves."""
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, 1)
            self.last_overflow_iter = self.cur_iter
        elif (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
            self.loss_scale *= self.increase_ratio
        self.cur_iter += 1

    def get_update_cell(self):
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)
