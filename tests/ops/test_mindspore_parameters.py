"""The hand-written functions take MindSpore 2.10's parameters and give its results for them:
the arguments added to match its signatures (`initial`/`where`, `dtype`, `maxlen`, `device`,
`mode`, ...), the defaults whose meaning MindSpore fixes, and the old spellings it refuses.
Expected values were recorded from MindSpore 2.10 CPU."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, mint, ops
from cellgraph import numpy as mnp
from cellgraph.primitives.errors import UnsupportedError

X = np.arange(6, dtype=np.float32).reshape(2, 3)
MASK = np.array([[True, False, True], [False, True, False]])


def test_amax_amin_initial_and_where():
    x = Tensor(X)
    np.testing.assert_array_equal(ops.amax(x, 0, initial=3.5).asnumpy(), [3.5, 4.0, 5.0])
    np.testing.assert_array_equal(ops.amax(x, 1, where=Tensor(MASK), initial=-1.0).asnumpy(),
                                  [2.0, 4.0])
    np.testing.assert_array_equal(x.amax(1, where=Tensor(MASK), initial=-1.0).asnumpy(),
                                  [2.0, 4.0])
    np.testing.assert_array_equal(ops.amin(x, 1, where=Tensor(MASK), initial=9.0).asnumpy(),
                                  [0.0, 4.0])
    assert float(mnp.amax(x, initial=10.0).asnumpy()) == 10.0
    assert float(mnp.max(x, where=Tensor(np.array([True, False, True])),
                         initial=-5.0).asnumpy()) == 5.0
    with pytest.raises(ValueError, match="initial"):
        ops.amax(x, 1, where=Tensor(MASK))


def test_dtype_arguments_cast_first():
    x = Tensor(X)
    soft = ops.softmax(x, 1, dtype=ms.float16)
    assert soft.dtype == ms.float16
    np.testing.assert_allclose(soft.asnumpy(), [[0.0901, 0.2448, 0.6655]] * 2, atol=1e-3)
    assert x.softmax(1, dtype=ms.float16).dtype == ms.float16
    assert ops.sum(x, 1, dtype=ms.float64).dtype == ms.float64
    np.testing.assert_array_equal(ops.prod(x, 1, False, ms.float64).asnumpy(), [0.0, 60.0])
    assert mnp.cbrt(x, dtype=ms.float16).dtype == ms.float16
    assert mint.linspace(0, 1, 3, dtype=ms.float64).dtype == ms.float64


def test_old_keywords_are_refused_as_in_mindspore():
    x = Tensor(X)
    for call in (lambda: ops.sum(x, axis=0), lambda: ops.argmax(x, axis=1),
                 lambda: ops.mm(x, x, transpose_b=True), lambda: ops.cumsum(x, 1, exclusive=True),
                 lambda: ops.bias_add(x, x[0], data_format="NCHW"),
                 lambda: ops.vector_norm(x, dim=1), lambda: ops.kl_div(x, x, log_target=True),
                 lambda: ops.unique_consecutive(x, return_idx=True),
                 lambda: ops.rot90(x),
                 lambda: ops.standard_normal((2,), 0, 0), lambda: mint.ones(2, 3),
                 lambda: ms.get_context(key="mode"), lambda: x.softmax(),
                 lambda: mint.nn.ConstantPad1d(1), lambda: mint.randint(low=1, high=5, size=(3,)),
                 lambda: ops.MultitypeFuncGraph("add", doc_url="")):
        with pytest.raises(TypeError):
            call()


def test_defaults_keep_mindspore_meaning():
    assert ops.eye(2).dtype == ms.float32 and mint.eye(2).dtype == ms.float32
    out = ops.nan_to_num(Tensor(np.array([np.nan, np.inf], np.float32))).asnumpy()
    np.testing.assert_array_equal(out, [0.0, np.finfo(np.float32).max])
    grids = (Tensor(np.arange(2)), Tensor(np.arange(3)))
    assert [g.shape for g in mint.meshgrid(*grids)] == [(2, 3), (2, 3)]   # None: "ij"
    assert [g.shape for g in ops.meshgrid(*grids)] == [(3, 2), (3, 2)]    # ops: "xy"
    image = Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    grid = Tensor(np.array([[[[0.3, 0.2]]]], np.float32))
    np.testing.assert_allclose(ops.grid_sample(image, grid).asnumpy().ravel(), [9.7], rtol=1e-5)
    np.testing.assert_allclose(ops.grid_sample(image, grid, align_corners=True).asnumpy().ravel(),
                               [9.15], rtol=1e-5)
    np.testing.assert_array_equal(ops.rot90(Tensor(X), 1, (0, 1)).asnumpy(), np.rot90(X))
    assert mint.randperm(4).dtype == ms.int64


def test_avg_pool3d_stride_and_divisor_override():
    x = Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 2, 2, 4))
    np.testing.assert_allclose(ops.avg_pool3d(x, 2, 2, divisor_override=3).asnumpy().ravel(),
                               [17.333334, 22.666666], rtol=1e-6)
    assert ops.avg_pool3d(x, 2).shape == (1, 1, 1, 1, 3)   # stride 1 by default
    with pytest.raises(ValueError):
        ops.avg_pool3d(x, 2, 2, ceil_mode=True)
    with pytest.raises(ValueError):
        ops.max_pool3d(x, 2, 1, dilation=2)


def test_range_maxlen_is_checked_not_cut():
    start, end, step = Tensor(0), Tensor(5), Tensor(1)
    np.testing.assert_array_equal(ops.range(start, end, step, maxlen=3).asnumpy(), np.arange(5))
    with pytest.raises(ValueError):
        ops.range(start, end, step, maxlen=0)
    with pytest.raises(TypeError):
        ops.range(start, end, step, maxlen=2.5)


def test_conv_transpose2d_takes_explicit_padding():
    x, w = Tensor(np.ones((1, 1, 3, 3), np.float32)), Tensor(np.ones((1, 1, 2, 2), np.float32))
    assert ops.conv_transpose2d(x, w, None, 1, 0).shape == (1, 1, 4, 4)
    assert ops.conv_transpose2d(x, w, None, 2, 1, 1).shape == (1, 1, 5, 5)


def test_mint_spellings_of_their_own():
    x = Tensor(X)
    np.testing.assert_array_equal(
        mint.nn.functional.one_hot(Tensor(np.array([0, 2]))).asnumpy(), [[1, 0, 0], [0, 0, 1]])
    assert mint.nn.functional.one_hot(Tensor(np.array([0, 2])), 4).shape == (2, 4)
    with pytest.raises(TypeError):
        mint.nn.functional.one_hot(x)
    np.testing.assert_allclose(mint.nn.GELU()(x).asnumpy(),
                               ops.gelu(x, "none").asnumpy(), rtol=1e-6)
    assert mint.nn.ConstantPad1d(1, 2.0)(x).asnumpy()[0, 0] == 2.0
    assert mint.randint(1, 5, (3,)).shape == (3,) and mint.randint(5, (2,)).shape == (2,)
    assert mint.randint_like(x, 1, 4).shape == x.shape
    with pytest.raises(UnsupportedError):
        mint.nn.ELU(inplace=True)
    assert mint.nn.BCEWithLogitsLoss(None, "sum").reduction == "sum"


@pytest.mark.parametrize("device, error", [(None, None), ("CPU", None), ("cpu", None),
                                           ("Ascend", RuntimeError), ("GPU", ValueError),
                                           (3, TypeError)])
def test_mint_device_argument(device, error):
    if error is None:
        assert mint.rand(2, device=device).shape == (2,)
        assert mint.empty(2, device=device).shape == (2,)
    else:
        with pytest.raises(error):
            mint.rand(2, device=device)


def test_numpy_take_modes():
    x, idx = Tensor(X), Tensor(np.array([-1, 0, 7]))
    np.testing.assert_array_equal(mnp.take(x, idx).asnumpy(), [5.0, 0.0, 5.0])
    np.testing.assert_array_equal(mnp.take(x, idx, mode="wrap").asnumpy(), [5.0, 0.0, 1.0])
    np.testing.assert_array_equal(mnp.take(x, idx, axis=1).asnumpy(), [[2, 0, 2], [5, 3, 5]])
    with pytest.raises(NotImplementedError):
        mnp.take(x, idx, mode="raise")


def test_value_and_grad_sens_param():
    x = Tensor(np.array([1.0, 2.0], np.float32))
    value, grad = ops.value_and_grad(lambda x: x * x, 0, sens_param=True)(
        x, Tensor(np.array([1.0, 10.0], np.float32)))
    np.testing.assert_array_equal(value.asnumpy(), [1.0, 4.0])
    np.testing.assert_array_equal(grad.asnumpy(), [2.0, 40.0])


def test_tensor_qr_some_and_astype_copy():
    q, r = Tensor(X).qr(some=False)
    assert q.shape == (2, 2) and r.shape == (2, 3)
    x = Tensor(X)
    assert x.astype(ms.float32, copy=False) is x and x.astype(ms.float32) is not x
    assert x.astype(ms.int32).dtype == ms.int32


def test_primitive_classes_require_what_mindspore_requires():
    for make in (lambda: ops.Pad(), lambda: ops.Conv2D(4), lambda: ops.BroadcastTo(),
                 lambda: ops.Cummax(), lambda: ops.STFT(8, 2, 8), lambda: ops.Zeros(1),
                 lambda: ops.Primitive()):
        with pytest.raises(TypeError):
            make()
    assert ops.Pad(((1, 0),))(Tensor(np.ones(2, np.float32))).shape == (3,)
    x = Tensor(X)
    assert ops.ReduceSum(skip_mode=True)(x) is x                       # empty axis: no reduction
    assert ops.ReduceSum(skip_mode=True)(x, (0,)).shape == (3,)
    np.testing.assert_array_equal(ops.MatMul(transpose_b=True)(x, x).asnumpy(), X @ X.T)
    np.testing.assert_array_equal(ops.Gather(0)(x, Tensor(np.array([2])), 1).asnumpy(),
                                  [[2.0], [5.0]])


def test_jit_takes_mindspore_parameters_and_drops_deprecated_ones():
    double = ms.jit(lambda x: x * 2, mode="PSJit", input_signature=None)
    np.testing.assert_array_equal(double(Tensor(X)).asnumpy(), X * 2)
    assert ms.jit(jit_level="O1")(lambda x: x + 1)(Tensor(X)).shape == (2, 3)
    with pytest.raises(ValueError):
        ms.jit(lambda x: x, capture_mode="graph")


def test_top_level_names_are_the_submodules_objects():
    assert ms.Accuracy is ms.train.metrics.Accuracy and ms.FileWriter is ms.mindrecord.FileWriter
    assert ms.is_tensor(Tensor(X)) and ms.memory_allocated() == 0
    assert ms.DatasetHelper is ms.train.DatasetHelper
    from cellgraph import hal
    assert hal.memory_allocated("CPU") == 0
    with pytest.raises(ValueError):
        hal.memory_allocated("TPU")


# ----- ops' functional ops under MindSpore's parameters where the core's primitives differ ------
XF = np.array([-7.0, 5.0, 3.5], np.float32)
YF = np.array([2.0, -2.0, 1.5], np.float32)
XI = np.array([-7, 5, 3], np.int32)
YI = np.array([2, -2, 2], np.int32)


@pytest.mark.parametrize("fn", [ops.div, ops.divide, ops.functional.div, ops.functional.divide])
def test_div_rounding_mode(fn):
    cases = [  # (x, y, rounding_mode, MindSpore's dtype, values)
        (XF, YF, "floor", ms.float32, [-4.0, -3.0, 2.0]),
        (XF, YF, "trunc", ms.float32, [-3.0, -2.0, 2.0]),
        (XI, YI, None, ms.float32, [-3.5, -2.5, 1.5]),
        (XI, YI, "floor", ms.int32, [-4, -3, 1]),
        (XI, YI, "trunc", ms.int32, [-3, -2, 1]),
    ]
    for x, y, mode, dtype, want in cases:
        out = fn(Tensor(x), Tensor(y), rounding_mode=mode)
        assert out.dtype == dtype
        np.testing.assert_allclose(out.asnumpy(), want)
    out = fn(Tensor(XI), 2, rounding_mode="trunc")  # a Python int takes the Tensor's dtype
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [-3, 2, 1])
    with pytest.raises(ValueError, match="rounding_mode"):
        fn(Tensor(XF), Tensor(YF), rounding_mode="bad")
    with pytest.raises(TypeError):
        fn(Tensor(XF), Tensor(YF), "floor")  # keyword-only, as MindSpore's


@pytest.mark.parametrize("fn", [ops.subtract, ops.functional.subtract])
def test_subtract_alpha(fn):
    np.testing.assert_allclose(fn(Tensor(XF), Tensor(YF), alpha=2).asnumpy(), [-11.0, 9.0, 0.5])
    np.testing.assert_allclose(fn(Tensor(XF), Tensor(YF), alpha=0.5).asnumpy(),
                               [-8.0, 6.0, 2.75])
    out = fn(Tensor(XI), Tensor(YI), alpha=2)
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [-11, 9, -1])
    out = fn(Tensor(XI), Tensor(YI), alpha=2.5)  # a float alpha makes an integer result float
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), [-12.0, 10.0, -2.0])
    np.testing.assert_allclose(fn(Tensor(XF), 1, alpha=2).asnumpy(), [-9.0, 3.0, 1.5])


def test_div_subtract_in_graph():
    class Net(ms.nn.Cell):
        def construct(self, a, b):
            return ops.div(a, b, rounding_mode="trunc"), ops.subtract(a, b, alpha=3)

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        q, d = Net()(Tensor(XI), Tensor(YI))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert q.dtype == ms.int32 and d.dtype == ms.int32
    np.testing.assert_array_equal(q.asnumpy(), [-3, -2, 1])
    np.testing.assert_array_equal(d.asnumpy(), [-13, 11, -3])


@pytest.mark.parametrize("name", ["ones_like", "zeros_like"])
def test_ones_zeros_like_dtype(name):
    x = Tensor(np.array([[-7, 5, 3]], np.int32))
    fill = 1 if name == "ones_like" else 0
    for fn in (getattr(ops, name), getattr(ops.functional, name), getattr(mint, name)):
        out = fn(x)
        assert out.dtype == ms.int32 and out.shape == (1, 3)
        np.testing.assert_array_equal(out.asnumpy(), [[fill] * 3])
        out = fn(input=x, dtype=ms.float16)
        assert out.dtype == ms.float16
        np.testing.assert_array_equal(out.asnumpy(), [[fill] * 3])
        assert fn(x, dtype=ms.bool_).dtype == ms.bool_
        with pytest.raises(TypeError):
            fn(x, ms.float16)  # dtype is keyword-only


def test_matrix_solve_adjoint_positional():
    a = Tensor(np.array([[2.0, 1.0], [0.0, 3.0]], np.float32))
    b = Tensor(np.array([[1.0], [2.0]], np.float32))
    np.testing.assert_allclose(ops.matrix_solve(a, b).asnumpy(), [[1 / 6], [2 / 3]], rtol=1e-6)
    np.testing.assert_allclose(ops.matrix_solve(a, b, True).asnumpy(), [[0.5], [0.5]], rtol=1e-6)
    np.testing.assert_allclose(ops.functional.matrix_solve(matrix=a, rhs=b, adjoint=True)
                               .asnumpy(), [[0.5], [0.5]], rtol=1e-6)


@pytest.mark.parametrize("name", ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min"])
def test_reduce_functions_take_no_keep_dims(name):
    a = Tensor(np.array([[2.0, 1.0], [0.0, 3.0]], np.float32))
    want = {"reduce_sum": ([3.0, 3.0], 6.0), "reduce_mean": ([1.5, 1.5], 1.5),
            "reduce_max": ([2.0, 3.0], 3.0), "reduce_min": ([1.0, 0.0], 0.0)}[name]
    for fn in (getattr(ops, name), getattr(ops.functional, name)):
        np.testing.assert_allclose(fn(a, 1).asnumpy(), want[0])
        np.testing.assert_allclose(fn(a).asnumpy(), want[1])
        with pytest.raises(TypeError):  # MindSpore's ReduceXxx() instance: keep_dims=False
            fn(a, 1, True)
    # keep_dims belongs to the class
    cls = getattr(ops, "".join(p.capitalize() for p in name.split("_")))
    assert cls(keep_dims=True)(a, 1).shape == (2, 1)


def test_relu_inplace():
    x = Tensor(np.array([-1.0, 2.0], np.float32))
    out = ops.relu(x)
    np.testing.assert_array_equal(out.asnumpy(), [0.0, 2.0])
    np.testing.assert_array_equal(x.asnumpy(), [-1.0, 2.0])
    for fn in (ops.relu, ops.functional.relu, mint.nn.functional.relu):
        x = Tensor(np.array([-1.0, 2.0], np.float32))
        assert fn(x, inplace=True) is x
        np.testing.assert_array_equal(x.asnumpy(), [0.0, 2.0])

    class Net(ms.nn.Cell):
        def construct(self, x):
            y = ops.relu(x, inplace=True)
            return x, y

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        x = Tensor(np.array([-1.0, 2.0], np.float32))
        a, b = Net()(x)
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_array_equal(a.asnumpy(), [0.0, 2.0])
    np.testing.assert_array_equal(b.asnumpy(), [0.0, 2.0])
    np.testing.assert_array_equal(x.asnumpy(), [0.0, 2.0])  # written back after the run


def test_scalar_functions_take_x_and_y():
    F = ops.functional
    assert F.scalar_add(x=2, y=3) == 5
    assert F.scalar_div(7, 2) == 3.5
    assert F.scalar_floordiv(7, 2) == 3
    assert F.scalar_pow(x=2, y=3) == 8
    assert F.scalar_usub(x=2) == -2
    assert F.scalar_lt(1, 2) is True


def test_round_class_takes_decimals_at_the_call():
    x = Tensor(np.array([1.26, 2.5, -0.55], np.float32))
    with pytest.raises(TypeError):
        ops.Round(2)
    np.testing.assert_array_equal(ops.Round()(x).asnumpy(), [1.0, 2.0, -1.0])  # MindSpore's
    np.testing.assert_allclose(ops.Round()(x, decimals=1).asnumpy(), [1.3, 2.5, -0.6],
                               rtol=1e-6)


def test_ops_dtype_is_a_tensors_dtype():
    # MindSpore's ops.dtype is its DType primitive (ops.functional.dtype), not a module of dtypes
    assert ops.dtype is ops.functional.dtype
    assert ops.dtype(Tensor(np.array([1, 2]))) == ms.int64
    assert not hasattr(ops.dtype, "float32")

    class AnyCallable:
        def __call__(self, x):
            return ops.dtype(x)

    @ms.jit
    def func(x):
        return AnyCallable()(x)

    assert func(Tensor(np.array([1.0], np.float32))) == ms.float32
