"""Data-parallel training on 2 processes (Gloo on loopback) gives the parameters one process
gets on the concatenated global batch: TrainOneStepCell in DATA_PARALLEL mode on an MLP and a
CNN, the value_and_grad + DistributedGradReducer loop, and Model.train over a dataset sharded by
rank (num_shards/shard_id); set_seed gives every rank the same
initial parameters; only rank 0 writes a checkpoint, which every rank can then read."""
from __future__ import annotations

import numpy as np
import pytest

from . import distributed_worker as worker

pytest.importorskip("torch.distributed")


@pytest.fixture(scope="module")
def ranks(tmp_path_factory):
    out = tmp_path_factory.mktemp("data_parallel")
    worker.launch("train", out)
    return [dict(np.load(out / f"train_rank{r}.npz")) for r in range(2)], out


@pytest.mark.parametrize("kind", ["mlp", "cnn"])
def test_train_one_step_matches_one_process(ranks, kind):
    results, _ = ranks
    first, last = worker.train_one_step(kind)  # one process, the whole global batch
    for name, expected in last.items():
        assert np.max(np.abs(expected - first[name])) > 1e-2, "the parameters must move"
        for r, arrays in enumerate(results):
            np.testing.assert_allclose(arrays[f"{kind}/last/{name}"], expected, rtol=0,
                                       atol=1e-6, err_msg=f"rank {r} {kind} {name}")


def test_value_and_grad_loop_with_reducer_matches_one_process(ranks):
    results, _ = ranks
    _, last = worker.train_one_step("mlp")
    for name, expected in last.items():
        for r, arrays in enumerate(results):
            np.testing.assert_allclose(arrays[f"loop/last/{name}"], expected, rtol=0, atol=1e-6,
                                       err_msg=f"rank {r} {name}")


def test_model_train_over_a_sharded_dataset_matches_one_process(ranks):
    results, _ = ranks
    expected = worker.train_model()  # one process, the whole dataset in global batches
    _, last = worker.train_one_step("mlp")
    for name, value in expected.items():
        np.testing.assert_allclose(value, last[name], rtol=0, atol=1e-6)  # same training
        for r, arrays in enumerate(results):
            np.testing.assert_allclose(arrays[f"model/last/{name}"], value, rtol=0, atol=1e-6,
                                       err_msg=f"rank {r} {name}")


def test_set_seed_gives_every_rank_the_same_initial_parameters(ranks):
    results, _ = ranks
    for key in results[0]:
        if "/first/" in key:
            np.testing.assert_array_equal(results[0][key], results[1][key], err_msg=key)


def test_only_rank_zero_writes_checkpoints(ranks):
    results, out = ranks
    assert (out / "ckpt_rank0.ckpt").exists()
    assert not (out / "ckpt_rank1.ckpt").exists()
    for key in results[0]:
        if key.startswith("ckpt/"):  # rank 1 read rank 0's file
            np.testing.assert_array_equal(results[0][key], results[1][key], err_msg=key)


@pytest.mark.parametrize("kind", ["mlp", "cnn"])
def test_overlapped_all_reduces_give_the_synchronous_numbers(ranks, kind):
    """A bucket per parameter, each all-reduce started while backward still runs, against the
    same buckets all-reduced after backward (CELLGRAPH_COMM_OVERLAP=0) and one process."""
    results, _ = ranks
    _, last = worker.train_one_step(kind)
    for name, expected in last.items():
        for r, arrays in enumerate(results):
            overlap, sync = arrays[f"overlap/{kind}/{name}"], arrays[f"sync/{kind}/{name}"]
            np.testing.assert_array_equal(overlap, sync, err_msg=f"rank {r} {kind} {name}")
            np.testing.assert_allclose(overlap, expected, rtol=0, atol=1e-6,
                                       err_msg=f"rank {r} {kind} {name}")
