"""make_gen_ops_fixtures.py's cases of gen_ops_prim's activation, normalization, loss,
convolution, pooling and resizing classes (cellgraph/ops/auto_generate/nn_classes.py)."""
import mindspore as ms
import numpy as np
from gen_ops_case_values import reference, t, tup

RNG = np.random.default_rng(7)
X = t([[0.5, -1.5, 2.0], [3.0, 0.25, -1.0]])
SIGNAL = t(RNG.standard_normal((2, 3, 6)))
IMAGE = t(RNG.standard_normal((1, 2, 5, 5)))
VOLUME = t(RNG.standard_normal((1, 2, 3, 4, 4)))
W1, W2, W3 = (t(RNG.standard_normal((4, 3, 3))), t(RNG.standard_normal((3, 2, 3, 3))),
              t(RNG.standard_normal((2, 2, 2, 2, 2))))
F = ms.ops


def _ops(name, positional=None, *keywords):
    """A reference: ops.name, the arguments after the first `positional` given by `keywords`."""
    def call(*args):
        split = len(args) if positional is None else positional
        return getattr(F, name)(*args[:split], **dict(zip(keywords, args[split:])))

    return reference(f"ops.{name}", call)


def _conv(name):
    """A reference: ops.conv1d/2d/3d, which take the padding's mode before its amounts."""
    def call(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        mode = padding if isinstance(padding, str) else "pad"
        amount = 0 if isinstance(padding, str) else padding
        return getattr(F, name)(x, w, b, stride, mode, amount, dilation, groups)

    return reference(f"ops.{name}", call)


def _elu(x, alpha):
    return F.select(x > 0, x, alpha * (F.exp(x) - 1))


def _swiglu(x):
    a, b = F.split(x, x.shape[-1] // 2, -1)
    return a * F.sigmoid(a) * b


def _conv_transpose2d(x, w, bias, stride, padding, output_padding):
    """The transposed convolution as the gradient of a convolution by its input
    (Conv2DBackpropInput), the output padding added on the bottom and right."""
    size = tuple((n - 1) * stride - 2 * padding + w.shape[2] + output_padding
                 for n in x.shape[2:])
    op = ms.ops.Conv2DBackpropInput(w.shape[1], w.shape[2], "pad",
                                    (padding, padding - output_padding, padding,
                                     padding - output_padding), stride=stride)
    return op(x, w, (x.shape[0], w.shape[1], *size))


def _group_norm(x, groups, weight, bias, eps):
    """ops.group_norm, and the statistics it divides by."""
    grouped = x.reshape(x.shape[0], groups, -1)
    mean = grouped.mean(axis=2)
    var = ((grouped - grouped.mean(axis=2, keep_dims=True)) ** 2).mean(axis=2)
    return F.group_norm(x, groups, weight, bias, eps), mean, F.rsqrt(var + eps)


def _layer_norm(x, shape, weight, bias, eps):
    """(x - mean) * rstd * weight + bias over the trailing `shape`, and the statistics."""
    axes = tuple(range(x.ndim - len(shape), x.ndim))
    mean = x.mean(axis=axes, keep_dims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keep_dims=True)
    rstd = F.rsqrt(var + eps)
    return (x - mean) * rstd * weight + bias, mean, rstd


def _nll_loss_2d(x, target, weight, reduction, ignore_index):
    loss = F.nll_loss(x, target, weight, ignore_index, reduction)
    kept = (target != ignore_index).astype(ms.float32)
    return loss, (F.gather(weight, target * (target != ignore_index).astype(ms.int32), 0)
                  * kept).sum()


# (case id, class, constructor keyword arguments, call arguments, reference or None)
CASES = [
    ("elu_ext", "EluExt", {"alpha": 0.5}, [X], reference("x, or alpha * (exp(x) - 1)",
                                                         lambda x: _elu(x, 0.5))),
    ("gelu_ext", "GeluExt", {}, [X], _ops("gelu")),
    ("gelu_ext_tanh", "GeluExt", {}, [X, "tanh"], _ops("gelu", 1, "approximate")),
    ("leaky_relu_ext", "LeakyReLUExt", {}, [X, 0.2], _ops("leaky_relu", 1, "alpha")),
    ("softplus_ext", "SoftplusExt", {}, [X, 2, 3], _ops("softplus", 1, "beta", "threshold")),
    ("selu_ext", "SeLUExt", {}, [X], _ops("selu")),
    ("mish_ext", "MishExt", {}, [X], _ops("mish")),
    ("log_sigmoid", "LogSigmoid", {}, [X], _ops("logsigmoid")),
    ("hardtanh", "Hardtanh", {}, [X, -0.5, 1.5], _ops("hardtanh", 1, "min_val", "max_val")),
    ("threshold", "Threshold", {}, [X, 0.4, -9.0], _ops("threshold")),
    ("log_softmax_ext", "LogSoftmaxExt", {}, [X, 0], _ops("log_softmax")),
    ("swiglu", "Swiglu", {}, [t(RNG.standard_normal((2, 4)))],
     reference("a * sigmoid(a) * b of the input's halves", _swiglu)),
    ("embedding", "Embedding", {}, [t([[0, 2], [1, 0]], "int64"), t(np.arange(12).reshape(3, 4) / 3)],
     _ops("embedding")),
    ("group_norm", "GroupNorm", {}, [IMAGE, 2, t([1.0, 2.0]), t([0.5, -0.5]), 1e-5],
     reference("ops.group_norm, and its statistics", _group_norm)),
    ("layer_norm_ext", "LayerNormExt", {}, [SIGNAL, tup(6), t(np.linspace(0.5, 2, 6)),
                                          t(np.zeros(6)), 1e-5],
     reference("ops.layer_norm, and its statistics", _layer_norm)),
    ("l1_loss_ext", "L1LossExt", {}, [X, t(np.ones((2, 3))), "sum"], _ops("l1_loss")),
    ("mse_loss_ext", "MSELossExt", {}, [X, t(np.ones((2, 3)))], _ops("mse_loss")),
    ("kl_div", "KLDiv", {}, [X, t([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]]), "sum"], _ops("kl_div")),
    ("kl_div_log_target", "KLDiv", {}, [X, t([[-1.0, -0.5, -2.0], [-0.1, -3.0, -1.0]]), "none",
                                      True],
     reference("exp(target) * (target - input)", lambda x, y, r, lt: F.exp(y) * (y - x))),
    ("kl_div_batchmean", "KLDiv", {}, [X, t([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]]), "batchmean"],
     None),
    ("cosine_embedding_loss", "CosineEmbeddingLoss", {}, [X, t([[1.0, 0.0, 1.0], [0.5, 2.0, -1.0]]),
                                                        t([1, -1], "int32"), 0.1],
     _ops("cosine_embedding_loss")),
    ("nll_loss_2d", "NLLLoss2d", {}, [t(RNG.standard_normal((2, 3, 2, 2))),
                                    t([[[0, 2], [1, 1]], [[2, -100], [0, 1]]], "int32"),
                                    t([1.0, 0.5, 2.0])],
     reference("ops.nll_loss, and the weights it divides by",
               lambda x, y, w: _nll_loss_2d(x, y, w, "mean", -100))),
    ("conv1d_ext", "Conv1DExt", {}, [SIGNAL, W1, t([0.5, 0.0, -0.5, 1.0]), 1, 1],
     _conv("conv1d")),
    ("conv2d_ext", "Conv2DExt", {}, [IMAGE, W2, None, 2, 1], _conv("conv2d")),
    ("conv3d_ext", "Conv3DExt", {}, [VOLUME, W3, None, 1, 0, 2], _conv("conv3d")),
    ("conv1d_padding", "Conv1DPadding", {}, [SIGNAL, W1, None, 1, "same"], _conv("conv1d")),
    ("conv2d_padding", "Conv2DPadding", {}, [IMAGE, W2], _conv("conv2d")),
    ("conv3d_padding", "Conv3DPadding", {}, [VOLUME, W3, None, 1, "same"], _conv("conv3d")),
    ("conv_transpose2d", "ConvTranspose2D", {}, [IMAGE, t(RNG.standard_normal((2, 3, 3, 3))), None,
                                               2, 1, 1],
     reference("Conv2DBackpropInput", lambda x, w, b, s, p, op: _conv_transpose2d(
         x, w, b, s, p, op))),
    ("convolution", "Convolution", {}, [IMAGE, W2, None, tup(1, 1), tup(1, 1), tup(1, 1), False,
                                      tup(0, 0), 1], reference(
        "ops.conv2d", lambda x, w, b, s, p, d, tr, op, g: F.conv2d(x, w, b, s, "pad", p, d, g))),
    ("convolution_str", "ConvolutionStr", {}, [SIGNAL, W1, None, 1, "same"], _conv("conv1d")),
    ("adaptive_avg_pool1d", "AdaptiveAvgPool1D", {}, [SIGNAL, 3], _ops("adaptive_avg_pool1d")),
    ("adaptive_avg_pool2d_ext", "AdaptiveAvgPool2DExt", {}, [IMAGE, tup(3, 2)],
     _ops("adaptive_avg_pool2d")),
    ("adaptive_avg_pool3d_ext", "AdaptiveAvgPool3DExt", {}, [VOLUME, tup(2, 3, 2)],
     _ops("adaptive_avg_pool3d")),
    ("adaptive_max_pool1d", "AdaptiveMaxPool1D", {}, [SIGNAL, 4], reference(
        "AdaptiveMaxPool2D over one row", lambda x, n: tuple(
            o.squeeze(2) for o in ms.ops.AdaptiveMaxPool2D((1, n))(x.expand_dims(2))))),
    ("avg_pool1d", "AvgPool1D", {}, [SIGNAL, 3, 2, 1, False, False], _ops("avg_pool1d")),
    ("avg_pool2d", "AvgPool2D", {}, [IMAGE, 2, 2, 1], _ops("avg_pool2d")),
    ("avg_pool3d_ext", "AvgPool3DExt", {}, [VOLUME, 2, 1], _ops("avg_pool3d")),
    ("max_unpool2d_ext", "MaxUnpool2DExt", {}, [t([[[[4.0, 2.0], [1.0, 3.0]]]]),
                                              t([[[[1, 7], [8, 14]]]], "int64"), 2],
     _ops("max_unpool2d")),
    ("upsample_nearest1d", "UpsampleNearest1D", {}, [SIGNAL, tup(9)], reference(
        "ops.interpolate(nearest)", lambda x, size: F.interpolate(x, size, mode="nearest"))),
    ("upsample_nearest2d_scales", "UpsampleNearest2D", {}, [IMAGE, None, tup(2.0, 1.5)],
     reference("ops.interpolate(nearest)", lambda x, size, s: F.interpolate(
         x, scale_factor=s, mode="nearest", recompute_scale_factor=True))),
    ("upsample_linear1d", "UpsampleLinear1D", {}, [SIGNAL, tup(4), None, True], reference(
        "ops.interpolate(linear)", lambda x, size, s, c: F.interpolate(
            x, size, mode="linear", align_corners=c))),
    ("upsample_bilinear2d", "UpsampleBilinear2D", {}, [IMAGE, tup(7, 3)], reference(
        "ops.interpolate(bilinear)", lambda x, size: F.interpolate(
            x, size, mode="bilinear", align_corners=False))),
]
