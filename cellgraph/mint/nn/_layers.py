"""`mint.nn` layers that hold torch-named parameters (`weight`, `bias`, `running_mean`,
`running_var`, so that checkpoints line up with MindSpore's mint layers) or torch's constructor
arguments, each computing through `mint.nn.functional`."""
from __future__ import annotations

import math
import numbers

import numpy as np

from cellgraph import nn as _nn
from cellgraph.common.assign import assign
from cellgraph.common.initializer import HeUniform, Normal, Uniform, initializer
from cellgraph.nn.layer._checks import check_input, guarded, positive_int
from cellgraph.primitives import dtype as _dt
from cellgraph.primitives import norm_ops
from cellgraph.primitives.errors import ArgumentValueError
from cellgraph.runtime.tensor import Parameter, Tensor

from . import functional as F


def _tuple(value, rank):
    return (value,) * rank if isinstance(value, numbers.Integral) else tuple(value)


# ----- convolutions ------------------------------------------------------------------------------

class _ConvBase(_nn.Cell):
    """torch-initialised `weight` (and `bias`) of `weight_shape` (kaiming-uniform with a=sqrt(5),
    bias uniform in +-1/sqrt(fan_in))."""

    op = ""

    def __init__(self, weight_shape, fan_in, out_channels, bias, padding_mode, dtype):
        super().__init__()
        if padding_mode != "zeros":
            raise ArgumentValueError(f"mint.nn.{self.op}: only padding_mode='zeros' is supported, "
                                     f"got {padding_mode!r}")
        dtype = dtype or _dt.float32
        self.weight = Parameter(initializer(HeUniform(math.sqrt(5)), weight_shape, dtype))
        self.bias = Parameter(initializer(Uniform(1 / math.sqrt(fan_in)), (out_channels,),
                                          dtype)) if bias else None


class Conv1d(_ConvBase):
    """1-D convolution over (N, C, L) with a (out, in/groups, k) `weight`."""

    op = "Conv1d"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, bias=True, padding_mode="zeros", dtype=None):
        kernel = _tuple(kernel_size, 1)
        per_group = positive_int(in_channels, "mint.nn.Conv1d", "in_channels") // groups
        super().__init__((out_channels, per_group) + kernel, per_group * kernel[0], out_channels,
                         bias, padding_mode, dtype)
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups

    def construct(self, input):
        return F.conv1d(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                        self.groups)


class ConvTranspose2d(_ConvBase):
    """The transpose of Conv2d, with a (in, out/groups, kh, kw) `weight`: each output side is
    (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1."""

    op = "ConvTranspose2d"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, bias=True, dilation=1, padding_mode="zeros",
                 dtype=None):
        kernel = _tuple(kernel_size, 2)
        per_group = positive_int(out_channels, "mint.nn.ConvTranspose2d", "out_channels") // groups
        super().__init__((in_channels, per_group) + kernel, per_group * kernel[0] * kernel[1],
                         out_channels, bias, padding_mode, dtype)
        self.stride, self.padding, self.output_padding = stride, padding, output_padding
        self.groups, self.dilation = groups, dilation

    def construct(self, input):
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  self.output_padding, self.groups, self.dilation)


# ----- batch normalisation -----------------------------------------------------------------------

class _BatchNorm(_nn.Cell):
    """torch's BatchNorm, as MindSpore's mint has it: `momentum` weights the new batch in the
    running statistics (updated in place in training, the unbiased batch variance), None for
    their cumulative average over `num_batches_tracked` batches; `affine=False` has no weight
    or bias and `track_running_stats=False` no statistics (the batch's are always used)."""

    op = ""
    ranks: tuple = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True,
                 track_running_stats=True, dtype=None):
        super().__init__()
        if momentum is not None and not 0.0 <= momentum <= 1.0:
            raise ArgumentValueError(f"mint.nn.{self.op}: expected momentum in [0, 1] or None, "
                                     f"got {momentum!r}")
        self.num_features = positive_int(num_features, f"mint.nn.{self.op}", "num_features")
        self.eps = float(eps)
        self.momentum = None if momentum is None else float(momentum)
        self.affine, self.track_running_stats = bool(affine), bool(track_running_stats)
        shape = (self.num_features,)
        self.dtype = dtype = dtype or _dt.float32
        self.weight = self.bias = None
        if self.affine:
            self.weight = Parameter(initializer("ones", shape, dtype), "weight")
            self.bias = Parameter(initializer("zeros", shape, dtype), "bias")
        self.running_mean = self.running_var = self.num_batches_tracked = None
        if self.track_running_stats:
            self.running_mean = Parameter(initializer("zeros", shape, dtype), "running_mean",
                                          requires_grad=False)
            self.running_var = Parameter(initializer("ones", shape, dtype), "running_var",
                                         requires_grad=False)
            self.num_batches_tracked = Parameter(Tensor(0, _dt.int64), "num_batches_tracked",
                                                 requires_grad=False)

    def extend_repr(self):
        return (f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, track_running_stats={self.track_running_stats}")

    def construct(self, input):
        check_input(f"mint.nn.{self.op}", input, rank=self.ranks, channels=self.num_features)
        use_batch = guarded(self, "training") or not self.track_running_stats
        shape = input.shape
        x = input.reshape(shape[0], shape[1], -1, 1)  # (N, C, *) as the (N, C, H, W) kernel wants
        ones = Tensor(np.ones(self.num_features), self.dtype)
        zeros = Tensor(np.zeros(self.num_features), self.dtype)
        y, batch_mean, batch_var = norm_ops.batch_norm(
            x, ones if self.weight is None else self.weight,
            zeros if self.bias is None else self.bias,
            zeros if self.running_mean is None else self.running_mean,
            ones if self.running_var is None else self.running_var,
            is_training=bool(use_batch), epsilon=self.eps)
        if use_batch and self.track_running_stats:
            tracked = self.num_batches_tracked + 1
            assign(self.num_batches_tracked, tracked)
            factor = (1.0 / tracked.astype(self.dtype) if self.momentum is None
                      else self.momentum)
            count = x.size // self.num_features
            unbiased = batch_var * (count / max(count - 1, 1))
            assign(self.running_mean, self.running_mean * (1 - factor) + batch_mean * factor)
            assign(self.running_var, self.running_var * (1 - factor) + unbiased * factor)
        return y.reshape(shape)


class BatchNorm1d(_BatchNorm):
    op, ranks = "BatchNorm1d", (2, 3)


class BatchNorm2d(_BatchNorm):
    op, ranks = "BatchNorm2d", (4,)


class BatchNorm3d(_BatchNorm):
    op, ranks = "BatchNorm3d", (5,)


# ----- embedding and the other normalisations ----------------------------------------------------

class EmbeddingExt(_nn.Cell):
    """Rows of `weight` (num_embeddings, embedding_dim), drawn from N(0, 1) with the
    `padding_idx` row zero, picked by integer ids; the padding row gets no gradient."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None,
                 norm_type=2.0, scale_grad_by_freq=False, sparse=False, _weight=None,
                 _freeze=False, dtype=None):
        super().__init__()
        if max_norm is not None or scale_grad_by_freq or sparse:
            raise ArgumentValueError("mint.nn.Embedding: max_norm, scale_grad_by_freq and sparse "
                                     "are not supported")
        shape = (num_embeddings, embedding_dim)
        table = initializer(Normal(1.0), shape, dtype or _dt.float32).asnumpy() if _weight is None \
            else np.asarray(_weight.asnumpy() if hasattr(_weight, "asnumpy") else _weight)
        if padding_idx is not None and _weight is None:
            table[padding_idx] = 0
        self.weight = Parameter(Tensor(table, dtype or _dt.float32), requires_grad=not _freeze)
        self.padding_idx = padding_idx
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq = scale_grad_by_freq

    def construct(self, input):
        return F.embedding(input, self.weight, self.padding_idx)

    def extend_repr(self) -> str:
        return (f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, "
                f"padding_idx={self.padding_idx}, max_norm={self.max_norm}, "
                f"norm_type={self.norm_type}, scale_grad_by_freq={self.scale_grad_by_freq}, "
                f"dtype={self.weight.dtype}")


Embedding = EmbeddingExt  # mint.nn's name for MindSpore's nn.EmbeddingExt


class LayerNormExt(_nn.Cell):
    """Normalise over the trailing `normalized_shape` axes, then scale by `weight` and shift by
    `bias` (elementwise over those axes)."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True,
                 dtype=None):
        super().__init__()
        self.normalized_shape = _tuple(normalized_shape, 1)
        self.eps, dtype = eps, dtype or _dt.float32
        affine = self.elementwise_affine = bool(elementwise_affine)
        self.weight = Parameter(initializer("ones", self.normalized_shape, dtype)) \
            if affine else None
        self.bias = Parameter(initializer("zeros", self.normalized_shape, dtype)) \
            if affine and bias else None

    def construct(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extend_repr(self) -> str:
        return (f"normalized_shape={self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


LayerNorm = LayerNormExt  # mint.nn's name for MindSpore's nn.LayerNormExt


class GroupNorm(_nn.Cell):
    """Normalise each of `num_groups` channel groups per sample, then scale and shift per
    channel by `weight` and `bias`."""

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, dtype=None):
        super().__init__()
        if num_channels % num_groups:
            raise ArgumentValueError(f"mint.nn.GroupNorm: {num_channels} channels cannot be split "
                                     f"into {num_groups} groups")
        self.num_groups, self.eps, dtype = num_groups, eps, dtype or _dt.float32
        self.weight = Parameter(initializer("ones", (num_channels,), dtype)) if affine else None
        self.bias = Parameter(initializer("zeros", (num_channels,), dtype)) if affine else None

    def construct(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)


# ----- activations with parameters or torch's arguments ------------------------------------------

class PReLUExt(_nn.Cell):
    """max(0, x) + weight * min(0, x), one learnable slope (or one per channel)."""

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        self.weight = Parameter(initializer(init, (num_parameters,), dtype or _dt.float32))

    def construct(self, input):
        return F.prelu(input, self.weight)


PReLU = PReLUExt  # mint.nn's name for MindSpore's nn.PReLUExt


class Softplus(_nn.Cell):
    """log(1 + exp(beta x)) / beta, and x itself where beta x > threshold."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def construct(self, input):
        return F.softplus(input, self.beta, self.threshold)


class LeakyReLU(_nn.Cell):
    def __init__(self, negative_slope=0.01, inplace=False):
        F.check_inplace(inplace, "mint.nn.LeakyReLU")
        super().__init__()
        self.negative_slope = negative_slope

    def construct(self, input):
        return F.leaky_relu(input, self.negative_slope)


class Softshrink(_nn.Cell):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input):
        return F.softshrink(input, self.lambd)


class Hardshrink(_nn.Cell):
    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def construct(self, input):
        return F.hardshrink(input, self.lambd)


class GLU(_nn.Cell):
    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def construct(self, input):
        return F.glu(input, self.dim)


def _accepting_inplace(base, name):
    """`base` (an argument-less activation) with torch's `inplace` argument; True is refused
    (values are never mutated here)."""
    def __init__(self, inplace=False):
        F.check_inplace(inplace, f"mint.nn.{name}")
        base.__init__(self)
    return type(name, (base,), {"__init__": __init__, "__doc__": base.__doc__})


class Hardswish(_nn.HSwish):
    """x * relu6(x + 3) / 6."""


class Hardsigmoid(_nn.HSigmoid):
    """relu6(x + 3) / 6."""


SiLU = _accepting_inplace(_nn.SiLU, "SiLU")


class ELU(_nn.ELU):
    """nn.ELU with torch's `inplace` (True is refused: values are never mutated here)."""

    def __init__(self, alpha=1.0, inplace=False):
        F.check_inplace(inplace, "mint.nn.ELU")
        super().__init__(alpha)


class Hardtanh(_nn.Hardtanh):
    """nn.Hardtanh with torch's `inplace` (True is refused: values are never mutated here)."""

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        F.check_inplace(inplace, "mint.nn.Hardtanh")
        super().__init__(min_val, max_val)


class GELU(_nn.Cell):
    """x * Phi(x): `approximate` 'none' (the erf form, the default) or 'tanh'."""

    def __init__(self, approximate="none"):
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise ArgumentValueError(f"mint.nn.GELU: `approximate` must be 'none' or 'tanh', "
                                     f"got {approximate!r}")
        self.approximate = approximate

    def construct(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extend_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class BCEWithLogitsLoss(_nn.BCEWithLogitsLoss):
    """nn.BCEWithLogitsLoss in mint's argument order (weight first)."""

    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        super().__init__(reduction, weight, pos_weight)


ReLU6 = _accepting_inplace(_nn.ReLU6, "ReLU6")
SELU = _accepting_inplace(_nn.SeLU, "SELU")
LogSigmoid, PixelShuffle, PixelUnshuffle, Upsample = (
    _nn.LogSigmoid, _nn.PixelShuffle, _nn.PixelUnshuffle, _nn.Upsample)
AdaptiveAvgPool1d, AdaptiveAvgPool2d, BCELoss = (
    _nn.AdaptiveAvgPool1d, _nn.AdaptiveAvgPool2d, _nn.BCELoss)


# ----- losses with torch's argument order ---------------------------------------------------------

class SmoothL1Loss(_nn.Cell):
    def __init__(self, reduction="mean", beta=1.0):
        super().__init__()
        self.reduction, self.beta = reduction, beta

    def construct(self, input, target):
        return F.smooth_l1_loss(input, target, self.reduction, self.beta)


class KLDivLoss(_nn.Cell):
    """KL(target || exp(input)) with `input` log-probabilities (`target` too when
    log_target)."""

    def __init__(self, reduction="mean", log_target=False):
        super().__init__()
        self.reduction, self.log_target = reduction, log_target

    def construct(self, input, target):
        return F.kl_div(input, target, self.reduction, self.log_target)


# ----- sliding blocks -----------------------------------------------------------------------------

class UnfoldExt(_nn.Cell):
    """(N, C, H, W) -> (N, C*kh*kw, L) sliding blocks (im2col)."""

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = (
            kernel_size, dilation, padding, stride)

    def construct(self, input):
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)


Unfold = UnfoldExt  # mint.nn's name for MindSpore's nn.UnfoldExt


class Fold(Unfold):
    """(N, C*kh*kw, L) -> (N, C, *output_size), overlapping blocks summed (col2im)."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__(kernel_size, dilation, padding, stride)
        self.output_size = output_size

    def construct(self, input):
        return F.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                      self.stride)


# ----- padding: {Constant, Zero, Reflection, Replication}Pad{1,2,3}d ---------------------------

class _Pad(_nn.Cell):
    """Pad the last `rank` axes by `padding` (an int for every side, or (left, right, top,
    bottom, front, back) as far as the rank goes)."""

    rank, mode = 1, "constant"

    def __init__(self, padding, value=0.0):
        super().__init__()
        pads = _tuple(padding, 2 * self.rank)
        if len(pads) != 2 * self.rank:
            raise ArgumentValueError(f"mint.nn.{type(self).__name__}: expected an int or "
                                     f"{2 * self.rank} paddings, got {padding!r}")
        self.padding, self.value = pads, value

    def construct(self, input):
        if self.mode == "constant":
            return F.pad(input, self.padding, "constant", self.value)
        return F.pad(input, self.padding, self.mode)


def _pad_class(kind, mode, rank):
    name = f"{kind}Pad{rank}d"
    attrs = {"rank": rank, "mode": mode, "__doc__": f"{mode} padding of the last {rank} axes."}
    if kind == "Constant":  # the fill value is a required argument, as in MindSpore
        attrs["__init__"] = lambda self, padding, value: _Pad.__init__(self, padding, value)
    elif kind == "Zero":
        attrs["__init__"] = lambda self, padding: _Pad.__init__(self, padding, 0.0)
    elif kind != "Constant":
        attrs["__init__"] = lambda self, padding: _Pad.__init__(self, padding)
    return name, type(name, (_Pad,), attrs)


globals().update(_pad_class(kind, mode, rank) for kind, mode in (
    ("Constant", "constant"), ("Zero", "constant"), ("Reflection", "reflect"),
    ("Replication", "replicate")) for rank in (1, 2, 3))

__all__ = sorted(n for n in globals() if n[0].isupper() and n not in (  # noqa: PLE0605
    "ArgumentValueError", "F", "HeUniform", "Normal", "Parameter", "Tensor", "Uniform")
    and not n.endswith("Ext"))  # MindSpore's class names; mint.nn binds its own
