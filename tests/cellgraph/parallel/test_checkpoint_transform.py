"""The job's strategy and group information files read back (`build_searched_strategy`,
`restore_group_info_list`), and the names MindSpore exports them under."""
import json

import pytest

import cellgraph as ms
from cellgraph._protowire import key, varint
from cellgraph.parallel import build_searched_strategy, restore_group_info_list


def _message(number: int, body: bytes) -> bytes:
    return key(number, 2) + varint(len(body)) + body


def _ranks(values) -> bytes:
    return b"".join(key(1, 0) + varint(v) for v in values)


def _group_file(tmp_path, restore=None) -> str:
    """A ParallelGroupMap: one group item, and the restore rank list when given."""
    body = _message(1, _message(1, b"group_0") + _message(2, _ranks([0, 4])))
    if restore is not None:
        body += _message(2, _ranks(restore))
    path = tmp_path / "group_info.pb"
    path.write_bytes(body)
    return str(path)


def test_restore_group_info_list_reads_the_restore_ranks(tmp_path):
    assert restore_group_info_list(_group_file(tmp_path, [0, 4, 2])) == [0, 4, 2]


def test_restore_group_info_list_without_restore_ranks_is_empty(tmp_path):
    assert restore_group_info_list(_group_file(tmp_path)) == []
    assert restore_group_info_list(_group_file(tmp_path, [])) == []


def test_restore_group_info_list_checks_its_file(tmp_path):
    with pytest.raises(TypeError, match="'group_info_file_name' should be str"):
        restore_group_info_list(3)
    with pytest.raises(ValueError, match="no such group information file"):
        restore_group_info_list(str(tmp_path / "absent.pb"))
    empty = tmp_path / "empty.pb"
    empty.write_bytes(b"")
    with pytest.raises(ValueError, match="should not be empty"):
        restore_group_info_list(str(empty))
    bad = tmp_path / "bad.pb"
    bad.write_bytes(b"\xff\xff\xff")
    with pytest.raises(ValueError, match="not a group information message"):
        restore_group_info_list(str(bad))


def _strategy_item() -> dict:
    return {"dev_matrix": [2, 4], "tensor_map": [1, -1], "param_split_shape": [],
            "indices_offset": [], "field": 0, "opt_weight_shard_step": 0,
            "opt_weight_shard_size": 0}


@pytest.mark.parametrize("suffix", [".json", ".ckpt"])
def test_build_searched_strategy_reads_each_layout(tmp_path, suffix):
    from cellgraph.train import strategy_file

    path = tmp_path / f"strategy{suffix}"
    if suffix == ".json":
        path.write_text(json.dumps({"current_stage": 0,
                                    "parallel_layout_item": {"fc.weight": _strategy_item()}}))
    else:
        path.write_bytes(strategy_file._encode_map({"fc.weight": _strategy_item()}))
    found = build_searched_strategy(str(path))
    assert list(found) == ["fc.weight"]
    layout = found["fc.weight"]
    assert [d.dim for d in layout.dev_matrix] == [[2, 4]]
    assert [d.dim for d in layout.tensor_map] == [[1, -1]]
    assert [d.dim for d in layout.param_split_shape] == [[]]
    assert (layout.field, layout.opt_weight_shard_step, layout.opt_weight_shard_size) == (0, 0, 0)


def test_build_searched_strategy_of_no_layouts_and_none(tmp_path):
    path = tmp_path / "strategy.json"
    path.write_text(json.dumps({"current_stage": 0}))
    assert build_searched_strategy(str(path)) == {}
    assert build_searched_strategy(None) is None


def test_build_searched_strategy_checks_its_file(tmp_path):
    with pytest.raises(TypeError, match="'strategy_filename' should be string"):
        build_searched_strategy(5)
    with pytest.raises(ValueError, match="no such strategy file"):
        build_searched_strategy(str(tmp_path / "absent.ckpt"))
    empty = tmp_path / "empty.ckpt"
    empty.write_bytes(b"")
    with pytest.raises(ValueError, match="should not be empty"):
        build_searched_strategy(str(empty))
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(b"\xff\xff\xff")
    with pytest.raises(TypeError, match="should be one of json or protobuf"):
        build_searched_strategy(str(bad))


def test_the_names_are_exported_where_mindspore_exports_them():
    from cellgraph.parallel import load_distributed_checkpoint, merge_sliced_parameter
    from cellgraph.train import serialization

    for module in (ms.train, serialization):
        assert module.build_searched_strategy is build_searched_strategy
        assert module.restore_group_info_list is restore_group_info_list
        assert module.load_distributed_checkpoint is load_distributed_checkpoint
        assert module.merge_sliced_parameter is merge_sliced_parameter
