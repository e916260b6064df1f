"""Redistribution operators merged into fewer collectives (`enable_redist_opt`,
parallel/_tensor_transform.py) and the operator maps built on them: resharding between a
network's layouts and broadcasting across merged pipeline stages (`parallel._tensor`). Every
expected value was recorded from MindSpore 2.10."""
from __future__ import annotations

import pytest

from cellgraph.parallel import _tensor
from cellgraph.parallel._tensor import (
    _get_pipeline_operator_map,
    _get_resharding_operator_map,
    _transform_tensor_by_layout,
)
from cellgraph.parallel._tensor_transform import _goes_before, _stable_sort, optimize_operators

# (from layout, to layout, number of devices, rank, MindSpore 2.10's merged operators)
MERGED = [
    (((2, 2, 2), (2, 1, 0), (8, 8, 8)), ((8,), (-1, -1, 0), (8, 8, 8)), 8, 5,
     [('Reshape', [4, 4, 1, 2, 2]), ('AllConcat', [4, 5, 2]), ('AllConcat', [5, 7, 1]),
      ('AllConcat', [1, 5, 0]),
      ('StridedSlice', [0, 0, 1, 0, 0, 8, 8, 2, 2, 2, 1, 1, 1, 1, 1]),
      ('StridedSlice', [0, 0, 0, 0, 0, 8, 8, 1, 1, 2, 1, 1, 1, 1, 1]),
      ('StridedSlice', [0, 0, 0, 0, 1, 8, 8, 1, 1, 2, 1, 1, 1, 1, 1]), ('Reshape', [8, 8, 1])]),
    (((4, 2), (1, -1), (8, 8)), ((2, 4), (-1, 0), (8, 8)), 8, 3,
     [('Reshape', [2, 2, 4]), ('AllConcat', [1, 3, 0]), ('Reshape', [1, 4, 2, 4]),
      ('AllConcat', [3, 7, 0]), ('StridedSlice', [0, 0, 1, 0, 2, 4, 2, 4, 1, 1, 1, 1]),
      ('StridedSlice', [0, 0, 0, 2, 2, 4, 1, 4, 1, 1, 1, 1]), ('Reshape', [8, 2])]),
    (((2, 4), (0, 1, -1), (4, 8, 4)), ((8,), (-1, 0, -1), (4, 8, 4)), 8, 6,
     [('Reshape', [1, 1, 4, 4]), ('AllConcat', [4, 5, 6, 7, 0]),
      ('StridedSlice', [0, 0, 2, 0, 4, 1, 3, 4, 1, 1, 1, 1]), ('Reshape', [4, 1, 4])]),
    (((2, 2), (-1, 1), (16, 16)), ((4,), (0, -1), (16, 16)), 4, 1,
     [('Reshape', [2, 8, 8]), ('AllConcat', [1, 3, 2]), ('Reshape', [16, 16]),
      ('StridedSlice', [4, 0, 8, 16, 1, 1])]),
    # two gathers along axis 0 whose groups nest become one
    (((4, 2), (1, -1), (8, 8)), ((2, 2, 2), (1, -1), (8, 8)), 8, 0,
     [('AllConcat', [0, 2, 0]), ('Reshape', [1, 4, 8]), ('AllConcat', [0, 4, 0]),
      ('Reshape', [8, 8]), ('StridedSlice', [0, 0, 4, 8, 1, 1])]),
]


@pytest.mark.parametrize("src, dst, devices, rank, expected", MERGED)
def test_merged_operators_as_mindspore(src, dst, devices, rank, expected):
    assert _transform_tensor_by_layout(src, dst, list(range(devices)), rank,
                                       enable_redist_opt=True) == expected


def test_a_single_operator_or_a_strided_slice_with_strides_is_left_alone():
    assert optimize_operators([("AllConcat", [0, 1, 1])], [2, 4]) == [("AllConcat", [0, 1, 1])]
    ops = [("StridedSlice", [0, 0, 4, 4, 2, 1]), ("Reshape", [8])]
    assert optimize_operators(ops, [8, 4]) == ops


def test_sort_keeps_libstdcxx_order_around_reshapes():
    """Reshapes compare equal to everything, so where they end up is the merge's doing, as
    libstdc++'s std::stable_sort merges: halves [R, S] and [A, R] forward; of an odd count,
    [R, S] and [A] backward from the ends."""
    reshape_2, slice_0, gather_1 = ("Reshape", [2]), ("Slice", [0, 2, 0]), ("AllConcat", [0, 1, 1])
    ops = [reshape_2, slice_0, gather_1, ("Reshape", [4])]
    assert _stable_sort(ops, _goes_before) == [reshape_2, gather_1, slice_0, ("Reshape", [4])]
    assert _stable_sort(ops[:3], _goes_before) == [reshape_2, gather_1, slice_0]
    ops = [slice_0, ("Slice", [1, 2, 0]), gather_1, ("AllConcat", [0, 1, 0]), slice_0]
    assert _stable_sort(ops, _goes_before) == [gather_1, ("AllConcat", [0, 1, 0]), slice_0,
                                               slice_0, ("Slice", [1, 2, 0])]


@pytest.fixture(autouse=True)
def _fresh_maps(monkeypatch):
    monkeypatch.setattr(_tensor, "_RESHARD_OPERATOR_MAPS", {})
    monkeypatch.setattr(_tensor, "_PIPELINE_OPERATOR_MAPS", {})


def test_resharding_map_expands_layouts_cut_along_several_axes():
    ranks = list(range(8))
    got = _get_resharding_operator_map(([4, 2], [1, -1], [8, 4], ranks),
                                       ([2, 2, 2], [[2, 1], -1], [8, 4], ranks), 1)
    assert got == {1: [('Reshape', [1, 2, 4]), ('Reshape', [2, 4])]}
    got = _get_resharding_operator_map(([2, 2, 2], [[1, 0], -1], [16, 8], ranks),
                                       ([8], [-1, 0], [16, 8], ranks), 3)
    assert sorted(got) == [0, 1, 2, 3]
    assert got[3] == [
        ('Reshape', [1, 4, 8]), ('Reshape', [4, 2, 2, 2]), ('AllConcat', [2, 3, 0]),
        ('Reshape', [1, 8, 2, 2, 2]), ('AllConcat', [1, 3, 0]),
        ('StridedSlice', [0, 0, 0, 0, 0, 2, 8, 1, 2, 2, 1, 1, 1, 1, 1]),
        ('StridedSlice', [0, 0, 0, 1, 0, 2, 8, 1, 2, 2, 1, 1, 1, 1, 1]),
        ('StridedSlice', [0, 0, 0, 0, 1, 2, 8, 1, 1, 2, 1, 1, 1, 1, 1]), ('Reshape', [16, 1])]


def test_resharding_map_is_kept_for_the_ranks_it_names():
    ranks = list(range(8))
    src, dst = ([4, 2], [1, -1], [8, 8], ranks), ([2, 2, 2], [1, -1], [8, 8], ranks)
    first = _get_resharding_operator_map(src, dst, 0)
    assert sorted(first) == [0, 2, 4, 6]
    assert _get_resharding_operator_map(src, dst, 2) == first
    other = _get_resharding_operator_map(src, dst, 1)
    assert sorted(other) == [1, 3, 5, 7]
    assert other[1] == [('AllConcat', [1, 3, 0]), ('Reshape', [1, 4, 8]),
                        ('AllConcat', [1, 5, 0]), ('Reshape', [8, 8]),
                        ('StridedSlice', [0, 0, 4, 8, 1, 1])]


def test_pipeline_map_broadcasts_to_the_merged_stages():
    assert _get_pipeline_operator_map(([2, 2], [1, 0], [8, 8], [0, 1, 2, 3]),
                                      ([2, 4], [1, 0], [8, 8], list(range(8))), 1) == \
        {1: [('Broadcast', 1, [1, 5])], 5: [('Broadcast', 1, [1, 5])]}
    src, dst = ([2], [0], [8], [0, 1]), ([2, 4], [1, -1], [8], list(range(8)))
    expected = {r: [('Broadcast', 1, [1, 3, 5, 7])] for r in (1, 3, 5, 7)}
    assert _get_pipeline_operator_map(src, dst, 3) == expected
    # rank 5 is named by the answer kept for rank 3
    assert _get_pipeline_operator_map(src, dst, 5) == expected


def test_pipeline_map_is_empty_without_more_target_ranks():
    assert _get_pipeline_operator_map(([2], [0], [8], [4, 5]), ([2], [0], [8], [4, 5]), 4) == {}
    assert _get_pipeline_operator_map(([4], [0], [8], [0, 1, 2, 3]),
                                      ([2], [0], [8], [0, 1]), 0) == {}
