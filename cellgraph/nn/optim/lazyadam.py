"""nn.LazyAdam: Adam that, for a sparse gradient, updates only the rows it touches. The
gradients computed here are dense, where LazyAdam's update is Adam's."""
from __future__ import annotations

from cellgraph.common.sparse_apply_ops import FusedSparseLazyAdam
from cellgraph.primitives.errors import DTypeError

from .adam import Adam

__all__ = ["LazyAdam"]


class LazyAdam(Adam):
    """MindSpore's LazyAdam: on dense gradients, Adam's update; its state is MindSpore's
    (`moment1`, `moment2`, and Adam's `beta1_power`, `beta2_power`, of shape (1,) as there),
    so checkpoints line up."""

    beta_power_shape = (1,)
    sparse_update = FusedSparseLazyAdam  # its `sparse_opt`, as MindSpore's

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        for name, value in (("use_locking", use_locking), ("use_nesterov", use_nesterov)):
            if not isinstance(value, bool):
                raise DTypeError(f"LazyAdam: `{name}` must be a bool, got "
                                 f"{type(value).__name__}")
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov,
                         weight_decay, loss_scale)
