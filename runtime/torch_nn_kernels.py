"""PyTorch kernels for convolution, pooling, normalisation and the other nn primitives (NCHW).

Convolution runs on `torch.nn.functional.conv2d` and its gradients on `torch.nn.grad`, over an
explicitly padded input (the pad param is (top, bottom, left, right) and may be asymmetric,
which torch's `padding` is not), with cuDNN's TF32 mode off for the call: PyTorch allows TF32
(a 10-bit mantissa) in float32 convolutions by default, and float32 must mean float32 here.
Max-pooling gradients go through PyTorch's pooling indices, which point at each window's first
maximum, as the NumPy kernel's argmax does: ties send the gradient to the same element on every
backend.
"""
from __future__ import annotations

import contextlib
import math

import torch
import torch.nn.functional as F
from torch.nn import grad as conv_grad

from .torch_kernels import TABLE, TORCH_DTYPES, floating, kernel, promote_tensors, tensor


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
    return xp[:, :, pad[0]:pad[0] + hw[0], pad[2]:pad[2] + hw[1]]


def _padded_shape(x_shape, pad) -> tuple:
    return tuple(x_shape[:2]) + (x_shape[2] + pad[0] + pad[1], x_shape[3] + pad[2] + pad[3])


@contextlib.contextmanager
def _full_float32():
    """cuDNN without TF32 for the duration (the flag is global: restored afterwards)."""
    allowed = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    try:
        yield
    finally:
        torch.backends.cudnn.allow_tf32 = allowed


@kernel("conv2d")
def _conv2d(dev, x, w, stride, pad, dilation, group):
    x, w = promote_tensors(dev, x, w)
    with _full_float32():
        return F.conv2d(_pad_nchw(x, pad), w, stride=stride, dilation=dilation, groups=group)


@kernel("conv2d_backprop_input")
def _conv2d_backprop_input(dev, dout, w, x_shape, stride, pad, dilation, group):
    dout, w = promote_tensors(dev, dout, w)
    with _full_float32():
        dxp = conv_grad.conv2d_input(_padded_shape(x_shape, pad), w, dout, stride=stride,
                                     padding=0, dilation=dilation, groups=group)
    return _crop(dxp, pad, x_shape[2:])


@kernel("conv2d_backprop_filter")
def _conv2d_backprop_filter(dev, x, dout, w_shape, stride, pad, dilation, group):
    x, dout = promote_tensors(dev, x, dout)
    with _full_float32():
        return conv_grad.conv2d_weight(_pad_nchw(x, pad), tuple(w_shape), dout, stride=stride,
                                       padding=0, dilation=dilation, groups=group)


# ----- max pooling -----------------------------------------------------------------------------

def _argmax_positions(x: torch.Tensor, kernel_hw, stride, pad):
    """The -inf-padded input and, per window, the index into its (Hp * Wp) plane of the first
    maximum (PyTorch's own max pooling picks the first, as the NumPy kernel does)."""
    xp = _pad_nchw(x, pad, -math.inf)
    _, indices = F.max_pool2d(xp, kernel_hw, stride, return_indices=True)
    return xp, indices


@kernel("max_pool2d")
def _max_pool2d(dev, x, kernel, stride, pad):
    return F.max_pool2d(_pad_nchw(tensor(x, dev), pad, -math.inf), kernel, stride)


@kernel("max_pool2d_grad")
def _max_pool2d_grad(dev, x, g, kernel, stride, pad):
    """Each output gradient added at its window's argmax (summing where windows overlap), by
    PyTorch's pooling backward over the indices: no window copies, no argmax pass."""
    x = tensor(x, dev)
    xp, indices = _argmax_positions(x, kernel, stride, pad)
    dxp = torch.ops.aten.max_pool2d_with_indices_backward(
        tensor(g, dev).to(x.dtype), xp, list(kernel), list(stride), [0, 0], [1, 1], False,
        indices)
    return _crop(dxp, pad, x.shape[2:])


@kernel("max_pool2d_grad_grad")
def _max_pool2d_grad_grad(dev, x, g, kernel, stride, pad):
    """Gather an input-shaped tensor at each window's argmax: the transpose of the above."""
    x = tensor(x, dev)
    _, indices = _argmax_positions(x, kernel, stride, pad)
    n, c, ho, wo = indices.shape
    g = _pad_nchw(tensor(g, dev), pad).reshape(n, c, -1)
    return torch.gather(g, 2, indices.reshape(n, c, -1)).reshape(n, c, ho, wo)


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
    x = tensor(x, dev)
    ho, wo = _out_hw(x.shape[2:], kernel, stride, pad)
    sums = _windows(_pad_nchw(x, pad), kernel, stride, (ho, wo)).sum(dim=(-2, -1))
    counts = _window_counts(x.shape[2:], kernel, stride, pad, count_include_pad, x.dtype, dev)
    return (sums / counts).to(x.dtype)


@kernel("avg_pool2d_grad")
def _avg_pool2d_grad(dev, g, x_shape, kernel, stride, pad, count_include_pad):
    g = tensor(g, dev)
    share = g / _window_counts(x_shape[2:], kernel, stride, pad, count_include_pad, g.dtype, dev)
    cols = share[..., None, None].expand(tuple(share.shape) + tuple(kernel))
    return _crop(_col2im(cols, _padded_shape(x_shape, pad), kernel, stride), pad, x_shape[2:])


# ----- special functions -----------------------------------------------------------------------

TABLE["erf"] = lambda dev, x: torch.erf(floating(x, dev))
TABLE["log1p"] = lambda dev, x: torch.log1p(floating(x, dev))
TABLE["expm1"] = lambda dev, x: torch.expm1(floating(x, dev))


@kernel("gelu")
def _gelu(dev, x):
    x = floating(x, dev)
    return 0.5 * x * (1 + torch.erf(x * math.sqrt(0.5)))


@kernel("softplus")
def _softplus(dev, x):
    x = floating(x, dev)
    return torch.logaddexp(torch.zeros((), dtype=x.dtype, device=dev), x)


@kernel("clip_by_value")
def _clip_by_value(dev, x, lo, hi):
    return TABLE["minimum"](dev, TABLE["maximum"](dev, x, lo), hi)


@kernel("cumsum")
def _cumsum(dev, x, axis, exclusive, reverse):
    x = tensor(x, dev)
    if reverse:
        x = x.flip(axis)
    out = torch.cumsum(x, dim=axis, dtype=x.dtype)
    if exclusive:
        n = out.shape[axis]
        out = torch.cat([torch.zeros_like(out.narrow(axis, 0, 1)), out.narrow(axis, 0, n - 1)],
                        dim=axis)
    return out.flip(axis) if reverse else out


@kernel("dropout")
def _dropout(dev, x, mask, keep_prob):
    x = tensor(x, dev)
    return x * tensor(mask, dev).to(x.dtype) * (1 / keep_prob)


# ----- normalisation ---------------------------------------------------------------------------

def _normalise(x, mean, var, epsilon):
    return (x - mean) / torch.sqrt(var + epsilon)


@kernel("layer_norm")
def _layer_norm(dev, x, gamma, beta, begin_norm_axis, begin_params_axis, epsilon):
    x, gamma, beta = (tensor(a, dev) for a in (x, gamma, beta))
    axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
    mean = x.mean(dim=axes, keepdim=True)
    var = torch.square(x - mean).mean(dim=axes, keepdim=True)
    return _normalise(x, mean, var, epsilon) * gamma + beta, mean, var


@kernel("batch_norm")
def _batch_norm(dev, x, scale, bias, mean, variance, is_training, epsilon):
    x, scale, bias, mean, variance = (tensor(a, dev) for a in (x, scale, bias, mean, variance))
    axes = (0,) + tuple(range(2, x.ndim))
    per_channel = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    if is_training:
        mean = x.mean(dim=axes)
        variance = torch.square(x - mean.reshape(per_channel)).mean(dim=axes)
    y = _normalise(x, mean.reshape(per_channel), variance.reshape(per_channel), epsilon)
    return (y * scale.reshape(per_channel) + bias.reshape(per_channel), mean.clone(),
            variance.clone())


# ----- shape operations ------------------------------------------------------------------------

@kernel("bias_add")
def _bias_add(dev, x, b, axis=1):
    x = tensor(x, dev)
    return x + tensor(b, dev).to(x.dtype).reshape((-1,) + (1,) * (x.ndim - 1 - axis % x.ndim))


@kernel("one_hot")
def _one_hot(dev, indices, on_value, off_value, depth, axis=-1):
    indices = tensor(indices, dev)
    axis = axis % (indices.ndim + 1)
    hot = indices.unsqueeze(axis) == torch.arange(depth, device=dev).reshape(
        (-1,) + (1,) * (indices.ndim - axis))
    return TABLE["select"](dev, hot, on_value, off_value)


@kernel("argmax")
def _argmax(dev, x, axis, keep_dims=False, dtype=None):
    out = torch.argmax(tensor(x, dev), dim=axis, keepdim=keep_dims)
    return out.to(torch.int32 if dtype is None else TORCH_DTYPES[dtype.np])


TABLE["tile"] = lambda dev, x, multiples: torch.tile(tensor(x, dev), tuple(multiples))


@kernel("split")
def _split(dev, x, axis, sizes):
    return tuple(torch.split(tensor(x, dev), list(sizes), dim=axis))


@kernel("pad")
def _pad(dev, x, paddings, value=0):
    """Constant padding of every dim: the input copied into a `value`-filled tensor."""
    x = tensor(x, dev)
    shape = tuple(n + before + after for n, (before, after) in zip(x.shape, paddings))
    fill = torch.tensor(value).to(x.dtype).item()  # cast as NumPy casts constant_values
    out = torch.full(shape, fill, dtype=x.dtype, device=dev)
    out[tuple(slice(before, before + n) for n, (before, _) in zip(x.shape, paddings))] = x
    return out
