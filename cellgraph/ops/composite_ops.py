"""MindSpore functional operations that are compositions of existing primitives: no kernel and
no differentiation or batching rule of their own (each comes from the ops they are made of).

Constants (arange, linspace, eye, meshgrid over Python numbers) are built with NumPy when the
graph is compiled; random draws (randn, normal, randint, ...) transform `uniform_real`
samples, so they are fresh on every run and follow `set_seed`.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import abstract_of, normalize_axis, tensor_axis
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import argmax, clip_by_value, cumsum, reduce_prod
from cellgraph.primitives.random_ops import draw_uniform, op_seed, op_seeds, rand

from . import functional as F
from .functional import gather

__all__ = [
    "Eye",
    "L2Normalize",
    "Ones",
    "StandardNormal",
    "Zeros",
    "arange",
    "bmm",
    "chunk",
    "cumprod",
    "deg2rad",
    "eye",
    "flatten",
    "flip",
    "index_select",
    "isclose",
    "isfinite",
    "isinf",
    "isnan",
    "linspace",
    "logsumexp",
    "masked_fill",
    "max",
    "meshgrid",
    "min",
    "multinomial",
    "norm",
    "normal",
    "outer",
    "permute",
    "rad2deg",
    "randint",
    "randn",
    "randn_like",
    "repeat_elements",
    "roll",
    "silu",
    "standard_normal",
    "swapaxes",
    "tensor_dot",
    "unbind",
    "uniform",
    "unsqueeze",
    "unstack",
    "vector_norm",
]


def _const(values: np.ndarray, dtype):
    """A constant tensor: the cast primitive applied to a NumPy array gives a Tensor eagerly
    and a folded constant in a graph, so the ops layer needs no Tensor class of its own."""
    return A.cast(np.asarray(values), dtype=dt.as_dtype(dtype))


def _ndim(x) -> int:
    return abstract_of(x).ndim


def _shape(x) -> tuple:
    return tuple(abstract_of(x).shape)


# ----- creation --------------------------------------------------------------------------------

def arange(start=0, end=None, step=1, *, dtype=None):
    """[start, end) by `step` (one argument: [0, start)); int64 for ints, else float32."""
    if end is None:
        start, end = 0, start
    if step == 0:
        raise ArgumentValueError("arange: `step` must not be 0")
    values = np.arange(start, end, step)
    if dtype is None:
        dtype = dt.int64 if all(isinstance(v, numbers.Integral) for v in (start, end, step)) \
            else dt.float32
    return _const(values.astype(dt.as_dtype(dtype).np), dtype)


def linspace(start, end, steps):
    """`steps` evenly spaced float32 values from start to end inclusive."""
    return _const(np.linspace(start, end, int(steps)).astype(np.float32), dt.float32)


def eye(n, m=None, dtype=dt.float32):
    """The n x m identity matrix."""
    return _const(np.eye(n, m).astype(dt.as_dtype(dtype).np), dtype)


def meshgrid(*inputs, indexing="xy"):
    """Coordinate grids from 1-D tensors ("xy": the first two axes swapped, as NumPy)."""
    tensors = inputs[0] if len(inputs) == 1 and isinstance(inputs[0], (tuple, list)) else inputs
    if indexing not in ("xy", "ij"):
        raise ArgumentValueError(f"meshgrid: `indexing` must be 'xy' or 'ij', got {indexing!r}")
    sizes = [_shape(t)[0] for t in tensors]
    if indexing == "xy" and len(sizes) >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grids = []
    for i, t in enumerate(tensors):
        axis = i if indexing == "ij" or len(sizes) < 2 else {0: 1, 1: 0}.get(i, i)
        shape = [1] * len(sizes)
        shape[axis] = sizes[axis]
        grids.append(F.broadcast_to(F.reshape(t, tuple(shape)), tuple(sizes)))
    return tuple(grids)


class _Creation:
    def __init__(self, *args, **kwargs):
        pass

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class Zeros(_Creation):
    """`ops.Zeros()(shape, dtype)`."""

    def __call__(self, size, type=None):
        return F.zeros(size, type)


class Ones(_Creation):
    """`ops.Ones()(shape, dtype)`."""

    def __call__(self, size, type=None):
        return F.ones(size, type)


class Eye(_Creation):
    """`ops.Eye()(n, m, dtype)`."""

    def __call__(self, n, m, t):
        return eye(n, m, t)


# ----- shape -----------------------------------------------------------------------------------

def unsqueeze(input, dim):
    return F.expand_dims(input, dim)


def flatten(input, order="C", *, start_dim=1, end_dim=-1):
    """Merge the axes from start_dim to end_dim (MindSpore's default keeps the batch axis);
    order="F" merges in column-major order (the axes reversed first, as MindSpore does)."""
    if order not in ("C", "F"):
        raise ArgumentValueError(f"flatten: `order` must be 'C' or 'F', got {order!r}")
    shape = _shape(input)
    if order == "F":
        if len(shape) <= 1:
            return F.reshape(input, (-1,))
        input = F.transpose(input, tuple(reversed(range(len(shape)))))
        shape = shape[::-1]
    if not shape:
        return F.reshape(input, (1,))
    start, end = start_dim % len(shape), end_dim % len(shape)
    merged = int(np.prod(shape[start:end + 1]))
    return F.reshape(input, shape[:start] + (merged,) + shape[end + 1:])


def permute(input, axis):
    return F.transpose(input, tuple(axis))


def swapaxes(input, axis0, axis1):
    perm = list(range(_ndim(input)))
    perm[axis0], perm[axis1] = perm[axis1], perm[axis0]
    return F.transpose(input, tuple(perm))


def flip(input, dims):
    """Reverse the order along each axis in `dims`."""
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if _ndim(input) == 0:  # MindSpore: "the rank of x must be not equal to 0"
        raise ShapeError("flip: expected a tensor of rank >= 1, got a 0-d tensor")
    index = [slice(None)] * _ndim(input)
    for d in dims:
        index[normalize_axis(d, _ndim(input))] = slice(None, None, -1)
    return F.getitem(input, tuple(index))


def roll(input, shifts, dims=None):
    """Shift elements along `dims` cyclically (flattened when dims is None)."""
    if dims is None:
        return F.reshape(roll(F.reshape(input, (-1,)), shifts, 0), _shape(input))
    shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    for shift, d in zip(shifts, dims):
        axis = tensor_axis(d, _ndim(input), "roll")
        size = _shape(input)[axis]
        if not size:
            continue
        shift %= size
        if shift:
            index = np.concatenate([np.arange(size - shift, size), np.arange(size - shift)])
            input = gather(input, _const(index, dt.int64), axis)
    return input


def chunk(input, chunks, axis=0):
    """`chunks` pieces along `axis`, the last one shorter when the size does not divide."""
    if isinstance(chunks, bool) or not isinstance(chunks, int) or chunks <= 0:
        raise ArgumentValueError(f"chunk: `chunks` must be an int > 0, got {chunks!r}")
    size = _shape(input)[tensor_axis(axis, _ndim(input), "chunk")]
    step = -(-size // chunks) or 1  # (an empty axis: one empty piece)
    from cellgraph.primitives.nn_functional import split

    return split(input, step, axis)


def unstack(input_x, axis=0):
    """The slices along `axis`, as a tuple."""
    axis = tensor_axis(axis, _ndim(input_x), "unstack")
    index = [slice(None)] * _ndim(input_x)
    pieces = []
    for i in range(_shape(input_x)[axis]):
        index[axis] = i
        pieces.append(F.getitem(input_x, tuple(index)))
    return tuple(pieces)


def unbind(input, dim=0):
    return unstack(input, dim)


def index_select(input, axis, index):
    """The entries of `input` at `index` (1-D ints) along `axis`."""
    return gather(input, index, axis)


def repeat_elements(x, rep, axis=0):
    """Each element repeated `rep` times along `axis`."""
    axis = normalize_axis(axis, _ndim(x))
    index = np.repeat(np.arange(_shape(x)[axis]), rep)
    return gather(x, _const(index, dt.int64), axis)


def masked_fill(input_x, mask, value):
    """`value` where mask is True, input_x elsewhere."""
    dtype, shape = abstract_of(input_x).dtype, _shape(input_x)
    if isinstance(value, numbers.Number):
        filler = F.fill(dtype, shape, value)
    else:
        filler = F.broadcast_to(F.cast(value, dtype), shape)
    return F.select(F.broadcast_to(mask, shape), filler, input_x)


# ----- arithmetic ------------------------------------------------------------------------------

def bmm(input_x, mat2):
    """Batched matrix product."""
    return F.matmul(input_x, mat2)


def outer(input, vec2):
    return F.mul(F.reshape(input, (-1, 1)), F.reshape(vec2, (1, -1)))


def tensor_dot(x1, x2, axes):
    """Contract `axes` of x1 with `axes` of x2 (an int n: the last n of x1, first n of x2)."""
    n1, n2 = _ndim(x1), _ndim(x2)
    if isinstance(axes, numbers.Integral):
        axes = (tuple(range(n1 - axes, n1)), tuple(range(axes)))
    a1 = tuple(normalize_axis(a, n1) for a in np.atleast_1d(axes[0]))
    a2 = tuple(normalize_axis(a, n2) for a in np.atleast_1d(axes[1]))
    free1 = tuple(a for a in range(n1) if a not in a1)
    free2 = tuple(a for a in range(n2) if a not in a2)
    s1, s2 = _shape(x1), _shape(x2)
    left = F.reshape(F.transpose(x1, free1 + a1), (-1, int(np.prod([s1[a] for a in a1]))))
    right = F.reshape(F.transpose(x2, a2 + free2), (int(np.prod([s2[a] for a in a2])), -1))
    return F.reshape(F.matmul(left, right), tuple(s1[a] for a in free1) +
                     tuple(s2[a] for a in free2))


def cumprod(input, dim, dtype=None):
    """Running products along `dim`: prefix i multiplies elements 0..i (each prefix one
    reduce_prod over a masked copy, so zeros and signs need no special care)."""
    if dtype is not None:
        input = F.cast(input, dtype)
    dim = tensor_axis(dim, _ndim(input), "cumprod")
    moved = swapaxes(input, dim, -1)
    size = _shape(moved)[-1]
    expanded = F.broadcast_to(F.expand_dims(moved, -2), _shape(moved)[:-1] + (size, size))
    lower = _const(np.tril(np.ones((size, size), bool)), dt.bool_)
    prefixes = F.select(F.broadcast_to(lower, _shape(expanded)), expanded,
                        F.ones_like(expanded))
    return swapaxes(reduce_prod(prefixes, -1), dim, -1)


def multinomial(input, num_samples, replacement=True, seed=None):
    """Category indices drawn with the (unnormalised) weights of each row of `input`: the
    number of cumulative probabilities below a uniform draw (with replacement)."""
    if not replacement and num_samples > 1:
        raise ArgumentValueError("multinomial: replacement=False is not supported")
    weights = input if _ndim(input) == 2 else F.expand_dims(input, 0)
    cdf = cumsum(F.div(weights, F.reduce_sum(weights, -1, True)), -1)
    draws = rand(_shape(weights)[:1] + (num_samples, 1), seed=seed)
    below = F.less(F.expand_dims(cdf, 1), draws)  # (N, samples, C)
    index = F.minimum(F.reduce_sum(F.cast(below, dt.int64), -1), _shape(weights)[-1] - 1)
    return index if _ndim(input) == 2 else F.squeeze(index, 0)


def deg2rad(x):
    return F.mul(x, math.pi / 180)


def rad2deg(x):
    return F.mul(x, 180 / math.pi)


def silu(input):
    return F.mul(input, F.sigmoid(input))


def logsumexp(input, axis, keep_dims=False):
    """log(sum(exp(x))) over `axis`, shifted by the (constant) maximum for stability."""
    top = F.stop_gradient(F.reduce_max(input, axis, True))
    out = F.add(F.log(F.reduce_sum(F.exp(F.sub(input, top)), axis, True)), top)
    return out if keep_dims else F.squeeze(out, axis)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """The 2-norm (Frobenius for matrices) over `dim`; ord 1, inf, -inf or p for vectors."""
    return vector_norm(A, 2 if ord is None or ord == "fro" else ord, dim, keepdim, dtype=dtype)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """(sum |x|^ord)^(1/ord) over `dim` (all axes for None); inf/-inf: max/min of |x|."""
    axis = () if dim is None else dim
    if dtype is not None:
        x = F.cast(x, dtype)
    size = F.abs(x)
    if ord == float("inf"):
        return F.reduce_max(size, axis, keepdim)
    if ord == float("-inf"):
        return F.reduce_min(size, axis, keepdim)
    if ord == 0:
        return F.reduce_sum(F.cast(F.not_equal(x, 0), abstract_of(x).dtype), axis, keepdim)
    if ord == 2:  # x² for a real x (no kink at 0, as |x| has), |x|² for a complex one
        squares = F.square(size if abstract_of(x).dtype.is_complex else x)
        return F.sqrt(F.reduce_sum(squares, axis, keepdim))
    if ord == 1:
        return F.reduce_sum(size, axis, keepdim)
    return F.pow(F.reduce_sum(F.pow(size, ord), axis, keepdim), 1.0 / ord)


class L2Normalize:
    """`ops.L2Normalize(axis=0, epsilon=1e-4)(x)`: x / sqrt(max(sum(x^2), epsilon))."""

    def __init__(self, axis=0, epsilon=1e-4):
        self.axis, self.epsilon = axis, epsilon

    def __call__(self, input_x):
        squares = F.reduce_sum(F.square(input_x), self.axis, True)
        return F.div(input_x, F.sqrt(F.maximum(squares, self.epsilon)))


def _init_and_select(input, initial, where, compare, op):
    """MindSpore's `initial`/`where` for max and min: every element compared with `initial`,
    and `initial` where `where` is False."""
    if initial is not None and (isinstance(initial, bool) or not isinstance(
            initial, numbers.Number)):
        raise DTypeError(f"{op}: `initial` must be a scalar, got {type(initial).__name__}")
    if initial is not None:
        input = compare(input, F.fill(abstract_of(input).dtype, _shape(input), initial))
    if where is None:
        return input
    if where is True:  # a 0-d True mask selects everything
        return input
    if isinstance(where, (bool, list, tuple, np.ndarray)):
        where = np.asarray(where, dtype=bool)
    where = F.cast(where, dt.bool_)
    if initial is None:
        raise ArgumentValueError(f"{op}: `initial` must be given with a `where` mask")
    fill = F.fill(abstract_of(input).dtype, _shape(input), initial)
    return F.select(F.broadcast_to(where, _shape(input)), input, fill)


def max(input, axis=None, keepdims=False, *, initial=None, where=None):
    """(maximum values, their indices) along `axis`; over everything when axis is None.
    `initial` takes part in every maximum, and where `where` is False only `initial` does."""
    input = _init_and_select(input, initial, where, F.maximum, "max")
    if axis is None:
        return F.reduce_max(input, (), keepdims), argmax(F.reshape(input, (-1,)))
    return F.reduce_max(input, axis, keepdims), argmax(input, axis, keepdims)


def min(input, axis=None, keepdims=False, *, initial=None, where=None):
    """(minimum values, their indices) along `axis` (`initial` and `where` as in `max`)."""
    input = _init_and_select(input, initial, where, F.minimum, "min")
    values, index = max(F.neg(input), axis, keepdims)
    return F.neg(values), index


# ----- predicates ------------------------------------------------------------------------------

def isnan(x):
    return F.not_equal(x, x)


def isinf(x):
    return F.equal(F.abs(x), float("inf"))


def isfinite(x):
    return F.logical_and(F.equal(x, x), F.not_equal(F.abs(x), float("inf")))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|input - other| <= atol + rtol |other| elementwise (NaNs equal when equal_nan)."""
    close = F.less_equal(F.abs(F.sub(input, other)), F.add(F.mul(F.abs(other), rtol), atol))
    if equal_nan:
        close = F.logical_or(close, F.logical_and(isnan(input), isnan(other)))
    return close


# ----- random ----------------------------------------------------------------------------------

def _size(size) -> tuple:
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    if not all(isinstance(d, numbers.Integral) for d in size):
        raise DTypeError(f"expected a shape of ints, got {size!r}")
    return tuple(int(d) for d in size)


def _normal_draws(shape, key=None):
    """N(0, 1) float32 samples by the Box-Muller transform of two uniform draws (from the
    global generator, or the op seed's stream `key`)."""
    u1 = F.sub(1.0, draw_uniform(shape, dt.float32, key))  # (0, 1]: log is finite
    u2 = draw_uniform(shape, dt.float32, key)
    return F.mul(F.sqrt(F.mul(F.log(u1), -2.0)), F.cos(F.mul(u2, 2 * math.pi)))


def standard_normal(shape, seed=0, seed2=0):
    """N(0, 1) float32 samples by the Box-Muller transform of two uniform draws."""
    return _normal_draws(_size((shape,)), op_seeds(seed, seed2, "standard_normal"))


def randn(*size, dtype=None, seed=None):
    out = _normal_draws(_size(size), op_seed(seed, "randn"))
    return out if dtype is None else F.cast(out, dtype)


def randn_like(input, seed=None, *, dtype=None):
    return randn(_shape(input), dtype=dtype or abstract_of(input).dtype, seed=seed)


def normal(shape, mean, stddev, seed=None):
    """mean + stddev * N(0, 1) samples of `shape`."""
    return F.add(F.mul(_normal_draws(_size((shape,)), op_seed(seed, "normal")), stddev), mean)


def uniform(shape, minval, maxval, seed=None, dtype=dt.float32):
    """U[minval, maxval) samples; integer dtypes give ints in [minval, maxval)."""
    draw = F.add(F.mul(rand(_size((shape,)), seed=seed), F.sub(maxval, minval)), minval)
    if dt.as_dtype(dtype).is_int:
        return F.cast(clip_by_value(draw, minval, F.sub(maxval, 1)), dtype)
    return F.cast(draw, dtype)


def randint(low, high, size, seed=None, *, dtype=None):
    """Integers in [low, high): low + floor(U * (high - low)) (the product is >= 0, so
    casting truncates it to its floor)."""
    return random_ints(low, high, _size((size,)), op_seed(seed, "randint"), dtype or dt.int64)


def random_ints(low, high, shape, key, dtype):
    """randint's draws from the global generator or the op seed's stream `key`."""
    if high <= low:
        raise ArgumentValueError(f"randint: expected low < high, got {low} and {high}")
    offset = F.cast(F.mul(draw_uniform(shape, dt.float32, key), float(high - low)), dt.int64)
    out = F.add(F.minimum(offset, high - low - 1), low)
    return F.cast(out, dtype)


class StandardNormal:
    """`ops.StandardNormal(seed=0, seed2=0)(shape)`."""

    def __init__(self, seed=0, seed2=0):
        self.seed, self.seed2 = seed, seed2

    def __call__(self, shape):
        return standard_normal(shape, self.seed, self.seed2)
