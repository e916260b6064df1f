"""Optimizer (parameter groups) and PyTorch's update rules for SGD, Adam and AdamW."""
from __future__ import annotations

import numpy as np

from cellgraph.common.assign import assign
from cellgraph.nn.cell import Cell, StepLock
from cellgraph.ops import functional as F
from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Parameter, ParameterTuple, Tensor

__all__ = ["SGD", "Adam", "AdamW", "Optimizer"]


def _groups(params) -> list[dict]:
    params = list(params)
    if not params:
        raise ArgumentValueError("optimizer got an empty parameter list")
    return params if isinstance(params[0], dict) else [{"params": params}]


class Optimizer(Cell):
    """Base class: `param_groups` (dicts with "params", "lr", ...), `parameters`, `state`
    Parameters made with `clone_state`, and `construct(gradients)` calling `update` per
    parameter with its group."""

    def __init__(self, params, defaults: dict):
        super().__init__(auto_prefix=False)
        self._step_lock = StepLock()  # a step reads and writes the Parameters and state
        self.defaults = dict(defaults)
        self.param_groups = []
        for index, group in enumerate(_groups(params)):
            merged = dict(defaults)
            merged.update(group)
            merged["params"] = list(merged["params"])
            for p in merged["params"]:
                if not isinstance(p, Parameter):
                    raise DTypeError(f"{type(self).__name__}: expected Parameters, got "
                                     f"{type(p).__name__}")
            lr = merged["lr"]
            merged["initial_lr"] = float(lr)
            merged["lr"] = Parameter(Tensor(np.array(lr, np.float32)),
                                     name=f"learning_rate_group_{index}", requires_grad=False)
            self.param_groups.append(merged)
        self.parameters = ParameterTuple(p for g in self.param_groups for p in g["params"])
        self.state_step = Parameter(Tensor(np.array(0, np.int32)), name="state_step",
                                    requires_grad=False)

    def clone_state(self, prefix: str) -> ParameterTuple:
        return self.parameters.clone(prefix, "zeros")

    def add_param_group(self, param_group: dict) -> None:
        raise ArgumentError(f"{type(self).__name__}.add_param_group: the groups are fixed "
                            f"when the optimizer is built; pass every group to the constructor")

    def construct(self, gradients):
        if len(gradients) != len(self.parameters):
            raise ArgumentError(f"{type(self).__name__}: expected {len(self.parameters)} "
                                f"gradients, one per parameter, got {len(gradients)}")
        step = F.add(self.state_step, 1)
        assign(self.state_step, step)
        index = 0
        for group in self.param_groups:
            for param in group["params"]:
                grad = gradients[index]
                if group.get("maximize"):
                    grad = F.neg(grad)
                self.update(index, group, param, grad, F.cast(step, param.dtype))
                index += 1
        return True

    def update(self, index, group, param, grad, step):
        raise NotImplementedError(f"{type(self).__name__} must define update()")


class SGD(Optimizer):
    """PyTorch's SGD: L2 decay in the gradient, momentum buffer = gradient on the first step,
    then momentum * buf + (1 - dampening) * grad; Nesterov optional."""

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0.0,
                 nesterov=False, *, maximize=False):
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ArgumentValueError("SGD: nesterov needs momentum > 0 and dampening = 0")
        super().__init__(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                                  "weight_decay": weight_decay, "nesterov": nesterov,
                                  "maximize": maximize})
        self.momentum_buffer = self.clone_state("momentum_buffer")

    def update(self, index, group, param, grad, step):
        if group["weight_decay"]:
            grad = F.add(grad, F.mul(param, group["weight_decay"]))
        if group["momentum"]:
            buf = self.momentum_buffer[index]
            blended = F.add(F.mul(buf, group["momentum"]), F.mul(grad, 1 - group["dampening"]))
            buf = assign(buf, F.select(F.equal(step, 1), grad, blended))
            grad = F.add(grad, F.mul(buf, group["momentum"])) if group["nesterov"] else buf
        assign(param, F.sub(param, F.mul(F.cast(group["lr"], param.dtype), grad)))


class Adam(Optimizer):
    """PyTorch's Adam: bias-corrected moments, L2 decay in the gradient, optional AMSGrad."""

    decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0,
                 amsgrad=False, *, maximize=False):
        super().__init__(params, {"lr": lr, "betas": tuple(betas), "eps": eps,
                                  "weight_decay": weight_decay, "amsgrad": amsgrad,
                                  "maximize": maximize})
        self.exp_avg = self.clone_state("exp_avg")
        self.exp_avg_sq = self.clone_state("exp_avg_sq")
        self.max_exp_avg_sq = self.clone_state("max_exp_avg_sq")

    def update(self, index, group, param, grad, step):
        lr = F.cast(group["lr"], param.dtype)
        beta1, beta2 = group["betas"]
        current = param
        if group["weight_decay"]:
            if self.decoupled:
                current = F.mul(param, F.sub(1.0, F.mul(lr, group["weight_decay"])))
            else:
                grad = F.add(grad, F.mul(param, group["weight_decay"]))
        m = assign(self.exp_avg[index], F.add(F.mul(self.exp_avg[index], beta1),
                                              F.mul(grad, 1 - beta1)))
        v = assign(self.exp_avg_sq[index], F.add(F.mul(self.exp_avg_sq[index], beta2),
                                                 F.mul(F.square(grad), 1 - beta2)))
        if group["amsgrad"]:
            v = assign(self.max_exp_avg_sq[index], F.maximum(self.max_exp_avg_sq[index], v))
        correction1 = F.sub(1.0, F.pow(beta1, step))
        correction2 = F.sub(1.0, F.pow(beta2, step))
        denom = F.add(F.div(F.sqrt(v), F.sqrt(correction2)), group["eps"])
        assign(param, F.sub(current, F.div(F.mul(F.div(lr, correction1), m), denom)))


class AdamW(Adam):
    """Adam with decoupled weight decay: param *= 1 - lr * weight_decay before the step."""

    decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)
