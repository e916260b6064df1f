"""The functional API of the nn primitives, with MindSpore's names and signatures
(`ops.conv2d`, `ops.max_pool2d`, `ops.gelu`, `ops.one_hot`, `ops.layer_norm`, ...).

Each wrapper checks and normalises its arguments (int-or-tuple sizes, pad modes, negative axes)
so that nodes carry canonical params, then binds the primitive.
"""
from __future__ import annotations

import numbers

import numpy as np

from . import array_ops as A
from . import conv_ops as C
from . import core
from . import dtype as dt
from . import functional as F
from . import math_ops as M
from . import norm_ops as N
from . import shape_ops as S
from . import special_ops as SP
from .array_ops import Slice
from .core import abstract_of, normalize_axes, normalize_axis, static_values, value_input
from .errors import ArgumentError, ArgumentValueError, DTypeError, ShapeError
from .random_ops import rand_like

# ----- argument normalisation ------------------------------------------------------------------


def _ints(value, op: str, name: str) -> tuple:
    if hasattr(value, "aval") and abstract_of(value).ndim == 1 and abstract_of(value).dtype.is_int:
        value = tuple(value_input(value, op, name).tolist())  # a Tensor of ints: a value input
    items = value if isinstance(value, (tuple, list)) else (value,)
    # an integer Tensor passed to the graph (a `mutable` number): a value input
    items = tuple(_known_int(v) for v in items)
    if not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in items):
        raise ArgumentError(f"{op}: `{name}` must be an int or a tuple of ints, got {value!r}")
    return tuple(int(v) for v in items)


def _known_int(value):
    """A 0-d integer Tensor's value where it is known while the graph is built (core.
    static_values); anything else as it is."""
    if hasattr(value, "aval") and abstract_of(value).shape == () and \
            abstract_of(value).dtype.is_int:
        known = static_values(value)
        if known is not None:
            return int(known)
    return value


def _pair(value, op: str, name: str) -> tuple[int, int]:
    """An int, (h, w), or MindSpore's NCHW 4-tuple (1, 1, h, w) -> (h, w)."""
    items = _ints(value, op, name)
    if len(items) == 1:
        items = items * 2
    elif len(items) == 4:
        items = items[2:]
    if len(items) != 2 or min(items) < 1:
        raise ArgumentValueError(f"{op}: `{name}` must be a positive int or a pair of them, got "
                                 f"{value!r}")
    return items


def _padding4(value, op: str) -> tuple[int, int, int, int]:
    """An int, (h, w) or (top, bottom, left, right) -> (top, bottom, left, right)."""
    items = _ints(value, op, "padding")
    if len(items) == 1:
        items = items * 4
    elif len(items) == 2:
        items = (items[0], items[0], items[1], items[1])
    if len(items) != 4 or min(items) < 0:
        raise ArgumentValueError(f"{op}: `padding` must be a non-negative int, (h, w) or (top, "
                                 f"bottom, left, right), got {value!r}")
    return items


def check_conv2d_padding(pad_mode, pad, op: str = "Conv2D") -> None:
    """MindSpore's Conv2D checks of `pad_mode` and `pad`, in its order and words: `pad` an int
    or a tuple (of 4), `pad_mode` one of "valid", "same", "pad" (as spelled), a nonzero `pad`
    only with "pad", and no negative one."""
    if isinstance(pad, bool) or not isinstance(pad, (int, tuple)):
        raise DTypeError(f"For '{op}', the type of 'pad' should be one of '['int', 'tuple']', "
                         f"but got type '{type(pad).__name__}'.")
    if not isinstance(pad_mode, str):
        raise DTypeError(f"For '{op}', the type of 'pad_mode' should be 'str', but got type "
                         f"'{type(pad_mode).__name__}'.")
    pads = (pad,) * 4 if isinstance(pad, int) else pad
    if len(pads) != 4:
        raise ArgumentValueError(f"For '{op}', the 'pad size' must be int and must = 4, but got "
                                 f"'{len(pads)}' with type 'int'.")
    if pad_mode not in ("valid", "same", "pad"):
        raise ArgumentValueError(f"For '{op}', the 'pad_mode' must be str and must be in "
                                 f"'['valid', 'same', 'pad']', but got '{pad_mode}'.")
    if pad_mode != "pad" and tuple(pads) != (0, 0, 0, 0):
        raise ArgumentValueError(f"For '{op}', the 'pad' must be zero when 'pad_mode' is not "
                                 f"'pad', but got 'pad': {pad} and 'pad_mode': {pad_mode}.")
    for item in pads if pad_mode == "pad" else ():
        if isinstance(item, bool) or not isinstance(item, int) or item < 0:
            raise ArgumentValueError(f"For '{op}', the 'pad item' must be int and must >= 0, "
                                     f"but got '{item}' with type '{type(item).__name__}'.")


def _explicit_padding(x, kernel, stride, dilation, pad_mode, padding, op: str) -> tuple:
    """MindSpore's pad_mode ("same", "valid", "pad") and padding -> (top, bottom, left, right)."""
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    explicit = _padding4(padding, op)
    if mode == "pad":
        return explicit
    if any(explicit):
        raise ArgumentValueError(f"{op}: padding {padding!r} needs pad_mode='pad', got "
                                 f"pad_mode={pad_mode!r}")
    if mode == "valid":
        return (0, 0, 0, 0)
    if mode != "same":
        raise ArgumentValueError(f"{op}: `pad_mode` must be 'same', 'valid' or 'pad', got "
                                 f"{pad_mode!r}")
    shape = abstract_of(x).shape
    if len(shape) != 4 or None in shape[2:]:
        raise ShapeError(f"{op}: pad_mode='same' needs an input of shape (N, C, H, W) with known "
                         f"H and W, got {core.fmt_shape(shape)}")
    top, bottom = C.same_padding(shape[2], kernel[0], stride[0], dilation[0])
    left, right = C.same_padding(shape[3], kernel[1], stride[1], dilation[1])
    return (top, bottom, left, right)


# ----- convolution and pooling -----------------------------------------------------------------

def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
           groups=1):
    """2-D convolution of an NCHW `input` with an OIHW `weight` (plus a per-channel bias)."""
    F._check_value(input, "Conv2D", "input")
    F._check_value(weight, "Conv2D", "weight")
    if isinstance(padding, (tuple, list)) and len(padding) == 2:  # (h, w): both sides each
        padding = (padding[0], padding[0], padding[1], padding[1])
    padding = tuple(padding) if isinstance(padding, list) else padding
    check_conv2d_padding(pad_mode, padding)
    stride = _pair(stride, "Conv2D", "stride")
    dilation = _pair(dilation, "Conv2D", "dilation")
    groups = _ints(groups, "Conv2D", "groups")[0]
    if groups < 1:
        raise ArgumentValueError(f"Conv2D: `groups` must be >= 1, got {groups}")
    wshape = abstract_of(weight).shape
    kernel = wshape[2:] if len(wshape) == 4 else (1, 1)
    pad = _explicit_padding(input, kernel, stride, dilation, pad_mode, padding, "Conv2D")
    out = C.conv2d(input, weight, stride=stride, pad=pad, dilation=dilation, group=groups)
    return out if bias is None else bias_add(out, bias)


def _pool(prim, op, x, kernel_size, stride, pad_mode, padding, **extra):
    F._check_value(x, op)
    kernel = _pair(kernel_size, op, "kernel_size")
    stride = kernel if stride is None else _pair(stride, op, "stride")
    pad = _explicit_padding(x, kernel, stride, (1, 1), pad_mode, padding, op)
    return prim(x, kernel=kernel, stride=stride, pad=pad, **extra)


def _unsupported(op: str, **flags):
    for name, (value, default) in flags.items():
        if value != default:
            raise ArgumentValueError(f"{op}: `{name}={value!r}` is not supported; only "
                                     f"{name}={default!r}")


def max_pool2d(x, kernel_size, stride=None, padding=0, dilation=1, return_indices=False,
               ceil_mode=False):
    """Max pooling over NCHW windows; `padding` pads with -inf on both sides."""
    _unsupported("MaxPool", dilation=(dilation, 1), ceil_mode=(ceil_mode, False),
                 return_indices=(return_indices, False))
    return _pool(C.max_pool2d, "MaxPool", x, kernel_size, stride, "pad", padding)


def avg_pool2d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=0):
    """Average pooling over NCHW windows; `count_include_pad` decides whether padded zeros
    count in each window's divisor (`divisor_override` 0 or None: the window's own)."""
    _unsupported("AvgPool", ceil_mode=(ceil_mode, False), divisor_override=(divisor_override or
                                                                            None, None))
    return _pool(C.avg_pool2d, "AvgPool", input_x, kernel_size, stride, "pad", padding,
                 count_include_pad=bool(count_include_pad))


def bias_add(input_x, bias):
    """`input_x` plus a per-channel `bias` on axis 1."""
    return bias_add_in(input_x, bias, "NCHW")


def bias_add_in(input_x, bias, data_format="NCHW"):
    """`input_x` plus a per-channel `bias` (channels on axis 1, or last for NHWC)."""
    F._check_value(input_x, "BiasAdd", "input_x")
    F._check_value(bias, "BiasAdd", "bias")
    if data_format not in ("NCHW", "NCDHW", "NHWC"):
        raise ArgumentValueError(f"BiasAdd: `data_format` must be 'NCHW', 'NCDHW' or 'NHWC', "
                                 f"got {data_format!r}")
    axis = abstract_of(input_x).ndim - 1 if data_format == "NHWC" else 1
    return S.bias_add(input_x, bias, axis=max(axis, 0))


# ----- activations and special functions -------------------------------------------------------

erf, log1p, expm1 = SP.erf, SP.log1p, SP.expm1


def gelu(input, approximate="none"):
    """x * Phi(x) (the erf form); approximate='tanh' gives the tanh approximation."""
    input_x = input
    if approximate == "none":
        return SP.gelu(input_x)
    if approximate != "tanh":
        raise ArgumentValueError(f"GeLU: `approximate` must be 'none' or 'tanh', got "
                                 f"{approximate!r}")
    return SP.gelu_tanh(input_x)


def softplus(input, beta=1, threshold=20):
    """log(1 + exp(beta * x)) / beta, computed stably, and x itself where beta * x >
    threshold (as MindSpore)."""
    out = SP.softplus(input) if beta == 1 else M.div(SP.softplus(M.mul(input, beta)), beta)
    return M.select(M.greater(M.mul(input, beta), threshold), input, out)


def clip_by_value(x, clip_value_min=None, clip_value_max=None):
    """min(max(x, clip_value_min), clip_value_max); either bound may be None. As MindSpore's,
    composed of Maximum and Minimum: at a bound the gradient is shared equally between x and
    the bound (hardtanh's too); `clamp` is the closed-interval kernel. A list or tuple of
    Tensors gives a list of each clipped, as MindSpore's."""
    if isinstance(x, (list, tuple)):
        return [clip_by_value(t, clip_value_min, clip_value_max) for t in x]
    F._check_value(x, "ClipByValue")
    if clip_value_min is None and clip_value_max is None:
        raise ArgumentValueError("For 'clip_by_value', at least one of 'clip_value_min' or "
                                 "'clip_value_max' must not be None")
    if clip_value_max is None:
        return M.maximum(x, clip_value_min)
    if clip_value_min is None:
        return M.minimum(x, clip_value_max)
    return M.minimum(M.maximum(x, clip_value_min), clip_value_max)


def clamp(input, min=None, max=None):
    """`input` limited to [min, max] by MindSpore's Clamp kernel: the gradient reaches `input`
    on the closed interval, bounds included; MindSpore's Clamp refuses bool operands."""
    if any(value is not None and abstract_of(value).dtype == dt.bool_
           for value in (input, min, max)):
        raise ArgumentValueError("For Clamp, the dtype of 'input', 'min' and 'max' must not be "
                                 "bool.")
    if min is None and max is None:
        raise ArgumentValueError("For Clamp, at least one of 'min' or 'max' must not be None.")
    F._check_value(input, "ClipByValue")
    dtype = abstract_of(input).dtype
    if min is None or max is None:
        info = dt.finfo(dtype) if dtype.is_float else np.iinfo(dtype.np) \
            if not dtype.is_complex else None
        if info is None:
            return clip_by_value(input, min, max)
        lowest = float("-inf") if dtype.is_float else int(info.min)
        highest = float("inf") if dtype.is_float else int(info.max)
        min, max = (lowest if min is None else min), (highest if max is None else max)
    return SP.clip_by_value(input, min, max)


clip = clamp


def cumsum(x, axis, dtype=None):
    """Running sum along `axis`, in `dtype` when given."""
    return cumsum_ex(x, axis, dtype)


def cumsum_ex(x, axis, dtype=None, exclusive=False, reverse=False):
    """Running sum along `axis` (`exclusive` leaves out the element itself, `reverse` runs from
    the end): the CumSum primitive's."""
    F._check_value(x, "CumSum")
    if dtype is not None:
        x = F.cast(x, dtype)
    axis = normalize_axis(_ints(axis, "CumSum", "axis")[0], abstract_of(x).ndim)
    return SP.cumsum(x, axis=axis, exclusive=bool(exclusive), reverse=bool(reverse))


def reduce_prod(x, axis=(), keep_dims=False):
    F._check_value(x, "ReduceProd")
    axes = normalize_axes(axis, abstract_of(x).ndim) if axis not in (None, ()) else ()
    return SP.reduce_prod(x, axis=axes, keep_dims=bool(keep_dims))


def prod(input, axis=None, keep_dims=False, dtype=None):
    """The product over `axis`; over all or one axis it is ProdExt's, which takes bool and the
    narrower integers in int64 (over a tuple of axes, ReduceProd's, in the input's dtype)."""
    if not isinstance(axis, (tuple, list)) and not hasattr(axis, "aval"):
        dtype = F.accumulator_dtype(input, dtype)
    if dtype is not None:
        input = F.cast(input, dtype)
    return reduce_prod(input, axis, keep_dims)


# ----- normalisation and dropout ---------------------------------------------------------------

def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalise over the trailing `normalized_shape` axes, then scale and shift."""
    F._check_value(input, "LayerNorm", "input")
    xt = abstract_of(input)
    shape = _ints(normalized_shape, "LayerNorm", "normalized_shape")
    if xt.shape[xt.ndim - len(shape):] != shape or len(shape) > xt.ndim:
        raise ShapeError(f"LayerNorm: normalized_shape {shape} does not match the trailing axes "
                         f"of input of shape {core.fmt_shape(xt.shape)}")
    weight = F.ones(shape, xt.dtype) if weight is None else weight
    bias = F.zeros(shape, xt.dtype) if bias is None else bias
    axis = xt.ndim - len(shape)
    return N.layer_norm(input, weight, bias, begin_norm_axis=axis, begin_params_axis=axis,
                        epsilon=float(eps))[0]


def batch_norm(input_x, running_mean, running_var, weight, bias, training=False, momentum=0.1,
               eps=1e-5):
    """Batch normalisation over axis 1; in training, with the batch's statistics.

    Only the output is returned: updating running statistics is the layer's job, which reads
    them from `ops.BatchNorm` (its 4th and 5th outputs).
    """
    if not 0 <= momentum <= 1:
        raise ArgumentValueError(f"BatchNorm: `momentum` must be in [0, 1], got {momentum}")
    return N.batch_norm(input_x, weight, bias, running_mean, running_var,
                        is_training=bool(training), epsilon=float(eps))[0]


def dropout(input, p=0.5, training=True, seed=None):
    """Zero elements with probability `p` and scale the rest by 1 / (1 - p), the mask drawn
    from the global generator (`cellgraph.set_seed`) on every run."""
    return dropout_masked(input, p, training, seed)


def dropout_masked(input, p=0.5, training=True, seed=None, mask=None):
    """dropout whose 0/1 mask (an input of the primitive) a caller can pass: the Dropout
    primitive's and nn.Dropout's, which keep the mask they drew."""
    F._check_value(input, "Dropout", "input")
    if not 0 <= p < 1:
        raise ArgumentValueError(f"Dropout: `p` must be in [0, 1), got {p}")
    if not training or p == 0:
        return input
    if mask is None:
        mask = M.greater_equal(rand_like(input, seed), p)
    return SP.dropout(input, mask, keep_prob=1.0 - p)


# ----- shape operations ------------------------------------------------------------------------

def one_hot(indices, depth, on_value=1, off_value=0, axis=-1):
    """A `depth`-long axis at `axis` holding on_value at each index, off_value elsewhere."""
    F._check_value(indices, "OneHot", "indices")
    depth = _ints(depth, "OneHot", "depth")[0]
    if isinstance(on_value, numbers.Number) and isinstance(off_value, numbers.Number):
        kind = np.float32 if isinstance(on_value, float) or isinstance(off_value, float) else (
            np.int64)
        on_value, off_value = np.asarray(on_value, kind), np.asarray(off_value, kind)
    on_value, off_value = _first_element(on_value, "on_value"), _first_element(off_value,
                                                                               "off_value")
    axis = normalize_axis(axis, abstract_of(indices).ndim + 1)
    return S.one_hot(indices, on_value, off_value, depth=depth, axis=axis)


def _first_element(value, name: str):
    """OneHot's on_value/off_value: MindSpore's kernel reads the first element of a Tensor of
    any shape."""
    aval = abstract_of(value)
    if aval.ndim == 0:
        return value
    if 0 in aval.shape:
        raise ShapeError(f"For 'OneHot', '{name}' must have at least one element, got shape "
                         f"{list(aval.shape)}")
    return A.getitem(A.reshape(value, shape=(int(np.prod(aval.shape)),)), index=(0,))


def argmax(input, dim=None, keepdim=False):
    """Index of the largest element along `dim` (of the flattened input when None), int64.
    A bool input is taken as 0 and 1 (MindSpore's ArgMaxExt takes bool; its Argmax does not)."""
    if F.is_value(input) and abstract_of(input).dtype.is_bool:
        input = F.cast(input, dt.int32)
    return argmax_typed(input, dim, keepdim, dt.int64)


def argmax_typed(input, dim=None, keepdim=False, output_type=dt.int64):
    """argmax with the index dtype of the Argmax primitive's `output_type`."""
    F._check_value(input, "Argmax", "input")
    if dim is None:
        input, dim = F.reshape(input, (-1,)), 0
    axis = normalize_axis(_ints(dim, "Argmax", "dim")[0], abstract_of(input).ndim)
    return S.argmax(input, axis=axis, keep_dims=bool(keepdim), dtype=dt.as_dtype(output_type))


def tile(input, dims):
    """Repeat `input` dims[i] times along axis i (missing leading multiples are 1)."""
    F._check_value(input, "Tile", "input")
    if not (isinstance(dims, tuple) or hasattr(dims, "aval")):  # MindSpore: no list, no array
        given = f"List<{', '.join(type(d).__name__ for d in dims)}>" if isinstance(dims, list) \
            else type(dims).__name__
        raise DTypeError(f'Failed calling Tile with "Tile()(input=Tensor, dims={given})".\n'
                         f'The valid calling should be: \n'
                         f'"Tile()(input=<Tensor>, dims=<Tensor, tuple of int>)".')
    multiples = _ints(dims, "Tile", "dims")
    ndim = abstract_of(input).ndim
    multiples = (1,) * (ndim - len(multiples)) + multiples
    return S.tile(input, multiples=multiples)


def split(tensor, split_size_or_sections, axis=0):
    """Pieces of `split_size_or_sections` elements along `axis` (an int: equal pieces, the
    last one shorter; a list: those sizes)."""
    F._check_value(tensor, "Split", "tensor")
    xt = abstract_of(tensor)
    axis = normalize_axis(axis, xt.ndim)
    size = xt.shape[axis]
    if isinstance(split_size_or_sections, numbers.Integral):
        step = int(split_size_or_sections)
        if step < 1:
            raise ArgumentValueError(f"Split: a split size must be >= 1, got {step}")
        sizes = tuple(min(step, size - start) for start in range(0, size, step))
    else:
        sizes = _ints(split_size_or_sections, "Split", "split_size_or_sections")
    return S.split(tensor, axis=axis, sizes=sizes)


def split_equal(x, axis=0, output_num=1):
    """MindSpore's Split primitive: `output_num` equal pieces along `axis`."""
    xt = abstract_of(x)
    axis = normalize_axis(axis, xt.ndim)
    if output_num < 1 or xt.shape[axis] % output_num:
        raise ShapeError(f"Split: axis {axis} of x of shape {core.fmt_shape(xt.shape)} cannot be "
                         f"split into {output_num} equal pieces")
    return S.split(x, axis=axis, sizes=(xt.shape[axis] // output_num,) * output_num)


def pad_pairs(x, paddings, value=0):
    """Pad axis i by paddings[i] = (before, after); negative amounts crop."""
    paddings = tuple(tuple(_ints(p, "Pad", "paddings")) for p in paddings)
    grow = tuple((max(b, 0), max(a, 0)) for b, a in paddings)
    out = S.pad(x, paddings=grow, value=value) if any(map(any, grow)) else x
    if any(b < 0 or a < 0 for b, a in paddings):
        shape = abstract_of(out).shape
        out = A.getitem(out, index=tuple(Slice(-min(b, 0), d + min(a, 0), None)
                                         for (b, a), d in zip(paddings, shape)))
    return out


from .slicing import slice, strided_slice

__all__ = [
    "argmax",
    "batch_norm",
    "bias_add",
    "clamp",
    "clip",
    "clip_by_value",
    "conv2d",
    "cumsum",
    "erf",
    "expm1",
    "gelu",
    "layer_norm",
    "log1p",
    "one_hot",
    "prod",
    "reduce_prod",
    "slice",
    "softplus",
    "split",
    "strided_slice",
    "tile",
]
