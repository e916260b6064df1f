"""The in-place scatters ops.ScatterSub ... ScatterMin and ScatterNdSub, and DepthToSpace /
SpaceToDepth: the values (returned and left in the Parameter) MindSpore 2.10 gives for the same
inputs, recorded below; repeated indices each apply, as in MindSpore. The updates take the
Parameter's dtype where MindSpore's signature converts them, and its errors where it refuses."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, context, nn
from cellgraph.ops import operations as P

EXPECTED = {"ScatterSub": [[[0.5, -6.0, 1.0], [8.0, 10.0, 12.0], [-3.0, -4.0, -5.0]], [[0.5, -6.0, 1.0], [8.0, 10.0, 12.0], [-3.0, -4.0, -5.0]]], "ScatterMul": [[[1.0, 64.0, 36.0], [8.0, 10.0, 12.0], [4.0, 5.0, 6.0]], [[1.0, 64.0, 36.0], [8.0, 10.0, 12.0], [4.0, 5.0, 6.0]]], "ScatterDiv": [[[4.0, 0.25, 1.0], [8.0, 10.0, 12.0], [0.25, 0.20000000298023224, 0.1666666716337204]], [[4.0, 0.25, 1.0], [8.0, 10.0, 12.0], [0.25, 0.20000000298023224, 0.1666666716337204]]], "ScatterMax": [[[2.0, 8.0, 6.0], [8.0, 10.0, 12.0], [4.0, 5.0, 6.0]], [[2.0, 8.0, 6.0], [8.0, 10.0, 12.0], [4.0, 5.0, 6.0]]], "ScatterMin": [[[0.5, 2.0, 2.0], [8.0, 10.0, 12.0], [1.0, 1.0, 1.0]], [[0.5, 2.0, 2.0], [8.0, 10.0, 12.0], [1.0, 1.0, 1.0]]], "ScatterNdSub": [[[0.0, -4.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 4.0]], [[0.0, -4.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 4.0]]], "DepthToSpace": [[[[[0.0, 12.0, 1.0, 13.0, 2.0, 14.0], [24.0, 36.0, 25.0, 37.0, 26.0, 38.0], [3.0, 15.0, 4.0, 16.0, 5.0, 17.0], [27.0, 39.0, 28.0, 40.0, 29.0, 41.0]], [[6.0, 18.0, 7.0, 19.0, 8.0, 20.0], [30.0, 42.0, 31.0, 43.0, 32.0, 44.0], [9.0, 21.0, 10.0, 22.0, 11.0, 23.0], [33.0, 45.0, 34.0, 46.0, 35.0, 47.0]]], [[[48.0, 60.0, 49.0, 61.0, 50.0, 62.0], [72.0, 84.0, 73.0, 85.0, 74.0, 86.0], [51.0, 63.0, 52.0, 64.0, 53.0, 65.0], [75.0, 87.0, 76.0, 88.0, 77.0, 89.0]], [[54.0, 66.0, 55.0, 67.0, 56.0, 68.0], [78.0, 90.0, 79.0, 91.0, 80.0, 92.0], [57.0, 69.0, 58.0, 70.0, 59.0, 71.0], [81.0, 93.0, 82.0, 94.0, 83.0, 95.0]]]]], "SpaceToDepth": [[[[[0.0, 2.0, 4.0], [12.0, 14.0, 16.0]], [[24.0, 26.0, 28.0], [36.0, 38.0, 40.0]], [[1.0, 3.0, 5.0], [13.0, 15.0, 17.0]], [[25.0, 27.0, 29.0], [37.0, 39.0, 41.0]], [[6.0, 8.0, 10.0], [18.0, 20.0, 22.0]], [[30.0, 32.0, 34.0], [42.0, 44.0, 46.0]], [[7.0, 9.0, 11.0], [19.0, 21.0, 23.0]], [[31.0, 33.0, 35.0], [43.0, 45.0, 47.0]]]]]}


def T(a, d=np.float32):
    return ms.Tensor(np.asarray(a, d))


def _run():
    out = {}
    for name in ["ScatterSub", "ScatterMul", "ScatterDiv", "ScatterMax", "ScatterMin"]:
        p = ms.Parameter(T([[2.0, 4.0, 6.0], [8.0, 10.0, 12.0], [1.0, 1.0, 1.0]]), name="p" + name)
        r = getattr(P, name)()(p, T([0, 2, 0], np.int32), T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [0.5, 8.0, 2.0]]))
        out[name] = [r.asnumpy().tolist(), p.asnumpy().tolist()]
    p = ms.Parameter(T(np.arange(12).reshape(3, 4)), name="pnd")
    r = P.ScatterNdSub()(p, T([[0, 1], [2, 3]], np.int32), T([5.0, 7.0]))
    out["ScatterNdSub"] = [r.asnumpy().tolist(), p.asnumpy().tolist()]
    x = T(np.arange(2 * 8 * 2 * 3).reshape(2, 8, 2, 3))
    out["DepthToSpace"] = [P.DepthToSpace(2)(x).asnumpy().tolist()]
    y = T(np.arange(1 * 2 * 4 * 6).reshape(1, 2, 4, 6))
    out["SpaceToDepth"] = [P.SpaceToDepth(2)(y).asnumpy().tolist()]
    return out


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_as_mindspore(name):
    for got, want in zip(_run()[name], EXPECTED[name], strict=True):
        np.testing.assert_allclose(np.array(got), np.array(want), rtol=1e-6)


def test_the_scattered_must_be_a_parameter_and_blocks_fit():
    with pytest.raises(TypeError, match="ScatterSub: `input_x` must be a Parameter or Tensor"):
        P.ScatterSub()([1.0, 2.0], T([0], np.int32), T([1.0]))
    with pytest.raises(ValueError, match="multiple of block_size"):
        P.DepthToSpace(2)(T(np.ones((1, 3, 2, 2))))


def test_depth_to_space_with_a_batch_known_at_run_time():
    """A batch from `Unique` (its size known when the graph runs) goes through DepthToSpace and
    back through SpaceToDepth, as in MindSpore, and a reshape whose -1 stands for it too."""

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.d2s, self.s2d = P.DepthToSpace(2), P.SpaceToDepth(2)
            self.unique, self.gather = P.Unique(), P.Gather()

        def construct(self, x, idx):
            kept, _ = self.unique(idx)
            y = self.d2s(self.gather(x, kept, 0))
            return y, self.s2d(y), ms.ops.reshape(y, (-1, 12))

    x = np.arange(4 * 12, dtype=np.float32).reshape(4, 12, 1, 1)
    idx = T([0, 2, 2, 0, 1], np.int32)
    net = Net()
    net.set_inputs(ms.Tensor(shape=[None] * 4, dtype=ms.float32), idx)
    y, back, flat = net(T(x), idx)
    kept = x[[0, 2, 1]]  # Unique keeps the order of first occurrence
    np.testing.assert_array_equal(y.asnumpy(), P.DepthToSpace(2)(T(kept)).asnumpy())
    assert y.shape == (3, 3, 2, 2)
    np.testing.assert_array_equal(back.asnumpy(), kept)
    np.testing.assert_array_equal(flat.asnumpy(), y.asnumpy().reshape(-1, 12))


@pytest.mark.parametrize("name", ["tensor_scatter_add", "tensor_scatter_sub",
                                  "tensor_scatter_max", "tensor_scatter_min",
                                  "tensor_scatter_mul", "tensor_scatter_update"])
def test_tensor_scatter_indices_are_int32_or_int64(name):
    x = ms.Tensor(np.array([[7, 3, 3], [4, 5, -3]], np.int32))
    updates = ms.Tensor(np.array([1], np.int32))
    op = getattr(ms.ops, name)
    for dtype in (np.int32, np.int64):
        op(x, ms.Tensor(np.array([[0, 1]], dtype)), updates)
    with pytest.raises(TypeError, match=r"indices type\] supports types: Int32, Int64. But got "
                                        r"Int16"):  # MindSpore 2.10's message
        op(x, ms.Tensor(np.array([[0, 1]], np.int16)), updates)


def test_tensor_scatter_div_of_integers_truncates_as_mindspore():
    from cellgraph import Tensor, ops
    x = np.array([[7, -7, 9], [5, 6, -8]])
    indices = Tensor(np.array([[0, 0], [1, 2], [0, 1]], np.int32))
    for dtype in (np.int16, np.int32, np.int64):
        args = (Tensor(x.astype(dtype)), indices, Tensor(np.array([2, 3, 2], dtype)))
        for got in (ops.tensor_scatter_div(*args), ms.jit(ops.tensor_scatter_div)(*args)):
            assert got.dtype == args[0].dtype
            # MindSpore 2.10 CPU, recorded
            np.testing.assert_array_equal(got.asnumpy(), [[3, -3, 9], [5, 6, -2]])


def test_scatter_nd_mul_div_max_min_update_the_parameter_in_place():
    from cellgraph import Parameter, Tensor
    from cellgraph.ops.operations import array_ops
    indices = Tensor(np.array([[0, 1], [1, 1]], np.int32))
    cases = [(array_ops.ScatterNdMul, [2, 2], [[6, 12, 6], [2, -14, 2]]),
             (array_ops.ScatterNdDiv, [2, 2], [[6, 3, 6], [2, -3, 2]]),  # truncating
             (array_ops.ScatterNdMax, [100, -100], [[6, 100, 6], [2, -7, 2]]),
             (array_ops.ScatterNdMin, [0, 0], [[6, 0, 6], [2, -7, 2]])]
    for cls, updates, expected in cases:
        for run in (lambda op, *a: op(*a), lambda op, *a: ms.jit(op)(*a)):
            x = Parameter(Tensor(np.array([[6, 6, 6], [2, -7, 2]], np.int32)), name="x")
            out = run(cls(), x, indices, Tensor(np.array(updates, np.int32)))
            np.testing.assert_array_equal(out.asnumpy(), expected)
            np.testing.assert_array_equal(x.asnumpy(), expected)
    assert ms.ops.ScatterNdDiv is array_ops.ScatterNdDiv


def test_scatter_nd_update_index_out_of_range_is_a_value_error():
    from cellgraph import Parameter, Tensor, nn

    class Update(nn.Cell):
        def __init__(self):
            super().__init__()
            self.op = P.ScatterNdUpdate()
            self.x = Parameter(Tensor(np.ones([1, 4, 1], np.float32)), name="x")

        def construct(self, indices, updates):
            return self.op(self.x, indices, updates)

    bad = Tensor(np.array([[0, 2], [3, 2], [1, 3]], np.int32))
    with pytest.raises(ValueError, match="out of range"):  # MindSpore 2.10: ValueError
        Update()(bad, Tensor(np.ones((3, 1), np.float32)))
    x = Parameter(Tensor(np.zeros([2, 3], np.float32)), name="y")
    P.ScatterNdUpdate()(x, Tensor(np.array([[0, 2], [1, 1]], np.int32)),
                        Tensor(np.ones(2, np.float32)))
    np.testing.assert_array_equal(x.asnumpy(), [[0, 0, 1], [0, 1, 0]])


class _ScatterOnParameter(nn.Cell):
    """`op(self.b, indices, updates)` on a Parameter `b` of `dtype`, in a graph."""

    def __init__(self, op, shape, dtype):
        super().__init__()
        self.b = Parameter(Tensor(np.ones(shape), dtype), name="b")
        self.op = op

    def construct(self, indices, updates):
        return self.op(self.b, indices, updates)


def test_updates_convert_to_the_parameters_dtype_in_a_graph():
    # MindSpore 2.10 converts float16 updates to the float32 Parameter's dtype
    context.set_context(mode=context.GRAPH_MODE)
    try:
        net = _ScatterOnParameter(P.ScatterNdUpdate(), (5, 5), ms.float32)
        net(Tensor(np.array([[1]], np.int32)), Tensor(np.full((1, 5), 3, np.float16)))
        assert net.b.dtype == ms.float32
        np.testing.assert_array_equal(net.b.asnumpy()[1], [3.0] * 5)
        with pytest.raises(ValueError, match=r"For primitive\[ScatterNdUpdate\], the dimension "
                                             r"of 'indices' must be greater than or equal to 2 "
                                             r", but got 1"):
            _ScatterOnParameter(P.ScatterNdUpdate(), (5, 5), ms.float32)(
                Tensor(np.ones([1], np.int32)), Tensor(np.ones([5], np.float16)))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)


@pytest.mark.parametrize("op, name, updates_dtype, promoted", [
    (P.ScatterDiv(False), "x", np.float32, "Float32"),
    (P.ScatterAdd(), "x", np.int32, "Int32"),
    (P.ScatterSub(), "input_x", np.float32, "Float32"),
    (P.ScatterUpdate(), "x", np.float32, "Float32"),
])
def test_a_parameter_is_never_converted(op, name, updates_dtype, promoted):
    # MindSpore 2.10's message for updates whose dtype would need the Parameter converted
    net = _ScatterOnParameter(op, (5, 3), ms.int8)
    message = (f"Data type conversion is not supported for a 'Parameter', nor for the input "
               f"tensor of an in-place operator, the argument[{name}]'s data type of "
               f"primitive[{type(op).__name__}] is Int8, which cannot be converted to data type "
               f"{promoted} automatically.")
    with pytest.raises(TypeError) as info:
        net(Tensor(np.zeros((2,), np.int32)), Tensor(np.ones((2, 3), updates_dtype)))
    assert message in str(info.value)


def test_scatter_nd_sub_names_input_x():
    net = _ScatterOnParameter(P.ScatterNdSub(), (5, 3), ms.int8)
    with pytest.raises(TypeError, match=r"the argument\[input_x\]'s data type of "
                                        r"primitive\[ScatterNdSub\] is Int8"):
        net(Tensor(np.zeros((2, 1), np.int32)), Tensor(np.ones((2, 3), np.float32)))
