"""`mindspore.ops.operations._grad_ops`: the gradient operations MindSpore's backward passes
are made of, which its tests and some programs call directly (`G.SqrtGrad()(y, dy)`). Each is
the derivative of its forward operation written with ops, so it runs, batches and differentiates
like any composition; the operands come in MindSpore's order (the forward output `y` or input
`x`, and the incoming gradient), checked against MindSpore 2.10's values."""
from __future__ import annotations

import numpy as np

from cellgraph import _checkparam as validator
from cellgraph.forward import jvp, vjp
from cellgraph.ops.function.array_func.attributes import size as _size
from cellgraph.ops.function.array_func.indexing import gather_elements
from cellgraph.ops.function.array_func.padding import (
    _host_ints,
    pad,
    pad_pairs_mode,
    paddings_pairs,
)
from cellgraph.ops.function.nn_func.activation import prelu
from cellgraph.ops.function.nn_func.conv import _conv2d_backprop_filter_class, deformable_offsets
from cellgraph.ops.function.nn_func.fractional_pool import (
    fractional_avg_pool_grad,
    fractional_max_pool_grad,
)
from cellgraph.ops.function.nn_func.image import grid_sampler_impl, roi_align_grad
from cellgraph.ops.function.nn_func.normalization import lrn
from cellgraph.ops.function.nn_func.pooling import _last3, max_pool3d, same_max_pool3d
from cellgraph.ops.function.nn_func.roi_pooling import ps_roi_pooling_grad
from cellgraph.ops.operations.array_ops import StridedSlice
from cellgraph.ops.operations.nn_ops import L2Normalize, MaxPool, ResizeBilinearV2
from cellgraph.ops.primitive_class import PrimitiveClass, define_class
from cellgraph.primitives import dtype as mstype
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.dynamic_ops import shape_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, RunError, ShapeError
from cellgraph.primitives.exports import REQUIRED
from cellgraph.primitives.gamma_ops import igamma_grad_a
from cellgraph.primitives.math_ops import sum_to
from cellgraph.primitives.nn_functional import cumsum, one_hot
from cellgraph.runtime.tensor import Tensor


def _hsigmoid_grad(grads, input_x):
    """grads / 6 where -3 < x < 3, else 0; grads of x's shape and dtype, as MindSpore checks."""
    x, dy = abstract_of(input_x), abstract_of(grads)
    if x.ndim != dy.ndim:
        raise ShapeError(f"Rank of x({x.ndim}) and dout({dy.ndim}) not equal, primitive name: "
                         f"HSigmoidGrad.")
    for axis, (n, m) in enumerate(zip(x.shape, dy.shape)):
        if n is not None and m is not None and n != m:
            raise ShapeError(f"The {axis}th dim of x({n}) and dout({m}) not equal, primitive "
                             f"name: HSigmoidGrad.")
    if x.dtype != dy.dtype:
        raise RunError(f"For HSigmoidGrad, the grad type must be same as input type, but got "
                       f"grad_type: {dy.dtype} and x_type: {x.dtype}")
    return _where(F.logical_and(input_x > -3, input_x < 3), grads / 6)


def _where(mask, value):
    return F.select(mask, value, F.zeros_like(value))


def _conj(derivative):
    """A complex operand's derivative enters conjugated, as MindSpore's grad kernels take it
    (its AtanGrad is dy / conj(1 + x^2)); a real one as it is."""
    return F.conj(derivative) if abstract_of(derivative).dtype.is_complex else derivative


def _acos_grad(x, dout):
    return -dout / _conj(F.sqrt(1 - x * x))


def _asin_grad(x, dout):
    return dout / _conj(F.sqrt(1 - x * x))


def _logit_grad(grad, x, eps=-1.0):
    value = grad / (x * (1 - x))
    if eps < 0:
        return value
    return _where(F.logical_and(x >= eps, x <= 1 - eps), value)


def _gelu_grad(dy, x, y):
    """The derivative of MindSpore's GeLU, the tanh approximation
    0.5 x (1 + tanh(k (x + 0.044715 x^3))), k = sqrt(2 / pi)."""
    k = 0.7978845608028654
    t = F.tanh(k * (x + 0.044715 * x * x * x))
    return dy * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 0.134145 * x * x))


def _kl_div_loss_grad(grads, x, target, reduction="mean"):
    """The gradient of KLDivLoss (target * (log target - x)) with respect to x: -target times
    the incoming gradient, divided as the reduction divided."""
    grad = F.mul(F.neg(target), grads)
    if reduction == "mean":
        return F.div(grad, _size(x))
    if reduction == "batchmean":
        return F.div(grad, x.shape[0])
    return grad


def _grid_sampler_grad(name: str):
    """GridSampler2DGrad or GridSampler3DGrad: (d input_x, d grid) of grid sampling, the
    pullback of grid_sample at (input_x, grid) applied to `grad`. `output_mask` says which of
    the two a caller needs; both are computed either way, as MindSpore's CPU kernels do."""
    def grad_op(grad, input_x, grid, interpolation_mode="bilinear", padding_mode="zeros",
                align_corners=False, output_mask=(1, 1)):
        if (not isinstance(output_mask, (tuple, list)) or len(output_mask) != 2
                or any(m not in (0, 1) for m in output_mask)):
            raise ArgumentValueError(f"For '{name}', 'output_mask' must be two 0/1 flags, "
                                     f"but got {output_mask!r}.")
        _, pullback = vjp(lambda x, g: grid_sampler_impl(x, g, interpolation_mode,
                                                          padding_mode, align_corners),
                          input_x, grid)
        return pullback(grad)
    return grad_op


def _deformable_offsets_grad(grad, x, offsets, strides, pads, kernel_size,
                             dilations=(1, 1, 1, 1), data_format="NCHW", deformable_groups=1,
                             modulated=True):
    """(d x, d offsets) of DeformableOffsets: its pullback at (x, offsets) applied to `grad`."""
    _, pullback = vjp(lambda x, offsets: deformable_offsets(
        x, offsets, strides, pads, kernel_size, dilations, data_format, deformable_groups,
        modulated), x, offsets)
    return pullback(grad)


def _lrn_grad(grads, x, y, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5):
    """d x of LRN: its pullback at x applied to `grads` (y, LRN's output, is not needed)."""
    _, pullback = vjp(lambda x: lrn(x, depth_radius, bias, alpha, beta), x)
    return pullback(grads)[0]


def _max_pool_grad_with_argmax(x, grad, argmax, kernel_size=1, strides=1, pad_mode="VALID",
                               data_format="NCHW"):
    """d x of MaxPoolWithArgmax: each output's gradient added at the position its argmax names
    in its sample of x (row-major over C, H, W, as MaxPoolWithArgmax counts); the window
    attributes are not needed."""
    n, c, h, w = x.shape
    hot = one_hot(F.reshape(argmax, (n, -1)), c * h * w, 1.0, 0.0)  # (N, outputs, C * H * W)
    picked = F.mul(F.cast(hot, grad.dtype), F.expand_dims(F.reshape(grad, (n, -1)), -1))
    return F.reshape(F.reduce_sum(picked, 1), (n, c, h, w))


def _concat_offset(x, N=2, axis=0):
    """Where each Tensor of `x` starts when they are joined along `axis`: an (N, rank) int64
    Tensor, zeros but the sum of the earlier inputs' sizes at `axis` (their shapes are known
    when the graph is built)."""
    if len(x) != N:
        raise ArgumentValueError(f"For 'ConcatOffset', the number of inputs must be {N}, but "
                                 f"got {len(x)}.")
    static = [abstract_of(t).shape for t in x]
    rank = len(static[0])
    axis = axis % rank
    if any(d is None for shape in static for d in shape):  # sizes known when the graph runs
        sizes = F.stack([F.cast(F.reshape(F.getitem(shape_of(t), (slice(axis, axis + 1),)),
                                          ()), mstype.int64) for t in x], 0)
        starts = F.sub(cumsum(sizes, 0), sizes)                         # (N,)
        at_axis = Tensor((np.arange(rank) == axis).astype(np.int64))
        return F.mul(F.expand_dims(starts, 1), at_axis)
    shapes = np.array(static, np.int64)
    offsets = np.zeros_like(shapes)
    offsets[:, axis] = np.cumsum(shapes[:, axis]) - shapes[:, axis]
    return Tensor(offsets)


def _max_pool_grad_with_argmax_v2(x, grad, argmax, kernel_size, strides=None, pads=0,
                                  dilation=(1, 1), ceil_mode=False, argmax_type=mstype.int64):
    """d x of MaxPoolWithArgmaxV2: each output's gradient added at the position its argmax
    names in its own (H, W) plane of x (row-major, as MaxPoolWithArgmaxV2 counts, int32 or
    int64); the window attributes are not needed."""
    n, c, h, w = x.shape
    hot = one_hot(F.reshape(argmax, (n * c, -1)), h * w, 1.0, 0.0)  # (N * C, outputs, H * W)
    picked = F.mul(F.cast(hot, grad.dtype), F.expand_dims(F.reshape(grad, (n * c, -1)), -1))
    return F.reshape(F.reduce_sum(picked, 1), (n, c, h, w))


def _max_pool_grad_grad_with_argmax(x, grad, argmax, kernel_size=1, strides=1,
                                    pad_mode="VALID"):
    """The second-order gradient of MaxPoolWithArgmax: `grad` (x's shape) read at each
    output's argmax, counted over the sample's C, H, W as MaxPoolWithArgmax counts."""
    n = argmax.shape[0]
    flat = gather_elements(F.reshape(grad, (n, -1)), 1, F.reshape(argmax, (n, -1)))
    return F.reshape(flat, argmax.shape)


def _max_pool_grad_grad(x, out, grad, kernel_size=1, strides=1, pad_mode="VALID"):
    """The second-order gradient of MaxPool (NCHW): for each window, `grad` at the position of
    the window's maximum in x (the forward derivative of the pooling of x along `grad`; `out`,
    the pooled x, is not needed)."""
    pool = MaxPool(kernel_size, strides, pad_mode)
    return jvp(pool, (x,), (grad,))[1]


def _max_pool3d_grad_grad(x, out, grad, kernel_size=(1, 1, 1, 1, 1), strides=(1, 1, 1, 1, 1),
                          pad_mode="VALID", data_format="NCDHW"):
    """The second-order gradient of MaxPool3D: for each window, `grad` at the position of the
    window's maximum in x (the forward derivative of the pooling of x along `grad`)."""
    if pad_mode.upper() == "SAME":
        return jvp(lambda x: same_max_pool3d(x, kernel_size, strides), (x,), (grad,))[1]
    return jvp(lambda x: max_pool3d(x, _last3(kernel_size), _last3(strides)), (x,), (grad,))[1]


def _l2_normalize_grad(x, out, dout, axis=0, epsilon=1e-4):
    """d x of L2Normalize: its pullback at x applied to `dout` (`out` is not needed)."""
    _, pullback = vjp(L2Normalize(axis, epsilon), x)
    return pullback(dout)[0]


def _prelu_grad(dy, x, weight):
    """(dx, dweight) of PReLU: its pullback at (x, weight) applied to dy."""
    _, pullback = vjp(prelu, x, weight)
    return pullback(dy)


def _nll_loss_grad(logits, loss_grad, labels, weight, total_weight, reduction="mean",
                   ignore_index=-100):
    """d logits of NLLLoss (N, C): -weight[label] times the incoming gradient at each row's
    label (divided by total_weight under "mean"), zero on rows whose label is ignore_index."""
    grad = F.reshape(loss_grad, (-1,)) if reduction == "none" else F.reshape(loss_grad, ())
    if reduction == "mean":
        grad = grad / F.reshape(total_weight, ())
    picked = one_hot(labels, logits.shape[-1], 1.0, 0.0)
    row_weight = F.gather(weight, labels, 0) * F.cast(labels != ignore_index, weight.dtype)
    scale = -row_weight * grad
    return F.cast(picked, logits.dtype) * F.reshape(scale, (-1, 1))


def _layer_norm_grad(x, dy, variance, mean, gamma, begin_norm_axis=1, begin_params_axis=1):
    """(dx, dgamma, dbeta) of LayerNorm from its saved mean and variance (epsilon 1e-12, as
    MindSpore's kernel): dx = rstd (g - mean(g) - xhat mean(g xhat) + mean(xhat) mean(g xhat))
    with g = dy gamma over the normalised axes (the last term, zero when `mean` is x's own, is
    kept as MindSpore's kernel keeps it); dgamma, dbeta the sums of dy xhat and dy over the
    axes before begin_params_axis (none when it is 0)."""
    return layer_norm_backward(x, dy, variance, mean, gamma, begin_norm_axis, begin_params_axis,
                               mean_term=True)


def layer_norm_backward(x, dy, variance, mean, gamma, begin_norm_axis, begin_params_axis,
                        mean_term: bool):
    """LayerNormGrad's formula, with or without the term mean(xhat) mean(g xhat) (MindSpore's
    LayerNormGrad kernel keeps it; the formula its LayerNormGradGrad kernel differentiates
    does not)."""
    rank = len(x.shape)
    norm_axes = tuple(range(begin_norm_axis % rank, rank))
    lead_axes = tuple(range(begin_params_axis % rank))
    rstd = F.rsqrt(F.add(variance, 1e-12))
    xhat = F.mul(F.sub(x, mean), rstd)
    g = F.mul(dy, gamma)
    mean_g_xhat = F.reduce_mean(F.mul(g, xhat), norm_axes, keep_dims=True)
    dx = F.sub(F.sub(g, F.reduce_mean(g, norm_axes, keep_dims=True)), F.mul(xhat, mean_g_xhat))
    if mean_term:
        dx = F.add(dx, F.mul(F.reduce_mean(xhat, norm_axes, keep_dims=True), mean_g_xhat))
    dx = F.mul(rstd, dx)
    dgamma, dbeta = F.mul(dy, xhat), dy
    if lead_axes:  # an empty axis tuple would sum over every axis
        dgamma, dbeta = F.reduce_sum(dgamma, lead_axes), F.reduce_sum(dbeta, lead_axes)
    return dx, dgamma, dbeta


def _maximum_grad(x1, x2, grads, grad_x=True, grad_y=True, *, wins=None, loses=None):
    """MindSpore's MaximumGrad kernel: grads to the operand that wins strictly, half of them to
    each where neither does (a tie, or a NaN)."""
    first = (wins or F.greater)(x1, x2)
    second = (loses or F.less)(x1, x2)
    zero = F.zeros_like(grads)
    half = F.select(F.logical_not(F.logical_or(first, second)), grads * 0.5, zero)
    return (sum_to(F.select(first, grads, zero) + half, x1.shape) if grad_x
            else F.zeros_like(x1),
            sum_to(F.select(second, grads, zero) + half, x2.shape) if grad_y
            else F.zeros_like(x2))


def _minimum_grad(x1, x2, grads, grad_x=True, grad_y=True):
    return _maximum_grad(x1, x2, grads, grad_x, grad_y, wins=F.less, loses=F.greater)


def _maximum_grad_grad(x1, x2, dx1, dx2, grad_x=True, grad_y=True, *, pick=None,
                       label="MaximumGradGrad"):
    """The second-order pass of MaximumGrad: (0 like x1, 0 like x2, dx1 where x1 wins the
    comparison (ties included) else dx2). MindSpore 2.10's kernel gives the third result in
    full whatever grad_x and grad_y say (recorded), so they are the class's attributes only."""
    del grad_x, grad_y
    if tuple(dx1.shape) != tuple(x1.shape) or tuple(dx2.shape) != tuple(x2.shape):
        raise ArgumentValueError(
            f"For '{label}', Its input 'dx', 'dy' should have same shape and equal to x and y "
            f"shape, but got 'x' shape:{list(x1.shape)} vs 'dx' shape: {list(dx1.shape)}, "
            f"'y' shape:{list(x2.shape)} vs 'dy' shape: {list(dx2.shape)}")
    first = (pick or F.greater_equal)(x1, x2)
    return F.zeros_like(x1), F.zeros_like(x2), F.select(first, dx1, dx2)


def _minimum_grad_grad(x1, x2, dx1, dx2):
    return _maximum_grad_grad(x1, x2, dx1, dx2, pick=F.less_equal, label="MinimumGradGrad")


def _bias_add_grad(dout, data_format="NCHW"):
    channel = len(dout.shape) - 1 if data_format == "NHWC" else 1
    return F.reduce_sum(dout, tuple(i for i in range(len(dout.shape)) if i != channel))


def _slice_grad(dy, x, begin, size):
    """`dy` placed at `begin` in zeros of `x`'s shape."""
    pads = [(b, full - b - s) for b, s, full in zip(begin, dy.shape, x.shape)]
    del size  # dy's own shape is the slice's
    return pad(dy, tuple(p for pair in reversed(pads) for p in pair))


def _resize_bilinear_grad(grads, original_image, align_corners=False, half_pixel_centers=False):
    """The gradient of ResizeBilinearV2 (resizing `original_image` to the size of `grads`)
    with respect to the image, for the incoming `grads`: each output pixel's gradient shared
    among the input pixels it interpolated, in the image's dtype (float16 summed in float32)."""
    resize = ResizeBilinearV2(align_corners, half_pixel_centers)
    size = tuple(grads.shape[2:])
    if None in size:  # sizes known only at run time, read from grads when the graph runs
        sizes = shape_of(grads)
        size = tuple(sizes[axis] if d is None else d for axis, d in enumerate(size, 2))
    dtype = original_image.dtype
    wide = mstype.float32 if dtype == mstype.float16 else dtype  # float16 accumulates in float32
    _, pullback = vjp(lambda image: resize(image, size), F.cast(original_image, wide))
    (dimage,) = _as_tuple(pullback(F.cast(grads, wide)))
    return F.cast(dimage, dtype)


def _strided_slice_grad(dy, shapex, begin, end, strides, begin_mask=0, end_mask=0,
                        ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0):
    """`dy` written where StridedSlice(masks)(x, begin, end, strides) read it from an `x` of
    shape `shapex`, zeros (False) elsewhere: the positions come from the same slice of the
    flat positions of x."""
    shape = tuple(int(d) for d in shapex)
    size = int(np.prod(shape))
    positions = Tensor(np.arange(size, dtype=np.int32).reshape(shape))
    picked = StridedSlice(begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                          shrink_axis_mask)(positions, begin, end, strides)
    flat = F.tensor_scatter_update(F.zeros((size,), dy.dtype), F.reshape(picked, (-1, 1)),
                                   F.reshape(dy, (-1,)))
    return F.reshape(flat, shape)


def _cdist_grad(grad, input_x, input_y, cdist, p=2.0):
    """The gradient of cdist(input_x, input_y, p) with respect to input_x, given the distances
    `cdist` and their gradient `grad` (float32), term by term as MindSpore's CPU kernel: each
    pair's diff = x - y weighs in by sign(diff) (p = 1), |diff|^(p-1) sign(diff) / d^(p-1)
    (p < 2, 0 at diff = 0 and for p < 1), diff / d (p = 2), sign(diff) where |diff| is the
    distance (p = inf), diff |diff|^(p-2) / d^(p-1) (else); 0 where d = 0, and for p = 0."""
    for name, value in (("grad", grad), ("input_x", input_x), ("input_y", input_y),
                        ("cdist", cdist)):
        if abstract_of(value).dtype != mstype.float32:
            raise TypeError(f"For 'CdistGrad', the dtype of '{name}' must be float32, but got "
                            f"{abstract_of(value).dtype}")
    p = float(p)
    diff = F.sub(F.expand_dims(input_x, -2), F.expand_dims(input_y, -3))  # (..., P, R, M)
    weight, dist = F.expand_dims(grad, -1), F.expand_dims(cdist, -1)
    magnitude, sign = F.abs(diff), F.sign(diff)
    zero = F.zeros_like(diff)
    at_zero = F.equal(F.broadcast_to(dist, abstract_of(diff).shape), zero)
    dist = F.select(at_zero, F.ones_like(diff), F.broadcast_to(dist, abstract_of(diff).shape))
    if p == 0.0 or p < 1.0:
        terms = zero
    elif p == 1.0:
        terms = F.mul(weight, sign)
    elif p < 2.0:
        terms = F.select(F.equal(diff, zero), zero,
                         F.div(F.mul(F.mul(sign, F.pow(magnitude, p - 1)), weight),
                               F.pow(dist, p - 1)))
    elif p == 2.0:
        terms = F.select(at_zero, zero, F.div(F.mul(weight, diff), dist))
    elif np.isinf(p):
        off = F.minimum(F.ceil(F.abs(F.sub(magnitude, dist))), 1.0)
        terms = F.mul(F.mul(weight, sign), F.sub(1.0, off))
    else:
        terms = F.select(at_zero, zero,
                         F.div(F.mul(F.mul(diff, F.pow(magnitude, p - 2)), weight),
                               F.pow(dist, p - 1)))
    return F.reduce_sum(terms, -2)


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)


_CLASSES = {
    "ROIAlignGrad": (lambda dy, rois, xdiff_shape, pooled_height, pooled_width, spatial_scale,
                     sample_num: roi_align_grad(dy, rois, xdiff_shape, pooled_height,
                                                pooled_width, spatial_scale, sample_num),
                     {"pooled_height": REQUIRED, "pooled_width": REQUIRED,
                      "spatial_scale": REQUIRED, "sample_num": 2}),
    "ACosGrad": (_acos_grad, None),
    "AsinGrad": (_asin_grad, None),
    # TanhGrad and InvGrad take a complex derivative as it is, the others conjugated
    # (MindSpore 2.10's kernels)
    "AcoshGrad": (lambda y, dy: dy / _conj(F.sinh(y)), None),
    "AsinhGrad": (lambda y, dy: dy / _conj(F.cosh(y)), None),
    "AtanGrad": (lambda x, dout: dout / _conj(1 + x * x), None),
    "SqrtGrad": (lambda y, dy: dy / _conj(2 * y), None),
    "RsqrtGrad": (lambda y, dy: dy * _conj(-0.5 * y * y * y), None),
    "TanhGrad": (lambda y, dy: dy * (1 - y * y), None),
    "SigmoidGrad": (lambda y, dy: dy * _conj(y * (1 - y)), None),
    "ReciprocalGrad": (lambda y, dy: -dy * _conj(y * y), None),
    "InvGrad": (lambda x, grad: -grad * x * x, None),
    "ReluGrad": (lambda y_backprop, x: _where(x > 0, y_backprop), None),
    "ReLU6Grad": (lambda y_backprop, x: _where(F.logical_and(x > 0, x <= 6), y_backprop), None),
    "EluGrad": (lambda dout, out: F.select(out > 0, dout, dout * (out + 1)), None),
    "SoftplusGrad": (lambda gradients, features: gradients * F.sigmoid(features), None),
    "SigmoidCrossEntropyWithLogitsGrad": (lambda x, y, dout: dout * (F.sigmoid(x) - y), None),
    "GeLUGrad": (_gelu_grad, None),
    "SoftShrinkGrad": (lambda input_grad, input_x, lambd=0.5:
                       _where(F.abs(input_x) > lambd, input_grad), {"lambd": 0.5}),
    "HShrinkGrad": (lambda gradients, features, lambd=0.5:
                    _where(F.abs(features) > lambd, gradients), {"lambd": 0.5}),
    "LogitGrad": (_logit_grad, {"eps": -1.0}),
    "MaximumGrad": (_maximum_grad, {"grad_x": True, "grad_y": True}),
    "MinimumGrad": (_minimum_grad, {"grad_x": True, "grad_y": True}),
    "MaximumGradGrad": (_maximum_grad_grad, {"grad_x": True, "grad_y": True}),
    "MinimumGradGrad": (_minimum_grad_grad, None),
    "BiasAddGrad": (_bias_add_grad, {"data_format": "NCHW"}),
    "SliceGrad": (_slice_grad, None),
    "LayerNormGrad": (_layer_norm_grad, {"begin_norm_axis": 1, "begin_params_axis": 1}),
    "HSigmoidGrad": (_hsigmoid_grad, None),
    **{name: (_grid_sampler_grad(name), {"interpolation_mode": "bilinear",
                                         "padding_mode": "zeros", "align_corners": False,
                                         "output_mask": (1, 1)})
       for name in ("GridSampler2DGrad", "GridSampler3DGrad")},
    "PReLUGrad": (_prelu_grad, None),
    "L2NormalizeGrad": (_l2_normalize_grad, {"axis": 0, "epsilon": 1e-4}),
    "MaxPoolGradGradWithArgmax": (_max_pool_grad_grad_with_argmax,
                                  {"kernel_size": 1, "strides": 1, "pad_mode": "VALID"}),
    "FractionalAvgPoolGrad": (fractional_avg_pool_grad, {"overlapping": False}),
    "FractionalMaxPoolGrad": (fractional_max_pool_grad, {"overlapping": False}),
    "MaxPoolGradGrad": (_max_pool_grad_grad,
                        {"kernel_size": 1, "strides": 1, "pad_mode": "VALID"}),
    "MaxPool3DGradGrad": (_max_pool3d_grad_grad,
                          {"kernel_size": (1, 1, 1, 1, 1), "strides": (1, 1, 1, 1, 1),
                           "pad_mode": "VALID", "data_format": "NCDHW"}),
    "ConcatOffset": (_concat_offset, {"N": 2, "axis": 0}),
    "MaxPoolGradWithArgmaxV2": (_max_pool_grad_with_argmax_v2,
                                {"kernel_size": REQUIRED, "strides": None, "pads": 0,
                                 "dilation": (1, 1), "ceil_mode": False,
                                 "argmax_type": mstype.int64}),
    "MaxPoolGradWithArgmax": (_max_pool_grad_with_argmax,
                              {"kernel_size": 1, "strides": 1, "pad_mode": "VALID",
                               "data_format": "NCHW"}),
    "LRNGrad": (_lrn_grad, {"depth_radius": 5, "bias": 1.0, "alpha": 1.0, "beta": 0.5}),
    "DeformableOffsetsGrad": (_deformable_offsets_grad,
                              {"strides": None, "pads": None, "kernel_size": None,
                               "dilations": (1, 1, 1, 1), "data_format": "NCHW",
                               "deformable_groups": 1, "modulated": True}),
    "NLLLossGrad": (_nll_loss_grad, {"reduction": "mean", "ignore_index": -100}),
    "ResizeBilinearGrad": (_resize_bilinear_grad,
                           {"align_corners": False, "half_pixel_centers": False}),
    "StridedSliceGrad": (_strided_slice_grad,
                         {"begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0,
                          "new_axis_mask": 0, "shrink_axis_mask": 0}),
    "Conv2DBackpropFilter": (_conv2d_backprop_filter_class,
                             {"out_channel": None, "kernel_size": None, "pad_mode": "valid",
                              "pad": 0, "pad_list": (0, 0, 0, 0), "mode": 1, "stride": (1, 1),
                              "dilation": (1, 1, 1, 1), "group": 1, "data_format": "NCHW"}),
    "CdistGrad": (_cdist_grad, {"p": 2.0}),
    "DropoutGrad": (lambda dy, mask, keep_prob=0.5: dy * F.cast(mask, dy.dtype) / keep_prob,
                    {"keep_prob": 0.5}),
    "IgammaGradA": (igamma_grad_a, None),
}

_REDUCTIONS = ["none", "mean", "batchmean", "sum"]


class KLDivLossGrad(PrimitiveClass):
    """`G.KLDivLossGrad(reduction="mean")(grads, x, target)`: `_kl_div_loss_grad`; the
    reduction checked when the class is made, as MindSpore checks it."""

    def __init__(self, reduction="mean"):
        if not isinstance(reduction, str) or reduction not in _REDUCTIONS:
            raise ArgumentValueError(f"For 'KLDivLossGrad', the 'reduction' must be str and must "
                                     f"be in '{_REDUCTIONS}', but got '{reduction}'.")
        self.reduction = reduction

    def __call__(self, grads, x, target):
        return _kl_div_loss_grad(grads, x, target, self.reduction)


class PSROIPoolingGrad(PrimitiveClass):
    """`G.PSROIPoolingGrad(input_size, spatial_scale, group_size, output_dim)(dy, rois)`:
    position-sensitive ROI pooling's gradient (`ps_roi_pooling_grad`); the attributes checked
    when the class is made, as MindSpore checks them (`input_size` an int or a tuple)."""

    def __init__(self, input_size, spatial_scale, group_size, output_dim):
        name = "PSROIPoolingGrad"
        validator.check_value_type("input_size", input_size, [int, tuple], name)
        validator.check_positive_float(spatial_scale, "spatial_scale", name)
        validator.check_positive_int(group_size, "group_size", name)
        validator.check_positive_int(output_dim, "output_dim", name)
        sizes = [input_size, input_size] if isinstance(input_size, int) else list(input_size)
        validator.check_positive_int_sequence(sizes, "input_size", name)
        self.input_size = sizes
        self.spatial_scale = spatial_scale
        self.group_size = group_size
        self.output_dim = output_dim
        self._attrs = {"input_size": sizes, "spatial_scale": spatial_scale,
                       "group_size": group_size, "output_dim": output_dim}

    def __call__(self, *operands):
        if len(operands) != 2:
            raise ArgumentValueError(f"For primitive[PSROIPoolingGrad], the input number must "
                                     f"be equal to 2, but got {len(operands)}.")
        return ps_roi_pooling_grad(*operands, self.input_size, self.spatial_scale,
                                   self.group_size, self.output_dim)


class PadV3Grad(PrimitiveClass):
    """`G.PadV3Grad(mode="reflect", paddings_contiguous=True)(x, paddings)`: PadV3's gradient
    for `x`, the gradient of its padded output: the pullback of padding an input of x's shape
    less the paddings in `mode` ("reflect", "edge" or "circular"), so each padded position's
    gradient is added onto the input position it was read from."""

    def __init__(self, mode="reflect", paddings_contiguous=True):
        name = "PadV3Grad"
        validator.check_string(mode, ["reflect", "edge", "circular"], "mode", name)
        validator.check_bool(paddings_contiguous, "paddings_contiguous", name)
        self.mode, self.paddings_contiguous = mode, paddings_contiguous
        self._attrs = {"mode": mode, "paddings_contiguous": paddings_contiguous}

    def __call__(self, x, paddings):
        op = "PadV3Grad"
        aval = abstract_of(x)
        if aval.dtype == mstype.bool_:
            raise DTypeError(f"For primitive[{op}], the input argument[x] must be a number "
                             f"Tensor, but got Tensor[Bool].")
        count = len(_host_ints(paddings))
        if count not in (2, 4, 6):
            raise ArgumentValueError(f"For '{op}', the length of paddings must be 2, 4 or 6, but "
                                     f"got {count}")
        if aval.ndim != count // 2 + 2:  # MindSpore's wording, its operands swapped
            raise ArgumentValueError(f"For primitive[{op}], the input dims when padding's size "
                                     f"equal {count} must be equal to {aval.ndim}, but got "
                                     f"{count // 2 + 2}.")
        pairs = paddings_pairs(paddings, self.paddings_contiguous, aval.ndim, op)
        shape = tuple(n - before - after for n, (before, after) in zip(aval.shape, pairs,
                                                                       strict=True))
        if any(n <= 0 for n in shape):
            raise ArgumentValueError(f"For '{op}', the paddings {pairs} leave no input of the "
                                     f"gradient of shape {tuple(aval.shape)}.")
        _, pullback = vjp(lambda v: pad_pairs_mode(v, pairs, self.mode, op=op),
                          F.zeros(shape, aval.dtype))
        return pullback(x)[0]


for _name, (_fn, _attrs) in _CLASSES.items():
    globals()[_name] = define_class(_name, _fn, _attrs, __name__,
                                    f"`G.{_name}({', '.join(_attrs or ())})(...)`: "
                                    f"{(_fn.__doc__ or '').strip() or 'see the module'}")
del _name, _fn, _attrs

__all__ = [*list(_CLASSES), "KLDivLossGrad", "PSROIPoolingGrad", "PadV3Grad"]  # noqa: PLE0604
