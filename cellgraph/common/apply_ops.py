"""MindSpore's in-place update primitives, which hand-written optimizers call through HyperMap:
ApplyMomentum, ApplyGradientDescent, Adam, AdamWeightDecay, ApplyRMSProp, the Adagrad, Adadelta,
AdaMax, FTRL, proximal and sign families, and the scatter updates of a Parameter
(ScatterUpdate, ScatterAdd, ScatterNdUpdate, ScatterNdAdd, and the functional scatter_add and
scatter_nd_add). Each computes the new values with functional ops
and writes them with `ops.assign`, so in a graph the updates are recorded like any other
assignment; each returns what MindSpore's primitive returns."""
from __future__ import annotations

import numbers
import sys

import numpy as np

from cellgraph.compiler.builder import is_parameter
from cellgraph.ops.primitive_class import PrimitiveClass
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import (
    element_dtype_error,
    not_tensor_error,
    tensor_dtype_error,
    value_type_name,
)
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.core import abstract_of, running_eagerly
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

from .assign import assign

__all__ = ["SGD", "Adam", "AdamWeightDecay", "ApplyAdaMax", "ApplyAdadelta", "ApplyAdagrad",
           "ApplyAdagradDA", "ApplyAdagradV2", "ApplyAdamWithAmsgrad", "ApplyAdamWithAmsgradV2",
           "ApplyAddSign", "ApplyCenteredRMSProp", "ApplyFtrl", "ApplyGradientDescent",
           "ApplyMomentum", "ApplyPowerSign",
           "ApplyProximalAdagrad", "ApplyProximalGradientDescent", "ApplyRMSProp", "ScatterAdd",
           "ScatterDiv", "ScatterMax", "ScatterMin", "ScatterMul", "ScatterNdAdd", "ScatterNdDiv",
           "ScatterNdMax", "ScatterNdMin", "ScatterNdMul", "ScatterNdSub", "ScatterNdUpdate",
           "ScatterSub", "ScatterUpdate", "scatter_add", "scatter_div", "scatter_max",
           "scatter_min", "scatter_mul", "scatter_nd_add", "scatter_nd_div", "scatter_nd_max",
           "scatter_nd_min", "scatter_nd_mul", "scatter_nd_sub", "scatter_nd_update",
           "scatter_update"]


def _parameters(op: str, **values) -> None:
    """The operands updated in place must be Parameters or Tensors (MindSpore updates a plain
    Tensor in place too). Under vmap, as MindSpore's batching rules of these updates, each
    is mapped along axis 0 or not at all (Assign and IndexAdd take any axis)."""
    vectorize = sys.modules.get("cellgraph.vectorize")  # no vmap runs while it is not loaded
    for name, value in values.items():
        if not (is_parameter(value) or hasattr(value, "aval")):
            raise DTypeError(f"{op}: `{name}` must be a Parameter or Tensor (it is updated in "
                             f"place), got {type(value).__name__}")
        axis = vectorize.traced_source_axis(value) if vectorize is not None else None
        if axis not in (None, 0):
            raise ArgumentValueError(f"vmap: the source axis of `{name}` in `{op}` must be 0 "
                                     f"or None (it is updated in place), got {axis}")


class _UpdateClass(PrimitiveClass):
    def __init__(self, use_locking=False):
        self._set(use_locking)

    def _set(self, use_locking, **flags):
        self.use_locking = bool(use_locking)
        for name, value in flags.items():
            setattr(self, name, value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class ApplyMomentum(_UpdateClass):
    """accumulation = accumulation * momentum + gradient * gradient_scale;
    variable -= learning_rate * accumulation (Nesterov: learning_rate * (gradient +
    momentum * accumulation)). Returns the new variable."""

    def __init__(self, use_nesterov=False, use_locking=False, gradient_scale=1.0):
        self._set(use_locking, use_nesterov=bool(use_nesterov),
                  gradient_scale=float(gradient_scale))

    def __call__(self, variable, accumulation, learning_rate, gradient, momentum):
        _parameters("ApplyMomentum", variable=variable, accumulation=accumulation)
        if self.gradient_scale != 1.0:
            gradient = F.mul(gradient, self.gradient_scale)
        accum = assign(accumulation, F.add(F.mul(accumulation, momentum), gradient))
        step = F.add(gradient, F.mul(accum, momentum)) if self.use_nesterov else accum
        return assign(variable, F.sub(variable, F.mul(step, learning_rate)))


class ApplyGradientDescent(_UpdateClass):
    """var -= alpha * delta. Returns the new var."""

    def __init__(self):
        super().__init__()

    def __call__(self, var, alpha, delta):
        _parameters("ApplyGradientDescent", var=var)
        return assign(var, F.sub(var, F.mul(delta, alpha)))


class Adam(_UpdateClass):
    """The Adam update with bias correction from beta1_power and beta2_power (beta ** t);
    returns (var, m, v)."""

    def __init__(self, use_locking=False, use_nesterov=False):
        self._set(use_locking, use_nesterov=bool(use_nesterov))

    def __call__(self, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                 gradient):
        _parameters("Adam", var=var, m=m, v=v)
        # as MindSpore's CPU kernel: m += (g - m)(1 - beta1), v += (g^2 - v)(1 - beta2), which
        # rounds differently from beta v + (1 - beta) g^2 (a v that an optimizer lowered to
        # -(1 - beta2) g^2 / beta2 comes back to 0 here, not to -1e-31 and a NaN step)
        keep1, keep2 = (_one_minus(beta, var) for beta in (beta1, beta2))
        m_new = assign(m, F.add(m, F.mul(F.sub(gradient, m), keep1)))
        v_new = assign(v, F.add(v, F.mul(F.sub(F.square(gradient), v), keep2)))
        lr_t = F.div(F.mul(lr, F.sqrt(F.sub(1.0, beta2_power))), F.sub(1.0, beta1_power))
        direction = m_new
        if self.use_nesterov:
            direction = F.add(F.mul(m_new, beta1), F.mul(gradient, F.sub(1.0, beta1)))
        step = F.div(F.mul(direction, lr_t), F.add(F.sqrt(v_new), epsilon))
        return assign(var, F.sub(var, step)), m_new, v_new

    @staticmethod
    def moments(m, v, beta1, beta2, gradient) -> tuple:
        """Write and return the new first and second moments."""
        m_new = assign(m, F.add(F.mul(m, beta1), F.mul(gradient, F.sub(1.0, beta1))))
        v_new = assign(v, F.add(F.mul(v, beta2),
                                F.mul(F.square(gradient), F.sub(1.0, beta2))))
        return m_new, v_new


def _one_minus(beta, var):
    """1 - beta in var's dtype, as MindSpore's kernel computes it (a Python number is rounded to
    that dtype first, whichever NumPy's promotion rules are in force)."""
    if isinstance(beta, numbers.Real):
        one = np.dtype(var.dtype.np if var.dtype.is_float else np.float32).type
        return one(1) - one(beta)
    return F.sub(1.0, beta)


class AdamWeightDecay(_UpdateClass):
    """Adam without bias correction plus decoupled weight decay:
    var -= lr * (m / (sqrt(v) + epsilon) + decay * var). Returns (var, m, v)."""

    def __call__(self, var, m, v, lr, beta1, beta2, epsilon, decay, gradient):
        _parameters("AdamWeightDecay", var=var, m=m, v=v)
        m_new, v_new = Adam.moments(m, v, beta1, beta2, F.cast(gradient, var.dtype))
        update = F.add(F.div(m_new, F.add(F.sqrt(v_new), epsilon)), F.mul(var, decay))
        return assign(var, F.sub(var, F.mul(update, lr))), m_new, v_new


class ApplyRMSProp(_UpdateClass):
    """mean_square = decay * mean_square + (1 - decay) * grad^2;
    moment = momentum * moment + learning_rate * grad / sqrt(mean_square + epsilon);
    var -= moment. Returns the new var."""

    def __call__(self, var, mean_square, moment, learning_rate, grad, decay, momentum,
                 epsilon):
        _parameters("ApplyRMSProp", var=var, mean_square=mean_square, moment=moment)
        ms_new = assign(mean_square, F.add(F.mul(mean_square, decay),
                                           F.mul(F.square(grad), 1.0 - decay)))
        scaled = F.div(F.mul(grad, learning_rate), F.sqrt(F.add(ms_new, epsilon)))
        moment_new = assign(moment, F.add(F.mul(moment, momentum), scaled))
        return assign(var, F.sub(var, moment_new))


class ApplyCenteredRMSProp(_UpdateClass):
    """mean_gradient += (1 - decay) (grad - mean_gradient); mean_square += (1 - decay) (grad^2 -
    mean_square); where d = mean_square - mean_gradient^2 + epsilon is positive, moment =
    momentum moment + learning_rate grad / sqrt(d) and var -= moment (elsewhere both stay, as
    MindSpore's CPU kernel). Returns the new var."""

    def __init__(self, use_locking=False):
        from cellgraph import _checkparam as validator
        self._set(validator.check_value_type("use_locking", use_locking, [bool],
                                             "ApplyCenteredRMSProp"))

    def __call__(self, var, mean_gradient, mean_square, moment, grad, learning_rate, decay,
                 momentum, epsilon):
        keep = F.sub(1.0, decay)
        ms_new = assign(mean_square, F.add(mean_square, F.mul(F.sub(F.square(grad), mean_square),
                                                              keep)))
        mg_new = assign(mean_gradient, F.add(mean_gradient, F.mul(F.sub(grad, mean_gradient),
                                                                  keep)))
        denominator = F.add(F.sub(ms_new, F.square(mg_new)), epsilon)
        positive = F.greater(denominator, 0.0)
        safe = F.select(positive, denominator, F.ones_like(denominator))
        stepped = F.add(F.mul(moment, momentum), F.div(F.mul(grad, learning_rate), F.sqrt(safe)))
        moment_new = assign(moment, F.select(positive, stepped, moment))
        return assign(var, F.select(positive, F.sub(var, moment_new), var))


class SGD(_UpdateClass):
    """Stochastic gradient descent with momentum, as MindSpore's kernel: g = gradient +
    weight_decay * parameters; where momentum > 0, accum = g where stat > 0 (stat then 0),
    else momentum accum + (1 - dampening) g, and the step is accum (Nesterov: g + momentum
    accum); parameters -= learning_rate * step. Returns the new parameters."""

    def __init__(self, dampening=0.0, weight_decay=0.0, nesterov=False):
        from cellgraph import _checkparam as validator
        validator.check_value_type("nesterov", nesterov, [bool], "SGD")
        if nesterov and dampening != 0:
            raise ValueError(f"For 'SGD', the 'dampening' must be 0 when 'nesterov' is True, but "
                             f"got 'dampening' is {dampening} and 'nesterov' is {nesterov}.")
        self._set(False, dampening=float(dampening), weight_decay=float(weight_decay),
                  nesterov=nesterov)

    def __call__(self, parameters, gradient, learning_rate, accum, momentum, stat):
        for name, value in (("parameters", parameters), ("gradient", gradient),
                            ("learning_rate", learning_rate), ("accum", accum),
                            ("momentum", momentum), ("stat", stat)):
            _float_tensor("SGD", name, value)
        g = gradient
        if self.weight_decay > 0:
            g = F.add(g, F.mul(parameters, self.weight_decay))
        uses_momentum = F.greater(momentum, 0.0)
        fresh = F.logical_and(uses_momentum, F.greater(stat, 0.0))
        running = F.add(F.mul(accum, momentum), F.mul(g, 1.0 - self.dampening))
        accum_new = assign(accum, F.select(fresh, g, F.select(uses_momentum, running, accum)))
        assign(stat, F.select(fresh, F.zeros_like(stat), stat))
        step = F.add(g, F.mul(accum_new, momentum)) if self.nesterov else accum_new
        step = F.select(uses_momentum, step, g)
        return assign(parameters, F.sub(parameters, F.mul(learning_rate, step)))


def _float_tensor(op: str, name: str, value) -> None:
    """MindSpore's dtype check of an update's inputs: Tensors of float16 or float32, with the
    wording of its Python check when a graph is compiled, of its kernel's when run eagerly."""
    floats, dtype = (dt.float16, dt.float32), getattr(value, "dtype", None)
    if dtype in floats:
        return
    got = f"Ref[Tensor[{dtype}]]" if is_parameter(value) else value_type_name(value)
    if not running_eagerly():
        raise element_dtype_error(op, name, floats, got)
    if dtype is None:
        raise not_tensor_error(op, name, value)
    raise tensor_dtype_error(op, name, floats, got)


def _shrunk(value, threshold):
    """sign(value) * max(|value| - threshold, 0): the proximal step of an l1 penalty."""
    return F.mul(F.sign(value), F.maximum(F.sub(F.abs(value), threshold), 0.0))


class ApplyAdaMax(_UpdateClass):
    """m = beta1 m + (1 - beta1) g; v = max(beta2 v + epsilon, |g|);
    var -= lr / (1 - beta1_power) * m / v. Returns (var, m, v)."""

    def __init__(self):
        super().__init__()

    def __call__(self, var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
        _parameters("ApplyAdaMax", var=var, m=m, v=v)
        m_new = assign(m, F.add(F.mul(m, beta1), F.mul(grad, F.sub(1.0, beta1))))
        v_new = assign(v, F.maximum(F.add(F.mul(v, beta2), epsilon), F.abs(grad)))
        step = F.div(F.mul(F.div(lr, F.sub(1.0, beta1_power)), m_new), v_new)
        return assign(var, F.sub(var, step)), m_new, v_new


class ApplyAdadelta(_UpdateClass):
    """accum = rho accum + (1 - rho) g^2; update = sqrt(accum_update + epsilon) /
    sqrt(accum + epsilon) * g; accum_update = rho accum_update + (1 - rho) update^2;
    var -= lr * update. Returns (var, accum, accum_update)."""

    def __init__(self):
        super().__init__()

    def __call__(self, var, accum, accum_update, lr, rho, epsilon, grad):
        _parameters("ApplyAdadelta", var=var, accum=accum, accum_update=accum_update)
        accum_new = assign(accum, F.add(F.mul(accum, rho),
                                        F.mul(F.square(grad), F.sub(1.0, rho))))
        update = F.mul(F.div(F.sqrt(F.add(accum_update, epsilon)),
                             F.sqrt(F.add(accum_new, epsilon))), grad)
        update_new = assign(accum_update, F.add(F.mul(accum_update, rho),
                                                F.mul(F.square(update), F.sub(1.0, rho))))
        return assign(var, F.sub(var, F.mul(update, lr))), accum_new, update_new


class ApplyAdagrad(_UpdateClass):
    """accum += g^2 when update_slots (MindSpore's CPU kernel adds it even without: it reads
    no update_slots); var -= lr g / sqrt(accum). Returns (var, accum)."""

    def __init__(self, update_slots=True):
        self._set(False, update_slots=bool(update_slots))

    def __call__(self, var, accum, lr, grad):
        _parameters(type(self).__name__, var=var, accum=accum)
        if self.update_slots:
            accum = assign(accum, F.add(accum, F.square(grad)))
        return assign(var, F.sub(var, self._step(lr, grad, accum))), accum

    def _step(self, lr, grad, accum):
        return F.div(F.mul(grad, lr), F.sqrt(accum))


class ApplyAdagradV2(ApplyAdagrad):
    """ApplyAdagrad with epsilon: var -= lr g / (sqrt(accum) + epsilon)."""

    def __init__(self, epsilon, update_slots=True):
        self._set(False, epsilon=float(epsilon), update_slots=bool(update_slots))

    def _step(self, lr, grad, accum):
        return F.div(F.mul(grad, lr), F.add(F.sqrt(accum), self.epsilon))


class ApplyAdagradDA(_UpdateClass):
    """Adagrad dual averaging: the accumulators take g and g^2; var = -lr *
    shrink(gradient_accumulator, l1 global_step) / (l2 global_step lr +
    sqrt(gradient_squared_accumulator)), shrink(a, t) = sign(a) max(|a| - t, 0). Returns
    var. (MindSpore's CPU kernel shrinks by |a - t| instead, which differs where a < 0; this
    is the update its documentation states.)"""

    def __call__(self, var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1,
                 l2, global_step):
        _parameters("ApplyAdagradDA", var=var, gradient_accumulator=gradient_accumulator,
                    gradient_squared_accumulator=gradient_squared_accumulator)
        total = assign(gradient_accumulator, F.add(gradient_accumulator, grad))
        squares = assign(gradient_squared_accumulator,
                         F.add(gradient_squared_accumulator, F.square(grad)))
        step = F.cast(global_step, var.dtype)
        numerator = F.mul(_shrunk(total, F.mul(l1, step)), F.neg(lr))
        denominator = F.add(F.mul(F.mul(l2, step), lr), F.sqrt(squares))
        return assign(var, F.div(numerator, denominator))


class ApplyFtrl(_UpdateClass):
    """Follow-the-regularized-leader: accum_new = accum + g^2; linear += g -
    (accum_new^-lr_power - accum^-lr_power) / lr * var; var = (sign(linear) l1 - linear) /
    (accum_new^-lr_power / lr + 2 l2) where |linear| > l1, else 0. Returns var.
    MindSpore's CPU kernel writes l1 where sign(linear) l1 belongs, so with l1 > 0 and a
    negative `linear` its var is off by 2 l1 / denominator; this is the published update."""

    def __call__(self, var, accum, linear, grad, lr, l1, l2, lr_power):
        _parameters("ApplyFtrl", var=var, accum=accum, linear=linear)
        accum_new = F.add(accum, F.square(grad))
        power = F.neg(lr_power)
        sigma = F.div(F.sub(F.pow(accum_new, power), F.pow(accum, power)), lr)
        linear_new = assign(linear, F.add(linear, F.sub(grad, F.mul(sigma, var))))
        quadratic = F.add(F.div(F.pow(accum_new, power), lr), F.mul(l2, 2.0))
        value = F.div(F.sub(F.mul(F.sign(linear_new), l1), linear_new), quadratic)
        assign(accum, accum_new)
        return assign(var, F.select(F.greater(F.abs(linear_new), l1), value,
                                    F.zeros_like(value)))


class ApplyProximalAdagrad(_UpdateClass):
    """accum += g^2; with the adaptive rate a = lr / sqrt(accum): prox = var - a g;
    var = shrink(prox, a l1) / (1 + a l2). Returns (var, accum)."""

    def __call__(self, var, accum, lr, l1, l2, grad):
        _parameters("ApplyProximalAdagrad", var=var, accum=accum)
        accum_new = assign(accum, F.add(accum, F.square(grad)))
        rate = F.div(lr, F.sqrt(accum_new))
        prox = F.sub(var, F.mul(grad, rate))
        return assign(var, F.div(_shrunk(prox, F.mul(rate, l1)),
                                 F.add(F.mul(rate, l2), 1.0))), accum_new


class ApplyProximalGradientDescent(_UpdateClass):
    """prox = var - alpha delta; var = shrink(prox, alpha l1) / (1 + alpha l2). Returns var."""

    def __init__(self):
        super().__init__()

    def __call__(self, var, alpha, l1, l2, delta):
        _parameters("ApplyProximalGradientDescent", var=var)
        prox = F.sub(var, F.mul(delta, alpha))
        return assign(var, F.div(_shrunk(prox, F.mul(alpha, l1)),
                                 F.add(F.mul(alpha, l2), 1.0)))


class ApplyAdamWithAmsgrad(_UpdateClass):
    """Adam keeping the largest second moment seen (vhat = max(vhat, v)), which it divides
    by; returns (var, m, v, vhat)."""

    def __init__(self, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False):
        self._set(use_locking, beta1=float(beta1), beta2=float(beta2), epsilon=float(epsilon))

    def __call__(self, var, m, v, vhat, beta1_power, beta2_power, lr, grad):
        _parameters("ApplyAdamWithAmsgrad", var=var, m=m, v=v, vhat=vhat)
        m_new, v_new = Adam.moments(m, v, self.beta1, self.beta2, grad)
        vhat_new = assign(vhat, F.maximum(vhat, v_new))
        lr_t = F.div(F.mul(lr, F.sqrt(F.sub(1.0, beta2_power))), F.sub(1.0, beta1_power))
        step = F.div(F.mul(m_new, lr_t), F.add(F.sqrt(vhat_new), self.epsilon))
        return assign(var, F.sub(var, step)), m_new, v_new, vhat_new


class ApplyAdamWithAmsgradV2(_UpdateClass):
    """ApplyAdamWithAmsgrad with beta1, beta2 and epsilon as inputs: m += (1 - beta1) (grad -
    m); v += (1 - beta2) (grad^2 - v); vhat = max(vhat, v); var -= lr sqrt(1 - beta2_power) /
    (1 - beta1_power) m / (sqrt(vhat) + epsilon). Returns (var, m, v, vhat)."""

    def __init__(self, use_locking=False):
        from cellgraph import _checkparam as validator
        self._set(validator.check_value_type("use_locking", use_locking, [bool],
                                             "ApplyAdamWithAmsgradV2"))

    def __call__(self, var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                 grad):
        _parameters("ApplyAdamWithAmsgradV2", var=var, m=m, v=v, vhat=vhat)
        m_new = assign(m, F.add(m, F.mul(F.sub(grad, m), F.sub(1.0, beta1))))
        v_new = assign(v, F.add(v, F.mul(F.sub(F.square(grad), v), F.sub(1.0, beta2))))
        vhat_new = assign(vhat, F.maximum(vhat, v_new))
        lr_t = F.div(F.mul(lr, F.sqrt(F.sub(1.0, beta2_power))), F.sub(1.0, beta1_power))
        step = F.div(F.mul(m_new, lr_t), F.add(F.sqrt(vhat_new), epsilon))
        return assign(var, F.sub(var, step)), m_new, v_new, vhat_new


class _SignUpdate(_UpdateClass):
    """m = beta m + (1 - beta) g; var -= lr * scale(sign(g) sign(m)) * g; returns (var, m)."""

    def __init__(self):
        super().__init__()

    def _update(self, var, m, lr, beta, grad, scale):
        _parameters(type(self).__name__, var=var, m=m)
        m_new = assign(m, F.add(F.mul(m, beta), F.mul(grad, F.sub(1.0, beta))))
        agree = F.mul(F.sign(grad), F.sign(m_new))
        return assign(var, F.sub(var, F.mul(F.mul(scale(agree), grad), lr))), m_new


class ApplyPowerSign(_SignUpdate):
    """The PowerSign update: scale = exp(logbase * sign_decay * sign(g) sign(m))."""

    def __call__(self, var, m, lr, logbase, sign_decay, beta, grad):
        return self._update(var, m, lr, beta, grad,
                            lambda agree: F.exp(F.mul(F.mul(logbase, sign_decay), agree)))


class ApplyAddSign(_SignUpdate):
    """The AddSign update: scale = alpha + sign_decay * sign(g) sign(m)."""

    def __call__(self, var, m, lr, alpha, sign_decay, beta, grad):
        return self._update(var, m, lr, beta, grad,
                            lambda agree: F.add(alpha, F.mul(sign_decay, agree)))


def _row_indices(indices):
    """Integer indices into axis 0 as index tuples (..., 1) for the tensor_scatter family."""
    if not indices.dtype.is_int:
        raise DTypeError(f"expected integer indices, got {indices.dtype}")
    return F.expand_dims(indices, -1) if not isinstance(indices, numbers.Integral) else indices


def _written_operand_dtype(op: str, name: str, input_x, updates):
    """`updates` in input_x's dtype, as MindSpore's signature converts the operands that share
    a dtype with an updated one; where promoting the two would need input_x itself converted,
    MindSpore's TypeError (`name` is the updated operand's name in its message)."""
    if isinstance(updates, numbers.Number) or not hasattr(updates, "aval"):
        return updates
    target, given = abstract_of(input_x).dtype, abstract_of(updates).dtype
    if given == target:
        return updates
    promoted = dt.promote(target, given)
    if promoted != target and not abstract_of(updates).weak:
        raise DTypeError(f"Data type conversion is not supported for a 'Parameter', nor for "
                         f"the input tensor of an in-place operator, the argument[{name}]'s "
                         f"data type of primitive[{op}] is {target}, which cannot be converted "
                         f"to data type {promoted} automatically.")
    return F.cast(updates, target)


class _Scatter(_UpdateClass):
    """input_x at `indices` combined with `updates` by the ops composition `_combine`
    (tensor_scatter_update, _add, ...), in place; returns the new input_x. `indices` are rows
    along axis 0, or (the Nd classes, `_rows` False) index tuples (..., K). Repeated indices
    each apply (an update keeps the last)."""

    _combine = None
    _rows = True
    _written_name = "x"  # the updated operand's name in MindSpore's messages

    def __call__(self, input_x, indices, updates):
        _parameters(type(self).__name__, input_x=input_x)
        updates = _written_operand_dtype(type(self).__name__, self._written_name, input_x,
                                         updates)
        if not self._rows and abstract_of(indices).ndim < 2:
            raise ArgumentValueError(f"For primitive[{type(self).__name__}], the dimension of "
                                     f"'indices' must be greater than or equal to 2 , but got "
                                     f"{abstract_of(indices).ndim}.")
        where = _row_indices(indices) if self._rows else indices
        return assign(input_x, _composite(self._combine)(input_x, where, updates))


class ScatterUpdate(_Scatter):
    """input_x[indices] = updates along axis 0."""

    _combine = "tensor_scatter_update"

    def __init__(self, use_locking=True):
        super().__init__(use_locking)


class ScatterAdd(_Scatter):
    """input_x[indices] += updates along axis 0 (repeated indices add up)."""

    _combine = "tensor_scatter_add"


class ScatterSub(_Scatter):
    _combine, _written_name = "tensor_scatter_sub", "input_x"


class ScatterMul(_Scatter):
    _combine = "tensor_scatter_mul"


class ScatterDiv(_Scatter):
    _combine = "tensor_scatter_div"


class ScatterMax(_Scatter):
    _combine = "tensor_scatter_max"


class ScatterMin(_Scatter):
    _combine = "tensor_scatter_min"


class ScatterNdUpdate(_Scatter):
    """input_x at the index tuples of `indices` (..., K) set to `updates`; an index outside
    input_x is a ValueError when it runs, as MindSpore's."""

    _combine, _rows, _written_name = "tensor_scatter_update", False, "input_x"

    def __init__(self, use_locking=True):
        super().__init__(use_locking)

    def __call__(self, input_x, indices, updates):
        shape = abstract_of(input_x).shape
        depth = abstract_of(indices).shape[-1]
        columns = [check_range(indices[..., k], low=0, high=max(int(shape[k]), 1),
                               what="index", op="ScatterNdUpdate", error="value")
                   for k in range(min(depth, len(shape)))]
        checked = F.stack(columns, -1) if columns else indices
        return super().__call__(input_x, checked, updates)


class ScatterNdAdd(_Scatter):
    """input_x at the index tuples of `indices` increased by `updates` (repeated tuples add
    up)."""

    _combine, _rows = "tensor_scatter_add", False


class ScatterNdSub(_Scatter):
    """input_x at the index tuples of `indices` decreased by `updates`."""

    _combine, _rows, _written_name = "tensor_scatter_sub", False, "input_x"


class ScatterNdMul(_Scatter):
    """input_x at the index tuples of `indices` multiplied by `updates`."""

    _combine, _rows = "tensor_scatter_mul", False


class ScatterNdDiv(_Scatter):
    """input_x at the index tuples of `indices` divided by `updates` (integers truncating)."""

    _combine, _rows = "tensor_scatter_div", False


class ScatterNdMax(_Scatter):
    """input_x at the index tuples of `indices` the larger of itself and `updates`."""

    _combine, _rows = "tensor_scatter_max", False


class ScatterNdMin(_Scatter):
    """input_x at the index tuples of `indices` the smaller of itself and `updates`."""

    _combine, _rows = "tensor_scatter_min", False


def scatter_add(input_x, indices, updates):
    """`ops.scatter_add`: ScatterAdd on the Parameter `input_x`, in place."""
    return ScatterAdd()(input_x, indices, updates)


def scatter_div(input_x, indices, updates):
    """`ops.scatter_div`: ScatterDiv on the Parameter `input_x`, in place."""
    return ScatterDiv()(input_x, indices, updates)


def scatter_max(input_x, indices, updates):
    """`ops.scatter_max`: ScatterMax on the Parameter `input_x`, in place."""
    return ScatterMax()(input_x, indices, updates)


def scatter_min(input_x, indices, updates):
    """`ops.scatter_min`: ScatterMin on the Parameter `input_x`, in place."""
    return ScatterMin()(input_x, indices, updates)


def scatter_mul(input_x, indices, updates):
    """`ops.scatter_mul`: ScatterMul on the Parameter `input_x`, in place."""
    return ScatterMul()(input_x, indices, updates)


def scatter_update(input_x, indices, updates):
    """`ops.scatter_update`: ScatterUpdate on the Parameter `input_x`, in place."""
    return ScatterUpdate()(input_x, indices, updates)


def scatter_nd_add(input_x, indices, updates, use_locking=False):
    """`ops.scatter_nd_add`: ScatterNdAdd on the Parameter `input_x`, in place."""
    return ScatterNdAdd(use_locking)(input_x, indices, updates)


def scatter_nd_sub(input_x, indices, updates, use_locking=False):
    """`ops.scatter_nd_sub`: ScatterNdSub on the Parameter `input_x`, in place."""
    return ScatterNdSub(use_locking)(input_x, indices, updates)


def scatter_nd_mul(input_x, indices, updates, use_locking=False):
    """`ops.scatter_nd_mul`: ScatterNdMul on the Parameter `input_x`, in place."""
    return ScatterNdMul(use_locking)(input_x, indices, updates)


def scatter_nd_div(input_x, indices, updates, use_locking=False):
    """`ops.scatter_nd_div`: ScatterNdDiv on the Parameter `input_x`, in place."""
    return ScatterNdDiv(use_locking)(input_x, indices, updates)


def scatter_nd_max(input_x, indices, updates, use_locking=False):
    """`ops.scatter_nd_max`: ScatterNdMax on the Parameter `input_x`, in place."""
    return ScatterNdMax(use_locking)(input_x, indices, updates)


def scatter_nd_min(input_x, indices, updates, use_locking=False):
    """`ops.scatter_nd_min`: ScatterNdMin on the Parameter `input_x`, in place."""
    return ScatterNdMin(use_locking)(input_x, indices, updates)


def scatter_nd_update(input_x, indices, updates, use_locking=True):
    """`ops.scatter_nd_update`: ScatterNdUpdate on the Parameter `input_x`, in place."""
    return ScatterNdUpdate(use_locking)(input_x, indices, updates)


def _composite(name: str):
    """A composition of `ops` (which loads this module: looked up when an update runs)."""
    from cellgraph import ops

    return getattr(ops, name)
