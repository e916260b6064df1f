"""MindSpore's `ops.operations.nn_ops`: the primitive classes of neural-network operations
(`ops.Conv2D(6, 5)`, `ops.MaxPool(2, 2)`, `ops.LayerNorm(1, 1)`, ...), configured in
`__init__` and applied in `__call__`."""
from __future__ import annotations

import inspect
import numbers

import numpy as _np

from cellgraph._checkparam import check_string, check_value_type
from cellgraph.common.apply_ops import (
    Adam,
    AdamWeightDecay,
    ApplyGradientDescent,
    ApplyMomentum,
    ApplyRMSProp,
)
from cellgraph.ops.function.array_func.attributes import _const, _tensor, is_tensor
from cellgraph.ops.function.array_func.indexing import apply_along
from cellgraph.ops.function.array_func.padding import (
    _check_tensor,
    _host_ints,
    _pad_with_tensor,
    pad_pairs_mode,
    paddings_pairs,
)
from cellgraph.ops.function.array_func.padding import pad as _pad
from cellgraph.ops.function.nn_func.activation import (
    celu,
    elu,
    fast_gelu,
    glu,
    hardshrink,
    hardsigmoid,
    hardswish,
    mish,
    prelu,
    relu6,
    selu,
    softshrink,
    softsign,
)
from cellgraph.ops.function.nn_func.attention import _flash_attention_class
from cellgraph.ops.function.nn_func.basic import channel_dropout, intopk, pdist, seeded_dropout
from cellgraph.ops.function.nn_func.basic import dense as _dense
from cellgraph.ops.function.nn_func.conv import (
    _TRANSPOSE_INIT,
    _conv2d_transpose_class,
    _conv3d_class,
    conv_transpose3d,
    deformable_offsets,
)
from cellgraph.ops.function.nn_func.fractional_pool import (
    fractional_avg_pool,
    fractional_max_pool,
    fractional_max_pool3d_with_fixed_ksize,
    fractional_max_pool_with_fixed_ksize,
)
from cellgraph.ops.function.nn_func.image import (
    _linear,
    grid_sampler_impl,
    linear_along,
    roi_align,
    upsample3d,
)
from cellgraph.ops.function.nn_func.loss import (
    _ctc_loss_v2,
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    checked_labels,
    kl_div,
    l2_loss,
    nll_loss,
    reduce_loss,
    sigmoid_cross_entropy_with_logits,
    smooth_l1_loss,
    softmax_cross_entropy_with_logits,
    triplet_margin_loss,
)
from cellgraph.ops.function.nn_func.margin_loss import (
    multi_margin,
    multilabel_margin,
    soft_margin_loss,
)
from cellgraph.ops.function.nn_func.normalization import _rms_norm, lrn
from cellgraph.ops.function.nn_func.pooling import (
    _windows,
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    adaptive_max_pool2d,
    adaptive_max_pool3d,
    avg_pool3d,
    max_pool3d,
    max_pool_with_indices,
    max_unpool,
    same_max_pool3d,
    unpool_windows,
)
from cellgraph.ops.function.nn_func.rnn import packed_lstm
from cellgraph.ops.function.nn_func.roi_pooling import ps_roi_pooling
from cellgraph.ops.function.nn_func.window_pool import (
    check_argmax_type,
    check_ceil_mode,
    max_pool_argmax,
    window_ints,
)
from cellgraph.ops.operations._required import require
from cellgraph.ops.primitive_class import (
    PrimitiveClass,
    _init,
    define_class,
    define_classes,
    function_class,
    generate_classes,
)
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import conv_ops as C
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives import norm_ops as N
from cellgraph.primitives.check_convert import (
    check_tensor_dtype,
    check_tensor_type,
    not_tensor_error,
    tensor_dtype_error,
)
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.core import abstract_of, fmt_shape, normalize_axis, value_input
from cellgraph.primitives.dynamic_ops import check_merge_repeated, ctc_greedy_decoder
from cellgraph.primitives.errors import (
    ArgumentValueError,
    DTypeError,
    RunError,
    ShapeError,
)
from cellgraph.primitives.exports import REQUIRED
from cellgraph.primitives.floor_division import floor_mod
from cellgraph.primitives.nn_functional import _ints, argmax, one_hot
from cellgraph.primitives.nn_ops import ctc_loss as _ctc_loss_p
from cellgraph.primitives.sort_ops import sort
from cellgraph.runtime.tensor import Tensor

__all__ = ["GELU", "Adam", "AdamWeightDecay", "ApplyGradientDescent", "ApplyMomentum",
           "ApplyRMSProp", "AvgPool", "BatchNorm", "BiasAdd", "BinaryCrossEntropy",
           "CTCGreedyDecoder", "CTCLoss", "CTCLossV2",
           "Conv2D", "Conv2DBackpropInput", "Conv2DTranspose", "Conv3D", "Dropout", "Dropout2D",
           "Elu", "FlashAttentionScore", "Flatten", "GeLU", "GridSampler2D", "GridSampler3D",
           "HShrink", "HSwish", "KLDivLoss", "L2Loss", "L2Normalize", "LayerNorm", "LogSoftmax",
           "MaxPool", "MaxPool3D", "MaxPoolWithIndices", "MaxPoolWithMask", "MirrorPad", "NLLLoss",
           "OneHot", "Pad", "PadV3", "ResizeBilinearV2", "ResizeLinear1D", "RmsNorm", "SigmoidCrossEntropyWithLogits",
           "SoftShrink", "Softmax", "SoftmaxCrossEntropyWithLogits", "Softplus",
           "SparseSoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogitsV2"]



def _softmax(x, axis=-1):
    """Softmax along `axis` (MindSpore's class takes it as an int or a tuple of one)."""
    return F.softmax(x, axis[0] if isinstance(axis, tuple) else axis)


class Softmax(define_class("Softmax", _softmax, {"axis": -1}, module=__name__)):
    """`ops.Softmax(axis=-1)(x)`; the axis is kept as a tuple, `(axis,)` for an int, as
    MindSpore keeps it."""

    def __init__(self, axis=-1):
        if isinstance(axis, bool) or not isinstance(axis, int | tuple):
            raise DTypeError(f"For 'Softmax', the type of 'axis' should be one of '[int, tuple "
                             f"of int]', but got {type(axis)}.")
        super().__init__((axis,) if isinstance(axis, int) else axis)


Softmax.__module__ = __name__
LogSoftmax = define_class("LogSoftmax", lambda x, axis=-1: F.log_softmax(x, axis), {"axis": -1},
                          module=__name__)


def lars_update(weight, gradient, norm_weight, norm_gradient, weight_decay, learning_rate,
                epsilon=1e-05, hyperpara=0.001, use_clip=False):
    """MindSpore's LARSUpdate (nn.LARS's step): the LARS gradient of one parameter from the
    sums of squares of its weight and gradient, trust * (gradient + weight_decay * weight) with
    trust = hyperpara * |w| / (|g| + weight_decay * |w| + epsilon), 1 where |w| or |g| is 0,
    and with use_clip min(trust / learning_rate, 1)."""
    check_lars_attributes(epsilon, hyperpara, use_clip)
    if tuple(gradient.shape) != tuple(weight.shape):
        raise DTypeError(f"For 'LARSUpdate', the shape of 'gradient' {tuple(gradient.shape)} "
                         f"should be the same as 'weight' {tuple(weight.shape)}.")
    dtype = weight.dtype
    w_norm, g_norm = F.sqrt(F.cast(norm_weight, dtype)), F.sqrt(F.cast(norm_gradient, dtype))
    weight_decay = F.cast(weight_decay, dtype) if is_tensor(weight_decay) else weight_decay
    trust = F.div(F.mul(w_norm, hyperpara),
                  F.add(F.add(g_norm, F.mul(w_norm, weight_decay)), epsilon))
    if use_clip:
        trust = F.minimum(F.div(trust, F.cast(learning_rate, dtype)), 1.0)
    positive = F.logical_and(F.greater(w_norm, 0), F.greater(g_norm, 0))
    trust = F.select(positive, trust, F.ones_like(trust))
    return F.mul(F.add(gradient, F.mul(weight, weight_decay)), trust)


def check_lars_attributes(epsilon, hyperpara, use_clip, op="LARSUpdate",
                          hyperpara_name="hyperpara") -> None:
    """LARSUpdate's (and nn.LARS's, whose hyperpara is `coefficient`) type checks, with
    MindSpore's validator."""
    from cellgraph import _checkparam as validator

    validator.check_value_type("epsilon", epsilon, [float], op)
    validator.check_value_type(hyperpara_name, hyperpara, [float], op)
    validator.check_value_type("use_clip", use_clip, [bool], op)


class LARSUpdate(define_class("LARSUpdate", lars_update,
                              {"epsilon": 1e-05, "hyperpara": 0.001, "use_clip": False},
                              module=__name__)):
    """`ops.LARSUpdate(epsilon=1e-05, hyperpara=0.001, use_clip=False)(weight, gradient,
    norm_weight, norm_gradient, weight_decay, learning_rate)`: see `lars_update`."""

    def __init__(self, epsilon=1e-05, hyperpara=0.001, use_clip=False):
        check_lars_attributes(epsilon, hyperpara, use_clip)
        super().__init__(epsilon, hyperpara, use_clip)


LARSUpdate.__module__ = __name__


class L2Normalize(PrimitiveClass):
    """`ops.L2Normalize(axis=0, epsilon=1e-4)(x)`: x / sqrt(max(sum(x^2), epsilon))."""

    def __init__(self, axis=0, epsilon=1e-4):
        self.axis, self.epsilon = axis, epsilon

    def __call__(self, input_x):
        squares = F.reduce_sum(F.square(input_x), self.axis, True)
        return F.div(input_x, F.sqrt(F.maximum(squares, self.epsilon)))


def _elu(input_x, alpha=1.0):
    return elu(input_x, alpha)


def _channel_dropout(op: str, rank: int):
    def dropout(x, keep_prob=0.5):
        return channel_dropout(x, keep_prob, op, rank)

    return dropout


Elu = define_class("Elu", _elu, {"alpha": 1.0}, module=__name__)


HSwish = define_class("HSwish", hardswish, module=__name__)


Dropout2D = define_class("Dropout2D", _channel_dropout("Dropout2D", 4), {"keep_prob": 0.5},
                         module=__name__)
Dropout3D = define_class("Dropout3D", _channel_dropout("Dropout3D", 5), {"keep_prob": 0.5},
                         module=__name__)
Dense = define_class("Dense", lambda x, w, b=None: _dense(x, w, b), module=__name__)


def _kl_div_loss(logits, labels, reduction="mean"):
    return kl_div(logits, labels, reduction)


KLDivLoss = define_class("KLDivLoss", _kl_div_loss, {"reduction": "mean"}, module=__name__)


SoftShrink = define_class("SoftShrink", softshrink, {"lambd": 0.5}, module=__name__)


HShrink = define_class("HShrink", hardshrink, {"lambd": 0.5}, module=__name__)


class ResizeBilinearV2(PrimitiveClass):
    """`ops.ResizeBilinearV2(align_corners, half_pixel_centers)(x, size)` over (N, C, H, W)."""

    def __init__(self, align_corners=False, half_pixel_centers=False):
        self.align_corners, self.half_pixel_centers = align_corners, half_pixel_centers

    def __call__(self, x, size):
        shape = abstract_of(x).shape
        for axis, out in zip((2, 3), tuple(size)):
            out = out if hasattr(out, "aval") else int(out)
            if shape[axis] is None or hasattr(out, "aval"):  # a size known only at run time
                x = linear_along(x, axis, out, self.align_corners, self.half_pixel_centers)
                continue
            x = apply_along(x, _linear(shape[axis], int(out), self.align_corners,
                                       self.half_pixel_centers), axis)
        return x


class ResizeLinear1D(PrimitiveClass):
    """`ops.ResizeLinear1D(coordinate_transformation_mode="align_corners")(x, size)`: the last
    axis of x (N, C, W) resized to size[0] by linear interpolation, the ends mapped onto each
    other ("align_corners") or pixel centres sampled ("half_pixel"); its gradient is the
    interpolation matrix's transpose. MindSpore's CPU kernel takes "asymmetric" as a name but
    refuses to run it, and so does this."""

    MODES = ("align_corners", "half_pixel", "asymmetric")

    def __init__(self, coordinate_transformation_mode="align_corners"):
        if coordinate_transformation_mode not in self.MODES:
            raise ArgumentValueError(f"For 'ResizeLinear1D', coordinate_transformation_mode must "
                                     f"be one of {list(self.MODES)}, but got "
                                     f"{coordinate_transformation_mode!r}")
        self.coordinate_transformation_mode = coordinate_transformation_mode

    def __call__(self, x, size):
        aval = _tensor(x, "ResizeLinear1D", "x")
        if not aval.dtype.is_float:
            raise tensor_dtype_error("ResizeLinear1D", "x", (dt.float16, dt.float32, dt.float64),
                                     aval.dtype)
        if aval.ndim != 3:
            raise ShapeError(f"For primitive[ResizeLinear1D], the image rank must be equal to 3, "
                             f"but got {aval.ndim}.")
        if hasattr(size, "aval") and not abstract_of(size).dtype.is_int:
            raise DTypeError(f"For ResizeLinear1D, the 1'th input is a Tensor whose shape is "
                             f"{list(abstract_of(size).shape)} and dtype is "
                             f"[{abstract_of(size).dtype}], which can not be converted to tuple "
                             f"of int.")
        (out,) = _ints(_host_ints(size), "ResizeLinear1D", "size")
        mode = self.coordinate_transformation_mode
        if mode == "asymmetric":
            raise RunError("For 'ResizeLinear1D', coordinate_transformation_mode not support now.")
        weights = _linear(aval.shape[2], int(out), mode == "align_corners", True)
        if aval.dtype == dt.float16:  # interpolated in float32, as MindSpore's kernel does
            return F.cast(apply_along(F.cast(x, dt.float32), weights, 2), dt.float16)
        return apply_along(x, weights, 2)

    def __repr__(self) -> str:
        return (f"ResizeLinear1D(coordinate_transformation_mode="
                f"{self.coordinate_transformation_mode!r})")


class PadV3(PrimitiveClass):
    """`ops.PadV3(mode="constant", paddings_contiguous=True)(x, paddings, constant_value=None)`.

    `paddings` pairs run from the last axis backwards; contiguous: (begin0, end0, begin1, end1,
    ...), otherwise (begin0, begin1, ..., end0, end1, ...). Modes "constant", "reflect", "edge",
    "circular"; `constant_value` is used in mode "constant" only."""

    MODES = ("constant", "reflect", "edge", "circular")

    def __init__(self, mode="constant", paddings_contiguous=True):
        if not isinstance(mode, str) or mode not in self.MODES:
            raise ArgumentValueError(f"PadV3: mode must be one of {self.MODES}, got {mode!r}")
        if not isinstance(paddings_contiguous, bool):
            raise DTypeError(f"PadV3: `paddings_contiguous` must be a bool, got "
                             f"{paddings_contiguous!r}")
        self.mode, self.paddings_contiguous = mode, paddings_contiguous

    def __call__(self, x, paddings, constant_value=None):
        _check_tensor(x, "PadV3", "x")
        pairs = paddings_pairs(paddings, self.paddings_contiguous, abstract_of(x).ndim, "PadV3")
        if self.mode != "constant":
            return pad_pairs_mode(x, pairs, self.mode, op="PadV3")
        if constant_value is None or isinstance(constant_value, numbers.Number):
            return pad_pairs_mode(x, pairs, "constant", constant_value or 0, "PadV3")
        return _pad_with_tensor(x, pairs, constant_value)

    def __repr__(self) -> str:
        return f"PadV3(mode={self.mode!r}, paddings_contiguous={self.paddings_contiguous})"


class _MaxPoolClass(PrimitiveClass):
    OP = ""

    def __init__(self, kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                 argmax_type=dt.int64):
        if not isinstance(ceil_mode, bool):
            raise DTypeError(f"{self.OP}: `ceil_mode` must be a bool, got {ceil_mode!r}")
        self.kernel_size, self.strides, self.pads = kernel_size, strides, pads
        self.dilation, self.ceil_mode, self.argmax_type = dilation, ceil_mode, argmax_type

    def __repr__(self) -> str:
        return (f"{self.OP}(kernel_size={self.kernel_size}, strides={self.strides}, "
                f"pads={self.pads}, dilation={self.dilation}, ceil_mode={self.ceil_mode})")


class MaxPoolWithIndices(_MaxPoolClass):
    """`MaxPoolWithIndices(kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
    argmax_type=int64)(x)` -> (output, argmax): argmax is the flat index of each maximum in its
    input plane of H*W values (padding never wins)."""

    OP = "MaxPoolWithIndices"

    def __call__(self, x):
        return max_pool_with_indices(x, self.kernel_size, self.strides, self.pads,
                                     self.dilation, self.ceil_mode, self.argmax_type)


class MaxPoolWithMask(_MaxPoolClass):
    """`MaxPoolWithMask(...)(x)` -> (output, mask): mask of shape (N, C, kh*kw, Ho*Wo), uint8,
    1 at the window position (row by row) that held each output's maximum."""

    OP = "MaxPoolWithMask"

    def __call__(self, x):
        windows, _ = _windows(self.OP, x, self.kernel_size, self.strides, self.pads,
                                       self.dilation, self.ceil_mode)
        n, c, ho, wo, k = abstract_of(windows).shape
        chosen = one_hot(argmax(windows, -1), k, 1, 0)  # (N, C, Ho, Wo, K)
        mask = F.transpose(F.reshape(chosen, (n, c, ho * wo, k)), (0, 1, 3, 2))
        return F.reduce_max(windows, -1), F.cast(mask, dt.uint8)


class MaxPoolWithArgmaxV2(PrimitiveClass):
    """`MaxPoolWithArgmaxV2(kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
    argmax_type=int64)(x)` -> (output, argmax): each window's maximum of (N, C, H, W), padding
    counted as -inf, and its flat index in the H*W plane."""

    OP = "MaxPoolWithArgmaxV2"
    ND = 2

    def __init__(self, kernel_size, strides=None, pads=0, dilation=(1, 1), ceil_mode=False,
                 argmax_type=dt.int64):
        self._window(kernel_size, strides, pads, dilation, ceil_mode, argmax_type)

    def _window(self, kernel_size, strides, pads, dilation, ceil_mode, argmax_type):
        self.ceil_mode = check_ceil_mode(ceil_mode, self.OP)
        self.argmax_type = check_argmax_type(argmax_type, self.OP)
        nd, op = self.ND, self.OP
        self.kernel_size = window_ints(kernel_size, nd, op, "kernel_size")
        self.strides = self.kernel_size if strides is None else window_ints(strides, nd, op,
                                                                             "strides")
        self.pads = window_ints(pads, nd, op, "pads", positive=False)
        self.dilation = window_ints(dilation, nd, op, "dilation")

    def __call__(self, x):
        return max_pool_argmax(x, self.OP, self.kernel_size, self.strides, self.pads,
                               self.dilation, self.ceil_mode, self.argmax_type)

    def __repr__(self) -> str:
        return (f"{self.OP}(kernel_size={self.kernel_size}, strides={self.strides}, "
                f"pads={self.pads}, dilation={self.dilation}, ceil_mode={self.ceil_mode})")


class MaxPool3DWithArgmax(MaxPoolWithArgmaxV2):
    """`MaxPool3DWithArgmax(ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False,
    data_format='NCDHW', argmax_type=int64)(x)` -> (output, argmax): each window's maximum of
    (N, C, D, H, W), padding counted as -inf, and its flat index in the D*H*W volume."""

    OP = "MaxPool3DWithArgmax"
    ND = 3

    def __init__(self, ksize, strides, pads, dilation=(1, 1, 1), ceil_mode=False,
                 data_format="NCDHW", argmax_type=dt.int64):
        from cellgraph import _checkparam as validator
        validator.check_value_type("data_format", data_format, str, self.OP)
        self.data_format = validator.check_string(data_format, ["NCDHW"], "data_format",
                                                  self.OP)
        self._window(ksize, strides, pads, dilation, ceil_mode, argmax_type)
        self.ksize = self.kernel_size


class _MaxUnpoolClass(PrimitiveClass):
    OP, ND, FORMATS = "", 0, ()

    def _configure(self, ksize, strides, pads, output_shape, data_format):
        from cellgraph import _checkparam as validator
        self.data_format = validator.check_string(data_format, list(self.FORMATS),
                                                  "data_format", self.OP)
        self.ksize, self.strides, self.pads = unpool_windows(ksize, strides, pads, self.ND,
                                                             self.OP)
        validator.check_value_type("output_shape", output_shape, [tuple], self.OP)
        self.output_shape = output_shape

    def __call__(self, x, argmax):
        last = self.data_format != self.FORMATS[0]  # channels last: moved to axis 1 and back
        if last:
            order = (0, self.ND + 1) + tuple(range(1, self.ND + 1))
            x, argmax = F.transpose(x, order), F.transpose(argmax, order)
        shape = self.output_shape
        if last and len(shape) == self.ND + 2:
            shape = (shape[0], shape[-1]) + tuple(shape[1:-1])
        out = max_unpool(x, argmax, self.OP, self.ksize, self.strides, self.pads, shape)
        if last:
            out = F.transpose(out, (0,) + tuple(range(2, self.ND + 2)) + (1,))
        return out


class MaxUnpool2D(_MaxUnpoolClass):
    """`MaxUnpool2D(ksize, strides=0, pads=0, output_shape=(), data_format='NCHW')(x, argmax)`:
    MaxPoolWithArgmaxV2's inverse, zeros with each value of x written at its argmax in its
    H*W plane (strides 0: the kernel size)."""

    OP, ND, FORMATS = "MaxUnpool2D", 2, ("NCHW", "NHWC")

    def __init__(self, ksize, strides=0, pads=0, output_shape=(), data_format="NCHW"):
        self._configure(ksize, strides, pads, output_shape, data_format)


class MaxUnpool3D(_MaxUnpoolClass):
    """`MaxUnpool3D(ksize, strides=0, pads=0, output_shape=(), data_format='NCDHW')(x,
    argmax)`: MaxPool3DWithArgmax's inverse over the D*H*W volume."""

    OP, ND, FORMATS = "MaxUnpool3D", 3, ("NCDHW", "NDHWC")

    def __init__(self, ksize, strides=0, pads=0, output_shape=(), data_format="NCDHW"):
        self._configure(ksize, strides, pads, output_shape, data_format)


class UpsampleNearest3D(PrimitiveClass):
    """`UpsampleNearest3D()(x, output_size=None, scales=None)`: (N, C, D, H, W) resized by
    nearest neighbours to `output_size` or by `scales`."""

    def __call__(self, x, output_size=None, scales=None):
        return upsample3d(x, "UpsampleNearest3D", output_size, scales, False)


class UpsampleTrilinear3D(PrimitiveClass):
    """`UpsampleTrilinear3D(align_corners=False)(x, output_size=None, scales=None)`:
    (N, C, D, H, W) resized by trilinear interpolation (pixel centres unless
    align_corners)."""

    def __init__(self, align_corners=False):
        from cellgraph import _checkparam as validator
        self.align_corners = validator.check_value_type("align_corners", align_corners, [bool],
                                                        "UpsampleTrilinear3D")

    def __call__(self, x, output_size=None, scales=None):
        return upsample3d(x, "UpsampleTrilinear3D", output_size, scales, True,
                          self.align_corners)


__all__ += ["MaxPool3DWithArgmax", "MaxPoolWithArgmaxV2", "MaxUnpool2D", "MaxUnpool3D",
            "UpsampleNearest3D", "UpsampleTrilinear3D"]


_SAMPLER_INIT = {"interpolation_mode": "bilinear", "padding_mode": "zeros",
                 "align_corners": False}


GridSampler2D = define_class("GridSampler2D", grid_sampler_impl, _SAMPLER_INIT, module=__name__)


GridSampler3D = define_class("GridSampler3D", grid_sampler_impl, _SAMPLER_INIT, module=__name__)


FlashAttentionScore = define_class("FlashAttentionScore", _flash_attention_class,
                                   {"head_num": inspect.Parameter.empty, "keep_prob": 1.0, "scale_value": 1.0,
                                    "pre_tokens": 2147483647, "next_tokens": 2147483647,
                                    "inner_precise": 0, "input_layout": "BSH", "sparse_mode": 0},
                                   module=__name__)


RmsNorm = define_class("RmsNorm", _rms_norm, {"epsilon": 1e-6}, module=__name__)


Conv3D = require(define_class(
    "Conv3D", _conv3d_class,
    {"out_channel": None, "kernel_size": None, "mode": 1, "pad_mode": "valid", "pad": 0,
     "stride": 1, "dilation": 1, "group": 1, "data_format": "NCDHW"}, module=__name__),
    "out_channel", "kernel_size")


class Conv3DTranspose(PrimitiveClass):
    """`Conv3DTranspose(in_channel, out_channel, kernel_size, mode=1, pad_mode='valid', pad=0,
    stride=1, dilation=1, group=1, output_padding=0, data_format='NCDHW')(dout, weight)`: the
    transposed 3-D convolution of (N, C_in, D, H, W) by a (C_in, C_out // group, kd, kh, kw)
    weight; `pad` is (head, tail, top, bottom, left, right)."""

    def __init__(self, in_channel, out_channel, kernel_size, mode=1, pad_mode="valid", pad=0,
                 stride=1, dilation=1, group=1, output_padding=0, data_format="NCDHW"):
        from cellgraph import _checkparam as validator
        op = "Conv3DTranspose"
        self.in_channel = validator.check_positive_int(in_channel, "in_channel", op)
        self.out_channel = validator.check_positive_int(out_channel, "out_channel", op)
        self.kernel_size = window_ints(kernel_size, 3, op, "kernel_size")
        self.stride = window_ints(stride, 3, op, "stride")
        self.dilation = window_ints(dilation, 3, op, "dilation")
        if self.dilation[0] != 1:
            raise ValueError(f"For '{op}', the depth of parameter 'dilation' must be 1, but got "
                             f"{self.dilation[0]}.")
        validator.check_value_type("pad", pad, (int, tuple), op)
        validator.check_value_type("pad_mode", pad_mode, [str], op)
        pads = (pad,) * 6 if isinstance(pad, int) else tuple(pad)
        if len(pads) != 6:
            raise ValueError(f"For '{op}', attr 'pad' must be an positive int number or a tuple "
                             f"of six positive int numbers, but got {pad}.")
        self.pad_mode = validator.check_string(pad_mode.lower(), ["valid", "same", "pad"],
                                               "pad_mode", op)
        if self.pad_mode != "pad" and pads != (0,) * 6:
            raise ValueError(f"For '{op}', the 'pad' must be zero or (0, 0, 0, 0, 0, 0) when "
                             f"'pad_mode' is not \"pad\", but got 'pad' is {pad} and "
                             f"'pad_mode' is {pad_mode}.")
        for item in pads:
            validator.check_non_negative_int(item, "pad item", op)
        self.pad_list = pads
        self.mode = validator.check_equal_int(mode, 1, "mode", op)
        validator.check_value_type("group", group, (int,), op)
        validator.check_int_range(group, 1, out_channel, validator.INC_BOTH, "group", op)
        if out_channel % group:
            raise ValueError("The argument 'group' should be divisible by 'out_channel'")
        self.group = group
        self.format = validator.check_string(data_format, ["NCDHW"], "format", op)
        self.output_padding = window_ints(output_padding, 3, op, "output_padding", False)
        if self.pad_mode != "pad" and self.output_padding != (0, 0, 0):
            raise ValueError(f"For '{op}', the 'output_padding' must be zero or (0, 0, 0) when "
                             f"'pad_mode' is not \"pad\", but got 'output_padding' is "
                             f"{output_padding} and 'pad_mode' is {pad_mode}.")

    def __call__(self, dout, weight, bias=None):
        if bias is not None:
            raise TypeError("For 'Conv3DTranspose', the 'bias' must be None (it is not "
                            "supported), but got a value.")
        return conv_transpose3d(dout, weight, None, self.stride, self.pad_mode, self.pad_list,
                                self.dilation, self.group, self.output_padding)


__all__ += ["Conv3DTranspose"]


Conv2DTranspose = require(define_class("Conv2DTranspose", _conv2d_transpose_class,
                                       _TRANSPOSE_INIT, module=__name__),
                          "out_channel", "kernel_size")


Conv2DBackpropInput = require(define_class("Conv2DBackpropInput", _conv2d_transpose_class,
                                           _TRANSPOSE_INIT, module=__name__),
                              "out_channel", "kernel_size")


CTCLossV2 = define_class("CTCLossV2", _ctc_loss_v2,
                         {"blank": 0, "reduction": "none", "zero_infinity": False}, module=__name__)


class Flatten(PrimitiveClass):
    """(N, ...) -> (N, prod(...))."""

    def __call__(self, input_x):
        shape = abstract_of(input_x).shape
        return F.reshape(input_x, (shape[0] if shape else 1, -1))


class MaxPool3D(PrimitiveClass):
    """`ops.MaxPool3D(kernel_size, strides, pad_mode, pad_list)(x)` over (N, C, D, H, W)."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="VALID", pad_list=0, ceil_mode=None,
                 data_format="NCDHW"):
        if str(pad_mode).upper() not in ("VALID", "PAD", "SAME") or ceil_mode or \
                data_format != "NCDHW":
            raise ArgumentValueError(f"MaxPool3D: pad_mode {pad_mode!r}, ceil_mode and layouts "
                                     f"other than NCDHW are not supported (use 'VALID', 'SAME' "
                                     f"or 'PAD')")
        self.kernel_size, self.strides, self.pad_list = kernel_size, strides, pad_list
        self.pad_mode = str(pad_mode).upper()

    def __call__(self, x):
        if self.pad_mode == "SAME":
            return same_max_pool3d(x, self.kernel_size, self.strides)
        return max_pool3d(x, self.kernel_size, self.strides, self.pad_list)


def _triple(value, name: str) -> tuple:
    items = (value,) * 3 if isinstance(value, int) else tuple(value)
    if len(items) == 5:  # (1, 1, d, h, w), as MindSpore also takes it
        items = items[2:]
    if len(items) != 3 or any(isinstance(v, bool) or not isinstance(v, int) or v < 1
                              for v in items):
        raise ArgumentValueError(f"For 'AvgPool3D', '{name}' must be a positive int or a tuple "
                                 f"of three, got {value!r}")
    return items


class AvgPool3D(PrimitiveClass):
    """`ops.AvgPool3D(kernel_size, strides, pad_mode, pad, ...)(x)` over (N, C, D, H, W):
    pad_mode "valid", "same" (MindSpore's split, the extra on the far side) or "pad" (`pad`:
    an int or (front, back, top, bottom, left, right)); without count_include_pad a window
    averages its input positions only; divisor_override, when not 0, divides every sum."""

    def __init__(self, kernel_size=1, strides=1, pad_mode="valid", pad=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=0, data_format="NCDHW"):
        mode = str(pad_mode).lower()
        if mode not in ("valid", "same", "pad"):
            raise ArgumentValueError(f"For 'AvgPool3D', pad_mode must be 'valid', 'same' or "
                                     f"'pad', got {pad_mode!r}")
        if ceil_mode or data_format != "NCDHW":
            raise ArgumentValueError("For 'AvgPool3D', ceil_mode and layouts other than NCDHW "
                                     "are not supported")
        pads = (pad,) * 6 if isinstance(pad, int) else tuple(pad)
        if mode != "pad" and any(pads):
            raise ArgumentValueError(f"For 'AvgPool3D', 'pad' must be 0 unless pad_mode is "
                                     f"'pad', got {pad!r}")
        self.kernel_size, self.strides = _triple(kernel_size, "kernel_size"), \
            _triple(strides, "strides")
        self.pad_mode, self.pad, self.ceil_mode = mode, pads, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override
        self.data_format = data_format

    def _pairs(self, spatial) -> list:
        if self.pad_mode == "pad":
            return [self.pad[2 * i:2 * i + 2] for i in range(3)]
        if self.pad_mode == "valid":
            return [(0, 0)] * 3
        pairs = []
        for size, k, s in zip(spatial, self.kernel_size, self.strides):
            total = max((-(-size // s) - 1) * s + k - size, 0)
            pairs.append((total // 2, total - total // 2))
        return pairs

    def __call__(self, x):
        pairs = self._pairs(tuple(x.shape[2:]))
        flat = tuple(p for pair in reversed(pairs) for p in pair)
        window = self.kernel_size[0] * self.kernel_size[1] * self.kernel_size[2]

        def window_sums(v):
            return F.mul(avg_pool3d(_pad(v, flat), self.kernel_size, self.strides, 0), window)

        total = window_sums(x)
        if self.divisor_override:
            return F.div(total, self.divisor_override)
        if self.count_include_pad or not any(flat):
            return F.div(total, window)
        return F.div(total, window_sums(F.ones_like(x)))


SoftmaxCrossEntropyWithLogits = function_class(
    "SoftmaxCrossEntropyWithLogits", softmax_cross_entropy_with_logits,
    "`ops.SoftmaxCrossEntropyWithLogits()(logits, labels)` -> (loss (N,), backprop (N, C)).")


class SparseSoftmaxCrossEntropyWithLogits(PrimitiveClass):
    """Mean cross entropy of logits (N, C) at class indices (N,); with `is_grad=True`, its
    gradient with respect to the logits instead."""

    def __init__(self, is_grad=False):
        self.is_grad = bool(is_grad)

    def __call__(self, logits, labels):
        if not abstract_of(labels).dtype.is_int:
            raise DTypeError(f"SparseSoftmaxCrossEntropyWithLogits: expected integer labels, "
                             f"got {abstract_of(labels).dtype}")
        classes = abstract_of(logits).shape[-1]
        # MindSpore raises RuntimeError for a negative label (and reads past the row for one
        # >= C): every label outside [0, C) raises when the graph runs
        labels = check_range(labels, low=0, high=max(classes, 1), what="label",
                             op="SparseSoftmaxCrossEntropyWithLogits")
        dense = F.cast(NF.one_hot(labels, classes, 1, 0, -1), abstract_of(logits).dtype)
        loss, grad = softmax_cross_entropy_with_logits(logits, dense)
        if self.is_grad:
            return M.div(grad, abstract_of(logits).shape[0])
        return F.reduce_mean(loss)

    def __repr__(self) -> str:
        return f"SparseSoftmaxCrossEntropyWithLogits(is_grad={self.is_grad})"


class SparseSoftmaxCrossEntropyWithLogitsV2(PrimitiveClass):
    """`SparseSoftmaxCrossEntropyWithLogitsV2()(logits, labels)` -> (loss (N,), backprop
    (N, C)): each row's cross entropy at its class index and its gradient with respect to the
    logits; a label outside [0, C) fails when the graph runs, as MindSpore's kernel."""

    def __init__(self):
        self._attrs = {}

    def __call__(self, logits, labels):
        op = "SparseSoftmaxCrossEntropyWithLogitsV2"
        for name, value, kinds in (("logits_type(features_type)", logits, (dt.float16, dt.float32)),
                                   ("labels_type", labels, (dt.int32, dt.int64))):
            check_tensor_dtype(op, name, abstract_of(value).dtype, kinds)
        shape, label_shape = abstract_of(logits).shape, abstract_of(labels).shape
        for what, got, want in (("dimension of labels", len(label_shape), 1),
                                ("dimension of logits(features)", len(shape), 2)):
            if got != want:
                raise ArgumentValueError(f"For primitive[{op}], the {what} must be equal to "
                                         f"{want}, but got {got}.")
        if shape[0] != label_shape[0]:
            raise ArgumentValueError(f"For primitive[{op}], the batch of logits(features) must "
                                     f"be equal to {label_shape[0]}, but got {shape[0]}.")
        classes = shape[1]
        labels = check_range(labels, low=0, high=max(classes, 1), what="label", op=op)
        dense = F.cast(NF.one_hot(labels, classes, 1, 0, -1), abstract_of(logits).dtype)
        return softmax_cross_entropy_with_logits(logits, dense)


SigmoidCrossEntropyWithLogits = function_class("SigmoidCrossEntropyWithLogits",
                                               sigmoid_cross_entropy_with_logits)


L2Loss = function_class("L2Loss", l2_loss)


def _nchw_only(op: str, data_format: str) -> None:
    if data_format != "NCHW":
        raise ArgumentValueError(f"{op}: only data_format='NCHW' is supported, got "
                                 f"{data_format!r}")


class Conv2D(PrimitiveClass):
    """`ops.Conv2D(out_channel, kernel_size, mode=1, pad_mode="valid", pad=0, stride=1,
    dilation=1, group=1)(x, weight)`: NCHW convolution with an OIHW weight."""

    _init_names, _defaults = _init(out_channel=None, kernel_size=None, mode=1, pad_mode="valid",
                                   pad=0, stride=1, dilation=1, group=1,
                                   data_format="NCHW")

    __signature__ = inspect.Signature([  # the init arguments, as the base class shows them
        inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=v)
        for k, v in _defaults.items()])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        NF.check_conv2d_padding(self.pad_mode, self.pad)  # MindSpore's checks, when made

    def __call__(self, x, weight):
        _nchw_only("Conv2D", self.data_format)
        kernel = NF._pair(self.kernel_size, "Conv2D", "kernel_size")
        wshape = abstract_of(weight).shape
        if len(wshape) == 4 and (wshape[0] != self.out_channel or tuple(wshape[2:]) != kernel):
            raise ShapeError(f"Conv2D: weight of shape {fmt_shape(wshape)} does not match "
                             f"out_channel={self.out_channel} and kernel_size={kernel}")
        return NF.conv2d(x, weight, None, self.stride, self.pad_mode, self.pad, self.dilation,
                         self.group)


require(Conv2D, "out_channel", "kernel_size")


class MaxPool(PrimitiveClass):
    """`ops.MaxPool(kernel_size=1, strides=1, pad_mode="valid")(x)`: max over NCHW windows."""

    _init_names, _defaults = _init(kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW")
    _prim, _extra = C.max_pool2d, {}

    def __call__(self, x):
        op = type(self).__name__
        _nchw_only(op, self.data_format)
        return NF._pool(self._prim, op, x, self.kernel_size, self.strides, self.pad_mode, 0,
                        **self._extra)


class MaxPoolWithArgmax(MaxPool):
    """`ops.MaxPoolWithArgmax(kernel_size=1, strides=1, pad_mode="valid")(x)`: (max over NCHW
    windows, int32 index of each maximum among its sample's C*H*W input values, the first
    one in a tie), as MindSpore's CPU kernel. pad_mode "same" gives ceil(size / stride)
    windows with all the padding after the input, as that kernel does. MindSpore's checks: a
    Tensor of float, int8/16/64 or uint dtype (not int32 or bool), of rank 4."""

    _valid = (dt.float16, dt.float32, dt.float64, dt.int8, dt.int16, dt.int64, dt.uint8,
              dt.uint16, dt.uint32, dt.uint64)

    def __call__(self, x):
        op = "MaxPoolWithArgmax"
        if self.data_format != "NCHW":
            raise ArgumentValueError(f"For '{op}', the 'NHWC' format is only supported in GPU "
                                     f"target, but got the 'data_format' is "
                                     f"{self.data_format} and the platform is CPU.")
        if not hasattr(x, "aval"):
            raise not_tensor_error(op, "input", x)
        check_tensor_dtype(op, "input", x.dtype, self._valid)
        if not x.dtype.is_float:  # MindSpore's CPU kernel: float types only (a TypeError too)
            raise DTypeError(f"For '{op}', the CPU kernel takes float16, float32 or float64, "
                             f"but got Tensor[{x.dtype}].")
        if len(x.shape) != 4:
            raise ShapeError(f"For primitive[{op}], the x_rank must be equal to 4, but got "
                             f"{len(x.shape)}.")
        kernel, stride = _pair_of_positive_ints(op, "kernel_size", self.kernel_size), \
            _pair_of_positive_ints(op, "strides", self.strides)
        size = tuple(x.shape[2:])
        if str(self.pad_mode).lower() == "same":
            outs = [-(-n // s) for n, s in zip(size, stride)]
            totals = [max(0, (o - 1) * s + k - n)
                      for o, s, k, n in zip(outs, stride, kernel, size)]
        else:
            outs = [(n - k) // s + 1 for n, k, s in zip(size, kernel, stride)]
            totals = [0, 0]
        if min(outs) < 1:
            raise ShapeError(f"For '{op}', kernel_size {tuple(kernel)} with strides "
                             f"{tuple(stride)} leaves no output for the input of height and "
                             f"width {size} (output shape {tuple(x.shape[:2]) + tuple(outs)})")
        before = [0, 0]
        lowest = float("-inf") if x.dtype.is_float else int(_np.iinfo(x.dtype.np).min)
        padded = pad_pairs_mode(x, ((0, 0), (0, 0), (before[0], totals[0] - before[0]),
                                    (before[1], totals[1] - before[1])), "constant", lowest,
                                op)
        values, index = max_pool_with_indices(padded, tuple(kernel), tuple(stride), 0,
                                              argmax_type=dt.int32)
        if totals[1]:  # positions in the padded plane -> in the input plane
            width = size[1] + totals[1]
            row = F.floor_div(index, width)
            index = F.add(F.mul(row, size[1]), F.sub(index, F.mul(row, width)))
        plane = size[0] * size[1]
        offsets = _np.arange(x.shape[1], dtype=_np.int32).reshape(1, -1, 1, 1) * plane
        from cellgraph.runtime.tensor import Tensor

        return values, F.add(index, Tensor(offsets))


class AvgPool(MaxPool):
    """`ops.AvgPool(kernel_size=1, strides=1, pad_mode="VALID")(x)`: mean over NCHW windows;
    with pad_mode="same" each window divides by its elements inside the input (TensorFlow's
    rule)."""

    _init_names, _defaults = _init(kernel_size=1, strides=1, pad_mode="VALID", data_format="NCHW")

    _prim, _extra = C.avg_pool2d, {"count_include_pad": False}


class BiasAdd(PrimitiveClass):
    """`ops.BiasAdd(data_format="NCHW")(x, bias)`: add a per-channel bias."""

    _init_names, _defaults = _init(data_format="NCHW")

    def __call__(self, x, bias):
        return NF.bias_add_in(x, bias, self.data_format)


# MindSpore's GeLU class computes the tanh approximation (ops.gelu's default is the erf form)
GeLU = GELU = define_class("GeLU", lambda x: NF.gelu(x, approximate="tanh"), module=__name__)


Softplus = define_class("Softplus", NF.softplus, module=__name__)


class Dropout(PrimitiveClass):
    """`ops.Dropout(keep_prob=0.5, Seed0=0, Seed1=0)(x)` -> (output, mask), the mask 0/1 in
    x's dtype: with a seed pair (nn.Dropout takes one when it is made, once a global seed is
    set), MindSpore's masks, carried on from run to run as its kernels carry them
    (`nn_func.basic.seeded_dropout`); with (0, 0), masks from the global generator."""

    _init_names, _defaults = _init(keep_prob=0.5, Seed0=0, Seed1=0)

    def __call__(self, x):
        return seeded_dropout(x, self.keep_prob, self.Seed0, self.Seed1,
                              self.__dict__.setdefault("_streams", {}))


class OneHot(PrimitiveClass):
    """`ops.OneHot(axis=-1)(indices, depth, on_value, off_value)`."""

    _init_names, _defaults = _init(axis=-1)

    def __call__(self, indices, depth, on_value, off_value):
        return NF.one_hot(indices, depth, on_value, off_value, self.axis)


class Pad(PrimitiveClass):
    """`ops.Pad(paddings)(x)`: zero padding, paddings[i] = (before, after) for axis i, each
    amount >= 0 (MindSpore's Pad does not crop)."""

    _init_names, _defaults = _init(paddings=None)

    def __call__(self, x):
        rank = abstract_of(x).ndim
        if len(self.paddings) != rank:
            raise ShapeError(f"For 'Pad', the length of 'paddings' must be equal to the rank of "
                             f"'input_x', but got {len(self.paddings)} vs {rank}")
        for axis, (before, after) in enumerate(self.paddings):
            if before < 0 or after < 0:
                raise ArgumentValueError(
                    f"For 'Pad', all elements of 'paddings' must be >= 0, but got "
                    f"paddings[{axis}][0] = {before}, paddings[{axis}][1] = {after}")
        return NF.pad_pairs(x, self.paddings)


def mirror_pad(x, pairs, mode: str):
    """Pad axis i of x by pairs[i] = (before, after) mirrored, in MindSpore's MirrorPad mode
    (REFLECT leaves the edge out, SYMMETRIC repeats it), with MirrorPad's checks."""
    shape = abstract_of(x).shape
    if len(pairs) != len(shape):
        raise ShapeError(f"For 'MirrorPad', the first dimension of 'paddings' must be equal to "
                         f"the rank of 'x', but got {len(pairs)} vs {len(shape)}")
    if any(before < 0 or after < 0 for before, after in pairs):
        raise ArgumentValueError("For 'MirrorPad', all elements of paddings must be >= 0.")
    for (before, after), size in zip(pairs, shape):
        for amount in (before, after):
            if mode == "REFLECT" and amount >= size:
                raise ArgumentValueError(f"For 'MirrorPad', paddings must be no greater than "
                                         f"the dimension size: [{amount}], [0] not less than "
                                         f"[{size}]")
            if mode == "SYMMETRIC" and amount > size:
                raise ArgumentValueError(f"For 'MirrorPad', paddings must be no greater than "
                                         f"the dimension size: [{amount}], [0] greater than "
                                         f"[{size}]")
    return pad_pairs_mode(x, pairs, mode.lower(), op="MirrorPad")


class MirrorPad(PrimitiveClass):
    """`ops.MirrorPad(mode='REFLECT')(x, paddings)`: `mirror_pad` by an int Tensor of shape
    (rank, 2) whose values are known when the graph is built."""

    def __init__(self, mode="REFLECT"):
        if mode not in ("REFLECT", "SYMMETRIC"):
            raise ArgumentValueError(f"For 'MirrorPad', the 'mode' must be str and must be in "
                                     f"'['REFLECT', 'SYMMETRIC']', but got '{mode}'.")
        self.mode = mode

    def __call__(self, x, paddings):
        if not hasattr(paddings, "aval"):
            raise not_tensor_error("MirrorPad", "paddings", paddings)
        check_tensor_dtype("MirrorPad", "paddings", abstract_of(paddings).dtype,
                           (dt.int32, dt.int64))
        flat = _host_ints(paddings)
        pairs = tuple(zip(flat[0::2], flat[1::2]))
        return mirror_pad(x, pairs, self.mode)

    def __repr__(self) -> str:
        return f"MirrorPad(mode={self.mode})"


require(Pad, "paddings")


class LayerNorm(PrimitiveClass):
    """`ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(x, gamma, beta)`
    -> (y, mean, variance), the statistics with x's rank (reduced axes kept as 1). As
    MindSpore's bprop (LayerNormGrad from dy alone), no gradient flows back through the mean
    and variance outputs: they are results to read, not to differentiate."""

    _init_names, _defaults = _init(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)

    def __call__(self, x, gamma, beta):
        ndim = abstract_of(x).ndim
        y, mean, variance = N.layer_norm(
            x, gamma, beta, begin_norm_axis=normalize_axis(self.begin_norm_axis, ndim),
            begin_params_axis=normalize_axis(self.begin_params_axis, ndim),
            epsilon=float(self.epsilon))
        return y, A.stop_gradient(mean), A.stop_gradient(variance)


class BatchNorm(PrimitiveClass):
    """`ops.BatchNorm(is_training=False, epsilon=1e-5, momentum=0.1)(x, scale, bias, mean,
    variance)` -> (y, batch_mean, batch_variance, reserve_space_1, reserve_space_2), as
    MindSpore's CPU kernel gives them.

    Training, the running statistics `mean` and `variance` (Parameters, a graph's inputs, or
    Tensors outside a graph) are updated in place to (1 - momentum) * running + momentum * batch (the variance
    unbiased); the reserve spaces hold the batch's mean and (biased) variance, and the two
    batch outputs are zeros (MindSpore's CPU kernel leaves them so). In inference `mean` and
    `variance` normalise the input and the four other outputs are zeros.
    """

    _init_names, _defaults = _init(is_training=False, epsilon=1e-5, momentum=0.1,
                                   data_format="NCHW")

    def __call__(self, input_x, scale, bias, mean, variance):
        from cellgraph.common.assign import assign

        x = input_x  # MindSpore's name for the operand (it may be passed by keyword)
        if self.data_format not in ("NCHW", "NHWC"):
            raise ArgumentValueError(f"BatchNorm: `data_format` must be 'NCHW' or 'NHWC', got "
                                     f"{self.data_format!r}")
        if not 0 <= self.momentum <= 1:
            raise ArgumentValueError(f"BatchNorm: `momentum` must be in [0, 1], got "
                                     f"{self.momentum}")
        rank = len(abstract_of(x).shape)
        channels_last = self.data_format == "NHWC" and rank > 2
        if channels_last:  # the channels moved to axis 1 and back: (N, ..., C) -> (N, C, ...)
            x = F.transpose(x, (0, rank - 1) + tuple(range(1, rank - 1)))
        y, batch_mean, batch_var = N.batch_norm(x, scale, bias, mean, variance,
                                                is_training=bool(self.is_training),
                                                epsilon=float(self.epsilon))
        if channels_last:
            y = F.transpose(y, (0,) + tuple(range(2, rank)) + (1,))
        zeros = M.mul(A.stop_gradient(batch_mean), 0.0)
        if not self.is_training:
            return y, zeros, zeros, zeros, zeros
        batch_mean, batch_var = A.stop_gradient(batch_mean), A.stop_gradient(batch_var)
        unbiased = M.mul(batch_var, _unbiased_scale(x))
        keep = 1.0 - self.momentum
        if _updatable(mean):
            assign(mean, M.add(M.mul(mean, keep), M.mul(batch_mean, self.momentum)))
        if _updatable(variance):
            assign(variance, M.add(M.mul(variance, keep), M.mul(unbiased, self.momentum)))
        return y, zeros, zeros, batch_mean, batch_var


def _updatable(running) -> bool:
    """Whether BatchNorm can update `running` in place: a Parameter, a graph's input, or any
    Tensor outside a graph (a Tensor a graph captured as a constant keeps its values)."""
    from cellgraph.compiler.builder import Tracer, current_builder, is_parameter

    return current_builder() is None or is_parameter(running) or isinstance(running, Tracer)


def _unbiased_scale(x):
    """count / (count - 1) for the values per channel of NCHW `x` (1 for a single value); read
    from the run-time shape where the graph's shape has unknown dimensions."""
    count = N.count_over(x, (0,) + tuple(range(2, len(abstract_of(x).shape))))
    if isinstance(count, float):
        return count / max(count - 1.0, 1.0)
    return M.div(count, M.maximum(M.sub(count, 1.0), 1.0))


class BinaryCrossEntropy(PrimitiveClass):
    """`ops.BinaryCrossEntropy(reduction)(logits, labels, weight=None)` on probabilities."""

    def __init__(self, reduction="mean"):
        self.reduction = reduction

    def __call__(self, logits, labels, weight=None):
        return binary_cross_entropy(logits, labels, weight, self.reduction)


class NLLLoss(PrimitiveClass):
    """`ops.NLLLoss(reduction, ignore_index)(logits, labels, weight)` -> (loss, total_weight),
    total_weight being the summed class weights of the targets that count."""

    def __init__(self, reduction="mean", ignore_index=-100):
        self.reduction, self.ignore_index = reduction, ignore_index

    def __call__(self, logits, labels, weight):
        labels = checked_labels("NLLLoss", labels, logits.shape[1], self.ignore_index)
        loss = nll_loss(logits, labels, weight, self.ignore_index, self.reduction)
        counted = F.cast(F.not_equal(labels, self.ignore_index), weight.dtype)
        safe = F.select(F.not_equal(labels, self.ignore_index), labels, F.zeros_like(labels))
        return loss, F.reduce_sum(F.mul(F.gather(weight, safe, 0), counted))


# classes over compositions (MindSpore's own; their values checked against MindSpore's)
_COMPOSITION_CLASSES = {"ReLU6": relu6, "PReLU": prelu, "SeLU": selu, "Mish": mish,
                        "Softsign": softsign, "HSigmoid": hardsigmoid, "FastGeLU": fast_gelu}
define_classes(globals(), _COMPOSITION_CLASSES, __name__)
CeLU = define_class("CeLU", lambda x, alpha=1.0: celu(x, alpha), {"alpha": 1.0},
                    module=__name__)


class InTopK(PrimitiveClass):
    """`InTopK(k)(x1, x2)`: whether x2[i] is among the k largest of row x1[i]."""

    def __init__(self, k):
        self.k = k

    def __call__(self, x1, x2):
        return intopk(x1, x2, self.k)

    def __repr__(self) -> str:
        return f"InTopK(k={self.k})"


SmoothL1Loss = define_class("SmoothL1Loss", lambda logits, labels, beta=1.0, reduction="none":
                            smooth_l1_loss(logits, labels, beta, reduction),
                            {"beta": 1.0, "reduction": "none"}, module=__name__)
BCEWithLogitsLoss = define_class(
    "BCEWithLogitsLoss", lambda logits, label, weight=None, pos_weight=None, reduction="mean":
    binary_cross_entropy_with_logits(logits, label, weight, pos_weight, reduction),
    {"reduction": "mean"}, module=__name__)
Pdist = define_class("Pdist", lambda x, p=2.0: pdist(x, p), {"p": 2.0}, module=__name__)
__all__ += ["AvgPool3D", "BCEWithLogitsLoss", "Dense", "Dropout3D", "CeLU", "InTopK", "Pdist",
            "SmoothL1Loss"] + list(_COMPOSITION_CLASSES)


class DepthwiseConv2dNative(PrimitiveClass):
    """MindSpore's deprecated Ascend depthwise convolution (nn.Conv2d with group = channels is
    its replacement). As MindSpore on CPU, a call checks the arguments and the inputs (its
    errors: dtypes first, then the shapes: x and w of rank 4, w (1, C, *kernel_size)) and then
    fails with its RuntimeError: neither has a CPU kernel for it."""

    def __init__(self, channel_multiplier, kernel_size, mode=3, pad_mode="valid", pad=0,
                 stride=1, dilation=1, group=1):
        from cellgraph import _checkparam as validator

        name = "DepthwiseConv2dNative"
        self.kernel_size = _pair_of_positive_ints(name, "kernel_size", kernel_size)
        self.stride = _pair_of_positive_ints(name, "stride", stride)
        if self.stride[0] != self.stride[1]:
            raise ArgumentValueError(f"The height and width of 'stride' must be equal,but got "
                                     f"height:{self.stride[0]},  width:{self.stride[1]}")
        self.dilation = _pair_of_positive_ints(name, "dilation", dilation)
        if self.dilation[0] != self.dilation[1]:
            raise ArgumentValueError(f"The height and width of 'dilation' must be equal,but "
                                     f"got height:{self.dilation[0]},  "
                                     f"width:{self.dilation[1]}")
        validator.check_value_type("pad", pad, (int, tuple), name)
        validator.check_value_type("pad_mode", pad_mode, [str], name)
        pads = (pad,) * 4 if isinstance(pad, int) else pad
        if len(pads) != 4:
            raise ArgumentValueError(f"For '{name}', the 'pad size' must be int and must = 4, "
                                     f"but got '{len(pads)}' with type 'int'.")
        if pad_mode.lower() not in ("valid", "same", "pad"):
            raise ArgumentValueError(f"For '{name}', the 'pad_mode' must be str and must be in "
                                     f"'['valid', 'same', 'pad']', but got '{pad_mode}'.")
        self.pad_mode = pad_mode.lower()
        if self.pad_mode != "pad" and pads != (0, 0, 0, 0):
            raise ArgumentValueError(f"For '{name}', the 'pad' must be zero or (0, 0, 0, 0) when "
                                     f"'pad_mode' is not \"pad\", but got 'pad' is {pad} and "
                                     f"'pad_mode' is {pad_mode}.")
        if self.pad_mode == "pad":
            for item in pads:
                validator.check_non_negative_int(item, "pad item", name)
        if isinstance(mode, bool) or mode != 3:
            raise ArgumentValueError(f"For '{name}', the 'mode' must be int and must = 3, but got "
                                     f"'{mode}' with type '{type(mode).__name__}'.")
        self.padding, self.mode = pads, mode
        self.channel_multiplier = validator.check_positive_int(channel_multiplier,
                                                               "channel_multiplier", name)
        self.group = validator.check_positive_int(group, "group", name)

    def __call__(self, x, w):
        name = "DepthwiseConv2dNative"
        for arg, value in (("x", x), ("w", w)):
            if not hasattr(value, "aval") or value.dtype.is_bool or value.dtype.is_complex:
                kind = value.dtype if hasattr(value, "aval") else type(value).__name__
                raise DTypeError(f"For '{name}', the element of '{arg}' must be a Tensor of an "
                                 f"int, uint or float type, but got {kind}.")
        if x.dtype != w.dtype:
            raise DTypeError(f"For '{name}', the type of 'w' should be same as 'x', but got 'x' "
                             f"with type Tensor[{x.dtype}] and 'w' with type Tensor[{w.dtype}].")
        for what, value in (("weight rank", w), ("x rank", x)):
            if len(value.shape) != 4:
                raise ShapeError(f"For '{name}', the '{what}' must be int and must = 4, but got "
                                 f"'{len(value.shape)}' with type 'int'.")
        if x.shape[1] != w.shape[1]:
            raise ShapeError(f"For '{name}', the 'x_shape[1]' should be = w_shape[1]: "
                             f"{w.shape[1]}, but got {x.shape[1]}.")
        if tuple(self.kernel_size) != tuple(w.shape[2:4]):
            raise ShapeError(f"For '{name}', the 'kernel_size' should be = w_shape[2:4]: "
                             f"{tuple(w.shape[2:4])}, but got {tuple(self.kernel_size)}.")
        if w.shape[0] != 1:
            raise ShapeError(f"For '{name}', the batch of 'weight' must be 1, but got "
                             f"{w.shape[0]}")
        raise RunError(f"Unsupported op [{name}] on CPU: an Ascend-only kernel (MindSpore on "
                       f"CPU has none either); use nn.Conv2d with group equal to the channels")


class DynamicRNN(PrimitiveClass):
    """MindSpore's Ascend LSTM over a whole sequence (nn.LSTM is its portable form). The
    constructor checks its arguments as MindSpore's does (only an unidirectional, time-major
    tanh LSTM); as MindSpore on CPU, a call then fails with its RuntimeError: neither has a CPU
    kernel for it."""

    def __init__(self, cell_type="LSTM", direction="UNIDIRECTIONAL", cell_depth=1,
                 use_peephole=False, keep_prob=1.0, cell_clip=-1.0, num_proj=0,
                 time_major=True, activation="tanh", forget_bias=0.0, is_training=True):
        from cellgraph import _checkparam as validator

        name = "DynamicRNN"
        self.forget_bias = validator.check_value_type("forget_bias", forget_bias, [float], name)
        self.cell_depth = validator.check_value_type("cell_depth", cell_depth, [int], name)
        self.keep_prob = validator.check_value_type("keep_prob", keep_prob, [float], name)
        validator.check_number_range(keep_prob, 0.0, 1.0, validator.INC_BOTH, float, "keep_prob")
        self.cell_clip = validator.check_value_type("cell_clip", cell_clip, [float], name)
        self.num_proj = validator.check_non_negative_int(num_proj, "num_proj", name)
        self.use_peephole = validator.check_value_type("use_peephole", use_peephole, [bool],
                                                       name)
        self.time_major = validator.check_value_type("time_major", time_major, [bool], name)
        validator.check("time_major", time_major, "the supported value", True, validator.EQ, name)
        self.is_training = validator.check_value_type("is_training", is_training, [bool], name)
        for arg, value, allowed in (("cell_type", cell_type, "LSTM"),
                                    ("direction", direction, "UNIDIRECTIONAL"),
                                    ("activation", activation, "tanh")):
            validator.check_value_type(arg, value, [str], name)
            setattr(self, arg, validator.check_string(value, [allowed], arg, name))

    def __call__(self, x, w, b, seq_length, init_h, init_c):
        raise RunError("Unsupported op [DynamicRNN] on CPU: an Ascend-only kernel (MindSpore on "
                       "CPU has none either); use nn.LSTM")


class DeformableOffsets(PrimitiveClass):
    """`ops.DeformableOffsets(strides, pads, ksize, ...)(x, offsets)`: `deformable_offsets`."""

    def __init__(self, strides, pads, ksize, dilations=(1, 1, 1, 1), data_format="NCHW",
                 deformable_groups=1, modulated=True):
        self.strides, self.pads, self.ksize, self.dilations = strides, pads, ksize, dilations
        self.data_format, self.deformable_groups = data_format, deformable_groups
        self.modulated = modulated

    def __call__(self, x, offsets):
        return deformable_offsets(x, offsets, self.strides, self.pads, self.ksize,
                                  self.dilations, self.data_format, self.deformable_groups,
                                  self.modulated)


LRN = define_class("LRN", lrn, {"depth_radius": 5, "bias": 1.0, "alpha": 1.0, "beta": 0.5,
                               "norm_region": "ACROSS_CHANNELS"}, module=__name__)


_FRACTIONAL_INIT = {"pooling_ratio": REQUIRED, "pseudo_random": False, "overlapping": False,
                    "deterministic": False, "seed": 0, "seed2": 0}
FractionalAvgPool = define_class("FractionalAvgPool", fractional_avg_pool, _FRACTIONAL_INIT,
                                 module=__name__)
FractionalMaxPool = define_class("FractionalMaxPool", fractional_max_pool, _FRACTIONAL_INIT,
                                 module=__name__)


class FractionalMaxPoolWithFixedKsize(PrimitiveClass):
    """`ops.FractionalMaxPoolWithFixedKsize(ksize, output_shape, data_format="NCHW")(input_x,
    random_samples)`: (y, argmax) of fixed-size windows placed by random_samples
    (`fractional_max_pool_with_fixed_ksize`)."""

    def __init__(self, ksize, output_shape, data_format="NCHW"):
        self.ksize, self.output_shape, self.data_format = ksize, output_shape, data_format

    def __call__(self, input_x, random_samples):
        return fractional_max_pool_with_fixed_ksize(input_x, random_samples, self.ksize,
                                                    self.output_shape, self.data_format)

    def __repr__(self) -> str:
        return (f"FractionalMaxPoolWithFixedKsize(ksize={self.ksize}, "
                f"output_shape={self.output_shape}, data_format={self.data_format!r})")


class FractionalMaxPool3DWithFixedKsize(PrimitiveClass):
    """`ops.FractionalMaxPool3DWithFixedKsize(ksize, output_shape, data_format="NCDHW")(x,
    random_samples)`: (y, argmax) of fixed-size 3-D windows placed by random_samples
    (`fractional_max_pool3d_with_fixed_ksize`)."""

    def __init__(self, ksize, output_shape, data_format="NCDHW"):
        from cellgraph import _checkparam as validator
        self.data_format = validator.check_string(data_format, ["NCDHW", "NDHWC"],
                                                  "data_format",
                                                  "FractionalMaxPool3DWithFixedKsize")
        self.ksize, self.output_shape = ksize, output_shape

    def __call__(self, x, random_samples):
        return fractional_max_pool3d_with_fixed_ksize(x, random_samples, self.ksize,
                                                      self.output_shape, self.data_format)


class LSTM(PrimitiveClass):
    """`ops.LSTM(input_size, hidden_size, num_layers, has_bias, bidirectional, dropout,
    proj_size=0)(x, h, c, w)` -> (output, h_n, c_n, reserve, state): the LSTM of the packed
    weight `w` (`packed_lstm`). `dropout` drops each layer's output but the last's, as
    MindSpore documents it (its CPU kernel skips it). `reserve` and `state` are the workspaces
    MindSpore's kernel hands its gradient kernel; the gradient here needs none, so they are
    (1, 1) zeros."""

    def __init__(self, input_size, hidden_size, num_layers, has_bias, bidirectional, dropout,
                 proj_size=0):
        from cellgraph import _checkparam as validator
        op = "LSTM"
        self.input_size = validator.check_positive_int(input_size, "input_size", op)
        self.hidden_size = validator.check_positive_int(hidden_size, "hidden_size", op)
        self.proj_size = validator.check_int_range(proj_size, 0, hidden_size,
                                                   validator.INC_LEFT, "proj_size", op)
        self.num_layers = validator.check_positive_int(num_layers, "num_layers", op)
        self.has_bias = validator.check_value_type("has_bias", has_bias, (bool,), op)
        self.bidirectional = validator.check_value_type("bidirectional", bidirectional, (bool,),
                                                        op)
        validator.check_value_type("dropout", dropout, [float], op)
        self.dropout = validator.check_float_range(dropout, 0, 1, validator.INC_BOTH, "dropout",
                                                   op)
        self.num_directions = 2 if bidirectional else 1

    def __call__(self, x, h, c, w):
        output, h_n, c_n = packed_lstm(x, h, c, w, self.input_size, self.hidden_size,
                                       self.num_layers, self.has_bias, self.bidirectional,
                                       self.dropout, self.proj_size, training=True)
        workspace = F.zeros((1, 1), abstract_of(x).dtype)
        return output, h_n, c_n, workspace, workspace


class DataFormatDimMap(PrimitiveClass):
    """`ops.DataFormatDimMap(src_format="NHWC", dst_format="NCHW")(x)`: each axis index x
    (taken modulo 4) of `dst_format` mapped to the index of the same letter in `src_format`,
    in x's dtype (int32 or int64)."""

    _FORMATS = ("NHWC", "NCHW")

    def __init__(self, src_format="NHWC", dst_format="NCHW"):
        for name, value in (("src_format", src_format), ("dst_format", dst_format)):
            if not isinstance(value, str) or value not in self._FORMATS:
                raise ArgumentValueError(f"For 'DataFormatDimMap', the '{name}' must be str and "
                                         f"must be in '{list(self._FORMATS)}', but got "
                                         f"'{value}'.")
        self.src_format, self.dst_format = src_format, dst_format

    def __call__(self, x):
        dtype = check_tensor_type("DataFormatDimMap", "input type", x, (dt.int32, dt.int64))
        table = _np.array([self.src_format.index(c) for c in self.dst_format])
        return F.gather(_const(table, dtype), floor_mod(x, _const(4, dtype)), 0)

    def __repr__(self) -> str:
        return (f"DataFormatDimMap(src_format={self.src_format!r}, "
                f"dst_format={self.dst_format!r})")


def _pair_of_positive_ints(op, name, value) -> tuple:
    items = (value, value) if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(items, tuple) or len(items) != 2 or any(
            isinstance(v, bool) or not isinstance(v, int) or v <= 0 for v in items):
        raise ArgumentValueError(f"For '{op}' attr '{name}' must be an positive int number or a "
                                 f"tuple of two positive int numbers, but got {value}")
    return items


__all__ += ["LRN", "DataFormatDimMap", "DeformableOffsets", "DepthwiseConv2dNative", "DynamicRNN",
            "MaxPoolWithArgmax"]
__all__ += [
    "LSTM",
    "FractionalMaxPool3DWithFixedKsize",
    "FractionalMaxPoolWithFixedKsize",
    "LARSUpdate",
]


# the classes derived from the primitives' declarations that MindSpore files here
class CTCGreedyDecoder(define_class("CTCGreedyDecoder", ctc_greedy_decoder,
                                    {"merge_repeated": True}, module=__name__)):
    """ops.CTCGreedyDecoder(merge_repeated=True)(inputs, sequence_length): its flag is checked
    when it is made."""

    def __init__(self, merge_repeated=True):
        check_merge_repeated(merge_repeated)
        super().__init__(merge_repeated)



def _ctc_loss_v1(x, labels_indices, labels_values, sequence_length, *,
                 preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                 ignore_longer_outputs_than_inputs=False):
    return tuple(_ctc_loss_p(x, labels_indices, labels_values, sequence_length,
                             preprocess_collapse_repeated=preprocess_collapse_repeated,
                             ctc_merge_repeated=ctc_merge_repeated,
                             ignore_longer_outputs_than_inputs=ignore_longer_outputs_than_inputs))


_CTC_FLAGS = {"preprocess_collapse_repeated": False, "ctc_merge_repeated": True,
              "ignore_longer_outputs_than_inputs": False}


class CTCLoss(define_class("CTCLoss", _ctc_loss_v1, _CTC_FLAGS, module=__name__)):
    """ops.CTCLoss(preprocess_collapse_repeated=False, ctc_merge_repeated=True,
    ignore_longer_outputs_than_inputs=False)(x, labels_indices, labels_values,
    sequence_length) -> (loss, gradient): the CTC loss of unnormalised scores (max_time,
    batch, classes), the last class the blank, against sparse labels; its flags are checked
    when it is made."""

    def __init__(self, preprocess_collapse_repeated=False, ctc_merge_repeated=True,
                 ignore_longer_outputs_than_inputs=False):
        flags = (preprocess_collapse_repeated, ctc_merge_repeated,
                 ignore_longer_outputs_than_inputs)
        for name, value in zip(_CTC_FLAGS, flags):
            if not isinstance(value, bool):
                raise DTypeError(f"For 'CTCLoss', the type of '{name}' should be 'bool', but "
                                 f"got type '{type(value).__name__}'.")
        super().__init__(*flags)


generate_classes(globals())

# MindSpore's older names of FastGeLU and GeLU
FastGelu, Gelu = FastGeLU, GeLU  # noqa: F821  (FastGeLU: from its declaration, just above)
__all__ += ["FastGelu", "Gelu"]


# ----- the classes of functional ops cellgraph computes (the call takes the operands) ----------

def _adaptive_max_pool2d(x, output_size):
    return adaptive_max_pool2d(x, output_size, True)


_FUNCTION_CLASSES = {
    "GLU": (glu, {"axis": -1}),
    "AdaptiveAvgPool2D": (adaptive_avg_pool2d, {"output_size": REQUIRED}),
    "AdaptiveAvgPool3D": (adaptive_avg_pool3d, {"output_size": REQUIRED}),
    "AdaptiveMaxPool2D": (_adaptive_max_pool2d, {"output_size": REQUIRED}),
    "SoftMarginLoss": (soft_margin_loss, {"reduction": "mean"}),
    "MultiMarginLoss": (lambda x, target, weight=None, p=1, margin=1.0, reduction="mean":
                        reduce_loss(multi_margin("MultiMarginLoss", x, target, p, float(margin),
                                                 weight), reduction),
                        {"p": 1, "margin": 1.0, "reduction": "mean"}),
    "TripletMarginLoss": (lambda x, positive, negative, margin, p=2, swap=False, eps=1e-06,
                          reduction="mean": triplet_margin_loss(
                              x, positive, negative, margin, p, eps, swap, reduction),
                          {"p": 2, "swap": False, "eps": 1e-06, "reduction": "mean"}),
    "MultilabelMarginLoss": (multilabel_margin, {"reduction": "mean"}),
    "ROIAlign": (lambda features, rois, pooled_height, pooled_width, spatial_scale, sample_num,
                 roi_end_mode: roi_align(features, rois, pooled_height, pooled_width,
                                         spatial_scale, sample_num, roi_end_mode),
                 {"pooled_height": REQUIRED, "pooled_width": REQUIRED,
                  "spatial_scale": REQUIRED, "sample_num": 2, "roi_end_mode": 1}),
}
define_classes(globals(), _FUNCTION_CLASSES, __name__)
__all__ += list(_FUNCTION_CLASSES)


# ----- MindSpore's deprecated classes its CPU kernels still run


class NthElement(PrimitiveClass):
    """`ops.NthElement(reverse=False)(input, n)`: the n-th smallest element (with reverse, the
    n-th largest) along the last axis, counted from 0; `n` an int or a 0-D int32 Tensor,
    read when the graph is built."""

    def __init__(self, reverse=False):
        self.reverse = check_value_type("reverse", reverse, [bool], "NthElement")
        self._attrs = {"reverse": reverse}

    def __call__(self, input, n):
        op = "For primitive[NthElement]"
        shape = abstract_of(input).shape
        if not shape:
            raise ArgumentValueError(f"{op}, the input shape must be greater than or equal to 1, "
                                     f"but got 0.")
        if is_tensor(n):
            aval = abstract_of(n)
            if aval.dtype != dt.int32 or aval.ndim != 0:
                raise tensor_dtype_error("NthElement", "n", (dt.int32,), _type_name(n))
            n = int(value_input(n, "NthElement", "n"))
        elif isinstance(n, bool) or not isinstance(n, int):
            raise DTypeError(f"{op}, the input argument[n] must be an int or a 0-D int32 Tensor, "
                             f"but got {type(n).__name__}.")
        if n < 0:
            raise ArgumentValueError(f"{op}, the n_value must be greater than or equal to 0, but "
                                     f"got {n}.")
        if n >= shape[-1]:
            raise ArgumentValueError(f"{op}, the n_value must be less than {shape[-1]}, but got "
                                     f"{n}.")
        return sort(input, -1, self.reverse)[0][..., n]


class DataFormatVecPermute(PrimitiveClass):
    """`ops.DataFormatVecPermute(src_format='NHWC', dst_format='NCHW')(input_x)`: the 4 entries
    (or 4 rows of 2) of `input_x`, given per dimension of `src_format`, reordered to
    `dst_format`'s dimensions."""

    def __init__(self, src_format="NHWC", dst_format="NCHW"):
        op = "DataFormatVecPermute"
        self.src_format = check_string(src_format, ["NHWC", "NCHW"], "src_format", op)
        self.dst_format = check_string(dst_format, ["NHWC", "NCHW"], "dst_format", op)
        self._attrs = {"src_format": src_format, "dst_format": dst_format}

    def __call__(self, input_x):
        op = "DataFormatVecPermute"
        check_tensor_type(op, "x", input_x, (dt.int32, dt.int64))
        shape = abstract_of(input_x).shape
        if shape not in ((4,), (4, 2)):
            raise ArgumentValueError(f"For {op}, input shape must be (4, ) or (4, 2), but got "
                                     f"{list(shape)}.")
        order = [self.src_format.index(axis) for axis in self.dst_format]
        return F.gather(input_x, Tensor(_np.array(order, _np.int32)), 0)


def _type_name(value) -> str:
    return f"Tensor[{abstract_of(value).dtype}]" if is_tensor(value) else type(value).__name__


class AdaptiveMaxPool3D(PrimitiveClass):
    """`ops.AdaptiveMaxPool3D()(x, output_size)`: `adaptive_max_pool3d` of a (C, D, H, W) or
    (N, C, D, H, W) real Tensor to `output_size`, a 1-D int32 Tensor of 3 sizes (read when the
    graph is built); (the maxima, their int32 flat indices in each (D, H, W) plane)."""

    def __init__(self):
        self._attrs = {}

    def __call__(self, x, output_size):
        op = "AdaptiveMaxPool3D"
        if not is_tensor(output_size):
            raise not_tensor_error(op, "output_size", output_size)
        check_tensor_dtype(op, "output_size", abstract_of(output_size).dtype, (dt.int32,))
        aval = abstract_of(x)
        if aval.ndim not in (4, 5):
            raise ArgumentValueError(f"For primitive[{op}], the rank of x must be in [4,5], but "
                                     f"got {aval.ndim}.")
        if abstract_of(output_size).shape != (3,):
            raise ArgumentValueError(f"For primitive[{op}], the shape of output_size must be "
                                     f"[3], but got {list(abstract_of(output_size).shape)}.")
        if aval.dtype.is_complex or aval.dtype == dt.bool_:
            raise DTypeError(f"For primitive[{op}], the input argument[x] must be a real number "
                             f"Tensor, but got {_type_name(x)}.")
        sizes = tuple(int(v) for v in value_input(output_size, op, "output_size"))
        values, indices = adaptive_max_pool3d(x, sizes, True)
        return values, F.cast(indices, dt.int32)


__all__ += ["AdaptiveMaxPool3D", "DataFormatVecPermute", "FractionalAvgPool", "FractionalMaxPool",
            "NthElement"]


class PSROIPooling(PrimitiveClass):
    """`ops.PSROIPooling(spatial_scale, group_size, output_dim)(features, rois)`:
    position-sensitive ROI pooling (`ps_roi_pooling`); the attributes checked when the class
    is made, as MindSpore checks them. MindSpore keeps it to this module (not in `__all__`, so
    not in ops.operations or ops), as here."""

    def __init__(self, spatial_scale, group_size, output_dim):
        from cellgraph import _checkparam as validator

        name = "PSROIPooling"
        validator.check_positive_float(spatial_scale, "spatial_scale", name)
        validator.check_positive_int(group_size, "group_size", name)
        validator.check_positive_int(output_dim, "output_dim", name)
        self.spatial_scale = spatial_scale
        self.group_size = group_size
        self.output_dim = output_dim
        self._attrs = {"spatial_scale": spatial_scale, "group_size": group_size,
                       "output_dim": output_dim}

    def __call__(self, *operands):
        if len(operands) != 2:
            raise DTypeError(f"For primitive[PSROIPooling], the inputs number must be 2, but "
                             f"got {len(operands)}.")
        return ps_roi_pooling(*operands, self.spatial_scale, self.group_size, self.output_dim)
