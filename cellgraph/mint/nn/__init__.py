"""`mindspore.mint.nn`: layers with PyTorch's constructor arguments, built on cellgraph.nn
(parameter names follow mint's: `weight`, `bias`)."""
from __future__ import annotations

from cellgraph import nn as _nn
from cellgraph.primitives.errors import ArgumentValueError

from . import functional  # mint.nn.functional

ReLU, Sigmoid, Tanh, Identity = _nn.ReLU, _nn.Sigmoid, _nn.Tanh, _nn.Identity
MSELoss = _nn.MSELoss


class L1LossExt(_nn.L1Loss):
    """mean/sum/none of |logits - labels|: MindSpore's nn.L1LossExt, mint.nn's L1Loss."""


L1Loss = L1LossExt  # mint.nn's name for MindSpore's nn.L1LossExt


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
        strides = stride if isinstance(stride, (tuple, list)) else (stride,)
        if isinstance(padding, str) and padding == "same" and any(s != 1 for s in strides):
            raise ArgumentValueError("padding='same' is not supported for strided convolutions")
        pad_mode, pads = _conv_padding(padding)
        kwargs = {} if dtype is None else {"dtype": dtype}  # the layer's own default otherwise
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, pads,
                         dilation, groups, has_bias=bias, **kwargs)










class Conv2d(_TorchConv, _nn.Conv2d):
    """2-D convolution with PyTorch's arguments."""


class Conv3d(_TorchConv, _nn.Conv3d):
    """3-D convolution with PyTorch's arguments."""


class SoftmaxExt(_nn.Softmax):
    def __init__(self, dim=None):
        super().__init__(-1 if dim is None else dim)


Softmax = SoftmaxExt  # mint.nn's name for MindSpore's nn.SoftmaxExt


class LogSoftmaxExt(_nn.LogSoftmax):
    def __init__(self, dim=None):
        super().__init__(-1 if dim is None else dim)


LogSoftmax = LogSoftmaxExt  # mint.nn's name for MindSpore's nn.LogSoftmaxExt


class DropoutExt(_nn.Dropout):
    def __init__(self, p=0.5, inplace=False):
        functional.check_inplace(inplace, "mint.nn.Dropout")
        super().__init__(p=p)

    def extend_repr(self) -> str:
        return ""  # MindSpore's DropoutExt prints no fields


Dropout = DropoutExt  # mint.nn's name for MindSpore's nn.DropoutExt


class Flatten(_nn.Flatten):
    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__(start_dim=start_dim, end_dim=end_dim)




class MaxPool2dExt(_nn.Cell):
    """mint.nn.MaxPool2d: mint.nn.functional.max_pool2d with the arguments it was made with
    (stride defaults to kernel_size)."""

    def __init__(self, kernel_size=1, stride=None, padding=0, dilation=1, return_indices=False,
                 ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def construct(self, input):
        return functional.max_pool2d(input, self.kernel_size, self.stride, self.padding,
                                     self.dilation, self.ceil_mode, self.return_indices)


MaxPool2d = MaxPool2dExt  # mint.nn's name for MindSpore's nn.MaxPool2dExt


class AvgPool2dExt(_nn.Cell):
    """mint.nn.AvgPool2d: mint.nn.functional.avg_pool2d with the arguments it was made with."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
        self.divisor_override = divisor_override

    def construct(self, input):
        return functional.avg_pool2d(input, self.kernel_size, self.stride, self.padding,
                                     self.ceil_mode, self.count_include_pad,
                                     self.divisor_override)


AvgPool2d = AvgPool2dExt  # mint.nn's name for MindSpore's nn.AvgPool2dExt


class _Functional(_nn.Cell):
    """A layer that applies mint.nn.functional's `_fn` with the arguments it was made with."""

    _fn = None

    def __init__(self, **kwargs):
        super().__init__()
        self._kwargs = kwargs

    def construct(self, *inputs):
        return type(self)._fn(*inputs, **self._kwargs)

    def extend_repr(self) -> str:
        return ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())


class Threshold(_Functional):
    """input where it is greater than `threshold`, else `value`."""

    _fn = staticmethod(functional.threshold)

    def __init__(self, threshold, value, inplace=False):
        functional.check_inplace(inplace, "mint.nn.Threshold")
        super().__init__(threshold=threshold, value=value)


class SoftMarginLoss(_Functional):
    """log(1 + exp(-y x)), reduced."""

    _fn = staticmethod(functional.soft_margin_loss)

    def __init__(self, reduction="mean"):
        super().__init__(reduction=reduction)


class CosineEmbeddingLoss(_Functional):
    """1 - cos(x1, x2) where the target is 1, max(0, cos(x1, x2) - margin) where it is -1."""

    _fn = staticmethod(functional.cosine_embedding_loss)

    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(margin=margin, reduction=reduction)


class Dropout2dExt(_nn.Cell):
    """Whole channels zeroed with probability p while training (scaled by 1 / (1 - p))."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        functional.check_inplace(inplace, "mint.nn.Dropout2d")
        self.p = p

    def construct(self, input):
        return functional.dropout2d(input, self.p, self.training)


Dropout2d = Dropout2dExt  # mint.nn's name for MindSpore's nn.Dropout2dExt


class AvgPool1dExt(_Functional):
    """The mean over windows of the last axis of (N, C, L)."""

    _fn = staticmethod(functional.avg_pool1d)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding,
                         ceil_mode=ceil_mode, count_include_pad=count_include_pad)

    def extend_repr(self) -> str:
        return ""  # MindSpore's AvgPool1dExt prints no fields


AvgPool1d = AvgPool1dExt  # mint.nn's name for MindSpore's nn.AvgPool1dExt


class AvgPool3dExt(_Functional):
    """The mean over 3-D windows of (N, C, D, H, W)."""

    _fn = staticmethod(functional.avg_pool3d)

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding,
                         ceil_mode=ceil_mode, count_include_pad=count_include_pad,
                         divisor_override=divisor_override)

    def extend_repr(self) -> str:
        return ""  # MindSpore's AvgPool3dExt prints no fields


AvgPool3d = AvgPool3dExt  # mint.nn's name for MindSpore's nn.AvgPool3dExt


class AdaptiveMaxPool2d(_Functional):
    """The maximum over adaptive windows of the last two axes."""

    _fn = staticmethod(functional.adaptive_max_pool2d)

    def __init__(self, output_size, return_indices=False):
        super().__init__(output_size=output_size, return_indices=return_indices)


class AdaptiveMaxPool1d(_Functional):
    """The maximum over adaptive windows of the last axis."""

    _fn = staticmethod(functional.adaptive_max_pool1d)

    def __init__(self, output_size, return_indices=False):
        super().__init__(output_size=output_size, return_indices=return_indices)


class AdaptiveAvgPool3d(_Functional):
    """The mean over an `output_size` grid of adaptive windows of the last three axes."""

    _fn = staticmethod(functional.adaptive_avg_pool3d)

    def __init__(self, output_size):
        super().__init__(output_size=output_size)


class MaxUnpool2d(_Functional):
    """The inverse of MaxPool2d with indices."""

    _fn = staticmethod(functional.max_unpool2d)

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__(kernel_size=kernel_size, stride=stride, padding=padding)

    def construct(self, input, indices, output_size=None):
        return functional.max_unpool2d(input, indices, output_size=output_size, **self._kwargs)


class UpsamplingNearest2d(_nn.Cell):
    """Nearest-neighbour upsampling of (N, C, H, W) to `size` or by `scale_factor`."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__()
        self.size, self.scale_factor = size, scale_factor

    def construct(self, input):
        return functional.interpolate(input, self.size, self.scale_factor, "nearest")


class UpsamplingBilinear2d(_nn.Cell):
    """Bilinear upsampling of (N, C, H, W) with the corners aligned, to `size` or by
    `scale_factor`."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__()
        self.size, self.scale_factor = size, scale_factor

    def construct(self, input):
        return functional.interpolate(input, self.size, self.scale_factor, "bilinear", True)


# the functions MindSpore's loss layers here call, which it holds under these names too
cross_entropy, kl_div_ext = functional.cross_entropy, functional.kl_div
mse_loss_ext, nllloss = functional.mse_loss, functional.nll_loss


def _upsample_ops():
    """MindSpore's instances, each showing the parameters of its call."""
    import inspect

    from cellgraph.ops.auto_generate import UpsampleBilinear2D, UpsampleNearest2D

    def shown(instance, *extra):
        names = [("x", inspect.Parameter.empty), ("output_size", None), ("scales", None), *extra]
        instance.__signature__ = inspect.Signature([inspect.Parameter(
            n, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=d) for n, d in names])
        return instance

    return shown(UpsampleNearest2D()), shown(UpsampleBilinear2D(), ("align_corners", False))


# the primitive instances its Upsample layers call
upsample_nearest2d_op, upsample_bilinear2d_op = _upsample_ops()

__all__ = sorted(n for n in dir() if not n.startswith("_")  # noqa: PLE0605
                 and n not in ("annotations", "ArgumentValueError")
                 and not n.endswith("Ext"))  # MindSpore's class names; mint.nn binds its own
