"""MindSpore's primitive classes for the nn primitives (`ops.Conv2D(6, 5)`, `ops.MaxPool(2, 2)`,
`ops.LayerNorm(1, 1)`, ...): configured in `__init__`, applied in `__call__` through the
functional wrappers of nn_functional."""
from __future__ import annotations

from types import MappingProxyType

from cellgraph.primitives import array_ops as A
from cellgraph.primitives import conv_ops as C
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives import norm_ops as N
from cellgraph.primitives.core import abstract_of, fmt_shape, normalize_axis
from cellgraph.primitives.errors import ArgumentValueError, ShapeError
from cellgraph.primitives.random_ops import rand_like

from .derive import PrimitiveClass, define_class


def _init(**defaults) -> tuple:
    """A class's `__init__` argument names, in order, and their defaults (read-only)."""
    return tuple(defaults), MappingProxyType(defaults)


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

    def __call__(self, x, weight):
        _nchw_only("Conv2D", self.data_format)
        kernel = NF._pair(self.kernel_size, "Conv2D", "kernel_size")
        wshape = abstract_of(weight).shape
        if len(wshape) == 4 and (wshape[0] != self.out_channel or tuple(wshape[2:]) != kernel):
            raise ShapeError(f"Conv2D: weight of shape {fmt_shape(wshape)} does not match "
                             f"out_channel={self.out_channel} and kernel_size={kernel}")
        return NF.conv2d(x, weight, None, self.stride, self.pad_mode, self.pad, self.dilation,
                         self.group)


class MaxPool(PrimitiveClass):
    """`ops.MaxPool(kernel_size=1, strides=1, pad_mode="valid")(x)`: max over NCHW windows."""

    _init_names, _defaults = _init(kernel_size=1, strides=1, pad_mode="valid", data_format="NCHW")
    _prim, _extra = C.max_pool2d, {}

    def __call__(self, x):
        op = type(self).__name__
        _nchw_only(op, self.data_format)
        return NF._pool(self._prim, op, x, self.kernel_size, self.strides, self.pad_mode, 0,
                        **self._extra)


class AvgPool(MaxPool):
    """`ops.AvgPool(kernel_size=1, strides=1, pad_mode="valid")(x)`: mean over NCHW windows;
    with pad_mode="same" each window divides by its elements inside the input (TensorFlow's
    rule)."""

    _prim, _extra = C.avg_pool2d, {"count_include_pad": False}


class BiasAdd(PrimitiveClass):
    """`ops.BiasAdd(data_format="NCHW")(x, bias)`: add a per-channel bias."""

    _init_names, _defaults = _init(data_format="NCHW")

    def __call__(self, x, bias):
        return NF.bias_add(x, bias, self.data_format)


GeLU = GELU = define_class("GeLU", NF.gelu, module=__name__)  # x * Phi(x), the erf form
Softplus = define_class("Softplus", NF.softplus, module=__name__)


class Dropout(PrimitiveClass):
    """`ops.Dropout(keep_prob=0.5, Seed0=0, Seed1=0)(x)` -> (output, mask): the mask (0/1, x's
    dtype) is drawn on every run from the global generator that `cellgraph.set_seed` seeds,
    which stands in for the per-op seeds."""

    _init_names, _defaults = _init(keep_prob=0.5, Seed0=0, Seed1=0)

    def __call__(self, x):
        if not 0 < self.keep_prob <= 1:
            raise ArgumentValueError(f"Dropout: `keep_prob` must be in (0, 1], got "
                                     f"{self.keep_prob}")
        mask = A.cast(M.less(rand_like(x), self.keep_prob), dtype=abstract_of(x).dtype)
        return NF.dropout(x, 1.0 - self.keep_prob, mask=mask), mask


class OneHot(PrimitiveClass):
    """`ops.OneHot(axis=-1)(indices, depth, on_value, off_value)`."""

    _init_names, _defaults = _init(axis=-1)

    def __call__(self, indices, depth, on_value, off_value):
        return NF.one_hot(indices, depth, on_value, off_value, self.axis)


class Argmax(PrimitiveClass):
    """`ops.Argmax(axis=-1, output_type=int32)(x)`: indices of the maxima along axis."""

    _init_names, _defaults = _init(axis=-1, output_type=dt.int32)

    def __call__(self, x):
        return NF.argmax(x, self.axis, False, self.output_type)


class Tile(PrimitiveClass):
    """`ops.Tile()(x, multiples)`."""

    _init_names, _defaults = _init()

    def __call__(self, x, multiples):
        return NF.tile(x, multiples)


class Split(PrimitiveClass):
    """`ops.Split(axis=0, output_num=1)(x)`: a tuple of output_num equal pieces."""

    _init_names, _defaults = _init(axis=0, output_num=1)

    def __call__(self, x):
        return NF.split_equal(x, self.axis, self.output_num)


class StridedSlice(PrimitiveClass):
    """`ops.StridedSlice(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
    shrink_axis_mask=0)(x, begin, end, strides)`."""

    _init_names, _defaults = _init(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0,
                                   shrink_axis_mask=0)

    def __call__(self, x, begin, end, strides):
        return NF.strided_slice(x, begin, end, strides, **self._attrs)


class Slice(PrimitiveClass):
    """`ops.Slice()(x, begin, size)`."""

    _init_names, _defaults = _init()

    def __call__(self, x, begin, size):
        return NF.slice(x, begin, size)


class Pad(PrimitiveClass):
    """`ops.Pad(paddings)(x)`: zero padding, paddings[i] = (before, after) for axis i."""

    _init_names, _defaults = _init(paddings=None)

    def __call__(self, x):
        return NF.pad_pairs(x, self.paddings)


class CumSum(PrimitiveClass):
    """`ops.CumSum(exclusive=False, reverse=False)(x, axis)`."""

    _init_names, _defaults = _init(exclusive=False, reverse=False)

    def __call__(self, x, axis):
        return NF.cumsum(x, axis, None, self.exclusive, self.reverse)


class ReduceProd(PrimitiveClass):
    """`ops.ReduceProd(keep_dims=False)(x, axis=())`."""

    _init_names, _defaults = _init(keep_dims=False)

    def __call__(self, x, axis=()):
        return NF.reduce_prod(x, axis, self.keep_dims)


class LayerNorm(PrimitiveClass):
    """`ops.LayerNorm(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)(x, gamma, beta)`
    -> (y, mean, variance), the statistics with x's rank (reduced axes kept as 1)."""

    _init_names, _defaults = _init(begin_norm_axis=1, begin_params_axis=1, epsilon=1e-7)

    def __call__(self, x, gamma, beta):
        ndim = abstract_of(x).ndim
        return N.layer_norm(x, gamma, beta,
                            begin_norm_axis=normalize_axis(self.begin_norm_axis, ndim),
                            begin_params_axis=normalize_axis(self.begin_params_axis, ndim),
                            epsilon=float(self.epsilon))


class BatchNorm(PrimitiveClass):
    """`ops.BatchNorm(is_training=False, epsilon=1e-5, momentum=0.1)(x, scale, bias, mean,
    variance)` -> (y, batch_mean, batch_variance, updated_mean, updated_variance).

    MindSpore updates `mean`/`variance` in place and returns reserve spaces in the last two
    places; here the last two are the updated running statistics,
    (1 - momentum) * running + momentum * batch (the variance unbiased, as cuDNN keeps it),
    for the layer to assign. In inference they are `mean` and `variance` unchanged.
    """

    _init_names, _defaults = _init(is_training=False, epsilon=1e-5, momentum=0.1,
                                   data_format="NCHW")

    def __call__(self, x, scale, bias, mean, variance):
        _nchw_only("BatchNorm", self.data_format)
        if not 0 <= self.momentum <= 1:
            raise ArgumentValueError(f"BatchNorm: `momentum` must be in [0, 1], got "
                                     f"{self.momentum}")
        y, batch_mean, batch_var = N.batch_norm(x, scale, bias, mean, variance,
                                                is_training=bool(self.is_training),
                                                epsilon=float(self.epsilon))
        if not self.is_training:
            return y, batch_mean, batch_var, mean, variance
        shape = abstract_of(x).shape
        count = shape[0]
        for d in shape[2:]:
            count *= d
        unbiased = M.mul(A.stop_gradient(batch_var), count / max(count - 1, 1))
        keep = 1.0 - self.momentum
        new_mean = M.add(M.mul(mean, keep), M.mul(A.stop_gradient(batch_mean), self.momentum))
        new_var = M.add(M.mul(variance, keep), M.mul(unbiased, self.momentum))
        return y, batch_mean, batch_var, new_mean, new_var


__all__ = ["GELU", "Argmax", "AvgPool", "BatchNorm", "BiasAdd", "Conv2D", "CumSum", "Dropout",
           "GeLU", "LayerNorm", "MaxPool", "OneHot", "Pad", "ReduceProd",
           "Slice", "Softplus", "Split", "StridedSlice", "Tile"]
