"""`mindspore.mint.nn`: layers with PyTorch's constructor arguments, built on cellgraph.nn
(parameter names follow mint's: `weight`, `bias`)."""
from __future__ import annotations

import cellgraph.ops as _ops
from cellgraph import nn as _nn
from cellgraph.ops.errors import ArgumentValueError

from . import functional

ReLU, GELU, SiLU, Sigmoid, Tanh, Identity = (_nn.ReLU, _nn.GELU, _nn.SiLU, _nn.Sigmoid,
                                             _nn.Tanh, _nn.Identity)
MSELoss, L1Loss, CrossEntropyLoss, NLLLoss, BCEWithLogitsLoss = (
    _nn.MSELoss, _nn.L1Loss, _nn.CrossEntropyLoss, _nn.NLLLoss, _nn.BCEWithLogitsLoss)
GroupNorm, Mish, ELU, Hardtanh = _nn.GroupNorm, _nn.Mish, _nn.ELU, _nn.Hardtanh
BCELoss, Hardswish, AdaptiveAvgPool1d, AdaptiveAvgPool2d, Upsample, PixelShuffle = (
    _nn.BCELoss, _nn.HSwish, _nn.AdaptiveAvgPool1d, _nn.AdaptiveAvgPool2d, _nn.Upsample,
    _nn.PixelShuffle)
ZeroPad2d, ConstantPad2d, ReflectionPad2d = _nn.ZeroPad2d, _nn.ConstantPad2d, _nn.ReflectionPad2d


Linear = _nn.Linear


def _conv_padding(padding):
    """PyTorch's `padding` (int, pair, "same", "valid") -> (pad_mode, padding)."""
    if isinstance(padding, str):
        return padding, 0
    if isinstance(padding, int):
        return ("pad", padding) if padding else ("valid", 0)
    top, left = padding
    return "pad", (top, top, left, left)


def _zeros_padding(layer: str, padding_mode: str) -> None:
    if padding_mode != "zeros":
        raise ArgumentValueError(f"mint.nn.{layer}: only padding_mode='zeros' is supported, got "
                                 f"{padding_mode!r}")


class _TorchConv:
    """PyTorch's convolution arguments (padding an int, a pair, "same" or "valid") in front of
    the nn convolution that follows this class in the MRO."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", dtype=None):
        _zeros_padding(type(self).__name__, padding_mode)
        pad_mode, pads = _conv_padding(padding)
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, pads,
                         dilation, groups, has_bias=bias)


class Conv1d(_TorchConv, _nn.Conv1d):
    """1-D convolution with PyTorch's arguments."""


class ConvTranspose2d(_nn.Conv2dTranspose):
    """2-D transposed convolution with PyTorch's arguments (padding an int or a pair)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 dtype=None):
        _zeros_padding("ConvTranspose2d", padding_mode)
        pad_mode, pads = _conv_padding(padding)
        super().__init__(in_channels, out_channels, kernel_size, stride,
                         "pad" if pad_mode == "valid" else pad_mode, pads, output_padding,
                         dilation, groups, has_bias=bias)


class BatchNorm1d(_nn.BatchNorm1d):
    """PyTorch's momentum m weights the new batch: MindSpore's momentum is 1 - m."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, dtype=None):
        super().__init__(num_features, eps, 1.0 - momentum, affine,
                         use_batch_statistics=None if track_running_stats else True)


class LeakyReLU(_nn.LeakyReLU):
    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__(negative_slope)


class Softplus(_nn.Cell):
    """log(1 + exp(beta x)) / beta, x itself where beta x > threshold."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def construct(self, input):
        scaled = input * self.beta
        soft = _ops.softplus(scaled) / self.beta
        return _ops.select(scaled > self.threshold, input, soft)


class SmoothL1Loss(_nn.SmoothL1Loss):
    def __init__(self, reduction="mean", beta=1.0):
        super().__init__(beta, reduction)


class KLDivLoss(_nn.Cell):
    """target * (log target - input), reduced; `log_target`: the target is given as its log."""

    def __init__(self, reduction="mean", log_target=False):
        super().__init__()
        self.reduction, self.log_target = reduction, log_target

    def construct(self, input, target):
        return functional.kl_div(input, target, self.reduction, self.log_target)


class ReplicationPad2d(_nn.Cell):
    """Pad the last two axes by repeating their edge values: padding an int or (left, right,
    top, bottom)."""

    def __init__(self, padding):
        super().__init__()
        self.padding = (padding,) * 4 if isinstance(padding, int) else tuple(padding)

    def construct(self, input):
        return _ops.pad(input, self.padding, mode="replicate")


class Conv2d(_TorchConv, _nn.Conv2d):
    """2-D convolution with PyTorch's arguments."""


class Softmax(_nn.Softmax):
    def __init__(self, dim=None):
        super().__init__(-1 if dim is None else dim)


class LogSoftmax(_nn.LogSoftmax):
    def __init__(self, dim=None):
        super().__init__(-1 if dim is None else dim)


class Dropout(_nn.Dropout):
    def __init__(self, p=0.5, inplace=False):
        super().__init__(p=p)


class Flatten(_nn.Flatten):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__(start_dim=start_dim, end_dim=end_dim)


class Embedding(_nn.Embedding):
    """Rows of `weight` (num_embeddings, embedding_dim) picked by integer ids."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, dtype=None):
        if max_norm is not None or scale_grad_by_freq or sparse:
            raise ArgumentValueError("mint.nn.Embedding: max_norm, scale_grad_by_freq and sparse are "
                             "not supported")
        super().__init__(num_embeddings, embedding_dim, padding_idx=padding_idx,
                         embedding_table="normal" if _weight is None else _weight)


class LayerNorm(_nn.LayerNorm):
    """Normalise over the trailing `normalized_shape` axes."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 dtype=None):
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(
            normalized_shape)
        super().__init__(shape, -len(shape), -len(shape), epsilon=eps)
        self.gamma.requires_grad = bool(elementwise_affine)
        self.beta.requires_grad = bool(elementwise_affine and bias)


class BatchNorm2d(_nn.BatchNorm2d):
    """PyTorch's momentum m weights the new batch: MindSpore's momentum is 1 - m."""

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, dtype=None):
        super().__init__(num_features, eps, 1.0 - momentum, affine,
                         use_batch_statistics=None if track_running_stats else True)


class MaxPool2d(_nn.MaxPool2d):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        if dilation != 1 or return_indices or ceil_mode:
            raise ArgumentValueError("mint.nn.MaxPool2d: dilation, return_indices and ceil_mode are "
                             "not supported")
        super().__init__(kernel_size, stride or kernel_size, "pad" if padding else "valid",
                         padding)


class AvgPool2d(_nn.AvgPool2d):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__(kernel_size, stride or kernel_size, "pad" if padding else "valid",
                         padding, ceil_mode, count_include_pad, divisor_override)


__all__ = sorted(n for n in dir() if not n.startswith("_") and n != "annotations")  # noqa: PLE0605
