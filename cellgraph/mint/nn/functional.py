"""`mindspore.mint.nn.functional`: PyTorch-style functional layers over cellgraph.ops."""
from __future__ import annotations

import numbers as _numbers

import numpy as _np

import cellgraph.ops as _ops
from cellgraph.compiler.effects import update_in_place as _update_in_place
from cellgraph.ops.function.array_func.attributes import known as _known
from cellgraph.ops.function.nn_func.activation import relu  # noqa: F401  (with inplace)
from cellgraph.ops.function.nn_func.conv import conv_transpose2d  # noqa: F401
from cellgraph.ops.function.nn_func.conv import conv_transpose2d_mode as _conv_transpose2d_mode
from cellgraph.ops.function.nn_func.image import resize_spatial as _resize_spatial
from cellgraph.ops.function.nn_func.loss import (
    binary_cross_entropy_with_logits as _binary_cross_entropy_with_logits,
)
from cellgraph.ops.function.nn_func.loss import cross_entropy as _cross_entropy
from cellgraph.ops.function.nn_func.loss import kl_divergence as _kl_divergence
from cellgraph.ops.function.nn_func.loss import (  # noqa: F401
    l1_loss,
    mse_loss,
    triplet_margin_loss,
)
from cellgraph.ops.function.nn_func.loss import smooth_l1_loss as _smooth_l1_loss
from cellgraph.ops.function.nn_func.pooling import adaptive_max_pool as _adaptive_max_pool
from cellgraph.primitives import dtype as _dt
from cellgraph.primitives.core import PRIMITIVES as _PRIMITIVES
from cellgraph.primitives.errors import ArgumentValueError, UnsupportedError
from cellgraph.primitives.errors import ShapeError as _ShapeError
from cellgraph.runtime.tensor import Tensor

silu = _ops.silu
pixel_unshuffle = _ops.pixel_unshuffle
softshrink, pixel_shuffle, cosine_similarity, pairwise_distance = (
    _ops.softshrink, _ops.pixel_shuffle, _ops.cosine_similarity, _ops.pairwise_distance)
adaptive_avg_pool1d, adaptive_avg_pool2d, layer_norm = (
    _ops.adaptive_avg_pool1d, _ops.adaptive_avg_pool2d, _ops.layer_norm)
adaptive_avg_pool3d = _ops.adaptive_avg_pool3d


def pad(input, pad, mode="constant", value=None):
    """ops.pad: `pad` gives (before, after) amounts from the last axis backwards."""
    return _ops.pad(input, pad, mode, value)


def one_hot(tensor, num_classes=-1):
    """int64 one-hot rows over a new last axis; num_classes=-1 takes max(tensor) + 1, which
    needs the tensor's values (an eager Tensor)."""
    if isinstance(num_classes, bool) or not isinstance(num_classes, _numbers.Integral):
        raise TypeError(f"For 'one_hot', `num_classes` must be an int, got "
                        f"{type(num_classes).__name__}")
    if num_classes < -1:
        raise ArgumentValueError(f"For 'one_hot', `num_classes` must be >= -1, got "
                                 f"{num_classes}")
    if tensor.dtype not in (_dt.int32, _dt.int64):
        raise TypeError(f"For 'one_hot', the dtype of `tensor` must be int32 or int64, got "
                        f"{tensor.dtype}")
    if num_classes == -1:
        num_classes = int(_known(tensor, "tensor", "one_hot").max()) + 1
    return _ops.one_hot(tensor, num_classes, 1, 0, -1)


def glu(input, dim=-1):
    """The first half of `input` along `dim` gated by the sigmoid of the second."""
    return _ops.glu(input, dim)


def logsigmoid(input):
    return _ops.logsigmoid(input)


def mish(input):
    return _ops.mish(input)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """ops.max_pool2d, in torch's order of `ceil_mode` and `return_indices`."""
    return _ops.max_pool2d(input, kernel_size, stride, padding, dilation, return_indices,
                           ceil_mode)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean",
                  label_smoothing=0.0):
    """As ops.cross_entropy, with mint's label check: a class index outside [0, C) that is not
    ignore_index raises ValueError (ops' counts [-C, 0) from the end)."""
    from cellgraph.mint import nn

    if target.dtype.is_float and tuple(target.shape) == tuple(input.shape):
        return _cross_entropy(input, target, weight, ignore_index, reduction, label_smoothing)
    return nn.CrossEntropyLoss(weight, ignore_index, reduction, label_smoothing)(input, target)


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    """As ops.nll_loss, with mint's label check (see cross_entropy)."""
    from cellgraph.mint import nn

    return nn.NLLLoss(weight, ignore_index, reduction)(input, target)


def check_inplace(inplace, op: str) -> None:
    """cellgraph never writes into a tensor (graphs are pure), so `inplace=True`, which would
    overwrite the input, is refused rather than ignored; the result is the same without it."""
    if inplace:
        raise UnsupportedError(f"{op}: inplace={inplace!r} is not supported "
                               f"(tensors are never overwritten here); call it without "
                               f"inplace and use the result")


def elu(input, alpha=1.0, inplace=False):
    check_inplace(inplace, "mint.nn.functional.elu")
    return _ops.elu(input, alpha)



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


def _in_place_free(name):
    """The activations whose torch form takes `inplace` (cellgraph never writes in place:
    the result is the same value)."""
    op = getattr(_ops, name)

    def activation(input, inplace=False):
        check_inplace(inplace, f"mint.nn.functional.{name}")
        return op(input)
    activation.__name__ = activation.__qualname__ = name
    activation.__doc__ = f"ops.{name}; `inplace=True` is refused (values are never mutated)."
    return activation


relu6, silu = _in_place_free("relu6"), _in_place_free("silu")


def selu(input):
    return _ops.selu(input)


def hardsigmoid(input):
    return _ops.hardsigmoid(input)


def hardswish(input):
    return _ops.hardswish(input)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    check_inplace(inplace, "mint.nn.functional.hardtanh")
    return _ops.hardtanh(input, min_val, max_val)


def prelu(input, weight):
    return _ops.prelu(input, weight)


def hardshrink(input, lambd=0.5):
    """x where |x| > lambd, 0 elsewhere."""
    return _ops.select(_ops.abs(input) > lambd, input, _ops.zeros_like(input))


def softplus(input, beta=1, threshold=20):
    """log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (as torch)."""
    return _ops.select(input * beta > threshold, input, _ops.softplus(input, beta))


def binary_cross_entropy(input, target, weight=None, reduction="mean"):
    """-(target log(input) + (1 - target) log(1 - input)), times `weight`."""
    return _ops.binary_cross_entropy(input, target, weight, reduction)


def kl_div(input, target, reduction="mean", log_target=False):
    """target (log target - input), input being log-probabilities (target too with
    `log_target`); "batchmean" divides the sum by the batch size."""
    return _kl_divergence(input, target, reduction, log_target)


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean",
                                     pos_weight=None):
    """Binary cross entropy on logits (ops.binary_cross_entropy_with_logits, mint's order)."""
    return _binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):
    """Huber-style loss, torch's argument order (and `reduction="mean"` by default)."""
    return _smooth_l1_loss(input, target, beta, reduction)


def _pair(value):
    return (value, value) if isinstance(value, _numbers.Integral) else tuple(value)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    return _ops.avg_pool2d(input, kernel_size, kernel_size if stride is None else stride,
                           padding, ceil_mode, count_include_pad, divisor_override)


def _conv_padding(padding, rank, stride=1):
    """torch's `padding` (int, tuple, "same", "valid") -> ops' (pad_mode, padding); "same"
    takes stride 1 only (MindSpore's ConvNDPadding)."""
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ArgumentValueError(f"conv: expected padding 'same' or 'valid', got {padding!r}")
        strides = stride if isinstance(stride, (tuple, list)) else (stride,)
        if padding == "same" and any(s != 1 for s in strides):
            raise ArgumentValueError(f"For primitive[Conv{rank}DPadding], stride must be 1 when "
                                     f"padding is same.")
        return padding, 0
    pads = (padding,) * rank if isinstance(padding, _numbers.Integral) else tuple(padding)
    if not any(pads):
        return "valid", 0
    return "pad", tuple(p for p in pads for _ in range(2)) if rank == 2 else pads[0]


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    pad_mode, pads = _conv_padding(padding, 2, stride)
    return _ops.conv2d(input, weight, bias, stride, pad_mode, pads, dilation, groups)


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    pad_mode, pads = _conv_padding(padding, 1, stride)
    return _ops.conv1d(input, weight, bias, stride, pad_mode, pads, dilation, groups)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
               momentum=0.1, eps=1e-05):
    """Normalise over every axis but the channels (axis 1): by the batch's statistics when
    training (`momentum` weighting the new batch in the running ones), else the running ones."""
    channels = input.shape[1]
    weight = _ops.ones((channels,), input.dtype) if weight is None else weight
    bias = _ops.zeros((channels,), input.dtype) if bias is None else bias
    return _ops.batch_norm(input, running_mean, running_var, weight, bias, training, momentum,
                           eps)


def _unfold_weight(channels, kernel, dtype):
    """(C*kh*kw, 1, kh, kw) one-hot kernels: output channel c*K + k copies position k of
    channel c, the order of torch's unfold."""
    count = kernel[0] * kernel[1]
    eye = _np.eye(count).reshape(count, 1, *kernel)
    return Tensor(_np.tile(eye, (channels, 1, 1, 1)), dtype)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C, H, W) -> (N, C*kh*kw, L): every sliding block as a column (im2col), by a grouped
    convolution with one-hot kernels (so its gradient is the convolution's)."""
    if input.ndim != 4:
        raise _ShapeError(f"unfold: expected a 4-D (N, C, H, W) input, got rank {input.ndim}")
    kernel, pads = _pair(kernel_size), _pair(padding)
    n, channels = input.shape[:2]
    pad_mode, conv_pads = ("pad", (pads[0], pads[0], pads[1], pads[1])) if any(pads) else (
        "valid", 0)
    blocks = _ops.conv2d(input, _unfold_weight(channels, kernel, input.dtype), None,
                         _pair(stride), pad_mode, conv_pads, _pair(dilation), channels)
    return _ops.reshape(blocks, (n, channels * kernel[0] * kernel[1], -1))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C*kh*kw, L) -> (N, C, H, W): the columns summed back into place (col2im, the adjoint
    of unfold), by the transposed grouped convolution."""
    kernel, pads, stride, dilation = (_pair(v) for v in (kernel_size, padding, stride, dilation))
    size = _pair(output_size)
    if input.ndim != 3 or input.shape[1] % (kernel[0] * kernel[1]):
        raise _ShapeError(f"fold: expected (N, C*{kernel[0]}*{kernel[1]}, L), got shape "
                         f"{input.shape}")
    blocks = [(size[i] + 2 * pads[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
              for i in range(2)]
    n, channels = input.shape[0], input.shape[1] // (kernel[0] * kernel[1])
    if input.shape[2] != blocks[0] * blocks[1]:
        raise _ShapeError(f"fold: expected {blocks[0] * blocks[1]} blocks for output_size {size}, "
                         f"got {input.shape[2]}")
    columns = _ops.reshape(input, (n, input.shape[1], blocks[0], blocks[1]))
    out = _conv_transpose2d_mode(columns, _unfold_weight(channels, kernel, input.dtype), None,
                                 stride, "valid", 0, dilation, channels)
    # the transposed convolution covers the padded image up to its last block: complete it,
    # then drop the padding
    short = [size[i] + 2 * pads[i] - out.shape[2 + i] for i in range(2)]
    out = _ops.pad(out, (0, short[1], 0, short[0]))
    return out[:, :, pads[0]:pads[0] + size[0], pads[1]:pads[1] + size[1]]


def gelu(input, approximate="none"):
    return _ops.gelu(input, approximate)


def softmax(input, dim=None, dtype=None):
    x = input if dtype is None else _ops.cast(input, dtype)
    return _ops.softmax(x, -1 if dim is None else dim)


def log_softmax(input, dim=None, *, dtype=None):
    x = input if dtype is None else _ops.cast(input, dtype)
    return _ops.log_softmax(x, -1 if dim is None else dim)


def linear(input, weight, bias=None):
    """input @ weight^T + bias."""
    out = _ops.matmul(input, _ops.swapaxes(weight, 0, 1))
    return out if bias is None else out + bias


def dropout(input, p=0.5, training=True, inplace=False):
    check_inplace(inplace, "mint.nn.functional.dropout")
    return _ops.dropout(input, p, training)


def leaky_relu(input, negative_slope=0.01):
    return _ops.select(input >= 0, input, input * negative_slope)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """input / max(||input||_p along dim, eps)."""
    return input / _ops.maximum(_ops.vector_norm(input, p, dim, True), eps)


# ----- more of mint.nn.functional ----------------------------------------------------------------

broadcast_to, clamp, grid_sample = _ops.broadcast_to, _ops.clamp, _ops.grid_sample
cosine_embedding_loss, soft_margin_loss = _ops.cosine_embedding_loss, _ops.soft_margin_loss


def flatten(input, start_dim=0, end_dim=-1):
    """input with the axes start_dim .. end_dim merged into one."""
    return _ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """The spatial axes (after N, C) resized to `size` or by `scale_factor` (sampled 1 / scale
    apart unless recompute_scale_factor), without ops.interpolate's limits on which modes
    take a scale factor."""
    return _resize_spatial(input, size, scale_factor, mode, align_corners,
                           recompute_scale_factor)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """`interpolate`, under its older name."""
    return interpolate(input, size, scale_factor, mode, align_corners)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True):
    """The mean over windows of the last axis of (N, C, L)."""
    return _ops.avg_pool1d(input, kernel_size, kernel_size if stride is None else stride,
                           padding, ceil_mode, count_include_pad)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=None):
    """The mean over 3-D windows of (N, C, D, H, W) (divided by `divisor_override` if
    given)."""
    return _ops.avg_pool3d(input, kernel_size, kernel_size if stride is None else stride,
                           padding, ceil_mode, count_include_pad, divisor_override or 0)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """The maximum over `output_size` adaptive windows of the last axis of (N, C, L) or
    (C, L) (and their positions with `return_indices`)."""
    if len(input.shape) not in (2, 3):
        raise _ShapeError(f"For adaptive_max_pool1d, the input must be 2-D or 3-D, but got "
                          f"{len(input.shape)}-D.")
    return _adaptive_max_pool(input, "adaptive_max_pool1d", (output_size,), return_indices)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """The maximum over adaptive windows of the last two axes (and their flat positions with
    `return_indices`)."""
    return _ops.adaptive_max_pool2d(input, output_size, return_indices)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """The 3-D convolution; `padding` an int, a triple, or 'same' / 'valid'."""
    if isinstance(padding, str):
        _conv_padding(padding, 3, stride)
        return _ops.conv3d(input, weight, bias, stride, padding, 0, dilation, groups)
    return _ops.conv3d(input, weight, bias, stride, "pad", padding, dilation, groups)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Whole channels of (N, C, H, W) zeroed with probability p (the rest scaled by
    1 / (1 - p)) while training."""
    check_inplace(inplace, "mint.nn.functional.dropout2d")
    return _ops.dropout2d(input, p, training)


def threshold(input, threshold, value, inplace=False):
    """input where it is greater than `threshold`, else `value`."""
    check_inplace(inplace, "mint.nn.functional.threshold")
    return _ops.threshold(input, threshold, value)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The inverse of max_pool2d with indices: each value written at its index, zeros
    elsewhere."""
    return _ops.max_unpool2d(input, indices, kernel_size, stride, padding, output_size)


# the in-place activations: the input's values replaced, as MindSpore's (eagerly, and a
# Parameter or graph input inside a graph)
def relu_(input):
    return _update_in_place(input, _ops.relu(input), "InplaceReLU")


def sigmoid_(input):
    return _update_in_place(input, _ops.sigmoid(input), "InplaceSigmoid")


def elu_(input, alpha=1.0):
    return _update_in_place(input, _ops.elu(input, alpha), "InplaceElu")


def hardtanh_(input, min_val=-1, max_val=1):
    return _update_in_place(input, _ops.hardtanh(input, min_val, max_val), "InplaceHardtanh")


def threshold_(input, threshold, value):
    return _update_in_place(input, _ops.threshold(input, threshold, value), "InplaceThreshold")


# the operations MindSpore's functions of this module call, which it also holds under their own
# names (its generated functional ops: elu_ext, hardtanh_op, ...)
def elu_ext(input, alpha=1.0):
    return _ops.elu(input, alpha)


def hardtanh_op(input, min_val=-1, max_val=1):
    return _ops.hardtanh(input, min_val, max_val)


def threshold_op(input, threshold, value):
    return _ops.threshold(input, threshold, value)


def adaptive_avg_pool3d_ext(input, output_size):
    return adaptive_avg_pool3d(input, output_size)


def inplace_elu(input, alpha=1.0):
    return _update_in_place(input, _ops.elu(input, alpha), "InplaceElu")


def inplace_silu(input):
    return _update_in_place(input, _ops.silu(input), "InplaceSiLU")


silu_func = _ops.silu


def norm_ext(input, p="fro", dim=None, keepdim=False, *, dtype=None):
    """mint.norm (MindSpore's norm_ext, which mint.norm is)."""
    from cellgraph import mint

    return mint.norm(input, p, dim, keepdim, dtype=dtype)


# the primitives whose declaration spells them here (`spellings=("mint.nn.functional",)`), where
# this module does not write the name itself
for _prim in _PRIMITIVES.values():
    if _prim.public:
        for _name, _spelled in _prim.spelled("mint.nn.functional").items():
            globals().setdefault(_name, _spelled)

__all__ = sorted(n for n in dir() if not n.startswith("_")  # noqa: PLE0605
                 and n not in ("annotations", "ArgumentValueError", "Tensor"))
