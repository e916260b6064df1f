"""nn.Rprop: resilient backpropagation, steps from the signs of successive gradients only
(MindSpore's rule), state `prev` and `step_size`."""
from __future__ import annotations

from cellgraph.common.assign import assign
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

from .optimizer import Optimizer, _lr_like

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """Per element, s = sign(g * prev): the step size (the learning rate on the first step) is
    multiplied by etaplus where s > 0 and etaminus where s < 0, clipped to `step_sizes`;
    param -= sign(g) * step, except where s < 0, where the gradient counts as 0 (no move, and
    prev becomes 0). Computed in float32, as MindSpore does."""

    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.),
                 weight_decay=0.):
        super().__init__(learning_rate, params, weight_decay)
        if not isinstance(etas, tuple):
            raise DTypeError(f"Rprop: `etas` must be a tuple, got {type(etas).__name__}")
        if len(etas) != 2:
            raise ArgumentValueError(f"Rprop: `etas` must be a tuple of 2, got {len(etas)}")
        if not isinstance(step_sizes, tuple):
            raise DTypeError(f"Rprop: `step_sizes` must be a tuple, got "
                             f"{type(step_sizes).__name__}")
        if len(step_sizes) != 2:
            raise ArgumentValueError(f"Rprop: `step_sizes` must be a tuple of 2, got "
                                     f"{len(step_sizes)}")
        if step_sizes[0] > step_sizes[1]:
            raise ArgumentValueError(f"Rprop: the maximal step size must not be less than the "
                                     f"minimal one, got {step_sizes[0]} > {step_sizes[1]}")
        if not isinstance(etas[0], float) or not 0.0 < etas[0] < 1.0:
            raise ArgumentValueError(f"Rprop: etaminus must be a float in (0, 1), got {etas[0]}")
        if not isinstance(etas[1], float):
            raise DTypeError(f"Rprop: etaplus must be a float, got {type(etas[1]).__name__}")
        if etas[1] <= 1.0:
            raise ArgumentValueError(f"Rprop: etaplus must be > 1.0, got {etas[1]}")
        for name, value in zip(("min_step_sizes", "max_step_sizes"), step_sizes):
            if not isinstance(value, float):
                raise DTypeError(f"Rprop: `{name}` must be a float, got {type(value).__name__}")
        self.etaminus, self.etaplus = etas
        self.step_size_min, self.step_size_max = step_sizes
        self.prev = self.clone_state("prev")
        self.step_size = self.clone_state("step_size")

    def update(self, index, param, grad, lr, step):
        lr = F.cast(_lr_like(lr, param), dt.float32)
        grad32, param32 = F.cast(grad, dt.float32), F.cast(param, dt.float32)
        stored = F.cast(self.step_size[index], dt.float32)
        size = F.select(F.equal(F.add(F.mul(stored, 0.0), F.cast(step, dt.float32)), 0.0),
                        F.add(F.mul(stored, 0.0), lr), stored)
        sign = F.sign(F.mul(grad32, F.cast(self.prev[index], dt.float32)))
        factor = F.select(F.greater(sign, 0.0), F.add(F.mul(sign, 0.0), self.etaplus),
                          F.select(F.less(sign, 0.0), F.add(F.mul(sign, 0.0), self.etaminus),
                                   F.add(F.mul(sign, 0.0), 1.0)))
        size = F.clip_by_value(F.mul(size, factor), self.step_size_min, self.step_size_max)
        moved = F.select(F.equal(factor, self.etaminus), F.zeros_like(grad32), grad32)
        assign(param, F.cast(F.sub(param32, F.mul(F.sign(moved), size)), param.dtype))
        assign(self.prev[index], F.cast(moved, self.prev[index].dtype))
        assign(self.step_size[index], F.cast(size, self.step_size[index].dtype))
