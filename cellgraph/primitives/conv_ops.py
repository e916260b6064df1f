"""Convolution and pooling over NCHW images, with their gradient primitives.

conv2d and its two gradients are the three partial derivatives of one trilinear form
T(x, w, y) = <conv2d(x, w), y>:

    conv2d(x, w)                  = dT/dy
    conv2d_backprop_input(y, w)   = dT/dx      {x_shape=...}
    conv2d_backprop_filter(x, y)  = dT/dw      {w_shape=...}

so the bprop of each is made of the other two and derivatives of every order close over these
three primitives. conv2d's bprop emits the two backward passes as one fused primitive,

    conv2d_grad(x, w, y)          = (dT/dx(y, w), dT/dw(x, y))

whose kernel shares work between them (one im2col of y on NumPy, one convolution_backward on
PyTorch); its own bprop is conv2d_grad again plus two conv2d, and where only one of its outputs
is read the optimiser narrows it to that output's primitive (`def_narrow`).

Pooling is the same story in miniature: avg_pool2d and avg_pool2d_grad are each other's
transpose; max_pool2d_grad (scatter to each window's argmax) and
max_pool2d_grad_grad (gather from it) are each other's transpose and piecewise constant in x.
Under differentiation max_pool2d runs as max_pool2d_argmax, which also returns where each
window's first maximum sits (as an index into its padded H*W plane), and its bprop scatters to
those positions (max_pool2d_scatter; its transpose max_pool2d_gather) instead of finding them
again.

Parameters are canonical: `stride=(sh, sw)`, `pad=(top, bottom, left, right)`,
`dilation=(dh, dw)`, `kernel=(kh, kw)`; the functional wrappers turn MindSpore's pad_mode
("same", "valid", "pad") into explicit padding, so kernels see one form.
"""
from __future__ import annotations

from . import dtype as dtypes
from .batching import (
    loop_rule,
    merge_rule,
)
from .core import Primitive, TensorType, abstract_of, fmt_shape, prims
from .errors import DTypeError, ShapeError, ShapeRunError

# ----- shape arithmetic shared with the functional wrappers -------------------------------------


def conv_out_size(size: int | None, kernel: int, stride: int, dilation: int,
                  pad_before: int, pad_after: int) -> int | None:
    """Output length of a strided, dilated window over a padded axis (may be <= 0)."""
    if size is None:
        return None
    span = dilation * (kernel - 1) + 1
    return (size + pad_before + pad_after - span) // stride + 1


def same_padding(size: int, kernel: int, stride: int, dilation: int = 1) -> tuple[int, int]:
    """(before, after) padding for pad_mode "same": output length ceil(size / stride), the
    extra element (if any) padded after, as MindSpore and TensorFlow do."""
    out = -(-size // stride)
    need = max(0, (out - 1) * stride + dilation * (kernel - 1) + 1 - size)
    return need // 2, need - need // 2


def _check_rank4(x: TensorType, what: str) -> None:
    if x.ndim != 4:
        raise ShapeError(f"expected {what} of rank 4 (N, C, H, W), got shape "
                         f"{fmt_shape(x.shape)}")


def _check_float(*avals: TensorType) -> None:
    for a in avals:
        if not a.dtype.is_float:
            raise DTypeError(f"expected float tensors, got {a.dtype}")
    strong = {a.dtype for a in avals if not a.weak}
    if len(strong) > 1:
        raise DTypeError("expected operands of one dtype, got "
                         + " and ".join(str(a.dtype) for a in avals))


def _conv_too_small(ho, wo) -> Exception:
    return ShapeError("For 'Conv2d', input shape's h and w after padding must be greater than "
                      "or equal to kernel_size's h and w respectively.")


def _avg_pool_too_small(ho, wo) -> Exception:
    """MindSpore's CPU AvgPool error, naming the smaller output size."""
    return ShapeRunError(f"For 'AvgPool' op, H_out/W_out must be positive, but H_out/W_out is "
                         f"{min(v for v in (ho, wo) if v is not None)}, please check input and "
                         f"parameters of op")


def _spatial_out(x_shape: tuple, kernel, stride, pad, dilation, what: str,
                 too_small=None) -> tuple:
    """The output's height and width; a window that does not fit the padded input raises,
    naming `what` ("kernel_size"), or `too_small(ho, wo)` (MindSpore's words for an op)."""
    ho = conv_out_size(x_shape[2], kernel[0], stride[0], dilation[0], pad[0], pad[1])
    wo = conv_out_size(x_shape[3], kernel[1], stride[1], dilation[1], pad[2], pad[3])
    if (ho is not None and ho <= 0) or (wo is not None and wo <= 0):
        if too_small is not None:
            raise too_small(ho, wo)
        dilated = f" (dilation {tuple(dilation)})" if tuple(dilation) != (1, 1) else ""
        raise ShapeError(f"{what} {tuple(kernel)}{dilated} does not fit the input of shape "
                         f"{fmt_shape(x_shape)} padded by {tuple(pad)} (top, bottom, left, right)")
    return ho, wo


def _check_params(stride, pad, dilation=(1, 1)) -> None:
    if any(s < 1 for s in stride) or any(d < 1 for d in dilation) or any(p < 0 for p in pad):
        raise ShapeError(f"expected positive strides and dilations and non-negative padding, "
                         f"got stride={stride}, dilation={dilation}, pad={pad}")


def check_conv2d_input_rank(ndim: int) -> None:
    """Conv2D's input is 4-D, or MindSpore's ValueError in its words."""
    if ndim != 4:
        raise ShapeError(f"For primitive[Conv2D], the x shape size must be equal to 4, but got "
                         f"{ndim}.")


def _conv2d_type(x: TensorType, w: TensorType, stride, pad, dilation, group) -> TensorType:
    check_conv2d_input_rank(x.ndim)
    _check_rank4(w, "a weight")
    _check_float(x, w)
    _check_params(stride, pad, dilation)
    out_ch, in_per_group = w.shape[0], w.shape[1]
    if out_ch is not None and out_ch % group:
        raise ShapeError(f"weight of shape {fmt_shape(w.shape)} has {out_ch} output channels, "
                         f"which group={group} does not divide")
    if None not in (x.shape[1], in_per_group) and x.shape[1] != in_per_group * group:
        # MindSpore's words; its CPU build raises RuntimeError
        raise ShapeRunError(f"For 'Conv2D', 'C_in' of input 'x' shape divide by parameter "
                            f"'group' must be equal to 'C_in' of input 'weight' shape: "
                            f"{in_per_group}, but got 'C_in' of input 'x' shape: "
                            f"{x.shape[1] // group}, and 'group': {group}.")
    ho, wo = _spatial_out(x.shape, w.shape[2:], stride, pad, dilation, "kernel", _conv_too_small)
    return TensorType((x.shape[0], out_ch, ho, wo), x.dtype)


def _expect_shape(got: TensorType, want: tuple, what: str) -> None:
    if len(got.shape) != len(want) or any(
            g is not None and w is not None and g != w for g, w in zip(got.shape, want)):
        raise ShapeError(f"expected {what} of shape {fmt_shape(want)}, got "
                         f"{fmt_shape(got.shape)}")


def _backprop_input_type(dout, w, x_shape, stride, pad, dilation, group) -> TensorType:
    x = TensorType(tuple(x_shape), dout.dtype)
    _expect_shape(dout, _conv2d_type(x, w, stride, pad, dilation, group).shape,
                  "the output gradient")
    return x


def _backprop_filter_type(x, dout, w_shape, stride, pad, dilation, group) -> TensorType:
    w = TensorType(tuple(w_shape), dout.dtype)
    _expect_shape(dout, _conv2d_type(x, w, stride, pad, dilation, group).shape,
                  "the output gradient")
    return w


def _conv2d_grad_type(x, w, dout, stride, pad, dilation, group) -> tuple:
    _expect_shape(dout, _conv2d_type(x, w, stride, pad, dilation, group).shape,
                  "the output gradient")
    return x.strong(), w.strong()


def _pool_type(x: TensorType, kernel, stride, pad, count_include_pad: bool = True,
               too_small=None) -> TensorType:
    """The rule of max_pool2d and avg_pool2d (count_include_pad, avg only, leaves the shape)."""
    _check_rank4(x, "an input x")
    _check_float(x)
    _check_params(stride, pad)
    if any(k < 1 for k in kernel):
        raise ShapeError(f"expected a positive kernel_size, got {tuple(kernel)}")
    if pad[0] >= kernel[0] or pad[1] >= kernel[0] or pad[2] >= kernel[1] or pad[3] >= kernel[1]:
        raise ShapeError(f"padding {tuple(pad)} must be smaller than kernel_size "
                         f"{tuple(kernel)} on each side")
    ho, wo = _spatial_out(x.shape, kernel, stride, pad, (1, 1), "kernel_size", too_small)
    return TensorType(x.shape[:2] + (ho, wo), x.dtype)


def _avg_pool_type(x: TensorType, kernel, stride, pad, count_include_pad: bool = True):
    return _pool_type(x, kernel, stride, pad, count_include_pad, _avg_pool_too_small)


def _max_pool_grad_type(x, g, kernel, stride, pad) -> TensorType:
    _expect_shape(g, _pool_type(x, kernel, stride, pad).shape, "the output gradient")
    return x.strong()


def _max_pool_grad_grad_type(x, g, kernel, stride, pad) -> TensorType:
    _expect_shape(g, x.shape, "a gradient of the input's shape")
    return _pool_type(x, kernel, stride, pad)


def _pool_argmax_type(x, kernel, stride, pad) -> tuple:
    y = _pool_type(x, kernel, stride, pad)
    return y, TensorType(y.shape, dtypes.int32)


def _pool_scatter_type(argmax, g, x_shape, kernel, stride, pad) -> TensorType:
    x = TensorType(tuple(x_shape), g.dtype)
    _expect_shape(g, _pool_type(x, kernel, stride, pad).shape, "the output gradient")
    _expect_shape(argmax, g.shape, "an argmax of the output gradient's shape")
    return x


def _pool_gather_type(argmax, h, kernel, stride, pad) -> TensorType:
    y = _pool_type(h, kernel, stride, pad)
    _expect_shape(argmax, y.shape, "an argmax of the pooled shape")
    return y


def _avg_pool_grad_type(g, x_shape, kernel, stride, pad, count_include_pad) -> TensorType:
    x = TensorType(tuple(x_shape), g.dtype)
    _expect_shape(g, _pool_type(x, kernel, stride, pad).shape, "the output gradient")
    return x


# ----- declarations ----------------------------------------------------------------------------

conv2d = Primitive("conv2d", _conv2d_type, label="Conv2D")
conv2d_backprop_input = Primitive("conv2d_backprop_input", _backprop_input_type,
                                  label="Conv2DBackpropInput")
conv2d_backprop_filter = Primitive("conv2d_backprop_filter", _backprop_filter_type,
                                   label="Conv2DBackpropFilter")
conv2d_grad = Primitive("conv2d_grad", _conv2d_grad_type, label="Conv2DGrad",
                        multiple_results=True)
max_pool2d = Primitive("max_pool2d", _pool_type, label="MaxPool")
max_pool2d_grad = Primitive("max_pool2d_grad", _max_pool_grad_type, label="MaxPoolGrad")
max_pool2d_grad_grad = Primitive("max_pool2d_grad_grad", _max_pool_grad_grad_type,
                                 label="MaxPoolGradGrad")
max_pool2d_argmax = Primitive("max_pool2d_argmax", _pool_argmax_type, label="MaxPoolArgmax",
                              multiple_results=True)
max_pool2d_scatter = Primitive("max_pool2d_scatter", _pool_scatter_type, label="MaxPoolScatter")
max_pool2d_gather = Primitive("max_pool2d_gather", _pool_gather_type, label="MaxPoolGather")
avg_pool2d = Primitive("avg_pool2d", _avg_pool_type, label="AvgPool")
avg_pool2d_grad = Primitive("avg_pool2d_grad", _avg_pool_grad_type, label="AvgPoolGrad")


def _shape(x) -> tuple:
    return abstract_of(x).shape


# ----- bprop rules: each primitive's adjoint is another primitive of this family ----------------

@conv2d.def_bprop
def _conv2d_bprop(x, w, out, dout, **conv):
    return conv2d_grad(x, w, dout, **conv)


@conv2d_backprop_input.def_bprop
def _conv2d_backprop_input_bprop(y, w, out, dout, x_shape, **conv):
    # <dout, dT/dx(y, w)> = T(dout, w, y): its partials in y and w.
    return (conv2d(dout, w, **conv),
            conv2d_backprop_filter(dout, y, w_shape=_shape(w), **conv))


@conv2d_backprop_filter.def_bprop
def _conv2d_backprop_filter_bprop(x, y, out, dout, w_shape, **conv):
    # <dout, dT/dw(x, y)> = T(x, dout, y): its partials in x and y.
    return (conv2d_backprop_input(y, dout, x_shape=_shape(x), **conv),
            conv2d(x, dout, **conv))


@conv2d_grad.def_bprop
def _conv2d_grad_bprop(x, w, y, out, dout, **conv):
    # <(a, b), conv2d_grad(x, w, y)> = T(a, w, y) + T(x, b, y): its partials in x and w are
    # conv2d_grad(a, b, y), those in y two convolutions.
    a, b = dout
    if a is not None and b is not None:
        dx, dw = conv2d_grad(a, b, y, **conv)
        return dx, dw, prims.add(conv2d(a, w, **conv), conv2d(x, b, **conv))
    if a is not None:
        return None, conv2d_backprop_filter(a, y, w_shape=_shape(w), **conv), conv2d(a, w, **conv)
    return conv2d_backprop_input(y, b, x_shape=_shape(x), **conv), None, conv2d(x, b, **conv)


@conv2d_grad.def_narrow
def _conv2d_grad_narrow(live, x, w, y, **conv):
    """One output read: the primitive of that backward pass alone (as (prim, operand
    positions, params))."""
    if live == (True, False):
        return conv2d_backprop_input, (2, 1), {"x_shape": x.shape, **conv}
    if live == (False, True):
        return conv2d_backprop_filter, (0, 2), {"w_shape": w.shape, **conv}
    return None


@max_pool2d.def_recording
def _max_pool2d_record(x, **pool):
    y, argmax = max_pool2d_argmax(x, **pool)
    return [y], argmax


@max_pool2d.def_bprop
def _max_pool2d_bprop(x, out, dout, residuals=None, **pool):
    if residuals is None:  # the argmax was not recorded: found again from x
        return (max_pool2d_grad(x, dout, **pool),)
    return (max_pool2d_scatter(residuals, dout, x_shape=_shape(x), **pool),)


@max_pool2d_argmax.def_bprop
def _max_pool2d_argmax_bprop(x, out, dout, **pool):
    dy = dout[0]
    return (None if dy is None else max_pool2d_scatter(out[1], dy, x_shape=_shape(x), **pool),)


# Linear in the gradient, piecewise constant in the positions: each other's transpose.
max_pool2d_scatter.def_bprop(lambda argmax, g, out, dout, x_shape, **pool: (
    None, max_pool2d_gather(argmax, dout, **pool)))
max_pool2d_gather.def_bprop(lambda argmax, h, out, dout, **pool: (
    None, max_pool2d_scatter(argmax, dout, x_shape=_shape(h), **pool)))
# The argmax positions are piecewise constant in x, so x gets no gradient (almost everywhere).
max_pool2d_grad.def_bprop(lambda x, g, out, dout, **pool: (
    None, max_pool2d_grad_grad(x, dout, **pool)))
max_pool2d_grad_grad.def_bprop(lambda x, g, out, dout, **pool: (
    None, max_pool2d_grad(x, dout, **pool)))

avg_pool2d.def_bprop(lambda x, out, dout, **pool: (
    avg_pool2d_grad(dout, x_shape=_shape(x), **pool),))
avg_pool2d_grad.def_bprop(lambda g, out, dout, x_shape, **pool: (avg_pool2d(dout, **pool),))


# ----- batching rules (vmap) -------------------------------------------------------------------
# The samples of axis N are independent, so a batch folds into N (a batched filter is unrolled).
# The filter gradient sums over N, so per-example filter gradients need the loop.

conv2d.def_batch(merge_rule(conv2d, per_sample=(0,)))
conv2d_backprop_input.def_batch(merge_rule(conv2d_backprop_input, per_sample=(0,),
                                           shape_params=("x_shape",)))
conv2d_backprop_filter.def_batch(loop_rule(conv2d_backprop_filter))


@conv2d_grad.def_batch
def _conv2d_grad_batch(args, dims, **conv):
    """The two backward passes' own rules (the input gradient folds the batch into N)."""
    (x, w, y), (x_dim, w_dim, y_dim) = args, dims
    dx, dx_dim = _batched(conv2d_backprop_input, (y, w), (y_dim, w_dim),
                          x_shape=_example_shape(x, x_dim), **conv)
    dw, dw_dim = _batched(conv2d_backprop_filter, (x, y), (x_dim, y_dim),
                          w_shape=_example_shape(w, w_dim), **conv)
    return (dx, dw), (dx_dim, dw_dim)


def _batched(prim, args, dims, **params):
    if all(d is None for d in dims):
        return prim(*args, **params), None
    return prim.batch_rule(args, dims, **params)


def _example_shape(v, dim) -> tuple:
    shape = _shape(v)
    return shape if dim is None else shape[:dim] + shape[dim + 1:]


for _prim in (max_pool2d, avg_pool2d):
    _prim.def_batch(merge_rule(_prim, per_sample=(0,)))
max_pool2d_argmax.def_batch(merge_rule(max_pool2d_argmax, per_sample=(0,)))
max_pool2d_scatter.def_batch(merge_rule(max_pool2d_scatter, per_sample=(0, 1),
                                        shape_params=("x_shape",)))
for _prim in (max_pool2d_grad, max_pool2d_grad_grad, max_pool2d_gather):
    _prim.def_batch(merge_rule(_prim, per_sample=(0, 1)))
avg_pool2d_grad.def_batch(merge_rule(avg_pool2d_grad, per_sample=(0,), shape_params=("x_shape",)))


__all__ = [
    "avg_pool2d",
    "avg_pool2d_grad",
    "conv2d",
    "conv2d_backprop_filter",
    "conv2d_backprop_input",
    "conv2d_grad",
    "conv_out_size",
    "max_pool2d",
    "max_pool2d_argmax",
    "max_pool2d_gather",
    "max_pool2d_grad",
    "max_pool2d_grad_grad",
    "max_pool2d_scatter",
    "same_padding",
]
