"""Elementwise arithmetic as compositions: `remainder`, `fmod`, `hypot`, `float_power`,
`heaviside`, `sgn`, `isclose`, `nan_to_num`, `lerp`, `logaddexp`, `xlogy`, `logit`, `addcmul`,
`eps`, ..."""
from __future__ import annotations

import math

import numpy as np

from cellgraph.compiler.effects import update_in_place
from cellgraph.ops.function.array_func.attributes import _tensor, is_tensor
from cellgraph.ops.function.array_func.creation import full_like
from cellgraph.ops.function.array_func.shape import moveaxis
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives import rounding_ops as R
from cellgraph.primitives.check_convert import check_tensor_dtype, not_tensor_error
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.core import abstract_of, running_eagerly
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, RunError
from cellgraph.primitives.floor_division import floor_divide
from cellgraph.primitives.gamma_ops import lgamma
from cellgraph.primitives.gamma_ops import zeta as _zeta

__all__ = [
    "addcmul",
    "approximate_equal",
    "deg2rad",
    "div",
    "divide",
    "eps",
    "exp2",
    "float_power",
    "fmod",
    "frac",
    "heaviside",
    "hypot",
    "index_add",
    "inplace_index_add",
    "isclose",
    "isfinite",
    "isinf",
    "isnan",
    "isneginf",
    "isposinf",
    "isreal",
    "lerp",
    "logaddexp",
    "logical_xor",
    "logit",
    "mvlgamma",
    "nan_to_num",
    "population_count",
    "pows",
    "rad2deg",
    "remainder",
    "sgn",
    "signbit",
    "subtract",
    "xlogy",
    "zeta",
]


def isreal(input):
    """True where an element has no imaginary part: everywhere for a real, integer or bool
    tensor, where the imaginary part is 0 for a complex one (`ops.isreal`)."""
    aval = _tensor(input, "isreal")
    if not aval.dtype.is_complex:
        return F.ones(tuple(aval.shape), dt.bool_)
    return F.equal(F.imag(input), 0)


def deg2rad(x):
    """x (a float tensor) in radians."""
    return F.mul(_angle(x), math.pi / 180)


def rad2deg(x):
    """x (a float tensor) in degrees."""
    return F.mul(_angle(x), 180 / math.pi)


def _angle(x):
    """deg2rad's and rad2deg's input: a float Tensor, as MindSpore's checks (a TypeError)."""
    if not is_tensor(x):
        raise DTypeError("The input x must be tensor")
    dtype = abstract_of(x).dtype
    if dtype not in (dt.float16, dt.float32, dt.float64):
        raise DTypeError(f"The 'x' should be one of [mindspore.float16, mindspore.float32, "
                         f"mindspore.float64], but got 'mindspore.{dtype.name.rstrip('_')}'.")
    return x


_POPCOUNT_TYPES = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.uint16, dt.uint32,
                   dt.uint64)


def population_count(input_x):
    """The number of set bits of each integer (of its two's complement, for a negative one), a
    uint8 Tensor: the sum of (x >> k) & 1 over the bits k of the dtype."""
    if not is_tensor(input_x):
        raise not_tensor_error("PopulationCount", "input_x", input_x)
    dtype = check_tensor_dtype("PopulationCount", "input_x", abstract_of(input_x).dtype,
                               _POPCOUNT_TYPES)
    count = None
    for k in range(8 * dtype.np.itemsize):
        bit = F.cast(R.bitwise_and(R.bitwise_right_shift(input_x, k), 1), dt.uint8)
        count = bit if count is None else count + bit
    return count


def isnan(input):
    return F.not_equal(input, input)


def isinf(input):
    return F.equal(F.abs(input), float("inf"))


def isfinite(input):
    return F.logical_and(F.equal(input, input), F.not_equal(F.abs(input), float("inf")))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|input - other| <= atol + rtol |other| elementwise, or equal (infinities of one sign
    are close, of opposite signs not); NaNs are equal when equal_nan."""
    finite = F.logical_and(isfinite(input), isfinite(other))
    a, b = (M.select(finite, v, 0.0) for v in (input, other))  # no inf - inf computed
    near = F.less_equal(F.abs(F.sub(a, b)), F.add(F.mul(F.abs(b), rtol), atol))
    close = F.logical_or(F.equal(input, other), F.logical_and(near, finite))
    if equal_nan:
        close = F.logical_or(close, F.logical_and(isnan(input), isnan(other)))
    return close


def _float(x, op: str):
    if not abstract_of(x).dtype.is_float:
        raise DTypeError(f"{op}: expected a float Tensor, got {abstract_of(x).dtype}")
    return x


def nan_to_num(input, nan=None, posinf=None, neginf=None):
    nan = 0.0 if nan is None else nan
    info = dt.finfo(abstract_of(_float(input, "nan_to_num")).dtype)
    posinf = float(info.max) if posinf is None else posinf
    neginf = float(info.min) if neginf is None else neginf
    out = M.select(M.not_equal(input, input), full_like(input, nan), input)
    out = M.select(M.equal(out, float("inf")), full_like(input, posinf), out)
    return M.select(M.equal(out, float("-inf")), full_like(input, neginf), out)


def lerp(input, end, weight):
    return input + weight * (end - input)


def logaddexp(input, other):
    top = M.maximum(input, other)
    return top + M.log(M.exp(input - top) + M.exp(other - top))


def xlogy(input, other):
    """input * log(other), zero where input is zero (whatever other is)."""
    zero = input == 0
    safe = M.select(zero, A.ones_like(other * input), other * A.ones_like(input))
    return M.select(zero, A.zeros_like(input * safe), input * M.log(safe))


def zeta(input, other):
    """The Hurwitz zeta function zeta(input, other), as MindSpore's functional form: a Python
    number is cast to the other operand's dtype, and the operand with fewer elements is
    broadcast to the other's shape."""
    if isinstance(input, (int, float)):
        if not is_tensor(other):
            raise DTypeError("For 'zeta', at least one of the inputs should be Tensor.")
        input = A.cast(np.asarray(input), dtype=abstract_of(other).dtype)
    if isinstance(other, (int, float)):
        if not is_tensor(input):
            raise DTypeError("For 'zeta', at least one of the inputs should be Tensor.")
        other = A.cast(np.asarray(other), dtype=abstract_of(input).dtype)
    x, q = abstract_of(input), abstract_of(other)
    if x.size < q.size:
        input = F.broadcast_to(input, tuple(q.shape))
    elif x.size > q.size:
        other = F.broadcast_to(other, tuple(x.shape))
    return _zeta(input, other)


def logit(input, eps=None):
    if eps is not None:
        input = NF.clip_by_value(input, float(eps), 1.0 - float(eps))
    return M.log(input / (1 - input))


def addcmul(input, tensor1, tensor2, value=1):
    """input + value * tensor1 * tensor2."""
    return M.add(input, M.mul(value, M.mul(tensor1, tensor2)))


def _int_mod_by_zero_is_input(input, other, mod):
    """`mod`, except that an integer taken modulo 0 stays itself (MindSpore's remainder and
    fmod; its FloorMod answers 0 or the dtype's min there)."""
    if abstract_of(mod).dtype.is_float:
        return mod
    zeros = F.zeros_like(mod)
    return M.select(M.equal(M.add(zeros, other), 0), M.add(zeros, input), mod)


def remainder(input, other):
    """x mod y with the divisor's sign, as Python's %; an integer mod 0 is itself."""
    return _int_mod_by_zero_is_input(input, other, R.floor_mod(input, other))


def fmod(input, other):
    """The remainder of truncated division: the dividend's sign (C's fmod); an integer mod 0 is
    itself."""
    mod = _int_mod_by_zero_is_input(input, other, R.floor_mod(input, other))
    # floor_mod has the divisor's sign; where the signs differ (and mod is not 0), step back
    differ = M.logical_and(M.not_equal(mod, 0), M.less(M.mul(mod, input), 0))
    return M.select(differ, M.sub(mod, other), mod)


def hypot(input, other):
    """sqrt(input^2 + other^2)."""
    return M.sqrt(M.add(M.mul(input, input), M.mul(other, other)))


def logical_xor(input, other):
    """input != other as bools; a Python scalar operand must be a bool (MindSpore's TypeError)."""
    for value in (input, other):
        if isinstance(value, (int, float, complex)) and not isinstance(value, bool):
            kinds = ["Tensor" if is_tensor(v) else type(v).__name__ for v in (input, other)]
            raise DTypeError(f'Failed calling LogicalXor with "LogicalXor()(input={kinds[0]}, '
                             f'other={kinds[1]})".')
    return M.not_equal(F.cast(input, dt.bool_), F.cast(other, dt.bool_))


def frac(x):
    """The fractional part, with the input's sign: x - trunc(x)."""
    return M.sub(x, R.trunc(x))


def exp2(input):
    return M.pow_(2.0, _as_float(input))


def float_power(input, exponent):
    """input ** exponent computed in float64."""
    return M.pow_(F.cast(input, dt.float64), F.cast(exponent, dt.float64) if is_tensor(
        exponent) else float(exponent))


def heaviside(input, values):
    """0 below zero, 1 above, `values` at zero (the two broadcast together)."""
    shape = tuple(np.broadcast_shapes(abstract_of(input).shape, abstract_of(values).shape))
    input = F.broadcast_to(input, shape)
    ones, zeros = A.ones_like(input), A.zeros_like(input)
    at_zero = F.broadcast_to(F.cast(values, abstract_of(input).dtype), shape)
    return M.select(M.greater(input, 0), ones, M.select(M.less(input, 0), zeros, at_zero))


def isposinf(input):
    return M.logical_and(isinf(input), M.greater(input, 0))


def isneginf(input):
    return M.logical_and(isinf(input), M.less(input, 0))


def signbit(input):
    """Whether the sign bit is set: true for negative numbers and -0.0."""
    if not abstract_of(input).dtype.is_float:
        return M.less(input, 0)
    # atan2(-0.0, -1) is -pi, atan2(0.0, -1) is pi: the sign of a zero, without dividing by it
    negative_zero = M.logical_and(M.equal(input, 0),
                                  M.less(M.atan2(input, F.fill(abstract_of(input).dtype,
                                                               abstract_of(input).shape, -1)), 0))
    return M.logical_or(M.less(input, 0), negative_zero)


def sgn(input):
    """sign(x) for real x; x / |x| (0 at 0) for complex x."""
    if not abstract_of(input).dtype.is_complex:
        return M.sign(input)
    size = M.abs_(input)
    safe = M.select(M.equal(size, 0), A.ones_like(size), size)
    return M.select(M.equal(size, 0), A.zeros_like(input), M.div(input, F.cast(safe, abstract_of(
        input).dtype)))


def _as_float(x):
    return x if abstract_of(x).dtype.is_float else F.cast(x, dt.float32)


def eps(x):
    """x's dtype's machine epsilon (the gap from 1 to the next number), in x's shape."""
    dtype = _tensor(x, "Eps", "x").dtype
    if not dtype.is_float:
        raise DTypeError(f"Eps: expected a float Tensor, got {dtype}")
    return F.fill(dtype, abstract_of(x).shape, float(dt.finfo(dtype).eps))


def pows(input, exponent):
    return F.pow(input, exponent)


def check_tolerance(tolerance) -> None:
    """ApproximateEqual's `tolerance` is a Python float (MindSpore's TypeError otherwise)."""
    if not isinstance(tolerance, float):
        raise DTypeError(f"For 'ApproximateEqual', the type of 'tolerance' should be 'float', but "
                         f"got type '{type(tolerance).__name__}'.")


def approximate_equal(x, y, tolerance=1e-05):
    """|x - y| < tolerance, elementwise, as bools; `y` is read in `x`'s dtype, the shapes must
    be the same and the rank below 8 (MindSpore's RuntimeErrors otherwise)."""
    check_tolerance(tolerance)
    a, b = _tensor(x, "approximate_equal"), _tensor(y, "approximate_equal", "y")
    if len(a.shape) >= 8:
        raise RunError(f"For 'ApproximateEqual', the x's rank should be less than 8, but got: "
                       f"{len(a.shape)}")
    if tuple(a.shape) != tuple(b.shape):
        raise RunError(f"For 'ApproximateEqual', arg 'x1' must have the same shape as 'x2'. But "
                       f"got 'x1' shape: {tuple(a.shape)}, 'x2' shape: {tuple(b.shape)}.")
    return F.less(F.abs(F.sub(x, F.cast(y, a.dtype))), tolerance)


def _bool_as_other(x, y):
    """A bool Tensor beside a Tensor of numbers takes that one's dtype (MindSpore's implicit
    conversion)."""
    x_bool = is_tensor(x) and abstract_of(x).dtype.is_bool
    y_bool = is_tensor(y) and abstract_of(y).dtype.is_bool
    if x_bool and is_tensor(y) and not y_bool:
        return F.cast(x, abstract_of(y).dtype), y
    if y_bool and is_tensor(x) and not x_bool:
        return x, F.cast(y, abstract_of(x).dtype)
    return x, y


def truncate_div(x, y):
    """x / y rounded toward zero (integers exactly, through their magnitudes); an integer
    divided by 0 is what MindSpore's kernels give, as floor_div's: the dtype's max for x > 0,
    its min for x < 0, 0 for x = 0."""
    x, y = _bool_as_other(x, y)
    if abstract_of(x).dtype.is_float:
        return F.trunc(F.div(x, y))
    if is_tensor(x) and isinstance(y, int) and not isinstance(y, bool):
        y = full_like(x, y)  # a Python int takes the integer Tensor's dtype
    quotient = F.floor_div(F.abs(x), F.abs(y))
    quotient = F.select(F.equal(F.sign(x), F.sign(y)), quotient, F.neg(quotient))
    return F.select(F.equal(y, 0), F.floor_div(x, y), quotient)



def div(input, other, *, rounding_mode=None):
    """input / other; rounding_mode "floor" rounds the quotient down, "trunc" toward zero
    (integer operands then give integers, as MindSpore's)."""
    if rounding_mode is None:
        return F.div(input, other)
    if rounding_mode == "floor":
        return floor_divide(input, other)
    if rounding_mode == "trunc":
        return truncate_div(input, other)
    raise ArgumentValueError(f"For ops.div, rounding_mode value should be None, 'floor' or "
                             f"'trunc', got {rounding_mode!r}.")


def divide(input, other, *, rounding_mode=None):
    """`ops.div` under its other name."""
    return div(input, other, rounding_mode=rounding_mode)


def subtract(input, other, *, alpha=1):
    """input - alpha * other."""
    return F.sub(input, other if _is_one(alpha) else F.mul(other, alpha))


def _is_one(alpha) -> bool:
    return isinstance(alpha, (bool, int, float)) and alpha == 1


def index_added(input, dim, index, source):
    """`input` with the slices of `source` along `dim` added at `index` (a new Tensor)."""
    rank = len(input.shape)
    dim = dim + rank if dim < 0 else dim
    moved = moveaxis(input, dim, 0) if dim else input
    updates = moveaxis(source, dim, 0) if dim else source
    out = F.tensor_scatter_add(moved, F.reshape(index, (-1, 1)), F.cast(updates, moved.dtype))
    return moveaxis(out, 0, dim) if dim else out


_MVLGAMMA_DOMAIN = "For Mvlgamma, all elements of 'x' must be greater than (p-1)/2."


def mvlgamma(input, p):
    """The multivariate log-gamma of dimension p, elementwise: p(p-1)/4 log(pi) + sum over
    i < p of lgamma(x - i/2), summed in that order in x's dtype (float32 or float64), as
    MindSpore's CPU kernel does. Every element must exceed (p-1)/2 (NaN does not): a ValueError
    at once when eager, when the graph runs otherwise."""
    if isinstance(p, bool) or not isinstance(p, int):
        raise DTypeError(f"For 'Mvlgamma', the type of 'p' should be 'int', but got type "
                         f"'{type(p).__name__}'.")
    if p < 1:
        raise ArgumentValueError(f"For 'Mvlgamma', the 'p' must be int and must > 0, but got "
                                 f"'{p}' with type 'int'.")
    dtype = check_tensor_dtype("Mvlgamma", "x", abstract_of(input).dtype,
                               (dt.float32, dt.float64))
    bound = (p - 1) / 2
    outside = F.logical_not(F.greater(input, F.cast(bound, dtype)))
    if running_eagerly():
        if bool(np.any(outside.asnumpy())):
            raise ArgumentValueError(_MVLGAMMA_DOMAIN)
    else:
        check_range(F.reduce_sum(F.cast(outside, dt.int32)), low=0, high=1, op="Mvlgamma",
                    what=_MVLGAMMA_DOMAIN + " Elements not greater:", error="value")
    real = np.float32 if dtype == dt.float32 else np.float64
    out = full_like(input, real(p * (p - 1)) * real(np.log(np.pi)) * real(0.25))
    for i in range(p):
        out = F.add(out, lgamma(F.sub(input, F.cast(real(0.5) * i, dtype))))
    return out


def index_add(x, indices, y, axis, use_lock=True, check_index_bound=True):
    """`ops.index_add`: x with y's slices along `axis` added at `indices` (int32), written into x
    (a Parameter, or a Tensor in place) as MindSpore's IndexAdd does; returns the new value,
    which differentiates as the sum it is (dx = dout, dy = dout's slices at `indices`), as
    IndexAdd's does. Out-of-range indices are an error whatever `check_index_bound` says, and
    `use_lock` (a GPU kernel's choice) changes nothing on the CPU."""
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise DTypeError(f"For 'IndexAdd', the type of 'axis' should be 'int', but got type "
                         f"'{type(axis).__name__}'.")
    check_tensor_dtype("IndexAdd", "indices type", abstract_of(indices).dtype, (dt.int32,))
    rank = abstract_of(x).ndim
    if not -rank <= axis < rank:
        raise ArgumentValueError(f"For primitive[IndexAdd], the axis must be in "
                                 f"({-rank - 1},{rank}), but got {axis}.")
    count, y_shape = abstract_of(indices).size, abstract_of(y).shape
    if len(y_shape) == rank and y_shape[axis] != count:
        raise ArgumentValueError(f"For primitive[IndexAdd], the attribute[size of indices] must "
                                 f"be equal to {y_shape[axis]}, but got {count}.")
    new = index_added(x, axis, indices, y)
    update_in_place(x, new)
    return new


def inplace_index_add(var, indices, updates, axis):
    """`ops.inplace_index_add(var, indices, updates, axis)`: `var[..., indices[i], ...] +=
    updates[..., i, ...]` along `axis`, written into `var` (a Parameter or a Tensor), which it
    returns (MindSpore's InplaceIndexAdd)."""
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise DTypeError(f"For 'InplaceIndexAdd', the 'axis' must be int, but got "
                         f"{type(axis).__name__}")
    return update_in_place(var, index_added(var, axis, indices, updates))
