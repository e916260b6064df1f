"""Slices whose bounds are integer Tensors in a graph: known bounds (a constant Tensor) are
static, bounds computed in the graph are read when it runs (the sliced axis then has a size
known only then); both read and written, with gradients; a `mutable` list index, whose ints
are known only at run time, and a boolean mask passed to the graph, whose count is; against
MindSpore 2.10's results."""
import numpy as np
import pytest

from cellgraph import Tensor, context, mutable, nn, ops


@pytest.fixture(autouse=True)
def graph_mode():
    context.set_context(mode=context.GRAPH_MODE)
    yield
    context.set_context(mode=context.PYNATIVE_MODE)


class _ConstantBounds(nn.Cell):
    def __init__(self):
        super().__init__()
        self.lo, self.hi = Tensor(1), Tensor(3)

    def construct(self, x):
        return x[self.lo, self.lo:self.hi, ...]


class _RunTimeBounds(nn.Cell):
    def construct(self, x, begin, step):
        n = ops.dyn_shape(x)[0]
        return x[begin:n - 1:step, 1:n:2] * 2


class _Downward(nn.Cell):
    def construct(self, x, end, step):
        n = ops.dyn_shape(x)[0]
        return x[n - 1:end:step, -2]


class _RunTimeWrite(nn.Cell):
    def construct(self, x, trim, value):
        x[1:ops.dyn_shape(x)[0] - trim:Tensor(2)] = value
        return x


def test_constant_tensor_bounds_are_static():
    x = np.arange(24).reshape(2, 4, 3).astype(np.float32)
    out = _ConstantBounds()(Tensor(x))
    assert out.shape == (2, 3)
    np.testing.assert_array_equal(out.asnumpy(), [[15, 16, 17], [18, 19, 20]])


def test_bounds_computed_in_the_graph():
    v = np.arange(30).reshape(6, 5).astype(np.float32)
    out = _RunTimeBounds()(Tensor(v), Tensor(1), Tensor(2))
    np.testing.assert_array_equal(out.asnumpy(), [[12, 16], [32, 36]])  # MindSpore 2.10's
    grad = ops.GradOperation()(_RunTimeBounds())(Tensor(v), Tensor(1), Tensor(2))
    expected = np.zeros((6, 5), np.float32)
    expected[[1, 1, 3, 3], [1, 3, 1, 3]] = 2
    np.testing.assert_array_equal(grad.asnumpy(), expected)


@pytest.mark.parametrize(("end", "step", "expected"), [
    (0, -2, [28, 18, 8]), (-7, -1, [28, 23, 18, 13, 8, 3]), (-5, -3, [28, 13])])
def test_negative_steps_and_bounds_as_python(end, step, expected):
    v = np.arange(30).reshape(6, 5).astype(np.float32)
    out = _Downward()(Tensor(v), Tensor(end), Tensor(step))
    np.testing.assert_array_equal(out.asnumpy(), expected)  # MindSpore 2.10's


def test_write_through_bounds_computed_in_the_graph():
    x = np.arange(24).reshape(6, 4).astype(np.float32)
    expected = x.copy()
    expected[1:5:2] = 7
    np.testing.assert_array_equal(_RunTimeWrite()(Tensor(x), Tensor(1), 7.0).asnumpy(),
                                  expected)
    row = Tensor(np.array([1.0, 2, 3, 4], np.float32))
    expected[1:5:2] = [1, 2, 3, 4]
    np.testing.assert_array_equal(_RunTimeWrite()(Tensor(x), Tensor(1), row).asnumpy(),
                                  expected)
    dx, _, dvalue = ops.GradOperation(get_all=True)(_RunTimeWrite())(Tensor(x), Tensor(1), row)
    np.testing.assert_array_equal(dx.asnumpy()[:, 0], [1, 0, 1, 0, 1, 1])
    np.testing.assert_array_equal(dvalue.asnumpy(), [2, 2, 2, 2])


def test_a_bound_must_be_an_integer_scalar():
    class FloatBound(nn.Cell):
        def construct(self, x, b):
            return x[0:b]

    with pytest.raises(TypeError, match="a Tensor slice bound must be an integer scalar"):
        FloatBound()(Tensor(np.ones(4, np.float32)), Tensor(2.0))


def test_a_mutable_list_index_gathers_its_run_time_ints():
    class Net(nn.Cell):
        def construct(self, x):
            index = mutable([2, 0, 2])
            return x[index] * 2

    x = Tensor(np.arange(12).reshape(4, 3).astype(np.float32))
    # MindSpore 2.10's values
    np.testing.assert_array_equal(Net()(x).asnumpy(), [[12, 14, 16], [0, 2, 4], [12, 14, 16]])
    np.testing.assert_array_equal(ops.GradOperation()(Net())(x).asnumpy(),
                                  [[2, 2, 2], [0, 0, 0], [4, 4, 4], [0, 0, 0]])


class _MaskRead(nn.Cell):
    def construct(self, x, mask):
        return x[mask] * 3


class _LeadingMaskRead(nn.Cell):
    def construct(self, x, mask):
        return x[mask]


class _WriteThroughMaskRead(nn.Cell):
    def construct(self, a, b, c, u):
        a[b][c] = u
        return a


def test_a_mask_passed_to_the_graph_selects_at_run_time():
    x = np.arange(12).reshape(3, 4).astype(np.float32)
    mask = Tensor(x % 3 == 1)
    # MindSpore 2.10's values
    np.testing.assert_array_equal(_MaskRead()(Tensor(x), mask).asnumpy(), [3, 12, 21, 30])
    np.testing.assert_array_equal(ops.GradOperation()(_MaskRead())(Tensor(x), mask).asnumpy(),
                                  [[0, 3, 0, 0], [3, 0, 0, 3], [0, 0, 3, 0]])
    rows = Tensor(np.array([True, False, True]))
    np.testing.assert_array_equal(_LeadingMaskRead()(Tensor(x), rows).asnumpy(),
                                  [[0, 1, 2, 3], [8, 9, 10, 11]])
    # the selection has one axis, which a mask of two cannot index (MindSpore's ValueError)
    with pytest.raises(ValueError, match=r"Can not pad \(3, 4\) to length 1"):
        _WriteThroughMaskRead()(Tensor(x), mask, mask, Tensor([1.0]))
