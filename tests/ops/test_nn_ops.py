"""The nn primitives: convolution and pooling (with their gradient primitives), special
functions, normalisation and dropout.

Forward results against NumPy references, eagerly and compiled; first, second and some third
derivatives against central finite differences in float64 (`check_grads`); MindSpore's
functional and class forms.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives import norm_ops
from cellgraph.primitives.core import PRIMITIVES
from cellgraph.primitives.errors import ArgumentValueError
from cellgraph.testing import check_grads

from .nn_helpers import F32, F64, assert_both, distinct, normal
from .nn_helpers import rng as _rng

# ----- NumPy references ------------------------------------------------------------------------

def conv2d_ref(x, w, stride=(1, 1), pad=(0, 0, 0, 0), dilation=(1, 1), group=1):
    """Direct convolution, one output position at a time."""
    xp = np.pad(x, ((0, 0), (0, 0), pad[:2], pad[2:]))
    n, _, hp, wp = xp.shape
    o, cg, kh, kw = w.shape
    ho = (hp - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    wo = (wp - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    og = o // group
    out = np.zeros((n, o, ho, wo))
    for g in range(group):
        for i in range(ho):
            rows = i * stride[0] + dilation[0] * np.arange(kh)
            for j in range(wo):
                cols = j * stride[1] + dilation[1] * np.arange(kw)
                patch = xp[:, g * cg:(g + 1) * cg][:, :, rows][:, :, :, cols]
                out[:, g * og:(g + 1) * og, i, j] = np.einsum(
                    "nchw,ochw->no", patch, w[g * og:(g + 1) * og])
    return out


def pool_ref(x, kernel, stride, pad, reduce, count_include_pad=True):
    fill = -np.inf if reduce is np.max else 0.0
    xp = np.pad(x, ((0, 0), (0, 0), pad[:2], pad[2:]), constant_values=fill)
    inside = np.pad(np.ones(x.shape[2:]), (pad[:2], pad[2:]))
    ho = (xp.shape[2] - kernel[0]) // stride[0] + 1
    wo = (xp.shape[3] - kernel[1]) // stride[1] + 1
    out = np.zeros(x.shape[:2] + (ho, wo))
    for i in range(ho):
        for j in range(wo):
            window = (slice(i * stride[0], i * stride[0] + kernel[0]),
                      slice(j * stride[1], j * stride[1] + kernel[1]))
            values = xp[(Ellipsis,) + window]
            if reduce is np.max:
                out[:, :, i, j] = values.max(axis=(2, 3))
            else:
                count = kernel[0] * kernel[1] if count_include_pad else inside[window].sum()
                out[:, :, i, j] = values.sum(axis=(2, 3)) / count
    return out


# ----- convolution -----------------------------------------------------------------------------

CONV_CONFIGS = [
    # (x shape, w shape, functional kwargs, explicit (stride, pad, dilation, group))
    ((2, 3, 7, 6), (4, 3, 3, 3), {}, ((1, 1), (0, 0, 0, 0), (1, 1), 1)),
    ((2, 3, 7, 6), (4, 3, 3, 2), {"stride": 2, "pad_mode": "pad", "padding": (1, 0, 2, 1),
                                      "dilation": (1, 2)}, ((2, 2), (1, 0, 2, 1), (1, 2), 1)),
    # "same" with stride 2 on 7 rows: 4 outputs, padding (1, 1); on 6 columns: 3, padding (0, 1)
    ((1, 2, 7, 6), (3, 2, 3, 3), {"stride": 2, "pad_mode": "same"},
     ((2, 2), (1, 1, 0, 1), (1, 1), 1)),
    ((2, 4, 5, 5), (6, 2, 3, 3), {"groups": 2, "padding": 1, "pad_mode": "pad"},
     ((1, 1), (1, 1, 1, 1), (1, 1), 2)),
    # stride 1, no more output than input channels: the NumPy-like backends compute the input
    # gradient as a convolution with the flipped filter (here over asymmetric padding)
    ((2, 4, 6, 5), (3, 4, 3, 3), {"pad_mode": "same"}, ((1, 1), (1, 1, 1, 1), (1, 1), 1)),
    ((2, 4, 6, 5), (4, 4, 3, 2), {"pad_mode": "pad", "padding": (0, 2, 1, 0)},
     ((1, 1), (0, 2, 1, 0), (1, 1), 1)),
    # 16 and more window values per kernel row (kw * C): window rows channels-last, not by pixel
    ((2, 6, 5, 4), (3, 6, 3, 3), {"pad_mode": "same"}, ((1, 1), (1, 1, 1, 1), (1, 1), 1)),
    ((1, 8, 5, 5), (9, 8, 2, 2), {"stride": 2}, ((2, 2), (0, 0, 0, 0), (1, 1), 1)),
]


@pytest.mark.parametrize("xs, ws, kwargs, explicit", CONV_CONFIGS)
def test_conv2d_forward(xs, ws, kwargs, explicit):
    x, w = normal(*xs, dtype=np.float32), normal(*ws, dtype=np.float32)
    stride, pad, dilation, group = explicit
    expected = conv2d_ref(x, w, stride, pad, dilation, group)
    assert_both(lambda x, w: ops.conv2d(x, w, **kwargs), (x, w), expected)
    assert ops.conv2d(Tensor(x), Tensor(w), **kwargs).dtype == cellgraph.float32


def test_conv2d_class_and_bias():
    x, w, b = normal(2, 3, 6, 6), normal(5, 3, 3, 3), normal(5)
    expected = conv2d_ref(x, w, pad=(1, 1, 1, 1)) + b[:, None, None]
    conv = ops.Conv2D(5, 3, pad_mode="same")
    assert_both(lambda x, w, b: ops.bias_add(conv(x, w), b), (x, w, b), expected, **F64)
    assert_both(lambda x, w, b: ops.conv2d(x, w, b, pad_mode="same"), (x, w, b), expected, **F64)


@pytest.mark.parametrize("xs, ws, kwargs, explicit", CONV_CONFIGS)
def test_conv2d_grads(xs, ws, kwargs, explicit):
    check_grads(lambda x, w: ops.conv2d(x, w, **kwargs), (normal(*xs), normal(*ws)), order=2)


@pytest.mark.parametrize("xs, ws, kwargs, explicit", CONV_CONFIGS[1:])
def test_conv2d_gradient_primitives_grads(xs, ws, kwargs, explicit):
    stride, pad, dilation, group = explicit
    conv = {"stride": stride, "pad": pad, "dilation": dilation, "group": group}
    ys = PRIMITIVES["conv2d"].abstract_eval(
        [Tensor(normal(*xs)).aval, Tensor(normal(*ws)).aval], conv).shape
    backprop_input = PRIMITIVES["conv2d_backprop_input"]
    backprop_filter = PRIMITIVES["conv2d_backprop_filter"]
    check_grads(lambda y, w: backprop_input(y, w, x_shape=xs, **conv),
                (normal(*ys), normal(*ws)), order=2)
    check_grads(lambda x, y: backprop_filter(x, y, w_shape=ws, **conv),
                (normal(*xs), normal(*ys)), order=2)


def test_conv2d_gradients_are_adjoint():
    """<conv2d(x, w), y> = <x, backprop_input(y, w)> = <w, backprop_filter(x, y)>."""
    conv = {"stride": (2, 1), "pad": (1, 0, 0, 2), "dilation": (1, 2), "group": 1}
    x, w = normal(2, 3, 7, 6), normal(4, 3, 2, 3)
    y = normal(*ops.conv2d(Tensor(x), Tensor(w), stride=(2, 1), pad_mode="pad",
                           padding=(1, 0, 0, 2), dilation=(1, 2)).shape)
    t = np.sum(conv2d_ref(x, w, **conv) * y)
    dx = PRIMITIVES["conv2d_backprop_input"](Tensor(y), Tensor(w), x_shape=x.shape, **conv)
    dw = PRIMITIVES["conv2d_backprop_filter"](Tensor(x), Tensor(y), w_shape=w.shape, **conv)
    np.testing.assert_allclose(np.sum(dx.asnumpy() * x), t, rtol=1e-12)
    np.testing.assert_allclose(np.sum(dw.asnumpy() * w), t, rtol=1e-12)


@pytest.mark.parametrize("xs, ws, kwargs, explicit", [CONV_CONFIGS[1], CONV_CONFIGS[4]])
def test_conv2d_float16_is_rounded_once(xs, ws, kwargs, explicit):
    """float16 convolutions and their gradients accumulate in float32, as GPU ones do: each
    result is the float64 result on the same float16 operands rounded once, give or take the
    float32 sum's own error (a few float32 ulps of the largest output, which matters only for
    outputs that cancel to near zero). Accumulating in float16 misses by hundreds of ulps."""
    def within_an_ulp(f, *operands):
        half = f(*[Tensor(a) for a in operands]).asnumpy()
        exact = f(*[Tensor(a.astype(np.float64)) for a in operands]).asnumpy()
        assert half.dtype == np.float16
        ulp = np.spacing(np.abs(exact).astype(np.float16)).astype(np.float64)
        float32_sum = 8 * np.finfo(np.float32).eps * np.abs(exact).max()
        assert np.all(np.abs(half - exact) <= ulp + float32_sum)

    rng = np.random.default_rng(11)  # its own draws: the same inputs in any test order
    x, w = (rng.standard_normal(s).astype(np.float16) for s in (xs, ws))
    within_an_ulp(lambda x, w: ops.conv2d(x, w, **kwargs), x, w)
    y = rng.standard_normal(ops.conv2d(Tensor(x), Tensor(w), **kwargs).shape).astype(np.float16)
    stride, pad, dilation, group = explicit
    conv = {"stride": stride, "pad": pad, "dilation": dilation, "group": group}
    within_an_ulp(lambda y, w: PRIMITIVES["conv2d_backprop_input"](y, w, x_shape=xs, **conv),
                  y, w)
    within_an_ulp(lambda x, y: PRIMITIVES["conv2d_backprop_filter"](x, y, w_shape=ws, **conv),
                  x, y)
    for i in range(2):
        within_an_ulp(lambda x, w, y, i=i: PRIMITIVES["conv2d_grad"](x, w, y, **conv)[i], x, w, y)


# ----- pooling ---------------------------------------------------------------------------------

POOLS = [
    # (x shape, kernel, stride, padding) in explicit form
    ((2, 3, 6, 6), (2, 2), (2, 2), (0, 0, 0, 0)),
    ((1, 2, 7, 5), (3, 3), (2, 2), (1, 1, 1, 1)),
    ((1, 2, 5, 6), (3, 2), (1, 2), (1, 0, 1, 0)),
]


@pytest.mark.parametrize("xs, kernel, stride, pad", POOLS)
def test_max_pool2d_forward_and_grads(xs, kernel, stride, pad):
    x = distinct(*xs)
    sym = (pad[0], pad[2]) if pad[0] == pad[1] and pad[2] == pad[3] else pad
    fn = lambda x: ops.max_pool2d(x, kernel, stride, sym)
    assert_both(fn, (x,), pool_ref(x, kernel, stride, pad, np.max), **F64)
    check_grads(fn, (x,), order=2)


@pytest.mark.parametrize("xs, kernel, stride, pad", POOLS)
@pytest.mark.parametrize("count_include_pad", [True, False])
def test_avg_pool2d_forward_and_grads(xs, kernel, stride, pad, count_include_pad):
    x = normal(*xs)
    fn = lambda x: ops.avg_pool2d(x, kernel, stride, pad,
                                  count_include_pad=count_include_pad)
    assert_both(fn, (x,), pool_ref(x, kernel, stride, pad, np.mean, count_include_pad), **F64)
    check_grads(fn, (x,), order=2)


def test_pool_classes_same_padding():
    x = distinct(2, 3, 7, 6)
    # "same", kernel 3, stride 2: rows padded (1, 1), columns (0, 1); AvgPool ignores padding
    assert_both(lambda x: ops.MaxPool(3, 2, "same")(x), (x,),
                pool_ref(x, (3, 3), (2, 2), (1, 1, 0, 1), np.max), **F64)
    assert_both(lambda x: ops.AvgPool(3, 2, "same")(x), (x,),
                pool_ref(x, (3, 3), (2, 2), (1, 1, 0, 1), np.mean, False), **F64)
    assert ops.MaxPool(kernel_size=2, strides=2)(Tensor(x)).shape == (2, 3, 3, 3)


def test_max_pool_gradient_primitives():
    """grad scatters to each window's argmax, grad_grad gathers from it: they are transposes,
    and gathering x itself gives the pooled maxima."""
    pool = {"kernel": (3, 3), "stride": (2, 2), "pad": (1, 1, 1, 1)}
    x = distinct(2, 2, 5, 5)
    g, h = normal(2, 2, 3, 3), normal(2, 2, 5, 5)
    grad = PRIMITIVES["max_pool2d_grad"](Tensor(x), Tensor(g), **pool).asnumpy()
    grad_grad = PRIMITIVES["max_pool2d_grad_grad"](Tensor(x), Tensor(h), **pool).asnumpy()
    np.testing.assert_allclose(np.sum(grad * h), np.sum(g * grad_grad), rtol=1e-12)
    np.testing.assert_allclose(
        PRIMITIVES["max_pool2d_grad_grad"](Tensor(x), Tensor(x), **pool).asnumpy(),
        pool_ref(x, (3, 3), (2, 2), (1, 1, 1, 1), np.max))
    # overlapping windows that share a maximum add their gradients there
    ones = PRIMITIVES["max_pool2d_grad"](Tensor(x), Tensor(np.ones((2, 2, 3, 3))), **pool)
    assert ones.asnumpy().sum() == 2 * 2 * 9
    for name, args in (("max_pool2d_grad", (x, g)), ("max_pool2d_grad_grad", (x, h))):
        check_grads(lambda x, v, _p=PRIMITIVES[name]: _p(x, v, **pool), args, order=2)
    check_grads(lambda g: PRIMITIVES["avg_pool2d_grad"](
        g, x_shape=(2, 2, 5, 5), count_include_pad=False, **pool), (g,), order=2)


# ----- special functions -----------------------------------------------------------------------

_erf = np.vectorize(math.erf)

SPECIAL = [
    (ops.erf, _erf, lambda: normal(3, 4)),
    (ops.gelu, lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))), lambda: normal(3, 4)),
    (ops.log1p, np.log1p, lambda: _rng.uniform(-0.5, 2.0, (3, 4))),
    (ops.expm1, np.expm1, lambda: normal(3, 4)),
    (ops.softplus, lambda x: np.log1p(np.exp(x)), lambda: normal(3, 4) * 3),
]


@pytest.mark.parametrize("fn, ref, make", SPECIAL, ids=lambda v: getattr(v, "__name__", ""))
def test_special_functions(fn, ref, make):
    x = make()
    assert_both(fn, (x,), ref(x), **F64)
    x32 = x.astype(np.float32)
    out = fn(Tensor(x32))
    assert out.dtype == cellgraph.float32
    np.testing.assert_allclose(out.asnumpy(), ref(x), **F32)
    check_grads(fn, (x,), order=2)


def test_special_function_forms():
    x = normal(2, 5)
    tanh_gelu = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    assert_both(lambda x: ops.gelu(x, approximate="tanh"), (x,), tanh_gelu, **F64)
    assert_both(lambda x: ops.softplus(x, beta=2), (x,), np.log1p(np.exp(2 * x)) / 2, **F64)
    for cls, fn in ((ops.Erf, ops.erf), (ops.Softplus, ops.softplus)):
        np.testing.assert_allclose(cls()(Tensor(x)).asnumpy(), fn(Tensor(x)).asnumpy())
    # MindSpore 2.10's ops.GeLU() is the tanh approximation (its ops.gelu the erf form)
    np.testing.assert_allclose(
        ops.GeLU()(Tensor(np.array([-0.7, -0.2, 0.3, 0.9, 2.5], np.float32))).asnumpy(),
        [-0.16942985355854034, -0.08414857089519501, 0.18537093698978424, 0.7342284917831421,
         2.4849157333374023], rtol=1e-6)
    big = ops.softplus(Tensor(np.array([800.0, -800.0]))).asnumpy()
    np.testing.assert_allclose(big, [800.0, 0.0])  # no overflow
    assert ops.erf(Tensor(np.array([1, 2], np.int32))).dtype == cellgraph.float32


def test_clip_by_value():
    x = np.array([[-2.0, -0.5, 0.3, 0.9, 1.7]])
    hi = np.array([1.0, 1.0, 1.0, 0.5, 2.0])
    expected = np.minimum(np.maximum(x, -1.0), hi)
    assert_both(lambda x, hi: ops.clip_by_value(x, -1.0, hi), (x, hi), expected, **F64)
    dx, dhi = cellgraph.grad(lambda x, hi: ops.reduce_sum(ops.clip_by_value(x, -1.0, hi)),
                             grad_position=(0, 1))(Tensor(x), Tensor(hi))
    np.testing.assert_array_equal(dx.asnumpy(), [[0, 1, 1, 0, 1]])  # passes inside the range
    np.testing.assert_array_equal(dhi.asnumpy(), [0, 0, 0, 1, 0])  # to the bound above it
    assert_both(lambda x: ops.clip_by_value(x, clip_value_max=0.0), (x,), np.minimum(x, 0))
    check_grads(lambda x, lo, hi: ops.clip_by_value(x, lo, hi),
                (normal(3, 4), np.full((4,), -0.3), np.full((3, 1), 0.5)), order=2)
    with pytest.raises(ArgumentValueError, match="For 'clip_by_value', at least one of"):
        ops.clip_by_value(Tensor(x))


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumsum(exclusive, reverse):
    x = normal(3, 4)
    flipped = x[:, ::-1] if reverse else x
    ref = np.cumsum(flipped, axis=1) - (flipped if exclusive else 0)
    ref = ref[:, ::-1] if reverse else ref
    op = ops.CumSum(exclusive=exclusive, reverse=reverse)
    assert_both(lambda x: op(x, -1), (x,), ref, **F64)
    check_grads(lambda x: op(x, 1), (x,), order=2)
    ints = Tensor(np.arange(6, dtype=np.int32).reshape(2, 3))
    assert ops.cumsum(ints, 0).dtype == cellgraph.int32


def test_reduce_prod_forward():
    x = normal(2, 3, 4)
    assert_both(lambda x: ops.reduce_prod(x, (0, 2)), (x,), np.prod(x, axis=(0, 2)), **F64)
    assert_both(lambda x: ops.ReduceProd(keep_dims=True)(x, 1), (x,),
                np.prod(x, axis=1, keepdims=True), **F64)
    assert_both(lambda x: ops.prod(x), (x,), np.prod(x), **F64)


def test_reduce_prod_grads_with_zeros():
    x = np.array([[1.5, 0.0, 2.0], [0.5, -3.0, 0.7], [0.0, 0.0, 4.0]])
    grad = cellgraph.grad(lambda x: ops.reduce_sum(ops.reduce_prod(x, 1)))(Tensor(x)).asnumpy()
    np.testing.assert_allclose(grad, [[0.0, 3.0, 0.0], [-2.1, 0.35, -1.5], [0.0, 0.0, 0.0]])
    check_grads(lambda x: ops.reduce_prod(x, 1), (normal(3, 4),), order=2)
    check_grads(lambda x: ops.reduce_prod(x, 1), (x[:2],), order=2)  # at most one zero a row
    check_grads(lambda x: ops.reduce_prod(x, 1, keep_dims=True), (x,), order=1)
    check_grads(lambda x: ops.reduce_prod(x), (_rng.uniform(0.5, 1.5, (2, 3)),), order=2)


# ----- normalisation and dropout ---------------------------------------------------------------

def _layer_norm_ref(x, gamma, beta, axis, eps):
    axes = tuple(range(axis, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta, mean, var


@pytest.mark.parametrize("norm_axis, params_axis", [(1, 1), (2, 2), (-1, -1), (2, 1)])
def test_layer_norm(norm_axis, params_axis):
    x = normal(2, 3, 4)
    gamma, beta = normal(*x.shape[params_axis:]), normal(*x.shape[params_axis:])
    op = ops.LayerNorm(norm_axis, params_axis, 1e-5)
    expected = _layer_norm_ref(x, gamma, beta, norm_axis % 3, 1e-5)
    assert_both(op, (x, gamma, beta), expected, **F64)
    check_grads(lambda *args: op(*args)[0], (x, gamma, beta), order=2)
    # the core primitive differentiates its statistics too (a higher order reads them)
    axes = {"begin_norm_axis": norm_axis % 3, "begin_params_axis": params_axis % 3,
            "epsilon": 1e-5}
    check_grads(lambda *args: norm_ops.layer_norm(*args, **axes), (x, gamma, beta), order=2)


def test_layer_norm_statistics_pass_no_gradient():
    # MindSpore 2.10: LayerNorm's bprop reads dy alone, so the mean and variance outputs add
    # nothing to the gradients (f(x) = 2 y + 3 mean + 5 variance gives twice y's gradient)
    x = Tensor(np.array([[1, 2, 3.5], [1, -2, 3]], np.float32))
    gamma, beta = Tensor(np.array([1, 2, 3], np.float32)), Tensor(np.zeros(3, np.float32))

    def f(x, gamma, beta):
        y, mean, variance = ops.LayerNorm(1, 1, 1e-7)(x, gamma, beta)
        return y * 2 + mean * 3 + variance * 5

    before = cellgraph.get_context("mode")
    for mode in (cellgraph.PYNATIVE_MODE, cellgraph.GRAPH_MODE):
        cellgraph.set_context(mode=mode)
        dx, dgamma, dbeta = ops.grad(f, (0, 1, 2))(x, gamma, beta)
        np.testing.assert_allclose(dx.asnumpy(), [[-0.15368366, 0.25613928, -0.10245514],
                                                  [-1.0245564, 0.40982258, 0.6147338]],
                                   rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(dgamma.asnumpy(), [-1.946657, -2.9199858, 4.866642],
                                   rtol=1e-5)
        np.testing.assert_allclose(dbeta.asnumpy(), [4.0, 4.0, 4.0])
    cellgraph.set_context(mode=before)


def test_layer_norm_functional():
    x, w, b = normal(4, 6), normal(6), normal(6)
    assert_both(lambda x, w, b: ops.layer_norm(x, (6,), w, b), (x, w, b),
                _layer_norm_ref(x, w, b, 1, 1e-5)[0], **F64)
    assert_both(lambda x: ops.layer_norm(x, (6,)), (x,),
                _layer_norm_ref(x, 1.0, 0.0, 1, 1e-5)[0], **F64)


def _batch_norm_args(shape=(4, 3, 2, 2)):
    c = shape[1]
    return normal(*shape), normal(c), normal(c), normal(c), _rng.uniform(0.5, 1.5, c)


@pytest.mark.parametrize("shape", [(4, 3, 2, 2), (5, 3)])
def test_batch_norm_training(shape):
    x, scale, bias, mean, var = _batch_norm_args(shape)
    axes = (0,) + tuple(range(2, len(shape)))
    per_channel = (1, shape[1]) + (1,) * (len(shape) - 2)
    bm, bv = x.mean(axis=axes), x.var(axis=axes)
    y = (x - bm.reshape(per_channel)) / np.sqrt(bv.reshape(per_channel) + 1e-5) * \
        scale.reshape(per_channel) + bias.reshape(per_channel)
    count = x.size // shape[1]
    op = ops.BatchNorm(is_training=True, momentum=0.1)
    zeros = np.zeros(shape[1])
    # MindSpore 2.10 CPU's outputs: zeros, then the batch's mean and biased variance; the
    # running statistics are updated in place, eagerly and in a graph
    for run in (op, cellgraph.jit(lambda *a: op(*a))):
        running = Tensor(mean), Tensor(var)
        got = run(Tensor(x), Tensor(scale), Tensor(bias), *running)
        for g, e in zip(got, (y, zeros, zeros, bm, bv)):
            np.testing.assert_allclose(g.asnumpy(), e, **F64)
        np.testing.assert_allclose(running[0].asnumpy(), 0.9 * mean + 0.1 * bm, **F64)
        np.testing.assert_allclose(running[1].asnumpy(),
                                   0.9 * var + 0.1 * bv * count / (count - 1), **F64)
    assert_both(lambda *a: ops.batch_norm(*a, training=True),
                (x, mean, var, scale, bias), y, **F64)
    check_grads(lambda x, s, b: op(x, s, b, Tensor(mean), Tensor(var))[:3], (x, scale, bias),
                order=2)


def test_batch_norm_inference():
    x, scale, bias, mean, var = _batch_norm_args()
    r = lambda v: v.reshape(1, 3, 1, 1)
    y = (x - r(mean)) / np.sqrt(r(var) + 1e-3) * r(scale) + r(bias)
    op = ops.BatchNorm(epsilon=1e-3)
    zeros = np.zeros(3)
    assert_both(op, (x, scale, bias, mean, var), (y, zeros, zeros, zeros, zeros), **F64)
    check_grads(lambda *a: op(*a)[:3], (x, scale, bias, mean, var), order=2)


def test_batch_norm_channels_last_is_the_channels_first_of_the_moved_input():
    x, scale, bias, mean, var = _batch_norm_args()
    for training in (False, True):
        first = ops.BatchNorm(training, 1e-5, 0.1, "NCHW")(
            *(Tensor(a) for a in (x, scale, bias, mean, var)))
        last = ops.BatchNorm(training, 1e-5, 0.1, "NHWC")(
            *(Tensor(a) for a in (x.transpose(0, 2, 3, 1), scale, bias, mean, var)))
        np.testing.assert_allclose(last[0].asnumpy(), first[0].asnumpy().transpose(0, 2, 3, 1),
                                   rtol=1e-12)
        for a, b in zip(last[1:], first[1:]):
            np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-12)
    with pytest.raises(ValueError, match="data_format"):
        ops.BatchNorm(True, data_format="NCDHW")(*(Tensor(a) for a in (x, scale, bias, mean, var)))


def test_batch_norm_with_a_batch_size_known_at_run_time():
    """The running variance's count and the statistics' gradients read the batch size when the
    graph runs (MindSpore 2.10's dynamic-shape BatchNorm test: a Unique-gathered batch)."""
    rng = np.random.default_rng(5)
    x, sens = rng.standard_normal((2, 5, 3)).astype(np.float32)
    scale, bias, mean = rng.standard_normal((3, 3)).astype(np.float32)
    var = np.abs(rng.standard_normal(3)).astype(np.float32) + 0.5

    class Net(cellgraph.nn.Cell):
        def __init__(self):
            super().__init__()
            self.bn = ops.BatchNorm(True, 1e-5, 0.1)

        def construct(self, x, scale, bias, mean, var):
            return self.bn(x, scale, bias, mean, var)

    def run(dynamic):
        stats = [Tensor(a) for a in (scale, bias, mean, var)]
        net, grad_net = Net(), ops.GradOperation(get_all=True, sens_param=True)
        grad = cellgraph.jit(lambda *a: grad_net(net)(*a))
        if dynamic:
            net.set_inputs(Tensor(shape=[None, 3], dtype=cellgraph.float32), *stats)
        out = net(Tensor(x), *stats)
        running = stats[3].asnumpy().copy()
        sens_all = (Tensor(sens),) + tuple(ops.ones_like(o) for o in out[1:])
        return out, grad(Tensor(x), *stats, sens_all), running

    (out_dyn, grads_dyn, var_dyn), (out_static, grads_static, _) = run(True), run(False)
    for a, b in zip(out_dyn + grads_dyn, out_static + grads_static):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(var_dyn,  # updated with the unbiased batch variance, n = 5
                               0.9 * var + 0.1 * x.var(0, ddof=1), rtol=1e-5)


def test_dropout():
    x = normal(4, 5)
    mask = (_rng.random((4, 5)) < 0.6).astype(np.float64)
    scale = float(np.float32(1) / np.float32(0.6))  # MindSpore's kernel: 1.f / keep_prob
    assert_both(lambda x, m: NF.dropout_masked(x, 0.4, mask=m), (x, mask), x * mask * scale,
                **F64)
    check_grads(lambda x: NF.dropout_masked(x, 0.4, mask=Tensor(mask)), (x,), order=2)
    with pytest.raises(TypeError):  # MindSpore's ops.dropout draws its own mask
        ops.dropout(Tensor(x), 0.4, mask=Tensor(mask))
    np.testing.assert_array_equal(ops.dropout(Tensor(x), 0.4, training=False).asnumpy(), x)


def test_dropout_draws_its_mask_when_none_is_given():
    big = Tensor(np.ones((200, 50), np.float32))
    first = ops.dropout(big, 0.25).asnumpy()
    assert set(np.unique(first)) == {0.0, np.float32(1 / 0.75)}
    assert abs((first == 0).mean() - 0.25) < 0.02
    cellgraph.set_seed(3)
    compiled = cellgraph.jit(lambda x: ops.dropout(x, 0.25))
    first = compiled(big).asnumpy()
    assert not np.array_equal(compiled(big).asnumpy(), first)  # drawn per run
    cellgraph.set_seed(3)  # the seeds are taken when a graph is compiled, as in MindSpore
    again = cellgraph.jit(lambda x: ops.dropout(x, 0.25))
    np.testing.assert_array_equal(again(big).asnumpy(), first)


def test_dropout_class_returns_its_mask():
    x = normal(100, 40)
    out, mask = cellgraph.jit(lambda x: ops.Dropout(keep_prob=0.8)(x))(Tensor(x))
    mask = mask.asnumpy()
    assert set(np.unique(mask)) == {0.0, 1.0} and abs(mask.mean() - 0.8) < 0.03
    np.testing.assert_allclose(out.asnumpy(), x * mask / 0.8, **F64)


# ----- a small network: every layer's second derivative at once ----------------------------------

def test_conv_net_second_order():
    def net(x, w1, w2, b, gamma, beta):
        h = ops.gelu(ops.bias_add(ops.conv2d(x, w1, padding=1, pad_mode="pad"), b))
        h = ops.max_pool2d(h, 2, 2)
        h = ops.LayerNorm(1, 1, 1e-5)(h, gamma, beta)[0]
        h = ops.avg_pool2d(ops.conv2d(h, w2, stride=2, pad_mode="same"), 2)
        return ops.softplus(ops.reshape(h, (2, -1)))

    args = (normal(2, 1, 8, 8), normal(3, 1, 3, 3), normal(4, 3, 3, 3), normal(3),
            1 + 0.1 * normal(3, 4, 4), normal(3, 4, 4))
    check_grads(net, args, order=2)


def _gelu_erf_softplus(x):
    return ops.gelu(x) * ops.erf(x) + ops.softplus(x) * ops.expm1(x) + ops.log1p(x * x)


def _normalised(x, gamma, beta):
    y = ops.LayerNorm(1, 1, 1e-5)(x, gamma, beta)[0]
    # running statistics of their own: training BatchNorm updates them in place
    z = ops.BatchNorm(True)(ops.reshape(x, (3, 4, 1, 1)), gamma, beta, beta * 1, gamma * 1)[0]
    return y * ops.reshape(z, (3, 4))


def _product(x):
    return ops.reduce_prod(x, 1) + ops.CumSum(reverse=True)(x * x, 1)[:, 0]


@pytest.mark.parametrize("fn, shapes", [(_gelu_erf_softplus, [(3, 4)]),
                                        (_normalised, [(3, 4), (4,), (4,)]),
                                        (_product, [(3, 4)])])
def test_third_order(fn, shapes):
    check_grads(fn, tuple(normal(*s) + (1.5 if len(s) == 1 else 0) for s in shapes), order=3)


def test_masked_backward_passes_select_rather_than_multiply():
    """relu_grad and max_pool2d_scatter keep a gradient only where the mask holds: an infinite
    or NaN gradient elsewhere gives 0 (a product with the mask would give NaN)."""
    relu_grad = PRIMITIVES["relu_grad"]
    x = Tensor(np.array([1.0, -1.0, 0.0, 2.0], np.float32))
    dy = Tensor(np.array([np.inf, np.inf, np.nan, -3.0], np.float32))
    np.testing.assert_array_equal(relu_grad(x, dy).asnumpy(), [np.inf, 0.0, 0.0, -3.0])
    scatter = PRIMITIVES["max_pool2d_scatter"]
    argmax = Tensor(np.array([[[[3]]]], np.int32))  # (1, 1) of the one 2x2 window
    g = Tensor(np.array([[[[np.inf]]]], np.float32))
    dx = scatter(argmax, g, x_shape=(1, 1, 2, 2), kernel=(2, 2), stride=(2, 2), pad=(0, 0, 0, 0))
    np.testing.assert_array_equal(dx.asnumpy(), [[[[0, 0], [0, np.inf]]]])
