"""PyTorch kernels for the core primitives, with the NumPy table's semantics (not torch's).

Every kernel is `fn(dev, *operands, **params)`; `torch_backend.make_backend` binds `dev` (a
`torch.device`) once with `functools.partial`, so generated code calls it like a NumPy kernel.
Where PyTorch's defaults differ from the reference, the kernels follow the reference:

* dtypes: operands of elementwise ops are promoted with NumPy's rules (torch keeps float32 for
  float32 + 0-d float64 and gives float32 for int32 + float32; NumPy gives float64); Python
  scalars are weak, and a Python float with an integer or bool tensor gives float32 (MindSpore);
  integer division gives float32; sums and products keep the input dtype (torch widens int32 to
  int64); comparisons of integers with a Python float compare in float64, as NumPy does.
* `axis=()` reduces over every axis; negative-step slices, which torch lacks, become
  positive-step slices plus a flip.
* operands that are not yet torch tensors (a NumPy array of a Tensor made under another backend,
  a NumPy scalar constant) are moved to `dev`; Python scalars stay scalars where torch takes
  them, so that a constant like `x * 2.0` costs no transfer to the GPU.
"""
from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import torch

from cellgraph.ops.array_ops import Slice, to_numpy_index
from cellgraph.ops.check_ops import range_message

from . import promotion
from .promotion import F32, F64

TABLE: dict[str, Callable] = {}  # primitive name -> fn(dev, *operands, **params)

TORCH_DTYPES = {np.dtype(name): getattr(torch, name) for name in (
    "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool")}
NUMPY_DTYPES = {t: n for n, t in TORCH_DTYPES.items()}


def kernel(*names: str):
    """Register `fn(dev, *operands, **params)` as the torch kernel of each primitive named."""
    def deco(fn):
        for name in names:
            TABLE[name] = fn
        return fn
    return deco


# ----- operands --------------------------------------------------------------------------------

def from_host(array, dev) -> torch.Tensor:
    """A NumPy array (or scalar) as a torch tensor on `dev`."""
    array = np.asarray(array)
    if not (array.flags.c_contiguous and array.flags.writeable):
        array = np.array(array, order="C")  # torch.from_numpy needs writeable, positive strides
    return torch.from_numpy(array).to(dev)


def to_host(value) -> np.ndarray:
    """A torch tensor (or anything NumPy takes) as a NumPy array."""
    if isinstance(value, torch.Tensor):
        return value.detach().cpu().numpy()
    return np.asarray(value)


def tensor(x, dev) -> torch.Tensor:
    """An operand as a tensor on `dev`; a Python float becomes float32, as the type rules say."""
    if type(x) is torch.Tensor:
        return x
    if isinstance(x, torch.Tensor):
        return x.to(dev)
    if type(x) is float:
        return torch.tensor(x, dtype=torch.float32, device=dev)
    return from_host(x, dev)


def floating(x, dev) -> torch.Tensor:
    """A tensor operand of a float function: integers and bools compute in float32."""
    x = tensor(x, dev)
    return x if x.is_floating_point() else x.to(torch.float32)


def _dtype_of(a) -> np.dtype:
    return NUMPY_DTYPES[a.dtype] if isinstance(a, torch.Tensor) else np.asarray(a).dtype


def result_dtype(args, float_with_int=F32) -> np.dtype:
    """The NumPy dtype an elementwise op gives (see runtime.promotion)."""
    return promotion.result_dtype(args, _dtype_of, float_with_int)


def promote(dev, *args, float_with_int=F32) -> list:
    """Operands of an elementwise op: tensors on `dev` cast to the result dtype; Python scalars
    stay (torch keeps a tensor's dtype for a scalar of its kind); with no tensor among them,
    the first becomes one."""
    tdt = TORCH_DTYPES[result_dtype(args, float_with_int)]
    out = [a if type(a) in (bool, int, float) else _cast(tensor(a, dev), tdt) for a in args]
    if not any(isinstance(a, torch.Tensor) for a in out):
        out[0] = torch.tensor(out[0], dtype=tdt, device=dev)
    return out


def _cast(x: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    return x if x.dtype is dtype else x.to(dtype)  # `is` first: `to` costs a microsecond


def promote_tensors(dev, *args) -> list[torch.Tensor]:
    """All operands as tensors of the result dtype (for ops that take no Python scalars)."""
    dtype = TORCH_DTYPES[result_dtype(args)]
    return [torch.tensor(a, dtype=dtype, device=dev) if type(a) in (bool, int, float) else
            _cast(tensor(a, dev), dtype) for a in args]


# ----- elementwise -----------------------------------------------------------------------------

def _elementwise(fn, float_with_int=F32):
    def run(dev, x, y):
        if type(x) is torch.Tensor and type(y) is torch.Tensor and x.dtype is y.dtype:
            return fn(x, y)
        return fn(*promote(dev, x, y, float_with_int=float_with_int))
    return run


for _name, _fn in {"add": lambda x, y: x + y, "sub": lambda x, y: x - y,
                   "mul": lambda x, y: x * y, "pow": lambda x, y: x ** y}.items():
    TABLE[_name] = _elementwise(_fn)
for _name, _fn in {"equal": lambda x, y: x == y, "not_equal": lambda x, y: x != y,
                   "less": lambda x, y: x < y, "less_equal": lambda x, y: x <= y,
                   "greater": lambda x, y: x > y,
                   "greater_equal": lambda x, y: x >= y}.items():
    TABLE[_name] = _elementwise(_fn, float_with_int=F64)  # as NumPy compares ints with floats


def _extremum(tensors_fn, scalar_fn):
    """maximum/minimum: torch.maximum takes tensors only; a Python scalar bound is a clamp."""
    def run(dev, x, y):
        x, y = promote(dev, x, y)
        if not isinstance(y, torch.Tensor):
            return scalar_fn(x, y)
        if not isinstance(x, torch.Tensor):
            return scalar_fn(y, x)
        return tensors_fn(x, y)
    return run


TABLE["maximum"] = _extremum(torch.maximum, torch.clamp_min)
TABLE["minimum"] = _extremum(torch.minimum, torch.clamp_max)


@kernel("div")
def _div(dev, x, y):
    x, y = promote(dev, x, y)
    dtype = (x if isinstance(x, torch.Tensor) else y).dtype
    if dtype.is_floating_point:
        return x / y
    # integer division computes in float64 and gives float32, as the NumPy kernel does
    x, y = (a.double() if isinstance(a, torch.Tensor) else a for a in (x, y))
    return (x / y).to(torch.float32)


@kernel("select")
def _select(dev, cond, x, y):
    x, y = promote(dev, x, y)
    return torch.where(tensor(cond, dev), x, y)


@kernel("logical_and")
def _logical_and(dev, x, y):
    return torch.logical_and(tensor(x, dev), tensor(y, dev))


@kernel("logical_or")
def _logical_or(dev, x, y):
    return torch.logical_or(tensor(x, dev), tensor(y, dev))


@kernel("check_range")
def _check_range(dev, x, low, high, what, op=None):
    x = tensor(x, dev)
    if bool(((x < low) | (x >= high)).any()):
        raise IndexError(range_message(to_host(x), low, high, what))
    return x


@kernel("logical_not")
def _logical_not(dev, x):
    return torch.logical_not(tensor(x, dev))


for _name, _fn in {"neg": torch.neg, "abs": torch.abs, "sign": torch.sign,
                   "square": lambda x: x * x, "relu": torch.relu,
                   "zeros_like": torch.zeros_like, "ones_like": torch.ones_like,
                   "stop_gradient": lambda x: x}.items():
    TABLE[_name] = lambda dev, x, _fn=_fn: _fn(tensor(x, dev))

for _name, _fn in {"sqrt": torch.sqrt, "exp": torch.exp, "log": torch.log, "sin": torch.sin,
                   "cos": torch.cos, "tan": torch.tan, "sinh": torch.sinh, "cosh": torch.cosh,
                   "tanh": torch.tanh, "asin": torch.asin, "acos": torch.acos,
                   "atan": torch.atan, "asinh": torch.asinh, "acosh": torch.acosh,
                   "atanh": torch.atanh, "rsqrt": torch.rsqrt, "reciprocal": torch.reciprocal,
                   "sigmoid": torch.sigmoid}.items():
    TABLE[_name] = lambda dev, x, _fn=_fn: _fn(floating(x, dev))


@kernel("matmul")
def _matmul(dev, x, y, transpose_a=False, transpose_b=False):
    if not (type(x) is torch.Tensor and type(y) is torch.Tensor and x.dtype is y.dtype):
        x, y = promote_tensors(dev, x, y)
    if transpose_a:
        x = x.transpose(-1, -2)
    if transpose_b:
        y = y.transpose(-1, -2)
    if not x.dtype.is_floating_point and dev.type == "cuda":
        # Host fallback: CUDA has no integer matmul; NumPy's wraps on overflow as the CPU's does
        return from_host(np.matmul(to_host(x), to_host(y)), dev)
    return torch.matmul(x, y)


# ----- reductions ------------------------------------------------------------------------------

def _dims(x: torch.Tensor, axis) -> tuple:
    """The reduced dims: `axis=()` means all of them."""
    return tuple(range(x.ndim)) if axis == () else tuple(axis)


@kernel("reduce_sum")
def _reduce_sum(dev, x, axis=(), keep_dims=False):
    x = tensor(x, dev)
    dims = _dims(x, axis)
    if not dims:
        return x.clone()
    if x.dtype == torch.bool:  # NumPy's bool sum in dtype bool: any
        return torch.any(x, dim=dims, keepdim=keep_dims)
    return torch.sum(x, dim=dims, keepdim=keep_dims, dtype=x.dtype)


@kernel("reduce_mean")
def _reduce_mean(dev, x, axis=(), keep_dims=False):
    x = floating(x, dev)
    dims = _dims(x, axis)
    return torch.mean(x, dim=dims, keepdim=keep_dims) if dims else x.clone()


@kernel("reduce_max")
def _reduce_max(dev, x, axis=(), keep_dims=False):
    x = tensor(x, dev)
    dims = _dims(x, axis)
    return torch.amax(x, dim=dims, keepdim=keep_dims) if dims else x.clone()


@kernel("reduce_min")
def _reduce_min(dev, x, axis=(), keep_dims=False):
    x = tensor(x, dev)
    dims = _dims(x, axis)
    return torch.amin(x, dim=dims, keepdim=keep_dims) if dims else x.clone()


@kernel("reduce_prod")
def _reduce_prod(dev, x, axis=(), keep_dims=False):
    x = tensor(x, dev)
    out = x
    for d in sorted((d % max(x.ndim, 1) for d in _dims(x, axis)), reverse=True):
        out = torch.prod(out, dim=d, keepdim=keep_dims, dtype=x.dtype)  # one dim at a time
    return out.clone() if out is x else out


# ----- shapes and indexing ---------------------------------------------------------------------

TABLE["reshape"] = lambda dev, x, shape: tensor(x, dev).reshape(shape)
TABLE["transpose"] = lambda dev, x, perm: tensor(x, dev).permute(perm)
TABLE["broadcast_to"] = lambda dev, x, shape: torch.broadcast_to(tensor(x, dev), shape)
TABLE["expand_dims"] = lambda dev, x, axis: torch.unsqueeze(tensor(x, dev), axis)
TABLE["cast"] = lambda dev, x, dtype: tensor(x, dev).to(TORCH_DTYPES[dtype.np])


@kernel("squeeze")
def _squeeze(dev, x, axis=()):
    x = tensor(x, dev)
    return torch.squeeze(x) if axis == () else torch.squeeze(x, dim=tuple(axis))


@kernel("fill")
def _fill(dev, dtype, shape, value):
    return torch.full(tuple(shape), value, dtype=TORCH_DTYPES[dtype.np], device=dev)


@kernel("concat")
def _concat(dev, *xs, axis=0):
    return torch.cat(promote_tensors(dev, *xs), dim=axis)


@kernel("stack")
def _stack(dev, *xs, axis=0):
    return torch.stack(promote_tensors(dev, *xs), dim=axis)


@functools.lru_cache(maxsize=4096)
def torch_index(index: tuple, shape: tuple) -> tuple[tuple, tuple]:
    """A static index for torch: (the index with each negative-step slice replaced by the
    positive-step slice over the same elements, the result dims to flip back)."""
    if not any(isinstance(i, Slice) and i.step is not None and i.step < 0 for i in index):
        return to_numpy_index(index), ()
    consumed = sum(1 for i in index if i is not None and i is not Ellipsis)
    out, flips, in_dim, out_dim = [], [], 0, 0
    for item in index:
        if item is Ellipsis:
            rest = len(shape) - consumed
            in_dim, out_dim = in_dim + rest, out_dim + rest
        elif item is None:
            out_dim += 1
        elif isinstance(item, Slice):
            item = item.to_slice()
            if item.step is not None and item.step < 0:
                picked = range(*item.indices(shape[in_dim]))
                item = slice(picked[-1], picked[0] + 1, -item.step) if picked else slice(0, 0)
                flips.append(out_dim)
            in_dim, out_dim = in_dim + 1, out_dim + 1
        else:
            in_dim += 1
        out.append(item)
    return tuple(out), tuple(flips)


@kernel("getitem")
def _getitem(dev, x, index):
    x = tensor(x, dev)
    idx, flips = torch_index(index, tuple(x.shape))
    out = x[idx]
    return out.flip(flips) if flips else out


@kernel("getitem_grad")
def _getitem_grad(dev, g, index, shape):
    g = tensor(g, dev)
    out = torch.zeros(tuple(shape), dtype=g.dtype, device=dev)
    idx, flips = torch_index(index, tuple(shape))
    out[idx] = g.flip(flips) if flips else g
    return out


def _indices(indices, size: int, dev) -> torch.Tensor:
    """Integer indices as int64, negative ones counted from the end (as np.take does)."""
    ind = tensor(indices, dev).long()
    return torch.where(ind < 0, ind + size, ind)


@kernel("gather")
def _gather(dev, x, indices, axis=0):
    x = tensor(x, dev)
    axis %= x.ndim
    ind = _indices(indices, x.shape[axis], dev)
    out = torch.index_select(x, axis, ind.reshape(-1))
    return out.reshape(x.shape[:axis] + ind.shape + x.shape[axis + 1:])


@kernel("gather_grad")
def _gather_grad(dev, g, indices, axis, shape):
    g = tensor(g, dev)
    shape = tuple(shape)
    ind = _indices(indices, shape[axis], dev).reshape(-1)
    rows = g.reshape(shape[:axis] + (ind.numel(),) + shape[axis + 1:])
    return torch.zeros(shape, dtype=g.dtype, device=dev).index_add_(axis, ind, rows)


# ----- softmax ---------------------------------------------------------------------------------

TABLE["softmax"] = lambda dev, x, axis=-1: torch.softmax(tensor(x, dev), dim=axis)
TABLE["log_softmax"] = lambda dev, x, axis=-1: torch.log_softmax(tensor(x, dev), dim=axis)
