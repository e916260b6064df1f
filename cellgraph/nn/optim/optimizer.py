"""The optimizer base: nn.Optimizer, and the checks of learning rates, weight decay and
parameter groups that every optimizer shares.

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
from cellgraph.ops.composite import HyperMap, Map
from cellgraph.primitives.core import fmt_shape
from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Parameter, ParameterTuple, Tensor

from ..cell import Cell, StepLock

__all__ = ["Optimizer", "opt_init_args_register"]


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


def _default_decay_filter(param) -> bool:
    """MindSpore's filter without groups: no weight decay for normalisation scales/shifts."""
    return "beta" not in (param.name or "") and "gamma" not in (param.name or "")


def _rate_source(learning_rate, op: str, name: str) -> tuple:
    """(kind, value) for a learning rate: "fixed" and a scalar Parameter, "list" and a 1-D
    Parameter of per-step rates, or "schedule" and a callable of the step."""
    if isinstance(learning_rate, Cell) or (callable(learning_rate) and not isinstance(
            learning_rate, (Tensor, np.ndarray))):
        return "schedule", learning_rate
    if isinstance(learning_rate, (list, tuple, np.ndarray, Tensor)):
        rates = np.asarray(learning_rate.asnumpy() if isinstance(learning_rate, Tensor)
                           else learning_rate, np.float32)
        if rates.ndim > 1 or rates.size == 0:
            raise ShapeError(f"{op}: a learning-rate list must be 1-D and non-empty, got "
                             f"shape {rates.shape}")
        if (rates < 0).any():
            raise ArgumentValueError(f"{op}: learning rates must be >= 0")
        if rates.ndim == 1:
            return "list", Parameter(Tensor(rates), name=name, requires_grad=False)
        learning_rate = float(rates)
    rate = _real(learning_rate, op, "learning_rate", low=0.0)
    return "fixed", Parameter(Tensor(np.array(rate, np.float32)), name=name, requires_grad=False)


def _rate_at(kind: str, value, step):
    """The learning rate a source gives at `step`."""
    if kind == "fixed":
        return value
    if kind == "list":
        return F.gather(value, F.minimum(step, value.shape[0] - 1), 0)
    if current_builder() is not None:
        return trace_call(value, (step,))
    return value(step)


_GROUP_KEYS = ("params", "lr", "weight_decay", "grad_centralization")


def _checked_groups(parameters, op: str):
    """The parameter groups (dicts) and the order_params list, or None when `parameters` is a
    plain list of Parameters."""
    if isinstance(parameters, Parameter) or parameters is None:
        return None
    parameters = list(parameters)
    if not any(isinstance(p, dict) for p in parameters):
        return None
    if not all(isinstance(p, dict) for p in parameters):
        raise DTypeError(f"{op}: `params` must be all Parameters or all dicts (parameter "
                         f"groups), got a mixture")
    groups, order = [], None
    for group in parameters:
        if "order_params" in group:
            if len(group) > 1:
                raise ArgumentValueError(f"{op}: the dict holding 'order_params' must hold "
                                         f"nothing else, got keys {sorted(group)}")
            order = list(group["order_params"])
            continue
        unknown = sorted(set(group) - set(_GROUP_KEYS))
        if unknown or "params" not in group:
            raise ArgumentValueError(f"{op}: a parameter group takes the keys "
                                     f"{', '.join(_GROUP_KEYS)} ('params' required), got "
                                     f"{sorted(group)}")
        groups.append(group)
    return groups, order


class Optimizer(Cell):
    """Base class. Subclasses define `update(index, param, grad, lr, step)`.

    `parameters` is a list of Parameters or of parameter groups: dicts with "params" and,
    optionally, the group's own "lr", "weight_decay" and "grad_centralization", plus at most
    one {"order_params": [...]} that orders the parameters (and so the gradients) as listed.
    Without groups, weight decay skips normalisation scales and shifts ("beta"/"gamma" in the
    name); a group's weight_decay applies to every parameter in it, as in MindSpore.
    """

    decoupled_weight_decay = False  # AdamW decays the weights itself, not through the gradient

    def _is_dynamic_lr_or_weight_decay(self) -> bool:
        """MindSpore's helper for optimizers written against it: whether the rate or the
        weight decay changes with the step."""
        return self.dynamic_lr or self.dynamic_weight_decay

    @property
    def target(self) -> str:
        """Where the update runs, MindSpore's 'CPU', 'GPU' or 'Ascend': the device target when
        the optimizer was made."""
        return self._target

    @target.setter
    def target(self, value):
        """MindSpore's base optimizer takes no target; optimizers that can move their update
        (its Adam, and user optimizers) define a setter that calls `_set_base_target`."""
        raise NotImplementedError(f"{type(self).__name__}: setting `target` is not supported")

    def _set_base_target(self, value) -> None:
        """MindSpore's checks of a new target. The update runs on the backend the program
        runs on, so only that target is taken: another raises as MindSpore does where that
        device is absent."""
        if not isinstance(value, str):
            raise TypeError(f"For 'Optimizer', the property 'target' must be string, but got "
                            f"{type(value)}")
        if value not in ("CPU", "Ascend", "GPU"):
            raise ValueError(f"For 'Optimizer', the property 'target' must be one of ['CPU', "
                             f"'Ascend' ,'GPU'], but got {value}")
        if value != self._target:
            raise ValueError(f"For 'Optimizer', the property 'target' cannot be set to "
                             f"{value!r} in the {self._target!r} environment.")

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        self._step_lock = StepLock()  # an update reads and writes the Parameters and moments
        from cellgraph import context

        self._target = context.get_context("device_target")
        op = type(self).__name__
        self.weight_decay = _real(weight_decay, op, "weight_decay", low=0.0)
        self.loss_scale = _real(loss_scale, op, "loss_scale", low=0.0, low_open=True)
        self.lr_kind, self.learning_rate = _rate_source(learning_rate, op, "learning_rate")
        # MindSpore's flags: the rate changes with the step (a list of rates or a schedule);
        # the weight decay never does here (it is a number)
        self.dynamic_lr = self.lr_kind != "fixed"
        self.dynamic_weight_decay = False
        if parameters is not None and not isinstance(parameters, (Parameter, list, tuple)):
            # a one-shot iterable (filter(lambda p: p.requires_grad, net.get_parameters()))
            # is read once, here
            parameters = list(parameters)
        grouped = _checked_groups(parameters, op)
        self.is_group = grouped is not None
        if grouped is None:
            params = _parameter_list(parameters, op)
            self.decay_flags = tuple(_default_decay_filter(p) for p in params)
            self.weight_decays = tuple(self.weight_decay if flag else 0.0
                                       for flag in self.decay_flags)
            self.centralize, self.group_rates = (False,) * len(params), None
        else:
            params = self._init_groups(*grouped, op)
            self.decay_flags = tuple(decay > 0 for decay in self.weight_decays)
        self.parameters = ParameterTuple(params)
        self.is_group_lr = self.group_rates is not None
        # what optimizers written by users call from construct, as MindSpore's base class has
        self.hyper_map, self.map_ = HyperMap(), Map()
        # MindSpore's optimizer-parallel attributes outside its parallel mode: every parameter
        # is updated on this rank
        self.param_length = len(self.parameters)
        self.use_parallel, self.param_rank = False, None
        self.optim_filter = (True,) * self.param_length
        self.global_step = Parameter(Tensor(np.array(0, np.int32)), name="global_step",
                                     requires_grad=False)

    def _init_groups(self, groups, order, op: str) -> list:
        """Flatten the groups into per-parameter weight decays, gradient centralisation flags
        and (when a group sets "lr") learning-rate sources; returns the parameters."""
        params, decays, centralize, rates, group_lrs = [], [], [], [], []
        default_rate = (self.lr_kind, self.learning_rate)
        for number, group in enumerate(groups):
            members = [group["params"]] if isinstance(group["params"], Parameter) \
                else list(group["params"])
            decay = _real(group.get("weight_decay", self.weight_decay), op, "weight_decay",
                          low=0.0)
            rate = default_rate
            if "lr" in group:
                rate = _rate_source(group["lr"], op, f"learning_rate_group_{number}")
                group_lrs.append(rate[1])
            params += members
            decays += [decay] * len(members)
            centralize += [bool(group.get("grad_centralization", False))] * len(members)
            rates += [rate] * len(members)
        params = _parameter_list(params, op)
        if order is not None:
            position = self._order_positions(params, order, op)
            params, decays, centralize, rates = ([values[i] for i in position] for values in
                                                 (params, decays, centralize, rates))
        self.weight_decays, self.centralize = tuple(decays), tuple(centralize)
        self.group_rates = tuple(rates) if group_lrs else None
        self.group_learning_rates = ParameterTuple(
            r for r in group_lrs if isinstance(r, Parameter))
        return params

    @staticmethod
    def _order_positions(params, order, op: str) -> list:
        """For each Parameter of `order`, its index in the groups' flattened list."""
        index = {id(p): i for i, p in enumerate(params)}
        missing = [getattr(p, "name", p) for p in order if id(p) not in index]
        if missing or len(order) != len(params):
            raise ArgumentValueError(
                f"{op}: 'order_params' must list exactly the grouped parameters, got "
                f"{len(order)} for {len(params)}"
                + (f"; not in any group: {', '.join(map(str, missing))}" if missing else ""))
        return [index[id(p)] for p in order]

    # -- state ------------------------------------------------------------------------------
    def clone_state(self, prefix: str, init=0.0) -> ParameterTuple:
        """One state Parameter per parameter, named "prefix.<param name>" (a sharded
        parameter's state: the same slice of the state)."""
        states = []
        for p in self.parameters:
            state = Parameter(Tensor(np.full(p.shape, init, p.dtype.np), p.dtype),
                              name=f"{prefix}.{p.name}", requires_grad=False)
            state._split = getattr(p, "_split", None)
            states.append(state)
        return ParameterTuple(states)

    # -- one step -----------------------------------------------------------------------------
    def get_lr(self):
        """The learning rate for the current step; with groups that set "lr", a tuple of rates,
        one per parameter."""
        return self._lr_at(self.global_step)

    def _lr_at(self, step):
        """The learning rate (or the tuple of per-parameter rates) at `step`."""
        if self.group_rates is None:
            return _rate_at(self.lr_kind, self.learning_rate, step)
        at_step = {}  # each source once, however many parameters share it
        for kind, value in self.group_rates:
            if id(value) not in at_step:
                at_step[id(value)] = _rate_at(kind, value, step)
        return tuple(at_step[id(value)] for _, value in self.group_rates)

    def get_lr_parameter(self, param):
        """The learning-rate Parameter (or schedule) that updates `param` (or each of a list
        of Parameters)."""
        params = param if isinstance(param, list) else [param]
        index = {id(p): i for i, p in enumerate(self.parameters)}
        for p in params:
            if id(p) not in index:
                raise ArgumentValueError(f"{type(self).__name__}.get_lr_parameter: Parameter "
                                         f"{getattr(p, 'name', p)!r} is not updated by this "
                                         f"optimizer")
        rates = [self.group_rates[index[id(p)]][1] if self.group_rates is not None
                 else self.learning_rate for p in params]
        return rates if isinstance(param, list) else rates[0]

    def construct(self, gradients):
        gradients = self._checked_gradients(gradients)
        step = self.global_step
        lr = self._lr_at(step)
        for index, (param, grad) in enumerate(zip(self.parameters, gradients)):
            if self.loss_scale != 1.0:
                grad = F.div(grad, self.loss_scale)
            decay = self.weight_decays[index]
            if decay and not self.decoupled_weight_decay:
                grad = F.add(grad, F.mul(param, decay))
            if self.centralize[index]:
                grad = _centralized(grad)
            self.update(index, param, grad, lr[index] if self.is_group_lr else lr, step)
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
            whole = p.aval.shape  # a sharded Parameter's, not this rank's slice's
            if tuple(g.shape) != whole:
                raise ShapeError(f"{op}: the gradient for Parameter '{p.name}' has shape "
                                 f"{fmt_shape(tuple(g.shape))}, expected {fmt_shape(whole)}")
        return tuple(gradients)


def _centralized(grad):
    """Gradient centralisation (Yong et al. 2020): a weight's gradient minus its mean over all
    axes but the first. As MindSpore's kernel, it leaves vectors and scalars alone, and weights
    whose second dimension is not a multiple of 16."""
    if len(grad.shape) < 2 or grad.shape[1] % 16 != 0:
        return grad
    return F.sub(grad, F.reduce_mean(grad, tuple(range(1, len(grad.shape))), True))


def _lr_like(lr, param):
    return F.cast(lr, param.dtype) if param.dtype.is_float else lr
