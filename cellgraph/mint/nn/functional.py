"""`mindspore.mint.nn.functional`: PyTorch-style functional layers over cellgraph.ops."""
from __future__ import annotations

import numpy as _np

import cellgraph.ops as _ops
from cellgraph.loss_functions import (  # noqa: F401
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    kl_div,
    l1_loss,
    mse_loss,
    nll_loss,
    smooth_l1_loss,
    triplet_margin_loss,
)
from cellgraph.ops.errors import ArgumentValueError
from cellgraph.runtime.tensor import Tensor

relu, sigmoid, tanh, silu, softplus = _ops.relu, _ops.sigmoid, _ops.tanh, _ops.silu, \
    _ops.softplus
pad, one_hot = _ops.pad, _ops.one_hot
glu, logsigmoid, mish, relu6, selu, hardsigmoid, hardswish, hardtanh = (
    _ops.glu, _ops.logsigmoid, _ops.mish, _ops.relu6, _ops.selu, _ops.hardsigmoid,
    _ops.hardswish, _ops.hardtanh)
softshrink, pixel_shuffle, cosine_similarity, pairwise_distance = (
    _ops.softshrink, _ops.pixel_shuffle, _ops.cosine_similarity, _ops.pairwise_distance)
adaptive_avg_pool1d, adaptive_avg_pool2d, interpolate, layer_norm, batch_norm = (
    _ops.adaptive_avg_pool1d, _ops.adaptive_avg_pool2d, _ops.interpolate, _ops.layer_norm,
    _ops.batch_norm)
avg_pool2d, max_pool2d = _ops.avg_pool2d, _ops.max_pool2d


def elu(input, alpha=1.0, inplace=False):
    return _ops.elu(input, alpha)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """PyTorch's padding: an int, a pair (top/bottom, left/right), "same" or "valid"."""
    if isinstance(padding, str):
        pad_mode, padding = padding, 0
    else:
        pad_mode = "pad"
        if not isinstance(padding, int):
            padding = (padding[0], padding[0], padding[1], padding[1])
    return _ops.conv2d(input, weight, bias, stride, pad_mode, padding, dilation, groups)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
              scale_grad_by_freq=False):
    """Rows of `weight` picked by the integer ids in `input`; the row at `padding_idx` gets no
    gradient."""
    if max_norm is not None or scale_grad_by_freq:
        raise ArgumentValueError("mint.nn.functional.embedding: max_norm and scale_grad_by_freq "
                                 "are not supported")
    if padding_idx is not None:
        rows = weight.shape[0]
        keep = _np.ones((rows, 1), _np.float32)
        keep[padding_idx] = 0.0
        keep = _ops.cast(Tensor(keep), weight.dtype)
        weight = weight * keep + _ops.stop_gradient(weight * (1 - keep))
    return _ops.gather(weight, input, 0)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """Normalise (N, C, ...) over each group of C / num_groups channels and the other axes."""
    n, c = input.shape[0], input.shape[1]
    if c % num_groups:
        raise ArgumentValueError(f"group_norm: {c} channels cannot be split into {num_groups} "
                                 f"groups")
    grouped = _ops.reshape(input, (n, num_groups, -1))
    mean = grouped.mean(axis=2, keep_dims=True)
    centred = grouped - mean
    var = (centred * centred).mean(axis=2, keep_dims=True)
    out = _ops.reshape(centred / _ops.sqrt(var + eps), input.shape)
    shape = (1, c) + (1,) * (len(input.shape) - 2)
    if weight is not None:
        out = out * _ops.reshape(weight, shape)
    if bias is not None:
        out = out + _ops.reshape(bias, shape)
    return out


def gelu(input, approximate="none"):
    return _ops.gelu(input, approximate)


def softmax(input, dim=None, dtype=None):
    x = input if dtype is None else _ops.cast(input, dtype)
    return _ops.softmax(x, -1 if dim is None else dim)


def log_softmax(input, dim=None, dtype=None):
    x = input if dtype is None else _ops.cast(input, dtype)
    return _ops.log_softmax(x, -1 if dim is None else dim)


def linear(input, weight, bias=None):
    """input @ weight^T + bias."""
    out = _ops.matmul(input, _ops.swapaxes(weight, 0, 1))
    return out if bias is None else out + bias


def dropout(input, p=0.5, training=True, inplace=False):
    return _ops.dropout(input, p, training)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return _ops.select(input >= 0, input, input * negative_slope)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """input / max(||input||_p along dim, eps)."""
    return input / _ops.maximum(_ops.vector_norm(input, p, dim, True), eps)


__all__ = sorted(n for n in dir() if not n.startswith("_") and n != "annotations")  # noqa: PLE0605
