"""The optimizer base: nn.Optimizer, and the checks of learning rates, weight decay and
parameter groups that every optimizer shares, with MindSpore's attributes and helpers.

An optimizer is a Cell whose construct takes one gradient per parameter and updates the
parameters and its own state in place with `ops.assign`; inside TrainOneStepCell that makes the
forward pass, the backward pass and the update one compiled graph. State (moments, the step
counter) are Parameters named like MindSpore's ("moment1.fc1.weight", "global_step"), so
checkpoints carry them; as in MindSpore they keep Parameter's default requires_grad=True (a
moment takes its parameter's), which only matters to what `trainable_params()` of a Cell holding
the optimizer lists: gradients are taken with respect to the optimizer's `parameters`.
"""
from __future__ import annotations

import numbers
from collections.abc import Iterable

import numpy as np

from cellgraph.common.assign import AssignAdd, assign
from cellgraph.compiler.builder import current_builder
from cellgraph.compiler.frontend import trace_call
from cellgraph.ops import functional as F
from cellgraph.ops.composite import HyperMap, Map
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as _core
from cellgraph.primitives.core import fmt_shape
from cellgraph.primitives.errors import (
    ArgumentError,
    ArgumentValueError,
    DTypeError,
    RunError,
    ShapeError,
    UnsupportedError,
)
from cellgraph.runtime.tensor import Parameter, ParameterTuple, Tensor

from ..cell import Cell, StepLock
from ..layer.container import CellList
from ..learning_rate_schedule import LearningRateSchedule

__all__ = ["Optimizer", "opt_init_args_register"]


def opt_init_args_register(fn):
    """Decorator on an optimizer's `__init__`, as MindSpore's: keeps the arguments it was
    called with in `self.init_args` (name -> value, `self` left out), the parameters apart in
    `self.init_params` ({"params": ...}) and the learning rate in `self.init_learning_rate`
    (a Tensor as a list, a Cell as None)."""
    import functools
    import inspect

    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def init(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop(next(iter(signature.parameters)))
        if "params" in arguments:
            object.__setattr__(self, "init_params", {"params": arguments.pop("params")})
        if "optimizer" in arguments:
            inner = arguments.pop("optimizer")
            object.__setattr__(self, "init_params",
                               {"params": getattr(inner, "init_params", {}).get("params")})
        if "learning_rate" in arguments:
            rate = arguments.pop("learning_rate")
            if isinstance(rate, Tensor):
                rate = rate.asnumpy().tolist()
            object.__setattr__(self, "init_learning_rate",
                               None if isinstance(rate, Cell) else rate)
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


def _float(value, op: str, name: str, **bounds) -> float:
    """`_real` for the hyper-parameters MindSpore takes as floats only (an int is refused)."""
    if not isinstance(value, float):
        raise DTypeError(f"For '{op}', the type of '{name}' must be float, but got "
                         f"{type(value).__name__} {value!r}")
    return _real(value, op, name, **bounds)


def _bool(value, op: str, name: str) -> bool:
    if not isinstance(value, bool):
        raise DTypeError(f"For '{op}', the type of '{name}' must be bool, but got "
                         f"{type(value).__name__} {value!r}")
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


_GROUP_KEYS = ("params", "lr", "weight_decay", "grad_centralization", "order_params")


class Optimizer(Cell):
    """Base class of the optimizers, laid out as MindSpore's.

    `learning_rate` is a float or int, a 0-d Tensor (fixed), a 1-D Tensor or an iterable of
    per-step rates, a LearningRateSchedule (or any callable of the step). `parameters` is a
    list (or any iterable, read once) of Parameters or of parameter groups: dicts with
    "params" and, optionally, the group's own "lr", "weight_decay" and "grad_centralization",
    plus at most one {"order_params": [...]} that orders the parameters (and so the
    gradients) as listed. Without groups, weight decay skips normalisation scales and shifts
    ("beta"/"gamma" in the name); a group's weight_decay applies to every parameter in it.
    `weight_decay` is a float or int, or a Cell of the step.

    The attributes are MindSpore's, so optimizers written against MindSpore's base run:
    `learning_rate` (a Parameter "learning_rate"; a Cell of the step when the rate is
    dynamic; with group rates a ParameterTuple, or a CellList when any rate is dynamic, one
    entry per parameter), `weight_decay` (a float32 Tensor times the loss scale, or a Cell;
    with groups a tuple, one per parameter), `parameters`, `decay_flags`,
    `exec_weight_decay`, `grad_centralization_flags`, `is_group`, `is_group_lr`,
    `is_group_params_ordered`, `dynamic_lr`, `dynamic_weight_decay`, `global_step` (int32 of
    shape (1,)), `group_params`, `group_lr`, `group_weight_decay`, and the helpers
    `get_lr`, `get_weight_decay`, `get_lr_parameter`, `decay_weight`,
    `gradients_centralization`, `scale_grad`, `flatten_gradients`.

    cellgraph's own optimizers define `update(index, param, grad, lr, step)` instead of a
    construct: the base construct scales the gradients back by the loss scale, adds the
    weight decay (unless the optimizer decays the weights itself), centralises the gradients
    of the groups that ask for it, calls `update` once per parameter (lr that parameter's
    rate, step the update's number, 0 first) and counts the step.
    """

    decoupled_weight_decay = False  # AdamW decays the weights itself, not through the gradient
    _support_parallel_optimizer = False

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        self._step_lock = StepLock()  # an update reads and writes the Parameters and moments
        from cellgraph import context

        parameters = self._parameters_base_check(parameters, "parameters")
        self.param_rank = None
        self.optim_filter = None
        if not all(isinstance(p, Parameter) for p in parameters) and \
                not all(isinstance(p, dict) for p in parameters):
            raise DTypeError(f"For '{self.cls_name}', all elements of the argument 'parameters' "
                             f"must be 'Parameter' or 'dict', got "
                             f"{sorted({type(p).__name__ for p in parameters})}")
        if isinstance(loss_scale, int) and not isinstance(loss_scale, bool):
            loss_scale = float(loss_scale)
        if not isinstance(loss_scale, float):
            raise DTypeError(f"For '{self.cls_name}', the 'loss_scale' must be float, got "
                             f"{type(loss_scale).__name__} {loss_scale!r}")
        if not loss_scale > 0:
            raise ArgumentValueError(f"For '{self.cls_name}', the 'loss_scale' must be > 0, got "
                                     f"{loss_scale}")
        self.loss_scale = loss_scale
        self.dynamic_weight_decay = False
        self.grad_centralization = False
        self._unique = True
        self._target = context.get_context("device_target")
        self._use_flattened_params = False
        self.dynamic_lr = False
        self.assignadd = AssignAdd()
        self.global_step_increase_tensor = Tensor(np.ones((1,), np.int32))
        self.global_step = Parameter(Tensor(np.zeros((1,), np.int32)), name="global_step")
        self.is_group = False
        self.is_group_lr = False
        self.is_group_params_ordered = False
        self.use_parallel = False
        learning_rate = self._preprocess_single_lr(learning_rate)
        if isinstance(parameters[0], dict):
            self.is_group = True
            self.group_params = []
            self.group_lr = []
            self.group_weight_decay = []
            self.group_grad_centralization = []
            self._init_group_params(parameters, learning_rate, weight_decay,
                                    self.grad_centralization)
        self._init_opt_attrs(learning_rate, parameters, weight_decay)
        self._use_parallel_optimizer()
        # what optimizers written by users call from construct, as MindSpore's base class has
        self.hyper_map, self.map_ = HyperMap(), Map()

    def _use_parallel_optimizer(self) -> None:
        """enable_parallel_optimizer (each rank updating a share of the parameters): MindSpore
        runs it on Ascend in data parallel mode and refuses it stand-alone and on other devices
        (RuntimeError, as here); cellgraph shards no optimizer states, so where MindSpore would
        run it this refuses it too (semi_auto/auto parallel compiles refuse it)."""
        from cellgraph.auto_parallel import get_auto_parallel_context

        self.use_parallel = False
        if not get_auto_parallel_context("enable_parallel_optimizer"):
            return
        mode = get_auto_parallel_context("parallel_mode")
        if mode == "data_parallel" and self._target != "Ascend":
            raise RunError(f'For "Optimizer", parallel optimizer only supports "Ascend" in data '
                           f'parallel mode, but got {self._target}.')
        if mode in ("stand_alone", "hybrid_parallel"):
            raise RunError(f"For 'Optimizer', parallel optimizer is not supported in {mode}, you "
                           f"should set parallel mode to 'data_parallel', 'semi_auto_parallel' "
                           f"or 'auto_parallel'.")
        if mode == "data_parallel":
            raise UnsupportedError(f"For '{self.cls_name}', enable_parallel_optimizer=True: "
                                   f"cellgraph shards no optimizer states; every process "
                                   f"holds whole ones")

    # -- MindSpore's construction steps, which optimizers written against it call ----------
    @staticmethod
    def _parameters_base_check(parameters, param_info):
        """The parameters as a list: None, a non-iterable or an empty iterable is an error."""
        if parameters is None:
            raise ArgumentValueError(f"For 'Optimizer', the argument {param_info} can not be "
                                     f"None.")
        if isinstance(parameters, Parameter):
            # MindSpore iterates a Parameter into Tensors, then refuses them
            raise DTypeError(f"For 'Optimizer', the argument {param_info} must be an iterable of "
                             f"Parameters or of dicts, got the Parameter {parameters.name!r}; "
                             f"pass [{parameters.name}]")
        if not isinstance(parameters, Iterable) or isinstance(parameters, (str, dict)):
            raise DTypeError(f"For 'Optimizer', the argument {param_info} must be Iterable "
                             f"type, but got {type(parameters)}.")
        parameters = list(parameters)
        if not parameters:
            raise ArgumentValueError(f"For 'Optimizer', the argument {param_info} must not be "
                                     f"empty; pass net.trainable_params()")
        return parameters

    def _preprocess_single_lr(self, learning_rate):
        """A learning rate as a float, a float32 Tensor (0-d fixed, 1-D one rate per step) or
        a schedule; sets `dynamic_lr` when the rate changes with the step."""
        op = self.cls_name
        if isinstance(learning_rate, numbers.Real) and not isinstance(learning_rate, np.ndarray):
            learning_rate = float(learning_rate)
            if not learning_rate >= 0:
                raise ArgumentValueError(f"For '{op}', the 'learning rate' must be >= 0, got "
                                         f"{learning_rate}")
            return learning_rate
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 0:
            return Tensor(learning_rate.asnumpy(), dt.float32)
        if isinstance(learning_rate, Cell) or (callable(learning_rate) and not isinstance(
                learning_rate, (Tensor, np.ndarray))):
            self.dynamic_lr = True
            return learning_rate
        if isinstance(learning_rate, Tensor):
            if learning_rate.ndim > 1:
                raise ShapeError(f"For '{op}', if 'learning_rate' is Tensor type, then the "
                                 f"dimension of it should be 0 or 1, but got "
                                 f"{learning_rate.ndim}.")
            rates = learning_rate.asnumpy().astype(np.float32)
        elif isinstance(learning_rate, Iterable) and not (
                isinstance(learning_rate, np.ndarray) and learning_rate.ndim == 0) \
                and not isinstance(learning_rate, (str, bytes, dict)):
            rates = np.array(list(learning_rate)).astype(np.float32)
            if rates.ndim != 1:
                raise ShapeError(f"For '{op}', a learning-rate list must be 1-D, got shape "
                                 f"{rates.shape}")
        else:
            raise DTypeError(f"For '{op}', the argument 'learning_rate' must be int, float, "
                             f"Tensor, Iterable or LearningRateSchedule, but got "
                             f"{type(learning_rate)}.")
        if rates.size == 0:
            raise ShapeError(f"For '{op}', a learning-rate list must not be empty")
        if (rates < 0).any():
            raise ArgumentValueError(f"For '{op}', learning rates must be >= 0")
        self.dynamic_lr = True
        return Tensor(rates)

    def _build_single_lr(self, learning_rate, name):
        """A preprocessed rate as what `learning_rate` holds: a Parameter `name` (inside a Cell
        of the step when group rates are dynamic), a Cell gathering the rate of the step from a
        Parameter `name`, or the schedule itself."""
        if isinstance(learning_rate, float):
            learning_rate = Tensor(np.array(learning_rate, np.float32))
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 0:
            learning_rate = Parameter(learning_rate, name=name)
            if self.is_group_lr and self.dynamic_lr:
                learning_rate = _ConvertToCell(learning_rate)
            return learning_rate
        if isinstance(learning_rate, Tensor) and learning_rate.ndim == 1:
            return _IteratorLearningRate(learning_rate, name)
        return learning_rate

    def _preprocess_weight_decay(self, weight_decay):
        """A weight decay times the loss scale (the gradients it is added to are still
        scaled), or a Cell of the step wrapped to do the same; sets `dynamic_weight_decay`."""
        if isinstance(weight_decay, numbers.Real) and not isinstance(weight_decay, np.ndarray):
            weight_decay = float(weight_decay)
            if not weight_decay >= 0:
                raise ArgumentValueError(f"For '{self.cls_name}', the 'weight_decay' must be "
                                         f">= 0, got {weight_decay}")
            return weight_decay * self.loss_scale
        if isinstance(weight_decay, Cell):
            self.dynamic_weight_decay = True
            return _WrappedWeightDecay(weight_decay, self.loss_scale)
        raise DTypeError(f"For '{self.cls_name}', the argument 'weight_decay' must be int, "
                         f"float or Cell, but got {type(weight_decay)}")

    @staticmethod
    def _preprocess_grad_centralization(grad_centralization):
        if not isinstance(grad_centralization, bool):
            raise DTypeError(f"For 'Optimizer', the 'grad_centralization' must be bool type, "
                             f"but got {type(grad_centralization)}.")
        return grad_centralization

    def _check_group_params(self, parameters):
        """Each group's keys, and its "params" a non-empty iterable of Parameters."""
        for group in parameters:
            invalid = [key for key in group if key not in _GROUP_KEYS]
            if invalid:
                raise KeyError(f"For '{self.cls_name}', the key in group params must be one of "
                               f"{list(_GROUP_KEYS)}, but got {invalid}.")
            if "order_params" in group:
                if len(group) > 1:
                    raise ArgumentValueError(f"For '{self.cls_name}', the order params dict in "
                                             f"group parameters should only include the "
                                             f"'order_params' key, but got {sorted(group)}.")
                if not isinstance(group["order_params"], Iterable):
                    raise DTypeError(f"For '{self.cls_name}', the value of 'order_params' in "
                                     f"group parameters should be Iterable type, but got "
                                     f"{type(group['order_params'])}.")
                continue
            if "params" not in group:
                raise KeyError(f"For '{self.cls_name}', a parameter group must hold 'params', "
                               f"got keys {sorted(group)}")
            for index, param in enumerate(group["params"]):
                if not isinstance(param, Parameter):
                    raise DTypeError(f"For '{self.cls_name}', the element in group parameters "
                                     f"must be Parameter type, but got {type(param)} at index "
                                     f"{index}.")

    def _parse_group_params(self, parameters, learning_rate):
        """Sets `is_group_params_ordered`, `is_group_lr` (and `dynamic_lr` through the group
        rates); the per-step rate lists of all groups must be as long as each other."""
        self._check_group_params(parameters)
        length = learning_rate.size if isinstance(learning_rate, Tensor) and \
            learning_rate.ndim == 1 else 0
        for group in parameters:
            if "order_params" in group:
                self.is_group_params_ordered = True
                continue
            if "lr" in group:
                self.is_group_lr = True
                group_lr = self._preprocess_single_lr(group["lr"])
                if isinstance(group_lr, Tensor) and group_lr.ndim == 1:
                    if length == 0:
                        length = group_lr.size
                    elif group_lr.size != length:
                        raise ArgumentValueError(
                            f"For '{self.cls_name}', the Tensor type dynamic learning rate in "
                            f"group must be the same size as the argument 'learning_rate', got "
                            f"{group_lr.size} and {length}.")

    def _init_group_params(self, parameters, learning_rate, weight_decay, grad_centralization):
        """One learning rate, weight decay and centralisation flag per parameter, in
        `group_lr`, `group_weight_decay` and `group_grad_centralization` (ordered as
        'order_params' says)."""
        parameters = [dict(group, params=self._parameters_base_check(group["params"],
                                                                      "group `params`"))
                      if "params" in group else group for group in parameters]
        self._parse_group_params(parameters, learning_rate)
        default_lr = self._build_single_lr(learning_rate, "learning_rate")
        seen, ordered, raw_decays = set(), None, []
        for number, group in enumerate(parameters):
            if "order_params" in group:
                ordered = list(group["order_params"])
                continue
            self.group_params += group["params"]
            if "lr" in group:
                lr = self._build_single_lr(self._preprocess_single_lr(group["lr"]),
                                           f"learning_rate_group_{number}")
            else:
                lr = default_lr
            raw = group.get("weight_decay", weight_decay)
            decay = self._preprocess_weight_decay(raw)
            centralize = self._preprocess_grad_centralization(group["grad_centralization"]) \
                if "grad_centralization" in group else grad_centralization
            for param in group["params"]:
                if param.name in seen:
                    raise RunError(f"For '{self.cls_name}', the {param.name} parameter already "
                                   f"exists, it does not support repeated setting. Please check "
                                   f"whether the optimizer parameter has been set multiple "
                                   f"times.")
                seen.add(param.name)
                self.group_lr.append(lr)
                self.group_weight_decay.append(decay)
                raw_decays.append(raw)
                self.group_grad_centralization.append(centralize)
        self._raw_decays = raw_decays
        if self.is_group_params_ordered:
            self._order_and_adjust_group_params(ordered)

    def _order_and_adjust_group_params(self, ordered_parameters):
        """The group lists in the order of 'order_params' (matched by name)."""
        ordered_parameters = list(ordered_parameters)
        if len(ordered_parameters) != len(self.group_params):
            raise ArgumentValueError(
                f"For '{self.cls_name}', the length of order parameters must be the same as "
                f"the length of group parameters, but got order parameters' length "
                f"{len(ordered_parameters)}, group parameters' length "
                f"{len(self.group_params)}.")
        names = [getattr(p, "name", None) for p in ordered_parameters]
        position = []
        for param in self.group_params:
            if param.name not in names:
                raise ArgumentValueError(f"For '{self.cls_name}', the parameter {param.name} "
                                         f"of the groups is not in 'order_params'")
            position.append(names.index(param.name))
        order = sorted(range(len(position)), key=position.__getitem__)
        for attr in ("group_params", "group_lr", "group_weight_decay",
                     "group_grad_centralization", "_raw_decays"):
            values = getattr(self, attr)
            setattr(self, attr, [values[i] for i in order])

    def _init_opt_attrs(self, learning_rate, parameters, weight_decay):
        """`learning_rate`, `parameters`, the weight-decay attributes and the per-parameter
        tables, as MindSpore's base sets them."""
        op = self.cls_name
        weight_decay_ = self._preprocess_weight_decay(weight_decay)
        if self.is_group_lr:
            if self.dynamic_lr:
                self.learning_rate = _cell_list(self.group_lr)
            else:
                self.learning_rate = ParameterTuple(self.group_lr)
        else:
            self.learning_rate = self._build_single_lr(learning_rate, "learning_rate")
        if self.is_group:
            params = _parameter_list(self.group_params, op)
            self.group_params = ParameterTuple(params)
            if not self.dynamic_lr:
                self.group_lr = ParameterTuple(self.group_lr)
            self.decay_flags = tuple(isinstance(x, Cell) or x > 0
                                     for x in self.group_weight_decay)
            self.dynamic_decay_flags = tuple(isinstance(x, Cell)
                                             for x in self.group_weight_decay)
            self.weight_decay = tuple(x if flag else Tensor(np.array(x, np.float32))
                                      for x, flag in zip(self.group_weight_decay,
                                                         self.dynamic_decay_flags))
            self.exec_weight_decay = any(self.decay_flags)
            self.grad_centralization_flags = tuple(self.group_grad_centralization)
            raw = self._raw_decays
        else:
            params = _parameter_list(parameters, op)
            self.decay_flags = tuple(_default_decay_filter(p) for p in params)
            self.dynamic_decay_flags = isinstance(weight_decay_, Cell)
            self.exec_weight_decay = self.dynamic_decay_flags or weight_decay_ > 0
            self.weight_decay = weight_decay_ if self.dynamic_decay_flags else \
                Tensor(np.array(weight_decay_, np.float32))
            raw = [weight_decay] * len(params)
        self.parameters = ParameterTuple(params)
        self._parameters = self.parameters
        # per parameter, for the update() optimizers: the weight decay as given (not scaled
        # by the loss scale: their gradients are scaled back first), 0.0 where the decay
        # filter or the group leaves it off, or the Cell of the step
        self._decay_sources = tuple(
            (value if isinstance(value, Cell) else float(value)) if flag else 0.0
            for value, flag in zip(raw, self.decay_flags))
        self._centralize = tuple(self.group_grad_centralization) if self.is_group \
            else (False,) * len(params)
        self.ps_parameters = (False,) * len(params)
        self.cache_enable = (False,) * len(params)
        self.reciprocal_scale = Tensor(np.array(1.0 / self.loss_scale, np.float32))
        self.need_scale = self.loss_scale != 1.0
        self.global_step_increase_tensor = Tensor(np.ones((1,), np.int32))
        self.param_length = len(params)
        self.map_reverse, self.hyper_map_reverse = Map(None, True), HyperMap(None, True)
        # MindSpore's optimizer-parallel attributes outside its parallel mode: every parameter
        # is updated on this rank
        self.optim_filter = (True,) * self.param_length
        self.enable_tuple_broaden = True

    # -- properties ---------------------------------------------------------------------------
    @property
    def unique(self) -> bool:
        """Whether sparse gradients are made unique before the update (MindSpore's flag; the
        gradients here are dense)."""
        return self._unique

    @unique.setter
    def unique(self, value):
        if not isinstance(value, bool):
            raise DTypeError(f"For 'Optimizer', the property 'unique' must be bool, but got "
                             f"{type(value)}")
        self._unique = value

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

    def _is_dynamic_lr_or_weight_decay(self) -> bool:
        """Whether the rate or the weight decay changes with the step."""
        return self.dynamic_lr or self.dynamic_weight_decay

    @staticmethod
    def _use_distibuted_optimizer() -> bool:
        """MindSpore's parameter-server mode, which cellgraph has not."""
        return False

    # -- state ------------------------------------------------------------------------------
    def clone_state(self, prefix: str, init=0.0) -> ParameterTuple:
        """One state Parameter per parameter, named "prefix.<param name>" (a sharded
        parameter's state: the same slice of the state)."""
        states = []
        for p in self.parameters:
            state = Parameter(Tensor(np.full(p.shape, init, p.dtype.np), p.dtype),
                              name=f"{prefix}.{p.name}", requires_grad=p.requires_grad)
            state._split = getattr(p, "_split", None)
            states.append(state)
        return ParameterTuple(states)

    # -- the rate and the weight decay of the current step ----------------------------------
    def get_lr(self):
        """The learning rate of the current step: the Parameter, or the schedule's value at
        `global_step`; with group rates a tuple, one per parameter."""
        lr = self.learning_rate
        if self.dynamic_lr:
            if self.is_group_lr:
                at_step = {}  # each schedule once, however many parameters share it
                for schedule in self.learning_rate:
                    if id(schedule) not in at_step:
                        at_step[id(schedule)] = _value_at(schedule, self.global_step)
                lr = tuple(at_step[id(schedule)] for schedule in self.learning_rate)
            else:
                lr = _value_at(self.learning_rate, self.global_step)
        return lr

    def get_weight_decay(self):
        """The weight decay of the current step (times the loss scale), per parameter with
        groups."""
        if self.dynamic_weight_decay:
            if self.is_group:
                return tuple(decay(self.global_step) if flag else decay for decay, flag in
                             zip(self.weight_decay, self.dynamic_decay_flags))
            return self.weight_decay(self.global_step)
        return self.weight_decay

    def get_lr_parameter(self, param):
        """The learning-rate Parameter that updates `param` (or each of a list of
        Parameters): for a dynamic rate, the Parameter of per-step rates or the schedule."""
        if isinstance(param, Parameter):
            params = [param]
        elif isinstance(param, list):
            params = param
        else:
            raise DTypeError(f"For 'get_lr_parameter', the 'param' must be 'Parameter' or "
                             f"'list' type, but got {type(param)}.")
        ids = [id(p) for p in self._parameters]
        rates = []
        for p in params:
            if not isinstance(p, Parameter):
                raise DTypeError(f"For '{self.cls_name}', the parameter must be Parameter, got "
                                 f"{type(p).__name__}")
            if id(p) not in ids:
                raise ArgumentValueError(f"For 'get_lr_parameter', the parameter {p.name} is "
                                         f"not in optimizer, please check whether the argument "
                                         f"'param' is correct.")
            rate = self.learning_rate[ids.index(id(p))] if self.is_group_lr \
                else self.learning_rate
            rates.append(rate.learning_rate if isinstance(
                rate, (_ConvertToCell, _IteratorLearningRate)) else rate)
        return rates if isinstance(param, list) else rates[0]

    # -- helpers MindSpore optimizers written by users call from construct ------------------
    def flatten_gradients(self, gradients):
        """The gradients as they are: parameters are never flattened into chunks here."""
        return gradients

    def decay_weight(self, gradients):
        """Gradients plus weight_decay * param for the parameters `decay_flags` selects."""
        if not self.exec_weight_decay:
            return gradients
        decay = self.get_weight_decay()
        decays = decay if self.is_group else (decay,) * len(self._parameters)
        return tuple(F.add(F.mul(p, F.cast(d, p.dtype)), g) if flag else g
                     for d, flag, p, g in zip(decays, self.decay_flags, self._parameters,
                                              gradients))

    def gradients_centralization(self, gradients):
        """With groups, the gradients of the groups that set grad_centralization centralised."""
        if not self.is_group:
            return gradients
        return tuple(_centralized(g) if flag else g
                     for flag, g in zip(self.grad_centralization_flags, gradients))

    def scale_grad(self, gradients):
        """Gradients times 1 / loss_scale."""
        if not self.need_scale:
            return gradients
        return tuple(F.mul(g, F.cast(self.reciprocal_scale, g.dtype)) for g in gradients)

    def _grad_sparse_indices_deduplicate(self, gradients):
        """Dense gradients have no indices to make unique."""
        return gradients

    # -- one step of the update() optimizers ------------------------------------------------
    def construct(self, *hyper_params):
        if type(self).update is Optimizer.update:
            raise NotImplementedError(f"{type(self).__name__} must define construct(gradients) "
                                      f"or update(index, param, grad, lr, step)")
        if len(hyper_params) != 1:
            raise ArgumentError(f"{type(self).__name__}: expected one tuple of gradients, got "
                                f"{len(hyper_params)} arguments")
        gradients = self._checked_gradients(hyper_params[0])
        step = F.reshape(self.global_step, ())
        lr = self.get_lr()
        self.__dict__["_step_decays"] = self._decays_at_step()  # update() reads its own
        for index, (param, grad) in enumerate(zip(self.parameters, gradients)):
            if self.loss_scale != 1.0:
                grad = F.div(grad, self.loss_scale)
            decay = self._step_decays[index]
            if not self.decoupled_weight_decay and not _is_zero(decay):
                grad = F.add(grad, F.mul(param, _like(decay, param)))
            if self._centralize[index]:
                grad = _centralized(grad)
            self.update(index, param, grad, lr[index] if self.is_group_lr else lr, step)
        assign(self.global_step, F.add(self.global_step, 1))
        return True

    def _decays_at_step(self, sources=None) -> tuple:
        """Each parameter's weight decay at this step (as given, not scaled): a float, or the
        value of its Cell at `global_step` (each Cell once); of `sources` if given, else of
        the optimizer's own."""
        sources = self._decay_sources if sources is None else sources
        at_step = {}
        for source in sources:
            if isinstance(source, Cell) and id(source) not in at_step:
                at_step[id(source)] = _value_at(source, self.global_step)
        return tuple(at_step[id(s)] if isinstance(s, Cell) else s for s in sources)

    def update(self, index, param, grad, lr, step):
        raise NotImplementedError(f"{type(self).__name__} must define construct(gradients) or "
                                  f"update(index, param, grad, lr, step)")

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


class _LearningRateCell(LearningRateSchedule):
    """A rate kept in a Parameter, as a Cell of the step. The Parameter sits under its own
    name ("learning_rate", "learning_rate_group_1"), so checkpoints key it as MindSpore does;
    `learning_rate` reads it."""

    def __init__(self, parameter):
        super().__init__()
        self.__dict__[parameter.name] = parameter  # "learning_rate" itself is the property
        object.__setattr__(self, "_rate_name", parameter.name)

    @property
    def learning_rate(self):
        return self.__dict__[self._rate_name]


class _ConvertToCell(_LearningRateCell):
    """A fixed rate among dynamic group rates: the Parameter's value at every step (computed
    as MindSpore does, lr + 1 - 1 in float32)."""

    def __init__(self, learning_rate):
        if not isinstance(learning_rate, Parameter):
            raise DTypeError(f"For 'Optimizer', the argument 'learning_rate' must be Parameter, "
                             f"but got {type(learning_rate)}.")
        super().__init__(learning_rate)

    def construct(self, global_step):
        return F.sub(F.add(self.learning_rate, 1.0), 1.0)


class _IteratorLearningRate(_LearningRateCell):
    """Per-step rates in a 1-D Parameter: the rate of the step, the last one after the end."""

    def __init__(self, learning_rate, name):
        if not isinstance(learning_rate, Tensor):
            raise DTypeError(f"For 'Optimizer', the argument 'learning_rate' must be Tensor, "
                             f"but got {type(learning_rate)}.")
        if learning_rate.ndim != 1:
            raise ShapeError(f"For 'Optimizer', the dimension of the argument 'learning_rate' "
                             f"should be 1, but got {learning_rate.ndim}.")
        super().__init__(Parameter(learning_rate, name=name))

    def construct(self, global_step):
        rates = self.learning_rate
        return F.gather(rates, F.minimum(global_step, rates.shape[0] - 1), 0)


class _WrappedWeightDecay(Cell):
    """A weight decay Cell of the step, its value times the loss scale."""

    def __init__(self, weight_decay, loss_scale=1.0):
        super().__init__()
        self.weight_decay = weight_decay
        self.loss_scale = Tensor(np.array(loss_scale, np.float32))

    def construct(self, global_step):
        return F.mul(self.weight_decay(global_step), self.loss_scale)


def _cell_list(cells):
    """A CellList of the per-parameter rate Cells that leaves their Parameter names alone
    (MindSpore's CellList(..., auto_prefix=False))."""
    cell_list = CellList()
    cell_list._auto_prefix = False
    for cell in cells:
        if not isinstance(cell, Cell):
            cell = _CallableRate(cell)
        cell_list.append(cell)
    return cell_list


class _CallableRate(LearningRateSchedule):
    """A function of the step given as a group's rate, as a Cell."""

    def __init__(self, fn):
        super().__init__()
        object.__setattr__(self, "_fn", fn)

    def construct(self, global_step):
        return _value_at(self._fn, global_step)


def _value_at(schedule, step):
    """A schedule's (a Cell's or a function's) value at `step`, as a 0-d value."""
    if current_builder() is not None:
        value = trace_call(schedule, (step,))
    else:
        value = schedule(step)
    if isinstance(value, numbers.Real):
        return value
    return F.reshape(value, ()) if len(value.shape) else value


def _is_zero(decay) -> bool:
    return isinstance(decay, float) and decay == 0.0


def _like(value, param):
    """A float, or a Tensor cast to the parameter's dtype."""
    return value if isinstance(value, float) else F.cast(value, param.dtype)


def _centralized(grad):
    """Gradient centralisation (Yong et al. 2020): a weight's gradient minus its mean over all
    axes but the first. As MindSpore's kernel, it leaves vectors and scalars alone, and weights
    whose second dimension is not a multiple of 16."""
    if len(grad.shape) < 2 or grad.shape[1] % 16 != 0:
        return grad
    return F.sub(grad, _core.reduce_mean(grad, tuple(range(1, len(grad.shape))), True))


def _lr_like(lr, param):
    return F.cast(lr, param.dtype) if param.dtype.is_float else lr
