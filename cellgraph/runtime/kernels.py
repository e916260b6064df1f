"""The kernel table: one kernel per primitive, written once over the array API.

A kernel is `fn(xp, *operands, **params)`, `xp` an array-API namespace: NumPy's main namespace
(NumPy >= 2 follows the standard), or `array_api_compat.torch` / `array_api_compat.cupy`. A
backend binds the table to its namespace once (`bind_kernels`), so generated code calls
`k_mul(x, y)` with no namespace argument; a primitive whose declaration names its array-API
function (`array_api="atan2"`) needs no entry here: that function is its kernel, bound directly.

Kernels trust their operands: the type rules checked them, and promotion happened in the graph
(`cast` nodes, see ops/core.Promote), so the operands of an elementwise kernel already have the
result dtype (Python scalars may stand for weak operands). Kernels are functional (no writes
into arrays), so that the table also serves namespaces without in-place updates (`jax.numpy`);
a kernel that is better written with one lives in its backend's override table.
"""
from __future__ import annotations

import functools
import math
import types
from collections.abc import Callable

import numpy as np

from cellgraph.primitives.check_ops import CHECK_ERRORS, range_message
from cellgraph.primitives.core import PRIMITIVES, to_numpy_index

from .bessel_kernels import BESSEL_KERNELS
from .numpy_compat import NUMPY2
from .select_order import unsorted_topk_order

TABLE: dict[str, Callable] = {}  # primitive name -> fn(xp, *operands, **params)


def registrar(table: dict):
    """`@kernel("name", ...)` for `table`: registers a function as each named primitive's."""
    def kernel(*names: str):
        def deco(fn):
            for name in names:
                table[name] = fn
            return fn
        return deco
    return kernel


kernel = registrar(TABLE)


class _Namespace(types.SimpleNamespace):
    """A flat copy of a module's names; a name it lacks (a submodule the library imports on
    first use, such as numpy.fft or numpy.ma) is looked up on the module when first read."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(vars(self)["_module"], name)
        setattr(self, name, value)
        return value


def namespace(xp, **extras) -> types.SimpleNamespace:
    """`xp`'s functions plus `extras`, for what its array-API namespace lacks (`erf`).

    A flat copy rather than a wrapper, so a kernel's `xp.exp` costs one dictionary lookup, as
    it does on a module. Only what the module holds is copied: reading every name in `dir`
    would import each submodule NumPy loads lazily (a fifth of a second at start-up)."""
    names = {k: v for k, v in vars(xp).items() if not k.startswith("__")}
    return _Namespace(**{**names, **extras, "_module": xp})


def bind_kernel(xp, name: str) -> Callable | None:
    """The kernel of primitive `name` on namespace `xp`, or None if the table has none."""
    fn = TABLE.get(name)
    if fn is not None:
        return functools.partial(fn, xp)
    prim = PRIMITIVES.get(name)
    if prim is not None and prim.array_api is not None:
        return getattr(xp, prim.array_api)
    return None


def bind_kernels(xp) -> dict[str, Callable]:
    """Every kernel of the table (and of the declarations' array-API functions) on `xp`."""
    names = set(TABLE) | {p.name for p in PRIMITIVES.values() if p.array_api is not None}
    return {name: bind_kernel(xp, name) for name in sorted(names)}


def dtype_of(xp, dtype):
    """The namespace's dtype object for a cellgraph DType (NumPy has no bfloat16: there it is
    ml_dtypes' type, which NumPy arrays hold)."""
    found = getattr(xp, dtype.np_name, None)
    return dtype.np if found is None else found


def _axes(axis):
    return None if axis == () else axis  # `axis=()` means every axis


@kernel("check_range", "checked_value")
def _check_range(xp, x, low, high, what, op=None, error="index"):
    """`x` itself, or IndexError (ValueError with error="value", RuntimeError with
    error="runtime") naming the values outside [low, high) (primitives/check_ops.py)."""
    outside = (x < low) | (x >= high)
    if not bool(xp.any(outside)):  # the common case, without boolean indexing's nonzero pass
        return x
    offending = x[outside]
    raise CHECK_ERRORS[error](range_message([int(v) for v in offending[:5]], int(offending.shape[0]),
                                   low, high, what))


# ----- integer division by zero, as MindSpore 2.10's CPU kernels answer it ------------------------


def _is_kind(xp, dtype, kind) -> bool:
    """xp.isdtype, False for a dtype the namespace does not know (ml_dtypes' bfloat16, float8s:
    floats)."""
    try:
        return xp.isdtype(dtype, kind)
    except TypeError:
        return False


@kernel("sub")
def _sub(xp, x, y):
    """x - y; of two bools, MindSpore's answer, their exclusive or (True - True is False,
    False - True is True), where NumPy refuses boolean subtraction."""
    dtype = getattr(x, "dtype", None) or getattr(y, "dtype", None)
    if dtype is not None and _is_kind(xp, dtype, "bool"):
        return xp.logical_xor(x, y)
    return xp.subtract(x, y)


def _int_dtype(xp, x, y):
    """The integer dtype of x // y (operands already share it; one may be a Python int)."""
    dtype = getattr(x, "dtype", None) or getattr(y, "dtype", None)
    return dtype if dtype is not None and _is_kind(xp, dtype, "integral") else None


def _zero_divisor(xp, x, y):
    """(dtype, mask of zero divisors) when x // y divides integers, else None (no test of the
    data here: a tracing backend, jax, runs these kernels too)."""
    dtype = _int_dtype(xp, x, y)
    return None if dtype is None else (dtype, xp.asarray(y, dtype=dtype) == 0)


@kernel("floor_div")
def _floor_div(xp, x, y):
    """x // y; an integer divided by 0 gives the dtype's max for x > 0, its min for x < 0 and
    0 for x = 0 (MindSpore's FloorDiv), not NumPy's 0."""
    found = _zero_divisor(xp, x, y)
    if found is None:
        return xp.floor_divide(x, y)
    dtype, zero = found
    x, y = xp.asarray(x, dtype=dtype), xp.asarray(y, dtype=dtype)  # a Python int among them
    quotient = xp.floor_divide(x, xp.where(zero, xp.asarray(1, dtype=dtype), y))
    info = xp.iinfo(dtype)
    limit = xp.where(x > 0, xp.asarray(info.max, dtype=dtype),
                     xp.where(x < 0, xp.asarray(info.min, dtype=dtype),
                              xp.asarray(0, dtype=dtype)))
    return xp.where(zero, limit, quotient)


@kernel("pow")
def _pow(xp, x, y):
    """x ** y; an integer to a negative integer power is what MindSpore's Pow kernel answers
    (the power in floating point, truncated): 1 for x = 1, +-1 by the parity of y for x = -1,
    0 for other x (and for x = 0 the dtype's min for 32- and 64-bit integers, 0 for the
    narrower ones), where NumPy and torch raise."""
    dtype = _int_dtype(xp, x, y)
    if dtype is None or not _is_kind(xp, dtype, "signed integer"):
        return xp.pow(x, y)
    x, y = xp.asarray(x, dtype=dtype), xp.asarray(y, dtype=dtype)  # a Python int among them
    negative = y < 0
    power = xp.pow(x, xp.where(negative, xp.asarray(0, dtype=dtype), y))
    one, zero = xp.asarray(1, dtype=dtype), xp.asarray(0, dtype=dtype)
    info = xp.iinfo(dtype)
    at_zero = xp.asarray(info.min if info.bits >= 32 else 0, dtype=dtype)
    odd = xp.remainder(y, xp.asarray(2, dtype=dtype)) != 0
    fraction = xp.where(x == 1, one, xp.where(x == -1, xp.where(odd, -one, one),
                                              xp.where(x == 0, at_zero, zero)))
    return xp.where(negative, fraction, power)


@kernel("sign")
def _sign(xp, x):
    """-1, 0 or 1; 0 for a NaN, as MindSpore's Sign gives."""
    out = xp.sign(x)
    return xp.where(xp.not_equal(x, x), xp.zeros_like(out), out)  # only a NaN differs from itself


@kernel("floor_mod")
def _floor_mod(xp, x, y):
    """x mod y with y's sign; an integer mod 0 is the dtype's min for signed 32- and 64-bit
    integers and 0 for the others (MindSpore's FloorMod), not NumPy's 0."""
    found = _zero_divisor(xp, x, y)
    if found is None:
        return xp.remainder(x, y)
    dtype, zero = found
    x, y = xp.asarray(x, dtype=dtype), xp.asarray(y, dtype=dtype)  # a Python int among them
    info = xp.iinfo(dtype)
    rest = xp.remainder(x, xp.where(zero, xp.asarray(1, dtype=dtype), y))
    at_zero = info.min if info.min < 0 and info.bits >= 32 else 0
    return xp.where(zero, xp.asarray(at_zero, dtype=dtype), rest)


# ----- elementwise without an array-API function of their own -----------------------------------

TABLE["rsqrt"] = lambda xp, x: 1 / xp.sqrt(x)
TABLE["reciprocal"] = lambda xp, x: 1 / x
# float16's exp(-x) is finite down to x = -11.086 (65250); below it the quotient is 0
_FLOAT16_EXP_NEG_MIN = -11.0859375


@kernel("sigmoid")
def _sigmoid(xp, x):
    """1 / (1 + exp(-x)); float16 each step rounded to float16, as MindSpore's CPU kernel
    computes it (0.7573 at x = 1.14; the tanh form gave 0 below x = -8, where the value is
    1.5e-5 at -11); other dtypes by the tanh form, which has no overflow for large -x."""
    if getattr(x, "dtype", None) != xp.float16:
        return 0.5 * (xp.tanh(0.5 * x) + 1)
    limit = xp.asarray(_FLOAT16_EXP_NEG_MIN, dtype=x.dtype)
    quotient = 1 / (1 + xp.exp(-xp.maximum(x, limit)))  # no overflow: -x <= 11.086
    return xp.where(x < limit, xp.zeros_like(x), quotient)


TABLE["relu"] = lambda xp, x: xp.maximum(x, 0)
TABLE["relu_grad"] = lambda xp, x, dy: xp.where(x > 0, dy, xp.zeros_like(dy))
TABLE["stop_gradient"] = lambda xp, x: x
TABLE["assigned_read"] = lambda xp, variable, value: xp.broadcast_to(
    value, np.broadcast_shapes(tuple(variable.shape), tuple(value.shape)))
TABLE["erf"] = lambda xp, x: xp.erf(x)


def _normal_cdf(xp, x):
    """Phi(x), the standard normal distribution function."""
    return 0.5 * (1 + xp.erf(x * math.sqrt(0.5)))


def _gelu_slope(xp, x, cdf):
    """d/dx x * Phi(x) = Phi(x) + x * phi(x), given cdf = Phi(x); phi the normal density."""
    return cdf + x * xp.exp(-0.5 * (x * x)) * (1 / math.sqrt(2 * math.pi))


TABLE["normal_cdf"] = _normal_cdf
TABLE["gelu"] = lambda xp, x: x * _normal_cdf(xp, x)
TABLE["gelu_grad"] = lambda xp, x, dy: dy * _gelu_slope(xp, x, _normal_cdf(xp, x))


@kernel("gelu_and_slope")
def _gelu_and_slope(xp, x):
    """(x * Phi(x), Phi(x) + x * phi(x)): GeLU and its derivative."""
    cdf = _normal_cdf(xp, x)
    return x * cdf, _gelu_slope(xp, x, cdf)


@kernel("gelu_tanh")
def _gelu_tanh(xp, x):
    return 0.5 * x * (1 + xp.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * (x * x * x))))


@kernel("gelu_tanh_grad")
def _gelu_tanh_grad(xp, x, dy):
    """dy * (0.5 (1 + t) + 0.5 x (1 - t^2) u'), t = tanh(u), u = sqrt(2/pi) (x + 0.044715 x^3)."""
    square = x * x
    t = xp.tanh(math.sqrt(2 / math.pi) * x * (1 + 0.044715 * square))
    slope = math.sqrt(2 / math.pi) * (1 + 3 * 0.044715 * square)
    return dy * (0.5 * (1 + t + x * slope * (1 - t * t)))


def _in_operand_dtype(fn):
    """`fn`'s results in its first operand's dtype. NumPy 1 computes 0-d operands with the
    Python number constants of these formulas in float64 (value-based promotion), where NumPy 2
    (NEP 50) and the other namespaces keep the operand's dtype, as the type rules say."""
    @functools.wraps(fn)
    def kernel(xp, x, *rest):
        out = fn(xp, x, *rest)
        if isinstance(out, tuple):
            return tuple(xp.asarray(o, dtype=x.dtype) for o in out)
        return xp.asarray(out, dtype=x.dtype)
    return kernel



TABLE.update(BESSEL_KERNELS)
TABLE["softplus"] = lambda xp, x: xp.logaddexp(xp.zeros_like(x), x)
TABLE["clip_by_value"] = lambda xp, x, lo, hi: xp.minimum(xp.maximum(x, lo), hi)


def is_complex_array(x) -> bool:
    """Whether an array of any backend holds complex numbers (torch.complex64 prints so)."""
    return str(getattr(x, "dtype", "")).endswith(("complex64", "complex128"))


@kernel("cast")
def _cast(xp, x, dtype):
    if is_complex_array(x) and not dtype.is_complex:  # MindSpore keeps the real part
        x = xp.real(x)
    with np.errstate(invalid="ignore", over="ignore"):  # NaN and overflow cast as C casts them
        return xp.asarray(x, dtype=dtype_of(xp, dtype))


@kernel("view_dtype")
def _view_dtype(xp, x, dtype):
    """x's bytes read as `dtype`: the row-major bytes (a flat copy where x is strided) viewed,
    then the last axis resized; a bool is any nonzero byte, as MindSpore reads one."""
    x = xp.asarray(x)
    shape = tuple(x.shape)
    target = xp.uint8 if dtype.is_bool else dtype_of(xp, dtype)
    flat = xp.reshape(x, (-1,)).view(target)
    if dtype.is_bool:
        flat = flat != 0
    if not shape:
        return xp.reshape(flat, ())
    last = shape[-1] * x.dtype.itemsize // dtype.np.itemsize
    return xp.reshape(flat, shape[:-1] + (last,))


def _count(xp, count, size: int) -> int:
    n = int(xp.reshape(count, (-1,))[0])
    if not 0 <= n <= size:  # topk's k beyond the axis
        raise ValueError(f"expected a count (topk's k) in [0, {size}], got {n}")
    return n


@kernel("sequence_range")
def _sequence_range(xp, start, stop, step):
    step = int(step)
    if step == 0:
        raise ValueError("For 'range', the step must not be 0")
    return xp.asarray(np.arange(int(start), int(stop), step, dtype=np.int64))


@kernel("shape_of")
def _shape_of(xp, x):
    return xp.asarray(tuple(x.shape), dtype=xp.int64)


@kernel("reshape_to")
def _reshape_to(xp, x, shape):
    return xp.reshape(x, tuple(int(d) for d in shape))


def _fill_value(value, dtype):
    """A Python int as an integer `dtype` holds it: MindSpore's Fill casts as C does, so one
    outside the dtype's range wraps (300 as int8 is 44, 2**63 as int64 is -2**63)."""
    if type(value) is not int or not dtype.is_int:
        return value
    info = np.iinfo(dtype.np)
    if info.min <= value <= info.max or not -2**63 <= value < 2**64:
        return value  # (past 64 bits: NumPy's OverflowError says so)
    return np.array(value).astype(dtype.np).item()


@kernel("fill_to")
def _fill_to(xp, shape, dtype, value):
    return xp.full(tuple(int(d) for d in shape), _fill_value(value, dtype),
                   dtype=dtype_of(xp, dtype))


@kernel("take_first")
def _take_first(xp, x, count, axis=0):
    axis %= x.ndim
    return x[(slice(None),) * axis + (slice(0, _count(xp, count, x.shape[axis])),)]


@kernel("take_first_grad")
def _take_first_grad(xp, g, count, axis, size):
    zeros = list(g.shape)
    zeros[axis] = size - g.shape[axis]
    return xp.concat([g, xp.zeros(tuple(zeros), dtype=g.dtype)], axis=axis)


# Generic spelling; backends whose complex arithmetic turns inf * 1j into nan override it.
TABLE["complex"] = lambda xp, re, im: re + im * 1j
TABLE["conj"] = lambda xp, x: xp.conj(x)
TABLE["angle"] = lambda xp, x: xp.atan2(xp.imag(x), xp.real(x))
TABLE["fill"] = lambda xp, dtype, shape, value: xp.full(shape, _fill_value(value, dtype),
                                                        dtype=dtype_of(xp, dtype))


def _dropout(xp, x, mask, keep_prob):
    """mask * x * scale with MindSpore's CPU kernel's scale, 1.f / keep_prob in float32; a
    float16 x is scaled in float32 and rounded once, as that kernel does."""
    scale = float(np.float32(1.0) / np.float32(keep_prob))
    if x.dtype == xp.float16:
        return xp.astype(xp.astype(x, xp.float32) * scale, x.dtype) * xp.astype(mask, x.dtype)
    return x * xp.astype(mask, x.dtype) * scale


TABLE["dropout"] = _dropout


@kernel("matmul")
def _matmul(xp, x, y, transpose_a=False, transpose_b=False):
    return xp.matmul(xp.matrix_transpose(x) if transpose_a else x,
                     xp.matrix_transpose(y) if transpose_b else y)


# ----- reductions -------------------------------------------------------------------------------

def float32_kernel(shape, axis, mean: bool) -> str | None:
    """Which of MindSpore's CPU kernels keeping a float32 running sum its ReduceSum
    (ReduceMean: `mean`) of a float32 tensor of `shape` over `axis` runs: "rows" for axis 1 of
    a 2-D tensor, "columns" for a sum over the leading axis where every other axis summed has
    size 1. None for every other reduction, which it accumulates in a double and rounds to
    float32 once at the end."""
    ndim = len(shape)
    axes = sorted(a % ndim for a in axis) if axis and ndim else list(range(ndim))
    if ndim == 2 and axes == [1]:
        return "rows"
    if not mean and ndim >= 2 and axes[:1] == [0] and all(shape[a] == 1 for a in axes[1:]):
        return "columns"
    return None


LANES = 8  # float32 lanes of an AVX register


def _row_sums(xp, x):
    """Each row's float32 sum of a 2-D x in MindSpore's order: eight running lane sums over
    the first multiple of eight columns, those lanes added in turn, then the columns left."""
    rows, n = x.shape
    whole = n - n % LANES
    total = xp.zeros((rows,), dtype=x.dtype)
    if whole:
        lanes = xp.sum(xp.reshape(x[:, :whole], (rows, whole // LANES, LANES)), axis=1)
        for i in range(LANES):
            total = total + lanes[:, i]
    for k in range(whole, n):
        total = total + x[:, k]
    return total


def float32_sum(xp, x, axis, keep_dims, mean=False):
    """A float32 sum as MindSpore's CPU ReduceSum adds it (float32_kernel): its float32
    kernels' orders, else accumulated in float64 and rounded once, which gives the exact sum
    correctly rounded rather than a float32 sum whose error grows with the count. A small
    difference there matters where it is amplified downstream (a BatchNorm over the two
    values of a batch after a global average pool)."""
    found = float32_kernel(x.shape, axis, mean)
    if found is None:
        return xp.astype(xp.sum(xp.astype(x, xp.float64), axis=_axes(axis),
                                keepdims=keep_dims), x.dtype)
    ndim = x.ndim
    axes = {a % ndim for a in axis} if axis else set(range(ndim))
    if found == "rows":
        out = _row_sums(xp, x)
    else:  # row after row, in float32
        out = xp.sum(xp.reshape(x, (x.shape[0], math.prod(x.shape[1:]))), axis=0,
                     dtype=x.dtype)
    shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape) if keep_dims
                  or i not in axes)
    return xp.reshape(out, shape)


def _reduce_sum(xp, x, axis=(), keep_dims=False):
    if x.dtype == xp.float32:
        return float32_sum(xp, x, axis, keep_dims)
    if x.dtype == xp.float16:  # MindSpore's CPU kernel: added in float32, rounded once
        return xp.astype(xp.sum(xp.astype(x, xp.float32), axis=_axes(axis), keepdims=keep_dims),
                         xp.float16)
    return xp.sum(x, axis=_axes(axis), keepdims=keep_dims, dtype=x.dtype)


TABLE["reduce_sum"] = _reduce_sum
TABLE["reduce_prod"] = lambda xp, x, axis=(), keep_dims=False: xp.prod(
    x, axis=_axes(axis), keepdims=keep_dims, dtype=x.dtype)


def mean_of_sum(xp, x, total):
    """`total`, a float reduction of x, divided by the count of values each element sums."""
    size, kept = math.prod(x.shape), math.prod(total.shape)
    count = size // kept if kept else 1  # 0 for an empty reduction: nan, as MindSpore's
    return total / xp.asarray(count, dtype=total.dtype)


@kernel("reduce_mean")
def _reduce_mean(xp, x, axis=(), keep_dims=False):
    """The mean; of integers, their sum in the dtype divided by the count rounded towards zero
    (MindSpore's ReduceMean keeps the dtype), and of bools a float32."""
    if _is_kind(xp, x.dtype, "bool"):
        return xp.astype(xp.mean(xp.astype(x, xp.float32), axis=_axes(axis), keepdims=keep_dims),
                         xp.float32)
    if x.dtype == xp.float32:  # MindSpore's: the float32 sum, divided in float32
        return mean_of_sum(xp, x, float32_sum(xp, x, axis, keep_dims, mean=True))
    if not _is_kind(xp, x.dtype, "integral"):
        return xp.mean(x, axis=_axes(axis), keepdims=keep_dims)
    total = xp.asarray(xp.sum(x, axis=_axes(axis), keepdims=keep_dims, dtype=x.dtype))
    # the count in the dtype: NumPy 1 promotes a 0-d int32 by a Python int to int64
    count = xp.asarray(max(math.prod(x.shape) // max(math.prod(total.shape), 1), 1),
                       dtype=x.dtype)
    if xp.isdtype(x.dtype, "unsigned integer"):
        return total // count
    magnitude = xp.abs(total) // count
    return xp.where(total < 0, -magnitude, magnitude)


# bools reduce as any / all, whose identities (False / True) give an empty reduction's value
# (the dtype read by name: NumPy 1's namespace has no `bool`, and `isdtype` refuses ml_dtypes')
_BOOL_NAMES = ("bool", "torch.bool")
TABLE["reduce_max"] = lambda xp, x, axis=(), keep_dims=False: (
    xp.any if str(x.dtype) in _BOOL_NAMES else xp.max)(x, axis=_axes(axis), keepdims=keep_dims)
TABLE["reduce_min"] = lambda xp, x, axis=(), keep_dims=False: (
    xp.all if str(x.dtype) in _BOOL_NAMES else xp.min)(x, axis=_axes(axis), keepdims=keep_dims)


@kernel("argmax")
def _argmax(xp, x, axis, keep_dims=False, dtype=None):
    return xp.astype(xp.argmax(x, axis=axis, keepdims=keep_dims), dtype_of(xp, dtype))


@kernel("softmax")
def _softmax(xp, x, axis=-1):
    e = xp.exp(x - xp.max(x, axis=axis, keepdims=True))
    return e / xp.sum(e, axis=axis, keepdims=True)


@kernel("log_softmax")
def _log_softmax(xp, x, axis=-1):
    shifted = x - xp.max(x, axis=axis, keepdims=True)
    return shifted - xp.log(xp.sum(xp.exp(shifted), axis=axis, keepdims=True))


@kernel("softmax_grad")
def _softmax_grad(xp, y, dy, axis=-1):
    return y * (dy - xp.sum(dy * y, axis=axis, keepdims=True))


@kernel("log_softmax_grad")
def _log_softmax_grad(xp, y, dy, axis=-1):
    return dy - xp.exp(y) * xp.sum(dy, axis=axis, keepdims=True)


@kernel("softmax_cross_entropy")
def _softmax_cross_entropy(xp, logits, labels):
    shifted = logits - xp.max(logits, axis=-1, keepdims=True)
    log_p = shifted - xp.log(xp.sum(xp.exp(shifted), axis=-1, keepdims=True))
    return -xp.sum(labels * log_p, axis=-1), xp.exp(log_p) - labels


@kernel("halving_sum")
def _halving_sum(xp, x, kept=0):
    rows = xp.reshape(x, tuple(x.shape[:kept]) + (-1,))
    size = rows.shape[-1]
    if size == 0:
        return xp.zeros(tuple(x.shape[:kept]), dtype=x.dtype)
    if size % 2:
        rows = xp.concat([rows[..., :1] + rows[..., size - 1:], rows[..., 1:]], axis=-1)
    stride = size // 2
    while stride > 0:
        rows = rows[..., :stride] + rows[..., stride:2 * stride]
        if stride > 2 and stride % 2:
            rows = xp.concat([rows[..., :1] + rows[..., stride - 1:], rows[..., 1:]], axis=-1)
        stride //= 2
    return rows[..., 0]


@kernel("cumsum")
def _cumsum(xp, x, axis, exclusive, reverse):
    if reverse:
        x = xp.flip(x, axis=axis)
    out = xp.cumulative_sum(x, axis=axis, dtype=x.dtype, include_initial=exclusive)
    if exclusive:  # the running sum before each element: drop the last
        out = out[(slice(None),) * axis + (slice(0, -1),)]
    return xp.flip(out, axis=axis) if reverse else out


# ----- shapes and indexing ----------------------------------------------------------------------

TABLE["transpose"] = lambda xp, x, perm: xp.permute_dims(x, perm)
TABLE["expand_dims"] = lambda xp, x, axis: xp.expand_dims(x, axis=axis)
TABLE["getitem"] = lambda xp, x, index: x[to_numpy_index(index)]
TABLE["concat"] = lambda xp, *xs, axis=0: xp.concat(xs, axis=axis)
TABLE["stack"] = lambda xp, *xs, axis=0: xp.stack(xs, axis=axis)
TABLE["tile"] = lambda xp, x, multiples: xp.tile(x, tuple(multiples))


@kernel("squeeze")
def _squeeze(xp, x, axis=()):
    axis = axis or tuple(i for i, d in enumerate(x.shape) if d == 1)
    return xp.squeeze(x, axis=axis) if axis else x


@kernel("gather")
def _gather(xp, x, indices, axis=0):
    flat = xp.reshape(indices, (-1,))
    flat = xp.where(flat < 0, flat + x.shape[axis], flat)  # counted from the end, as np.take
    try:
        out = xp.take(x, flat, axis=axis)
    except IndexError:  # MindSpore's CPU kernel's error, naming the first index out of range
        size = x.shape[axis]
        bad = next(int(i) for i in flat.tolist() if not 0 <= i < size)
        raise RuntimeError(f"For 'Gather', the 'input_indices' should be in the range "
                           f"[0, {size}), but got {bad}") from None
    return xp.reshape(out, tuple(x.shape[:axis]) + tuple(indices.shape)
                      + tuple(x.shape[axis + 1:]))


@kernel("split")
def _split(xp, x, axis, sizes):
    head, start, pieces = (slice(None),) * axis, 0, []
    for size in sizes:
        pieces.append(x[head + (slice(start, start + size),)])
        start += size
    return tuple(pieces)


@kernel("pad")
def _pad(xp, x, paddings, value=0):
    """Constant padding, one axis at a time: the input between two filled blocks."""
    for axis, (before, after) in enumerate(paddings):
        blocks = []
        for size in (before, after):
            shape = tuple(x.shape[:axis]) + (size,) + tuple(x.shape[axis + 1:])
            blocks.append(xp.full(shape, value, dtype=x.dtype) if size else None)
        if before or after:
            x = xp.concat([b for b in (blocks[0], x, blocks[1]) if b is not None], axis=axis)
    return x


@kernel("bias_add")
def _bias_add(xp, x, b, axis=1):
    return x + xp.reshape(b, (-1,) + (1,) * (x.ndim - 1 - axis % x.ndim))


@kernel("one_hot")
def _one_hot(xp, indices, on_value, off_value, depth, axis=-1):
    axis = axis % (indices.ndim + 1)
    positions = xp.reshape(xp.arange(depth), (-1,) + (1,) * (indices.ndim - axis))
    return xp.where(xp.expand_dims(indices, axis=axis) == positions, on_value, off_value)


# ----- normalisation ----------------------------------------------------------------------------

def _normalise(xp, x, mean, var, epsilon):
    return (x - mean) / xp.sqrt(var + epsilon)


@kernel("layer_norm")
def _layer_norm(xp, x, gamma, beta, begin_norm_axis, begin_params_axis, epsilon):
    axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
    mean = xp.mean(x, axis=axes, keepdims=True)
    var = xp.mean(xp.square(x - mean), axis=axes, keepdims=True)
    return _normalise(xp, x, mean, var, epsilon) * gamma + beta, mean, var


@kernel("batch_norm")
def _batch_norm(xp, x, scale, bias, mean, variance, is_training, epsilon):
    axes = (0,) + tuple(range(2, x.ndim))
    per_channel = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    if is_training:
        mean = xp.mean(x, axis=axes)
        variance = xp.mean(xp.square(x - xp.reshape(mean, per_channel)), axis=axes)
    else:  # the statistics outputs are new arrays, not the inputs themselves
        mean, variance = xp.asarray(mean, copy=True), xp.asarray(variance, copy=True)
    y = _normalise(xp, x, xp.reshape(mean, per_channel), xp.reshape(variance, per_channel),
                   epsilon)
    return y * xp.reshape(scale, per_channel) + xp.reshape(bias, per_channel), mean, variance


@kernel("batch_norm_grad")
def _batch_norm_grad(xp, x, dy, scale, mean, variance, epsilon):
    """dx, dscale, dbias of training-mode BatchNorm: with xhat = (x - mean) * rstd,
    dx = scale * rstd * (dy - mean(dy) - xhat * mean(dy * xhat)) over the non-channel axes."""
    axes = (0,) + tuple(range(2, x.ndim))
    per_channel = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    count = x.size // x.shape[1]
    rstd = 1 / xp.sqrt(variance + epsilon)
    xhat = (x - xp.reshape(mean, per_channel)) * xp.reshape(rstd, per_channel)
    dbias = xp.sum(dy, axis=axes)
    dscale = xp.sum(dy * xhat, axis=axes)
    dx = (dy - xp.reshape(dbias / count, per_channel)) - xhat * xp.reshape(dscale / count,
                                                                        per_channel)
    return dx * xp.reshape(scale * rstd, per_channel), dscale, dbias


@kernel("layer_norm_grad")
def _layer_norm_grad(xp, x, dy, gamma, mean, var, begin_norm_axis, begin_params_axis,
                     epsilon):
    """dx, dgamma, dbeta of LayerNorm: with xhat = (x - mean) * rstd and g = dy * gamma,
    dx = rstd * (g - mean(g) - xhat * mean(g * xhat)) over the normalised axes."""
    axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
    leading = tuple(range(begin_params_axis % x.ndim))
    rstd = 1 / xp.sqrt(var + epsilon)
    xhat = (x - mean) * rstd
    g = dy * gamma
    dx = (g - xp.mean(g, axis=axes, keepdims=True)) - xhat * xp.mean(g * xhat, axis=axes,
                                                                     keepdims=True)
    return dx * rstd, xp.sum(dy * xhat, axis=leading), xp.sum(dy, axis=leading)


# ----- sorting and selection --------------------------------------------------------------------

def _stable_order(xp, x, axis, descending):
    """The indices that sort `x` along `axis`, equal elements lowest index first either way.

    Descending: a stable ascending sort of the reversed axis, read backwards, lists equal
    elements in increasing original position (no negation, so unsigned ints work too)."""
    if not descending:
        return xp.argsort(x, axis=axis, stable=True)
    n = x.shape[axis]
    backwards = xp.flip(xp.argsort(xp.flip(x, axis=axis), axis=axis, stable=True), axis=axis)
    return (n - 1) - backwards


@kernel("sort")
def _sort(xp, x, axis=-1, descending=False):
    order = _stable_order(xp, x, axis, descending)
    return xp.take_along_axis(x, order, axis=axis), xp.astype(order, xp.int32)


@kernel("topk")
def _topk(xp, x, k, axis=-1, largest=True, sorted=True):
    axis = axis % x.ndim
    if sorted or k >= x.shape[axis]:  # k == n unsorted: nth_element moves nothing
        order = _stable_order(xp, x, axis, largest)[(slice(None),) * axis + (slice(0, k),)] \
            if sorted else xp.broadcast_to(xp.reshape(
                xp.arange(x.shape[axis]), (-1,) + (1,) * (x.ndim - 1 - axis)), x.shape)
    else:  # MindSpore's kernel's order (std::nth_element's), worked out on the host
        last = np.moveaxis(np.asarray(x), axis, -1)
        order = xp.asarray(np.moveaxis(unsorted_topk_order(last, k, largest), -1, axis))
    return xp.take_along_axis(x, order, axis=axis), xp.astype(order, xp.int32)


@kernel("take_along_axis")
def _take_along_axis(xp, x, indices, axis):
    """GatherD: an index may be shorter than x along the other axes (torch.gather's rule),
    where it reads x's leading part; torch takes only int64 indices."""
    axis %= x.ndim
    leading = tuple(slice(None) if d == axis else slice(0, n)
                    for d, n in enumerate(indices.shape))
    try:
        return xp.take_along_axis(x[leading], xp.astype(indices, xp.int64), axis=axis)
    except IndexError:  # MindSpore's CPU kernel's error, naming the first index out of range
        size = x.shape[axis]
        bad = next(int(i) for i in xp.reshape(indices, (-1,)).tolist()
                   if not -size <= i < size)
        raise RuntimeError(f"For 'GatherD', the value of 'index' must be in [{-size}, {size}), "
                           f"but got: {bad}") from None


@kernel("gather_nd")
def _gather_nd(xp, x, indices):
    coords = xp.astype(indices, xp.int64)
    return x[tuple(coords[..., k] for k in range(indices.shape[-1]))]


# ----- linear algebra (stacks of matrices in the last two axes) ---------------------------------

TABLE["matrix_inverse"] = lambda xp, x, adjoint=False: xp.linalg.inv(
    xp.matrix_transpose(x) if adjoint else x)
TABLE["matrix_determinant"] = lambda xp, x: xp.linalg.det(x)
# The factor of the symmetric part (what a symmetric input is anyway), so that the gradient,
# symmetric by construction, is the derivative of the function computed.
TABLE["cholesky"] = lambda xp, x, upper=False: xp.linalg.cholesky(
    (x + xp.matrix_transpose(x)) / 2, upper=upper)
TABLE["matrix_solve"] = lambda xp, a, b, adjoint=False: xp.linalg.solve(
    xp.conj(xp.matrix_transpose(a)) if adjoint else a, b)  # the conjugate transpose


# ----- rounding and special functions -----------------------------------------------------------

TABLE["erfc"] = lambda xp, x: 1 - xp.erf(x)


@kernel("round")
def _round(xp, x, decimals=0):
    if decimals == 0:
        return xp.round(x)
    scale = 10.0 ** decimals  # in x's own dtype again afterwards (integers stay integers)
    return xp.astype(xp.round(x * scale) / scale, x.dtype)


# ----- results sized by the values ----------------------------------------------------------------

# set_dims only retypes (generated as an assignment); this kernel is for folding constants
TABLE["set_dims"] = lambda xp, x, shape, weak=False: x
TABLE["nonzero"] = lambda xp, x: xp.astype(xp.stack(xp.nonzero(x), axis=-1), xp.int64)


@kernel("masked_select")
def _masked_select(xp, x, mask):
    x, mask = xp.broadcast_arrays(x, mask)
    return x[mask]


@kernel("unique")
def _unique(xp, x, sorted=True):
    flat = xp.reshape(x, (-1,))
    values, inverse = xp.unique_inverse(flat)
    inverse = xp.reshape(inverse, (-1,))
    if not sorted and flat.shape[0]:
        # the values in the order of their first occurrence: a stable sort by value puts each
        # value's first position at the start of its run
        order = xp.argsort(inverse, stable=True)
        runs = xp.take(inverse, order)
        starts = xp.concat([xp.asarray([True]), runs[1:] != runs[:-1]])
        appearance = xp.argsort(order[starts])  # new position -> sorted position
        values = xp.take(values, appearance)
        inverse = xp.take(xp.argsort(appearance), inverse)
    index = xp.int64 if x.dtype == xp.int64 else xp.int32
    return values, xp.astype(xp.reshape(inverse, x.shape), index)


@kernel("ctc_greedy_decoder")
def _ctc_greedy_decoder(xp, inputs, sequence_length, merge_repeated=True):
    max_time, batch, num_classes = inputs.shape
    too_long = sequence_length > max_time
    if bool(xp.any(too_long)):
        b = int(xp.argmax(xp.astype(too_long, xp.int32)))
        raise RuntimeError(f"For 'CTCGreedyDecoder', sequence_length[{b}] "
                           f"{int(sequence_length[b])} should be less than {max_time}.")
    best = xp.argmax(inputs, axis=2)                                     # (time, batch)
    steps = xp.arange(max_time)[:, None] < xp.astype(sequence_length, xp.int64)[None, :]
    # the negative sum of the chosen scores, added step by step as the kernel does
    chosen = xp.where(steps, xp.max(inputs, axis=2), xp.zeros_like(inputs[:, :, 0]))
    log_probability = xp.reshape(-xp.sum(chosen, axis=0), (batch, 1))
    keep = steps & (best != num_classes - 1)
    if merge_repeated:
        previous = xp.concat([xp.full((1, batch), -1, dtype=best.dtype), best[:-1]], axis=0)
        keep = keep & (best != previous)
    keep, best = xp.permute_dims(keep, (1, 0)), xp.permute_dims(best, (1, 0))  # batch-major
    rows = xp.broadcast_to(xp.arange(batch, dtype=xp.int64)[:, None], keep.shape)
    positions = xp.cumulative_sum(xp.astype(keep, xp.int64), axis=1) - 1
    counts = xp.sum(xp.astype(keep, xp.int64), axis=1)
    indices = xp.stack([rows[keep], positions[keep]], axis=1)
    longest = int(xp.max(counts)) if batch else 0
    return (xp.reshape(indices, (-1, 2)), xp.astype(best[keep], xp.int64),
            xp.asarray([batch, longest], dtype=xp.int64), log_probability)


@kernel("argmin")
def _argmin(xp, x, axis, keep_dims=False, dtype=None):
    return xp.astype(xp.argmin(x, axis=axis, keepdims=keep_dims), dtype_of(xp, dtype))


@kernel("svd")
def _svd(xp, x, full_matrices=False):
    u, s, vh = xp.linalg.svd(x, full_matrices=full_matrices)
    return s, u, xp.matrix_transpose(vh)


# ----- the gamma family and erfinv (array-API arithmetic only, so every backend agrees) ---------
# Shift the argument up by SHIFT with the recurrences (lgamma(x+1) = lgamma(x) + log x,
# psi(x+1) = psi(x) + 1/x, and their derivatives), then use the asymptotic series in Bernoulli
# numbers, which is exact to rounding for arguments >= SHIFT. Left of 1/2, reflect.

SHIFT = 10
BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)  # B_2 .. B_14


def _lgamma_right(xp, x):
    """lgamma for x >= 1/2."""
    z = x + SHIFT
    series = sum(b / ((2 * k + 2) * (2 * k + 1) * z ** (2 * k + 1))
                 for k, b in enumerate(BERNOULLI))
    stirling = (z - 0.5) * xp.log(z) - z + 0.5 * math.log(2 * math.pi) + series
    return stirling - sum(xp.log(x + k) for k in range(SHIFT))


def _digamma_right(xp, x):
    """digamma for x >= 1/2."""
    z = x + SHIFT
    series = sum(b / ((2 * k + 2) * z ** (2 * k + 2)) for k, b in enumerate(BERNOULLI))
    return xp.log(z) - 0.5 / z - series - sum(1 / (x + k) for k in range(SHIFT))


def _in_float32(fn):
    """`fn` computed in float32 for float16 input, the result cast back: its series lose too
    much in half precision (digamma(1.5) came out 0.0371 against 0.0365)."""
    @functools.wraps(fn)
    def kernel_fn(xp, x, *args, **kwargs):
        if getattr(x, "dtype", None) != xp.float16:
            return fn(xp, x, *args, **kwargs)
        return xp.astype(fn(xp, xp.astype(x, xp.float32), *args, **kwargs), xp.float16)

    return kernel_fn


@kernel("lgamma")
@_in_float32
def _lgamma(xp, x):
    left = x < 0.5
    safe_left = xp.where(left, x, 0.25)  # the reflection's arguments, kept away from poles
    reflected = (math.log(math.pi) - xp.log(xp.abs(xp.sin(math.pi * safe_left)))
                 - _lgamma_right(xp, 1 - safe_left))
    return xp.where(left, reflected, _lgamma_right(xp, xp.where(left, 1.0, x)))


@kernel("digamma")
@_in_float32
def _digamma(xp, x):
    left = x < 0.5
    safe_left = xp.where(left, x, 0.25)
    reflected = _digamma_right(xp, 1 - safe_left) - math.pi / xp.tan(math.pi * safe_left)
    return xp.where(left, reflected, _digamma_right(xp, xp.where(left, 1.0, x)))


@kernel("polygamma")
@_in_float32
def _polygamma(xp, x, n):
    """psi^(n)(x), n >= 1: (-1)^(n+1) [sum_k<m n!/(x+k)^(n+1) + the series (n-1)!/z^n +
    n!/(2 z^(n+1)) + sum_k B_2k (2k+n-1)!/((2k)! z^(2k+n)) at z = x + m], with m large enough
    to bring every element of x past SHIFT (negative x included; the poles give inf)."""
    lowest = float(xp.min(x)) if math.prod(x.shape) else 0.0
    m = SHIFT + max(0, math.ceil(-lowest))
    z = x + m
    series = (math.factorial(n - 1) / z ** n + math.factorial(n) / (2 * z ** (n + 1))
              + sum(b * math.factorial(2 * k + n + 1) / math.factorial(2 * k + 2)
                    / z ** (2 * k + 2 + n) for k, b in enumerate(BERNOULLI)))
    near = sum(math.factorial(n) / (x + k) ** (n + 1) for k in range(m))
    return (-1) ** (n + 1) * (near + series)


# The regularized incomplete gamma functions: P(a, x) by its power series where x < a + 1,
# Q(a, x) = 1 - P by its continued fraction (modified Lentz) elsewhere, each run for a fixed
# number of steps on every element (both branches, then a choice). The k-th derivative in a
# (igamma_da) runs the same steps on truncated Taylor series in a: lists [f, f', ..., f^(k)]
# combined by Leibniz's rule. a <= 0 or x < 0 gives NaN; x = 0 gives P = 0 (Cephes', TF's and
# MindSpore's conventions).
_IGAMMA_STEPS = 400
_TINY = 1e-300


def _jet_mul(f, g):
    """The derivatives of f g from those of f and g (Leibniz)."""
    return [sum(math.comb(n, j) * f[j] * g[n - j] for j in range(n + 1)) for n in range(len(f))]


def _jet_reciprocal(f):
    """The derivatives of 1 / f."""
    out = [1 / f[0]]
    for n in range(1, len(f)):
        out.append(-out[0] * sum(math.comb(n, j) * f[j] * out[n - j] for j in range(1, n + 1)))
    return out


def _jet_exp(xp, f):
    """The derivatives of exp(f)."""
    out = [xp.exp(f[0])]
    for n in range(1, len(f)):
        out.append(sum(math.comb(n - 1, j) * f[j + 1] * out[n - 1 - j] for j in range(n)))
    return out


def _log_gamma_jet(xp, a, order):
    """The derivatives in a of lgamma(a): lgamma, digamma, then the polygammas."""
    jet = [_lgamma(xp, a)]
    if order >= 1:
        jet.append(_digamma(xp, a))
    jet += [_polygamma(xp, a, n) for n in range(1, order)]
    return jet


def _igamma_jet(xp, a, x, order):
    """(P(a, x) and its first `order` derivatives in a, as a list) with a and x broadcast float64
    arrays."""
    a, x = xp.broadcast_arrays(a, x)
    bad = (a <= 0) | (x < 0) | xp.isnan(a) | xp.isnan(x)
    zero_x = x == 0
    one = xp.ones_like(a)
    a_ = xp.where(bad | zero_x, one, a)
    x_ = xp.where(bad | zero_x, one, x)
    log_x = xp.log(x_)
    series = x_ < a_ + 1
    zeros = [xp.zeros_like(a_) for _ in range(order)]
    # the series: P = x^a e^-x / Gamma(a + 1) * sum_n x^n / ((a + 1) ... (a + n))
    sa = xp.where(series, a_, one)
    term = [xp.ones_like(sa)] + zeros
    total = list(term)
    for n in range(1, _IGAMMA_STEPS):
        # x / (a + n) and its derivatives x (-1)^j j! / (a + n)^(j + 1)
        inverse = 1 / (sa + n)
        ratio = [x_ * (-1) ** j * math.factorial(j) * inverse ** (j + 1) for j in range(order + 1)]
        term = _jet_mul(term, ratio)
        total = [t + u for t, u in zip(total, term)]
    lead = _log_gamma_jet(xp, sa + 1, order)
    front = _jet_exp(xp, [sa * log_x - x_ - lead[0]] + [
        (log_x if j == 1 else 0) - lead[j] for j in range(1, order + 1)])
    p_series = _jet_mul(front, total)
    # the continued fraction: Q = x^a e^-x / Gamma(a) * h
    ca = xp.where(series, one, a_)
    b = [x_ + 1 - ca] + ([-xp.ones_like(ca)] if order else []) + zeros[1:]
    c = [xp.full_like(ca, 1 / _TINY)] + zeros
    d = _jet_reciprocal(b)
    h = list(d)
    for i in range(1, _IGAMMA_STEPS):
        an = [-i * (i - ca)] + ([xp.full_like(ca, float(i))] if order else []) + zeros[1:]
        b = [b[0] + 2] + b[1:]
        denominator = [u + v for u, v in zip(_jet_mul(an, d), b)]
        denominator[0] = xp.where(xp.abs(denominator[0]) < _TINY, one * _TINY, denominator[0])
        c = [u + v for u, v in zip(b, _jet_mul(an, _jet_reciprocal(c)))]
        c[0] = xp.where(xp.abs(c[0]) < _TINY, one * _TINY, c[0])
        d = _jet_reciprocal(denominator)
        h = _jet_mul(h, _jet_mul(d, c))
    lead = _log_gamma_jet(xp, ca, order)
    front = _jet_exp(xp, [ca * log_x - x_ - lead[0]] + [
        (log_x if j == 1 else 0) - lead[j] for j in range(1, order + 1)])
    q_cf = _jet_mul(front, h)
    out = []
    for j in range(order + 1):
        value = xp.where(series, p_series[j], (1 if j == 0 else 0) - q_cf[j])
        value = xp.where(zero_x, xp.zeros_like(value), value)
        out.append(xp.where(bad, one * math.nan, value))
    return out


def _in_float64(xp, fn, a, x):
    return xp.astype(fn(xp.astype(a, xp.float64), xp.astype(x, xp.float64)), a.dtype)


@kernel("igamma")
def _igamma(xp, a, x):
    return _in_float64(xp, lambda a, x: _igamma_jet(xp, a, x, 0)[0], a, x)


@kernel("igammac")
def _igammac(xp, a, x):
    return _in_float64(xp, lambda a, x: 1 - _igamma_jet(xp, a, x, 0)[0], a, x)


@kernel("igamma_da")
def _igamma_da(xp, a, x, order):
    return _in_float64(xp, lambda a, x: _igamma_jet(xp, a, x, order)[order], a, x)


@kernel("erfinv")
def _erfinv(xp, y):
    """Winitzki's closed-form estimate (relative error ~2e-3), then Newton steps on erf, each
    of which squares the error; |y| = 1 gives +-inf."""
    log_term = xp.log(xp.maximum(1 - y * y, 1e-300 if y.dtype == xp.float64 else 1e-38))
    a = 0.147
    lead = 2 / (math.pi * a) + log_term / 2
    x = xp.sign(y) * xp.sqrt(xp.sqrt(lead * lead - log_term / a) - lead)
    for _ in range(4):
        x = x - (xp.erf(x) - y) / (2 / math.sqrt(math.pi) * xp.exp(-x * x))
    return xp.where(xp.abs(y) == 1, xp.copysign(xp.full_like(x, math.inf), y), x)


@kernel("eigh")
def _eigh(xp, x, lower=True):
    """LAPACK's symmetric solver on the matrix one triangle of x describes."""
    n = x.shape[-1]
    rows, cols = xp.reshape(xp.arange(n), (n, 1)), xp.reshape(xp.arange(n), (1, n))
    kept = rows >= cols if lower else rows <= cols
    return xp.linalg.eigh(xp.where(kept, x, xp.matrix_transpose(x)))


@kernel("eig")
def _eig(xp, x, compute_v=True):
    """LAPACK's geev through NumPy (every backend runs it on the host: see HOST_FALLBACKS),
    complex whether or not the eigenvalues are."""
    kind = np.complex64 if x.dtype in (np.float32, np.complex64) else np.complex128
    if not compute_v:
        return np.linalg.eigvals(x).astype(kind), np.zeros((), kind)
    w, v = np.linalg.eig(x)
    return w.astype(kind), v.astype(kind)


@kernel("qr")
def _qr(xp, x, mode="reduced"):
    q, r = xp.linalg.qr(x, mode=mode)
    return q, r


@kernel("geqrf")
def _geqrf(xp, x):
    """LAPACK's Householder QR (dgeqrf with dlarfg's reflectors), column by column over the
    whole batch: a zero column below the diagonal leaves its reflector the identity (tau 0);
    float16 is factored in float32, as MindSpore's CPU kernel does."""
    dtype = x.dtype
    a = xp.astype(x, xp.float32) if dtype == xp.float16 else x
    *_, m, n = a.shape
    rows = xp.reshape(xp.arange(m), (m, 1))
    cols = xp.arange(n)
    taus = []
    for j in range(min(m, n)):
        col = a[..., :, j:j + 1]
        alpha = col[..., j:j + 1, :]
        below = xp.sum(xp.where(rows > j, col * col, xp.zeros_like(col)), axis=-2, keepdims=True)
        norm = xp.sqrt(alpha * alpha + below)
        beta = xp.where(alpha >= 0, -norm, norm)
        reflects = below > 0
        safe = xp.where(reflects, alpha - beta, xp.ones_like(alpha))
        tau = xp.where(reflects, (beta - alpha) / xp.where(reflects, beta, xp.ones_like(beta)),
                       xp.zeros_like(alpha))
        v = xp.where(rows > j, col / safe, xp.where(rows == j, xp.ones_like(col),
                                                    xp.zeros_like(col)))
        w = xp.sum(v * a, axis=-2, keepdims=True)
        applied = a - tau * v * w
        new_col = xp.where(rows < j, col, xp.where(rows == j, xp.where(reflects, beta, alpha),
                                                   xp.where(reflects, v, col)))
        a = xp.where(cols > j, applied, xp.where(cols == j, new_col, a))
        taus.append(tau[..., 0, 0])
    tau = (xp.stack(taus, axis=-1) if taus else xp.zeros((*a.shape[:-2], 0), dtype=a.dtype))
    return xp.astype(a, dtype), xp.astype(tau, dtype)


@kernel("bincount")
def _bincount(xp, x, weights, minlength=0):
    """Each bin sums the weights of the elements equal to its number (one comparison per
    element and bin)."""
    size = max(int(xp.max(x)) + 1 if math.prod(x.shape) else 0, minlength)
    hits = xp.reshape(x, (-1, 1)) == xp.reshape(xp.arange(size, dtype=x.dtype), (1, -1))
    return xp.sum(xp.where(hits, xp.reshape(weights, (-1, 1)), xp.zeros((), dtype=weights.dtype)),
                  axis=0, dtype=weights.dtype)


def _floating(xp, dtype) -> bool:
    """Whether `dtype` holds real or complex floating numbers; ml_dtypes' (bfloat16, the
    float8s), which the namespace does not know, do."""
    try:
        return xp.isdtype(dtype, ("real floating", "complex floating"))
    except TypeError:
        return True


def _running_extremum(better):
    """cummax / cummin by doubling (Hillis-Steele): after the step with shift s, each position
    holds the extremum of the 2s elements ending there; an earlier run replaces the current one
    only when strictly `better`, so equal values keep the latest index. A NaN beats every number
    and, once reached, is carried on (the latest NaN's index), as MindSpore's kernels do."""
    def nan_first(xp, a, b):
        if not _floating(xp, a.dtype):
            return better(a, b)
        return (xp.isnan(a) & ~xp.isnan(b)) | better(a, b)

    def kernel(xp, x, axis):
        values = xp.moveaxis(x, axis, -1)
        n = values.shape[-1]
        index = xp.broadcast_to(xp.arange(n, dtype=xp.int64), values.shape)
        shift = 1
        while shift < n:
            # positions before `shift` compare with themselves, which is never strictly better
            earlier_v = xp.concat([values[..., :shift], values[..., :-shift]], axis=-1)
            earlier_i = xp.concat([index[..., :shift], index[..., :-shift]], axis=-1)
            take = nan_first(xp, earlier_v, values)
            values, index = xp.where(take, earlier_v, values), xp.where(take, earlier_i, index)
            shift *= 2
        return xp.moveaxis(values, -1, axis), xp.moveaxis(index, -1, axis)
    return kernel


TABLE["cummax"] = _running_extremum(lambda a, b: a > b)
TABLE["cummin"] = _running_extremum(lambda a, b: a < b)


# NumPy 1 (see _in_operand_dtype)
if not NUMPY2:  # formulas with Python number constants
    for _name in ("rsqrt", "reciprocal", "sigmoid", "relu", "normal_cdf", "gelu", "gelu_grad",
                  "gelu_and_slope", "gelu_tanh", "gelu_tanh_grad", "erfc"):
        TABLE[_name] = _in_operand_dtype(TABLE[_name])


# ----- the Hurwitz zeta function zeta(x, q) = sum_k>=0 (q + k)^-x ------------------------------
# The first terms summed directly until q + k >= 10, the rest by the Euler-Maclaurin formula
# (Cephes' coefficients), in float64. x = 1 or q a non-positive whole number: inf; x < 1, or
# q < 0 with x not whole: NaN.
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18)


def _zeta_jet(xp, x, q, order):
    """zeta(x, q) and its first `order` derivatives in x (a list), for float64 arrays: the
    direct terms (q + k)^-x and the Euler-Maclaurin tail carried as truncated Taylor series in
    x (d^n/dx^n (q + k)^-x = (-log(q + k))^n (q + k)^-x)."""
    x, q = xp.broadcast_arrays(x, q)
    pole = (x == 1) | ((q <= 0) & (q == xp.floor(q)))
    nan = (x < 1) | ((q < 0) & (x != xp.floor(x))) | xp.isnan(x) | xp.isnan(q)
    safe = pole | nan
    x, q = xp.where(safe, 2.0, x), xp.where(safe, 1.0, q)
    zeros = [xp.zeros_like(x) for _ in range(order)]

    def power_jet(base):  # base^-x and its derivatives in x (not real for a negative base)
        value = base ** -x
        if not order:
            return [value]
        minus_log = -xp.log(xp.where(base > 0, base, 1.0))
        real = base > 0
        return [value] + [xp.where(real, value * minus_log ** n, math.nan)
                          for n in range(1, order + 1)]

    direct = max(10, math.ceil(10 - float(xp.min(q))) if q.size else 10)
    total = [xp.zeros_like(x)] + zeros
    for k in range(direct):
        total = [t + u for t, u in zip(total, power_jet(q + k))]
    w = q + direct - 1  # the last term summed, b, is counted half in the formula
    b = power_jet(w)
    inverse = [(-1) ** n * math.factorial(n) / (x - 1) ** (n + 1) for n in range(order + 1)]
    tail = _jet_mul(b, inverse)
    total = [t + u * w - 0.5 * v for t, u, v in zip(total, tail, b)]
    a = [xp.ones_like(x)] + zeros
    k = 0.0
    for coeff in _ZETA_A:
        a = _jet_mul(a, [x + k] + ([xp.ones_like(x)] if order else []) + zeros[1:])
        b = [v / w for v in b]
        total = [t + u / coeff for t, u in zip(total, _jet_mul(a, b))]
        k += 1
        a = _jet_mul(a, [x + k] + ([xp.ones_like(x)] if order else []) + zeros[1:])
        b = [v / w for v in b]
        k += 1
    return [xp.where(pole, math.inf if n == 0 else math.nan, xp.where(nan, math.nan, t))
            for n, t in enumerate(total)]


@kernel("zeta")
def _zeta(xp, x, q):
    return _in_float64(xp, lambda x, q: _zeta_jet(xp, x, q, 0)[0], x, q)


@kernel("zeta_dx")
def _zeta_dx(xp, x, q, order):
    return _in_float64(xp, lambda x, q: _zeta_jet(xp, x, q, order)[order], x, q)


@kernel("set_operation")
def _set_operation(xp, x1, x2_indices, x2_values, set_operation="a-b", x2_shape=()):
    a = np.asarray(x1)
    groups = a.shape[:-1]
    rows2: dict = {}
    for index, value in zip(np.asarray(x2_indices).tolist(), np.asarray(x2_values).tolist()):
        rows2.setdefault(tuple(index[:-1]), set()).add(value)
    op = {"a-b": lambda p, q: p - q, "b-a": lambda p, q: q - p,
          "intersection": lambda p, q: p & q, "union": lambda p, q: p | q}[set_operation]
    indices, values, longest = [], [], 0
    for group in np.ndindex(*groups):
        result = sorted(op(set(a[group].tolist()), rows2.get(group, set())))
        longest = max(longest, len(result))
        indices += [(*group, k) for k in range(len(result))]
        values += result
    return (xp.asarray(np.asarray(indices, np.int64).reshape(-1, a.ndim)),
            xp.asarray(np.asarray(values, a.dtype)),
            xp.asarray(np.asarray((*groups, longest), np.int64)))


# ----- CTCLoss: MindSpore's CPU kernel's recursions, step by step in its order of operations ----

def _ctc_lse(a, b):
    """log(exp(a) + exp(b)) elementwise as the kernel's LogSumExp: -inf operands pass the other
    through; otherwise the larger plus log1p(exp(smaller - larger))."""
    high, low = np.maximum(a, b), np.minimum(a, b)
    with np.errstate(invalid="ignore", over="ignore"):
        both = high + np.log1p(np.exp(low - high)).astype(high.dtype)
    return np.where(a == -np.inf, b, np.where(b == -np.inf, a, both))


def _ctc_labels(indices, values, batch, classes, collapse, ignore_longer, seq_len):
    """Each batch entry's label sequence with blanks around and between its labels."""
    op = "CTCLoss"
    rows = indices[:, 0].astype(np.uint64) if indices.size else np.zeros(0, np.uint64)
    bad = rows >= batch
    if bad.any():
        raise RuntimeError(f"For '{op}, 'index' must be less than the length of 'label', but "
                           f"got 'index': {int(rows[bad][0])} and the length of 'label': "
                           f"{batch}")
    counts = np.bincount(rows.astype(np.int64), minlength=batch)
    starts = np.concatenate([[0], np.cumsum(counts)])
    labels = values.astype(np.int32).view(np.uint32)
    extended = []
    for b in range(batch):
        own, kept, has_blank = labels[starts[b]:starts[b + 1]], [], False
        for i, label in enumerate(own.tolist()):
            if i and collapse and label == own[i - 1]:
                continue
            if label >= classes - 1:
                has_blank = True
            elif has_blank:
                raise RuntimeError(f"For '{op}', the value of labels_values[{i}] must be in the "
                                   f"range of [0, num_classes), but got {label}")
            else:
                kept.append(label)
        if not ignore_longer and len(kept) > seq_len[b]:
            raise RuntimeError(f"For '{op}, input time(sequence length) must be greater than "
                               f"output size(label length), but got sequence length: "
                               f"{seq_len[b]} and label length: {len(kept)}")
        ext = np.full(2 * len(kept) + 1, classes - 1, np.int64)
        ext[1::2] = kept
        extended.append(ext)
    return extended


def _ctc_one(y, ext, blank, merge):
    """(loss, d loss / d scores) of one sequence: y its softmax (T, C), ext its labels with
    blanks (U,). The forward and backward variables over the lattice the kernel visits."""
    steps, classes = y.shape
    dtype, states = y.dtype.type, len(ext)
    neg_inf = dtype(-np.inf)
    with np.errstate(divide="ignore"):
        log_y = np.log(y).astype(y.dtype)
    emit = log_y[:, ext]  # (T, U)
    u = np.arange(states)
    stay = merge | (ext == blank)
    two = np.zeros(states, bool)
    two[2:] = (ext[2:] != blank) & ~(merge & (ext[2:] == ext[:-2]))
    alpha = np.full((steps, states), neg_inf, y.dtype)
    alpha[0, 0] = emit[0, 0]
    if states > 1:
        alpha[0, 1] = emit[0, 1]
    for t in range(1, steps):
        live = (u >= max(0, states - 2 * (steps - t))) & (u < min(states, 2 * (t + 1)))
        prev = alpha[t - 1]
        total = np.where(stay, prev, neg_inf)
        total[1:] = _ctc_lse(total[1:], prev[:-1])
        total[2:] = np.where(two[2:], _ctc_lse(total[2:], prev[:-2]), total[2:])
        alpha[t] = np.where(live, emit[t] + total, neg_inf)
    if steps <= 1:
        raise RuntimeError("For CTCLoss, the length of log_beta_b must be greater than 1!")
    beta = np.full((steps, states), neg_inf, y.dtype)
    if states > 1:
        beta[steps - 1, states - 2:] = 0
    else:
        beta[steps - 1, 0] = beta[steps - 2, 0] = 0
    for t in range(steps - 2, -1, -1):
        live = (u >= max(0, states - 2 * (steps - t))) & (u < min(states, 2 * (t + 1)))
        after = beta[t + 1] + emit[t + 1]
        total = beta[t].copy()
        total = np.where(stay, _ctc_lse(total, after), total)
        total[:-1] = _ctc_lse(total[:-1], after[1:])
        total[:-2] = np.where(two[2:], _ctc_lse(total[:-2], after[2:]), total[:-2])
        beta[t] = np.where(live, total, beta[t])
    log_p = neg_inf
    for k in range(states):
        log_p = _ctc_lse(log_p, alpha[0, k] + beta[0, k])
    grad = np.zeros((steps, classes), y.dtype)
    if log_p > neg_inf:
        mass = np.full((steps, classes), neg_inf, y.dtype)
        for k in range(states):
            mass[:, ext[k]] = _ctc_lse(mass[:, ext[k]], alpha[:, k] + beta[:, k])
        with np.errstate(over="ignore"):
            grad = (y - np.exp(mass - log_p)).astype(y.dtype)
    return -log_p, grad


@kernel("ctc_loss")
def _ctc_loss(xp, x, labels_indices, labels_values, sequence_length,
              preprocess_collapse_repeated=False, ctc_merge_repeated=True,
              ignore_longer_outputs_than_inputs=False):
    op = "CTCLoss"
    given = np.asarray(x)
    # float64 scores go through the kernel's float32 computation, as MindSpore's CPU kernel
    # (float16 and float32 only) takes them
    scores = given.astype(np.float32) if given.dtype == np.float64 else given
    max_time, batch, classes = scores.shape
    seq_len = np.asarray(sequence_length).astype(np.int32).view(np.uint32)
    for b in range(batch):
        if seq_len[b] == 0:
            raise RuntimeError(f"For '{op}, the 'sequence_length' must be greater than 0, but "
                               f"got 0.")
        if seq_len[b] > max_time:
            raise RuntimeError(f"For '{op}, the 'max_time'(the 1st dimension value of 'probs') "
                               f"must be greater than or equal to 'sequence_length', but got "
                               f"'max_time': {max_time} and 'sequence_length': {seq_len[b]}")
    extended = _ctc_labels(np.asarray(labels_indices), np.asarray(labels_values), batch,
                           classes, preprocess_collapse_repeated,
                           ignore_longer_outputs_than_inputs, seq_len)
    loss = np.zeros(batch, scores.dtype)
    gradient = np.zeros_like(scores)
    zero = scores.dtype.type(0)
    for b in range(batch):
        steps = int(seq_len[b])
        row = scores[:steps, b]
        # the kernel's softmax: shifted by the largest score or 0, whichever is larger
        shifted = np.exp(row - np.maximum(row.max(axis=1, keepdims=True), zero))
        y = (shifted / shifted.sum(axis=1, keepdims=True, dtype=scores.dtype)).astype(scores.dtype)
        loss[b], gradient[:steps, b] = _ctc_one(y, extended[b], classes - 1,
                                                bool(ctc_merge_repeated))
    return xp.asarray(loss.astype(given.dtype)), xp.asarray(gradient.astype(given.dtype))
