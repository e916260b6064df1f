"""parallel.AutoParallel: "semi_auto" with no strategies is data parallelism. On 2 processes
(Gloo on loopback) a wrapped TrainOneStepCell, and Model over a wrapped network, reach the
parameters one process reaches on the whole global batch; on one process the wrapper runs the
network as it is; what cellgraph does not run (strategy search, pipeline stages, optimizer
sharding) raises UnsupportedError. AutoParallel over sharded operators is in test_sharding.py."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.parallel import AutoParallel, shard
from cellgraph.primitives.errors import UnsupportedError

from .. import distributed_worker as worker


def test_two_processes_match_one_process_on_the_global_batch(tmp_path):
    pytest.importorskip("torch.distributed")
    worker.launch("auto_parallel", tmp_path)
    _, expected = worker.train_one_step("mlp")
    for r in range(2):
        arrays = dict(np.load(tmp_path / f"auto_parallel_rank{r}.npz"))
        for name, value in expected.items():
            for kind in ("auto_step", "auto_model"):
                np.testing.assert_allclose(arrays[f"{kind}/last/{name}"], value, rtol=0,
                                           atol=1e-6, err_msg=f"rank {r} {kind} {name}")


def test_one_process_runs_the_network_unchanged():
    ms.set_seed(3)
    net = nn.Dense(4, 2)
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    wrapped = AutoParallel(net, parallel_mode="semi_auto")
    expected = x @ net.weight.asnumpy().T + net.bias.asnumpy()
    np.testing.assert_allclose(wrapped(Tensor(x)).asnumpy(), expected, rtol=1e-6)
    double = AutoParallel(lambda t: t * 2)
    np.testing.assert_allclose(double(Tensor(x)).asnumpy(), 2 * x)


def test_one_process_training_matches_the_bare_training_cell():
    results = []
    for wrap in (lambda cell: cell, AutoParallel):
        ms.set_seed(1)
        net = worker.mlp()
        step = wrap(nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                        nn.Momentum(net.trainable_params(), 0.1, 0.9)))
        for x, y in worker.batches("mlp"):
            step(Tensor(x), Tensor(y))
        results.append(worker.params_of(net))
    for name, value in results[0].items():
        np.testing.assert_allclose(results[1][name], value, rtol=0, atol=1e-7)


@pytest.mark.parametrize("mode", ["sharding_propagation", "recursive_programming"])
def test_strategy_search_modes_are_unsupported(mode):
    with pytest.raises(UnsupportedError, match=mode):
        AutoParallel(nn.Dense(2, 2), parallel_mode=mode)


def test_bad_mode_and_sharding_features_raise(monkeypatch):
    with pytest.raises(ValueError, match="parallel_mode"):
        AutoParallel(nn.Dense(2, 2), parallel_mode="data_parallel")
    wrapped = AutoParallel(nn.Dense(2, 2))
    wrapped.dataset_strategy("data_parallel")
    wrapped.pipeline(stages=1)
    wrapped.dataset_strategy("full_batch")  # what operator sharding runs on
    with pytest.raises(UnsupportedError, match="splits the inputs by a strategy"):
        wrapped.dataset_strategy(((2, 1),))
    for call in (lambda: wrapped.pipeline(stages=2), wrapped.hsdp):
        with pytest.raises(UnsupportedError, match="data parallelism"):
            call()
    # in a job of one process MindSpore 2.10's shard gives `fn` back; across processes
    # cellgraph shards operators only
    dense = nn.Dense(2, 2)
    assert shard(dense, ((2, 1),)) is dense
    assert shard(ops.relu, in_strategy=((4, 1),)) is ops.relu
    monkeypatch.setenv("RANK_SIZE", "2")
    with pytest.raises(UnsupportedError, match="shards operators"):
        shard(dense, ((2, 1),))
    wrapped(Tensor(np.ones((1, 2), np.float32)))
    with pytest.raises(ValueError, match="first call"):
        wrapped.enable_gradients_mean()


def test_comm_fusion_and_gradient_fp32_sync_reach_the_context_at_the_first_run():
    from cellgraph.auto_parallel import get_auto_parallel_context, reset_auto_parallel_context

    try:
        wrapped = AutoParallel(nn.Dense(2, 2))
        wrapped.comm_fusion({"allreduce": {"mode": "size", "config": 32}})
        wrapped.disable_gradient_fp32_sync()
        assert get_auto_parallel_context("gradient_fp32_sync") is True
        wrapped(Tensor(np.ones((1, 2), np.float32)))
        assert get_auto_parallel_context("comm_fusion")["allreduce"] == {"mode": "size",
                                                                         "config": 32}
        assert get_auto_parallel_context("gradient_fp32_sync") is False
        assert wrapped.get_pipeline_stages() == 1
        with pytest.raises(TypeError, match="must be <class 'dict'>, but got <class 'list'>"):
            AutoParallel(nn.Dense(2, 2)).comm_fusion([1])
    finally:
        reset_auto_parallel_context()
