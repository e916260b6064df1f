"""ops.TruncatedNormal, RandpermV2 and LogNormalReverse. TruncatedNormal's draws are MindSpore
2.10's CPU kernel's (std::normal_distribution<double> over minstd_rand0, kept in [-2, 2]),
recorded as literals: float32 to a unit in the last place (the double draws agree to about
1e-9), carried on from call to call by an instance and from run to run by a graph's node."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops


def test_truncated_normal_draws_as_mindspore():
    out = ops.TruncatedNormal(seed=1, seed2=2)(Tensor(np.array([3, 4]), cg.int32))
    assert out.dtype == cg.float32 and out.shape == (3, 4)
    np.testing.assert_allclose(out.asnumpy(), [[-1.371313, 1.788771, 0.261821, 0.152132],
                                               [-0.98487, 1.294381, 0.434894, 0.046908],
                                               [1.216456, 1.304691, 0.264942, 0.519356]],
                               atol=1e-6)
    op = ops.TruncatedNormal(seed=5, seed2=0)
    shape = Tensor(np.array([2, 3]), cg.int64)
    np.testing.assert_allclose(op(shape).asnumpy(), [[0.209285, 0.751712, -1.450614],
                                                     [-0.908207, -0.736417, 0.365794]], atol=1e-6)
    np.testing.assert_allclose(op(shape).asnumpy(), [[0.293504, 0.572733, 0.186035],
                                                     [0.989418, 0.712771, -0.026129]], atol=1e-6)
    double = ops.TruncatedNormal(dtype=cg.float64, seed=0, seed2=3)(Tensor(np.array([2, 2]),
                                                                            cg.int32))
    assert double.dtype == cg.float64
    np.testing.assert_allclose(double.asnumpy(), [[-0.8247814733299089, -0.5894215089826963],
                                                  [0.8229483185795515, 1.0186099409798473]],
                               atol=1e-8)
    half = ops.TruncatedNormal(dtype=cg.float16, seed=7, seed2=7)(Tensor(np.array([1, 5]),
                                                                          cg.int32))
    np.testing.assert_allclose(half.asnumpy().astype(np.float64),
                               [[0.124267578125, -0.12432861328125, -0.74853515625,
                                 0.2056884765625, 1.3798828125]])


def test_truncated_normal_in_a_graph_carries_on():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.draw = ops.TruncatedNormal(seed=9, seed2=4)

        def construct(self, shape):
            return self.draw(shape)

    cg.set_context(mode=cg.GRAPH_MODE)
    try:
        net, shape = Net(), Tensor(np.array([1, 3]), cg.int32)
        first, second = net(shape).asnumpy(), net(shape).asnumpy()
    finally:
        cg.set_context(mode=cg.PYNATIVE_MODE)
    np.testing.assert_allclose(first, [[1.140242, 0.183812, -0.489745]], atol=1e-6)
    np.testing.assert_allclose(second, [[-0.937365, 0.157904, 0.168837]], atol=1e-6)


def test_truncated_normal_unseeded_stays_in_range():
    cg.set_seed(3)
    out = ops.TruncatedNormal()(Tensor(np.array([50, 40]), cg.int32)).asnumpy()
    assert np.abs(out).max() <= 2 and abs(out.mean()) < 0.1 and 0.7 < out.std() < 0.95


def test_truncated_normal_errors():
    shape = Tensor(np.array([2, 3]), cg.int32)
    with pytest.raises(ValueError, match="the input tensor shape must >= 2, but got 1"):
        ops.TruncatedNormal(seed=1)(Tensor(np.array([7]), cg.int64))
    with pytest.raises(ValueError, match="Each dimension must be greater than zero"):
        ops.TruncatedNormal(seed=1)(Tensor(np.array([0, 3]), cg.int32))
    with pytest.raises(ValueError, match="The input tensor must be a 1-D tensor"):
        ops.TruncatedNormal(seed=1)(Tensor(np.array([[2, 3]]), cg.int32))
    with pytest.raises(TypeError, match="the 'dtype' should be one of"):
        ops.TruncatedNormal(dtype=cg.int32)
    with pytest.raises(TypeError, match="the type of 'seed' should be 'int', but got type 'float'"):
        ops.TruncatedNormal(seed=1.5)
    with pytest.raises(TypeError, match="argument\\[shape\\] must be Tensor"):
        ops.TruncatedNormal(seed=1)((2, 3))
    with pytest.raises(TypeError, match="but got Tensor\\[Float32\\]"):
        ops.TruncatedNormal(seed=1)(Tensor(np.array([2, 3]), cg.float32))
    assert ops.TruncatedNormal(seed=1)(shape).shape == (2, 3)


def test_randperm_v2_as_mindspore():
    out = ops.RandpermV2(seed=1)(8)
    assert out.dtype == cg.int64 and out.asnumpy().tolist() == [1, 0, 2, 5, 7, 4, 6, 3]
    assert ops.RandpermV2(seed=1, offset=5, dtype=cg.int32)(8).asnumpy().tolist() == \
        [3, 0, 5, 2, 4, 6, 7, 1]
    floats = ops.RandpermV2(seed=3, dtype=cg.float32)(6)
    assert floats.dtype == cg.float32 and floats.asnumpy().tolist() == [3, 1, 0, 5, 2, 4]
    assert ops.RandpermV2()(Tensor(5, cg.int64)).asnumpy().tolist() == [2, 4, 3, 0, 1]
    with pytest.raises(ValueError, match="must be greater than 0 or equal to 0 or -1"):
        ops.RandpermV2(seed=-2)(5)


def test_randperm_takes_a_tensor_n():
    # MindSpore 2.10: n a Tensor of one integer, read as the result's length (seed 0 gives
    # [0, 2, 1, 3] for 4 and [2, 4, 3, 0, 1] for 5)
    out = ops.randperm(Tensor([4], cg.int64), seed=0, offset=0, dtype=cg.float16)
    assert out.dtype == cg.float16 and out.asnumpy().tolist() == [0, 2, 1, 3]
    assert ops.randperm(Tensor(5, cg.int32), seed=0).asnumpy().tolist() == [2, 4, 3, 0, 1]

    class Perm(nn.Cell):
        def construct(self, n):
            return ops.randperm(n, seed=0, offset=0, dtype=cg.float16)

    net = Perm()
    assert net(Tensor([6], cg.int64)).shape == (6,)
    assert net(Tensor([8], cg.int64)).shape == (8,)  # another value, another length
    with pytest.raises(TypeError, match="can not be converted to int"):
        ops.randperm(Tensor([2, 3], cg.int64))
    with pytest.raises(TypeError, match="can not be converted to int"):
        ops.randperm(Tensor([4.0], cg.float32))
    for n in (0, -1, Tensor([-1], cg.int64)):
        with pytest.raises(ValueError, match="'n' must be greater than 0"):
            ops.randperm(n)


def test_log_normal_reverse():
    cg.set_seed(0)
    out = ops.LogNormalReverse(0.0, 0.5)(Tensor(np.zeros((200, 50), np.float64)))
    assert out.dtype == cg.float64 and out.shape == (200, 50)
    logs = np.log(out.asnumpy())
    assert abs(logs.mean()) < 0.02 and abs(logs.std() - 0.5) < 0.02
    half = ops.LogNormalReverse()(Tensor(np.zeros(3, np.float16)))
    assert half.dtype == cg.float16
    with pytest.raises(TypeError, match="the type of 'mean' should be 'float', but got type 'int'"):
        ops.LogNormalReverse(1, 2.0)
    with pytest.raises(TypeError, match=r"but got Tensor\[Int32\]"):
        ops.LogNormalReverse()(Tensor(np.zeros(3, np.int32)))


def test_parameterized_truncated_normal():
    from cellgraph.ops.operations.random_ops import ParameterizedTruncatedNormal

    op = ParameterizedTruncatedNormal(1, 2)
    shape = Tensor(np.array([3, 4000]), cg.int64)
    mean, std = Tensor(np.array([10.0]), cg.float64), Tensor(np.array([1.0]), cg.float64)
    low, high = Tensor(np.array([1.0, 4, 0])), Tensor(np.array([20.0, 5, 8]))
    first, second = op(shape, mean, std, low, high).asnumpy(), op(shape, mean, std, low, high)
    assert first.shape == (3, 4000) and (first != second.asnumpy()).any()
    assert (first.min(1) >= [1, 4, 0]).all() and (first.max(1) <= [20, 5, 8]).all()
    # the truncated normals' means: 10, 4.8213 and 10 - phi(-2) / Phi(-2) = 7.6268
    np.testing.assert_allclose(first.mean(1), [10.0, 4.8213, 7.6268], atol=0.04)
    half = ops.ParameterizedTruncatedNormal()(Tensor(np.array([2, 3]), cg.int32),
                                               *(Tensor(np.array([v]), cg.float16)
                                                 for v in (0.0, 1.0, -1.0, 1.0)))
    assert half.dtype == cg.float16 and np.abs(half.asnumpy()).max() <= 1
    with pytest.raises(ValueError, match="stdevs"):
        op(shape, mean, Tensor(np.array([0.0])), low, high)
    with pytest.raises(ValueError, match="at least 2 elements"):
        op(Tensor(np.array([3]), cg.int32), mean, std, low, high)
    with pytest.raises(TypeError, match="same type"):
        op(shape, mean, std, low.astype(cg.float32), high)


@pytest.mark.parametrize("dtype", [cg.int32, cg.int64, cg.uint32, cg.uint64])
def test_non_deterministic_ints_cover_the_dtype(dtype):
    cg.set_seed(1)
    out = ops.NonDeterministicInts(dtype=dtype)(Tensor(np.array([200, 300]), cg.int32))
    assert out.dtype == dtype and out.shape == (200, 300)
    values = out.asnumpy()
    top = float(np.iinfo(values.dtype).max)
    low = 0.0 if dtype in (cg.uint32, cg.uint64) else -top
    assert values.min() >= (1 if low == 0 else -top)
    # uniform over [low, max]: the extremes reach near both ends, the mean near the middle
    assert values.min() < low + 0.001 * (top - low) and values.max() > top - 0.001 * (top - low)
    assert abs(values.astype(np.float64).mean() - (low + top) / 2) < 0.01 * (top - low)


def test_non_deterministic_ints_errors():
    with pytest.raises(TypeError, match="the 'dtype' should be one of"):
        ops.NonDeterministicInts(dtype=cg.float32)
    with pytest.raises(TypeError, match=r"but got Tensor\[Float32\]"):
        ops.NonDeterministicInts()(Tensor(np.array([2, 3]), cg.float32))
    with pytest.raises(ValueError, match="less than -2 but got"):
        ops.NonDeterministicInts()(Tensor(np.array([2, -3]), cg.int64))
    with pytest.raises(ValueError, match="the shape's rank must be equal to 1, but got 2"):
        ops.NonDeterministicInts()(Tensor(np.array([[2, 3]]), cg.int64))
