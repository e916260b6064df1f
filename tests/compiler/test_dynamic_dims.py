"""Dims known only at run time: a Tensor `if` whose branches give different sizes, a Tensor
`while` that changes a carried value's size."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.compiler.dynamic_dims import join
from cellgraph.compiler.pipeline import compile_callable
from cellgraph.primitives.core import TensorType
from cellgraph.primitives.dtype import float32, int32
from cellgraph.testing import check_grads


def t(*values):
    return Tensor(np.array(values if len(values) > 1 else values[0], np.float64))


def test_join_keeps_the_dims_that_agree():
    assert join(TensorType((2, 3), float32), TensorType((4, 3), float32)) == TensorType(
        (None, 3), float32)
    assert join(TensorType((2,), float32), TensorType((2,), float32)) == TensorType((2,),
                                                                                   float32)
    assert join(TensorType((2,), float32), TensorType((2, 1), float32)) is None
    assert join(TensorType((2,), float32), TensorType((2,), int32)) is None


class Grow(nn.Cell):
    """One branch doubles the length, the other keeps it."""

    def construct(self, x):
        if x.sum() > 0:
            y = ops.concat((x, x * 2))
        else:
            y = x * 3
        return (y * y).sum() + ops.sin(y).sum()


def grow(x):
    y = np.concatenate([x, 2 * x]) if x.sum() > 0 else 3 * x
    return (y * y).sum() + np.sin(y).sum()


@pytest.mark.parametrize("x", [[1.0, 2.0], [-1.0, 0.5]])
def test_branches_of_different_lengths_join_to_a_dynamic_dim(x):
    np.testing.assert_allclose(Grow()(t(*x)).asnumpy(), grow(np.array(x)))
    check_grads(Grow(), (t(*x),), order=2)


def test_the_merged_type_has_an_unknown_dim():
    graph = compile_callable(Grow(), (t(1.0, 2.0),)).graph
    switch = next(n for n in graph.nodes if n.callee.name == "switch")
    assert switch.outputs[0].aval.shape == (None,)


def test_a_loop_that_grows_a_value_carries_a_dynamic_dim():
    class Doubling(nn.Cell):
        def construct(self, x):
            while x.sum() < 20:
                x = ops.concat((x, x))
            return x * 2

    np.testing.assert_allclose(Doubling()(t(1.0, 2.0)).asnumpy(), [2.0, 4.0] * 8)
    np.testing.assert_allclose(Doubling()(t(30.0, 2.0)).asnumpy(), [60.0, 4.0])


def test_only_the_dims_that_differ_become_dynamic():
    class Rows(nn.Cell):
        def construct(self, x):
            if x.sum() > 0:
                y = ops.concat((x, x), axis=0)
            else:
                y = x
            return y.sum(axis=1)

    x = Tensor(np.arange(6.0).reshape(2, 3))
    np.testing.assert_allclose(Rows()(x).asnumpy(), [3.0, 12.0, 3.0, 12.0])
    np.testing.assert_allclose(Rows()(-x).asnumpy(), [-3.0, -12.0])
    graph = compile_callable(Rows(), (x,)).graph
    switch = next(n for n in graph.nodes if n.callee.name == "switch")
    assert switch.outputs[0].aval.shape == (None, 3)


def test_tensor_shape_of_a_value_of_data_dependent_size_is_read_when_it_runs():
    ms.set_context(mode=ms.GRAPH_MODE)

    class Sizes(nn.Cell):
        def __init__(self):
            super().__init__()
            self.unique, self.shape = ops.Unique(), ops.TensorShape()

        def construct(self, x):
            values, _ = self.unique(x)
            return self.shape(values), self.shape(x)

    dynamic, static = Sizes()(Tensor(np.array([3, 1, 3, 2, 1], np.int32)))
    assert dynamic.asnumpy().tolist() == [3] and static.asnumpy().tolist() == [5]
    assert dynamic.dtype == ms.int64


def test_ops_shape_of_a_dynamic_size_is_a_variable_scalar():
    """ops.shape gives a size known only when the graph runs as a variable scalar, which
    arithmetic and reshape take (MindSpore 2.10's values); Cell.compile takes Tensors of
    unknown sizes, building the graph with those sizes dynamic."""
    ms.set_context(mode=ms.GRAPH_MODE)

    class Sizes(nn.Cell):
        def construct(self, x):
            values, _ = ops.unique(x)
            sizes = ops.shape(values)
            return sizes[0] * 2, ops.reshape(values, (sizes[0], 1)), values.shape

    doubled, column, shape = Sizes()(Tensor(np.array([1, 2, 2, 3])))
    assert doubled == 6 and shape == (3,)
    np.testing.assert_array_equal(column.asnumpy(), [[1], [2], [3]])

    class Flatten(nn.Cell):
        def construct(self, x):
            shape = ops.shape(ops.relu(x))
            return ops.reshape(x, (shape[0] * shape[1], shape[2] * shape[3]))

    net = Flatten()
    declared = Tensor(shape=[4, None, 2, 2], dtype=ms.float32)
    net.set_inputs(declared)
    net.compile(declared)
    assert net(Tensor(np.ones((4, 3, 2, 2), np.float32))).shape == (12, 4)


class ExpandAtChosenAxis(nn.Cell):
    """ExpandDims at an axis a Tensor `if` picks among two numbers: known only when it runs."""

    def __init__(self, axis_then, axis_else):
        super().__init__()
        self.axis_then, self.axis_else = axis_then, axis_else
        self.expand = ops.ExpandDims()

    def construct(self, x, y, data):
        if x > y:
            axis = self.axis_then
        else:
            axis = self.axis_else
        return self.expand(data, axis) * 2


# shapes and errors as MindSpore 2.10 gives them
@pytest.mark.parametrize("axes, pick_then, shape", [
    ((1, 2), True, (2, 1, 3)), ((1, 2), False, (2, 3, 1)),
    ((-1, -3), True, (2, 3, 1)), ((-1, -3), False, (1, 2, 3)), ((-4, 1), False, (2, 1, 3)),
])
def test_expand_dims_at_an_axis_known_when_run(axes, pick_then, shape):
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = ExpandAtChosenAxis(*axes)(Tensor(1.0 if pick_then else 0.0, ms.float32),
                                    Tensor(0.5, ms.float32), Tensor(data))
    assert out.shape == shape
    np.testing.assert_array_equal(out.asnumpy(), 2 * data.reshape(shape))


@pytest.mark.parametrize("axes, pick_then", [((0, 5), False), ((-4, 1), True)])
def test_expand_dims_axis_out_of_range_when_run(axes, pick_then):
    with pytest.raises(ValueError, match="ExpandDims"):
        ExpandAtChosenAxis(*axes)(Tensor(1.0 if pick_then else 0.0, ms.float32),
                                  Tensor(0.5, ms.float32), Tensor(np.ones((2, 3), np.float32)))


def test_expand_dims_at_a_run_time_axis_differentiates():
    net = ExpandAtChosenAxis(-1, 0)
    data = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    grads = ops.GradOperation(get_all=True)(net)(Tensor(1.0, ms.float32),
                                                 Tensor(0.0, ms.float32), data)
    np.testing.assert_array_equal(grads[2].asnumpy(), np.full((2, 3), 2.0, np.float32))


def test_expand_dims_needs_an_integer_axis():
    @ms.jit
    def expand(x, flag):
        axis = 1.0 if flag > 0 else 0.0
        return ops.expand_dims(x, axis)

    with pytest.raises(TypeError, match="ExpandDims"):
        expand(Tensor(np.ones((2, 3), np.float32)), Tensor(1.0, ms.float32))
