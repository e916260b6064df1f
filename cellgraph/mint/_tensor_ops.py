"""The `mint` functions whose arguments or results differ from the `ops.*` function beneath them:
PyTorch's names (`dim`, `keepdim`), int64 indices from sorts and selections, Python bools from
whole-tensor comparisons, and the few torch functions `ops` has no counterpart for (kthvalue,
histc, unique_consecutive, multinomial without replacement). Each is a few lines over existing
operations; the maths lives in `ops`."""
from __future__ import annotations

import math
import numbers

import numpy as _np

import cellgraph.ops as _ops
from cellgraph.compiler.builder import current_builder as _current_builder
from cellgraph.compiler.pynative_indexing import note_index_read as _note_index_read
from cellgraph.ops.function.random_func import multinomial_draw as _multinomial_draw
from cellgraph.primitives import dtype as _dt
from cellgraph.primitives import functional as _core
from cellgraph.primitives.dynamic_ops import bin_counts
from cellgraph.primitives.errors import (
    ArgumentError,
    ArgumentValueError,
    RunError,
    ShapeError,
)
from cellgraph.primitives.random_ops import draw_uniform as _draw_uniform

_LN2 = math.log(2.0)


def _int64(indices):
    """torch-style indices are int64 (`ops` sorts give int32)."""
    return _ops.cast(indices, _dt.int64)


def _axis(dim, ndim, op):
    if isinstance(dim, bool) or not isinstance(dim, numbers.Integral) or not -ndim <= dim < ndim:
        raise ArgumentValueError(f"mint.{op}: expected dim in [{-ndim}, {ndim}), got {dim!r}")
    return dim % ndim


def _eager_bool(flag):
    """A Python bool when run eagerly (as MindSpore's), the bool Tensor inside a graph."""
    return bool(flag.asnumpy()) if _ops.running_eagerly() else flag


def _float(input):
    return input if input.dtype.is_float else _ops.cast(input, _dt.float32)


# ----- reductions ---------------------------------------------------------------------------------


def amax(input, dim=(), keepdim=False):
    return _ops.amax(input, None if dim == () else dim, keepdim)


def amin(input, dim=(), keepdim=False):
    return _ops.amin(input, None if dim == () else dim, keepdim)


# MindSpore's SumExt, ProdExt and Nansum (as torch): without a dtype, a bool or an integer
# narrower than int64 is summed (multiplied) as int64
NARROW_INTEGERS = frozenset({_dt.bool_, _dt.uint8, _dt.int8, _dt.int16, _dt.int32})


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """The sum over `dim` with NaNs counted as zero; without a dtype, that of bools or
    integers narrower than int64 is int64 (MindSpore's Nansum)."""
    if dtype is None and input.dtype in NARROW_INTEGERS:
        dtype = _dt.int64
    x = input if dtype is None else _ops.cast(input, dtype)
    x = _ops.masked_fill(x, _ops.isnan(x), 0) if x.dtype.is_float else x
    return _core.reduce_sum(x, () if dim is None else dim, keepdim)


def count_nonzero(input, dim=None):
    """The int64 count of non-zero elements over `dim` (all when None)."""
    return _ops.count_nonzero(input, () if dim is None else dim, dtype=_dt.int64)


def cumprod(input, dim, dtype=None):
    return _ops.cumprod(input, dim, dtype)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element of `input` is close to `other` (see `isclose`)."""
    return _eager_bool(_ops.all(_ops.isclose(input, other, rtol, atol, equal_nan)))


def equal(input, other):
    """Whether `input` and `other` have the same shape and elements."""
    if input.shape != other.shape:
        return False
    return _eager_bool(_ops.all(_ops.equal(input, other)))


# ----- sorting and selection (int64 indices) ------------------------------------------------------

def sort(input, *, dim=-1, descending=False, stable=False):
    """(values, int64 indices) along `dim`; always stable (equal elements keep input order)."""
    values, indices = _ops.sort(input, dim, descending)
    return values, _int64(indices)


def argsort(input, dim=-1, descending=False, stable=False):
    return sort(input, dim=dim, descending=descending)[1]


def topk(input, k, dim=-1, largest=True, sorted=True):
    values, indices = _ops.topk(input, k, dim, largest, sorted)
    return values, _int64(indices)


def kthvalue(input, k, dim=-1, keepdim=False):
    """(the k-th smallest element along `dim`, its int64 index)."""
    axis = _axis(dim, input.ndim, "kthvalue")
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or not \
            1 <= k <= input.shape[axis]:
        raise ArgumentValueError(f"mint.kthvalue: expected k in [1, {input.shape[axis]}] for "
                                 f"dim {dim}, got {k!r}")
    values, indices = sort(input, dim=axis)
    picked = tuple(_ops.narrow(t, axis, k - 1, 1) for t in (values, indices))
    return picked if keepdim else tuple(_ops.squeeze(t, axis) for t in picked)


def median(input, dim=None, keepdim=False):
    """The median (the lower middle element) of all elements, or (values, int64 indices) along
    `dim`."""
    if dim is None:
        return _ops.median(_ops.reshape(input, (-1,)), 0)[0]
    values, indices = _ops.median(input, dim, keepdim)
    return values, _int64(indices)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """The flattened `input` with each run of equal consecutive elements reduced to one."""
    if dim is not None:
        raise ArgumentValueError(f"mint.unique_consecutive: `dim` is not supported (got "
                                 f"{dim!r}); runs are taken over all elements")
    flat = _ops.reshape(input, (-1,))
    starts = _ops.concat((_ops.ones((1,), _dt.bool_), _ops.not_equal(flat[1:], flat[:-1])))
    inverse = _ops.cumsum(_ops.cast(starts, _dt.int64), 0) - 1  # the run each element is in
    out = (_ops.masked_select(flat, starts),)
    if return_inverse:
        out += (_ops.reshape(inverse, input.shape),)
    if return_counts:
        out += (bin_counts(inverse),)
    return out[0] if len(out) == 1 else out


def histc(input, bins=100, min=0, max=0):
    """Counts of `input` in `bins` equal-width bins over [min, max] (the data's range when both
    are 0); elements outside are ignored and max falls in the last bin."""
    if isinstance(bins, bool) or not isinstance(bins, numbers.Integral) or bins < 1:
        raise ArgumentValueError(f"mint.histc: expected a positive int bins, got {bins!r}")
    if min > max:
        raise ArgumentValueError(f"mint.histc: expected min <= max, got min={min}, max={max}")
    x = _float(_ops.reshape(input, (-1,)))
    if min == max:  # the data's range, widened by one each side when it is empty (as torch)
        low, high = _ops.reduce_min(x), _ops.reduce_max(x)
        empty = _ops.cast(_ops.equal(low, high), x.dtype)
        low, high = low - empty, high + empty
    else:
        low, high = float(min), float(max)
    position = _ops.floor((x - low) / (high - low) * bins)
    index = _ops.clamp(_ops.cast(position, _dt.int64), 0, bins - 1)  # max goes in the last bin
    inside = _ops.logical_and(x >= low, x <= high)
    hits = _ops.one_hot(index, bins) * _ops.expand_dims(_ops.cast(inside, x.dtype), 1)
    return _ops.cast(_ops.reduce_sum(hits, 0), input.dtype if input.dtype.is_float else x.dtype)


# ----- indexing and shaping -----------------------------------------------------------------------


def _scatter_updates(index, src, dtype):
    """torch lets `src` be larger than `index` (only its leading part is used) or a scalar."""
    if not hasattr(src, "shape"):
        return _ops.full(index.shape, src, dtype=dtype)
    if src.shape == index.shape:
        return src
    return src[tuple(slice(0, n) for n in index.shape)]


def scatter(input, dim, index, src):
    """`input` with `src` (a Tensor, or a number written everywhere `index` points) written
    along `dim` at `index`."""
    return _scatter(input, dim, index, src, "none")


def scatter_add(input, dim, index, src):
    return _scatter(input, dim, index, src, "add")


def _scatter(input, dim, index, src, reduction):
    updates = _scatter_updates(index, src, input.dtype)
    return _ops.tensor_scatter_elements(input, index, updates, dim, reduction)


def select(input, dim, index):
    """The slice of `input` at `index` along `dim` (that axis removed): a view of `input`, as
    MindSpore's (SelectView), so that an in-place update of it in PyNative mode reaches
    `input` in a traced gradient too."""
    axis = _axis(dim, input.ndim, "select")
    result = _ops.squeeze(_ops.narrow(input, axis, index % input.shape[axis], 1), axis)
    _note_index_read(input, (slice(None),) * axis + (index,), result)
    return result


def ravel(input):
    return _ops.reshape(input, (-1,))


def t(input):
    """The transpose of a matrix (a vector or scalar as it is)."""
    if input.ndim > 2:
        raise ShapeError(f"mint.t: expected a tensor of rank <= 2, got rank {input.ndim}")
    return input if input.ndim < 2 else _ops.swapaxes(input, 0, 1)


# ----- elementwise --------------------------------------------------------------------------------


def frac(input):
    return input - _ops.trunc(input)


def exp2(input):
    return _ops.exp(_float(input) * _LN2)


def logaddexp2(input, other):
    return _ops.logaddexp(input * _LN2, other * _LN2) / _LN2


def logical_xor(input, other):
    return _ops.not_equal(_ops.cast(input, _dt.bool_), _ops.cast(other, _dt.bool_))


def addcdiv(input, tensor1, tensor2, *, value=1):
    return input + value * tensor1 / tensor2


def addcmul(input, tensor1, tensor2, *, value=1):
    return input + value * tensor1 * tensor2


# ----- linear algebra -----------------------------------------------------------------------------


def mv(input, vec):
    """Matrix times vector."""
    if input.ndim != 2 or vec.ndim != 1:
        raise ShapeError(f"mint.mv: expected a matrix and a vector, got ranks {input.ndim} and "
                         f"{vec.ndim}")
    return _ops.matmul(input, vec)


def cross(input, other, dim=None):
    """The cross product of 3-vectors along `dim` (the first axis of size 3 when None)."""
    shape = _ops.broadcast_to(input, other.shape).shape if input.ndim < other.ndim else \
        _ops.broadcast_to(other, input.shape).shape
    if dim is None:
        dim = next((i for i, n in enumerate(shape) if n == 3), None)
        if dim is None:
            raise ShapeError(f"mint.cross: no axis of size 3 in shape {shape}")
    axis = _axis(dim, len(shape), "cross")
    if shape[axis] != 3:
        raise ShapeError(f"mint.cross: expected size 3 along dim {dim}, got {shape[axis]}")
    a = [_ops.narrow(_ops.broadcast_to(input, shape), axis, i, 1) for i in range(3)]
    b = [_ops.narrow(_ops.broadcast_to(other, shape), axis, i, 1) for i in range(3)]
    parts = [a[(i + 1) % 3] * b[(i + 2) % 3] - a[(i + 2) % 3] * b[(i + 1) % 3] for i in range(3)]
    return _ops.concat(parts, axis)


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """Pairwise p-norm distances between the rows of `x1` and `x2` (computed directly whatever
    `compute_mode` asks)."""
    return _ops.cdist(x1, x2, p)


# ----- random sampling ----------------------------------------------------------------------------

GENERATOR_STEP = 12  # how far each draw moves its Generator's offset, as MindSpore's


def generator_stream(generator, op: str):
    """The numbers of one of mint's draws, keyed as MindSpore keys them by the (seed, offset)
    its Generator (`generator`, else the default one) hands out, the offset then moving on by
    12: the same pair, the same numbers (MindSpore's CPU build has no kernels for these draws,
    so the numbers are NumPy's generator seeded by the pair). In a graph being built the pair
    is not known: the draw takes the global generator's next numbers."""
    from cellgraph.common.generator import Generator, default_generator

    if generator is not None and not isinstance(generator, Generator):  # (MindSpore's type)
        raise AttributeError(f"For '{op}', 'generator' must be a Generator, but got "
                             f"{type(generator).__name__}, which has no '_step'.")
    if _current_builder() is not None:
        return None
    seed, offset = (generator or default_generator)._step(GENERATOR_STEP)
    return _np.random.default_rng([int(seed) % 2**64, int(offset) % 2**64])


def check_device(device, op: str) -> None:
    """`device=`: None and the host ("CPU"/"cpu") are where tensors live here; an accelerator's
    name is refused as MindSpore's CPU build refuses it (no such device), any other as no
    device at all."""
    if device is None or device in ("CPU", "cpu"):
        return
    if not isinstance(device, str):
        raise ArgumentError(f"For '{op}', the input 'device' should be a str, but got "
                            f"{type(device)}.")
    if device in ("Ascend", "npu", "meta"):
        raise RunError(f"For '{op}': device {device!r} is not available (tensors live on the "
                       f"CPU)")
    raise ArgumentValueError(f"Failed to convert the value \"{device}\" of input 'device' of "
                             f"'{op}' to enum.")


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """int64 category indices drawn by the weights in each row of `input`; without replacement
    by the Gumbel-top-k trick (the k largest of log w - log(-log u) are a draw of k distinct)."""
    stream = generator_stream(generator, "multinomial")
    if replacement:
        return _multinomial_draw(input, num_samples, stream, _dt.int64)
    if num_samples > input.shape[-1]:
        raise ArgumentValueError(f"mint.multinomial: cannot draw {num_samples} distinct samples "
                                 f"from {input.shape[-1]} categories without replacement")
    noise = -_ops.log(-_ops.log(_draw_uniform(tuple(input.shape), _dt.float32, stream)))
    return topk(_ops.log(_float(input)) + noise, num_samples)[1]


__all__ = [n for n in dir() if not n.startswith("_") and n not in (
    "annotations", "builtins", "math", "numbers", "ArgumentValueError", "ShapeError",
    "GENERATOR_STEP", "generator_stream")]
