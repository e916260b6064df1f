"""Gradient accumulation (mindspore.boost.grad_accumulation): average the gradients of
`max_accumulation_step` steps in buffers, and let the optimizer apply the average once.

`gradient_accumulation_op(step_count, buffer, grad)` adds grad / step_count to the buffer and
`gradient_clear_op(buffer)` zeroes it; both are overloads run over every parameter with
HyperMap, as MindSpore writes them."""
from __future__ import annotations

import numbers

from cellgraph import ops
from cellgraph.nn.cell import Cell, StepLock
from cellgraph.nn.wrap.loss_scale import run_unless
from cellgraph.ops.composite import HyperMap, MultitypeFuncGraph
from cellgraph.primitives import dtype as dt
from cellgraph.runtime.tensor import Parameter, Tensor

__all__ = ["GradientAccumulation", "gradient_accumulation_op", "gradient_clear_op"]

gradient_accumulation_op = MultitypeFuncGraph("gradient_accumulation_op")


@gradient_accumulation_op.register("Int64", "Tensor", "Tensor")
def _accumulate(accumulation_step, cumulative_grad, grad):
    """cumulative_grad += grad / accumulation_step, in place."""
    return ops.AssignAdd()(cumulative_grad, grad / accumulation_step)


gradient_clear_op = MultitypeFuncGraph("gradient_clear_op")


@gradient_clear_op.register("Tensor")
def _clear(cumulative_grad):
    """cumulative_grad = 0, in place."""
    return ops.assign(cumulative_grad, ops.zeros_like(cumulative_grad))


class GradientAccumulation(Cell):
    """`construct(loss, grads)`: adds grads / max_accumulation_step to the buffers; every
    `max_accumulation_step`-th call runs `optimizer` on the buffers (their mean) and clears
    them. Returns the loss."""

    def __init__(self, max_accumulation_step, optimizer):
        super().__init__(auto_prefix=False)
        if isinstance(max_accumulation_step, bool) or not isinstance(
                max_accumulation_step, numbers.Integral) or max_accumulation_step < 1:
            raise ValueError(f"GradientAccumulation: `max_accumulation_step` must be a positive "
                             f"int, got {max_accumulation_step!r}")
        self._max_accumulation_step = int(max_accumulation_step)
        self._step_lock = StepLock()  # adds to the buffers and may apply them: one at a time
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.hyper_map = HyperMap()
        self._grad_accumulation = self.weights.clone(prefix="grad_accumulation", init="zeros")
        self._accumulation_step = Parameter(Tensor(0, dt.int32), name="accumulation_step")

    def construct(self, loss, grads):
        loss = ops.depend(loss, self.hyper_map(
            ops.partial(gradient_accumulation_op, self._max_accumulation_step),
            self._grad_accumulation, grads))
        count = self._accumulation_step + 1
        due = count >= self._max_accumulation_step
        ops.assign(self._accumulation_step, ops.select(due, ops.zeros_like(count), count))

        def apply_and_clear():
            self.optimizer(self._grad_accumulation)
            self.hyper_map(ops.partial(gradient_clear_op), self._grad_accumulation)

        run_unless(ops.logical_not(due), apply_and_clear)  # a Tensor condition, in graphs too
        return loss
