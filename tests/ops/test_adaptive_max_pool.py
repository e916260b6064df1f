"""ops.adaptive_max_pool1d and ops.adaptive_max_pool2d: the values and indices MindSpore 2.10
gives for the same inputs (recorded below), and its argument checks."""
import numpy as np
import pytest

from cellgraph import Tensor, nn, ops


def test_one_dimension_as_mindspore():
    x = Tensor(np.arange(2 * 3 * 10).reshape(2, 3, 10).astype(np.float32))
    out = ops.adaptive_max_pool1d(x, 5)
    assert out.shape == (2, 3, 5) and out[0, 0].asnumpy().tolist() == [1, 3, 5, 7, 9]
    with pytest.raises(ValueError, match="must be divisible by output size 4, but got 10"):
        ops.adaptive_max_pool1d(x, 4)
    with pytest.raises(TypeError, match="float16 or float32"):
        ops.adaptive_max_pool1d(Tensor(np.ones((1, 1, 4))), 2)


def test_two_dimensions_with_indices_as_mindspore():
    y = Tensor(np.random.RandomState(0).rand(1, 2, 5, 7).astype(np.float32))
    out, index = ops.adaptive_max_pool2d(y, (2, 3), True)
    assert str(index.dtype) == "Int64"
    assert index.asnumpy().tolist() == [[[[8, 17, 20], [21, 17, 20]], [[7, 17, 4], [21, 17, 33]]]]
    np.testing.assert_allclose(out.asnumpy(), [[[[0.9636627435684204, 0.832619845867157,
                                                  0.978618323802948],
                                                 [0.7991585731506348, 0.832619845867157,
                                                  0.978618323802948]],
                                                [[0.6976311802864075, 0.9883738160133362,
                                                  0.681820273399353],
                                                 [0.6531082987785339, 0.9883738160133362,
                                                  0.8379449248313904]]]])
    assert ops.adaptive_max_pool2d(y, (None, 3)).shape == (1, 2, 5, 3)


def test_adaptive_max_pool3d_class_as_mindspore():
    from cellgraph.testing import check_grads

    x = Tensor(np.arange(0, 36).reshape((1, 3, 3, 4)).astype(np.float32))
    values, index = ops.AdaptiveMaxPool3D()(x, Tensor(np.array([1, 1, 2], np.int32)))
    assert str(index.dtype) == "Int32" and values.shape == (1, 1, 1, 2)
    assert values.asnumpy().tolist() == [[[[33, 35]]]] and index.asnumpy().tolist() == [[[[33, 35]]]]
    values, index = ops.AdaptiveMaxPool3D()(x.reshape(1, 1, 3, 3, 4),
                                            Tensor(np.array([2, 2, 3], np.int32)))
    assert index.asnumpy().tolist() == [[[[[17, 18, 19], [21, 22, 23]], [[29, 30, 31], [33, 34, 35]]]]]
    with pytest.raises(TypeError, match=r"output_size\] must be Tensor but got Tuple\[Int64\*3\]\."):
        ops.AdaptiveMaxPool3D()(x, (1, 1, 2))
    with pytest.raises(TypeError, match=r"\{Tensor\[Int32\]\}, but got Tensor\[Int64\]"):
        ops.AdaptiveMaxPool3D()(x, Tensor(np.array([1, 1, 2], np.int64)))
    with pytest.raises(ValueError, match=r"the rank of x must be in \[4,5\], but got 3"):
        ops.AdaptiveMaxPool3D()(x[0], Tensor(np.array([1, 1, 2], np.int32)))
    size = Tensor(np.array([2, 1, 2], np.int32))
    check_grads(lambda v: ops.AdaptiveMaxPool3D()(v, size)[0],
                (Tensor(np.random.RandomState(1).rand(2, 3, 4, 5)),), order=2)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                   np.float16, np.float64])
def test_adaptive_max_pool3d_takes_every_real_dtype_as_mindspore(dtype):
    # MindSpore 2.10: AdaptiveMaxPool3D pools integers too, keeping their dtype
    x = Tensor(np.arange(64).reshape(1, 4, 4, 4).astype(dtype))
    expected = [[[[21, 23], [29, 31]], [[53, 55], [61, 63]]]]
    for out in (nn.AdaptiveMaxPool3d(2)(x), ops.adaptive_max_pool3d(x, 2)):
        assert out.dtype == x.dtype
        assert out.asnumpy().tolist() == expected
    with pytest.raises(TypeError, match=r"AdaptiveMaxPool3D.*but got Tensor\[Bool\]"):
        nn.AdaptiveMaxPool3d(2)(Tensor(np.ones((1, 2, 2, 2), np.bool_)))


@pytest.mark.parametrize("shape", [(0, 3, 3, 4), (1, 0, 3, 4)])
def test_adaptive_max_pool3d_refuses_an_empty_axis_as_mindspore(shape):
    # MindSpore 2.10 raises RuntimeError ("Resize failed for kernel") for any empty axis
    x = Tensor(np.ones(shape, np.int32))
    with pytest.raises(RuntimeError, match="non-empty"):
        nn.AdaptiveMaxPool3d((1, 1, 2))(x)
    with pytest.raises(RuntimeError, match="non-empty"):
        ops.adaptive_max_pool3d(x, 2)


def test_adaptive_max_pool1d_class_takes_float16_and_float32_only():
    with pytest.raises(TypeError, match="AdaptiveMaxPool1d, the x_dtype must be float16 or "
                                        "float32, but got Float64"):
        nn.AdaptiveMaxPool1d(2)(Tensor(np.ones((1, 2, 4))))
    out = nn.AdaptiveMaxPool1d(2)(Tensor(np.arange(8).reshape(1, 2, 4).astype(np.float16)))
    assert out.asnumpy().tolist() == [[[1, 3], [5, 7]]]
