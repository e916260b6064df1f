"""Training with loss scaling: TrainOneStepWithLossScaleCell and the Cells that update the scale.

In float16 small gradients underflow to zero; multiplying the loss by a large scale before
differentiating keeps them representable, and the gradients are divided by the scale before the
optimizer sees them. When a scaled gradient overflows (inf or nan), the step is skipped: the
optimizer's update is computed in the same graph but every Parameter it assigns keeps its old
value (a `select` on the overflow flag). DynamicLossScaleUpdateCell then lowers the scale,
and raises it again after `scale_window` steps without overflow. Subclasses that write their own
construct, as the model zoo's BERT cells do, use start_overflow_check / get_overflow_status /
process_loss_scale and may call the optimizer under `if not overflow:` (a Tensor `if`, whose
Parameter updates are merged by the switch).
"""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.autograd import value_and_grad
from cellgraph.common.assign import depend
from cellgraph.compiler.builder import Tracer, current_builder
from cellgraph.compiler.ir import Constant
from cellgraph.ops import functional as F
from cellgraph.ops.composite import HyperMap
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Parameter, Tensor

from ..cell import Cell
from .cell_wrapper import TrainOneStepCell

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell",
           "TrainOneStepWithLossScaleCell"]


def grads_finite(grads):
    """A bool scalar: every element of every gradient is finite (|g| < inf is false for inf
    and for nan, and the largest |g| carries a nan along)."""
    largest = None
    for g in grads:
        top = F.reduce_max(F.abs(F.cast(g, dt.float32)))
        largest = top if largest is None else F.maximum(largest, top)
    if largest is None:
        return Tensor(np.array(True))
    return F.less(largest, float("inf"))


def is_finite(x):
    return F.less(F.abs(x), float("inf"))


def _scalar(value, op: str, name: str, low: float) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value < low:
        raise ArgumentValueError(f"{op}: `{name}` must be a number >= {low}, got {value!r}")
    return float(value)


class DynamicLossScaleUpdateCell(Cell):
    """construct(loss_scale, overflow): on overflow the scale Parameter becomes
    max(scale / scale_factor, 1); after `scale_window` steps without overflow it is multiplied
    by `scale_factor`. Returns `overflow`."""

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        op = "DynamicLossScaleUpdateCell"
        self.loss_scale_value = _scalar(loss_scale_value, op, "loss_scale_value", 1.0)
        self.scale_factor = _scalar(scale_factor, op, "scale_factor", 1.0)
        self.scale_window = int(_scalar(scale_window, op, "scale_window", 1))
        # MindSpore's state (its checkpoints carry it): the step count from 1, and the step of
        # the last overflow or growth
        self.cur_iter = Parameter(Tensor(np.array(1, np.int32)), name="current_iterator_step")
        self.last_overflow_iter = Parameter(Tensor(np.array(0, np.int32)),
                                            name="last_overflow_iterator_step")

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        from cellgraph.common.assign import assign

        # MindSpore's rule: down by scale_factor (not below 1) on an overflow; up by it once
        # scale_window steps have passed since the last overflow or growth without one
        lowered = F.select(overflow, F.maximum(F.div(loss_scale, self.scale_factor), 1.0),
                           loss_scale)
        grow = F.less_equal(self.scale_window, F.sub(self.cur_iter, self.last_overflow_iter))
        assign(self.last_overflow_iter, F.select(F.logical_or(overflow, grow), self.cur_iter,
                                                 self.last_overflow_iter))
        assign(loss_scale, F.select(F.logical_and(grow, F.logical_not(overflow)),
                                    F.mul(lowered, self.scale_factor), lowered))
        assign(self.cur_iter, F.add(self.cur_iter, 1))
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """A scale that never changes: construct(loss_scale, overflow) returns `overflow`."""

    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = _scalar(loss_scale_value, "FixedLossScaleUpdateCell",
                                        "loss_scale_value", 1.0)

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        return overflow


class _ScaledLoss(Cell):
    """(loss * scale, loss): differentiating the first output gives scaled gradients."""

    def __init__(self, network):
        super().__init__(auto_prefix=False)
        self.network = network

    def construct(self, *inputs_and_scale):
        *inputs, scale = inputs_and_scale
        loss = self.network(*inputs)
        return F.mul(loss, F.cast(scale, loss.dtype)), loss


class TrainOneStepWithLossScaleCell(TrainOneStepCell):
    """One training step with loss scaling. `scale_sense` is a Tensor (a fixed scale, changed
    with `set_sense_scale`) or an update Cell (DynamicLossScaleUpdateCell,
    FixedLossScaleUpdateCell). Returns (loss, overflow, scale)."""

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(network, optimizer, sens=None)
        self.loss_scaling_manager = None
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            value = np.array(scale_sense.get_loss_scale(), np.float32)
        elif isinstance(scale_sense, Tensor):
            if scale_sense.shape not in ((), (1,)):
                raise ArgumentValueError(f"TrainOneStepWithLossScaleCell: `scale_sense` must "
                                         f"have shape () or (1,), got {scale_sense.shape}")
            value = scale_sense.asnumpy().astype(np.float32)
        else:
            raise DTypeError(f"TrainOneStepWithLossScaleCell: `scale_sense` must be a Cell or "
                             f"a Tensor, got {type(scale_sense).__name__}")
        self.scale_sense = Parameter(Tensor(value), name="scale_sense")
        self.grad_fn = value_and_grad(_ScaledLoss(network), grad_position=None,
                                      weights=self.weights, has_aux=True)
        # what subclasses that write their own construct use (the model zoo's BERT cells)
        self.hyper_map = HyperMap()

    def set_sense_scale(self, sens):
        """Set the loss scale (a Tensor of shape () or (1,))."""
        self.scale_sense.set_data(np.asarray(sens.asnumpy() if isinstance(sens, Tensor)
                                             else sens, np.float32).reshape(self.scale_sense.shape))

    def start_overflow_check(self, pre_cond, compute_input):
        """(status, compute_input): the status that get_overflow_status reads. Overflow is
        found from the gradients themselves (no device flag register), so the status is a
        placeholder ordered after `pre_cond`, and `compute_input` passes through."""
        status = F.zeros((8,), dt.float32)
        return depend(status, pre_cond), depend(compute_input, status)

    def get_overflow_status(self, status, compute_output):
        """A bool scalar: some element of the Tensors in `compute_output` is inf or nan."""
        leaves = compute_output if isinstance(compute_output, (tuple, list)) else (
            compute_output,)
        return depend(F.logical_not(grads_finite(leaves)), status)

    def process_loss_scale(self, overflow):
        """The update Cell's verdict on `overflow` (it adjusts the scale); `overflow` itself
        when the scale is a fixed Tensor."""
        if self.loss_scaling_manager is None:
            return overflow
        return self.loss_scaling_manager(self.scale_sense, overflow)

    def construct(self, *inputs):
        scale = self.scale_sense
        (_, loss), grads = self.grad_fn(*inputs, scale)
        grads = tuple(F.div(g, F.cast(scale, g.dtype)) for g in grads)
        grads = self.grad_reducer(grads)
        overflow = F.logical_not(grads_finite(grads))
        if self.loss_scaling_manager is not None:
            overflow = self.loss_scaling_manager(scale, overflow)
        run_unless(overflow, lambda: self.optimizer(grads))
        return loss, overflow, scale


def run_unless(condition, update) -> None:
    """Run `update()` (which assigns Parameters) unless the bool scalar `condition` is true.

    Eagerly this is an `if`. In a graph the update is traced unconditionally and each value it
    assigns becomes select(condition, value before, value after)."""
    builder = current_builder()
    if builder is None:
        if not bool(np.asarray(condition.asnumpy() if hasattr(condition, "asnumpy")
                               else condition)):
            update()
        return
    before = dict(builder.updates)
    update()
    for key, (param, new) in list(builder.updates.items()):
        old = before[key][1] if key in before else builder.parameter_atom(param, False)
        if old is new:
            continue
        kept = F.select(condition, _as_value(builder, old), _as_value(builder, new))
        builder.updates[key] = (param, builder.atom(kept))


def _as_value(builder, atom):
    return atom.value if isinstance(atom, Constant) else Tracer(builder, atom)
