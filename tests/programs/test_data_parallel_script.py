"""A data-parallel training script as the distributed tutorial writes it, run as a single
process (a world of one, as `python train.py` without a launcher gives): init(), get_rank()
and get_group_size(), set_auto_parallel_context(parallel_mode=DATA_PARALLEL,
gradients_mean=True), a dataset sharded by num_shards/shard_id, the 2.x loop with
nn.DistributedGradReducer, and Model.train; the results equal plain single-device training."""
import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import nn
from cellgraph.communication import get_group_size, get_rank, init

pytest.importorskip("torch.distributed")


def create_dataset(batch_size, rank_id, rank_size):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(32, 4)).astype(np.float32)
    y = (x @ np.array([[1.0], [-1.0], [2.0], [0.0]])).astype(np.float32)
    data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False, num_shards=rank_size,
                                 shard_id=rank_id)
    return data.batch(batch_size)


def train_loop(parallel):
    ms.set_seed(1)
    net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 1))
    loss_fn = nn.MSELoss()
    opt = nn.SGD(net.trainable_params(), 0.05)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)
    reducer = nn.DistributedGradReducer(opt.parameters, mean=True) if parallel else None

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        if reducer is not None:
            grads = reducer(grads)
        opt(grads)
        return loss

    rank_id, rank_size = (get_rank(), get_group_size()) if parallel else (0, 1)
    losses = []
    for _ in range(3):
        for x, y in create_dataset(8, rank_id, rank_size).create_tuple_iterator():
            losses.append(float(step(x, y).asnumpy()))
    return losses, [p.asnumpy().copy() for p in net.trainable_params()]


def test_single_process_data_parallel_script_matches_plain_training():
    init()
    assert get_rank() == 0 and get_group_size() == 1
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True)
    try:
        assert ms.get_auto_parallel_context("parallel_mode") == ms.ParallelMode.DATA_PARALLEL
        parallel_losses, parallel_params = train_loop(parallel=True)

        ms.set_seed(1)
        net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 1))
        model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.05))
        model.train(3, create_dataset(8, get_rank(), get_group_size()),
                    dataset_sink_mode=False)
        model_params = [p.asnumpy() for p in net.trainable_params()]
    finally:
        ms.reset_auto_parallel_context()
    plain_losses, plain_params = train_loop(parallel=False)
    np.testing.assert_allclose(parallel_losses, plain_losses, rtol=1e-6)
    assert parallel_losses[-1] < parallel_losses[0]
    for a, b, c in zip(parallel_params, plain_params, model_params):
        np.testing.assert_allclose(a, b, rtol=1e-6)
        np.testing.assert_allclose(c, b, rtol=1e-5, atol=1e-6)
