"""The strategy file of a sharded run and load_distributed_checkpoint with it, in one process:
the protobuf bytes are MindSpore's (MindSpore 2.10 parses them and serializes the message it
read to the same bytes, recorded below), JSON for a .json name, and the ranks' slices are put
back together as the tensor map says (rank (i0, i1) of a device matrix (2, 2) holds block i1
of a dimension mapped to 0, MindSpore's merge_sliced_parameter gives the same)."""
from __future__ import annotations

import json

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import nn
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.train import strategy_file
from cellgraph.train.serialization import CheckpointError

# w [4, 2] split along dimension 0 over axis 1 of a device matrix (2, 2); b [2] whole
LAYOUTS = {"w": ((None, 0), (2, 2), (4, 2), True), "b": ((None, None), (2, 2), (2,), True),
           "moments.w": ((None, 0), (2, 2), (4, 2), False)}
MINDSPORE_BYTES = (
    "08001a240a0177121f0a0408020802120d080008ffffffffffffffffff011a0022002800300038001a220a01"
    "62121d0a0408020802120b08ffffffffffffffffff011a002200280030003800")


def test_the_protobuf_file_is_mindspores(tmp_path):
    path = tmp_path / "strategy.ckpt"
    strategy_file.save(str(path), LAYOUTS)  # only_trainable_params: moments.w left out
    assert path.read_bytes().hex() == MINDSPORE_BYTES
    items = strategy_file.load(str(path))
    assert items["w"]["dev_matrix"] == [2, 2] and items["w"]["tensor_map"] == [0, -1]
    assert items["b"]["tensor_map"] == [-1] and set(items) == {"w", "b"}


def test_the_json_file_and_all_parameters(tmp_path):
    path = tmp_path / "strategy.json"
    strategy_file.save(str(path), LAYOUTS, only_trainable=False)
    content = json.loads(path.read_text())
    assert content["parallel_layout_item"]["moments.w"]["tensor_map"] == [0, -1]
    assert strategy_file.load(str(path)) == content["parallel_layout_item"]
    (tmp_path / "bad.ckpt").write_bytes(b"\xff\xff")
    with pytest.raises(TypeError, match="should be one of json or protobuf"):
        strategy_file.load(str(tmp_path / "bad.ckpt"))


def test_a_dimension_split_along_both_axes_is_written_over_their_product():
    items = strategy_file.layout_items({"e": ((0, 0), (2, 2), (8, 3), True)})
    assert items["e"]["dev_matrix"] == [4] and items["e"]["tensor_map"] == [0, -1]


def rank_slices(whole: np.ndarray, item: dict, ranks: int) -> list:
    parts = []
    for rank in range(ranks):
        at = []
        for entry, size in zip(item["tensor_map"], whole.shape):
            block, count = strategy_file.rank_block(rank, item["dev_matrix"], entry)
            at.append(slice(block * size // count, (block + 1) * size // count))
        parts.append(whole[tuple(at)])
    return parts


@pytest.mark.parametrize("dev_matrix, tensor_map", [
    ([2, 2], [0, -1]), ([2, 2], [1, 0]), ([2, 2], [-1, 1]), ([4], [-1, 0]),
])
def test_merging_slices_inverts_taking_them(dev_matrix, tensor_map):
    whole = np.arange(32, dtype=np.float32).reshape(8, 4)
    item = {"dev_matrix": dev_matrix, "tensor_map": tensor_map}
    parts = rank_slices(whole, item, 4)
    np.testing.assert_array_equal(strategy_file.merge_slices("x", parts, item), whole)
    if len(dev_matrix) > len([t for t in tensor_map if t >= 0]):  # some ranks hold copies
        parts[-1] = parts[-1] + 1  # a copy another rank holds too, which differs
        with pytest.raises(ArgumentValueError, match="differs between ranks"):
            strategy_file.merge_slices("x", parts, item)
    with pytest.raises(ArgumentValueError, match="got 3 checkpoints"):
        strategy_file.merge_slices("x", parts[:3], item)


def test_load_distributed_checkpoint_puts_slices_together(tmp_path):
    """Four ranks' checkpoints of a Dense's slices (its weight split along its output
    features over the model-parallel axis, its bias whole) and the strategy file load into
    one process's Dense."""
    ms.set_seed(1)
    net = nn.Dense(2, 4)
    layouts = {"weight": ((None, 0), (2, 2), (4, 2), True),
               "bias": ((None, None), (2, 2), (4,), True)}
    strategy = tmp_path / "strategy.ckpt"
    strategy_file.save(str(strategy), layouts)
    items = strategy_file.load(str(strategy))
    files = []
    for rank in range(4):
        params = [{"name": name, "data": ms.Tensor(rank_slices(p.asnumpy(), items[name],
                                                               4)[rank])}
                  for name, p in (("weight", net.weight), ("bias", net.bias))]
        files.append(str(tmp_path / f"rank{rank}.ckpt"))
        ms.save_checkpoint(params, files[-1])
    target = nn.Dense(2, 4)
    merged = ms.load_distributed_checkpoint(target, files, train_strategy_filename=str(strategy),
                                            return_param_dict=True)
    np.testing.assert_array_equal(target.weight.asnumpy(), net.weight.asnumpy())
    np.testing.assert_array_equal(merged["bias"].asnumpy(), net.bias.asnumpy())
    with pytest.raises(CheckpointError, match="'weight' differs between rank 0 and rank 1"):
        ms.load_distributed_checkpoint(target, files)  # no strategy: slices do not agree
    with pytest.raises(DTypeError, match="train_strategy_filename"):
        ms.load_distributed_checkpoint(target, files, train_strategy_filename=1)


def test_the_strategy_file_settings():
    ms.set_auto_parallel_context(strategy_ckpt_save_file="a.ckpt")
    try:
        assert ms.get_auto_parallel_context("strategy_ckpt_config")["save_file"] == "a.ckpt"
        ms.set_auto_parallel_context(strategy_ckpt_config={"save_file": "b.json",
                                                           "only_trainable_params": False})
        assert ms.get_auto_parallel_context("strategy_ckpt_save_file") == "b.json"
        with pytest.raises(ArgumentValueError, match="Unknown config"):
            ms.set_auto_parallel_context(strategy_ckpt_config={"file": "c"})
        with pytest.raises(DTypeError, match="'only_trainable_params' must be bool"):
            ms.set_auto_parallel_context(strategy_ckpt_config={"only_trainable_params": 1})
        with pytest.raises(ArgumentValueError, match="load_file"):
            ms.set_auto_parallel_context(strategy_ckpt_config={"load_file": "s.ckpt"})
    finally:
        ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("strategy_ckpt_save_file") == ""
