"""Layer and batch normalisation: each returns the output and the statistics it used.

    layer_norm(x, gamma, beta) -> (y, mean, var)             mean, var: x.shape[:k] + (1,) * ...
    batch_norm(x, scale, bias, mean, variance) -> (y, batch_mean, batch_var)     shape (C,)

The statistics are outputs (MindSpore's LayerNorm returns them too; a BatchNorm layer needs the
batch ones to update its running averages), so the bprops take a gradient for each of them as
well: a second-order gradient flows back through the statistics the first-order bprop read.
Variances are biased (divided by the element count), the ones normalisation uses.
"""
from __future__ import annotations

import numpy as np

from . import dtype as dt
from .array_ops import broadcast_to, cast, gather, ones_like, reduce_mean, reduce_sum, reshape
from .batching import (
    loop_rule,
    to_front,
)
from .core import (
    Primitive,
    TensorType,
    abstract_of,
    bprop_by_decomposition,
    fmt_shape,
    normalize_axis,
    shapes_agree,
)
from .errors import DTypeError, ShapeError
from .math_ops import add, add_terms, div, mul, neg, rsqrt, sub, sum_to


def _check_floats(x: TensorType, named: dict) -> None:
    if not x.dtype.is_float:
        raise DTypeError(f"expected a float tensor x, got {x.dtype}")
    for name, p in named.items():
        if p.dtype != x.dtype:
            raise DTypeError(f"expected {name} of dtype {x.dtype} (as x), got {p.dtype}")


def _layer_norm_type(x, gamma, beta, begin_norm_axis, begin_params_axis, epsilon):
    norm_axis = normalize_axis(begin_norm_axis, x.ndim)
    params_axis = normalize_axis(begin_params_axis, x.ndim)
    want = x.shape[params_axis:]
    for name, p in (("gamma", gamma), ("beta", beta)):
        if p.shape != want:
            raise ShapeError(f"expected {name} of shape {fmt_shape(want)} (the axes of x from "
                             f"begin_params_axis={begin_params_axis} on, x of shape "
                             f"{fmt_shape(x.shape)}), got {fmt_shape(p.shape)}")
    _check_floats(x, {"gamma": gamma, "beta": beta})
    stats = TensorType(x.shape[:norm_axis] + (1,) * (x.ndim - norm_axis), x.dtype)
    return x.strong(), stats, stats


def _batch_norm_type(x, scale, bias, mean, variance, is_training, epsilon):
    if x.ndim < 2:
        raise ShapeError(f"expected x of rank >= 2 with channels on axis 1, got shape "
                         f"{fmt_shape(x.shape)}")
    channels = (x.shape[1],)
    named = {"scale": scale, "bias": bias, "mean": mean, "variance": variance}
    for name, p in named.items():
        if p.shape != channels:
            raise ShapeError(f"expected {name} of shape {fmt_shape(channels)} (the channels of "
                             f"x of shape {fmt_shape(x.shape)}), got {fmt_shape(p.shape)}")
    _check_floats(x, named)
    stats = TensorType(channels, x.dtype)
    return x.strong(), stats, stats


def _layer_norm_grad_type(x, dy, gamma, mean, var, begin_norm_axis, begin_params_axis,
                          epsilon):
    _, stats, _ = _layer_norm_type(x, gamma, gamma, begin_norm_axis, begin_params_axis, epsilon)
    if not shapes_agree(dy.shape, x.shape) or dy.dtype != x.dtype:
        raise ShapeError(f"expected dy of x's type {x}, got {dy}")
    for name, s in (("mean", mean), ("var", var)):
        if s.shape != stats.shape:
            raise ShapeError(f"expected {name} of shape {fmt_shape(stats.shape)}, got "
                             f"{fmt_shape(s.shape)}")
    return x.strong(), gamma.strong(), gamma.strong()


def _batch_norm_grad_type(x, dy, scale, mean, variance, epsilon):
    _batch_norm_type(x, scale, scale, mean, variance, True, epsilon)
    if not shapes_agree(dy.shape, x.shape) or dy.dtype != x.dtype:
        raise ShapeError(f"expected dy of x's type {x}, got {dy}")
    stats = TensorType((x.shape[1],), x.dtype)
    return x.strong(), stats, stats


layer_norm = Primitive("layer_norm", _layer_norm_type, label="LayerNorm", multiple_results=True)
batch_norm = Primitive("batch_norm", _batch_norm_type, label="BatchNorm", multiple_results=True)
# LayerNorm's backward pass for the output gradient, fused: (dx, dgamma, dbeta) from dy and the
# statistics the forward pass returned.
layer_norm_grad = Primitive("layer_norm_grad", _layer_norm_grad_type, label="LayerNormGrad",
                            multiple_results=True,
                            params={"begin_norm_axis": -1, "begin_params_axis": -1,
                                    "epsilon": 1e-7})
# Training-mode BatchNorm's backward pass, fused: (dx, dscale, dbias) from the output gradient
# dy and the batch statistics, in a few passes over x instead of some twenty elementwise ops.
batch_norm_grad = Primitive("batch_norm_grad", _batch_norm_grad_type, label="BatchNormGrad",
                            params={"epsilon": 1e-5}, multiple_results=True)


# ----- bprop rules -----------------------------------------------------------------------------

def _stats_grad(x, xmu, rstd, xhat, axes, dxhat, dmean, dvar, dx=None):
    """dx when xhat = (x - mean) * rstd with mean and var x's own statistics over `axes`.

    `dxhat` is the gradient reaching xhat, `dmean`/`dvar` those reaching the statistics as
    outputs (all broadcastable to x, None for zero); `dx` a part already computed.
    """
    count = count_over(x, axes)
    if dxhat is not None:
        mean_dxhat = reduce_mean(dxhat, axis=axes, keep_dims=True)
        mean_dxhat_xhat = reduce_mean(mul(dxhat, xhat), axis=axes, keep_dims=True)
        dx = add_terms(dx, mul(rstd, sub(sub(dxhat, mean_dxhat), mul(xhat, mean_dxhat_xhat))))
    if dmean is not None:
        share = div(dmean, count)
        shape = abstract_of(x).shape
        dx = add_terms(dx, broadcast_to(share, shape=shape) if None not in shape
                       else mul(ones_like(x), share))
    if dvar is not None:
        dx = add_terms(dx, mul(xmu, mul(dvar, div(2.0, count))))
    return dx


def count_over(x, axes):
    """The number of values over `axes` of `x`: a float, or a 0-d float32 Tensor read from the
    run-time shape where a size is unknown when the graph is built."""
    shape = abstract_of(x).shape
    if all(shape[a] is not None for a in axes):
        return float(np.prod([shape[a] for a in axes]))
    from .dynamic_ops import shape_of
    from .special_ops import reduce_prod

    dims = cast(shape_of(x), dtype=dt.float32)
    return reduce_prod(gather(dims, np.asarray(axes, np.int64), axis=0), axis=(0,))


@layer_norm.def_bprop
def _layer_norm_bprop(x, gamma, beta, out, dout, begin_norm_axis, begin_params_axis, epsilon):
    _, mean, var = out
    dy, dmean, dvar = dout
    ndim = abstract_of(x).ndim
    axes = tuple(range(normalize_axis(begin_norm_axis, ndim), ndim))
    xmu = sub(x, mean)
    rstd = rsqrt(add(var, epsilon))
    xhat = mul(xmu, rstd)
    if dy is not None:
        dx, dgamma, dbeta = layer_norm_grad(x, dy, gamma, mean, var,
                                            begin_norm_axis=begin_norm_axis,
                                            begin_params_axis=begin_params_axis, epsilon=epsilon)
        return _stats_grad(x, xmu, rstd, xhat, axes, None, dmean, dvar, dx), dgamma, dbeta
    return _stats_grad(x, xmu, rstd, xhat, axes, None, dmean, dvar), None, None


def _layer_norm_grad_decomposed(x, dy, gamma, mean, var, begin_norm_axis, begin_params_axis,
                                epsilon):
    """What layer_norm_grad computes, in ordinary primitives (its bprop differentiates this)."""
    ndim = abstract_of(x).ndim
    axes = tuple(range(normalize_axis(begin_norm_axis, ndim), ndim))
    xmu = sub(x, mean)
    rstd = rsqrt(add(var, epsilon))
    xhat = mul(xmu, rstd)
    dx = _stats_grad(x, xmu, rstd, xhat, axes, mul(dy, gamma), None, None)
    shape = abstract_of(gamma).shape
    return dx, sum_to(mul(dy, xhat), shape), sum_to(dy, shape)


layer_norm_grad.def_bprop(bprop_by_decomposition(_layer_norm_grad_decomposed))


def _per_channel(v, ndim: int):
    """A (C,) tensor reshaped to broadcast along axis 1 of a rank-`ndim` tensor."""
    return reshape(v, shape=(1, abstract_of(v).shape[0]) + (1,) * (ndim - 2))


@batch_norm.def_bprop
def _batch_norm_bprop(x, scale, bias, mean, variance, out, dout, is_training, epsilon):
    _, stat_mean, stat_var = out
    dy, dmean, dvar = dout
    ndim = abstract_of(x).ndim
    axes = (0,) + tuple(range(2, ndim))
    xmu = sub(x, _per_channel(stat_mean, ndim))
    rstd = rsqrt(add(_per_channel(stat_var, ndim), epsilon))
    xhat = mul(xmu, rstd)
    dscale = dbias = dxhat = None
    if dy is not None:
        dscale = reduce_sum(mul(dy, xhat), axis=axes)
        dbias = reduce_sum(dy, axis=axes)
        dxhat = mul(dy, _per_channel(scale, ndim))
    if is_training:
        dmean_b = None if dmean is None else _per_channel(dmean, ndim)
        dvar_b = None if dvar is None else _per_channel(dvar, ndim)
        if dy is not None:
            dx, dscale, dbias = batch_norm_grad(x, dy, scale, stat_mean, stat_var,
                                                epsilon=epsilon)
            return _stats_grad(x, xmu, rstd, xhat, axes, None, dmean_b, dvar_b, dx), dscale, \
                dbias, None, None
        dx = _stats_grad(x, xmu, rstd, xhat, axes, dxhat, dmean_b, dvar_b)
        return dx, dscale, dbias, None, None
    # Inference: mean and variance are inputs, and the stats outputs pass them through.
    dx = dmean_in = dvar_in = None
    if dxhat is not None:
        dx = mul(dxhat, rstd)
        dmean_in = neg(reduce_sum(dx, axis=axes))
        dvar_in = reduce_sum(mul(mul(dxhat, xmu), mul(mul(rstd, mul(rstd, rstd)), -0.5)),
                             axis=axes)
    return dx, dscale, dbias, add_terms(dmean_in, dmean), add_terms(dvar_in, dvar)



def _batch_norm_grad_decomposed(x, dy, scale, mean, variance, epsilon):
    """What batch_norm_grad computes, in ordinary primitives (its bprop differentiates this)."""
    ndim = abstract_of(x).ndim
    axes = (0,) + tuple(range(2, ndim))
    xmu = sub(x, _per_channel(mean, ndim))
    rstd = rsqrt(add(_per_channel(variance, ndim), epsilon))
    xhat = mul(xmu, rstd)
    dxhat = mul(dy, _per_channel(scale, ndim))
    dx = _stats_grad(x, xmu, rstd, xhat, axes, dxhat, None, None)
    return dx, reduce_sum(mul(dy, xhat), axis=axes), reduce_sum(dy, axis=axes)


batch_norm_grad.def_bprop(bprop_by_decomposition(_batch_norm_grad_decomposed))


# ----- batching rules (vmap) -------------------------------------------------------------------

_layer_norm_loop = loop_rule(layer_norm)
batch_norm_grad.def_batch(loop_rule(batch_norm_grad))
layer_norm_grad.def_batch(loop_rule(layer_norm_grad))


@layer_norm.def_batch
def _layer_norm_batch(args, dims, begin_norm_axis, begin_params_axis, epsilon):
    (x, gamma, beta), (d, dg, db) = args, dims
    if dg is not None or db is not None:
        return _layer_norm_loop(args, dims, begin_norm_axis=begin_norm_axis,
                                begin_params_axis=begin_params_axis, epsilon=epsilon)
    rank = abstract_of(x).ndim - 1
    outs = layer_norm(to_front(x, d), gamma, beta,
                      begin_norm_axis=normalize_axis(begin_norm_axis, rank) + 1,
                      begin_params_axis=normalize_axis(begin_params_axis, rank) + 1,
                      epsilon=epsilon)
    return outs, (0, 0, 0)


# Statistics over the samples of axis 0 would mix the examples: one call per example.
batch_norm.def_batch(loop_rule(batch_norm))


__all__ = ["batch_norm", "layer_norm"]
