"""`mindspore.mint.nn.functional`: PyTorch-style functional layers over cellgraph.ops."""
from __future__ import annotations

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
)

relu, sigmoid, tanh, silu, softplus = _ops.relu, _ops.sigmoid, _ops.tanh, _ops.silu, \
    _ops.softplus
pad, one_hot = _ops.pad, _ops.one_hot


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
