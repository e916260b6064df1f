"""Value inputs: an operation input whose values decide the shape of the result (a shape, an
axis, paddings, bounds, begin/size, a diagonal offset, a number of segments). Given a Tensor
passed to the graph, the graph is specialised on its values (through nested Cells and grad),
and a call with other values compiles again; a value computed inside the graph is refused by
name. Expected values were recorded from MindSpore 2.10 (CPU, graph mode)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.ops import operations as P
from cellgraph.primitives.errors import ArgumentValueError

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


class Poisson(nn.Cell):
    def construct(self, shape, rate):
        return ops.random_poisson(shape, rate, seed=5)


def test_shape_tensor_specialises_and_recompiles_on_new_values(compiles):
    net, rate = Poisson(), Tensor(np.array([1.0, 2.0], np.float32))
    assert net(Tensor(np.array([2, 3], np.int32)), rate).shape == (2, 3, 2)
    assert net(Tensor(np.array([2, 3], np.int32)), rate).shape == (2, 3, 2)
    assert compiles[0] == 1  # the same values: the same graph
    assert net(Tensor(np.array([4, 1], np.int32)), rate).shape == (4, 1, 2)
    assert compiles[0] == 2
    for _ in range(2):  # each specialisation is kept, under a key holding its values
        assert net(Tensor(np.array([2, 3], np.int32)), rate).shape == (2, 3, 2)
        assert net(Tensor(np.array([4, 1], np.int32)), rate).shape == (4, 1, 2)
    assert compiles[0] == 2
    net.set_inputs(Tensor(shape=[None], dtype=ms.int32), Tensor(shape=[None], dtype=ms.float32))
    out = net(Tensor(np.array([3, 1], np.int32)), Tensor(np.array([1.0, 2.0, 3.0], np.float32)))
    assert out.shape == (3, 1, 3) and out.dtype == ms.float32


class SliceNet(nn.Cell):
    def construct(self, x, begin, size):
        return ops.Slice()(x, begin, size) * 2


class Grad(nn.Cell):
    def __init__(self, net, get_all=False):
        super().__init__()
        self.net, self.grad = net, ops.GradOperation(get_all=get_all)

    def construct(self, *args):
        return self.grad(self.net)(*args)


def test_slice_begin_and_size_tensors_forward_and_grad():
    x = Tensor(X)
    out = SliceNet()(x, Tensor(np.array([0, 1, 0])), Tensor(np.array([2, 1, 2])))
    np.testing.assert_array_equal(out.asnumpy(), [[[8.0, 10.0]], [[32.0, 34.0]]])
    grad = Grad(SliceNet())
    expected = np.zeros((2, 3, 4), np.float32)
    expected[:, 1, :2] = 2.0
    got = grad(x, Tensor(np.array([0, 1, 0])), Tensor(np.array([2, 1, 2])))
    np.testing.assert_array_equal(got.asnumpy(), expected)
    expected = np.zeros((2, 3, 4), np.float32)
    expected[1, :2, 2:] = 2.0  # other values: another specialisation
    got = grad(x, Tensor(np.array([1, 0, 2])), Tensor(np.array([1, 2, 2])))
    np.testing.assert_array_equal(got.asnumpy(), expected)


class DiagPart(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = P.MatrixDiagPartV3(align="RIGHT_LEFT")

    def construct(self, x, k, padding):
        return self.op(x, k, padding)


class Outer(nn.Cell):
    """The value input reaches the operation through a nested Cell."""

    def __init__(self):
        super().__init__()
        self.inner = DiagPart()

    def construct(self, x, k, padding):
        return self.inner(x * 1.0, k, padding) + 1


def test_diagonal_offset_through_a_nested_cell_and_grad():
    m = Tensor(X)
    got = Outer()(m, Tensor(1, ms.int32), Tensor(0, ms.float32))
    np.testing.assert_array_equal(got.asnumpy(), [[2.0, 7.0, 12.0], [14.0, 19.0, 24.0]])
    got = Outer()(m, Tensor(np.array([-1, 1], np.int32)), Tensor(9, ms.float32))
    np.testing.assert_array_equal(got.asnumpy(), [
        [[2.0, 7.0, 12.0], [1.0, 6.0, 11.0], [5.0, 10.0, 10.0]],
        [[14.0, 19.0, 24.0], [13.0, 18.0, 23.0], [17.0, 22.0, 10.0]]])
    grads = Grad(Outer(), get_all=True)(m, Tensor(1, ms.int32), Tensor(0, ms.float32))
    one = [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
    np.testing.assert_array_equal(grads[0].asnumpy(), [one, one])


class ReshapeMean(nn.Cell):
    def construct(self, x, shape):
        return ops.ReduceMean(True)(ops.reshape(x, shape), 0)


def test_reshape_shape_tensor_with_grad():
    x = Tensor(X)
    out = ReshapeMean()(x, Tensor(np.array([4, 6])))
    np.testing.assert_array_equal(out.asnumpy(), [[9.0, 10.0, 11.0, 12.0, 13.0, 14.0]])
    grads = Grad(ReshapeMean(), get_all=True)(x, Tensor(np.array([4, 6])))
    np.testing.assert_array_equal(grads[0].asnumpy(), np.full((2, 3, 4), 0.25, np.float32))


class Creation(nn.Cell):
    def construct(self, shape, start, limit, delta):
        return (ops.zeros(shape, ms.float32) + ops.ones(shape, ms.int32),
                ops.fill(ms.float32, shape, 2.5), ops.range(start, limit, delta))


class Sizes(nn.Cell):
    def construct(self, x, paddings, axis, ids, segments):
        return (ops.pad(x, paddings, value=1.5), ops.ReduceSum()(x, axis),
                ops.unsorted_segment_sum(x[0], ids, segments))


def test_creation_padding_axes_and_segments_from_tensors():
    ones, filled, rng = Creation()(Tensor(np.array([2, 3])), Tensor(1, ms.int32),
                                   Tensor(10, ms.int32), Tensor(3, ms.int32))
    np.testing.assert_array_equal(ones.asnumpy(), np.ones((2, 3)))
    np.testing.assert_array_equal(filled.asnumpy(), np.full((2, 3), 2.5))
    np.testing.assert_array_equal(rng.asnumpy(), [1, 4, 7])
    x = np.ones((2, 2), np.float32)
    padded, summed, segments = Sizes()(Tensor(x), Tensor(np.array([1, 0, 0, 1])),
                                       Tensor(np.array([1])), Tensor(np.array([0, 2], np.int32)),
                                       Tensor(3, ms.int32))
    np.testing.assert_array_equal(padded.asnumpy(), [[1.5, 1.0, 1.0], [1.5, 1.0, 1.0],
                                                     [1.5, 1.5, 1.5]])
    np.testing.assert_array_equal(summed.asnumpy(), [2.0, 2.0])
    np.testing.assert_array_equal(segments.asnumpy(), [1.0, 0.0, 1.0])


class Computed(nn.Cell):
    def construct(self, x, shape):
        y = ops.reshape(x, shape * 2)
        return y * 2, ops.zeros(shape + 1, ms.float32), ops.fill(ms.int32, shape, 3)


def test_a_shape_computed_in_the_graph_is_read_when_it_runs():
    x = Tensor(X)
    doubled, zeros, threes = Computed()(x, Tensor(np.array([1, 6])))
    assert doubled.shape == (2, 12) and zeros.shape == (2, 7) and threes.shape == (1, 6)
    np.testing.assert_array_equal(doubled.asnumpy(), 2 * X.reshape(2, 12))
    assert threes.dtype == ms.int32 and (threes.asnumpy() == 3).all()
    grad = ops.GradOperation()(Computed())(x, Tensor(np.array([1, 6])))
    np.testing.assert_array_equal(grad.asnumpy(), np.full((2, 3, 4), 2.0, np.float32))
    doubled, _, _ = Computed()(x, Tensor(np.array([3, 2])))  # the same graph, other sizes
    assert doubled.shape == (6, 4)


class ComputedPadding(nn.Cell):
    def construct(self, x, paddings):
        return ops.pad(x, paddings + 1)


def test_a_value_computed_in_the_graph_is_refused_by_name_where_it_must_be_known():
    with pytest.raises(ArgumentValueError, match=r"PadV3: `paddings` sets the shape of the "
                                                 r"result.*computed in the graph") as info:
        ComputedPadding()(Tensor(X), Tensor(np.array([1, 0])))
    assert "ops.pad(x, paddings + 1)" in str(info.value)


def test_a_large_tensor_is_not_a_value_input():
    big = Tensor(np.zeros(2048, np.int64))
    with pytest.raises(ArgumentValueError, match="at most 1024 elements"):
        Sizes()(Tensor(np.ones((2, 2), np.float32)), big, Tensor(np.array([1])),
                Tensor(np.array([0, 2], np.int32)), Tensor(3, ms.int32))


class PoolOf(nn.Cell):
    def construct(self, x, kernel, stride, pad_mode, data_format):
        return ops.AvgPool(kernel, stride, pad_mode, data_format)(x)


def test_mutable_numbers_as_operation_attributes(compiles):
    """A `mutable` number or tuple passed where an operation takes an int attribute (a kernel
    size, a stride, a size): its value, the graph specialised on it."""
    x = Tensor(np.arange(36, dtype=np.float32).reshape(1, 3, 3, 4))
    out = PoolOf()(x, ms.mutable(1), ms.mutable(2), "VALID", "NCHW")
    np.testing.assert_array_equal(out.asnumpy(), X_POOLED)
    resize = ms.jit(lambda x, size: ops.ResizeNearestNeighbor(size)(x))
    image = Tensor(np.array([[[[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]]], np.float32))
    np.testing.assert_array_equal(resize(image, ms.mutable((2, 2))).asnumpy(),
                                  np.array([[[[-0.1, 0.3], [0.4, 0.5]]]], np.float32))
    assert resize(image, ms.mutable((1, 3))).shape == (1, 1, 1, 3)


X_POOLED = np.array([[[[0.0, 2.0], [8.0, 10.0]], [[12.0, 14.0], [20.0, 22.0]],
                      [[24.0, 26.0], [32.0, 34.0]]]], np.float32)


def test_a_mutable_axis():
    reduce = ms.jit(lambda x, axis: ops.ReduceMean()(x, axis))
    x = Tensor(np.arange(6.0).reshape(2, 3))
    assert reduce(x, ms.mutable((0, 1))).asnumpy() == 2.5
    np.testing.assert_array_equal(reduce(x, ms.mutable(1)).asnumpy(), [1.0, 4.0])
    with pytest.raises(ValueError):  # MindSpore: ValueError, axis 1 of a 1-D input
        reduce(Tensor(np.array([1.0])), ms.mutable((0, 1)))


class Shaped(nn.Cell):
    def construct(self, x, multiples, shape, n, draw_shape):
        return (ops.tile(x, multiples), ops.broadcast_to(x, shape), ops.eye(n, 2, ms.float32),
                ops.StandardNormal(seed=1, seed2=2)(draw_shape),
                ops.UniformInt(seed=1)(draw_shape, Tensor(0, ms.int32), Tensor(5, ms.int32)))


def test_tile_broadcast_eye_and_random_shapes_from_tensors():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    tiled, wide, eye, normal, ints = Shaped()(
        Tensor(x), Tensor(np.array([2, 1])), Tensor(np.array([2, 2, 3])), Tensor(3, ms.int32),
        Tensor(np.array([2, 3])))
    np.testing.assert_array_equal(tiled.asnumpy(), np.tile(x, (2, 1)))
    np.testing.assert_array_equal(wide.asnumpy(), np.broadcast_to(x, (2, 2, 3)))
    np.testing.assert_array_equal(eye.asnumpy(), np.eye(3, 2))
    assert normal.shape == (2, 3) and ints.shape == (2, 3)
    assert ((ints.asnumpy() >= 0) & (ints.asnumpy() < 5)).all()


class TensorPerm(nn.Cell):
    def construct(self, x, p):
        return ops.transpose(x, p)


class TensorShift(nn.Cell):
    def construct(self, x, s):
        return ops.roll(x, s, 1)


def test_transpose_and_roll_refuse_tensor_arguments_as_mindspore_does():
    x = Tensor(X)
    with pytest.raises(TypeError, match=r'Failed calling Transpose with "Transpose\(\)\('
                                        r'input=Tensor, dims=Tensor\)"'):
        TensorPerm()(x, Tensor(np.array([1, 0, 2])))
    with pytest.raises(TypeError, match=r'Failed calling Roll with "Roll\(shifts=Tensor, '
                                        r'dims=int\)\(input=Tensor\)"'):
        TensorShift()(x, Tensor(1, ms.int32))


class Close(nn.Cell):
    def construct(self, x, y, rtol, atol, equal_nan):
        return ops.isclose(x, y, rtol, atol, equal_nan)


def test_a_mutable_flag_that_an_operation_tests():
    net = Close()
    x = Tensor(np.array([[1.0, np.nan, 2.0]], np.float32))
    y = Tensor(np.array([[1.001, np.nan, 3.0]], np.float32))
    flags = [ms.mutable(v, dynamic_len=False) for v in (3e-3, 2e-3)]
    got = net(x, y, *flags, ms.mutable(True, dynamic_len=False))
    np.testing.assert_array_equal(got.asnumpy(), [[True, True, False]])
    got = net(x, y, *flags, ms.mutable(False, dynamic_len=False))
    np.testing.assert_array_equal(got.asnumpy(), [[True, False, False]])


def test_a_flag_read_from_an_input_through_asnumpy_and_bool(compiles):
    # `x.max(return_indices=bool(y.asnumpy()))`: the flag an overload's Python code tests is
    # y's value, read through asnumpy() and bool(); the graph is specialised on it (MindSpore
    # 2.10 gives 5 for False and (5, 0) for the eager return_indices=True)
    @ms.jit
    def func(x, y):
        return x.max(return_indices=bool(y.asnumpy()))

    x = Tensor([1, 2, 3, 4, 5])
    assert func(x, Tensor(False)).asnumpy() == 5
    value, index = func(x, Tensor(True))
    assert (value.asnumpy(), index.asnumpy()) == (5, 0)
    assert func(x, Tensor(False)).asnumpy() == 5
    assert compiles[0] == 2


def test_an_int_read_from_an_input_through_asnumpy():
    @ms.jit
    def scale(x, y):
        return x * int(y.asnumpy())

    x = Tensor([1, 2, 3])
    assert scale(x, Tensor(3)).asnumpy().tolist() == [3, 6, 9]
    assert scale(x, Tensor(2)).asnumpy().tolist() == [2, 4, 6]


def test_bool_of_a_computed_value_stays_a_run_time_value():
    @ms.jit
    def pick(x):
        flag = bool((x + 1).asnumpy())
        return x.max(return_indices=flag)

    with pytest.raises(SyntaxError, match="truth value of a Tensor is known only at run time"):
        pick(Tensor([1]))


def test_a_mutable_number_read_as_a_value_inside_grad():
    """A mutable int passed to a Cell that differentiates another: the inner graph reads the
    axis through the variable scalar made for it, and another value compiles again."""
    ms.set_context(mode=ms.GRAPH_MODE)

    class Join(nn.Cell):
        def construct(self, x, axis):
            return ops.concat((x, x * 2), axis=axis)

    class Grad(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net, self.grad = net, ops.GradOperation(sens_param=True)

        def construct(self, x, axis, sens):
            return self.grad(self.net)(x, axis, sens)

    grad = Grad(Join())
    x = Tensor(np.ones((2, 3), np.float32))
    sens = np.arange(12, dtype=np.float32)
    out = grad(x, ms.mutable(0), Tensor(sens.reshape(4, 3)))
    np.testing.assert_array_equal(out.asnumpy(), [[12, 15, 18], [21, 24, 27]])  # MindSpore's
    out = grad(x, ms.mutable(1), Tensor(sens.reshape(2, 6)))
    np.testing.assert_array_equal(out.asnumpy(), [[6, 9, 12], [24, 27, 30]])
