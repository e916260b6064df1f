"""nn.Adam, nn.AdamWeightDecay and AdamW: first and second moments (`moment1`, `moment2`)."""
from __future__ import annotations

import numpy as np

from cellgraph.common.apply_ops import Adam as AdamOp
from cellgraph.common.apply_ops import ApplyAdamWithAmsgradV2
from cellgraph.common.assign import assign
from cellgraph.common.sparse_apply_ops import FusedSparseAdam
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Parameter, Tensor

from .optimizer import Optimizer, _is_zero, _like, _lr_like, _real

__all__ = ["Adam", "AdamOffload", "AdamW", "AdamWeightDecay"]


class _AdamBase(Optimizer):
    keeps_beta_powers = False
    # the moments' attributes and their Parameters' name prefix ("moment1.fc.weight")
    moment_state = (("moment1", "moment1"), ("moment2", "moment2"))

    def __init__(self, params, learning_rate, beta1, beta2, eps, weight_decay, loss_scale):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        op = type(self).__name__
        self.beta1 = _real(beta1, op, "beta1", 0.0, 1.0, low_open=True, high_open=True)
        self.beta2 = _real(beta2, op, "beta2", 0.0, 1.0, low_open=True, high_open=True)
        self.eps = _real(eps, op, "eps", low=0.0, low_open=True)
        if self.keeps_beta_powers:
            # beta1^t and beta2^t, one multiplication a step, as MindSpore's Adam keeps them
            # (before the moments in its checkpoints; optimizers derived from Adam update them
            # in their own construct)
            shape = (1,) if self.use_offload else self.beta_power_shape
            self.beta1_power = Parameter(Tensor(np.ones(shape, np.float32)),
                                         name="beta1_power")
            self.beta2_power = Parameter(Tensor(np.ones(shape, np.float32)),
                                         name="beta2_power")
        for attribute, prefix in self.moment_state:
            setattr(self, attribute, self.clone_state(prefix))

    def moments(self, index, grad):
        """The updated first and second moments (assigned)."""
        moment1, moment2 = (getattr(self, attribute) for attribute, _ in self.moment_state)
        m = assign(moment1[index], F.add(F.mul(moment1[index], self.beta1),
                                         F.mul(grad, 1 - self.beta1)))
        v = assign(moment2[index], F.add(F.mul(moment2[index], self.beta2),
                                         F.mul(F.square(grad), 1 - self.beta2)))
        return m, v

    @staticmethod
    def count(step, param):
        """t = step + 1, the number of this update, in the parameter's dtype."""
        return F.cast(F.add(step, 1), param.dtype)


class Adam(_AdamBase):
    """MindSpore's Adam: lr_t = lr sqrt(1 - beta2^t) / (1 - beta1^t);
    param -= lr_t m / (sqrt(v) + eps). L2 weight decay goes into the gradient.

    MindSpore's keyword options `use_lazy` (update only the rows a sparse gradient touches)
    and `use_offload` (run the update on the host) give the same values on the dense
    gradients computed here, so both are accepted; any other keyword is an error."""

    keeps_beta_powers = True
    beta_power_shape = ()

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0,
                 use_amsgrad=False, **kwargs):
        unknown = set(kwargs) - {"use_lazy", "use_offload"}
        if unknown:
            raise KeyError(f"For 'Adam', invalid keys are passed as kwargs, supported keys are "
                           f"'use_lazy' and 'use_offload', but got {sorted(unknown)}.")
        use_lazy = kwargs.get("use_lazy", False)
        use_offload = kwargs.get("use_offload", False)
        for name, value in (("use_locking", use_locking), ("use_nesterov", use_nesterov),
                            ("use_amsgrad", use_amsgrad), ("use_lazy", use_lazy),
                            ("use_offload", use_offload)):
            if not isinstance(value, bool):
                raise DTypeError(f"For '{type(self).__name__}', the '{name}' must be bool, got "
                                 f"{type(value).__name__}")
        if use_lazy and use_offload:
            raise ArgumentValueError(f"For 'Adam', 'use_lazy' and 'use_offload' can not both be "
                                     f"True.But got use_lazy={use_lazy}, "
                                     f"use_offload={use_offload}.")
        if use_amsgrad and (use_lazy or use_offload):
            raise ArgumentValueError(f"For lazy Adam and Adam with offload, there is no parameter "
                                     f"named 'use_amsgrad'.but got 'use_amsgrad'={use_amsgrad}.")
        self.use_lazy, self.use_offload, self.use_locking = use_lazy, use_offload, use_locking
        super().__init__(params, learning_rate, beta1, beta2, eps, weight_decay, loss_scale)
        self.use_nesterov, self.use_amsgrad = bool(use_nesterov), bool(use_amsgrad)
        if self.use_amsgrad:
            self.vhat = self.clone_state("vhat")
        # MindSpore's update operations, which subclasses call in their construct (the dense
        # and the sparse update; its sparse one runs on the CPU)
        self.opt = ApplyAdamWithAmsgradV2(use_locking) if self.use_amsgrad else \
            AdamOp(use_locking, use_nesterov)
        self.sparse_opt = self.sparse_update(use_locking, use_nesterov)
        self.sparse_opt.set_device("CPU")

    sparse_update = FusedSparseAdam

    def construct(self, gradients):
        assign(self.beta1_power, F.mul(self.beta1_power, self.beta1))
        assign(self.beta2_power, F.mul(self.beta2_power, self.beta2))
        return super().construct(gradients)

    def update(self, index, param, grad, lr, step):
        if param.dtype == dt.float64:  # beyond MindSpore's Adam: float64's own beta^t
            t = self.count(step, param)
            powers = F.pow(self.beta1, t), F.pow(self.beta2, t)
        else:
            powers = self.beta1_power, self.beta2_power
        self._adam_step(index, param, grad, lr, *powers)

    def _apply_adam(self, params, beta1_power, beta2_power, moment1, moment2, lr, gradients):
        """MindSpore's step of Adam on gradients already decayed and scaled, with the bias
        corrections given (what an optimizer derived from Adam calls from its construct)."""
        if moment1 is not self.moment1 or moment2 is not self.moment2:
            raise ArgumentValueError(f"{type(self).__name__}._apply_adam: the moments must be "
                                     f"the optimizer's own moment1 and moment2")
        for index, (param, grad) in enumerate(zip(params, gradients)):
            self._adam_step(index, param, grad, lr[index] if self.is_group_lr else lr,
                            beta1_power, beta2_power)
        return True

    def _adam_step(self, index, param, grad, lr, beta1_power, beta2_power):
        """MindSpore's CPU Adam kernel, in its order of operations (so float32 results agree to
        the bit): m += (g - m)(1 - beta1); v += (g^2 - v)(1 - beta2); param -= lr_t m /
        (sqrt(v) + eps), with 1 - beta in the parameter's dtype."""
        one = np.dtype(param.dtype.np if param.dtype.is_float else np.float32).type
        keep1, keep2 = one(1) - one(self.beta1), one(1) - one(self.beta2)
        m_old, v_old = self.moment1[index], self.moment2[index]
        m = assign(m_old, F.add(m_old, F.mul(F.sub(grad, m_old), keep1)))
        v = assign(v_old, F.add(v_old, F.mul(F.sub(F.square(grad), v_old), keep2)))
        if self.use_amsgrad:
            v = assign(self.vhat[index], F.maximum(self.vhat[index], v))
        b1, b2 = F.cast(beta1_power, param.dtype), F.cast(beta2_power, param.dtype)
        lr_t = F.div(F.mul(_lr_like(lr, param), F.sqrt(F.sub(1, b2))), F.sub(1, b1))
        numerator = F.add(F.mul(m, one(self.beta1)), F.mul(grad, keep1)) \
            if self.use_nesterov else m
        step = F.div(F.mul(lr_t, numerator), F.add(F.sqrt(v), one(self.eps)))
        assign(param, F.sub(param, F.reshape(step, param.shape)))


class AdamOffload(Adam):
    """MindSpore's AdamOffload: Adam whose update runs on the host. The update runs where the
    program runs, so its values are Adam's."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov,
                         weight_decay, loss_scale, use_offload=True)
        self.params = self.parameters


class AdamW(_AdamBase):
    """Adam with decoupled weight decay (Loshchilov & Hutter; PyTorch's AdamW):
    param *= 1 - lr * weight_decay; param -= lr m_hat / (sqrt(v_hat) + eps)."""

    decoupled_weight_decay = True

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 weight_decay=1e-2, loss_scale=1.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, weight_decay, loss_scale)

    def update(self, index, param, grad, lr, step):
        lr = _lr_like(lr, param)
        m, v = self.moments(index, grad)
        t = self.count(step, param)
        m_hat = F.div(m, F.sub(1, F.pow(self.beta1, t)))
        v_hat = F.div(v, F.sub(1, F.pow(self.beta2, t)))
        decayed, decay = param, self._step_decays[index]
        if not _is_zero(decay):
            decayed = F.mul(param, F.sub(1, F.mul(lr, _like(decay, param))))
        step_size = F.div(m_hat, F.add(F.sqrt(v_hat), self.eps))
        assign(param, F.sub(decayed, F.mul(lr, step_size)))


class AdamWeightDecay(_AdamBase):
    """MindSpore's AdamWeightDecay (no bias correction):
    param -= lr (m / (sqrt(v) + eps) + weight_decay * param). Its moments are `moments1` and
    `moments2`, named "adam_m.<param>" and "adam_v.<param>" as in MindSpore's checkpoints."""

    decoupled_weight_decay = True
    moment_state = (("moments1", "adam_m"), ("moments2", "adam_v"))

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, weight_decay, 1.0)

    def update(self, index, param, grad, lr, step):
        m, v = self.moments(index, grad)
        direction = F.div(m, F.add(F.sqrt(v), self.eps))
        decay = self._step_decays[index]
        if not _is_zero(decay):
            direction = F.add(direction, F.mul(param, _like(decay, param)))
        assign(param, F.sub(param, F.mul(_lr_like(lr, param), direction)))
