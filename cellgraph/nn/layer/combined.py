"""Layers combined with a normalisation and an activation: Conv2dBnAct and DenseBnAct. Their
parts are named as MindSpore names them (`conv`/`dense`, `batchnorm`, `activation`), so
checkpoints line up."""
from __future__ import annotations

from cellgraph.primitives.errors import DTypeError

from ..cell import Cell
from .activation import LeakyReLU, get_activation
from .basic import Dense
from .conv import Conv2d
from .normalization import BatchNorm1d, BatchNorm2d

__all__ = ["Conv2dBnAct", "DenseBnAct"]


def _bool(value, op: str, name: str) -> bool:
    if not isinstance(value, bool):
        raise DTypeError(f"{op}: `{name}` must be a bool, got {type(value).__name__}")
    return value


def _activation(activation, alpha, op: str):
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    cell = get_activation(activation) if isinstance(activation, str) else activation
    if activation is not None and not callable(cell):
        raise DTypeError(f"{op}: `activation` must be a str, a Cell or a Primitive, got "
                         f"{type(activation).__name__}")
    return cell


class Conv2dBnAct(Cell):
    """Conv2d, then BatchNorm2d (`has_bn`), then the activation (`activation`: a name, a
    Cell or None; "leakyrelu" takes `alpha`). `after_fake` concerns MindSpore's fake
    quantisation, which this layer does not do in MindSpore either."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init="normal",
                 bias_init="zeros", has_bn=False, momentum=0.997, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride,
                           pad_mode=pad_mode, padding=padding, dilation=dilation, group=group,
                           has_bias=has_bias, weight_init=weight_init, bias_init=bias_init)
        self.has_bn = _bool(has_bn, "Conv2dBnAct", "has_bn")
        self.has_act = activation is not None
        self.after_fake = _bool(after_fake, "Conv2dBnAct", "after_fake")
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = _activation(activation, alpha, "Conv2dBnAct")

    def construct(self, x):
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x


class DenseBnAct(Cell):
    """Dense, then BatchNorm1d (`has_bn`), then the activation, as Conv2dBnAct."""

    def __init__(self, in_channels, out_channels, weight_init="normal", bias_init="zeros",
                 has_bias=True, has_bn=False, momentum=0.9, eps=1e-5, activation=None,
                 alpha=0.2, after_fake=True):
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn = _bool(has_bn, "DenseBnAct", "has_bn")
        self.has_act = activation is not None
        self.after_fake = _bool(after_fake, "DenseBnAct", "after_fake")
        if has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
        self.activation = _activation(activation, alpha, "DenseBnAct")

    def construct(self, x):
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        if self.has_act:
            x = self.activation(x)
        return x
