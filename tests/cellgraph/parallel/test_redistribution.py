"""Tensor redistribution (`parallel._redistribution`, through `parallel._tensor`): the
operators that turn a rank's slice under one layout into its slice under another. Operator
lists recorded from MindSpore 2.10; on random layouts, every rank's slice, run through the
operators, the ranks they gather from and the operators those ranks run first, equals its
slice under the target layout, with the operators as they come and merged (enable_redist_opt)."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph.parallel._redistribution import _PendingTable, transform_operators
from cellgraph.parallel._tensor import (
    _apply_tensor_transform_operators,
    _generate_transform_operator_stack,
    _get_needed_rank_list_by_layouts,
    _get_needed_rank_transform_operator_map_by_layouts,
    _transform_tensor_by_layout,
)
from cellgraph.train.strategy_file import rank_block

# (from layout, to layout, number of devices, rank, MindSpore 2.10's operators)
RECORDED = [
    (((2, 1, 2), (2, 1, 0, -1), (4, 16, 8, 8)), ((2, 1, 2), (2, 1, -1, 0), (4, 16, 8, 8)), 4, 2,
     [('AllConcat', [2, 3, 2]), ('StridedSlice', [0, 0, 0, 0, 2, 16, 8, 4, 1, 1, 1, 1])]),
    (((1, 2, 2), (-1, 2, 1, -1), (4, 16, 8, 8)), ((4,), (-1, 0, -1, -1), (4, 16, 8, 8)), 4, 2,
     [('Reshape', [4, 2, 8, 4, 8]),
      ('StridedSlice', [0, 0, 0, 0, 0, 4, 2, 4, 4, 8, 1, 1, 1, 1, 1]), ('AllConcat', [0, 2, 3]),
      ('StridedSlice', [0, 1, 0, 0, 0, 4, 2, 4, 8, 8, 1, 1, 1, 1, 1]), ('Reshape', [4, 4, 8, 8])]),
    (((4, 4), (0, -1, -1), (16, 8, 32)), ((8, 1, 2), (2, 1, -1), (16, 8, 32)), 16, 9,
     [('Reshape', [1, 1, 4, 8, 32]), ('AllConcat', [9, 11, 0]),
      ('StridedSlice', [0, 0, 0, 0, 0, 2, 1, 2, 8, 32, 1, 1, 1, 1, 1]),
      ('StridedSlice', [1, 0, 0, 0, 0, 2, 1, 2, 8, 32, 1, 1, 1, 1, 1]), ('AllConcat', [8, 9, 1]),
      ('StridedSlice', [0, 0, 0, 0, 0, 1, 1, 2, 8, 32, 1, 1, 1, 1, 1]), ('Reshape', [2, 8, 32])]),
    (((8, 2), (-1,), (64,)), ((4, 2, 2), (0,), (64,)), 16, 11,
     [('StridedSlice', [32, 64, 1])]),
    (((4, 1, 4), (2, 0), (8, 256)), ((4, 1, 2, 2), (3, 2), (8, 256)), 16, 0,
     [('Reshape', [2, 1, 64]), ('AllConcat', [0, 2, 1]), ('AllConcat', [0, 1, 2]),
      ('Reshape', [2, 256])]),
    (((2, 2), (-1,), (64,)), ((4,), (0,), (64,)), 4, 1,
     [('Reshape', [2, 32]), ('StridedSlice', [0, 0, 1, 32, 1, 1]),
      ('StridedSlice', [0, 16, 1, 32, 1, 1]), ('Reshape', [16])]),
    (((4, 2, 2, 1), (0, 3, -1), (1, 32, 16)), ((4, 4), (-1, -1, -1), (1, 32, 16)), 16, 10,
     [('Reshape', [8, 16]), ('AllConcat', [2, 6, 10, 14, 0]), ('Reshape', [1, 32, 16])]),
    (((2, 2, 2), (2, -1), (32, 64)), ((1, 2, 4), (0, 2), (32, 64)), 8, 1,
     [('Reshape', [1, 16, 64]), ('StridedSlice', [0, 8, 0, 1, 16, 64, 1, 1, 1]),
      ('AllConcat', [1, 5, 0]), ('StridedSlice', [0, 0, 0, 1, 8, 64, 1, 1, 1]),
      ('Reshape', [8, 64])]),
    (((4, 4), (-1, -1), (8, 256)), ((1, 4, 4), (2, 1), (8, 256)), 16, 11,
     [('StridedSlice', [0, 128, 8, 192, 1, 1])]),
    (((2, 4, 2), (-1, 0), (8, 256)), ((2, 2, 2, 2, 1), (-1, 4), (8, 256)), 16, 2,
     [('AllConcat', [2, 3, 1]), ('StridedSlice', [0, 0, 8, 128, 1, 1])]),
    (((2, 2, 4), (-1, 0, 2), (1, 32, 16)), ((4, 4), (-1, 1, -1), (1, 32, 16)), 16, 1,
     [('AllConcat', [1, 3, 0]), ('AllConcat', [0, 1, 1]),
      ('StridedSlice', [0, 0, 0, 2, 8, 8, 1, 1, 1]), ('AllConcat', [1, 9, 2]),
      ('StridedSlice', [0, 0, 0, 1, 8, 16, 1, 1, 1])]),
    (((1, 4), (0, 1), (8, 256)), ((4,), (-1, -1), (8, 256)), 4, 0,
     [('AllConcat', [0, 1, 2, 3, 0])]),
    (((4, 2), (1,), (64,)), ((1, 4, 2), (-1,), (64,)), 8, 1,
     [('AllConcat', [1, 3, 5, 7, 0])]),
]


@pytest.mark.parametrize("src, dst, devices, rank, expected", RECORDED)
def test_operators_as_mindspore(src, dst, devices, rank, expected):
    assert _transform_tensor_by_layout(src, dst, list(range(devices)), rank) == expected


def test_operators_follow_mindspore_s_table_order():
    """Both dimensions of [2, 32] are cut by the target: MindSpore slices the first one first
    here (the order of its table's slots, not of the dimensions)."""
    ops = transform_operators(((2, 2), (-1,), (64,)), ((4,), (0,), (64,)), [0, 1, 2, 3], 2)
    assert ops == [("Reshape", [2, 32]), ("StridedSlice", [1, 0, 2, 32, 1, 1]),
                   ("StridedSlice", [0, 0, 1, 16, 1, 1]), ("Reshape", [16])]
    table = _PendingTable(enumerate([5, 6, 7, 8, 9, 10, 11]))  # grows past 6 entries
    order = []
    table.walk(lambda key: order.append(key) or key % 2 == 0)  # erasing as it goes
    assert sorted(order) == list(range(7)) and sorted(table.values()) == [6, 8, 10]


@pytest.mark.parametrize("src, dst, devices, expected", [
    # device matrices with no common refinement: through the whole tensor
    (((2, 3), (1, 0), (6, 6)), ((3, 2), (1, 0), (6, 6)), 6,
     [("AllConcat", [1, 4, 0]), ("AllConcat", [0, 1, 2, 1]), ("StridedSlice", [0, 0, 2, 6, 1, 1]),
      ("StridedSlice", [0, 3, 2, 6, 1, 1])]),
    (((2,), (0, -1), (6, 4)), ((2,), (-1, 0), (4, 6)), 2,
     [("AllConcat", [0, 1, 0]), ("Reshape", [4, 6]), ("StridedSlice", [0, 3, 4, 6, 1, 1])]),
])
def test_layouts_without_a_common_refinement_as_mindspore(src, dst, devices, expected):
    assert _transform_tensor_by_layout(src, dst, list(range(devices)), 1) == expected


def test_same_layout_needs_no_operators():
    """Also when the layouts differ only where a dimension has size 1 (MindSpore answers [] in
    a fresh process, and a pair of reshapes that undo each other once it has transformed
    another tensor: its redistributor keeps a list across calls)."""
    layout = ((2, 2), (1, -1), (8, 4))
    assert _transform_tensor_by_layout(layout, layout, [0, 1, 2, 3], 3) == []
    assert _transform_tensor_by_layout(((1, 4), (0, 1, -1), (32, 1, 64)),
                                       ((4, 1), (1, -1, -1), (32, 1, 64)), [0, 1, 2, 3], 3) == []


def test_bad_layouts_raise():
    with pytest.raises(TypeError, match="The layout should be tuple"):
        _transform_tensor_by_layout([(4,), (0,), (8,)], ((4,), (0,), (8,)), [0, 1, 2, 3], 0)
    with pytest.raises(ValueError, match="numbers of elements differ"):
        transform_operators(((4,), (0,), (8,)), ((4,), (0,), (16,)), [0, 1, 2, 3], 0)
    with pytest.raises(ValueError, match="Invalid tensor layout"):
        transform_operators(((4,), (0,), (6,)), ((4,), (0,), (6,)), [0, 1, 2, 3], 0)


def test_needed_ranks_are_those_gathered_from():
    src, dst = ((2, 2, 2), (2, 1, 0), (8, 8, 8)), ((8,), (-1, -1, 0), (8, 8, 8))
    assert _get_needed_rank_list_by_layouts(src, dst, list(range(8)), 5) == list(range(8))
    src, dst = ((4, 2), (1, -1), (8, 8)), ((4, 2), (-1, -1), (8, 8))
    assert _get_needed_rank_list_by_layouts(src, dst, list(range(8)), 3) == [1, 3, 5, 7]


def _slice(full: np.ndarray, layout, rank: int) -> np.ndarray:
    dev = list(layout[0])
    index = []
    for entry, size in zip(layout[1], full.shape):
        block, count = rank_block(rank, dev, entry)
        index.append(slice(block * size // count, (block + 1) * size // count))
    return full[tuple(index)]


def _random_layout(rng, devices: int, shape):
    factors = []
    while np.prod(factors, dtype=int) < devices:
        done = np.prod(factors, dtype=int)
        factors.append(int(rng.choice([f for f in (2, 3, 4) if devices % (done * f) == 0])))
    if rng.random() < 0.3:
        factors.insert(int(rng.integers(len(factors) + 1)), 1)
    tensor_map = []
    for size in shape:
        free = [a for a in range(len(factors)) if a not in tensor_map
                and size % factors[len(factors) - 1 - a] == 0]
        tensor_map.append(int(rng.choice([-1, *free])))
    return tuple(factors), tuple(tensor_map), tuple(shape)


@pytest.mark.parametrize("enable_redist_opt", [False, True])
@pytest.mark.parametrize("seed", range(40))
def test_every_rank_gets_its_target_slice(seed, enable_redist_opt):
    rng = np.random.default_rng(seed)
    devices = int(rng.choice([4, 8, 16, 6, 12]))
    shape = [(24, 8), (12, 4, 8), (48,), (6, 8, 1, 8), (1, 24, 4)][seed % 5]
    src, dst = _random_layout(rng, devices, shape), _random_layout(rng, devices, shape)
    full = np.arange(np.prod(shape)).reshape(shape)
    for rank in range(devices):
        slices = {r: _slice(full, src, r) for r in range(devices)}
        needed = _get_needed_rank_transform_operator_map_by_layouts(
            src, dst, list(range(devices)), rank, enable_redist_opt)
        stack = _generate_transform_operator_stack(needed, rank)
        _apply_tensor_transform_operators(stack, slices, devices)
        np.testing.assert_array_equal(slices[rank], _slice(full, dst, rank),
                                      err_msg=f"{src} -> {dst}, rank {rank}")
