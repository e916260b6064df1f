"""MindSpore functional ops and primitive classes that are compositions of existing operations
(no kernel, no rule of their own): `dense`, `inner`, `block_diag`, `diag_embed`, the
shrinkage activations, `hann_window`, shape queries, and the primitive-class spellings
(`ops.Elu()`, `ops.LpNorm(axis)`, ...) of functional ops defined elsewhere. Tensor operators
and methods work on eager Tensors and graph Tracers alike, so each serves both modes."""
from __future__ import annotations

import functools
import math
import numbers

import numpy as np

from . import array_ops as A
from . import composite_more as CM
from . import composite_ops as CO
from . import dtype as dt
from . import functional as F
from . import math_ops as M
from . import nn_functional as NF
from .composite_pad import pad
from .composite_resize import apply_along
from .core import abstract_of, is_value, normalize_axis
from .derive import export, export_class
from .errors import ArgumentValueError, DTypeError, ShapeError
from .random_ops import rand

__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "addcmul",
    "block_diag",
    "dense",
    "diag_embed",
    "hann_window",
    "hardshrink",
    "inner",
    "is_tensor",
    "pairwise_distance",
    "rank",
    "size",
    "softshrink",
]


def is_tensor(input) -> bool:
    """Whether `input` is a Tensor (a Parameter, or a graph value standing for one)."""
    return is_value(input) and not isinstance(input, numbers.Number | np.generic)


def _tensor(x, op: str, what: str = "input"):
    if not is_tensor(x):
        raise DTypeError(f"{op}: expected a Tensor for `{what}`, got {type(x).__name__} "
                         f"{x!r:.60}")
    return abstract_of(x)


def size(input_x) -> int:
    """The number of elements, a Python int (known while compiling)."""
    return math.prod(_tensor(input_x, "size", "input_x").shape)


def rank(input_x) -> int:
    """The number of dimensions, a Python int."""
    return _tensor(input_x, "rank", "input_x").ndim


def dense(input, weight, bias=None):
    """input @ weight^T + bias: `weight` (out, in) or (in,) (then the last axis is summed away),
    `bias` broadcast over the output's last axis."""
    x, w = _tensor(input, "dense"), _tensor(weight, "dense", "weight")
    if w.ndim not in (1, 2):
        raise ShapeError(f"dense: `weight` must be 1-D or 2-D, got shape {w.shape}")
    if x.ndim == 0 or x.shape[-1] != w.shape[-1]:
        raise ShapeError(f"dense: the last dimension of `input` {x.shape} must equal the input "
                         f"features of `weight` {w.shape}")
    out = F.matmul(input, weight if w.ndim == 1 else A.transpose(weight, perm=(1, 0)))
    return out if bias is None else M.add(out, bias)


def inner(input, other):
    """Sum over the last axes of both: shape input.shape[:-1] + other.shape[:-1]; a scalar
    operand multiplies."""
    a, b = _tensor(input, "inner"), _tensor(other, "inner", "other")
    if a.ndim == 0 or b.ndim == 0:
        return M.mul(input, other)
    if a.shape[-1] != b.shape[-1]:
        raise ShapeError(f"inner: the last dimensions of {a.shape} and {b.shape} must match")
    rows = F.reshape(input, (-1, a.shape[-1]))
    cols = F.reshape(other, (-1, b.shape[-1]))
    out = F.matmul(rows, A.transpose(cols, perm=(1, 0)))
    return F.reshape(out, tuple(a.shape[:-1]) + tuple(b.shape[:-1]))


def block_diag(*inputs):
    """The matrices (0-D and 1-D ones as one row) along the diagonal of one zero matrix, in
    their common dtype."""
    if not inputs:
        raise ArgumentValueError("block_diag: expected at least one Tensor")
    types = [_tensor(x, "block_diag", f"inputs[{i}]") for i, x in enumerate(inputs)]
    if any(t.ndim > 2 for t in types):
        raise ShapeError(f"block_diag: expected Tensors of at most 2 dimensions, got shapes "
                         f"{[t.shape for t in types]}")
    dtype = functools.reduce(dt.promote, [t.dtype for t in types])
    mats = [F.reshape(F.cast(x, dtype), (1, -1) if t.ndim < 2 else t.shape)
            for x, t in zip(inputs, types)]
    widths = [abstract_of(m).shape[1] for m in mats]
    total, rows, left = sum(widths), [], 0
    for m, width in zip(mats, widths):
        height = abstract_of(m).shape[0]
        parts = [F.zeros((height, left), dtype), m, F.zeros((height, total - left - width), dtype)]
        rows.append(F.concat(parts, axis=1))
        left += width
    return F.concat(rows, axis=0)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor whose diagonal `offset` in the plane of dims (dim1, dim2) holds the last axis
    of `input`, zeros elsewhere."""
    x = _tensor(input, "diag_embed")
    if x.ndim == 0:
        raise ShapeError("diag_embed: expected a Tensor of at least 1 dimension")
    n_out = x.ndim + 1
    d1, d2 = normalize_axis(dim1, n_out), normalize_axis(dim2, n_out)
    if d1 == d2:
        raise ArgumentValueError(f"diag_embed: dim1 and dim2 must differ, got {dim1}, {dim2}")
    m, k = x.shape[-1], abs(int(offset))
    square = M.mul(F.expand_dims(input, -1), F.cast(CO.eye(m, m), x.dtype))  # (..., m, m)
    # (left, right, top, bottom) of the last two axes: the diagonal k columns right or down
    out = pad(square, (k, 0, 0, k) if offset >= 0 else (0, k, k, 0)) if k else square
    if (d1, d2) != (n_out - 2, n_out - 1):
        out = CM.movedim(out, (n_out - 2, n_out - 1), (d1, d2))
    return out


def softshrink(input, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, 0 between."""
    _tensor(input, "softshrink")
    if lambd < 0:
        raise ArgumentValueError(f"softshrink: `lambd` must be non-negative, got {lambd}")
    return M.sub(input, NF.clamp(input, -lambd, lambd))


def hardshrink(input, lambd=0.5):
    """x where |x| > lambd, else 0."""
    _tensor(input, "hardshrink")
    return M.select(M.greater(M.abs_(input), lambd), input, A.zeros_like(input))


def addcmul(input, tensor1, tensor2, value=1):
    """input + value * tensor1 * tensor2."""
    return M.add(input, M.mul(value, M.mul(tensor1, tensor2)))


def hann_window(window_length, periodic=True, *, dtype=None):
    """0.5 - 0.5 cos(2 pi n / N), N the length (periodic) or the length - 1."""
    if isinstance(window_length, bool) or not isinstance(window_length, numbers.Integral) \
            or window_length < 0:
        raise ArgumentValueError(f"hann_window: `window_length` must be a non-negative int, "
                                 f"got {window_length!r}")
    dtype = dt.as_dtype(dtype or dt.float32)
    if not dtype.is_float:
        raise DTypeError(f"hann_window: `dtype` must be a float type, got {dtype}")
    n = window_length if periodic else window_length - 1
    values = np.ones(window_length) if window_length == 1 else 0.5 - 0.5 * np.cos(
        2 * np.pi * np.arange(window_length) / n)
    return CO._const(values.astype(dtype.np), dtype)


def _average_matrix(size_in: int, size_out: int) -> np.ndarray:
    """(size_out, size_in): row i averages adaptive bin i, [floor(i in / out),
    ceil((i + 1) in / out))."""
    rows = np.zeros((size_out, size_in))
    for i in range(size_out):
        start, stop = (i * size_in) // size_out, -(-((i + 1) * size_in) // size_out)
        rows[i, start:stop] = 1.0 / (stop - start)
    return rows


def _adaptive_avg_pool(input, output_size, rank: int, op: str):
    x = _tensor(input, op)
    if x.ndim not in (rank + 1, rank + 2):
        raise ShapeError(f"{op}: expected a {rank + 1}-D or {rank + 2}-D Tensor, got shape "
                         f"{x.shape}")
    sizes = tuple(output_size) if isinstance(output_size, (tuple, list)) else (
        output_size,) * rank
    out = input
    for axis, size in zip(range(x.ndim - rank, x.ndim), sizes):
        if size is not None and (isinstance(size, bool) or size <= 0):
            raise ArgumentValueError(f"{op}: output sizes must be positive, got {output_size}")
        out = apply_along(out, _average_matrix(x.shape[axis], size or x.shape[axis]), axis)
    return out


def adaptive_avg_pool1d(input, output_size):
    """Averages of (N, C, L) over `output_size` adaptive bins of L."""
    return _adaptive_avg_pool(input, output_size, 1, "adaptive_avg_pool1d")


def adaptive_avg_pool2d(input, output_size):
    """Averages of ([N,] C, H, W) over an `output_size` grid of adaptive bins (an int for
    both, None to keep a size)."""
    return _adaptive_avg_pool(input, output_size, 2, "adaptive_avg_pool2d")


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of x1 - x2 + eps along the last axis."""
    diff = M.add(M.sub(x1, x2), eps)
    return _lp_norm(diff, -1, p, keepdim, 0.0)


# ----- primitive classes over functional ops -----------------------------------------------

def _elu(input_x, alpha=1.0):
    return CM.elu(input_x, alpha)


def _logit(x, eps=-1.0):
    return CM.logit(x, None if eps < 0 else eps)


def _reduce_std(input_x, axis=(), unbiased=True, keep_dims=False):
    """(std, mean) over `axis` (every axis when empty)."""
    axes = tuple(range(abstract_of(input_x).ndim)) if axis in ((), []) else axis
    return CM.std_mean(input_x, axes, 1 if unbiased else 0, keep_dims)


def _lp_norm(input, axis, p=2, keep_dims=False, epsilon=1e-12):
    """(sum |x|^p)^(1/p) over `axis`; a zero norm comes out as `epsilon`, as MindSpore's."""
    axes = (axis,) if isinstance(axis, numbers.Integral) else tuple(axis)
    x = M.abs_(input)
    if p == 1:
        out = F.reduce_sum(x, axes, keep_dims)
    else:
        out = M.pow_(F.reduce_sum(M.pow_(x, p), axes, keep_dims), 1.0 / p)
    return M.maximum(out, epsilon)


def _eps(x):
    """The smallest positive normal number of x's dtype, in x's shape."""
    dtype = _tensor(x, "Eps", "x").dtype
    if not dtype.is_float:
        raise DTypeError(f"Eps: expected a float Tensor, got {dtype}")
    return F.fill(dtype, abstract_of(x).shape, float(np.finfo(dtype.np).tiny))


def _range(start, limit, delta, maxlen=1000000):
    """[start, limit) by delta in the inputs' dtype, at most `maxlen` values."""
    values = [v.item() if is_tensor(v) else v for v in (start, limit, delta)]
    dtype = abstract_of(start).dtype if is_tensor(start) else None
    out = CO.arange(*values, dtype=dtype)
    if abstract_of(out).shape[0] > maxlen:
        raise ArgumentValueError(f"Range: {abstract_of(out).shape[0]} values exceed `maxlen` "
                                 f"{maxlen}")
    return out


def _dropout2d(x, keep_prob=0.5):
    """(output, mask): whole channels of (N, C, H, W) kept with probability `keep_prob` and
    scaled by 1 / keep_prob; the mask (bool, x's shape) says which elements were kept."""
    shape = _tensor(x, "Dropout2D", "x").shape
    if len(shape) != 4:
        raise ShapeError(f"Dropout2D: expected a 4-D (N, C, H, W) Tensor, got shape {shape}")
    if not 0 < keep_prob <= 1:
        raise ArgumentValueError(f"Dropout2D: `keep_prob` must be in (0, 1], got {keep_prob}")
    keep = M.less(rand(tuple(shape[:2]) + (1, 1)), keep_prob)
    mask = F.broadcast_to(keep, tuple(shape))
    return M.mul(x, F.cast(mask, abstract_of(x).dtype)) / keep_prob, mask


export_class("Elu", _elu, {"alpha": 1.0})
export_class("HSwish", CM.hardswish)
export_class("Logit", _logit, {"eps": -1.0})
export_class("Cdist", CM.cdist, {"p": 2.0})
export_class("Addcmul", lambda input, x1, x2, value: addcmul(input, x1, x2, value))
export_class("LinSpace", CO.linspace)
export_class("Range", _range, {"maxlen": 1000000})
export_class("Unstack", lambda input_x, axis=0, num=None: CO.unstack(input_x, axis),
             {"axis": 0, "num": None})
export_class("ReduceStd", _reduce_std, {"axis": (), "unbiased": True, "keep_dims": False})
export_class("LpNorm", _lp_norm, {"axis": None, "p": 2, "keep_dims": False, "epsilon": 1e-12})
export_class("Eps", _eps)
export_class("Dropout2D", _dropout2d, {"keep_prob": 0.5})


def _kl_div_loss(logits, labels, reduction="mean"):
    from cellgraph.loss_functions import kl_div  # the user surface's; loaded by then

    return kl_div(logits, labels, reduction)


export_class("KLDivLoss", _kl_div_loss, {"reduction": "mean"})
export_class("SoftShrink", softshrink, {"lambd": 0.5})
export_class("HShrink", hardshrink, {"lambd": 0.5})


def range_(start, end, step):
    """`ops.range`: [start, end) by `step` (Tensors or numbers), in the dtype of `start` when it
    is a Tensor, else int64 for ints and float32 otherwise."""
    return _range(start, end, step, maxlen=math.inf)


export(range_, name="range")
