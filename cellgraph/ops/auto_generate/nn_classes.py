"""gen_ops_prim's activation, normalization, loss, convolution, pooling and resizing classes,
over mint.nn.functional's functions, each call taking MindSpore's call arguments. The
normalizations return what MindSpore's return: the output with the statistics it used (the
mean and the reciprocal standard deviation, per group or per normalized row)."""
from cellgraph import ops
from cellgraph.ops.primitive_class import define_class
from cellgraph.primitives.core import value_input
from cellgraph.primitives.errors import ArgumentValueError

from ._mint_lookup import functional

MODULE = "cellgraph.ops.auto_generate.gen_ops_prim"


def _elu(input, alpha=1.0):
    return functional().elu(input, alpha)


def _gelu(input, approximate="none"):
    return functional().gelu(input, approximate)


def _leaky_relu(input, negative_slope=0.01):
    return functional().leaky_relu(input, negative_slope)


def _softplus(input, beta=1, threshold=20):
    return functional().softplus(input, beta, threshold)


def _hardtanh(input, min_val=-1, max_val=1):
    return functional().hardtanh(input, min_val, max_val)


def _threshold(input, threshold, value):
    return functional().threshold(input, threshold, value)


def _log_softmax(input, dim=None, dtype=None):
    return functional().log_softmax(input, dim, dtype=dtype)


def _unary(name: str):
    """`Name()(input)`: mint.nn.functional's `name`."""
    def call(input):
        return getattr(functional(), name)(input)

    call.__name__ = call.__qualname__ = name
    return call


def _swiglu(input, dim=-1):
    return ops.swiglu(input, dim)


def _embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0,
               scale_grad_by_freq=False):
    return functional().embedding(input, weight, padding_idx, max_norm, norm_type,
                                  scale_grad_by_freq)


def _mean_rstd(x, axes: tuple, eps):
    """The mean and 1 / sqrt(biased variance + eps) of x over `axes`, kept as size-1 axes."""
    mean = x.mean(axis=axes, keep_dims=True)
    var = ops.square(x - mean).mean(axis=axes, keep_dims=True)
    return mean, ops.rsqrt(var + eps)


def _group_norm(input, num_groups, weight=None, bias=None, eps=1e-05):
    """(output, mean, rstd): the statistics per sample and group, shaped (N, num_groups). The
    number of groups sets the statistics' shape: a graph reads it when compiling (a
    `mutable` one passed to the graph, as MindSpore's graphs do)."""
    num_groups = int(value_input(num_groups, "GroupNorm", "num_groups"))
    out = functional().group_norm(input, num_groups, weight, bias, eps)
    grouped = input.reshape((input.shape[0], num_groups, -1))
    mean, rstd = _mean_rstd(grouped, (2,), eps)
    shape = (input.shape[0], num_groups)
    return out, mean.reshape(shape), rstd.reshape(shape)


def _layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05):
    """(output, mean, rstd): the statistics per normalized row, with size-1 trailing axes."""
    normalized_shape = tuple(normalized_shape)
    out = functional().layer_norm(input, normalized_shape, weight, bias, eps)
    axes = tuple(range(len(input.shape) - len(normalized_shape), len(input.shape)))
    mean, rstd = _mean_rstd(input, axes, eps)
    return out, mean, rstd


def _reduction(op: str, reduction):
    """The losses' reduction, one of MindSpore's enum ("batchmean" is mint's, not theirs)."""
    if reduction not in ("none", "mean", "sum"):
        raise ArgumentValueError(f"Failed to convert the value \"{reduction}\" of input "
                                 f"'reduction' of '{op}' to enum.")
    return reduction


def _l1_loss(input, target, reduction="mean"):
    return functional().l1_loss(input, target, _reduction("L1LossExt", reduction))


def _mse_loss(input, target, reduction="mean"):
    return functional().mse_loss(input, target, _reduction("MSELossExt", reduction))


def _kl_div(input, target, reduction="mean", log_target=False):
    return functional().kl_div(input, target, _reduction("KLDiv", reduction), log_target)


def _cosine_embedding_loss(input1, input2, target, margin=0.0, reduction="mean"):
    return functional().cosine_embedding_loss(input1, input2, target, margin,
                                              _reduction("CosineEmbeddingLoss", reduction))


def _nll_loss_2d(input, target, weight, reduction="mean", ignore_index=-100):
    """(loss, total_weight): the loss, and the sum of the weights of the targets not ignored
    (what a mean divides by)."""
    loss = functional().nll_loss(input, target, weight, ignore_index,
                                 _reduction("NLLLoss2d", reduction))
    classes = input.shape[1]
    weight = ops.ones((classes,), input.dtype) if weight is None else weight
    kept = ops.not_equal(target, ignore_index)
    picked = ops.gather(weight, ops.select(kept, target, ops.zeros_like(target)), 0)
    return loss, ops.select(kept, picked, ops.zeros_like(picked)).sum()


def _conv(dims: int, name: str):
    """Conv1DExt, Conv2DPadding, ...: mint.nn.functional's conv{dims}d (a padding by number
    or by name, "valid" or "same")."""
    def call(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
        conv = getattr(functional(), f"conv{dims}d")
        return conv(input, weight, bias, stride, padding, dilation, groups)

    call.__name__ = call.__qualname__ = name
    return call


def _conv_padding(dims: int, name: str):
    conv = _conv(dims, name)

    def call(input, weight, bias=None, stride=1, padding="valid", dilation=1, groups=1):
        return conv(input, weight, bias, stride, padding, dilation, groups)

    call.__name__ = call.__qualname__ = name
    return call


def _conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                      groups=1, dilation=1):
    return functional().conv_transpose2d(input, weight, bias, stride, padding, output_padding,
                                         groups, dilation)


def _convolution(input, weight, bias=None, stride=1, padding=0, dilation=1, transposed=False,
                 output_padding=0, groups=1):
    """A convolution of the weight's spatial rank (1 to 3), or the transposed 2-D one."""
    spatial = len(weight.shape) - 2
    if transposed:
        if spatial != 2:
            raise ArgumentValueError(f"For 'Convolution', a transposed convolution takes a 4-D "
                                     f"weight, but got a {len(weight.shape)}-D one")
        return _conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups,
                                 dilation)
    if spatial not in (1, 2, 3):
        raise ArgumentValueError(f"For primitive[Convolution], the weight rank must be equal "
                                 f"to [3, 5], but got {len(weight.shape)}.")
    return _conv(spatial, "convolution")(input, weight, bias, stride, padding, dilation, groups)


def _convolution_str(input, weight, bias=None, stride=1, padding="valid", dilation=1,
                     transposed=False, output_padding=0, groups=1):
    return _convolution(input, weight, bias, stride, padding, dilation, transposed,
                        output_padding, groups)


def _adaptive_avg_pool(dims: int):
    def call(input, output_size):
        return getattr(functional(), f"adaptive_avg_pool{dims}d")(input, output_size)

    call.__name__ = call.__qualname__ = f"adaptive_avg_pool{dims}d"
    return call


def _adaptive_max_pool1d(input, output_size):
    return functional().adaptive_max_pool1d(input, output_size, True)


def _avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
                count_include_pad=True):
    return functional().avg_pool1d(input, kernel_size, stride, padding, ceil_mode,
                                   count_include_pad)


def _avg_pool2d(input, kernel_size, stride, padding=0, ceil_mode=False, count_include_pad=True,
                divisor_override=None):
    return functional().avg_pool2d(input, kernel_size, stride, padding, ceil_mode,
                                   count_include_pad, divisor_override)


def _avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False,
                count_include_pad=True, divisor_override=None):
    return functional().avg_pool3d(input, kernel_size, stride, padding, ceil_mode,
                                   count_include_pad, divisor_override)


def _max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return functional().max_unpool2d(input, indices, kernel_size, stride, padding, output_size)


def _upsample(mode: str, name: str, corners: bool):
    """UpsampleNearest2D, UpsampleBilinear2D, ...: the input resized to `output_size`, or by
    `scales`; the interpolating modes take align_corners."""
    def resize(x, output_size, scales, align_corners):
        if (output_size is None) == (scales is None):
            raise ArgumentValueError(f"For '{name}', only one of 'output_size' and 'scales' "
                                     f"can be given, and one must be")
        size = None if output_size is None else tuple(output_size)
        scale = None if scales is None else tuple(scales)
        return functional().interpolate(x, size, scale, mode, align_corners)

    if corners:
        def call(x, output_size=None, scales=None, align_corners=False):
            return resize(x, output_size, scales, align_corners)
    else:
        def call(x, output_size=None, scales=None):
            return resize(x, output_size, scales, None)

    call.__name__ = call.__qualname__ = name
    return call


_TABLE = {
    "GeluExt": _gelu, "LeakyReLUExt": _leaky_relu, "SoftplusExt": _softplus,
    "SeLUExt": _unary("selu"), "MishExt": _unary("mish"), "LogSigmoid": _unary("logsigmoid"),
    "Hardtanh": _hardtanh, "Threshold": _threshold, "LogSoftmaxExt": _log_softmax,
    "Swiglu": _swiglu, "Embedding": _embedding, "GroupNorm": _group_norm,
    "LayerNormExt": _layer_norm, "L1LossExt": _l1_loss, "MSELossExt": _mse_loss,
    "KLDiv": _kl_div, "CosineEmbeddingLoss": _cosine_embedding_loss,
    "NLLLoss2d": _nll_loss_2d,
    "Conv1DExt": _conv(1, "conv1d_ext"), "Conv2DExt": _conv(2, "conv2d_ext"),
    "Conv3DExt": _conv(3, "conv3d_ext"), "Conv1DPadding": _conv_padding(1, "conv1d_padding"),
    "Conv2DPadding": _conv_padding(2, "conv2d_padding"),
    "Conv3DPadding": _conv_padding(3, "conv3d_padding"), "ConvTranspose2D": _conv_transpose2d,
    "Convolution": _convolution, "ConvolutionStr": _convolution_str,
    "AdaptiveAvgPool1D": _adaptive_avg_pool(1), "AdaptiveAvgPool2DExt": _adaptive_avg_pool(2),
    "AdaptiveAvgPool3DExt": _adaptive_avg_pool(3), "AdaptiveMaxPool1D": _adaptive_max_pool1d,
    "AvgPool1D": _avg_pool1d, "AvgPool2D": _avg_pool2d, "AvgPool3DExt": _avg_pool3d,
    "MaxUnpool2DExt": _max_unpool2d,
    "UpsampleNearest1D": _upsample("nearest", "upsample_nearest1d", False),
    "UpsampleNearest2D": _upsample("nearest", "upsample_nearest2d", False),
    "UpsampleLinear1D": _upsample("linear", "upsample_linear1d", True),
    "UpsampleBilinear2D": _upsample("bilinear", "upsample_bilinear2d", True),
}
# classes whose constructor takes some of the arguments: name -> (function, init defaults)
_CONFIGURED = {"EluExt": (_elu, {"alpha": 1.0})}

CLASSES = {name: define_class(name, fn, None, MODULE) for name, fn in _TABLE.items()}
CLASSES.update({name: define_class(name, fn, init, MODULE)
                for name, (fn, init) in _CONFIGURED.items()})
