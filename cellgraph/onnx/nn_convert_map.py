"""The layers' primitives in ONNX: convolution and its transpose, pooling, normalisation,
dropout. Conv1d and Conv3d reach the graph as conv2d over reshaped operands, so they need no
rule of their own. cellgraph's `pad` param is (top, bottom, left, right); ONNX's `pads` is
(top, left, bottom, right)."""
from __future__ import annotations

import numpy as np

from .convert_map import as_dtype, converts, out_dtype, reduce, reject


def onnx_pads(pad) -> list[int]:
    top, bottom, left, right = pad
    return [top, left, bottom, right]


@converts("conv2d")
def _conv2d(b, node, inputs):
    x, w = as_dtype(b, node, inputs, out_dtype(node))
    p = node.params
    kernel = list(node.inputs[1].aval.shape[2:])
    return b.op("Conv", [x, w], kernel_shape=kernel, strides=list(p["stride"]),
                pads=onnx_pads(p["pad"]), dilations=list(p["dilation"]), group=p["group"])


@converts("conv2d_backprop_input")
def _conv2d_transpose(b, node, inputs):
    """Conv2dTranspose: ConvTranspose, with the output padding that gives x_shape."""
    dout, w = as_dtype(b, node, inputs, out_dtype(node))
    p = node.params
    kernel = node.inputs[1].aval.shape[2:]
    in_hw, out_hw = node.inputs[0].aval.shape[2:], tuple(p["x_shape"])[2:]
    pads = p["pad"]
    output_padding = []
    for i in range(2):
        natural = (p["stride"][i] * (in_hw[i] - 1) + p["dilation"][i] * (kernel[i] - 1) + 1
                   - pads[2 * i] - pads[2 * i + 1])
        extra = out_hw[i] - natural
        if not 0 <= extra < max(p["stride"][i], p["dilation"][i]):
            reject(node, f"with an output size {out_hw} that ConvTranspose cannot give")
        output_padding.append(extra)
    return b.op("ConvTranspose", [dout, w], kernel_shape=list(kernel),
                strides=list(p["stride"]), pads=onnx_pads(pads),
                dilations=list(p["dilation"]), group=p["group"],
                output_padding=output_padding)


@converts("max_pool2d")
def _max_pool2d(b, node, inputs):
    p = node.params
    # ONNX's MaxPool never picks a padded position, as the kernel's -inf padding does not
    return b.op("MaxPool", inputs, kernel_shape=list(p["kernel"]), strides=list(p["stride"]),
                pads=onnx_pads(p["pad"]))


@converts("avg_pool2d")
def _avg_pool2d(b, node, inputs):
    p = node.params
    return b.op("AveragePool", inputs, kernel_shape=list(p["kernel"]),
                strides=list(p["stride"]), pads=onnx_pads(p["pad"]),
                count_include_pad=int(bool(p["count_include_pad"])))


@converts("batch_norm")
def _batch_norm(b, node, inputs):
    """Inference: BatchNormalization over the moving statistics, which are also the second
    and third results. Training mode normalises by the batch's statistics (biased variance)
    and returns them."""
    dtype = out_dtype(node)
    x, scale, bias, mean, variance = as_dtype(b, node, inputs, dtype)
    epsilon = float(node.params["epsilon"])
    rank = node.inputs[0].aval.ndim
    if not node.params["is_training"]:
        y = b.op("BatchNormalization", [x, scale, bias, mean, variance], epsilon=epsilon)
        return y, b.op("Identity", [mean]), b.op("Identity", [variance])
    axes = [0] + list(range(2, rank))
    batch_mean = reduce(b, "ReduceMean", x, axes, True)
    centred = b.op("Sub", [x, batch_mean])
    batch_var = reduce(b, "ReduceMean", b.op("Mul", [centred, centred]), axes, True)
    per_channel = b.ints([1, -1] + [1] * (rank - 2))
    normal = b.op("Div", [centred, b.op("Sqrt", [b.op("Add", [batch_var,
                                                                b.const(epsilon, dtype)])])])
    y = b.op("Add", [b.op("Mul", [normal, b.op("Reshape", [scale, per_channel])]),
                     b.op("Reshape", [bias, per_channel])])
    flat = b.ints([-1])
    return y, b.op("Reshape", [batch_mean, flat]), b.op("Reshape", [batch_var, flat])


@converts("layer_norm")
def _layer_norm(b, node, inputs):
    """LayerNormalization where gamma covers the normalised axes; its Mean is the kernel's
    mean and the variance is 1 / InvStdDev^2 - epsilon. Otherwise written out."""
    dtype = out_dtype(node)
    x, gamma, beta = as_dtype(b, node, inputs, dtype)
    p = node.params
    rank = node.inputs[0].aval.ndim
    axis, epsilon = p["begin_norm_axis"] % rank, float(p["epsilon"])
    eps = b.const(epsilon, dtype)
    if p["begin_params_axis"] % rank == axis and dtype == np.float32:
        y, mean, inv_std = b.op("LayerNormalization", [x, gamma, beta], n_out=3, axis=axis,
                                epsilon=epsilon)
        variance = b.op("Sub", [b.op("Reciprocal", [b.op("Mul", [inv_std, inv_std])]), eps])
        return y, mean, variance
    axes = list(range(axis, rank))
    mean = reduce(b, "ReduceMean", x, axes, True)
    centred = b.op("Sub", [x, mean])
    variance = reduce(b, "ReduceMean", b.op("Mul", [centred, centred]), axes, True)
    normal = b.op("Div", [centred, b.op("Sqrt", [b.op("Add", [variance, eps])])])
    return b.op("Add", [b.op("Mul", [normal, gamma]), beta]), mean, variance


@converts("dropout")
def _dropout(b, node, inputs):
    """x * mask / keep_prob with the mask the graph computed (an inference graph has none)."""
    dtype = out_dtype(node)
    x = as_dtype(b, node, inputs[:1], dtype)[0]
    mask = b.cast(inputs[1], node.inputs[1].aval.dtype.np, dtype)
    scale = b.const(1 / node.params["keep_prob"], dtype)
    return b.op("Mul", [b.op("Mul", [x, mask]), scale])
