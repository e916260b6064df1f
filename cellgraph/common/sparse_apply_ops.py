"""MindSpore's sparse in-place optimizer updates: the rows of `var` (and its slots) named by
`indices` take the update of their rows of `grad` (FusedSparseAdam, FusedSparseLazyAdam,
FusedSparseFtrl, FusedSparseProximalAdagrad, SparseApplyFtrl, SparseApplyAdagrad,
SparseApplyAdagradV2), as MindSpore's CPU kernels compute it:

* the fused classes and SparseApplyAdagrad add up the gradient rows of a repeated index and
  update that row once (the kernels' unique-gradient reduction);
* SparseApplyFtrl and SparseApplyAdagradV2 update once per index, in order, so a repeated row
  is updated again from its new values;
* FusedSparseAdam decays both moments of every row and moves every row (its `lazy` twin leaves
  the rows no index names alone).

Each writes the Parameters with `ops.assign` and returns the new values, MindSpore's outputs."""
from __future__ import annotations

import numpy as np

from cellgraph.compiler.builder import is_parameter, is_tensor_like
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import check_tensor_dtype, tensor_dtype_error
from cellgraph.primitives.core import abstract_of, fmt_shape
from cellgraph.primitives.errors import (
    ArgumentError,
    ArgumentValueError,
    ShapeError,
    UnsupportedError,
)
from cellgraph.runtime.tensor import Tensor
from cellgraph.transform import user_loc

from .apply_ops import _composite, _parameters, _shrunk, _UpdateClass
from .assign import assign

__all__ = ["FusedSparseAdam", "FusedSparseFtrl", "FusedSparseLazyAdam",
           "FusedSparseProximalAdagrad", "SparseApplyAdagrad", "SparseApplyAdagradV2",
           "SparseApplyFtrl", "SparseApplyRMSProp"]


def _check_attr(op, name, value, kind, low=None, strict=False, high=None):
    """An attribute of the class's `__init__`, checked as MindSpore's validator checks it."""
    if kind is bool and not isinstance(value, bool):
        raise ArgumentError(f"For '{op}', the type of '{name}' should be 'bool', but got type "
                            f"'{type(value).__name__}'.")
    if kind is float:
        if not isinstance(value, float):
            raise ArgumentError(f"For '{op}', the type of '{name}' should be 'float', but got "
                                f"type '{type(value).__name__}'.")
        if low is not None and (value <= low if strict else value < low):
            raise ArgumentValueError(f"For '{op}', the '{name}' must be float and must "
                                     f"{'>' if strict else '>='} {low:g}, but got '{value}' with "
                                     f"type 'float'.")
        if high is not None and value > high:
            raise ArgumentValueError(f"For '{op}', the argument '{name}' must <= {high}, but "
                                     f"got {value}.")
    return value


def _check_operands(op, var, slots: dict, grad, indices):
    """MindSpore's infer checks: Tensors, int32/int64 indices of rank 1, the slots shaped as
    var, grad of rank >= 1 with one row per index and var's row shape."""
    tensors = {"grad": grad, **slots, "var": var}
    if not all(is_tensor_like(t) for t in tensors.values()):
        raise ArgumentError(f"The primitive[{op}]'s input arguments[{', '.join(sorted(tensors))}]"
                            f" must be all tensor", user_loc())
    if not is_tensor_like(indices):
        raise ArgumentError(f"For Primitive[{op}], the input argument[indices] must be a Tensor, "
                            f"but got {type(indices).__name__}", user_loc())
    check_tensor_dtype(op, "indices", abstract_of(indices).dtype, (dt.int32, dt.int64),
                       user_loc())
    shape = tuple(abstract_of(var).shape)
    if not shape:
        raise ShapeError(f"For '{op}', the dimension of 'var' must be at least 1-D, but got "
                         f"scalar.", user_loc())
    for name, slot in slots.items():
        if tuple(abstract_of(slot).shape) != shape:
            raise ShapeError(f"For primitive[{op}], the var_shape must be equal to {name}_shape: "
                             f"{fmt_shape(shape)} and {fmt_shape(abstract_of(slot).shape)}",
                             user_loc())
    gshape, ishape = tuple(abstract_of(grad).shape), tuple(abstract_of(indices).shape)
    if len(ishape) != 1:
        raise ShapeError(f"For primitive[{op}], the indices rank must be equal to 1, but got "
                         f"{len(ishape)}", user_loc())
    if not gshape:
        raise ShapeError(f"For primitive[{op}], the grad rank must be greater than or equal to "
                         f"1, but got 0", user_loc())
    if gshape[0] != ishape[0]:
        raise ShapeError(f"For primitive[{op}], the grad_shape[0] must be equal to "
                         f"indices_shape[0]: {gshape[0]} and {ishape[0]}", user_loc())
    if gshape[1:] != shape[1:]:
        raise ShapeError(f"For '{op}', the shape of updates must be [] or grad_shape = "
                         f"indices_shape + var_shape[1:], but got var_shape: {fmt_shape(shape)}, "
                         f"indices_shape: {fmt_shape(ishape)}, grad_shape: {fmt_shape(gshape)}.",
                         user_loc())


def _check_float_types(op, names, operands: dict) -> None:
    """MindSpore's dtype check of the operands `names` (float16 or float32), in its order."""
    for name in names:
        value = operands[name]
        dtype = abstract_of(value).dtype
        if dtype not in (dt.float16, dt.float32):
            got = f"Ref[Tensor[{dtype}]]" if is_parameter(value) else dtype
            raise tensor_dtype_error(op, name, (dt.float16, dt.float32), got, user_loc())


def _summed(var, grad, indices):
    """The gradient rows added up per row of var (zero where no index names it), and where an
    index names a row (a mask of var's shape)."""
    where = F.expand_dims(indices, -1)
    scatter_add = _composite("tensor_scatter_add")
    dense = scatter_add(F.zeros_like(var), where, F.cast(grad, abstract_of(var).dtype))
    counts = scatter_add(F.zeros_like(var), where, F.ones_like(F.cast(grad, abstract_of(var).dtype)))
    return dense, F.greater(counts, 0.0)


def _one_by_one(var, grad, indices):
    """For each index in order: its gradient row broadcast to var's shape, and the mask of the
    row it names."""
    shape = tuple(abstract_of(var).shape)
    rows = Tensor(np.arange(shape[0]).reshape((-1,) + (1,) * (len(shape) - 1)),
                  abstract_of(indices).dtype)
    (count,) = abstract_of(indices).shape
    for i in range(count):
        row = grad[i]
        mask = F.broadcast_to(F.equal(rows, indices[i]), shape)
        yield F.broadcast_to(F.cast(row, abstract_of(var).dtype), shape), mask


def _write(targets, news, mask):
    """Each target Parameter set to its new value where `mask` holds; the written values."""
    return tuple(assign(t, F.select(mask, n, t)) for t, n in zip(targets, news))


def _scalar(value, like):
    return F.cast(value, abstract_of(like).dtype) if is_tensor_like(value) else value


class _Sparse(_UpdateClass):
    """The checks and the row selection; subclasses give `_slots` (the Parameters after var),
    `_scalars` (the arguments between them and grad), `_rows` (the new var and slots of every
    row, from a gradient of var's shape) and `_summed` (repeated indices add up, else apply in
    order)."""

    _slots: tuple = ()
    _scalars: tuple = ()
    _summed = True
    _float_checks: tuple = ()  # operands that must be float16/float32, in MindSpore's order

    def __call__(self, var, *args):
        op = type(self).__name__
        n = len(self._slots)
        slots, scalars = args[:n], args[n:n + len(self._scalars)]
        grad, indices = args[n + len(self._scalars):]
        _check_operands(op, var, dict(zip(self._slots, slots)), grad, indices)
        _check_float_types(op, self._float_checks,
                           {"var": var, **dict(zip(self._slots, slots)), "grad": grad})
        _parameters(op, var=var, **dict(zip(self._slots, slots)))
        scalars = tuple(_scalar(s, var) for s in scalars)
        targets = (var, *slots)
        if self._summed:
            dense, mask = _summed(var, grad, indices)
            return self._apply(targets, scalars, dense, mask)
        if abstract_of(indices).shape[0] is None:
            raise UnsupportedError(
                f"{op}: the updates are applied one index after another, so the number of "
                f"indices must be known when the graph is built; these come from an operation "
                f"whose output length is known only at run time (such as Unique)", user_loc())
        out = targets
        for row, mask in _one_by_one(var, grad, indices):
            out = _write(targets, self._rows(targets, scalars, row), mask)
        return out

    def _apply(self, targets, scalars, dense, mask):
        return _write(targets, self._rows(targets, scalars, dense), mask)


def _adam_step(var, m_new, v_new, lr, epsilon):
    return F.sub(var, F.div(F.mul(m_new, lr), F.add(F.sqrt(v_new), epsilon)))


class FusedSparseLazyAdam(_Sparse):
    """Adam on the rows `indices` names only (their gradient rows added up): m and v move
    there, var by lr * sqrt(1 - beta2_power) / (1 - beta1_power) * m / (sqrt(v) + epsilon)
    (Nesterov: m * beta1 + (1 - beta1) * grad in place of m). Returns (var, m, v)."""

    _slots = ("m", "v")
    _scalars = ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon")

    def __init__(self, use_locking=False, use_nesterov=False):
        self._set(_check_attr(type(self).__name__, "use_locking", use_locking, bool),
                  use_nesterov=_check_attr(type(self).__name__, "use_nesterov", use_nesterov,
                                           bool))

    @staticmethod
    def _moments(m, v, beta1, beta2, grad):
        return (F.add(F.mul(m, beta1), F.mul(grad, F.sub(1.0, beta1))),
                F.add(F.mul(v, beta2), F.mul(F.square(grad), F.sub(1.0, beta2))))

    @staticmethod
    def _rate(beta1_power, beta2_power, lr):
        return F.div(F.mul(lr, F.sqrt(F.sub(1.0, beta2_power))), F.sub(1.0, beta1_power))

    def _rows(self, targets, scalars, grad):
        var, m, v = targets
        beta1_power, beta2_power, lr, beta1, beta2, epsilon = scalars
        m_new, v_new = self._moments(m, v, beta1, beta2, grad)
        step = m_new
        if self.use_nesterov:
            step = F.add(F.mul(m_new, beta1), F.mul(grad, F.sub(1.0, beta1)))
        lr_t = self._rate(beta1_power, beta2_power, lr)
        return _adam_step(var, step, v_new, lr_t, epsilon), m_new, v_new


class FusedSparseAdam(FusedSparseLazyAdam):
    """Adam over every row, the gradient being zero on the rows `indices` does not name (their
    moments decay and var still moves); with Nesterov, var moves by m * beta1 + (1 - beta1) *
    grad on the named rows and stays on the others, as MindSpore's CPU kernel does. Returns
    (var, m, v)."""

    def _apply(self, targets, scalars, dense, mask):
        var, m, v = targets
        beta1_power, beta2_power, lr, beta1, beta2, epsilon = scalars
        m_new, v_new = self._moments(m, v, beta1, beta2, dense)
        step = m_new
        if self.use_nesterov:
            step = F.select(mask, F.add(F.mul(m_new, beta1), F.mul(dense, F.sub(1.0, beta1))),
                            F.zeros_like(m_new))
        lr_t = self._rate(beta1_power, beta2_power, lr)
        var_new = _adam_step(var, step, v_new, lr_t, epsilon)
        return assign(var, var_new), assign(m, m_new), assign(v, v_new)


class SparseApplyFtrl(_Sparse):
    """FTRL on the rows `indices` names, once per index in order: accum_new = accum + g^2;
    linear += g - (accum_new^-lr_power - accum^-lr_power) / lr * var; var = (sign(linear) l1 -
    linear) / (accum_new^-lr_power / lr + 2 l2) where |linear| > l1, else 0 (MindSpore's CPU
    kernel, which puts sign(linear) l1 where the dense ApplyFtrl's kernel puts l1). Returns
    (var, accum, linear)."""

    _slots = ("accum", "linear")

    def __init__(self, lr, l1, l2, lr_power, use_locking=False):
        op = type(self).__name__
        self._set(_check_attr(op, "use_locking", use_locking, bool),
                  lr=_check_attr(op, "lr", lr, float, 0.0, strict=True),
                  l1=_check_attr(op, "l1", l1, float, 0.0),
                  l2=_check_attr(op, "l2", l2, float, 0.0),
                  lr_power=_check_attr(op, "lr_power", lr_power, float, high=0))

    _summed = False

    def _rows(self, targets, scalars, grad):
        var, accum, linear = targets
        accum_new = F.add(accum, F.square(grad))
        power = -self.lr_power
        y = F.pow(accum_new, power)
        linear_new = F.sub(F.add(linear, grad),
                           F.mul(F.div(F.sub(y, F.pow(accum, power)), self.lr), var))
        value = F.div(F.sub(F.mul(F.sign(linear_new), self.l1), linear_new),
                      F.add(F.div(y, self.lr), 2.0 * self.l2))
        var_new = F.select(F.greater(F.abs(linear_new), self.l1), value, F.zeros_like(value))
        return var_new, accum_new, linear_new


class FusedSparseFtrl(SparseApplyFtrl):
    """SparseApplyFtrl with the gradient rows of a repeated index added up first."""

    _summed = True


class FusedSparseProximalAdagrad(_Sparse):
    """Proximal Adagrad on the rows `indices` names (their gradient rows added up): accum +=
    g^2; a = lr / sqrt(accum); prox = var - a g; var = shrink(prox, a l1) / (1 + a l2), the
    shrinking only where l1 > 0. Returns (var, accum)."""

    _slots = ("accum",)
    _scalars = ("lr", "l1", "l2")

    def __init__(self, use_locking=False):
        self._set(_check_attr(type(self).__name__, "use_locking", use_locking, bool))

    def _rows(self, targets, scalars, grad):
        var, accum = targets
        lr, l1, l2 = scalars
        accum_new = F.add(accum, F.square(grad))
        rate = F.div(lr, F.sqrt(accum_new))
        prox = F.sub(var, F.mul(grad, rate))
        # no shrinking where l1 <= 0: a threshold of rate * max(l1, 0)
        shrunk = _shrunk(prox, F.mul(rate, F.maximum(l1, 0.0)))
        return F.div(shrunk, F.add(F.mul(rate, l2), 1.0)), accum_new


class SparseApplyAdagrad(_Sparse):
    """Adagrad on the rows `indices` names (their gradient rows added up): accum += g^2 when
    update_slots; var -= lr g / sqrt(accum). Returns (var, accum)."""

    _slots = ("accum",)
    _float_checks = ("accum", "var", "grad")

    def __init__(self, lr, update_slots=True, use_locking=False):
        op = type(self).__name__
        self._set(_check_attr(op, "use_locking", use_locking, bool),
                  lr=_check_attr(op, "lr", lr, float),
                  update_slots=_check_attr(op, "update_slots", update_slots, bool))

    def _denominator(self, accum):
        return F.sqrt(accum)

    def _rows(self, targets, scalars, grad):
        var, accum = targets
        if self.update_slots:
            accum = F.add(accum, F.square(grad))
        step = F.mul(grad, F.div(self.lr, self._denominator(accum)))
        return F.sub(var, step), accum


class SparseApplyAdagradV2(SparseApplyAdagrad):
    """SparseApplyAdagrad with epsilon (var -= lr g / sqrt(accum + epsilon)), once per index in
    order (a repeated row is updated again from its new values)."""

    _summed = False

    def __init__(self, lr, epsilon, use_locking=False, update_slots=True):
        op = type(self).__name__
        self._set(_check_attr(op, "use_locking", use_locking, bool),
                  lr=_check_attr(op, "lr", lr, float),
                  epsilon=_check_attr(op, "epsilon", epsilon, float),
                  update_slots=_check_attr(op, "update_slots", update_slots, bool))

    def _denominator(self, accum):
        return F.sqrt(F.add(accum, self.epsilon))


class SparseApplyRMSProp(_Sparse):
    """RMSProp on the rows `indices` names, once per index in order: ms = rho ms + (1 - rho)
    g^2; mom = momentum mom + lr g / sqrt(ms + epsilon); var -= mom. Returns (var, ms,
    mom)."""

    _slots = ("ms", "mom")
    _scalars = ("lr",)
    _summed = False
    _float_checks = ("grad", "var", "ms", "mom")

    def __init__(self, rho, momentum, epsilon, use_locking=False):
        op = type(self).__name__
        self._set(_check_attr(op, "use_locking", use_locking, bool),
                  rho=_check_attr(op, "rho", rho, float),
                  momentum=_check_attr(op, "momentum", momentum, float),
                  epsilon=_check_attr(op, "epsilon", epsilon, float))

    def __call__(self, var, ms, mom, lr, grad, indices):
        var_shape, grad_shape = abstract_of(var).shape, abstract_of(grad).shape
        if tuple(var_shape) != tuple(grad_shape):  # one gradient row per row of var
            raise ShapeError(f"For primitive[SparseApplyRMSProp], the shape of grad : "
                             f"[{','.join(map(str, grad_shape))},] must be equal to "
                             f"[{','.join(map(str, var_shape))},]")
        return super().__call__(var, ms, mom, lr, grad, indices)

    def _rows(self, targets, scalars, grad):
        # as MindSpore's kernel: in float32 (float16 values are stored rounded), and ms kept
        # where the gradient is within float32's epsilon of zero
        dtype = abstract_of(targets[0]).dtype
        ms, mom, grad = (F.cast(t, dt.float32) for t in (targets[1], targets[2], grad))
        (lr,) = scalars
        lr = F.cast(lr, dt.float32) if is_tensor_like(lr) else lr
        moving = F.greater(F.abs(grad), float(np.finfo(np.float32).eps))
        ms = F.select(moving, F.add(F.mul(ms, self.rho), F.mul(F.square(grad), 1.0 - self.rho)),
                      ms)
        mom = F.add(F.mul(mom, self.momentum),
                    F.div(F.mul(grad, lr), F.sqrt(F.add(ms, self.epsilon))))
        mom = F.cast(mom, dtype)
        return F.sub(targets[0], mom), F.cast(ms, dtype), mom
