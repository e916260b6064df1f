"""A worker of W11 (started by `cellgraph launch`): `python data_parallel_worker.py KIND BATCH
STEPS REPEATS [BUCKET_MB]`, KIND one of

* `step`: the W2 MLP's SGD training step (TrainOneStepCell) on BATCH examples per process,
  all-reducing gradients when there is more than one process, in buckets of BUCKET_MB
  (comm_fusion; 25 MB, one bucket for this MLP, when not given). Whether the all-reduces
  overlap the backward pass follows CELLGRAPH_COMM_OVERLAP, which the launcher passes on;
* `allreduce`: an all-reduce of a float32 buffer of BATCH MB, through cellgraph's AllReduce
  and, for comparison, torch.distributed's in-place all_reduce on the same bytes.

Before timing, `step` checks one data-parallel step against NumPy's SGD step on the global batch.
Rank 0 prints one JSON line: the median seconds per call over REPEATS batches of STEPS calls,
the ranks entering each batch together.
"""
from __future__ import annotations

import json
import statistics
import sys
import time

import numpy as np

import cellgraph as ms
from bench.w2_mlp_grad import SIZES, data, make_net, numpy_grad
from cellgraph import Tensor, nn, ops
from cellgraph.communication import get_group_size, get_rank, init

LR = 0.01


def timed(fn, steps: int, repeats: int) -> float:
    barrier = ops.Barrier()
    samples = []
    for _ in range(repeats):
        barrier()
        start = time.perf_counter()
        for _ in range(steps):
            fn()
        samples.append((time.perf_counter() - start) / steps)
    return statistics.median(samples)


def training_step(batch: int, rank: int, size: int, bucket_mb: float | None = None):
    """A step callable over this rank's shard of a global batch of batch * size examples."""
    ms.set_context(mode=ms.GRAPH_MODE)  # the step compiled, as the single-process W2 runs it
    _, _, weights = data()
    rng = np.random.default_rng(1)
    x = rng.standard_normal((batch * size, SIZES[0])).astype(np.float32)
    onehot = np.eye(SIZES[-1], dtype=np.float32)[rng.integers(0, SIZES[-1], batch * size)]
    if size > 1:
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                     gradients_mean=True)
        if bucket_mb:
            ms.set_auto_parallel_context(
                comm_fusion={"allreduce": {"mode": "size", "config": bucket_mb}})
    net = make_net(weights)
    step = nn.TrainOneStepCell(net, nn.SGD(net.trainable_params(), LR))
    shard = slice(rank * batch, (rank + 1) * batch)
    args = (Tensor(x[shard]), Tensor(onehot[shard]))
    step(*args)
    expected = [w - LR * g for w, g in zip(weights, numpy_grad(x, onehot, *weights))]
    for p, want in zip(net.trainable_params(), expected):
        np.testing.assert_allclose(p.asnumpy(), want, rtol=1e-4, atol=1e-6)
    return lambda: step(*args)


def allreduce_calls(megabytes: float):
    """(cellgraph AllReduce, torch.distributed.all_reduce) on the same float32 buffer."""
    import torch
    import torch.distributed as dist

    n = int(megabytes * 2**20 / 4)
    buffer = np.full(n, get_rank() + 1.0, np.float32)
    all_reduce = ops.AllReduce()

    @ms.jit
    def reduce(t):
        return all_reduce(t)

    tensor = Tensor(buffer)  # made once: Tensor() copies its array
    out = reduce(tensor).asnumpy()
    np.testing.assert_array_equal(out[:3], np.full(3, sum(range(1, get_group_size() + 1))))
    raw = torch.from_numpy(buffer.copy())
    return (lambda: reduce(tensor)), (lambda: dist.all_reduce(raw))


def main() -> None:
    kind, batch, steps, repeats = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), \
        int(sys.argv[4])
    init()
    rank, size = get_rank(), get_group_size()
    if kind == "step":
        bucket_mb = float(sys.argv[5]) if len(sys.argv) > 5 else None
        result = {"step_s": timed(training_step(int(batch), rank, size, bucket_mb), steps,
                                  repeats)}
    else:
        ours, theirs = allreduce_calls(batch)
        result = {"cellgraph_s": timed(ours, steps, repeats),
                  "torch_s": timed(theirs, steps, repeats)}
    if rank == 0:
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
