"""Optimizer (parameter groups) and PyTorch's update rules for SGD, Adam and AdamW."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import numpy as np

from cellgraph.common.assign import assign
from cellgraph.nn.cell import Cell, StepLock
from cellgraph.ops import functional as F
from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Parameter, ParameterTuple, Tensor

__all__ = ["SGD", "Adam", "AdamW", "Optimizer"]


def _base_check(params) -> list:
    """MindSpore's checks of an optimizer's `params`: not None, iterable (a one-shot iterator
    included), not empty."""
    if params is None:
        raise ArgumentValueError("For 'Optimizer', the argument params can not be None.")
    if not isinstance(params, Iterable):
        raise DTypeError(f"For 'Optimizer', the argument params must be Iterable type, but got "
                         f"{type(params)}.")
    params = list(params)
    if not params:
        raise ArgumentValueError("For 'Optimizer', the argument params must not be empty.")
    return params


class Optimizer(Cell):
    """Base class: `param_groups` (dicts with "params", "lr", ...; more added with
    `add_param_group`), `parameters`, `group_start_id` (each group's first index into
    `parameters`), `lrs`, `state` Parameters made with `clone_state`, and
    `construct(gradients)` calling `update` per parameter with its group."""

    def __init__(self, params, defaults: dict):
        super().__init__(auto_prefix=False)
        self._step_lock = StepLock()  # a step reads and writes the Parameters and state
        params = _base_check(params)
        self.defaults = dict(defaults)
        self.state = defaultdict(dict)
        self.param_groups = []
        self.lrs = []
        self.group_start_id = [0]
        self.parameters = ParameterTuple(())
        for group in params if isinstance(params[0], dict) else [{"params": params}]:
            self.add_param_group(group)
        self.state_step = Parameter(Tensor(np.array(0, np.int32)), name="state_step",
                                    requires_grad=False)

    def clone_state(self, prefix: str) -> ParameterTuple:
        return self.parameters.clone(prefix, "zeros")

    def add_param_group(self, param_group: dict) -> None:
        """Add a group (a dict with "params" and its own options; the defaults fill the rest),
        with MindSpore's checks: Parameters in an ordered collection, none already in a
        group."""
        if not isinstance(param_group, dict):
            raise DTypeError("Param group must be a dict.")
        group = dict(param_group)
        params = group["params"]
        if isinstance(params, set):
            raise DTypeError("Optimizer parameters need to be organized in ordered collections, "
                             "but the ordering of tensors in sets will change between runs. "
                             "Please use a list instead.")
        group["params"] = [params] if isinstance(params, Parameter) else list(params)
        for p in group["params"]:
            if not isinstance(p, Parameter):
                raise DTypeError(f"Optimizer can only optimize Parameters, but one of the params "
                                 f"is {type(p).__name__}")
        taken = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in taken for p in group["params"]):
            raise ArgumentValueError("some parameters appear in more than one parameter group.")
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        index = len(self.param_groups)
        lr = group["lr"]
        lr = float(lr.asnumpy()) if isinstance(lr, Tensor) else float(lr)
        group["initial_lr"] = lr
        group["lr"] = Parameter(Tensor(np.array(lr, np.float32)),
                                name=f"learning_rate_group_{index}", requires_grad=False)
        self.param_groups.append(group)
        self.lrs.append(group["lr"])
        self.group_start_id.append(self.group_start_id[-1] + len(group["params"]))
        self.parameters = ParameterTuple(tuple(self.parameters) + tuple(group["params"]))

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
