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
