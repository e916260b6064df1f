"""More of MindSpore's functional operations as compositions of existing ones (no kernel, no
rule of their own): triangles, distances and similarities, statistics, the activations that
nn Cells and model code call as functions, and shape helpers. Tensor operators and methods
work on eager Tensors and graph Tracers alike, so each function serves both."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives import nn_ops as N
from cellgraph.primitives import scatter_ops as S
from cellgraph.primitives.core import abstract_of, normalize_axis, running_eagerly, tensor_axis
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError

from . import functional as F
from .composite_classes import function_class

__all__ = [
    "UnsortedSegmentMax",
    "UnsortedSegmentMin",
    "UnsortedSegmentProd",
    "UnsortedSegmentSum",
    "addmm",
    "baddbmm",
    "cdist",
    "celu",
    "cosine_similarity",
    "count_nonzero",
    "diag",
    "diagonal",
    "elu",
    "full_like",
    "glu",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "hstack",
    "leaky_relu",
    "lerp",
    "logaddexp",
    "logit",
    "logsigmoid",
    "matrix_band_part",
    "mish",
    "moveaxis",
    "movedim",
    "nan_to_num",
    "narrow",
    "pixel_shuffle",
    "pixel_unshuffle",
    "prelu",
    "relu6",
    "repeat_interleave",
    "selu",
    "softmin",
    "softsign",
    "std",
    "std_mean",
    "trace",
    "tril",
    "triu",
    "unsorted_segment_max",
    "unsorted_segment_min",
    "unsorted_segment_prod",
    "unsorted_segment_sum",
    "var",
    "var_mean",
    "vstack",
    "xlogy",
]


def _float(x, op: str):
    if not abstract_of(x).dtype.is_float:
        raise DTypeError(f"{op}: expected a float Tensor, got {abstract_of(x).dtype}")
    return x


def _band(x, keep: np.ndarray):
    """x where the static 2-D pattern `keep` (over the last two axes) holds, else zero."""
    return M.select(keep, x, A.zeros_like(x))


# ----- triangles and diagonals -----------------------------------------------------------------

def _matrix_shape(x, op: str) -> tuple:
    shape = abstract_of(x).shape
    if len(shape) < 2:
        raise ShapeError(f"{op}: expected a Tensor of rank >= 2, got shape {shape}")
    return shape[-2:]


def tril(input, diagonal=0):
    rows, cols = _matrix_shape(input, "tril")
    return _band(input, np.tril(np.ones((rows, cols), bool), int(diagonal)))


def triu(input, diagonal=0):
    rows, cols = _matrix_shape(input, "triu")
    return _band(input, np.triu(np.ones((rows, cols), bool), int(diagonal)))


def matrix_band_part(x, lower, upper):
    """Keep the band of `lower` sub- and `upper` super-diagonals (negative: all of them)."""
    rows, cols = _matrix_shape(x, "matrix_band_part")
    i, j = np.indices((rows, cols))
    keep = ((int(lower) < 0) | (i - j <= int(lower))) & ((int(upper) < 0) | (j - i <= int(upper)))
    return _band(x, keep)


def diag(input):
    """A 1-D Tensor as the diagonal of a square matrix (rank r -> rank 2r, as MindSpore)."""
    shape = abstract_of(input).shape
    eye = np.eye(int(np.prod(shape)), dtype=bool).reshape(shape + shape)
    expanded = F.reshape(input, shape + (1,) * len(shape))
    return M.select(eye, expanded, A.zeros_like(expanded))


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal over axes dim1, dim2, moved to the last axis."""
    ndim = abstract_of(input).ndim
    dim1, dim2 = normalize_axis(dim1, ndim), normalize_axis(dim2, ndim)
    if dim1 == dim2:
        raise ArgumentValueError(f"diagonal: dim1 and dim2 must differ, got {dim1} and {dim2}")
    moved = movedim(input, (dim1, dim2), (-2, -1))
    rows, cols = abstract_of(moved).shape[-2:]
    start_row, start_col = max(-int(offset), 0), max(int(offset), 0)
    length = max(min(rows - start_row, cols - start_col), 0)
    steps = np.arange(length)
    return moved[..., steps + start_row, steps + start_col]


def trace(input):
    _matrix_shape(input, "trace")
    return diagonal(input, 0, -2, -1).sum(axis=-1)


# ----- filling, repeating, moving ---------------------------------------------------------------

def full_like(input, fill_value, *, dtype=None):
    shape = abstract_of(input).shape
    return F.fill(dtype or abstract_of(input).dtype, shape, fill_value)


def repeat_interleave(input, repeats, axis=None):
    """Each element `repeats` times along `axis` (the flattened input for None); `repeats` an
    int, or one count per element (a list, or a Tensor outside a graph)."""
    if axis is None:
        input, axis = F.reshape(input, (-1,)), 0
    axis = tensor_axis(axis, abstract_of(input).ndim, "repeat_interleave")
    if hasattr(repeats, "asnumpy"):
        if not running_eagerly():
            raise DTypeError("repeat_interleave: Tensor `repeats` inside a graph give a shape "
                             "known only at run time; pass an int or a list")
        repeats = repeats.asnumpy().tolist()
    if isinstance(repeats, numbers.Integral):
        if repeats < 0:
            raise ArgumentValueError(f"repeat_interleave: `repeats` must be >= 0, got {repeats}")
        return input.repeat(int(repeats), axis)
    size = abstract_of(input).shape[axis]
    counts = np.asarray(repeats, np.int64).reshape(-1)
    if counts.size == 1:
        counts = np.full(size, counts[0])
    if counts.size != size or np.any(counts < 0):
        raise ArgumentValueError(f"repeat_interleave: expected {size} non-negative counts for "
                                 f"axis {axis}, got {list(counts)}")
    return F.gather(input, np.repeat(np.arange(size), counts), axis)


def movedim(x, source, destination):
    ndim = abstract_of(x).ndim
    source = [normalize_axis(a, ndim) for a in np.atleast_1d(source).tolist()]
    destination = [normalize_axis(a, ndim) for a in np.atleast_1d(destination).tolist()]
    if len(source) != len(destination):
        raise ArgumentValueError(f"movedim: {len(source)} source axes but {len(destination)} "
                                 f"destinations")
    order = [a for a in range(ndim) if a not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return x if order == list(range(ndim)) else F.transpose(x, tuple(order))


moveaxis = movedim


def narrow(input, axis, start, length):
    return input.narrow(normalize_axis(axis, abstract_of(input).ndim), int(start), int(length))


def hstack(tensors):
    tensors = tuple(tensors)
    return F.concat(tensors, 0 if abstract_of(tensors[0]).ndim == 1 else 1)


def vstack(inputs):
    inputs = tuple(t if abstract_of(t).ndim > 1 else F.reshape(t, (1, -1)) for t in inputs)
    return F.concat(inputs, 0)


def pixel_shuffle(input, upscale_factor):
    """(..., C*r*r, H, W) -> (..., C, H*r, W*r)."""
    r = int(upscale_factor)
    *lead, c, h, w = abstract_of(input).shape
    if c % (r * r):
        raise ShapeError(f"pixel_shuffle: channels {c} are not divisible by {r}*{r}")
    x = F.reshape(input, (-1, c // (r * r), r, r, h, w))
    x = F.transpose(x, (0, 1, 4, 2, 5, 3))
    return F.reshape(x, (*lead, c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor):
    """(..., C, H*r, W*r) -> (..., C*r*r, H, W)."""
    r = int(downscale_factor)
    *lead, c, h, w = abstract_of(input).shape
    if h % r or w % r:
        raise ShapeError(f"pixel_unshuffle: height {h} and width {w} must be divisible by {r}")
    x = F.reshape(input, (-1, c, h // r, r, w // r, r))
    x = F.transpose(x, (0, 1, 3, 5, 2, 4))
    return F.reshape(x, (*lead, c * r * r, h // r, w // r))


# ----- distances, statistics, arithmetic ---------------------------------------------------------

def cdist(x1, x2, p=2.0):
    """p-norm distances between the rows of x1 (B?, P, M) and x2 (B?, R, M): (B?, P, R). The
    gradient at a zero distance is zero."""
    if abstract_of(x1).ndim not in (2, 3) or abstract_of(x1).ndim != abstract_of(x2).ndim:
        raise ShapeError(f"cdist: expected two Tensors of rank 2 or 3, got shapes "
                         f"{abstract_of(x1).shape} and {abstract_of(x2).shape}")
    p = float(p)
    if p < 0:
        raise ArgumentValueError(f"cdist: `p` must be non-negative, got {p}")
    diff = F.expand_dims(x1, -2) - F.expand_dims(x2, -3)
    if p == 0:
        return (diff != 0).astype(abstract_of(x1).dtype).sum(axis=-1)
    if p == float("inf"):
        return M.abs_(diff).max(axis=-1)
    powered = diff * diff if p == 2 else M.abs_(diff) ** p
    total = powered.sum(axis=-1)
    if p == 1:
        return total
    positive = total > 0
    return M.select(positive, M.select(positive, total, A.ones_like(total)) ** (1.0 / p),
                    A.zeros_like(total))


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    dot = (x1 * x2).sum(axis=dim)
    norms = M.sqrt((x1 * x1).sum(axis=dim)) * M.sqrt((x2 * x2).sum(axis=dim))
    return dot / M.maximum(norms, eps)


def var(input, axis=None, ddof=0, keepdims=False):
    return input.var(axis=axis, ddof=ddof, keepdims=keepdims)


def std(input, axis=None, ddof=0, keepdims=False):
    return input.std(axis=axis, ddof=ddof, keepdims=keepdims)


def var_mean(input, axis=None, ddof=0, keepdims=False):
    return var(input, axis, ddof, keepdims), input.mean(axis=axis, keep_dims=keepdims)


def std_mean(input, axis=None, ddof=0, keepdims=False):
    return std(input, axis, ddof, keepdims), input.mean(axis=axis, keep_dims=keepdims)


def count_nonzero(x, axis=(), keep_dims=False, dtype=dt.int32):
    return F.reduce_sum((x != 0).astype(dt.int32), axis, keep_dims).astype(dtype)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    info = np.finfo(abstract_of(_float(input, "nan_to_num")).dtype.name)
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


def logit(input, eps=None):
    if eps is not None:
        input = NF.clip_by_value(input, float(eps), 1.0 - float(eps))
    return M.log(input / (1 - input))


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    return beta * input + alpha * F.matmul(mat1, mat2)


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    return beta * input + alpha * F.matmul(batch1, batch2)


# ----- activations --------------------------------------------------------------------------------

def relu6(x):
    return NF.clip_by_value(x, 0.0, 6.0)


def leaky_relu(input, alpha=0.2):
    return M.select(input > 0, input, input * alpha)


def elu(input_x, alpha=1.0):
    negative = M.minimum(input_x, 0.0)
    return M.select(input_x > 0, input_x, alpha * (M.exp(negative) - 1))


def celu(x, alpha=1.0):
    if float(alpha) == 0:
        raise ArgumentValueError("celu: `alpha` must not be zero")
    negative = M.minimum(x, 0.0)
    return M.maximum(x, 0.0) + alpha * (M.exp(negative / alpha) - 1)


def selu(input_x):
    alpha, scale = 1.6732632423543772, 1.0507009873554805
    return scale * elu(input_x, alpha)


def hardtanh(input, min_val=-1.0, max_val=1.0):
    return NF.clip_by_value(input, float(min_val), float(max_val))


def hardsigmoid(input):
    return relu6(input + 3.0) / 6.0


def hardswish(x):
    return x * relu6(x + 3.0) / 6.0


def logsigmoid(x):
    return -NF.softplus(-x)


def softsign(x):
    return x / (1 + M.abs_(x))


def mish(x):
    return x * M.tanh(NF.softplus(x))


def softmin(x, axis=-1, *, dtype=None):
    if dtype is not None:
        x = F.cast(x, dtype)
    return N.softmax(-x, axis=normalize_axis(axis, abstract_of(x).ndim))


def glu(x, axis=-1):
    a, b = NF.split(x, abstract_of(x).shape[normalize_axis(axis, abstract_of(x).ndim)] // 2,
                    axis)
    return a * N.sigmoid(b)


def prelu(x, weight):
    """max(0, x) + weight * min(0, x), one weight per channel (axis 1) or one for all."""
    w = weight
    ndim = abstract_of(x).ndim
    if abstract_of(weight).size not in (1, None) and ndim > 1:
        w = F.reshape(weight, (-1,) + (1,) * (ndim - 2))
    return M.maximum(x, 0.0) + w * M.minimum(x, 0.0)



# ----- segment reductions (message passing in graph networks) ----------------------------------

def _segments(input_x, segment_ids, num_segments, op: str):
    """(ids as scatter indices, the rows that count, the output shape). Ids outside
    [0, num_segments) are dropped, as MindSpore's CPU kernels drop them."""
    if hasattr(num_segments, "asnumpy"):
        num_segments = num_segments.asnumpy().item()
    if not isinstance(num_segments, numbers.Integral) or num_segments < 0:
        raise DTypeError(f"{op}: `num_segments` must be a non-negative int (a shape), got "
                         f"{num_segments!r}")
    x_shape, ids_type = abstract_of(input_x).shape, abstract_of(segment_ids)
    if not ids_type.dtype.is_int:
        raise DTypeError(f"{op}: expected integer `segment_ids`, got {ids_type.dtype}")
    if x_shape[:ids_type.ndim] != ids_type.shape:
        raise ShapeError(f"{op}: `segment_ids` of shape {ids_type.shape} must be a prefix of "
                         f"the input's shape {x_shape}")
    valid = M.logical_and(segment_ids >= 0, segment_ids < int(num_segments))
    ids = M.select(valid, segment_ids, A.zeros_like(segment_ids))
    row_valid = F.reshape(valid, ids_type.shape + (1,) * (len(x_shape) - ids_type.ndim))
    out_shape = (int(num_segments),) + tuple(x_shape[ids_type.ndim:])
    return F.expand_dims(ids, -1), row_valid, out_shape


def _segment_reduce(scatter, neutral):
    def reduce(input_x, segment_ids, num_segments):
        op = f"unsorted_segment_{scatter.name.rsplit('_', 1)[-1]}"
        indices, valid, out_shape = _segments(input_x, segment_ids, num_segments, op)
        dtype = abstract_of(input_x).dtype
        fill = neutral(dtype)
        start = F.fill(dtype, out_shape, fill)
        return scatter(start, indices, M.select(valid, input_x, full_like(input_x, fill)))
    return reduce


def _lowest(dtype):
    return float(np.finfo(dtype.np).min) if dtype.is_float else int(np.iinfo(dtype.np).min)


def _highest(dtype):
    return float(np.finfo(dtype.np).max) if dtype.is_float else int(np.iinfo(dtype.np).max)


unsorted_segment_sum = _segment_reduce(S.tensor_scatter_add, lambda dtype: 0)
unsorted_segment_sum.__doc__ = "Row sums per segment id: out[s] = sum of x[i] with ids[i] == s."
unsorted_segment_max = _segment_reduce(S.tensor_scatter_max, _lowest)
unsorted_segment_max.__doc__ = "Row maxima per segment; an empty segment holds the lowest value."
unsorted_segment_min = _segment_reduce(S.tensor_scatter_min, _highest)
unsorted_segment_min.__doc__ = "Row minima per segment; an empty segment holds the highest value."
unsorted_segment_prod = _segment_reduce(S.tensor_scatter_mul, lambda dtype: 1)
unsorted_segment_prod.__doc__ = "Row products per segment; an empty segment holds one."
UnsortedSegmentSum = function_class("UnsortedSegmentSum", unsorted_segment_sum)
UnsortedSegmentMax = function_class("UnsortedSegmentMax", unsorted_segment_max)
UnsortedSegmentMin = function_class("UnsortedSegmentMin", unsorted_segment_min)
UnsortedSegmentProd = function_class("UnsortedSegmentProd", unsorted_segment_prod)
