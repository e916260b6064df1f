"""PyTorch's override table: the kernels the shared array-API table (runtime/kernels.py) does
not serve well on torch, each `fn(dev, *operands, **params)` with `dev` bound by
`torch_backend.make_backend`.

* Convolution runs on `torch.nn.functional.conv2d`, its gradients on `torch.nn.grad` and the
  fused pair on `aten.convolution_backward`: a
  symmetric pad param (top, bottom, left, right) goes to torch's `padding`, an asymmetric one
  pads the input explicitly; cuDNN's TF32 mode is off for the call on CUDA: float32 must mean
  float32. Max-pooling gradients go through PyTorch's pooling indices (under differentiation
  the forward pass records them: `max_pool2d_argmax`), which point at each
  window's first maximum as the NumPy kernel's argmax does, so ties agree across backends.
* `getitem` and `getitem_grad`: torch has no negative-step slices; they become positive-step
  slices plus a flip. `gather_grad` is an `index_add_`.
* On CUDA, integer `matmul` runs on the host: CUDA has no integer matrix product.
* The softmax family and GeLU (both forms), forward and backward, run on ATen's own fused
  kernels (`_softmax_backward_data`, `gelu_backward`, ...).
"""
from __future__ import annotations

import contextlib
import functools
import math
import operator
from collections.abc import Callable

import numpy as np
import torch
import torch.nn.functional as F
from torch.nn import grad as conv_grad

from cellgraph.primitives.core import Slice, to_numpy_index

from .kernels import TABLE as SHARED_TABLE
from .kernels import namespace, registrar

TABLE: dict[str, Callable] = {}  # primitive name -> fn(dev, *operands, **params)

kernel = registrar(TABLE)

TORCH_DTYPES = {np.dtype(name): getattr(torch, name) for name in (
    "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool",
    "complex64", "complex128")}


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


TABLE["complex"] = lambda dev, re, im: torch.complex(re, im)
TABLE["conj"] = lambda dev, x: torch.conj_physical(x)  # torch.conj is a lazy view


@kernel("matmul")
def _matmul(dev, x, y, transpose_a=False, transpose_b=False):
    x, y = (x.mT if transpose_a else x), (y.mT if transpose_b else y)
    if not x.dtype.is_floating_point and dev.type == "cuda":
        # Host fallback: NumPy's integer product wraps on overflow as the CPU's does
        return from_host(np.matmul(to_host(x), to_host(y)), dev)
    return torch.matmul(x, y)


# ----- indexing --------------------------------------------------------------------------------

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
    idx, flips = torch_index(index, tuple(x.shape))
    out = x[idx]
    return out.flip(flips) if flips else out


@kernel("getitem_grad")
def _getitem_grad(dev, g, index, shape):
    out = torch.zeros(tuple(shape), dtype=g.dtype, device=dev)
    idx, flips = torch_index(index, tuple(shape))
    out[idx] = g.flip(flips) if flips else g
    return out


@kernel("gather_grad")
def _gather_grad(dev, g, indices, axis, shape):
    shape = tuple(shape)
    ind = indices.long().reshape(-1)
    ind = torch.where(ind < 0, ind + shape[axis], ind)
    rows = g.reshape(shape[:axis] + (ind.numel(),) + shape[axis + 1:])
    return torch.zeros(shape, dtype=g.dtype, device=dev).index_add_(axis, ind, rows)


# ----- softmax family and GeLU: ATen's fused kernels ----------------------------------------

TABLE["softmax"] = lambda dev, x, axis=-1: torch.softmax(x, axis)
TABLE["log_softmax"] = lambda dev, x, axis=-1: torch.log_softmax(x, axis)
TABLE["softmax_grad"] = lambda dev, y, dy, axis=-1: torch.ops.aten._softmax_backward_data(
    dy, y, axis % y.ndim, y.dtype)
TABLE["log_softmax_grad"] = lambda dev, y, dy, axis=-1: (
    torch.ops.aten._log_softmax_backward_data(dy, y, axis % y.ndim, y.dtype))
TABLE["gelu"] = lambda dev, x: F.gelu(x)
TABLE["gelu_tanh"] = lambda dev, x: F.gelu(x, approximate="tanh")
TABLE["normal_cdf"] = lambda dev, x: torch.special.ndtr(x)


def _gelu_backward(approximate: str, name: str):
    """aten.gelu_backward where x and dy have one shape; the shared kernel where they
    broadcast."""
    def grad(dev, x, dy):
        if x.shape != dy.shape:
            return SHARED_TABLE[name](array_namespace(dev), x, dy)
        return torch.ops.aten.gelu_backward(dy, x, approximate=approximate)
    return grad


TABLE["gelu_grad"] = _gelu_backward("none", "gelu_grad")
TABLE["gelu_tanh_grad"] = _gelu_backward("tanh", "gelu_tanh_grad")


# ----- convolution and pooling -----------------------------------------------------------------

def _pad_nchw(x: torch.Tensor, pad, value=0.0) -> torch.Tensor:
    top, bottom, left, right = pad
    if not any(pad):
        return x
    return F.pad(x, (left, right, top, bottom), value=value)


def _out_hw(hw, kernel_hw, stride, pad, dilation=(1, 1)) -> tuple[int, int]:
    return tuple((hw[i] + pad[2 * i] + pad[2 * i + 1] - dilation[i] * (kernel_hw[i] - 1) - 1)
                 // stride[i] + 1 for i in range(2))


def _windows(xp: torch.Tensor, kernel_hw, stride, out_hw) -> torch.Tensor:
    """A (N, C, Ho, Wo, kh, kw) view of the windows of padded `xp` (no copy)."""
    win = xp.unfold(2, kernel_hw[0], stride[0]).unfold(3, kernel_hw[1], stride[1])
    return win[:, :, :out_hw[0], :out_hw[1]]


def _crop(xp: torch.Tensor, pad, hw) -> torch.Tensor:
    if not any(pad):
        return xp
    return xp[:, :, pad[0]:pad[0] + hw[0], pad[2]:pad[2] + hw[1]]


def _padded_shape(x_shape, pad) -> tuple:
    return tuple(x_shape[:2]) + (x_shape[2] + pad[0] + pad[1], x_shape[3] + pad[2] + pad[3])


@contextlib.contextmanager
def _full_float32(dev: torch.device):
    """cuDNN without TF32 for the duration (the flag is global: restored afterwards); nothing
    to do on the CPU."""
    if dev.type != "cuda":
        yield
        return
    allowed = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    try:
        yield
    finally:
        torch.backends.cudnn.allow_tf32 = allowed


def _torch_padding(pad):
    """torch's own `padding` (rows, cols) when `pad` is symmetric, else None (pad explicitly):
    torch then pads inside the convolution, without a padded copy of the input."""
    top, bottom, left, right = pad
    return (top, left) if top == bottom and left == right else None


@kernel("conv2d")
def _conv2d(dev, x, w, stride, pad, dilation, group):
    padding = _torch_padding(pad)
    with _full_float32(dev):
        if padding is not None:
            return F.conv2d(x, w, stride=stride, padding=padding, dilation=dilation,
                            groups=group)
        return F.conv2d(_pad_nchw(x, pad), w, stride=stride, dilation=dilation, groups=group)


@kernel("conv2d_backprop_input")
def _conv2d_backprop_input(dev, dout, w, x_shape, stride, pad, dilation, group):
    padding = _torch_padding(pad)
    with _full_float32(dev):
        if padding is not None:
            return conv_grad.conv2d_input(tuple(x_shape), w, dout, stride=stride,
                                          padding=padding, dilation=dilation, groups=group)
        dxp = conv_grad.conv2d_input(_padded_shape(x_shape, pad), w, dout, stride=stride,
                                     padding=0, dilation=dilation, groups=group)
    return _crop(dxp, pad, x_shape[2:])


@kernel("conv2d_backprop_filter")
def _conv2d_backprop_filter(dev, x, dout, w_shape, stride, pad, dilation, group):
    padding = _torch_padding(pad)
    with _full_float32(dev):
        if padding is not None:
            return conv_grad.conv2d_weight(x, tuple(w_shape), dout, stride=stride,
                                           padding=padding, dilation=dilation, groups=group)
        return conv_grad.conv2d_weight(_pad_nchw(x, pad), tuple(w_shape), dout, stride=stride,
                                       padding=0, dilation=dilation, groups=group)


@kernel("conv2d_grad")
def _conv2d_grad(dev, x, w, dout, stride, pad, dilation, group):
    """Both backward passes from one `aten.convolution_backward` call (the one autograd
    makes), which shares its setup and layout conversions between them."""
    padding = _torch_padding(pad)
    padded = x if padding is not None else _pad_nchw(x, pad)
    with _full_float32(dev):
        dx, dw, _ = torch.ops.aten.convolution_backward(
            dout, padded, w, None, list(stride), list(padding or (0, 0)), list(dilation), False,
            [0, 0], group, [True, True, False])
    return (dx if padding is not None else _crop(dx, pad, x.shape[2:])), dw


@kernel("relu_grad")
def _relu_grad(dev, x, dy):
    """PyTorch's own ReLU backward: one pass, no mask tensor."""
    return torch.ops.aten.threshold_backward(dy, x, 0)


@kernel("layer_norm_grad")
def _layer_norm_grad(dev, x, dy, gamma, mean, var, begin_norm_axis, begin_params_axis,
                     epsilon):
    """PyTorch's own fused LayerNorm backward where gamma covers exactly the normalised axes;
    otherwise the shared kernel."""
    axis = begin_norm_axis % x.ndim
    if axis != begin_params_axis % x.ndim:
        return SHARED_TABLE["layer_norm_grad"](
            array_namespace(dev), x, dy, gamma, mean, var, begin_norm_axis=begin_norm_axis,
            begin_params_axis=begin_params_axis, epsilon=epsilon)
    return tuple(torch.ops.aten.native_layer_norm_backward(
        dy, x, list(x.shape[axis:]), mean, torch.rsqrt(var + epsilon), gamma, gamma,
        [True, True, True]))


@kernel("batch_norm")
def _batch_norm(dev, x, scale, bias, mean, variance, is_training, epsilon):
    """PyTorch's fused BatchNorm: in training, one call gives the output, the batch mean and
    1 / sqrt(var + epsilon), from which the (biased) batch variance follows."""
    if is_training:
        y, mean, rstd = torch.native_batch_norm(x, scale, bias, None, None, True, 0.0, epsilon)
        return y, mean, torch.reciprocal(rstd * rstd) - epsilon
    y = F.batch_norm(x, mean, variance, scale, bias, training=False, eps=epsilon)
    return y, mean.clone(), variance.clone()  # the statistics outputs are new tensors


@kernel("batch_norm_grad")
def _batch_norm_grad(dev, x, dy, scale, mean, variance, epsilon):
    """PyTorch's own fused BatchNorm backward (training mode, from the batch statistics)."""
    rstd = torch.rsqrt(variance + epsilon)
    return tuple(torch.ops.aten.native_batch_norm_backward(
        dy, x, scale, None, None, mean, rstd, True, epsilon, [True, True, True]))


# ----- max pooling -----------------------------------------------------------------------------

def _argmax_positions(x: torch.Tensor, kernel_hw, stride, pad):
    """The -inf-padded input and, per window, the index into its (Hp * Wp) plane of the first
    maximum (PyTorch's own max pooling picks the first, as the NumPy kernel does)."""
    xp = _pad_nchw(x, pad, -math.inf)
    _, indices = F.max_pool2d(xp, kernel_hw, stride, return_indices=True)
    return xp, indices


@kernel("max_pool2d")
def _max_pool2d(dev, x, kernel, stride, pad):
    return F.max_pool2d(_pad_nchw(x, pad, -math.inf), kernel, stride)


@kernel("max_pool2d_grad")
def _max_pool2d_grad(dev, x, g, kernel, stride, pad):
    """Each output gradient added at its window's argmax (summing where windows overlap), by
    PyTorch's pooling backward over the indices: no window copies, no argmax pass."""
    xp, indices = _argmax_positions(x, kernel, stride, pad)
    dxp = torch.ops.aten.max_pool2d_with_indices_backward(
        g, xp, list(kernel), list(stride), [0, 0], [1, 1], False, indices)
    return _crop(dxp, pad, x.shape[2:])


@kernel("max_pool2d_grad_grad")
def _max_pool2d_grad_grad(dev, x, g, kernel, stride, pad):
    """Gather an input-shaped tensor at each window's argmax: the transpose of the above."""
    _, indices = _argmax_positions(x, kernel, stride, pad)
    n, c, ho, wo = indices.shape
    g = _pad_nchw(g, pad).reshape(n, c, -1)
    return torch.gather(g, 2, indices.reshape(n, c, -1)).reshape(n, c, ho, wo)


@kernel("max_pool2d_argmax")
def _max_pool2d_argmax(dev, x, kernel, stride, pad):
    """PyTorch's pooling with its indices, which are the padded plane's: the argmax that the
    backward pass reuses instead of pooling again."""
    y, indices = F.max_pool2d(_pad_nchw(x, pad, -math.inf), kernel, stride, return_indices=True)
    return y, indices.to(torch.int32)


@kernel("max_pool2d_scatter")
def _max_pool2d_scatter(dev, argmax, g, x_shape, kernel, stride, pad):
    """PyTorch's pooling backward over recorded indices (it reads the input only for its
    shape, so an uninitialised one of the padded shape stands in)."""
    padded = g.new_empty(_padded_shape(x_shape, pad))
    dxp = torch.ops.aten.max_pool2d_with_indices_backward(
        g, padded, list(kernel), list(stride), [0, 0], [1, 1], False, argmax.long())
    return _crop(dxp, pad, x_shape[2:])


@kernel("max_pool2d_gather")
def _max_pool2d_gather(dev, argmax, h, kernel, stride, pad):
    n, c, ho, wo = argmax.shape
    planes = _pad_nchw(h, pad).reshape(n, c, -1)
    return torch.gather(planes, 2, argmax.long().reshape(n, c, -1)).reshape(n, c, ho, wo)


# ----- average pooling -------------------------------------------------------------------------

def _window_counts(hw, kernel_hw, stride, pad, count_include_pad, dtype, dev) -> torch.Tensor:
    """How many elements each window divides by: (Ho, Wo)."""
    ho, wo = _out_hw(hw, kernel_hw, stride, pad)
    if count_include_pad:
        return torch.full((ho, wo), kernel_hw[0] * kernel_hw[1], dtype=dtype, device=dev)
    ones = _pad_nchw(torch.ones((1, 1) + tuple(hw), dtype=dtype, device=dev), pad)
    return _windows(ones, kernel_hw, stride, (ho, wo)).sum(dim=(-2, -1))[0, 0]


def _col2im(cols: torch.Tensor, padded_shape, kernel_hw, stride) -> torch.Tensor:
    """Sum (N, C, Ho, Wo, kh, kw) window values back into a zero (N, C, Hp, Wp) tensor."""
    out = torch.zeros(padded_shape, dtype=cols.dtype, device=cols.device)
    ho, wo = cols.shape[2:4]
    for i in range(kernel_hw[0]):
        rows = slice(i, i + stride[0] * (ho - 1) + 1, stride[0])
        for j in range(kernel_hw[1]):
            out[:, :, rows, j:j + stride[1] * (wo - 1) + 1:stride[1]] += cols[..., i, j]
    return out


@kernel("avg_pool2d")
def _avg_pool2d(dev, x, kernel, stride, pad, count_include_pad):
    ho, wo = _out_hw(x.shape[2:], kernel, stride, pad)
    sums = _windows(_pad_nchw(x, pad), kernel, stride, (ho, wo)).sum(dim=(-2, -1))
    counts = _window_counts(x.shape[2:], kernel, stride, pad, count_include_pad, x.dtype, dev)
    return (sums / counts).to(x.dtype)


@kernel("avg_pool2d_grad")
def _avg_pool2d_grad(dev, g, x_shape, kernel, stride, pad, count_include_pad):
    share = g / _window_counts(x_shape[2:], kernel, stride, pad, count_include_pad, g.dtype, dev)
    cols = share[..., None, None].expand(tuple(share.shape) + tuple(kernel))
    return _crop(_col2im(cols, _padded_shape(x_shape, pad), kernel, stride), pad, x_shape[2:])


# ----- scatters ---------------------------------------------------------------------------------

def _coordinates(indices: torch.Tensor) -> tuple:
    coords = indices.long()
    return tuple(coords[..., k] for k in range(coords.shape[-1]))


@kernel("tensor_scatter_update")
def _tensor_scatter_update(dev, x, indices, updates):
    return x.clone().index_put_(_coordinates(indices), updates)


@kernel("tensor_scatter_add")
def _tensor_scatter_add(dev, x, indices, updates):
    return x.clone().index_put_(_coordinates(indices), updates, accumulate=True)


@kernel("tensor_scatter_sub")
def _tensor_scatter_sub(dev, x, indices, updates):
    return x.clone().index_put_(_coordinates(indices), -updates, accumulate=True)


def _scatter_reduce(x, indices, updates, reduce: str):
    """Combine each addressed slice of `x` with its updates by `reduce` ("amax", "prod", ...):
    the slices are numbered in row-major order and `scatter_reduce_` runs over that axis."""
    depth = indices.shape[-1]
    lead, rest = tuple(x.shape[:depth]), tuple(x.shape[depth:])
    strides = [math.prod(lead[k + 1:]) for k in range(depth)]
    numbers = (indices.long() * torch.tensor(strides, device=x.device)).sum(-1).reshape(-1)
    flat = x.reshape((-1,) + rest).clone()
    rows = updates.reshape((-1,) + rest)
    index = numbers.reshape((-1,) + (1,) * len(rest)).expand_as(rows)
    return flat.scatter_reduce_(0, index, rows, reduce=reduce).reshape(x.shape)


TABLE["tensor_scatter_max"] = lambda dev, x, i, u: _scatter_reduce(x, i, u, "amax")
TABLE["tensor_scatter_min"] = lambda dev, x, i, u: _scatter_reduce(x, i, u, "amin")
TABLE["tensor_scatter_mul"] = lambda dev, x, i, u: _scatter_reduce(x, i, u, "prod")
TABLE["tensor_scatter_div"] = lambda dev, x, i, u: torch.div(
    x, _scatter_reduce(torch.ones_like(x), i, u, "prod"),
    rounding_mode=None if x.is_floating_point() or x.is_complex() else "trunc")


@kernel("tensor_scatter_elements")
def _tensor_scatter_elements(dev, x, indices, updates, axis=0, reduction="none"):
    axis %= x.ndim
    if reduction == "add":
        return x.clone().scatter_add_(axis, indices.long(), updates)
    return x.clone().scatter_(axis, indices.long(), updates)


def array_namespace(dev: torch.device):
    """array_api_compat's torch namespace, creating arrays on `dev`, with `erf`."""
    import array_api_compat.torch as xp

    on_dev = {name: functools.partial(getattr(xp, name), device=dev)
              for name in ("arange", "full", "zeros", "ones", "asarray")}
    return namespace(xp, erf=torch.erf, **on_dev, **NATIVE_ARITHMETIC)


# Tensor operators for the arithmetic primitives instead of array_api_compat's wrappers, which
# re-derive the result dtype whenever an operand is 0-d (a learning rate, a constant): the
# graph has already cast both operands to the result dtype, so torch's own rule agrees, and a
# training step makes dozens of these calls.
NATIVE_ARITHMETIC = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
                     "divide": operator.truediv}
