"""`mindspore.mint`: the PyTorch-style API (`dim=`, `keepdim=`, `input`/`other`), written over
cellgraph's operations. Names whose operation cellgraph lacks are absent rather than wrong."""
from __future__ import annotations

import numpy as _np

import cellgraph.ops as _ops
from cellgraph.ops import functional as _F
from cellgraph.ops.function.array_func.creation import ones_like, zeros_like  # noqa: F401  (with dtype)
from cellgraph.ops.function.array_func.ext import repeat_interleave_ext
from cellgraph.ops.function.math_func.elementwise import truncate_div
from cellgraph.ops.function.random_func import _normal_draws, _size, random_ints
from cellgraph.primitives import dtype as _dt
from cellgraph.primitives.core import PRIMITIVES as _PRIMITIVES
from cellgraph.primitives.dynamic_ops import bin_counts as _bin_counts
from cellgraph.primitives.dynamic_ops import unique_p as _unique_p
from cellgraph.primitives.errors import ArgumentValueError, RunError
from cellgraph.primitives.random_ops import draw_uniform as _draw_uniform
from cellgraph.primitives.random_ops import float_dtype as _float_dtype
from cellgraph.primitives.random_ops import random_permutation as _random_permutation

from . import distributed, linalg, nn, optim  # noqa: F401  (mint.nn, .optim, .linalg, ...)
from ._tensor_ops import NARROW_INTEGERS as _NARROW_INTEGERS
from ._tensor_ops import check_device as _check_device
from ._tensor_ops import generator_stream as _generator_stream

matmul, outer = _ops.matmul, _ops.outer
isclose, isfinite, isinf = _ops.isclose, _ops.isfinite, _ops.isinf
broadcast_to, arange, eye = _ops.broadcast_to, _ops.arange, _ops.eye
flip, roll, unsqueeze = _ops.flip, _ops.roll, _ops.unsqueeze


def bmm(input, mat2):
    """Batched matrix product of (b, n, m) and (b, m, p)."""
    return _ops.bmm(input, mat2)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """beta * input + alpha * bmm(batch1, batch2)."""
    return _ops.baddbmm(input, batch1, batch2, beta, alpha)


def isnan(tensor):
    return _ops.isnan(tensor)


def linspace(start, end, steps, *, dtype=None):
    """`steps` evenly spaced values from start to end inclusive, float32 unless `dtype`."""
    out = _ops.linspace(start, end, steps)
    return out if dtype is None else _F.cast(out, dtype)


def permute(input, dims):
    return _ops.permute(input, dims)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids from 1-D tensors; `indexing` None is "ij" (matrix indexing)."""
    return _ops.meshgrid(*tensors, indexing="ij" if indexing is None else indexing)


def _dims(dim):
    return () if dim is None else dim


def _cast(out, dtype):
    return out if dtype is None else _F.cast(out, dtype)


def _accumulate_as(input, dtype):
    """The input as the dtype a sum or product of it accumulates in."""
    if dtype is None and input.dtype in _NARROW_INTEGERS:
        dtype = _dt.int64
    return _cast(input, dtype)


def _dtype_name(value) -> str:
    dtype = getattr(value, "dtype", None)
    return str(dtype) if dtype is not None else type(value).__name__


def _scaled(input, other, alpha, op: str):
    """alpha * other, as add and sub take it: a Python number stays one (it does not make an
    int32 input int64). Of bool input and other, alpha counts as a bool (AddExt's and SubExt's
    rule: the result stays bool), and a bool alpha is for those alone."""
    both_bool = getattr(input, "dtype", None) == _dt.bool_ and (
        isinstance(other, bool) or getattr(other, "dtype", None) == _dt.bool_)
    if isinstance(alpha, bool) and not both_bool:
        raise TypeError(f"For '{op}', boolean alpha need boolean input and other, but got "
                        f"{_dtype_name(input)} and {_dtype_name(other)}")
    if both_bool and not isinstance(other, bool):
        return other if alpha else _F.logical_and(other, False)
    if alpha == 1:
        return other
    if isinstance(other, (int, float)) and isinstance(alpha, (int, float)):
        return other * alpha
    return _F.mul(other, alpha)


def add(input, other, *, alpha=1):
    return _F.add(input, _scaled(input, other, alpha, "AddExt"))


def sub(input, other, *, alpha=1):
    return _F.sub(input, _scaled(input, other, alpha, "SubExt"))


def mul(input, other):
    return _F.mul(input, other)


def div(input, other, *, rounding_mode=None):
    """input / other; rounding_mode "floor" rounds the quotient down, "trunc" toward zero
    (integers stay integers then, as MindSpore's)."""
    if rounding_mode is None:
        return _F.div(input, other)
    if rounding_mode == "floor":
        return _ops.floor_divide(input, other)
    if rounding_mode == "trunc":
        return truncate_div(input, other)
    raise ArgumentValueError(f"mint.div: rounding_mode must be None, 'floor' or 'trunc', got "
                             f"{rounding_mode!r}")


def pow(input, exponent):
    """input ** exponent; an integer tensor to a negative int power is refused, as MindSpore's
    PowTensorScalar (ops.pow and `**` take it)."""
    if type(exponent) is int and exponent < 0 and hasattr(input, "aval") and \
            input.aval.dtype.is_int:
        raise RunError("For primitive [PowTensorScalar], Integers to negative integer powers "
                       "are not allowed.")
    return _F.pow(input, exponent)


def clamp(input, min=None, max=None):
    return _ops.clamp(input, min, max)


def sum(input, dim=None, keepdim=False, *, dtype=None):
    return _core.reduce_sum(_accumulate_as(input, dtype), _dims(dim), keepdim)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    return _core.reduce_mean(_cast(input, dtype), _dims(dim), keepdim)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    return _ops.reduce_prod(_accumulate_as(input, dtype), _dims(dim), keepdim)


def max(input, dim=None, keepdim=False):
    """The maximum (no dim), or (values, indices) along `dim`."""
    if dim is None:
        return _F.reduce_max(input)
    return _ops.max(input, dim, keepdim)


def min(input, dim=None, keepdim=False):
    if dim is None:
        return _F.reduce_min(input)
    return _ops.min(input, dim, keepdim)


def argmax(input, dim=None, keepdim=False):
    return _ops.argmax(input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    return _ops.argmax(_F.neg(input), dim, keepdim)


def cumsum(input, dim, dtype=None):
    """CumsumExt's: a bool input runs in int64."""
    if dtype is None and input.dtype == _dt.bool_:
        dtype = _dt.int64
    return _ops.cumsum(input, dim, dtype)


def cat(tensors, dim=0):
    return _F.concat(tensors, dim)


concat = cat


def stack(tensors, dim=0):
    return _F.stack(tensors, dim)


def split(tensor, split_size_or_sections, dim=0):
    return _ops.split(tensor, split_size_or_sections, dim)


def chunk(input, chunks, dim=0):
    return _ops.chunk(input, chunks, dim)


def reshape(input, shape):
    return _F.reshape(input, shape)


def flatten(input, start_dim=0, end_dim=-1):
    return _ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def transpose(input, dim0, dim1):
    return _ops.swapaxes(input, dim0, dim1)


def squeeze(input, dim=None):
    return _F.squeeze(input, dim)


def tile(input, dims):
    return _ops.tile(input, dims)


def index_select(input, dim, index):
    return _ops.index_select(input, dim, index)


def softmax(input, dim, *, dtype=None):
    return _F.softmax(_cast(input, dtype), dim)


def zeros(size, *, dtype=None):
    return _F.zeros(size, dtype)


def ones(size, *, dtype=None):
    return _F.ones(size, dtype)


def full(size, fill_value, *, dtype=None):
    """A Tensor of `size` filled with `fill_value`; without `dtype`, the value's (bool, int64 or
    float32), as torch.full (ops.full always defaults to int64)."""
    if dtype is None and isinstance(getattr(fill_value, "dtype", None), _dt.DType):
        dtype = fill_value.dtype   # a 0-d Tensor's own
    elif dtype is None:
        dtype = (_dt.bool_ if isinstance(fill_value, (bool, _np.bool_)) else
                 _dt.int64 if isinstance(fill_value, (int, _np.integer)) else _dt.float32)
    return _F.full(tuple(size) if isinstance(size, list) else size, fill_value, dtype=dtype)


def empty(*size, dtype=None, device=None):
    """A new tensor of `size` (its values are zeros here, never uninitialised memory)."""
    _check_device(device, "empty")
    return zeros(size[0] if len(size) == 1 else size, dtype=dtype)


# mint's draws are keyed by a Generator's (seed, offset), the default one's unless one is given
# (_tensor_ops.generator_stream)

def randn(*size, generator=None, dtype=None, device=None):
    _check_device(device, "randn")
    out = _normal_draws(_size(size), _generator_stream(generator, "randn"))
    return out if dtype is None else _F.cast(out, dtype)


def rand(*size, generator=None, dtype=None, device=None):
    _check_device(device, "rand")
    draws = _draw_uniform(_size(size), _dt.float32, _generator_stream(generator, "rand"))
    return draws if dtype is None else _F.cast(draws, dtype)


lerp, xlogy = _ops.lerp, _ops.xlogy
tril, triu, nan_to_num, einsum, masked_fill, unbind = (
    _ops.tril, _ops.triu, _ops.nan_to_num, _ops.einsum, _ops.masked_fill, _ops.unbind)


def trace(input):
    """The sum of the main diagonal; that of bools or integers is int64 (MindSpore's
    TraceExt; ops.trace keeps the input's dtype)."""
    out = _ops.trace(input)
    return _F.cast(out, _dt.int64) if input.dtype.is_bool or input.dtype.is_int else out
bincount = _bin_counts  # integer counts, as torch's (ops.bincount's are float32)
addmm, inverse, full_like, searchsorted, nonzero = (
    _ops.addmm, _ops.inverse, _ops.full_like, _ops.searchsorted, _ops.nonzero)
remainder = _ops.remainder
divide, logaddexp = div, _ops.logaddexp


def all(input, dim=None, keepdim=False):
    return _ops.all(input, dim, keepdim)


def any(input, dim=None, keepdim=False):
    return _ops.any(input, dim, keepdim)



def round(input, *, decimals=0):
    return _ops.round(input, decimals=decimals)


def sinc(input):
    """sin(pi x) / (pi x), 1 at 0."""
    scaled = _F.mul(input if input.dtype.is_float else _F.cast(input, _dt.float32), _np.pi)
    safe = _F.select(_F.equal(scaled, 0), _ops.ones_like(scaled), scaled)
    return _F.select(_F.equal(scaled, 0), _ops.ones_like(scaled), _F.div(_ops.sin(safe), safe))


def dot(input, other):
    """The inner product of two 1-D tensors."""
    if input.ndim != 1 or other.ndim != 1:
        raise ArgumentValueError(f"mint.dot: expected 1-D tensors, got shapes {input.shape} and "
                                 f"{other.shape}")
    return _core.reduce_sum(_F.mul(input, other), (), False)


def mm(input, mat2):
    return _F.mm(input, mat2)



def swapaxes(input, axis0, axis1):
    return _ops.swapaxes(input, axis0, axis1)


def narrow(input, dim, start, length):
    """`length` elements from `start` along `dim` (a negative start counts from the end, a
    length may be 0); a range past the end is MindSpore's Narrow ValueError."""
    from cellgraph.ops.function.array_func.shape import slice_along

    ndim = len(input.shape)
    dim = dim + ndim if isinstance(dim, int) and -ndim <= dim < 0 else dim
    if isinstance(dim, bool) or not isinstance(dim, int) or not 0 <= dim < ndim:
        raise ArgumentValueError(f"For 'Narrow', dim must be in range [{-ndim}, {ndim}), but "
                                 f"got {dim}.")
    size = input.shape[dim]
    begin = start + size if start < 0 else start
    if begin < 0 or length < 0 or begin + length > size:
        raise ArgumentValueError(f"For 'Narrow', start ({start}), + length ({length}) exceeds "
                                 f"dimension size ({size}).")
    return slice_along(input, dim, begin, length)


def expand_as(input, other):
    return _F.broadcast_to(input, other.shape)


def clone(input):
    """A copy of `input` (a new Tensor eagerly; in a graph every value is immutable)."""
    return _ops.identity(input)


def gather(input, dim, index):
    return _ops.gather_elements(input, dim, index)





def diag(input, diagonal=0):
    """The diagonal matrix of a 1-D tensor, or the diagonal of a 2-D one (`diagonal` above
    the main one when positive)."""
    if input.ndim == 1:
        return _ops.diag_embed(input, diagonal)
    return _ops.diagonal(input, diagonal)


def diff(input, n=1, dim=-1, prepend=None, append=None):
    return _ops.diff(input, n, dim, prepend, append)


def cummax(input, dim):
    return _ops.cummax(input, dim)


def cummin(input, dim):
    """(the running minimum along `dim`, its int64 index, as torch's; ops.cummin's is int32)."""
    values, indices = _ops.cummin(input, dim)
    return values, _F.cast(indices, _dt.int64)






def log_softmax(input, dim=None, *, dtype=None):
    return _F.log_softmax(_cast(input, dtype), -1 if dim is None else dim)


def logsumexp(input, dim, keepdim=False):
    return _ops.logsumexp(input, dim, keepdim)


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):
    """The vector p-norm over `dim` (all elements when None), "fro" the 2-norm, inf and -inf
    the largest and smallest magnitude."""
    x = _ops.abs(_cast(input, dtype))
    axes = _dims(dim)
    if p in ("fro", 2, 2.0):
        return _ops.sqrt(_core.reduce_sum(_F.mul(x, x), axes, keepdim))
    if p == float("inf"):
        return _core.reduce_max(x, axes, keepdim)
    if p == float("-inf"):
        return _core.reduce_min(x, axes, keepdim)
    if p == 0:
        return _core.reduce_sum(_F.cast(_F.not_equal(x, 0), x.dtype), axes, keepdim)
    if isinstance(p, str):
        raise ArgumentValueError(f"mint.norm: p={p!r} is not supported; use a number or 'fro'")
    return _F.pow(_core.reduce_sum(_F.pow(x, p), axes, keepdim), 1.0 / p)


def std(input, dim=None, *, correction=1, keepdim=False):
    return _ops.std(input, dim, correction, keepdim)


def var(input, dim=None, *, correction=1, keepdim=False):
    return _ops.var(input, dim, correction, keepdim)


def std_mean(input, dim=None, *, correction=1, keepdim=False):
    return _ops.std_mean(input, dim, correction, keepdim)


def var_mean(input, dim=None, *, correction=1, keepdim=False):
    return _ops.var_mean(input, dim, correction, keepdim)


def repeat_interleave(input, repeats, dim=None, *, output_size=None):
    return repeat_interleave_ext(input, repeats, dim, output_size)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The sorted distinct values, with the inverse indices and the counts when asked."""
    if dim is not None:
        raise ArgumentValueError("mint.unique: `dim` is not supported; unique values are taken "
                                 "over all elements")
    values, inverse = _unique_p(input, sorted=True)
    out = [values]
    if return_inverse:
        out.append(_F.cast(inverse, _dt.int64))
    if return_counts:
        out.append(_bin_counts(_F.reshape(inverse, (-1,))))  # max(inverse) + 1 bins
    return values if len(out) == 1 else tuple(out)



def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Samples of N(mean, std): of `size` for number arguments, else of the arguments' shape."""
    stream = _generator_stream(generator, "normal")
    if size is None:
        size = _np.broadcast_shapes(tuple(getattr(mean, "shape", ())),
                                    tuple(getattr(std, "shape", ())))
    return _F.add(_F.mul(_normal_draws(_size((tuple(size),)), stream), std), mean)


def randint(*args, generator=None, dtype=None, device=None):
    """randint(low=0, high, size): integers in [low, high) of shape `size`, positional as
    MindSpore takes them; `randint(high, size)` starts at 0."""
    _check_device(device, "randint")
    if len(args) == 2:
        (high, size), low = args, 0
    elif len(args) == 3:
        low, high, size = args
    else:
        raise TypeError(f"randint() takes (high, size) or (low, high, size) positionally, got "
                        f"{len(args)} argument(s)")
    return random_ints(low, high, _size((tuple(size),)), _generator_stream(generator, "randint"),
                       dtype or _dt.int64)


def randint_like(*args, dtype=None, device=None):
    """Integers in [low, high) of `input`'s shape: (input, high) or (input, low, high)."""
    _check_device(device, "randint_like")
    if len(args) not in (2, 3):
        raise TypeError(f"randint_like() takes (input, high) or (input, low, high) positionally, "
                        f"got {len(args)} argument(s)")
    input, *bounds = args
    return randint(*bounds, input.shape, dtype=dtype or input.dtype)


def randperm(n, *, generator=None, dtype=_dt.int64):
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise TypeError(f"For 'randperm', 'n' must be a non-negative int, but got {n!r}")
    stream = _generator_stream(generator, "randperm")
    order = _random_permutation(n=n) if stream is None else _random_permutation(n=n, seed=stream)
    return _F.cast(order, dtype)


def rand_like(input, *, dtype=None, device=None):
    _check_device(device, "rand_like")
    dtype = _float_dtype("rand_like", dtype, input.dtype)
    draws = _draw_uniform(tuple(input.shape), _dt.float32, _generator_stream(None, "rand_like"))
    return _F.cast(draws, dtype)


def randn_like(input, *, dtype=None, device=None):
    _check_device(device, "randn_like")
    dtype = _float_dtype("randn_like", dtype, _dt.float32)
    draws = _normal_draws(tuple(input.shape), _generator_stream(None, "randn_like"))
    return _F.cast(draws, dtype)


def empty_like(input, *, dtype=None, device=None):
    """A new tensor like `input` (its values are zeros here, never uninitialised memory)."""
    _check_device(device, "empty_like")
    return _ops.zeros_like(input) if dtype is None else _F.zeros(input.shape, dtype)


def bernoulli(input, *, generator=None):
    """1 with the probability each element of `input` gives, else 0, in input's dtype."""
    draws = _draw_uniform(tuple(input.shape), _dt.float32,
                          _generator_stream(generator, "bernoulli"))
    return _F.cast(_F.less(draws, input), input.dtype)


# the functions of ops that mint has under the same names and parameters
addbmm, addmv, polar, float_power, fmod, floor_divide = (
    _ops.addbmm, _ops.addmv, _ops.polar, _ops.float_power, _ops.fmod, _ops.floor_divide)
imag, real, take, gcd, isneginf = _ops.imag, _ops.real, _ops.take, _ops.gcd, _ops.isneginf
clip = clamp  # MindSpore's other name of clamp


def bitwise_not(input):
    """~input, elementwise (logical NOT for bool)."""
    return _ops.invert(input)


def dstack(tensors):
    """The tensors joined along their third axis, each raised to rank 3 first."""
    return _ops.dstack(tensors)


def hstack(tensors):
    """The tensors joined along axis 1 (axis 0 for 1-D ones)."""
    return _ops.hstack(tensors)


def item(input):
    """The value of a one-element tensor, a Python number."""
    return input.item()


def vdot(input, other):
    """sum(conj(input) * other) of two 1-D tensors."""
    if input.ndim != 1 or other.ndim != 1:
        raise ArgumentValueError(f"mint.vdot: expected two 1-D tensors, got shapes "
                                 f"{tuple(input.shape)} and {tuple(other.shape)}")
    left = _ops.conj(input) if input.dtype.is_complex else input
    return _F.reduce_sum(_F.mul(left, other))


def index_add(input, dim, index, source, *, alpha=1):
    """input with alpha * source added at `index` along `dim` (repeated indices add up)."""
    from cellgraph.ops.function.math_func.elementwise import index_added

    return index_added(input, dim, index, source if alpha == 1 else _F.mul(source, alpha))


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """(x, A) with T x = b, T the upper (or lower) triangle of A (its transpose with
    `transpose`; ones on its diagonal with `unitriangular`)."""
    n = A.shape[-1]
    keep = _np.triu(_np.ones((n, n), bool)) if upper else _np.tril(_np.ones((n, n), bool))
    if unitriangular:
        keep &= ~_np.eye(n, dtype=bool)
    triangle = _F.select(_ops.Tensor(keep), A, _ops.zeros_like(A))
    if unitriangular:
        triangle = _F.add(triangle, _ops.Tensor(_np.eye(n, dtype=A.dtype.np)))
    if transpose:
        triangle = _ops.swapaxes(triangle, -1, -2)
    return _ops.matrix_solve(triangle, b), A


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """The 2-D convolution (mint.nn.functional.conv2d)."""
    return nn.functional.conv2d(input, weight, bias, stride, padding, dilation, groups)


from cellgraph._check_jit_forbidden_api import jit_forbidden_register  # noqa: F401
from cellgraph.ops.primitive import constexpr  # noqa: F401
from cellgraph.primitives import functional as _core

# the names MindSpore's mint gives the operations its functions call (the same objects where
# MindSpore's are): mint.cdist_ is ops.cdist, mint.flatten_ext mint.nn.functional.flatten, ...
cdist_ = _ops.cdist
flatten_ext, softmax_ext = nn.functional.flatten, nn.functional.softmax


def addr_(input, vec1, vec2, beta=1, alpha=1):
    """`input` set to beta * input + alpha * (the outer product of vec1 and vec2), in place
    (MindSpore's inplace_addr)."""
    from cellgraph.compiler.effects import update_in_place

    return update_in_place(input, _ops.addr(input, vec1, vec2, beta=beta, alpha=alpha),
                           "InplaceAddr")


def squeeze_impl(input, axis):
    """`input` without the size-1 axes of `axis` (MindSpore's squeeze primitive as mint.squeeze
    calls it)."""
    return _F.squeeze(input, axis)


def _equal_ext_op():
    import inspect

    from cellgraph.ops.auto_generate import EqualExt

    instance = EqualExt()
    instance.__signature__ = inspect.Signature([inspect.Parameter(
        n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in ("input", "other")])
    return instance


equal_ext_op = _equal_ext_op()  # the primitive instance mint.equal calls

from ._tensor_ops import *  # the adapters whose arguments or results differ from ops'

# the primitives whose declaration spells them in mint (`spellings=("mint", "mint.arcsin(x)")`),
# where this module does not write the name itself
for _prim in _PRIMITIVES.values():
    if _prim.public:
        for _name, _spelled in _prim.spelled("mint").items():
            globals().setdefault(_name, _spelled)

__all__ = sorted(n for n in dir() if not n.startswith("_") and n != "annotations")  # noqa: PLE0605

# mint.special reads the functions above
from . import special  # noqa: F401
