"""Loss scalers for hand-written training loops (MindSpore 2.x `amp.StaticLossScaler`,
`amp.DynamicLossScaler`) and `all_finite`, the overflow check they are used with:

    loss_scaler = DynamicLossScaler(2 ** 16, 2, 1000)
    loss, grads = grad_fn(x, y)            # grad_fn differentiates loss_scaler.scale(loss)
    grads = loss_scaler.unscale(grads)
    is_finite = all_finite(grads)
    loss_scaler.adjust(is_finite)
"""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.common.assign import assign
from cellgraph.nn.wrap.loss_scale import grads_finite, is_finite
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Parameter, Tensor

__all__ = ["DynamicLossScaler", "LossScaler", "StaticLossScaler", "all_finite"]


def all_finite(inputs):
    """A bool scalar Tensor: True when no element of any Tensor in `inputs` is inf or nan."""
    if not isinstance(inputs, (tuple, list)):
        raise DTypeError(f"all_finite: `inputs` must be a tuple or list of Tensors, got "
                         f"{type(inputs).__name__}")
    return grads_finite(tuple(inputs))


def _tree_map(fn, inputs):
    if isinstance(inputs, (tuple, list)):
        return type(inputs)(_tree_map(fn, x) for x in inputs)
    return fn(inputs)


class LossScaler:
    """Base class: `scale(inputs)`, `unscale(inputs)` and `adjust(grads_finite)`."""

    def scale(self, inputs):
        raise NotImplementedError

    def unscale(self, inputs):
        raise NotImplementedError

    def adjust(self, grads_finite):
        raise NotImplementedError


def _grad_scale_map(scale_value, inputs):
    """Each Tensor of `inputs` (nested tuples, lists, dicts) times `scale_value` in its dtype:
    MindSpore's helper that user LossScaler subclasses call."""
    return _tree_map(lambda x: F.mul(x, F.cast(scale_value, x.dtype)), inputs)


def _grad_unscale_map(scale_value, inputs):
    """Each Tensor of `inputs` divided by `scale_value` (times its reciprocal, in its dtype)."""
    return _tree_map(lambda x: F.mul(x, F.cast(F.reciprocal(scale_value), x.dtype)), inputs)


def _positive(value, op: str, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value <= 0:
        raise ArgumentValueError(f"{op}: `{name}` must be a positive number, got {value!r}")
    return float(value)


class StaticLossScaler(LossScaler):
    """Scales by a fixed `scale_value`."""

    def __init__(self, scale_value):
        self.scale_value = Parameter(Tensor(np.array(_positive(
            scale_value, "StaticLossScaler", "scale_value"), np.float32)), name="scale_value",
            requires_grad=False)

    def scale(self, inputs):
        return _grad_scale_map(self.scale_value, inputs)

    def unscale(self, inputs):
        return _grad_unscale_map(self.scale_value, inputs)

    def adjust(self, grads_finite):
        return False


class DynamicLossScaler(StaticLossScaler):
    """`adjust(grads_finite)`: on overflow the scale becomes max(scale / scale_factor, 1); after
    `scale_window` finite steps in a row it is multiplied by `scale_factor`."""

    def __init__(self, scale_value, scale_factor, scale_window):
        super().__init__(scale_value)
        op = "DynamicLossScaler"
        self.scale_factor = _positive(scale_factor, op, "scale_factor")
        if isinstance(scale_window, bool) or not isinstance(scale_window, numbers.Integral) \
                or scale_window < 1:
            raise ArgumentValueError(f"{op}: `scale_window` must be a positive int, got "
                                     f"{scale_window!r}")
        self.scale_window = int(scale_window)
        self.counter = Parameter(Tensor(np.array(0, np.int32)), name="counter",
                                 requires_grad=False)

    def adjust(self, grads_finite):
        finite = F.cast(grads_finite, dt.bool_)
        scale = self.scale_value
        raised = F.mul(scale, self.scale_factor)
        raised = F.select(is_finite(raised), raised, scale)  # stays finite
        at_window = F.equal(self.counter, self.scale_window - 1)
        lowered = F.maximum(F.div(scale, self.scale_factor), 1.0)
        assign(self.scale_value, F.select(finite, F.select(at_window, raised, scale), lowered))
        counter = F.select(finite, F.add(self.counter, 1), F.zeros((), dt.int32))
        assign(self.counter, F.select(at_window, F.zeros((), dt.int32), counter))
        return True
