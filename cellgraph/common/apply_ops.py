"""MindSpore's in-place update primitives, which hand-written optimizers call through HyperMap:
ApplyMomentum, ApplyGradientDescent, Adam, AdamWeightDecay, ApplyRMSProp, and the scatter updates of a Parameter
(ScatterUpdate, ScatterAdd, ScatterNdUpdate, ScatterNdAdd, and the functional scatter_add and
scatter_nd_add). Each computes the new values with functional ops
and writes them with `ops.assign`, so in a graph the updates are recorded like any other
assignment; each returns what MindSpore's primitive returns."""
from __future__ import annotations

import numbers

from cellgraph.compiler.builder import is_parameter
from cellgraph.ops.derive import PrimitiveClass
from cellgraph.primitives import functional as F
from cellgraph.primitives.errors import DTypeError

from .assign import assign

__all__ = ["Adam", "AdamWeightDecay", "ApplyGradientDescent", "ApplyMomentum", "ApplyRMSProp", "ScatterAdd",
           "ScatterNdAdd", "ScatterNdUpdate", "ScatterUpdate", "scatter_add", "scatter_nd_add"]


def _parameters(op: str, **values) -> None:
    for name, value in values.items():
        if not is_parameter(value):  # an attribute, or a Parameter argument of the graph
            raise DTypeError(f"{op}: `{name}` must be a Parameter (it is updated in place), got "
                             f"{type(value).__name__}")


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
        m_new, v_new = self.moments(m, v, beta1, beta2, gradient)
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


def _row_indices(indices):
    """Integer indices into axis 0 as index tuples (..., 1) for the tensor_scatter family."""
    if not indices.dtype.is_int:
        raise DTypeError(f"expected integer indices, got {indices.dtype}")
    return F.expand_dims(indices, -1) if not isinstance(indices, numbers.Integral) else indices


class ScatterUpdate(_UpdateClass):
    """input_x[indices] = updates along axis 0; returns the new input_x."""

    def __init__(self, use_locking=True):
        super().__init__(use_locking)

    def __call__(self, input_x, indices, updates):
        _parameters("ScatterUpdate", input_x=input_x)
        update = _composite("tensor_scatter_update")
        return assign(input_x, update(input_x, _row_indices(indices), updates))


class ScatterAdd(_UpdateClass):
    """input_x[indices] += updates along axis 0 (repeated indices add up); returns the new
    input_x."""

    def __call__(self, input_x, indices, updates):
        _parameters("ScatterAdd", input_x=input_x)
        add = _composite("tensor_scatter_add")
        return assign(input_x, add(input_x, _row_indices(indices), updates))


class ScatterNdUpdate(_UpdateClass):
    """input_x at the index tuples of `indices` (..., K) set to `updates`; returns the new
    input_x."""

    def __init__(self, use_locking=True):
        super().__init__(use_locking)

    def __call__(self, input_x, indices, updates):
        _parameters("ScatterNdUpdate", input_x=input_x)
        return assign(input_x, _composite("tensor_scatter_update")(input_x, indices, updates))


class ScatterNdAdd(_UpdateClass):
    """input_x at the index tuples of `indices` (..., K) increased by `updates` (repeated
    tuples add up); returns the new input_x."""

    def __call__(self, input_x, indices, updates):
        _parameters("ScatterNdAdd", input_x=input_x)
        return assign(input_x, _composite("tensor_scatter_add")(input_x, indices, updates))


def scatter_add(input_x, indices, updates):
    """`ops.scatter_add`: ScatterAdd on the Parameter `input_x`, in place."""
    return ScatterAdd()(input_x, indices, updates)


def scatter_nd_add(input_x, indices, updates, use_locking=False):
    """`ops.scatter_nd_add`: ScatterNdAdd on the Parameter `input_x`, in place."""
    return ScatterNdAdd(use_locking)(input_x, indices, updates)


def _composite(name: str):
    """A composition of `ops` (which loads this module: looked up when an update runs)."""
    from cellgraph import ops

    return getattr(ops, name)
