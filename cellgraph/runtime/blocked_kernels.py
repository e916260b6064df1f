"""NumPy kernels for the fused primitives, written to keep their temporaries few and small.

The shared kernels (runtime/kernels.py) are functional: each operator makes a fresh array the
size of the operands, so GeLU's erf form over a (512, 512) float32 activation is some thirty
passes, each writing a new megabyte. Here the elementwise chains (GeLU in both forms and their
backward passes, erf) run over blocks of `BLOCK` elements through a few block-sized scratch
buffers, writing only the result; blocks are large, as a NumPy ufunc call costs about a
microsecond before it touches an element, which small blocks would multiply by thirty passes.
The row-wise kernels (softmax, log-softmax, LayerNorm, softmax cross-entropy and their backward
passes) work in place in the one or two arrays they must allocate anyway, with their short sums
as BLAS products for float32 and float64. The blocked paths take contiguous float32 operands of
one shape, LayerNorm's float32 or float64 ones; others go to the shared kernels, whose results
these match to rounding. The `numpy` backend puts this table over the shared one.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from . import kernels as shared
from .kernels import registrar
from .numpy_compat import ARRAY_API

TABLE: dict[str, Callable] = {}  # primitive name -> fn(*operands, **params) over NumPy
kernel = registrar(TABLE)

BLOCK = 65536  # elements: five float32 buffers of this size (1.25 MiB) stay in L2 or L3
_SQRT1_2 = math.sqrt(0.5)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_GELU_CUBIC = 0.044715

# erf(x) = x * P(x^2) / Q(x^2) on |x| <= 4 (beyond, erf rounds to +-1 in float32): a rational
# least-squares fit of erf(x) / x, relative error 4e-8 in exact arithmetic, at most 7 ulp when
# evaluated in float32. All coefficients are positive, so Horner's rule does not cancel.
ERF_P = (1.1283791562787497, 0.19103789885155917, 0.0527844751967024, 0.0037810427478577237,
         0.00028314906217844285, 2.0166390821696467e-06)
ERF_Q = (1.0, 0.5026357971240016, 0.11432698198137144, 0.015000010464661744,
         0.0011625216760509875, 3.765785767834845e-05)


def horner(coefficients, t, out):
    """The polynomial at t, evaluated in place in `out`."""
    total = np.multiply(t, coefficients[-1], out=out)
    for c in coefficients[-2:0:-1]:
        total += c
        total *= t
    total += coefficients[0]
    return total


def erf_into(z, out, square, denominator):
    """out = erf(z) for float32 arrays of one shape; `z` is clipped to [-4, 4] in place, and
    `square` and `denominator` are scratch buffers of the same shape."""
    np.clip(z, -4.0, 4.0, out=z)
    np.multiply(z, z, out=square)
    horner(ERF_P, square, out)
    out /= horner(ERF_Q, square, denominator)
    out *= z
    return out


# Phi(x) = 0.5 + x * CDF_P(x^2) / CDF_Q(x^2): erf's fit above with z = x / sqrt 2 substituted
# (coefficient k of P and Q scaled by 2^-k), 0.5 / sqrt 2 folded into P, and both divided by Q's
# leading coefficient so that Horner's rule on Q starts with an add: three passes fewer than
# 0.5 * (1 + erf(x / sqrt 2)) through erf_into.
_CDF_LEAD = ERF_Q[-1] / 2 ** (len(ERF_Q) - 1)
CDF_P = tuple(p / 2 ** k * (0.5 * _SQRT1_2) / _CDF_LEAD for k, p in enumerate(ERF_P))
CDF_Q = tuple(q / 2 ** k / _CDF_LEAD for k, q in enumerate(ERF_Q))
_CDF_CLIP = 4.0 / _SQRT1_2  # erf(4) rounds to 1 in float32


def normal_cdf_into(x, out, square, denominator):
    """out = Phi(x) for float32 arrays of one shape; `square` and `denominator` are scratch
    buffers, and `out` must not be `x`."""
    np.clip(x, -_CDF_CLIP, _CDF_CLIP, out=denominator)
    np.multiply(denominator, denominator, out=square)
    horner(CDF_P, square, out)
    out *= denominator  # the clipped x
    total = np.add(square, CDF_Q[-2], out=denominator)  # monic: Horner starts with an add
    for c in CDF_Q[-3::-1]:
        total *= square
        total += c
    out /= total
    out += 0.5
    return out


def _fast(*arrays) -> bool:
    """Whether the blocked paths apply: contiguous float32 operands of one shape."""
    first = arrays[0]
    return all(isinstance(a, np.ndarray) and a.dtype == np.float32 and a.shape == first.shape
               and a.flags.c_contiguous for a in arrays)


def blockwise(body, n_scratch: int, *operands, outputs: int = 1):
    """New float32 arrays (`outputs` of them) of the operands' shape, `body(outs, scratch,
    *operand blocks)` run over corresponding blocks of the flattened operands, of the
    outputs and of `n_scratch` scratch buffers (`outs` is one block where `outputs` is 1)."""
    flat = [a.reshape(-1) for a in operands]
    outs = [np.empty(flat[0].shape, np.float32) for _ in range(outputs)]
    scratch = [np.empty(min(BLOCK, outs[0].size), np.float32) for _ in range(n_scratch)]
    for start in range(0, outs[0].size, BLOCK):
        stop = min(start + BLOCK, outs[0].size)
        size = stop - start
        out_blocks = [o[start:stop] for o in outs]
        body(out_blocks[0] if outputs == 1 else out_blocks, [s[:size] for s in scratch],
             *(a[start:stop] for a in flat))
    shaped = tuple(o.reshape(operands[0].shape) for o in outs)
    return shaped[0] if outputs == 1 else shaped


def _erf_block(out, scratch, x):
    z, square, denominator = scratch
    np.copyto(z, x)
    erf_into(z, out, square, denominator)


def blocked_erf(x):
    """erf of a float32 array, block by block."""
    return blockwise(_erf_block, 3, np.asarray(x))


def _gelu_block(out, scratch, x):
    """x * Phi(x)."""
    normal_cdf_into(x, out, *scratch)
    out *= x


def _add_x_density(x, out, scratch):
    """out += x * phi(x), phi the standard normal density; `scratch` a buffer like x."""
    np.multiply(x, x, out=scratch)
    scratch *= -0.5
    np.exp(scratch, out=scratch)  # exp(-x^2 / 2)
    scratch *= x
    scratch *= _INV_SQRT_2PI
    out += scratch


def _gelu_grad_block(out, scratch, x, dy):
    """dy * (Phi(x) + x * phi(x)): Phi, phi the standard normal distribution and density."""
    square, denominator = scratch
    normal_cdf_into(x, out, square, denominator)
    _add_x_density(x, out, square)
    out *= dy


def _normal_cdf_block(out, scratch, x):
    """Phi(x) = 0.5 * (1 + erf(x / sqrt 2))."""
    normal_cdf_into(x, out, *scratch)


def _gelu_and_slope_block(outs, scratch, x):
    """x * Phi(x) and Phi(x) + x * phi(x)."""
    (out, slope), (square, denominator) = outs, scratch
    normal_cdf_into(x, slope, square, denominator)
    np.multiply(x, slope, out=out)
    _add_x_density(x, slope, square)


def _tanh_inner(z, x):
    """z = sqrt(2 / pi) * (x + 0.044715 x^3), in place in z."""
    np.multiply(x, x, out=z)
    z *= _GELU_CUBIC
    z += 1
    z *= x
    z *= _SQRT_2_OVER_PI
    return z


def _gelu_tanh_grad_block(out, scratch, x, dy):
    """dy * (0.5 (1 + t) + 0.5 x (1 - t^2) u'), t = tanh(u), u = sqrt(2/pi) (x + c x^3),
    u' = sqrt(2/pi) (1 + 3 c x^2)."""
    (t, slope) = scratch
    np.tanh(_tanh_inner(t, x), out=t)
    np.multiply(x, x, out=slope)
    slope *= 3 * _GELU_CUBIC * _SQRT_2_OVER_PI
    slope += _SQRT_2_OVER_PI  # u'
    slope *= x
    np.multiply(t, t, out=out)
    np.subtract(1, out, out=out)  # 1 - t^2
    out *= slope
    out += t
    out += 1
    out *= 0.5
    out *= dy


def _gelu_tanh_block(out, scratch, x):
    """0.5 x (1 + tanh(u))."""
    (inner,) = scratch
    np.tanh(_tanh_inner(inner, x), out=out)
    out += 1
    out *= x
    out *= 0.5


def _blocked(name: str, body, n_scratch: int, outputs: int = 1) -> None:
    """Register `name`'s kernel: `body` over blocks where the operands allow, else the shared
    kernel."""
    def run(*operands):
        if not _fast(*operands):
            return shared.TABLE[name](_namespace(), *operands)
        return blockwise(body, n_scratch, *operands, outputs=outputs)

    TABLE[name] = run


for _name, _body, _n_scratch in (("gelu", _gelu_block, 2), ("gelu_grad", _gelu_grad_block, 2),
                                 ("gelu_tanh", _gelu_tanh_block, 1),
                                 ("gelu_tanh_grad", _gelu_tanh_grad_block, 2),
                                 ("normal_cdf", _normal_cdf_block, 2)):
    _blocked(_name, _body, _n_scratch)
_blocked("gelu_and_slope", _gelu_and_slope_block, 2, outputs=2)


def _namespace():
    return NAMESPACE


# ----- row-wise: softmax and LayerNorm, in place in the arrays they return ---------------------
# Their sums are matrix-vector products with a vector of ones where the summed axes are the
# contiguous trailing (or leading) ones: BLAS sums a short row four times faster than NumPy's
# reduction, whose per-row set-up dominates rows of a hundred elements.

_WIDE_ENOUGH = (np.float32, np.float64)
# BLAS accumulates a dot product in a few running sums, NumPy pairwise: beyond a few thousand
# terms BLAS's rounding error grows past pairwise summation's, so longer sums stay NumPy's.
BLAS_SUM_MAX = 4096


def _blas_ready(x, count: int) -> bool:
    return (x.dtype in _WIDE_ENOUGH and x.flags.c_contiguous and 0 < count <= BLAS_SUM_MAX)


def trailing_sum(x, axes: tuple):
    """sum(x, axis=axes, keepdims=True), `axes` the last len(axes) axes of x."""
    kept = x.shape[:x.ndim - len(axes)]
    count = math.prod(x.shape[x.ndim - len(axes):])
    if axes != tuple(range(len(kept), x.ndim)) or not _blas_ready(x, count):
        return np.sum(x, axis=axes, keepdims=True)
    return np.matmul(x.reshape(-1, count), np.ones(count, x.dtype)).reshape(
        kept + (1,) * len(axes))


def leading_sum(x, count_axes: int):
    """sum(x, axis=(0, ..., count_axes - 1)): the first `count_axes` axes summed away."""
    rows = math.prod(x.shape[:count_axes])
    if not _blas_ready(x, rows) or x.ndim == count_axes:
        return np.sum(x, axis=tuple(range(count_axes)))
    return np.matmul(np.ones(rows, x.dtype), x.reshape(rows, -1)).reshape(x.shape[count_axes:])


def _last_axis_max(x):
    """max(x, axis=-1, keepdims=True) by halving the last axis: NumPy's own reduction pays a
    set-up per row, which for rows of 64 costs more than the comparisons."""
    while x.shape[-1] > 1:
        n = x.shape[-1]
        half = n // 2
        folded = np.maximum(x[..., :half], x[..., half:2 * half])
        if n % 2:
            np.maximum(folded[..., :1], x[..., n - 1:], out=folded[..., :1])
        x = folded
    return x


def _axis_max(x, axis: int):
    if axis % x.ndim == x.ndim - 1 and x.shape[-1] > 0:
        return _last_axis_max(x)
    return np.max(x, axis=axis, keepdims=True)


@kernel("reduce_sum")
def _reduce_sum(x, axis=(), keep_dims=False):
    """Sums over the leading or trailing axes of a contiguous array as BLAS products."""
    if x.dtype not in _WIDE_ENOUGH:
        return shared.TABLE["reduce_sum"](_namespace(), x, axis=axis, keep_dims=keep_dims)
    if x.dtype == np.float32:  # MindSpore's float32 sums (shared.float32_sum)
        return _float32_sum(x, axis, keep_dims, mean=False)
    axes = tuple(a % x.ndim for a in axis) if axis else tuple(range(x.ndim))
    if axes and axes == tuple(range(len(axes))) and len(axes) < x.ndim:
        out = leading_sum(x, len(axes))
        return out.reshape((1,) * len(axes) + out.shape) if keep_dims else out
    if axes and axes == tuple(range(x.ndim - len(axes), x.ndim)) and len(axes) < x.ndim:
        out = trailing_sum(x, axes)
        return out if keep_dims else out.reshape(out.shape[:x.ndim - len(axes)])
    return np.sum(x, axis=axes, keepdims=keep_dims, dtype=x.dtype)


def _float32_sum(x, axis, keep_dims, mean):
    """shared.float32_sum, with the double accumulation done by the BLAS paths above."""
    if shared.float32_kernel(x.shape, axis, mean) is not None:
        return shared.float32_sum(np, x, axis, keep_dims, mean)
    return np.asarray(_reduce_sum(x.astype(np.float64), axis, keep_dims)).astype(np.float32)


@kernel("reduce_mean")
def _reduce_mean(x, axis=(), keep_dims=False):
    """A float32 mean as MindSpore's: its float32 sum (shared.float32_sum) divided in
    float32."""
    if x.dtype != np.float32:
        return shared.TABLE["reduce_mean"](_namespace(), x, axis=axis, keep_dims=keep_dims)
    return shared.mean_of_sum(np, x, _float32_sum(x, axis, keep_dims, mean=True))


def _axis_sum(x, axis: int):
    return trailing_sum(x, (x.ndim - 1,)) if axis % x.ndim == x.ndim - 1 else np.sum(
        x, axis=axis, keepdims=True)


# Softmax subtracts each row's maximum only so that exp cannot overflow (or every term of a row
# underflow). Within +-EXP_SAFE no float32 exp overflows or underflows, nor does a row's sum of
# up to e^24 terms, and the quotient is the same: two whole-array reductions then replace the
# row maxima, which cost more than the exp itself for short rows.
EXP_SAFE = 64.0


@kernel("softmax")
def _softmax(x, axis=-1):
    if x.dtype == np.float32 and x.ndim and axis % x.ndim != x.ndim - 1:
        return _softmax_across(x, axis)
    if x.dtype in _WIDE_ENOUGH and x.size and -EXP_SAFE <= x.min() and x.max() <= EXP_SAFE:
        out = np.exp(x)
    else:
        out = np.subtract(x, _axis_max(x, axis))
        np.exp(out, out=out)
    out *= 1 / _axis_sum(out, axis)
    return out


def _softmax_across(x, axis: int):
    """Softmax of float32 across an axis other than the last, as MindSpore's CPU kernel: e =
    exp(x - max) correctly rounded (NumPy's float32 exp is within an ulp of it: here in
    float64, rounded), the terms added in turn in float32, and each e divided by their sum
    (not multiplied by its reciprocal, a second rounding). Across a short axis (a
    selective-kernel or split-attention block's branches) that is half an ulp, not one."""
    out = np.subtract(x, np.max(x, axis=axis, keepdims=True))
    out = np.exp(out.astype(np.float64)).astype(np.float32)
    if math.prod(x.shape[axis % x.ndim + 1:]) > 1:
        total = np.sum(out, axis=axis, keepdims=True)  # across rows: in turn
    else:  # NumPy would add along the contiguous axis pairwise
        total = np.zeros_like(out.take([0], axis=axis))
        for j in range(out.shape[axis]):
            total += out.take([j], axis=axis)
    out /= total
    return out


@kernel("log_softmax")
def _log_softmax(x, axis=-1):
    out = np.subtract(x, _axis_max(x, axis))
    total = _axis_sum(np.exp(out), axis)
    out -= np.log(total, out=total)
    return out


@kernel("softmax_cross_entropy")
def _softmax_cross_entropy(logits, labels):
    """(loss, softmax - labels) with two arrays of the logits' size."""
    log_p = np.subtract(logits, _axis_max(logits, -1))
    dlogits = np.exp(log_p)
    total = trailing_sum(dlogits, (logits.ndim - 1,))
    log_p -= np.log(total)
    dlogits *= 1 / total
    dlogits -= labels
    log_p *= labels
    return -trailing_sum(log_p, (logits.ndim - 1,)).reshape(logits.shape[:-1]), dlogits


@kernel("softmax_grad")
def _softmax_grad(y, dy, axis=-1):
    """y * (dy - sum(dy * y)) along `axis`."""
    out = np.multiply(dy, y)
    inner = _axis_sum(out, axis)
    np.subtract(dy, inner, out=out)
    out *= y
    return out


@kernel("log_softmax_grad")
def _log_softmax_grad(y, dy, axis=-1):
    """dy - exp(y) * sum(dy) along `axis`."""
    out = np.exp(y)
    out *= _axis_sum(dy, axis)
    np.subtract(dy, out, out=out)
    return out


@kernel("layer_norm")
def _layer_norm(x, gamma, beta, begin_norm_axis, begin_params_axis, epsilon):
    if x.dtype not in _WIDE_ENOUGH:  # np.mean accumulates float16 in float32; np.sum does not
        return shared.TABLE["layer_norm"](_namespace(), x, gamma, beta, begin_norm_axis,
                                          begin_params_axis, epsilon)
    axes = tuple(range(begin_norm_axis % x.ndim, x.ndim))
    count = math.prod(x.shape[axes[0]:]) if axes else 1
    mean = trailing_sum(x, axes)
    mean /= count
    xmu = np.subtract(x, mean)
    out = np.multiply(xmu, xmu)
    var = trailing_sum(out, axes)
    var /= count
    rstd = np.sqrt(var + np.asarray(epsilon, var.dtype))
    np.divide(1, rstd, out=rstd)
    np.multiply(xmu, rstd, out=out)
    out *= gamma
    out += beta
    return out, mean, var


@kernel("layer_norm_grad")
def _layer_norm_grad(x, dy, gamma, mean, var, begin_norm_axis, begin_params_axis, epsilon):
    """dx = rstd * (g - mean(g) - xhat * mean(g * xhat)), g = dy * gamma, xhat = (x - mean) *
    rstd. Where gamma spans the normalised axes, the row sums are matrix-vector products
    (sum(g) = dy @ gamma, sum(g * xhat) = rstd * ((dy * (x - mean)) @ gamma)), so that g and
    xhat are never made: five passes over the array besides them."""
    if x.dtype not in _WIDE_ENOUGH:
        return shared.TABLE["layer_norm_grad"](_namespace(), x, dy, gamma, mean, var,
                                               begin_norm_axis, begin_params_axis, epsilon)
    first = begin_norm_axis % x.ndim
    count = math.prod(x.shape[first:])
    if begin_params_axis % x.ndim != first or not (_blas_ready(x, count)
                                                    and dy.flags.c_contiguous):
        return _layer_norm_grad_rows(x, dy, gamma, mean, var, first, begin_params_axis % x.ndim,
                                     epsilon)
    rows = math.prod(x.shape[:first])
    x2, dy2, g = x.reshape(rows, count), dy.reshape(rows, count), gamma.reshape(count)
    rstd = np.sqrt(var.reshape(rows) + np.asarray(epsilon, var.dtype))
    np.divide(1, rstd, out=rstd)
    xmu = np.subtract(x2, mean.reshape(rows, 1))
    product = np.multiply(dy2, xmu)
    mean_g = np.matmul(dy2, g)
    mean_g /= count
    xmu_factor = np.matmul(product, g)  # sum(g * (x - mean)) per row
    dgamma = (np.matmul(rstd, product) if rows <= BLAS_SUM_MAX
              else np.sum(product * rstd[:, None], axis=0))
    dbeta = leading_sum(dy2, 1)
    out = np.multiply(dy2, g)
    out -= mean_g[:, None]
    out *= rstd[:, None]
    xmu_factor *= rstd * rstd * rstd / count  # rstd^2 * mean(g * xhat)
    xmu *= xmu_factor[:, None]
    out -= xmu
    return (out.reshape(x.shape), dgamma.reshape(gamma.shape), dbeta.reshape(gamma.shape))


def _layer_norm_grad_rows(x, dy, gamma, mean, var, first, leading, epsilon):
    """The general case (gamma over more axes than are normalised, or strided operands)."""
    axes = tuple(range(first, x.ndim))
    inv_count = 1 / math.prod(x.shape[first:])
    rstd = np.sqrt(var + np.asarray(epsilon, var.dtype))
    np.divide(1, rstd, out=rstd)
    xhat = np.subtract(x, mean)
    xhat *= rstd
    product = np.multiply(dy, xhat)
    dgamma, dbeta = leading_sum(product, leading), leading_sum(dy, leading)
    g = np.multiply(dy, gamma)
    np.multiply(g, xhat, out=product)
    xhat *= trailing_sum(product, axes) * inv_count
    g -= trailing_sum(g, axes) * inv_count
    g -= xhat
    g *= rstd
    return g, dgamma, dbeta


# ----- ReLU ------------------------------------------------------------------------------------

# NumPy's maximum against a scalar zero runs an unvectorised loop; against a contiguous row of
# zeros, its SIMD one: over rows of ZERO_ROW elements, (32, 16, 32, 32) float32 takes 0.07 ms
# instead of 0.16, with the same results to the bit (NaN propagates, -0.0 stays).
ZERO_ROW = 1024
_zero_rows: dict = {}  # dtype -> a read-only row of ZERO_ROW zeros


@kernel("relu")
def _relu(x):
    if not (isinstance(x, np.ndarray) and x.dtype.kind == "f" and x.flags.c_contiguous
            and x.size >= ZERO_ROW):
        return shared.TABLE["relu"](_namespace(), x)
    zeros = _zero_rows.get(x.dtype)
    if zeros is None:
        zeros = np.zeros(ZERO_ROW, x.dtype)
        zeros.flags.writeable = False
        zeros = _zero_rows.setdefault(x.dtype, zeros)
    flat, out = x.reshape(-1), np.empty(x.shape, x.dtype)
    whole = x.size - x.size % ZERO_ROW
    np.maximum(flat[:whole].reshape(-1, ZERO_ROW), zeros,
               out=out.reshape(-1)[:whole].reshape(-1, ZERO_ROW))
    np.maximum(flat[whole:], zeros[:x.size - whole], out=out.reshape(-1)[whole:])
    return out


# ----- products and views ----------------------------------------------------------------------

# OpenBLAS multiplies small matrices about twice as slowly when the right one is column-major
# (a transposed view: attention's keys in q @ k^T): stacks of such products run faster on a
# row-major copy of the right operand. Measured on stacks of 64 x 32 by 32 x 64 (1.6 - 2.4x);
# from 64 x 128 on, the copy costs what it saves, so larger matrices are left as they are.
SMALL_MATRIX = 4096  # elements of one matrix of the right operand


_BLAS_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


@kernel("matmul")
def _matmul(x, y, transpose_a=False, transpose_b=False):
    if x.__class__ is np.ndarray and y.__class__ is np.ndarray and x.ndim == 2 == y.ndim:
        # two matrices of float32 or float64: ndarray.dot, which goes to BLAS in half the time
        # np.matmul's ufunc dispatch takes on small ones (a layout BLAS cannot read, such as a
        # strided slice, it copies first, so every such product is BLAS's, whatever the layout)
        a = x.T if transpose_a else x
        b = y.T if transpose_b else y
        dtype = a.dtype
        if b.dtype is dtype and dtype in _BLAS_DTYPES:
            return a.dot(b)
    # a matrix's .T, else the array's own swapaxes: np.swapaxes adds a dispatch costing a
    # third of a small product (the 2-D case is inline: a call costs a tenth of one)
    a = (x.T if x.__class__ is np.ndarray and x.ndim == 2 else _swap_last(x)) if transpose_a else x
    b = (y.T if y.__class__ is np.ndarray and y.ndim == 2 else _swap_last(y)) if transpose_b else y
    if getattr(a, "dtype", None) == np.float16 and getattr(b, "dtype", None) == np.float16:
        # NumPy multiplies float16 matrices without BLAS, element by element (a 20 x 512 by
        # 512 x 512 product takes over a second); MindSpore's CPU kernel accumulates in float32
        # and rounds the result, which this does, at float32 BLAS speed.
        return np.matmul(a.astype(np.float32), b.astype(np.float32)).astype(np.float16)
    if (b.ndim > 2 and b.strides[-1] != b.itemsize and 0 not in b.strides
            and b.shape[-1] * b.shape[-2] <= SMALL_MATRIX):
        b = np.ascontiguousarray(b)
    return np.matmul(a, b)


@kernel("matmul@2d")
def _matmul_2d(x, y, transpose_a=False, transpose_b=False):
    """Two matrices of one dtype, float32 or float64 (the node's types say so): ndarray.dot
    with nothing to decide at run time."""
    return (x.T if transpose_a else x).dot(y.T if transpose_b else y)


def _swap_last(x):
    """`x` with its last two axes swapped, as a view."""
    if isinstance(x, np.ndarray):
        return x.T if x.ndim == 2 else x.swapaxes(-1, -2)
    return np.swapaxes(x, -1, -2)


# The array methods, not NumPy's functions, which add a microsecond of dispatch to each view
# (a Python number, which has no methods, takes the function).
@kernel("reshape")
def _reshape(x, shape):
    return x.reshape(shape) if isinstance(x, np.ndarray) else np.reshape(x, shape)


@kernel("transpose")
def _transpose(x, perm):
    return x.transpose(perm) if isinstance(x, np.ndarray) else np.transpose(x, perm)


# ----- the NumPy namespace the shared kernels run on (the numpy backend's) --------------------

_erf_impl = []  # filled on first use: scipy's erf is imported only when an erf runs


def numpy_erf(x):
    """erf in the dtype of `x` (0-d arrays included): float32 and narrower by the rational
    approximation above (a fifth of the time of scipy's scalar-loop
    erf), wider ones by scipy.special.erf when scipy is installed, else by the
    math module's, element by element."""
    x = np.asarray(x)
    if x.dtype.itemsize <= 4:
        return blocked_erf(x.astype(np.float32, copy=False)).astype(x.dtype, copy=False)
    if not _erf_impl:
        try:
            from scipy.special import erf
        except ImportError:  # scipy is optional
            erf = np.frompyfunc(math.erf, 1, 1)
        _erf_impl.append(erf)
    return np.asarray(_erf_impl[0](x)).astype(x.dtype, copy=False)


NAMESPACE = shared.namespace(np, erf=numpy_erf, **ARRAY_API)  # (NumPy 2's API on NumPy 1)
