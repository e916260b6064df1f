"""vmap over a CellList (model ensembling): the i-th member of the batch runs with the i-th
cell's parameters, stacked along axis 0; gradients reach every cell's parameters. And vmap of a
function that updates the Parameters passed to it in place (MindSpore's Apply* primitives):
each member updates its slice."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.primitives.errors import ArgumentError, ShapeError


def _ensemble(n=3, dtype=ms.float32):
    ms.set_seed(0)
    return nn.CellList([nn.SequentialCell(nn.Dense(3, 4, dtype=dtype), nn.Tanh(),
                                          nn.Dense(4, 2, dtype=dtype)) for _ in range(n)])


def _x(*shape, seed=1):
    return Tensor(np.random.default_rng(seed).normal(size=shape))


def test_shared_input_and_mapped_inputs():
    nets = _ensemble(dtype=ms.float64)
    x = _x(5, 3)
    out = ops.vmap(nets, in_axes=None)(x)
    np.testing.assert_allclose(out.asnumpy(), np.stack([n(x).asnumpy() for n in nets]),
                               rtol=1e-12)
    xs = _x(3, 5, 3, seed=2)
    out = ops.vmap(nets, in_axes=0, out_axes=1)(xs)
    expected = np.stack([n(xs[i]).asnumpy() for i, n in enumerate(nets)], axis=1)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-12)


def test_gradients_reach_every_cell():
    nets = _ensemble(dtype=ms.float64)
    x = _x(5, 3)
    params = [p for n in nets for p in n.trainable_params()]
    grads = ms.grad(lambda t: ops.vmap(nets, in_axes=None)(t).sum(), None, params)(x)
    for k, net in enumerate(nets):
        own = ms.grad(lambda t, n=net: n(t).sum(), None, net.trainable_params())(x)
        for g, e in zip(grads[4 * k:4 * k + 4], own):
            np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-12)


def test_inside_construct():
    class Mean(nn.Cell):
        def __init__(self, members):
            super().__init__()
            self.members = members

        def construct(self, x):
            return ops.vmap(self.members, in_axes=None)(x).mean(0)

    nets = _ensemble()
    x = _x(2, 3).astype(ms.float32)
    np.testing.assert_allclose(Mean(nets)(x).asnumpy(),
                               np.mean([n(x).asnumpy() for n in nets], axis=0), rtol=1e-5)


def test_errors():
    with pytest.raises(ArgumentError, match=r"vmap: the cells of a CellList must have one "
                                            r"structure .* cell 1 \(Dense\) differs"):
        ops.vmap(nn.CellList([nn.Dense(3, 2), nn.Dense(3, 4)]), in_axes=None)(_x(1, 3))
    # MindSpore 2.10's message
    with pytest.raises(ShapeError, match="consistent with the cell size of the input "
                                         "'CellList'.*but we get axis_size: 4 and the cell "
                                         "size: 3."):
        ops.vmap(_ensemble(), in_axes=0)(_x(4, 2, 3).astype(ms.float32))


# ----- in-place updates of Parameters passed to vmap ---------------------------------------------

def _descent(var, alpha, delta):
    return ops.ApplyGradientDescent()(var, alpha, delta)


class _MappedDescent(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.var = ms.Parameter(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), name="var")
        self.fn = fn

    def construct(self, alpha, delta):
        return self.fn(self.var, alpha, delta)


def test_a_mapped_parameter_takes_each_members_update():
    # MindSpore 2.10: out and var both [[-0.5, 0.5, 1.5], [1, 2, 3]]
    net = _MappedDescent(ops.vmap(_descent, in_axes=(0, 0, 1)))
    out = net(Tensor(np.array([0.5, 2.0], np.float32)), Tensor(np.ones((3, 2), np.float32)))
    expected = np.array([[-0.5, 0.5, 1.5], [1.0, 2.0, 3.0]], np.float32)
    np.testing.assert_array_equal(out.asnumpy(), expected)
    np.testing.assert_array_equal(net.var.asnumpy(), expected)


def test_nested_vmap_updates_the_parameter_once():
    # MindSpore 2.10's values for the same program
    net = _MappedDescent(ops.vmap(ops.vmap(_descent, in_axes=(0, None, 0)), in_axes=(0, 0, 0)))
    net.var.set_data(Tensor(np.arange(12, dtype=np.float32).reshape(2, 3, 2)))
    out = net(Tensor(np.array([0.5, 2.0], np.float32)),
              Tensor(np.arange(12, dtype=np.float32).reshape(2, 3, 2) / 4))
    expected = np.array([[[0.0, 0.875], [1.75, 2.625], [3.5, 4.375]],
                         [[3.0, 3.5], [4.0, 4.5], [5.0, 5.5]]], np.float32)
    np.testing.assert_array_equal(out.asnumpy(), expected)
    np.testing.assert_array_equal(net.var.asnumpy(), expected)


def test_a_parameter_updated_from_python_is_written_back():
    # MindSpore 2.10: out and var both zeros
    var = ms.Parameter(Tensor(np.ones((2, 3), np.float32)), name="w")
    out = ops.vmap(_descent, in_axes=(0, None, 0))(var, Tensor(np.float32(0.5)),
                                                   Tensor(np.full((2, 3), 2.0, np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(var.asnumpy(), np.zeros((2, 3), np.float32))


@pytest.mark.parametrize("in_axes, alpha, delta, message", [
    # MindSpore: "the source axis of `var` must not equal to 0, but got ...: 1"
    ((1, None, 0), np.float32(0.5), np.ones((3, 2), np.float32),
     "source axis of `var` in `ApplyGradientDescent` must be 0 or None.*got 1"),
    # MindSpore: "The source axis of `var` is None, but the source axis of `alpha/delta` is not
    # None. The execution order of operator `ApplyGradientDescent` cannot be guaranteed."
    ((None, None, 0), np.float32(0.5), np.ones((2, 2, 3), np.float32),
     "execution order of its updates cannot be guaranteed"),
])
def test_updated_parameters_follow_mindspores_axis_rules(in_axes, alpha, delta, message):
    net = _MappedDescent(ops.vmap(_descent, in_axes=in_axes))
    with pytest.raises(ValueError, match=message):
        net(Tensor(alpha), Tensor(delta))


class _IndexAddInto(nn.Cell):
    """vmap(IndexAdd(axis)) applied to a Parameter mapped along `in_axes[0]`."""

    def __init__(self, x, axis, in_axes, out_axes):
        super().__init__()
        self.x = ms.Parameter(Tensor(x), name="x")
        self.fn = ops.vmap(ops.IndexAdd(axis), in_axes, out_axes)

    def construct(self, idx, y):
        return self.fn(self.x, idx, y)


@pytest.mark.parametrize("axis, in_axes, out_axes", [(0, (2, None, 2), 2),
                                                      (-2, (-1, None, -1), -1)])
def test_a_parameter_mapped_along_an_inner_axis_is_updated_along_it(axis, in_axes, out_axes):
    # MindSpore 2.10: IndexAdd (like Assign) keeps the Parameter's batch on its own source axis
    x = np.array([[[1, 1], [1, 1]], [[2, 2], [2, 2]], [[3, 3], [3, 3]]], np.float32)
    y = np.array([[[0, 0.5], [1, 1.5]], [[1.5, 2], [2.5, 3]]], np.float32)
    net = _IndexAddInto(x, axis, in_axes, out_axes)
    out = net(Tensor(np.array([0, 2], np.int32)), Tensor(y))
    expected = np.array([[[1, 1.5], [2, 2.5]], [[2, 2], [2, 2]], [[4.5, 5], [5.5, 6]]],
                        np.float32)
    np.testing.assert_array_equal(out.asnumpy(), expected)
    np.testing.assert_array_equal(net.x.asnumpy(), expected)


def test_scatter_into_a_parameter_mapped_along_axis_1_is_refused():
    # MindSpore's batching rule of the Scatter updates: "The source axis of `ref` in
    # `ScatterAdd` must be 0 or None, but got 1." (ValueError)
    var = ms.Parameter(Tensor(np.zeros((2, 3), np.float32)), name="v")
    with pytest.raises(ValueError, match="`input_x` in `ScatterAdd` must be 0 or None.*got 1"):
        ops.vmap(ops.ScatterAdd(), in_axes=(1, None, None))(
            var, Tensor(np.array([0], np.int32)), Tensor(np.ones((1,), np.float32)))


def test_assigning_a_cells_own_parameter_a_mapped_value_is_refused():
    # MindSpore 2.10's ValueError: the batch's writes to one Parameter have no order
    class Scaled(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(Tensor(np.ones(3, np.float32)), name="w")

        def construct(self, x):
            ops.assign(self.w, x)
            return x

    with pytest.raises(ValueError, match=r"The source axis of `variable` is None, but the "
                                         r"source axis of `value` is not None\. The execution "
                                         r"order of operator `Assign` cannot be guaranteed\."):
        ops.vmap(Scaled(), in_axes=0)(Tensor(np.ones((2, 3), np.float32)))


def test_assigning_a_cells_own_parameter_an_unmapped_value_writes_it():
    class Doubled(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(Tensor(np.ones((2, 2), np.float32)), name="w")

        def construct(self, x):
            ops.assign(self.w, self.w * 2)
            return x * self.w

    net = Doubled()
    out = ops.vmap(net)(Tensor(np.arange(12, dtype=np.float32).reshape(3, 2, 2)))
    np.testing.assert_array_equal(out.asnumpy(), np.arange(12).reshape(3, 2, 2) * 2.0)
    np.testing.assert_array_equal(net.w.asnumpy(), np.full((2, 2), 2.0))


def test_an_in_place_update_of_a_mapped_input_is_written_back():
    # MindSpore 2.10: `x` itself holds the updated batch afterwards
    def bump(t):
        ops.assign_add(t, Tensor(np.array([1.0, 2.0], np.float32)))
        return t * 3

    x = Tensor(np.ones((3, 2), np.float32))
    out = ops.vmap(bump)(x)
    np.testing.assert_array_equal(x.asnumpy(), np.tile([2.0, 3.0], (3, 1)))
    np.testing.assert_array_equal(out.asnumpy(), np.tile([6.0, 9.0], (3, 1)))


# ----- MindSpore's checks of vmap's arguments --------------------------------------------------

class _TwoOutputs(nn.Cell):
    def construct(self, x, y, z):
        return x + y, z


class _Scaled(nn.Cell):
    def __init__(self, count=1):
        super().__init__()
        for i in range(count):
            setattr(self, f"w{i}", ms.Parameter(Tensor(np.ones(3, np.float32)), name=f"w{i}"))

    def construct(self, r):
        return r * self.w0


class _ScaledPair(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w0 = ms.Parameter(Tensor(np.ones(3, np.float32)), name="w0")

    def construct(self, r, x):
        return r * self.w0, x


_X23 = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
_Z3 = Tensor(np.arange(3, dtype=np.float32))
_R33 = Tensor(np.ones((3, 3), np.float32))


@pytest.mark.parametrize("call, error, message", [
    # MindSpore 2.10's exception types and messages, in both modes
    (lambda: ops.vmap(_TwoOutputs(), in_axes=None)(_X23, _X23, _Z3), RuntimeError,
     "The 'in_axes' of 'vmap' cannot be a single None while 'fn' is not a 'CellList'."),
    (lambda: ops.vmap(_TwoOutputs(), (1, 1, None), (0, 0, 0))(_X23, _X23, _Z3), RuntimeError,
     ("The size of vmap's 'out_axes' should be equal to the number of results of 'fn': 2, but "
     "got size: 3.")),
    (lambda: ops.vmap(_TwoOutputs(), (1., 1., None), 0)(_X23, _X23, _Z3), RuntimeError,
     "The axis in vmap's 'in_axes' should be a None or a scalar of type Int64Imm, but got a 1."),
    (lambda: ops.vmap(_TwoOutputs(), (-3, 2, None), 0)(_X23, _X23, _Z3), RuntimeError,
     "The axis: -3 in 'in_axes' is out of bounds for array of dimension [-2,2)."),
    (lambda: ops.vmap(_TwoOutputs(), (1, 1, None), (None, 0))(_X23, _X23, _Z3), RuntimeError,
     "It is invalid that source is not None and dst is None."),
    (lambda: ops.vmap(_TwoOutputs(), (1, 1, None), 0)(_X23, _X23), TypeError,
     "The parameters number of the function is 3, but the number of provided arguments is 2."),
    (lambda: ops.vmap(_TwoOutputs(), (1, 0, None), 0)(_X23, _X23, _Z3), RuntimeError,
     ("The 'axis_size' of each argument in the scope of 'vmap' should be equal, but got 3 and "
     "2.")),
    (lambda: ops.vmap(_TwoOutputs(), (1, 1, None), (0, 1))(_X23, _X23, Tensor(1.0)),
     RuntimeError, "The axis: 1 in 'out_axes' is out of bounds for array of dimension [-1,1)."),
    (lambda: ops.vmap(_TwoOutputs(), (1, 1, None), (None, None, None, (None, None)))(
        _X23, _X23, 1), RuntimeError,
     ("The 'out_axes' of 'vmap' cannot be all None while 'fn' is not a 'CellList', but got "
     "(None, None, None, (None, None)).")),
    (lambda: ops.vmap(_TwoOutputs(), (1, 1, None), (0, 1))(_X23, _X23, 1), RuntimeError,
     "The axis: 1 in 'out_axes' is out of bounds for array of dimension [-1,1)."),
    (lambda: ops.vmap(nn.CellList([_Scaled()]), in_axes=0)(_R33), RuntimeError,
     "the size of 'CellList' must be greater than 1, but got 1."),
    (lambda: ops.vmap(nn.CellList([_Scaled(), _ScaledPair()]), in_axes=0)(_R33), RuntimeError,
     "'VmapOperation' arg0 is a CellList, whose elements's inputs should be consistent."),
    (lambda: ops.vmap(nn.CellList([_Scaled(), _Scaled(2)]), in_axes=0)(_R33), ValueError,
     "but we get axis_size: 3 and the cell size: 2."),
    (lambda: ops.vmap(nn.CellList([_Scaled(), _Scaled(2), _Scaled()]), in_axes=0)(_R33),
     ValueError, "Parameter size of each cell should be consistent, but get 1 and 2."),
])
def test_argument_checks_are_mindspores(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


def test_out_axes_none_returns_an_unmapped_output_as_it_is():
    # MindSpore 2.10: shapes (3, 2) and (3,)
    mapped, kept = ops.vmap(_TwoOutputs(), in_axes=(1, 1, None), out_axes=(0, None))(
        _X23, _X23, _Z3)
    np.testing.assert_array_equal(mapped.asnumpy(), [[0.0, 6.0], [2.0, 8.0], [4.0, 10.0]])
    np.testing.assert_array_equal(kept.asnumpy(), [0.0, 1.0, 2.0])
