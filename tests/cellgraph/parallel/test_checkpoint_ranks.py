"""Which ranks' checkpoint slices a parameter is read from: `parallel._utils._infer_rank_list`
(prediction after training) and `parallel._parallel_serialization.
_get_param_list_when_first_dim_sharded` (optimizer sharding). Expected values recorded from
MindSpore 2.10."""
from __future__ import annotations

import pytest

from cellgraph import context
from cellgraph.parallel._parallel_serialization import _get_param_list_when_first_dim_sharded
from cellgraph.parallel._utils import (
    _check_similar_layout,
    _infer_rank_list,
    _remove_repeated_slices,
)


@pytest.fixture(autouse=True)
def _reset_context():
    yield
    context.reset_auto_parallel_context()


@pytest.mark.parametrize("dev, index, rank, expected", [
    ([2, 2], 1, 0, [0, 1]),
    ([2, 2], 1, 3, [2, 3]),
    ([2, 2, 2], 2, 0, [0, 1, 2, 3]),
    ([2, 2, 2], 0, 5, list(range(8))),
    ([64, 8], 1, 19, list(range(16, 24))),
    ([4, 2], 1, 7, [6, 7]),
])
def test_param_list_when_first_dim_sharded(dev, index, rank, expected):
    assert _get_param_list_when_first_dim_sharded(dev, index, rank) == expected


def test_remove_repeated_slices_keeps_only_used_axes():
    assert _remove_repeated_slices([[4, 8], [-1, 0]])[0] == [1, 8]
    assert _remove_repeated_slices([[2, 4, 8], [2, -1]]) == [[2, 1, 1], [2, -1]]
    assert _check_similar_layout([[4, 8], [-1, 0]], [[8], [-1, 0]])
    assert not _check_similar_layout([[4, 8], [-1, 0]], [[4], [-1, 0]])


@pytest.mark.parametrize("train, predict, expected", [
    ([[4, 8], [-1, 0]], None, ([0, 1, 2, 3, 4, 5, 6, 7], False)),
    ([[4, 8], [1, -1]], None, ([0, 8, 16, 24], False)),
    ([[4, 8], [-1, 0]], [[8], [-1, 0]], ([0], True)),          # cut alike
    ([[4, 8], [-1, 0]], [[4, 8], [-1, 0]], ([0], True)),       # the same layout
    ([[4, 8], [-1, 0]], [[2, 2], [1, 0]], ([0, 1, 2, 3, 4, 5, 6, 7], False)),
    ([[8], [-1, -1]], [[2, 2], [1, 0]], ([0], False)),         # one whole copy
    ([[8], [-1, -1]], [[4], [-1, -1]], ([0], True)),
    ([[4, 8], [-1, 0]], [[2, 8], [-1, 0]], ([0, 1, 2, 3, 4, 5, 6, 7], False)),
])
def test_infer_rank_list(train, predict, expected):
    names = {"weight": predict} if predict else None
    ranks, as_is = _infer_rank_list({"weight": train}, names)["weight"]
    assert [int(r) for r in ranks] == expected[0]
    assert as_is is expected[1]


def test_infer_rank_list_reads_this_ranks_slice():
    context.set_auto_parallel_context(device_num=8, global_rank=5)
    # stand-alone: the process is rank 0, whatever global_rank says
    assert _infer_rank_list({"w": [[4, 8], [-1, 0]]}, {"w": [[8], [-1, 0]]})["w"] == ([0], True)
    context.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
    out = _infer_rank_list({"w": [[4, 8], [-1, 0]]}, {"w": [[8], [-1, 0]]})
    assert [int(r) for r in out["w"][0]] == [5] and out["w"][1] is True
    assert _infer_rank_list({"w": [[4, 8], [-1, 0]]}, {"w": [[4, 8], [-1, 0]]})["w"] == ([5], True)


def test_infer_rank_list_skips_names_prediction_lacks():
    assert _infer_rank_list({"w": [[4, 8], [-1, 0]]}, {"other": [[8], [-1, 0]]}) == {}
