"""gen_ops_prim's gradient classes of the padding, resizing, pooling, normalization,
convolution, embedding and linear-algebra operations: the pullback of the forward operation
at the given input (or at zeros of the given input size: the forward is linear there) applied
to the incoming gradient, with MindSpore's call arguments."""
import numpy as np

from cellgraph import ops
from cellgraph.ops.function.array_func.indexing import apply_along
from cellgraph.ops.function.nn_func.image import nearest_v2_matrix
from cellgraph.ops.operations import _grad_ops
from cellgraph.ops.primitive_class import define_class
from cellgraph.primitives import dtype as mstype
from cellgraph.primitives import norm_ops
from cellgraph.primitives.check_convert import tensor_dtype_error
from cellgraph.primitives.core import value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, UnsupportedError
from cellgraph.primitives.exports import REQUIRED

from . import nn_classes
from ._mint_lookup import functional, mint
from .grad_classes import pullback

MODULE = "cellgraph.ops.auto_generate.gen_ops_prim"


def _pad_grad(mode: str, name: str):
    """ReflectionPad1DGrad, ...: the gradient of `mode` padding at `input`."""
    def call(grad_output, input, padding):
        return pullback(lambda x: functional().pad(x, tuple(padding), mode), grad_output, input)

    call.__name__ = call.__qualname__ = name
    return call


def _upsample_grad(mode: str, name: str, corners: bool):
    """UpsampleNearest2DGrad, ...: the gradient of the resize of a tensor of `input_size` (the
    resize is linear, so its gradient is the same at any input: zeros)."""
    def grad(dy, input_size, output_size, scales, align_corners):
        size = None if output_size is None else tuple(output_size)
        scale = None if scales is None else tuple(scales)
        return pullback(lambda x: functional().interpolate(x, size, scale, mode, align_corners),
                         dy, ops.zeros(tuple(input_size), dy.dtype))

    if corners:
        def call(dy, input_size, output_size=None, scales=None, align_corners=False):
            return grad(dy, input_size, output_size, scales, align_corners)
    else:
        def call(dy, input_size, output_size=None, scales=None):
            return grad(dy, input_size, output_size, scales, None)

    call.__name__ = call.__qualname__ = name
    return call


def _adaptive_avg_pool_grad(dims: int, grad_output, x):
    pool = getattr(functional(), f"adaptive_avg_pool{dims}d")
    return pullback(lambda v: pool(v, tuple(grad_output.shape[-dims:])), grad_output, x)


def _adaptive_avg_pool2d_grad(grad_output, x):
    return _adaptive_avg_pool_grad(2, grad_output, x)


def _adaptive_avg_pool3d_grad(input_grad, input):
    return _adaptive_avg_pool_grad(3, input_grad, input)


def _avg_pool2d_grad(grad, image, kernel_size, stride, padding=0, ceil_mode=False,
                     count_include_pad=True, divisor_override=None):
    return pullback(lambda x: nn_classes._avg_pool2d(
        x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override),
        grad, image)


def _avg_pool3d_grad(grad, input, kernel_size, stride=None, padding=0, ceil_mode=False,
                     count_include_pad=True, divisor_override=None):
    return pullback(lambda x: nn_classes._avg_pool3d(
        x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override),
        grad, input)


def _max_pool_grad_with_indices(x, grad, argmax, kernel_size=REQUIRED, strides=None, pads=0,
                                dilation=(1, 1), ceil_mode=False, argmax_type=mstype.int64):
    """grad added into zeros of x's shape at the positions `argmax` holds (flat indices into
    each sample's channel plane)."""
    planes = x.shape[0] * x.shape[1]
    flat = ops.zeros((planes, x.shape[2] * x.shape[3]), grad.dtype)
    out = ops.tensor_scatter_elements(flat, argmax.reshape((planes, -1)),
                                      grad.reshape((planes, -1)), 1, "add")
    return out.reshape(tuple(x.shape))


def _embedding_dense_backward(grad, indices, num_weights, padding_idx=None,
                              scale_grad_by_freq=False):
    """The gradient of an embedding table of `num_weights` rows: each index's incoming row
    added into its row; the padding row's stays zero."""
    if scale_grad_by_freq:
        raise UnsupportedError("EmbeddingDenseBackward: scale_grad_by_freq=True is not "
                               "supported (rows are not divided by their counts)")
    width = grad.shape[-1]
    rows = grad.reshape((-1, width))
    index = indices.reshape((-1,))
    if padding_idx is not None:
        rows = rows * ops.cast(ops.not_equal(index, padding_idx), rows.dtype).reshape((-1, 1))
    table = ops.zeros((num_weights, width), grad.dtype)
    return ops.tensor_scatter_elements(table, ops.broadcast_to(index.reshape((-1, 1)),
                                                               tuple(rows.shape)), rows, 0, "add")


def _repeat_interleave_grad(input, repeats, dim):
    """The sums of the gradient over each repeated element's copies along `dim`."""
    counts = [int(c) for c in np.reshape(value_input(repeats, "RepeatInterleaveGrad",
                                                     "repeats"), -1)]
    dim %= len(input.shape)
    size = (input.shape[dim] // counts[0]) if len(counts) == 1 else len(counts)
    shape = tuple(input.shape[:dim]) + (size,) + tuple(input.shape[dim + 1:])
    repeat = counts[0] if len(counts) == 1 else ops.Tensor(counts)
    return pullback(lambda x: mint().repeat_interleave(x, repeat, dim), input,
                     ops.zeros(shape, input.dtype))


def _trace_v2_grad(dout, shape, offset=0, axis1=1, axis2=0):
    """The gradient of TraceV2 for an input of `shape` (a Tensor of the sizes, as MindSpore's
    call takes it, or a tuple)."""
    from .math_classes import _trace_v2

    shape = tuple(int(n) for n in value_input(shape, "TraceV2Grad", "shape"))
    return pullback(lambda x: _trace_v2(x, offset, axis1, axis2), dout,
                    ops.zeros(shape, dout.dtype))


def _col2im_grad(input, kernel_size, dilation=1, padding=0, stride=1):
    """Col2Im's gradient: the columns of the incoming image gradient (Im2Col)."""
    return functional().unfold(input, kernel_size, dilation, padding, stride)


def _group_norm_grad(dy, x, mean, rstd, gamma_opt, num_groups, dx_is_require=True,
                     dgamma_is_require=True, dbeta_is_require=True):
    """(dx, dgamma, dbeta) of GroupNorm at x (the statistics recomputed from x). The three
    flags say which of them the caller needs; all three are computed, as MindSpore's CPU
    kernel computes them."""
    def forward(v, gamma, beta):
        return functional().group_norm(v, num_groups, gamma, beta, 1e-5)

    beta = ops.zeros_like(gamma_opt)
    return tuple(pullback(forward, dy, x, gamma_opt, beta))


def _layer_norm_grad(dy, x, normalized_shape, mean, variance, gamma, beta,
                     output_mask=(1, 1, 1)):
    """(dx, dgamma, dbeta) of LayerNorm at x; a gradient output_mask leaves out is zeros."""
    shape = tuple(normalized_shape)
    grads = pullback(lambda v, g, b: functional().layer_norm(v, shape, g, b, 1e-5), dy, x,
                      gamma, beta)
    return tuple(g if keep else ops.zeros_like(g) for g, keep in zip(grads, output_mask))


def _same_dtype(op: str, **tensors) -> None:
    dtypes = {name: value.dtype for name, value in tensors.items()}
    if len(set(dtypes.values())) > 1:
        raise DTypeError(f"For '{op}', the inputs must have the same dtype, but got {dtypes}.")


def _layer_norm_grad_grad(x, dy, variance, mean, gamma, d_dx, d_dg, d_db, begin_norm_axis=1,
                          begin_params_axis=1):
    """(d x, d dy, d gamma): LayerNormGrad's (dx, dgamma, dbeta) pulled back from (d_dx, d_dg,
    d_db), at the given mean and variance, the statistics following x as x's mean and its
    variance about `mean` do (MindSpore's kernel's formula)."""
    _same_dtype("LayerNormGradGrad", x=x, dy=dy, variance=variance, mean=mean, gamma=gamma,
                d_dx=d_dx, d_dg=d_dg, d_db=d_db)
    rank = len(x.shape)
    axes = tuple(range(begin_norm_axis % rank, rank))

    def forward(x, dy, gamma):
        own_mean = ops.mean(x, axes, keep_dims=True)
        own_var = ops.mean(ops.square(x - mean), axes, keep_dims=True)
        tracked_mean = mean + (own_mean - ops.stop_gradient(own_mean))
        tracked_var = variance + (own_var - ops.stop_gradient(own_var))
        return _grad_ops.layer_norm_backward(x, dy, tracked_var, tracked_mean, gamma,
                                             begin_norm_axis, begin_params_axis, False)

    return tuple(pullback(forward, (d_dx, d_dg, d_db), x, dy, gamma))


def _batch_norm_grad(dout, x, scale, saved_mean, saved_variance, reserve, is_training=False,
                     epsilon=1e-5, data_format="NCHW"):
    """(dx, dscale, dbias) of BatchNorm from the statistics it saved (the batch's mean and
    biased variance in training, the running ones in inference); `reserve` is unused, as
    on MindSpore's CPU."""
    rank = len(x.shape)
    channels_last = data_format == "NHWC" and rank > 2
    if channels_last:  # (N, ..., C) -> (N, C, ...)
        to_first = (0, rank - 1) + tuple(range(1, rank - 1))
        x, dout = ops.transpose(x, to_first), ops.transpose(dout, to_first)
    if is_training:
        dx, dscale, dbias = norm_ops.batch_norm_grad(x, dout, scale, saved_mean, saved_variance,
                                                     epsilon=float(epsilon))
    else:
        per_channel = (1, -1) + (1,) * (rank - 2)
        rstd = ops.reshape(ops.rsqrt(saved_variance + epsilon), per_channel)
        xhat = (x - ops.reshape(saved_mean, per_channel)) * rstd
        others = (0,) + tuple(range(2, rank))
        dx = dout * ops.reshape(scale, per_channel) * rstd
        dscale, dbias = ops.reduce_sum(dout * xhat, others), ops.reduce_sum(dout, others)
    if channels_last:
        dx = ops.transpose(dx, (0,) + tuple(range(2, rank)) + (1,))
    return dx, dscale, dbias


def _nearest_grad(grads, sizes, align_corners, half_pixel):
    """Each output pixel's gradient summed into the input pixel of spatial size `sizes` that
    the resize copied (MindSpore's CPU kernels' source pixels, `nearest_v2_matrix`)."""
    for axis, size_in in zip((2, 3), sizes):
        picks = nearest_v2_matrix(size_in, grads.shape[axis], bool(align_corners),
                                  bool(half_pixel))
        grads = apply_along(grads, picks.T, axis)
    return grads


def _grad_sizes(size, op: str) -> tuple:
    return tuple(int(v) for v in np.asarray(value_input(size, op, "size")).reshape(-1))


def _resize_nearest_neighbor_grad(grads, size, align_corners=False, half_pixel_centers=False):
    """The gradient of ResizeNearestNeighbor from an (N, C) image of spatial `size` to the
    size of `grads`. MindSpore's CPU kernel samples without half-pixel centres whatever
    `half_pixel_centers` says, and so does this, to give its numbers."""
    op = "ResizeNearestNeighborGrad"
    sizes = _grad_sizes(size, op)
    if len(sizes) != 2:
        raise ArgumentValueError(f"For '{op}', the dimension of size should equal to 2 but got "
                                 f"{len(sizes)}")
    if len(grads.shape) != 4:
        raise ArgumentValueError(f"For '{op}', the dimension of input_grads should equal to 4 "
                                 f"but got {len(grads.shape)}")
    return _nearest_grad(grads, sizes, align_corners, False)


def _resize_nearest_neighbor_v2_grad(grads, size, align_corners=False,
                                     half_pixel_centers=False):
    """The gradient of ResizeNearestNeighborV2 from an (N, C) image of spatial `size` to the
    size of `grads` (floats only, as MindSpore's CPU kernel)."""
    op = "ResizeNearestNeighborV2Grad"
    sizes = _grad_sizes(size, op)
    if len(sizes) != 2:
        raise ArgumentValueError(f"For primitive[{op}], the number of size must be equal to 2, "
                                 f"but got {len(sizes)}.")
    if len(grads.shape) != 4:
        raise ArgumentValueError(f"For primitive[{op}], the image rank must be equal to 4, but "
                                 f"got {len(grads.shape)}.")
    if not grads.dtype.is_float:
        raise tensor_dtype_error(op, "grads", (mstype.float16, mstype.float32, mstype.float64),
                                 grads.dtype)
    return _nearest_grad(grads, sizes, align_corners, half_pixel_centers)


def _convolution_grad(dout, input, weight, bias=None, stride=1, padding=0, dilation=(1, 1),
                      transposed=False, output_padding=0, groups=1, output_mask=()):
    """(d input, d weight, d bias) of Convolution; d bias is None without a bias, and a
    gradient output_mask leaves out (a 0 in it; an empty mask keeps all) is zeros."""
    def forward(x, w, b):
        return nn_classes._convolution(x, w, b, stride, padding, dilation, transposed,
                                       output_padding, groups)

    if bias is None:
        grads = (*pullback(lambda x, w: forward(x, w, None), dout, input, weight), None)
    else:
        grads = tuple(pullback(forward, dout, input, weight, bias))
    mask = tuple(output_mask) or (1, 1, 1)
    return tuple(g if keep or g is None else ops.zeros_like(g) for g, keep in zip(grads, mask))


def _lstsq_grad(gX, A, B):
    """(dA, dB) of LstsqV2's solution pinv(A) B."""
    return tuple(pullback(lambda a, b: ops.matmul(ops.pinv(a), b), gX, A, B))


_TABLE = {
    "ReflectionPad1DGrad": _pad_grad("reflect", "reflection_pad_1d_grad"),
    "ReflectionPad2DGrad": _pad_grad("reflect", "reflection_pad_2d_grad"),
    "ReflectionPad3DGrad": _pad_grad("reflect", "reflection_pad_3d_grad"),
    "ReplicationPad1DGrad": _pad_grad("replicate", "replication_pad_1d_grad"),
    "ReplicationPad2DGrad": _pad_grad("replicate", "replication_pad_2d_grad"),
    "ReplicationPad3DGrad": _pad_grad("replicate", "replication_pad_3d_grad"),
    "UpsampleNearest1DGrad": _upsample_grad("nearest", "upsample_nearest1d_grad", False),
    "UpsampleNearest2DGrad": _upsample_grad("nearest", "upsample_nearest2d_grad", False),
    "UpsampleNearest3DGrad": _upsample_grad("nearest", "upsample_nearest3d_grad", False),
    "UpsampleLinear1DGrad": _upsample_grad("linear", "upsample_linear1d_grad", True),
    "UpsampleBilinear2DGrad": _upsample_grad("bilinear", "upsample_bilinear2d_grad", True),
    "AdaptiveAvgPool2DGradExt": _adaptive_avg_pool2d_grad,
    "AdaptiveAvgPool3DGradExt": _adaptive_avg_pool3d_grad,
    "AvgPool2DGrad": _avg_pool2d_grad, "AvgPool3DGradExt": _avg_pool3d_grad,
    "EmbeddingDenseBackward": _embedding_dense_backward,
    "RepeatInterleaveGrad": _repeat_interleave_grad, "TraceV2Grad": _trace_v2_grad,
    "Col2ImGrad": _col2im_grad, "GroupNormGrad": _group_norm_grad,
    "LayerNormGradExt": _layer_norm_grad, "ConvolutionGrad": _convolution_grad,
    "LstsqV2Grad": _lstsq_grad,
}


def _trilinear_grad(dy, input_size, output_size=None, scales=None, align_corners=False):
    return _upsample_grad("trilinear", "upsample_trilinear3d_grad", True)(
        dy, input_size, output_size, scales, align_corners)


# classes whose constructor takes some of the arguments: name -> (function, init defaults)
_CONFIGURED = {
    "ResizeNearestNeighborGrad": (_resize_nearest_neighbor_grad,
                                  {"align_corners": False, "half_pixel_centers": False}),
    "ResizeNearestNeighborV2Grad": (_resize_nearest_neighbor_v2_grad,
                                    {"align_corners": False, "half_pixel_centers": False}),
    "LayerNormGradGrad": (_layer_norm_grad_grad, {"begin_norm_axis": 1, "begin_params_axis": 1}),
    "BatchNormGrad": (_batch_norm_grad, {"is_training": False, "epsilon": 1e-5,
                                         "data_format": "NCHW"}),
    "UpsampleTrilinear3DGrad": (_trilinear_grad, {"align_corners": False}),
    "MaxPoolGradWithIndices": (_max_pool_grad_with_indices, {
        "kernel_size": REQUIRED, "strides": None, "pads": 0, "dilation": (1, 1),
        "ceil_mode": False, "argmax_type": mstype.int64}),
}

CLASSES = {name: define_class(name, fn, None, MODULE) for name, fn in _TABLE.items()}
CLASSES.update({name: define_class(name, fn, init, MODULE)
                for name, (fn, init) in _CONFIGURED.items()})
