"""Optimizers: SGD, Momentum, Adam, AdamW, AdamWeightDecay.

An optimizer is a Cell whose construct takes one gradient per parameter and updates the
parameters and its own state in place with `ops.assign`; inside TrainOneStepCell that makes the
forward pass, the backward pass and the update one compiled graph. State (moments, the step
counter) are Parameters with requires_grad=False, named like MindSpore's ("moment1.fc1.weight",
"global_step"), so checkpoints carry them.

The learning rate is a float (kept in a Parameter "learning_rate"), a list/array of per-step
rates, or a callable of the step (an `nn.LearningRateSchedule` Cell or a function taking the
int32 step Tensor, 0 on the first update).
"""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.common.assign import assign
from cellgraph.compiler.builder import current_builder
from cellgraph.compiler.frontend import trace_call
from cellgraph.ops import functional as F
from cellgraph.ops.core import fmt_shape
from cellgraph.ops.errors import ArgumentError, ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Parameter, ParameterTuple, Tensor

from .cell import Cell

__all__ = ["SGD", "Adam", "AdamW", "AdamWeightDecay", "Momentum", "Optimizer",
           "opt_init_args_register"]


def opt_init_args_register(fn):
    """Decorator on an optimizer's `__init__`: keeps the arguments it was called with in
    `self.init_args` (name -> value, `self` left out)."""
    import functools
    import inspect

    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def init(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop(next(iter(signature.parameters)))
        object.__setattr__(self, "init_args", arguments)
        return fn(self, *args, **kwargs)

    return init


def _real(value, op: str, name: str, low=None, high=None, low_open=False, high_open=False):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise DTypeError(f"{op}: `{name}` must be a float, got {type(value).__name__} {value!r}")
    value = float(value)
    bad_low = low is not None and (value <= low if low_open else value < low)
    bad_high = high is not None and (value >= high if high_open else value > high)
    if bad_low or bad_high:
        lo = "" if low is None else ("(" if low_open else "[") + f"{low}, "
        hi = "" if high is None else f"{high}" + (")" if high_open else "]")
        where = f"in {lo}{hi}" if low is not None and high is not None else (
            f"{'>' if low_open else '>='} {low}" if low is not None else f"<= {high}")
        raise ArgumentValueError(f"{op}: `{name}` must be {where}, got {value}")
    return value


def _parameter_list(parameters, op: str) -> list:
    if isinstance(parameters, Parameter):
        parameters = [parameters]
    params = list(parameters) if parameters is not None else []
    if not params:
        raise ArgumentValueError(f"{op}: `params` is empty; pass net.trainable_params()")
    for p in params:
        if isinstance(p, dict):
            raise ArgumentValueError(f"{op}: parameter groups (dicts) are not supported; pass "
                                     f"a list of Parameters")
        if not isinstance(p, Parameter):
            raise DTypeError(f"{op}: `params` must hold Parameters, got {type(p).__name__}")
    if len({id(p) for p in params}) != len(params):
        raise ArgumentValueError(f"{op}: `params` lists a Parameter twice")
    names = [p.name for p in params]
    twice = sorted({str(n) for n in names if names.count(n) > 1})
    if twice:
        raise ArgumentValueError(f"{op}: several Parameters are named {', '.join(twice)}; the "
                                 f"optimizer names its state after them, so pass "
                                 f"net.trainable_params(), which names them by their path")
    return params


class Optimizer(Cell):
    """Base class. Subclasses define `update(index, param, grad, lr, step)`."""

    decoupled_weight_decay = False  # AdamW decays the weights itself, not through the gradient

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        op = type(self).__name__
        params = _parameter_list(parameters, op)
        self.parameters = ParameterTuple(params)
        self.weight_decay = _real(weight_decay, op, "weight_decay", low=0.0)
        self.loss_scale = _real(loss_scale, op, "loss_scale", low=0.0, low_open=True)
        # MindSpore's default decay filter: no weight decay for normalisation scales/shifts.
        self.decay_flags = tuple("beta" not in (p.name or "") and "gamma" not in (p.name or "")
                                 for p in params)
        self._init_learning_rate(learning_rate, op)
        self.global_step = Parameter(Tensor(np.array(0, np.int32)), name="global_step",
                                     requires_grad=False)

    def _init_learning_rate(self, learning_rate, op: str) -> None:
        self.lr_kind = "fixed"
        if isinstance(learning_rate, (Cell,)) or (callable(learning_rate) and not isinstance(
                learning_rate, (Tensor, np.ndarray))):
            self.lr_kind = "schedule"
            self.learning_rate = learning_rate
            return
        if isinstance(learning_rate, (list, tuple, np.ndarray, Tensor)):
            rates = np.asarray(learning_rate.asnumpy() if isinstance(learning_rate, Tensor)
                               else learning_rate, np.float32)
            if rates.ndim > 1 or rates.size == 0:
                raise ShapeError(f"{op}: a learning-rate list must be 1-D and non-empty, got "
                                 f"shape {rates.shape}")
            if (rates < 0).any():
                raise ArgumentValueError(f"{op}: learning rates must be >= 0")
            if rates.ndim == 1:
                self.lr_kind = "list"
                self.learning_rate = Parameter(Tensor(rates), name="learning_rate",
                                               requires_grad=False)
                return
            learning_rate = float(rates)
        rate = _real(learning_rate, op, "learning_rate", low=0.0)
        self.learning_rate = Parameter(Tensor(np.array(rate, np.float32)), name="learning_rate",
                                       requires_grad=False)

    # -- state ------------------------------------------------------------------------------
    def clone_state(self, prefix: str, init=0.0) -> ParameterTuple:
        """One state Parameter per parameter, named "prefix.<param name>"."""
        return ParameterTuple(
            Parameter(Tensor(np.full(p.shape, init, p.dtype.np), p.dtype),
                      name=f"{prefix}.{p.name}", requires_grad=False)
            for p in self.parameters)

    # -- one step -----------------------------------------------------------------------------
    def get_lr(self, step=None):
        """The learning rate for `step` (the current step when None)."""
        step = self.global_step if step is None else step
        if self.lr_kind == "fixed":
            return self.learning_rate
        if self.lr_kind == "list":
            last = self.learning_rate.shape[0] - 1
            return F.gather(self.learning_rate, F.minimum(step, last), 0)
        if current_builder() is not None:
            return trace_call(self.learning_rate, (step,))
        return self.learning_rate(step)

    def construct(self, gradients):
        gradients = self._checked_gradients(gradients)
        step = self.global_step
        lr = self.get_lr(step)
        for index, (param, grad) in enumerate(zip(self.parameters, gradients)):
            if self.loss_scale != 1.0:
                grad = F.div(grad, self.loss_scale)
            if self.weight_decay and self.decay_flags[index] and not \
                    self.decoupled_weight_decay:
                grad = F.add(grad, F.mul(param, self.weight_decay))
            self.update(index, param, grad, lr, step)
        assign(self.global_step, F.add(step, 1))
        return True

    def update(self, index, param, grad, lr, step):
        raise NotImplementedError(f"{type(self).__name__} must define construct(gradients) or "
                                  f"update(index, param, grad, lr, step)")

    # -- helpers MindSpore optimizers written by users call from construct ------------------
    def decay_weight(self, gradients) -> tuple:
        """Gradients plus weight_decay * param for the parameters the decay filter selects."""
        if not self.weight_decay:
            return tuple(gradients)
        return tuple(F.add(g, F.mul(p, self.weight_decay)) if flag else g
                     for p, g, flag in zip(self.parameters, gradients, self.decay_flags))

    def scale_grad(self, gradients) -> tuple:
        """Gradients divided by the static loss scale."""
        if self.loss_scale == 1.0:
            return tuple(gradients)
        return tuple(F.div(g, self.loss_scale) for g in gradients)

    def gradients_centralization(self, gradients) -> tuple:
        """Gradient centralisation is enabled per parameter group in MindSpore; without
        groups no parameter asks for it, so the gradients are returned as they are."""
        return tuple(gradients)

    def _checked_gradients(self, gradients) -> tuple:
        op = type(self).__name__
        if not isinstance(gradients, (tuple, list)):
            raise DTypeError(f"{op}: expected a tuple of gradients, one per parameter, got "
                             f"{type(gradients).__name__}")
        if len(gradients) != len(self.parameters):
            raise ArgumentError(f"{op}: expected {len(self.parameters)} gradients, one per "
                                f"parameter, got {len(gradients)}")
        for p, g in zip(self.parameters, gradients):
            if tuple(g.shape) != tuple(p.shape):
                raise ShapeError(f"{op}: the gradient for Parameter '{p.name}' has shape "
                                 f"{fmt_shape(tuple(g.shape))}, expected "
                                 f"{fmt_shape(tuple(p.shape))}")
        return tuple(gradients)


def _lr_like(lr, param):
    return F.cast(lr, param.dtype) if param.dtype.is_float else lr


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum (the first step's buffer is the
    gradient itself), dampening and Nesterov momentum."""

    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0,
                 weight_decay=0.0, nesterov=False, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.momentum = _real(momentum, "SGD", "momentum", low=0.0)
        self.dampening = _real(dampening, "SGD", "dampening", low=0.0)
        self.nesterov = bool(nesterov)
        if self.nesterov and (self.momentum <= 0 or self.dampening != 0):
            raise ArgumentValueError("SGD: nesterov=True needs momentum > 0 and dampening = 0")
        if self.momentum > 0:
            self.accum = self.clone_state("accum")

    def update(self, index, param, grad, lr, step):
        lr = _lr_like(lr, param)
        if self.momentum == 0:
            assign(param, F.sub(param, F.mul(lr, grad)))
            return
        accum = self.accum[index]
        blended = F.add(F.mul(accum, self.momentum), F.mul(grad, 1 - self.dampening))
        velocity = assign(accum, F.select(F.equal(step, 0), grad, blended))
        direction = F.add(grad, F.mul(velocity, self.momentum)) if self.nesterov else velocity
        assign(param, F.sub(param, F.mul(lr, direction)))


class Momentum(Optimizer):
    """v = momentum * v + grad; param -= lr * v (or lr * (grad + momentum * v), Nesterov)."""

    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0,
                 use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.momentum = _real(momentum, "Momentum", "momentum", low=0.0)
        self.use_nesterov = bool(use_nesterov)
        self.moments = self.clone_state("moments")

    def update(self, index, param, grad, lr, step):
        lr = _lr_like(lr, param)
        velocity = assign(self.moments[index],
                          F.add(F.mul(self.moments[index], self.momentum), grad))
        direction = F.add(grad, F.mul(velocity, self.momentum)) if self.use_nesterov \
            else velocity
        assign(param, F.sub(param, F.mul(lr, direction)))


class _AdamBase(Optimizer):
    def __init__(self, params, learning_rate, beta1, beta2, eps, weight_decay, loss_scale):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        op = type(self).__name__
        self.beta1 = _real(beta1, op, "beta1", 0.0, 1.0, low_open=True, high_open=True)
        self.beta2 = _real(beta2, op, "beta2", 0.0, 1.0, low_open=True, high_open=True)
        self.eps = _real(eps, op, "eps", low=0.0, low_open=True)
        self.moment1 = self.clone_state("moment1")
        self.moment2 = self.clone_state("moment2")

    def moments(self, index, grad):
        """The updated first and second moments (assigned)."""
        m = assign(self.moment1[index], F.add(F.mul(self.moment1[index], self.beta1),
                                              F.mul(grad, 1 - self.beta1)))
        v = assign(self.moment2[index], F.add(F.mul(self.moment2[index], self.beta2),
                                              F.mul(F.square(grad), 1 - self.beta2)))
        return m, v

    @staticmethod
    def count(step, param):
        """t = step + 1, the number of this update, in the parameter's dtype."""
        return F.cast(F.add(step, 1), param.dtype)


class Adam(_AdamBase):
    """MindSpore's Adam: lr_t = lr sqrt(1 - beta2^t) / (1 - beta1^t);
    param -= lr_t m / (sqrt(v) + eps). L2 weight decay goes into the gradient."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0,
                 use_amsgrad=False):
        super().__init__(params, learning_rate, beta1, beta2, eps, weight_decay, loss_scale)
        self.use_nesterov, self.use_amsgrad = bool(use_nesterov), bool(use_amsgrad)
        if self.use_amsgrad:
            self.vhat = self.clone_state("vhat")

    def update(self, index, param, grad, lr, step):
        m, v = self.moments(index, grad)
        if self.use_amsgrad:
            v = assign(self.vhat[index], F.maximum(self.vhat[index], v))
        t = self.count(step, param)
        lr_t = F.div(F.mul(_lr_like(lr, param), F.sqrt(F.sub(1, F.pow(self.beta2, t)))),
                     F.sub(1, F.pow(self.beta1, t)))
        numerator = F.add(F.mul(m, self.beta1), F.mul(grad, 1 - self.beta1)) \
            if self.use_nesterov else m
        step_size = F.div(numerator, F.add(F.sqrt(v), self.eps))
        assign(param, F.sub(param, F.mul(lr_t, step_size)))


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
        decayed = param
        if self.weight_decay and self.decay_flags[index]:
            decayed = F.mul(param, F.sub(1, F.mul(lr, self.weight_decay)))
        step_size = F.div(m_hat, F.add(F.sqrt(v_hat), self.eps))
        assign(param, F.sub(decayed, F.mul(lr, step_size)))


class AdamWeightDecay(_AdamBase):
    """MindSpore's AdamWeightDecay (no bias correction):
    param -= lr (m / (sqrt(v) + eps) + weight_decay * param)."""

    decoupled_weight_decay = True

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(params, learning_rate, beta1, beta2, eps, weight_decay, 1.0)

    def update(self, index, param, grad, lr, step):
        m, v = self.moments(index, grad)
        direction = F.div(m, F.add(F.sqrt(v), self.eps))
        if self.weight_decay and self.decay_flags[index]:
            direction = F.add(direction, F.mul(param, self.weight_decay))
        assign(param, F.sub(param, F.mul(_lr_like(lr, param), direction)))
