"""Operator sharding on several processes (Gloo on loopback, through `cellgraph launch`): a
Megatron-style MLP (column-parallel then row-parallel Dense), a transformer block (attention
heads split across the ranks) and an embedding with its vocabulary split give one process's
outputs, loss gradients and parameters after three Momentum steps to 1e-6, while each rank
holds 1/N of every sharded weight (measured in bytes); rank 0's checkpoint holds the whole
trained weights, which load back into slices. One job on 2 processes runs every case (the
worker's `all` task); the same on 4 processes (more than the machine's cores) is marked
slow, as are the MLP and block over a device matrix (dp, mp) = (2, 2) on 4 processes, whose
checkpoints of slices (with the strategy file) load into one process and into 2."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cellgraph as ms

from .. import distributed_worker
from . import sharding_worker as worker

TOL = 1e-6


def launch_all(nproc: int, out: Path) -> Path:
    pytest.importorskip("torch.distributed")
    distributed_worker.launch("all", out, nproc=nproc, timeout=600, script=worker.__file__)
    return out


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory) -> Path:
    """The folder where the 2-process job left its results."""
    return launch_all(2, tmp_path_factory.mktemp("sharding"))


def results(out: Path, model: str, nproc: int) -> list[dict]:
    return [{**np.load(out / f"{model}_rank{r}.npz"), "__dir__": out} for r in range(nproc)]


def whole(ranks: list[dict], name: str) -> np.ndarray:
    """A parameter from the ranks' slices, each placed where it starts; ranks that hold the
    same slice (replicated along an axis of the device matrix) must hold the same values."""
    first = ranks[0][f"param/{name}"]
    shape = tuple(int(s) * int(c) for s, c in zip(first.shape, ranks[0][f"split/{name}"]))
    out, seen = np.zeros(shape, first.dtype), np.zeros(shape, bool)
    for r in ranks:
        part = r[f"param/{name}"]
        at = tuple(slice(int(s), int(s) + n) for s, n in zip(r[f"start/{name}"], part.shape))
        if seen[at].any():
            np.testing.assert_array_equal(out[at], part, err_msg=f"{name}: copies differ")
        out[at], seen[at] = part, True
    assert seen.all(), name
    return out


def check_against_one_process(model: str, ranks: list[dict]) -> None:
    expected = worker.run(model, 1)[0]
    nproc = len(ranks)
    names = [k[len("param/"):] for k in expected if k.startswith("param/")]
    for r, got in enumerate(ranks):
        for key in ["out", "loss"] + [f"grad/{n}" for n in names]:
            np.testing.assert_allclose(got[key], expected[key], rtol=0, atol=TOL,
                                       err_msg=f"rank {r}: {key}")
    sharded = 0
    for name in names:
        np.testing.assert_allclose(whole(ranks, name), expected[f"param/{name}"], rtol=0,
                                   atol=TOL, err_msg=name)
        full = int(expected[f"bytes/{name}"])
        held = [int(r[f"bytes/{name}"]) for r in ranks]
        parts = int(np.prod(ranks[0][f"split/{name}"]))
        if parts > 1:
            sharded += 1
            assert held == [full // parts] * nproc, (name, held, full)
        else:
            assert held == [full] * nproc, (name, held, full)
    assert sharded >= 3  # the MLP: both weights and the first bias
    check_checkpoints(model, ranks, expected)


def check_checkpoints(model: str, ranks: list[dict], expected: dict) -> None:
    """Rank 0's checkpoint (integrated_save) holds the whole trained parameters, as one process
    has them; loaded into a new sharded network, each rank takes its slice and computes the
    trained network's output. Without integrated_save each rank's file holds its slices."""
    path = ranks[0]["__dir__"]
    saved = ms.load_checkpoint(str(path / f"{model}_rank0.ckpt"))
    slices = ms.load_checkpoint(str(path / f"{model}_slices_rank1.ckpt"))
    for key, value in expected.items():
        if key.startswith("param/"):
            name = key[len("param/"):]
            np.testing.assert_allclose(saved[name].asnumpy(), value, rtol=0, atol=TOL,
                                       err_msg=name)
            np.testing.assert_array_equal(slices[name].asnumpy(), ranks[1][key])
    for r, got in enumerate(ranks):
        np.testing.assert_allclose(got["reloaded_out"], got["trained_out"], rtol=0, atol=TOL,
                                   err_msg=f"rank {r}")
        np.testing.assert_allclose(got["trained_out"], expected["trained_out"], rtol=0,
                                   atol=TOL, err_msg=f"rank {r}")
        held = [int(got[f"bytes/{k[len('param/'):]}"]) for k in expected if
                k.startswith("param/")]
        assert list(got["held_after_load"]) == held  # loading kept the slices


def test_megatron_mlp_on_two_processes_matches_one_process(two_processes):
    ranks = results(two_processes, "mlp", 2)
    check_against_one_process("mlp", ranks)
    splits = {k: list(v) for k, v in ranks[0].items() if k.startswith("split/")}
    assert splits == {"split/fc1.weight": [2, 1], "split/fc1.bias": [2],
                      "split/fc2.weight": [1, 2], "split/fc2.bias": [1]}
    ir = (two_processes / "mlp.ir").read_text()
    # the per-rank graph: weights as slices, one AllReduce after the row-parallel matmul
    assert "%fc1_weight: f32[8,8]" in ir and "%fc2_weight: f32[8,8]" in ir
    assert ir.count("shard_all_reduce(") == 1 and "shard_all_gather" not in ir


def test_transformer_block_on_two_processes_matches_one_process(two_processes):
    check_against_one_process("block", results(two_processes, "block", 2))
    ir = (two_processes / "block.ir").read_text()
    # each rank runs 2 of the 4 heads; the projection and the feed-forward each end in one
    # AllReduce, and nothing else moves in the forward pass
    assert "softmax(%26) {axis=3} <in_strategy=((1, 2, 1, 1),)>  : f32[4,2,3,3]" in ir
    assert ir.count("shard_all_reduce(") == 2
    assert "shard_all_gather" not in ir and "shard_all_to_all" not in ir


def test_vocabulary_split_lookup_on_two_processes_matches_one_process(two_processes):
    """nn.Embedding with its vocabulary split (each rank holds half of the table's rows and
    looks up the ids in its range), then the Megatron MLP."""
    ranks = results(two_processes, "lookup", 2)
    check_against_one_process("lookup", ranks)
    assert list(ranks[0]["split/embedding.embedding_table"]) == [2, 1]
    ir = (two_processes / "lookup.ir").read_text()
    assert "shard_rank()" in ir and ir.count("shard_all_reduce(") == 2


def test_two_ranks_slices_load_into_one_process_with_the_strategy_file(two_processes):
    """Each rank of the 2-process job saved its slices and the strategy file (MindSpore's
    protobuf); load_distributed_checkpoint puts them together in this process."""
    trained = np.load(two_processes / "mlp_rank0.npz")["trained_out"]
    net, x, _ = worker.build("mlp", 1)
    files = [str(two_processes / f"mlp_slices_rank{r}.ckpt") for r in range(2)]
    ms.load_distributed_checkpoint(net, files, train_strategy_filename=str(
        two_processes / "mlp_strategy.ckpt"))
    np.testing.assert_allclose(net(ms.Tensor(x)).asnumpy(), trained, rtol=0, atol=TOL)


def check_moves(out: Path, nproc: int) -> None:
    """Each move's kernel (eager and compiled) against its definition, and round trips
    through them, whose gradients must carry the logical tensor's cotangent back whole."""
    for r in range(nproc):
        errors = dict(np.load(out / f"moves_rank{r}.npz"))
        assert len(errors) == 16 and all(float(e) == 0 for e in errors.values()), (r, errors)


def test_each_redistribution_move_on_two_processes(two_processes):
    check_moves(two_processes, 2)


def test_auto_parallel_honours_the_strategies(two_processes):
    """AutoParallel(TrainOneStepCell, "semi_auto") over a network with strategies shards its
    operators: the same parameters as one process, each rank holding its slices."""
    expected = worker.run("mlp", 1)[0]
    ranks = [dict(np.load(two_processes / f"mlp_auto_parallel_rank{r}.npz")) for r in range(2)]
    for name in ("fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"):
        np.testing.assert_allclose(whole(ranks, name), expected[f"param/{name}"], rtol=0,
                                   atol=TOL, err_msg=name)
    half = int(expected["bytes/fc1.weight"]) // 2
    assert [int(r["bytes/fc1.weight"]) for r in ranks] == [half, half]


@pytest.mark.slow
def test_four_processes_match_one_process(tmp_path):
    out = launch_all(4, tmp_path)
    for model in worker.MODELS + worker.MODELS_2D:
        check_against_one_process(model, results(out, model, 4))
    check_moves(out, 4)


@pytest.fixture(scope="module")
def dp_by_mp(tmp_path_factory) -> Path:
    """The folder where a 4-process job over a device matrix (dp, mp) = (2, 2) left its
    results (the `_2d` models), and a 2-process job its reloads of their checkpoints."""
    pytest.importorskip("torch.distributed")
    out = tmp_path_factory.mktemp("sharding_2d")
    distributed_worker.launch("two_axes", out, nproc=4, timeout=600, script=worker.__file__)
    (out / "reloaded").mkdir()
    distributed_worker.launch("reload", out / "reloaded", nproc=2, timeout=600,
                              script=worker.__file__,
                              task_args=(",".join(worker.MODELS_2D), out, 4))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("model", ["mlp_2d", "block_2d"])
def test_data_by_model_parallel_on_four_processes_matches_one_process(dp_by_mp, model):
    """Megatron's strategies with the batch split too (MatMul ((2, 1), (2, 1)), then
    ((2, 2), (1, 2)); the attention's batch matmuls ((2, 2, 1, 1), ...)): one process's
    outputs, gradients and trained parameters; each rank holds 1/mp of each sharded weight."""
    ranks = results(dp_by_mp, model, 4)
    check_against_one_process(model, ranks)
    for name in ("fc1.weight", "fc2.weight") if model == "mlp_2d" else ("query.weight",
                                                                         "ff2.weight"):
        assert int(np.prod(ranks[0][f"split/{name}"])) == 2  # mp: copies along dp
    ir = (dp_by_mp / f"{model}.ir").read_text()
    # the row-parallel matmul's partial sums are all-reduced within the model-parallel group
    # (ranks that share their batch slice), the weights' gradients within the data-parallel
    assert "shard_all_reduce(" in ir and "group='shard_device_axis_2x2_1'" in ir
    assert "shard_mirror(%fc1_weight) {group='shard_device_axis_2x2_0', rank_size=2}" in ir \
        or model != "mlp_2d"


@pytest.mark.slow
@pytest.mark.parametrize("model", ["mlp_2d", "block_2d"])
def test_a_four_rank_checkpoint_of_slices_loads_into_one_and_two_ranks(dp_by_mp, model):
    """Each of the 4 ranks saved its slices (integrated_save=False) and the strategy file;
    load_distributed_checkpoint puts them together for one process and for a 2-process job
    sharded over one axis: both compute the 4-rank run's trained output."""
    trained = np.load(dp_by_mp / f"{model}_rank0.npz")["trained_out"]
    net, x, _ = worker.build(model.removesuffix("_2d"), 1)
    files = [str(dp_by_mp / f"{model}_slices_rank{r}.ckpt") for r in range(4)]
    ms.load_distributed_checkpoint(net, files, train_strategy_filename=str(
        dp_by_mp / f"{model}_strategy.ckpt"))
    np.testing.assert_allclose(net(ms.Tensor(x)).asnumpy(), trained, rtol=0, atol=TOL)
    for r in range(2):
        got = np.load(dp_by_mp / "reloaded" / f"{model}_reloaded_on_2_rank{r}.npz")
        np.testing.assert_allclose(got["out"], trained, rtol=0, atol=TOL, err_msg=f"rank {r}")
        full = {p.name: p.asnumpy().nbytes for p in net.trainable_params()}
        assert got[f"bytes/{'fc1' if model == 'mlp_2d' else 'ff1'}.weight"] * 2 == \
            full[f"{'fc1' if model == 'mlp_2d' else 'ff1'}.weight"]  # the 2-rank run's slices
