"""`mindspore.mint.nn`: layers with PyTorch's constructor arguments, built on cellgraph.nn
(parameter names follow mint's: `weight`, `bias`)."""
from __future__ import annotations

from cellgraph import nn as _nn
from cellgraph.primitives.errors import ArgumentValueError

from . import functional  # mint.nn.functional

ReLU, Sigmoid, Tanh, Identity = _nn.ReLU, _nn.Sigmoid, _nn.Tanh, _nn.Identity
MSELoss, L1Loss = _nn.MSELoss, _nn.L1Loss


class NLLLoss(_nn.NLLLoss):
    """nn.NLLLoss with mint's label check: a label outside [0, C) that is not ignore_index
    raises ValueError (MindSpore's NLLLoss kernel), where nn's counts [-C, 0) from the end."""

    _negative_labels, _label_error = False, "value"


class CrossEntropyLoss(_nn.CrossEntropyLoss):
    """nn.CrossEntropyLoss with mint's label check (see NLLLoss)."""

    _negative_labels, _label_error = False, "value"

Mish = _nn.Mish

from ._layers import *  # the layers holding torch-named parameters or arguments

Linear = _nn.Linear


def _conv_padding(padding):
    """PyTorch's `padding` (int, one per spatial axis, "same", "valid") -> (pad_mode, padding),
    each axis padded on both sides."""
    if isinstance(padding, str):
        return padding, 0
    if isinstance(padding, int):
        return ("pad", padding) if padding else ("valid", 0)
    return "pad", tuple(p for p in padding for _ in range(2))


def _zeros_padding(layer: str, padding_mode: str) -> None:
    if padding_mode != "zeros":
        raise ArgumentValueError(f"mint.nn.{layer}: only padding_mode='zeros' is supported, got "
                                 f"{padding_mode!r}")


class _TorchConv:
    """PyTorch's convolution arguments (padding an int, one per axis, "same" or "valid") in
    front of the nn convolution that follows this class in the MRO."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", dtype=None):
        _zeros_padding(type(self).__name__, padding_mode)
        pad_mode, pads = _conv_padding(padding)
        kwargs = {} if dtype is None else {"dtype": dtype}  # the layer's own default otherwise
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, pads,
                         dilation, groups, has_bias=bias, **kwargs)










class Conv2d(_TorchConv, _nn.Conv2d):
    """2-D convolution with PyTorch's arguments."""


class Conv3d(_TorchConv, _nn.Conv3d):
    """3-D convolution with PyTorch's arguments."""


class Softmax(_nn.Softmax):
    def __init__(self, dim=None):
        super().__init__(-1 if dim is None else dim)


class LogSoftmax(_nn.LogSoftmax):
    def __init__(self, dim=None):
        super().__init__(-1 if dim is None else dim)


class Dropout(_nn.Dropout):
    def __init__(self, p=0.5, inplace=False):
        functional.check_inplace(inplace, "mint.nn.Dropout")
        super().__init__(p=p)


class Flatten(_nn.Flatten):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__(start_dim=start_dim, end_dim=end_dim)




class MaxPool2d(_nn.MaxPool2d):
    def __init__(self, kernel_size=1, stride=None, padding=0, dilation=1, return_indices=False,
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


__all__ = sorted(n for n in dir() if not n.startswith("_")  # noqa: PLE0605
                 and n not in ("annotations", "ArgumentValueError"))
