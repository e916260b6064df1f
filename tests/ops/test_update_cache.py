"""`ops.operations.UpdateCache` (rows of a cache Parameter written in place where the index is
in [0, max_num)) and SubAndFilter, as MindSpore 2.10's CPU kernels (values recorded from it)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, context, nn
from cellgraph.ops import operations as P
from cellgraph.ops.operations._embedding_cache_ops import SubAndFilter


class UpdateCacheNet(nn.Cell):
    def __init__(self, x):
        super().__init__()
        self.op = P.UpdateCache()
        self.x = Parameter(Tensor(x), name="x")

    def construct(self, indices, update):
        return self.op(self.x, indices, update, 9999)


def test_skips_negative_indices_in_a_graph():
    x = np.array([[2, 3, 4, 5], [6, 7, 8, 9], [11, 12, 13, 14], [1, 2, 3, 4], [5, 6, 7, 8]],
                 np.int32)
    update = np.array([[0, 0, 0, 0], [23, 34, 56, 78], [44, 55, 66, 77]], np.int32)
    context.set_context(mode=context.GRAPH_MODE)
    try:
        net = UpdateCacheNet(x)
        out = net(Tensor(np.array([[-1, 3, 4]], np.int32)), Tensor(update))
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    expected = x.copy()
    expected[3:] = update[1:]
    np.testing.assert_array_equal(net.x.asnumpy(), expected)
    assert out.asnumpy().tolist() == [0]


def test_max_num_bounds_and_repeats_keep_the_last():
    x = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="cache")
    out = P.UpdateCache()(x, Tensor(np.array([2, 2, 0, 5], np.int32)),
                          Tensor(np.arange(8).reshape(4, 2).astype(np.float32)), 3)
    np.testing.assert_array_equal(x.asnumpy(), [[4, 5], [0, 0], [2, 3]])
    assert out.asnumpy().tolist() == [0.0]


def test_an_index_past_the_rows_fails():
    x = Parameter(Tensor(np.zeros((3, 2), np.float32)), name="cache")
    with pytest.raises(RuntimeError, match="row index 4 out of range"):
        P.UpdateCache()(x, Tensor(np.array([4], np.int32)), Tensor(np.ones((1, 2), np.float32)),
                        9)
    with pytest.raises(TypeError, match="'indices' must be a Tensor of an integer type"):
        P.UpdateCache()(x, Tensor([1.0]), Tensor(np.ones((1, 2), np.float32)), 9)


class _SubAndFilter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.op = SubAndFilter()

    def construct(self, x, max_num, offset):
        return self.op(x, max_num, offset)


# input, max_num, offset -> MindSpore 2.10's (kept ids less offset, their flat positions)
SUB_AND_FILTER = [
    ((np.array([1, 3, 5, 8, 9, 16], np.int32), 10, 5), ([0, 3, 4], [2, 3, 4])),
    ((np.array([[1, 7], [5, 6]], np.int64), 3, 5), ([2, 0, 1], [1, 2, 3])),
    ((np.array([4, 2], np.int64), 3, 5), ([], [])),
]


@pytest.mark.parametrize("mode", [context.PYNATIVE_MODE, context.GRAPH_MODE])
@pytest.mark.parametrize(("inputs", "expected"), SUB_AND_FILTER)
def test_sub_and_filter(mode, inputs, expected):
    x, max_num, offset = inputs
    context.set_context(mode=mode)
    try:
        kept, positions = _SubAndFilter()(Tensor(x), max_num, offset)
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    for got, want in ((kept, expected[0]), (positions, expected[1])):
        assert got.dtype == Tensor(x).dtype
        np.testing.assert_array_equal(got.asnumpy(), np.array(want, x.dtype))


def test_sub_and_filter_takes_integer_ids_only():
    with pytest.raises(TypeError, match=r"argument\[x\] must be a type of"):
        SubAndFilter()(Tensor(np.array([1.5, 6.0], np.float32)), 10, 5)


class _MapUniformNet(nn.Cell):
    def __init__(self, per_group_size, group_num):
        super().__init__()
        self.map_uniform = P.MapUniform()
        self.per_group_size, self.group_num = per_group_size, group_num

    def construct(self, x):
        return self.map_uniform(x, self.per_group_size, self.group_num)


def test_map_uniform_as_mindspore():
    # MindSpore 2.10's values: key % group_num * per_group_size + key / group_num, both
    # rounded toward zero
    out = _MapUniformNet(4, 2)(Tensor(np.arange(8, dtype=np.int32)))
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [0, 4, 1, 5, 2, 6, 3, 7]
    out = _MapUniformNet(3, 4)(Tensor(np.array([[-3, 5], [9, 10]], np.int64)))
    assert out.dtype == ms.int64 and out.asnumpy().tolist() == [[-9, 4], [5, 8]]
    eager = P.MapUniform()(Tensor(np.array([0, 1, 2], np.int16)), 4, 2)
    assert eager.dtype == ms.int16 and eager.asnumpy().tolist() == [0, 4, 1]


def test_map_uniform_errors():
    with pytest.raises(TypeError, match="the element of 'input' must be one of"):
        _MapUniformNet(4, 2)(Tensor(np.array([0.0, 1.0], np.float32)))
    with pytest.raises(RuntimeError, match="out of range"):  # 20 -> 10, not below 4 * 2
        _MapUniformNet(4, 2)(Tensor(np.array([0, 1, 20], np.int32)))
    with pytest.raises(RuntimeError, match="'group_num' must be greater than 0"):
        _MapUniformNet(4, 0)(Tensor(np.array([0, 1], np.int32)))


class _PadAndShiftNet(nn.Cell):
    def __init__(self, shift_idx):
        super().__init__()
        self.pad_and_shift = P.PadAndShift()
        self.shift_idx = shift_idx

    def construct(self, x, cum_sum_arr):
        return self.pad_and_shift(x, cum_sum_arr, self.shift_idx)


def test_pad_and_shift_as_mindspore():
    # MindSpore 2.10's value: -1 * cum_sum_arr[-1], input_x[:2] written at [3, 5)
    x = Tensor(np.array([9, 13, -1, -1, -1, -1, -1, -1], np.int32))
    net = _PadAndShiftNet(1)
    out = net(x, Tensor(np.array([0, 3, 5], np.int32)))
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == [-1, -1, -1, 9, 13]
    # the table sets the length: another table, another result (the graph follows its values)
    assert net(x, Tensor(np.array([0, 1, 2], np.int32))).asnumpy().tolist() == [-1, 9]
    eager = P.PadAndShift()(Tensor(np.array([9, 13, 4], np.int64)),
                            Tensor(np.array([0, 2, 3, 6], np.int64)), 0)
    assert eager.asnumpy().tolist() == [9, 13, -1, -1, -1, -1]


def test_pad_and_shift_errors():
    with pytest.raises(TypeError, match="int32 or int64"):
        P.PadAndShift()(Tensor(np.array([9.0, 13.0], np.float32)),
                        Tensor(np.array([0, 1, 2], np.int32)), 1)
    with pytest.raises(RuntimeError, match="Rank of PadAndShift's input must be 1"):
        P.PadAndShift()(Tensor(np.array([[9, 13]], np.int32)),
                        Tensor(np.array([0, 1, 2], np.int32)), 1)
    with pytest.raises(ValueError, match="shift_idx"):
        P.PadAndShift()(Tensor(np.array([9, 13], np.int32)),
                        Tensor(np.array([0, 1, 2], np.int32)), 2)
    with pytest.raises(RuntimeError, match="at most the 2 elements"):
        P.PadAndShift()(Tensor(np.array([9, 13], np.int32)),
                        Tensor(np.array([0, 1, 5], np.int32)), 1)


def test_map_uniform_run_eagerly_refuses_a_float_input_as_mindspore_kernel():
    with pytest.raises(TypeError) as info:
        P.MapUniform()(Tensor(np.array([0.0, 1.0], np.float32)), 4, 2)
    assert str(info.value).split("\n")[0] == (
        "For primitive[MapUniform], the input argument[input] must be a type of {Tensor[Int16], "
        "Tensor[Int32], Tensor[Int64], Tensor[Int8]}, but got Tensor[Float32].")
