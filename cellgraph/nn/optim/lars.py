"""nn.LARS: layer-wise adaptive rate scaling around another optimizer (You et al., "Large
Batch Training of Convolutional Networks"), as MindSpore's: each gradient the filter selects is
replaced by trust * (gradient + weight_decay * weight) with
trust = coefficient * |w| / (|g| + weight_decay * |w| + epsilon) (1 where |w| or |g| is 0; with
use_clip, min(trust / lr, 1)), and the wrapped optimizer steps with the new gradients. The
wrapped optimizer's own weight decay and loss scale are taken over by LARS."""
from __future__ import annotations

import numpy as np

from cellgraph.ops import functional as F
from cellgraph.ops.operations.nn_ops import check_lars_attributes, lars_update
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Parameter, Tensor

from .optimizer import Optimizer

__all__ = ["LARS"]


class LARS(Optimizer):
    """`LARS(optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False, lars_filter=...)`:
    the LARS gradients of the parameters `lars_filter` selects (by default those whose names
    hold neither "LayerNorm" nor "bias"), then `optimizer`'s step."""

    def __init__(self, optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False,
                 lars_filter=lambda x: 'LayerNorm' not in x.name and 'bias' not in x.name):
        super().__init__(0.0, [Parameter(Tensor(np.array(0.0, np.float32)), name="fake_param")])
        op = self.cls_name
        if not isinstance(optimizer, Optimizer):
            raise DTypeError(f"For '{op}', the type of 'optimizer' should be 'Optimizer', but "
                             f"got {type(optimizer).__name__}.")
        check_lars_attributes(epsilon, coefficient, use_clip, op, "coefficient")
        if use_clip and optimizer.is_group_lr and optimizer.dynamic_lr:
            raise ArgumentValueError("For 'LARS', if the argument 'use_clip' is set to True, then "
                                     "the dynamic learning rate and group learning rate cannot "
                                     "both be true.")
        self.opt = optimizer
        self.epsilon, self.coefficient, self.use_clip = epsilon, coefficient, use_clip
        self.global_step = optimizer.global_step
        # `_parameters` keeps "fake_param", as there; the wrapped optimizer's Parameters come
        # after it in the tree, as MindSpore registers a ParameterTuple's Parameters by name
        del self.parameters
        self.parameters = optimizer.parameters
        self.lars_flag = tuple(bool(lars_filter(p)) for p in self.parameters)
        self.is_group = optimizer.is_group
        self.learning_rate = Parameter(Tensor(np.array(0.0, np.float32)), name="fake_lr")
        self.decay_flags = optimizer.decay_flags
        self._lars_decays = optimizer._decay_sources
        self.loss_scale = optimizer.loss_scale
        self.reciprocal_scale, self.need_scale = optimizer.reciprocal_scale, \
            optimizer.need_scale
        # the wrapped optimizer steps on LARS's gradients: no decay or scale of its own
        optimizer._decay_sources = (0.0,) * len(optimizer._decay_sources)
        optimizer.decay_flags = (False,) * len(optimizer.decay_flags)
        optimizer.exec_weight_decay = False
        optimizer.loss_scale = 1.0
        optimizer.reciprocal_scale = Tensor(np.array(1.0, np.float32))
        optimizer.need_scale = False

    def construct(self, gradients):
        gradients = self.scale_grad(self._checked_gradients(gradients))
        rates = self.opt.get_lr() if self.use_clip else self.learning_rate
        decays = self._decays_at_step(self._lars_decays)  # the wrapped optimizer's
        new = []
        for index, (param, grad) in enumerate(zip(self.parameters, gradients)):
            if self.lars_flag[index]:
                decay = decays[index]
                decay = decay / self.loss_scale if isinstance(decay, float) \
                    else F.div(decay, self.loss_scale)
                rate = rates[index] if isinstance(rates, tuple) else rates
                grad = lars_update(param, grad, F.reduce_sum(F.square(param)),
                                   F.reduce_sum(F.square(grad)), decay, rate, self.epsilon,
                                   self.coefficient, self.use_clip)
            new.append(grad)
        return self.opt(tuple(new))
