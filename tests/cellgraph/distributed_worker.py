"""A worker of the multi-process tests (started by `cellgraph launch`, or directly with
torchrun's environment variables). `python distributed_worker.py TASK OUT_DIR`:

* `train`: 10 data-parallel steps of an MLP and of a small CNN (TrainOneStepCell; also with a
  gradient bucket per parameter, all-reduces overlapping backward or not), of the MLP
  through a value_and_grad loop with nn.DistributedGradReducer and through Model.train over a
  dataset sharded by rank, each on this rank's shard of the global batch; saves the initial and final parameters to OUT_DIR/TASK_rankR.npz. Also
  saves a checkpoint (only rank 0 may write it) and reads it back on every rank.
* `collectives`: every collective's forward, gradient and gradient of order 2 against its
  definition (the global loss is the sum of the ranks' losses), a bucket of two dtypes, and
  parameter_broadcast, written to OUT_DIR/collectives_rankR.json as {check: error}.
* `train_forever`: trains until killed, after writing OUT_DIR/pid_rankR.
* `stall`: rank 1 never reaches the all-reduce rank 0 waits in.
* `comm_func`: communication.comm_func's collectives and a gradient through one.
* `mismatch`: collectives whose input shape (or dtype) differs between the ranks.
* `resume_model`, `resume_loop` [KILL_AT]: Model.train with ModelCheckpoint, and a hand loop
  with save_checkpoint(append_dict=resume_state(...)), where rank 1 kills itself after step
  KILL_AT of the first attempt (0: never); final parameters to OUT_DIR/final_rankR.npz.

The models and data are functions here, so the test can run the same model on one process.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops

STEPS = 10
GLOBAL_BATCH = 8


# ----- models and data (shared with the single-process reference in the tests) --------------

def mlp():
    return nn.SequentialCell(nn.Dense(6, 16), nn.ReLU(), nn.Dense(16, 3))


def cnn():
    return nn.SequentialCell(nn.Conv2d(1, 4, 3, has_bias=True), nn.ReLU(),
                             nn.MaxPool2d(2, 2), nn.Flatten(), nn.Dense(4 * 4 * 4, 3))


MODELS = {"mlp": (mlp, (6,), nn.MSELoss),
          "cnn": (cnn, (1, 8, 8), lambda: nn.SoftmaxCrossEntropyWithLogits(
              sparse=True, reduction="mean"))}


def batches(kind: str):
    """STEPS global batches (inputs, labels) of GLOBAL_BATCH examples."""
    rng = np.random.default_rng(7)
    _, shape, _ = MODELS[kind]
    for _ in range(STEPS):
        x = rng.standard_normal((GLOBAL_BATCH,) + shape).astype(np.float32)
        if kind == "mlp":
            y = rng.standard_normal((GLOBAL_BATCH, 3)).astype(np.float32)
        else:
            y = rng.integers(0, 3, GLOBAL_BATCH).astype(np.int32)
        yield x, y


def shard(array, rank: int, size: int):
    per = len(array) // size
    return array[rank * per:(rank + 1) * per]


def params_of(net) -> dict:
    return {p.name: p.asnumpy().copy() for p in net.trainable_params()}


def train_one_step(kind: str, rank: int = 0, size: int = 1) -> tuple[dict, dict]:
    """(initial, final) parameters after STEPS steps of TrainOneStepCell on this rank's shard."""
    build, _, loss = MODELS[kind]
    ms.set_seed(1)
    net = build()
    first = params_of(net)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss()),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    for x, y in batches(kind):
        step(Tensor(shard(x, rank, size)), Tensor(shard(y, rank, size)))
    return first, params_of(net)


def train_value_and_grad(rank: int, size: int) -> dict:
    """The loop MindSpore's data-parallel tutorial writes: value_and_grad, then the reducer."""
    ms.set_seed(1)
    net = mlp()
    loss_fn = nn.MSELoss()
    optimizer = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, optimizer.parameters)
    reducer = nn.DistributedGradReducer(optimizer.parameters)

    @ms.jit
    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(reducer(grads))
        return loss

    for x, y in batches("mlp"):
        train_step(Tensor(shard(x, rank, size)), Tensor(shard(y, rank, size)))
    return params_of(net)


def train_model(rank: int = 0, size: int = 1) -> dict:
    """Model.train for one epoch over the STEPS global batches, through a dataset pipeline
    sharded by rank (every size-th row), so that each global batch is split across ranks."""
    from cellgraph.dataset import NumpySlicesDataset
    from cellgraph.train import Model

    x, y = (np.concatenate(column) for column in zip(*batches("mlp")))
    shards = {"num_shards": size, "shard_id": rank} if size > 1 else {}
    data = NumpySlicesDataset((x, y), ["x", "y"], shuffle=False, **shards)
    ms.set_seed(1)
    net = mlp()
    model = Model(net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    model.train(1, data.batch(GLOBAL_BATCH // size))
    return params_of(net)


def train_in_small_buckets(rank: int, size: int) -> dict:
    """TrainOneStepCell with a bucket per parameter, each all-reduce started as soon as
    backward has its gradient (CELLGRAPH_COMM_OVERLAP on, the default) and all-reduced after
    backward (off): final parameters under `overlap/KIND/` and `sync/KIND/`."""
    arrays = {}
    ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 0}})
    for mode, setting in (("overlap", "1"), ("sync", "0")):
        os.environ["CELLGRAPH_COMM_OVERLAP"] = setting  # read when a graph compiles
        for kind in MODELS:
            _, last = train_one_step(kind, rank, size)
            arrays.update({f"{mode}/{kind}/{k}": v for k, v in last.items()})
    os.environ.pop("CELLGRAPH_COMM_OVERLAP")
    ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "auto", "config": None}})
    return arrays


def task_train(out: Path, rank: int, size: int) -> None:
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True)
    arrays = {}
    for kind in MODELS:
        first, last = train_one_step(kind, rank, size)
        arrays.update({f"{kind}/first/{k}": v for k, v in first.items()})
        arrays.update({f"{kind}/last/{k}": v for k, v in last.items()})
    arrays.update({f"loop/last/{k}": v for k, v in train_value_and_grad(rank, size).items()})
    arrays.update({f"model/last/{k}": v for k, v in train_model(rank, size).items()})
    arrays.update(train_in_small_buckets(rank, size))
    net = mlp()
    ckpt = out / f"ckpt_rank{rank}.ckpt"
    ms.save_checkpoint(net, str(ckpt))
    ops.Barrier()()  # rank 0 has written its file
    loaded = ms.load_checkpoint(str(out / "ckpt_rank0.ckpt"))
    arrays.update({f"ckpt/{k}": v.asnumpy() for k, v in loaded.items()})
    np.savez(out / f"train_rank{rank}.npz", **arrays)


def train_auto_parallel(rank: int, size: int) -> dict:
    """TrainOneStepCell and Model.train, each wrapped in parallel.AutoParallel (semi_auto, no
    strategies: data parallelism, gradients averaged), with no auto-parallel context set."""
    from cellgraph.parallel import AutoParallel
    from cellgraph.train import Model

    arrays = {}
    ms.set_seed(1)
    net = mlp()
    step = AutoParallel(nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                            nn.Momentum(net.trainable_params(), 0.1, 0.9)))
    step.enable_gradients_mean()
    for x, y in batches("mlp"):
        step(Tensor(shard(x, rank, size)), Tensor(shard(y, rank, size)))
    arrays.update({f"auto_step/last/{k}": v for k, v in params_of(net).items()})
    from cellgraph.dataset import NumpySlicesDataset

    x, y = (np.concatenate(column) for column in zip(*batches("mlp")))
    shards = {"num_shards": size, "shard_id": rank} if size > 1 else {}
    data = NumpySlicesDataset((x, y), ["x", "y"], shuffle=False, **shards)
    ms.set_seed(1)
    net = mlp()
    parallel_net = AutoParallel(net)
    parallel_net.enable_gradients_mean()
    model = Model(parallel_net, nn.MSELoss(), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    model.train(1, data.batch(GLOBAL_BATCH // size))
    arrays.update({f"auto_model/last/{k}": v for k, v in params_of(net).items()})
    return arrays


def task_auto_parallel(out: Path, rank: int, size: int) -> None:
    np.savez(out / f"auto_parallel_rank{rank}.npz", **train_auto_parallel(rank, size))


# ----- collectives against their definitions ---------------------------------------------------

def rank_input(rank: int, shape=(4, 3)) -> np.ndarray:
    """Distinct values on each rank, no ties across ranks (so max/min pick one rank)."""
    rng = np.random.default_rng(100 + rank)
    return rng.uniform(0.5, 2.0, shape) * (1 + 0.25 * rank)


def weights(rank: int, seed: int, shape) -> np.ndarray:
    return np.random.default_rng(seed * 10 + rank).standard_normal(shape)


COLLECTIVES = {
    "all_reduce_sum": (lambda: ops.AllReduce(ops.ReduceOp.SUM),
                       lambda xs, r: np.sum(xs, 0)),
    "all_reduce_max": (lambda: ops.AllReduce(ops.ReduceOp.MAX),
                       lambda xs, r: np.max(xs, 0)),
    "all_reduce_min": (lambda: ops.AllReduce(ops.ReduceOp.MIN),
                       lambda xs, r: np.min(xs, 0)),
    "all_reduce_prod": (lambda: ops.AllReduce(ops.ReduceOp.PROD),
                        lambda xs, r: np.prod(xs, 0)),
    "all_gather": (lambda: ops.AllGather(), lambda xs, r: np.concatenate(xs, 0)),
    "reduce_scatter": (lambda: ops.ReduceScatter(ops.ReduceOp.SUM),
                       lambda xs, r: np.split(np.sum(xs, 0), len(xs))[r]),
    "reduce_scatter_max": (lambda: ops.ReduceScatter(ops.ReduceOp.MAX),
                           lambda xs, r: np.split(np.max(xs, 0), len(xs))[r]),
    "broadcast": (lambda: _first_of(ops.Broadcast(1)), lambda xs, r: xs[1]),
    "reduce": (lambda: _reduce_to(1), lambda xs, r: np.sum(xs, 0) * (r == 1)),
    # rank 1 gets every rank's tensor; the others a [1] placeholder (zero)
    "collective_gather": (lambda: ops.CollectiveGather(1),
                          lambda xs, r: np.concatenate(xs, 0) if r == 1 else np.zeros(1)),
    "collective_scatter": (lambda: ops.CollectiveScatter(1),
                           lambda xs, r: np.split(xs[1], len(xs))[r]),
}


def _first_of(broadcast):
    """Broadcast takes and gives a tuple: a function of one tensor."""
    def apply(x):
        return broadcast((x,))[0]
    return apply


def _reduce_to(dst):
    def apply(x):
        return ops.comm_ops.reduce(x, dst=dst, op="sum", rank_size=2)
    return apply


def fd_grad(fn, xs: list, rank: int, h: float = 1e-3) -> np.ndarray:
    """d fn(xs) / d xs[rank] by central differences (float64)."""
    grad = np.zeros_like(xs[rank])
    for i in np.ndindex(xs[rank].shape):
        plus = [x.copy() for x in xs]
        minus = [x.copy() for x in xs]
        plus[rank][i] += h
        minus[rank][i] -= h
        grad[i] = (fn(plus) - fn(minus)) / (2 * h)
    return grad


def check_collective(name: str, rank: int, size: int) -> dict:
    make, reference = COLLECTIVES[name]
    collective = make()
    xs = [rank_input(r) for r in range(size)]
    w = [weights(r, 1, reference(xs, r).shape) for r in range(size)]  # shapes may differ
    v = [weights(r, 2, xs[0].shape) for r in range(size)]

    def loss(x):  # this rank's share of the global loss
        return (Tensor(w[rank]) * collective(x) ** 2).sum()

    def loss_of_grad(x):  # a second-order quantity: the global loss's gradient, weighted
        return (Tensor(v[rank]) * ms.grad(loss)(x)).sum()

    def global_loss(xs_):
        return sum(np.sum(w[k] * reference(xs_, k) ** 2) for k in range(size))

    def global_loss_of_grad(xs_):
        return sum(np.sum(v[k] * fd_grad(global_loss, xs_, k)) for k in range(size))

    @ms.jit
    def forward(t):
        return collective(t)

    x = Tensor(xs[rank])
    return {
        f"{name}/forward": _err(forward(x), reference(xs, rank)),
        f"{name}/grad": _err(ms.grad(loss)(x), fd_grad(global_loss, xs, rank)),
        f"{name}/grad2": _err(ms.grad(loss_of_grad)(x), fd_grad(global_loss_of_grad, xs, rank)),
    }


def _err(got, expected) -> float:
    got = got.asnumpy()
    assert got.shape == expected.shape, (got.shape, expected.shape)
    return float(np.max(np.abs(got - expected)) / max(1.0, np.max(np.abs(expected))))


def check_barrier_and_bucket(rank: int, size: int) -> dict:
    ops.Barrier()()
    both = ops.comm_ops.all_reduce(Tensor(np.full(3, rank + 1.0)), Tensor(np.arange(2) + rank),
                                   op="sum")
    return {"bucket/float": _err(both[0], np.full(3, size * (size + 1) / 2)),
            "bucket/int": _err(both[1], size * np.arange(2) + size * (size - 1) / 2)}


def check_parameter_broadcast(rank: int, size: int) -> dict:
    """parameter_broadcast=True: TrainOneStepCell starts every rank from rank 0's values."""
    ms.set_seed(rank)  # different initial parameters on each rank
    net = mlp()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 parameter_broadcast=True)
    nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params()))
    ms.reset_auto_parallel_context()
    ms.set_seed(0)
    expected = params_of(mlp())
    return {"parameter_broadcast": max(float(np.max(np.abs(p.asnumpy() - expected[p.name])))
                                       for p in net.trainable_params())}


def task_collectives(out: Path, rank: int, size: int) -> None:
    errors = check_barrier_and_bucket(rank, size)
    errors.update(check_parameter_broadcast(rank, size))
    for name in COLLECTIVES:
        errors.update(check_collective(name, rank, size))
    (out / f"collectives_rank{rank}.json").write_text(json.dumps(errors))


def task_train_forever(out: Path, rank: int, size: int) -> None:
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    net = mlp()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.SGD(net.trainable_params(), 0.01))
    x, y = next(batches("mlp"))
    step(Tensor(x), Tensor(y))  # compiled: from here on each step is quick
    (out / f"pid_rank{rank}").write_text(str(os.getpid()))
    while True:
        step(Tensor(x), Tensor(y))


def launch(task: str, out: Path, nproc: int = 2, timeout: float = 240, launcher_args=(),
           task_args=(), script: str = __file__) -> str:
    """Run TASK of `script` (this file by default) on `nproc` processes through `cellgraph
    launch` (loopback only); workers' output goes to OUT/logs, which the assertion shows when
    the job fails. Returns the launcher's stderr."""
    cmd = [sys.executable, "-m", "cellgraph", "launch", "--nproc", str(nproc), "--master-addr",
           "127.0.0.1", "--log-dir", str(out / "logs"), *launcher_args, str(script), task,
           str(out), *(str(a) for a in task_args)]
    done = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=timeout)
    logs = "\n".join(p.read_text() for p in sorted((out / "logs").glob("*.log")))
    assert done.returncode == 0, f"{done.stderr}\n{logs[-4000:]}"
    return done.stderr


def task_stall(out: Path, rank: int, size: int) -> None:
    """Rank 1 stops answering (alive, but never reaching the collective) until it is killed."""
    if rank == 1:
        time.sleep(600)
    ops.AllReduce()(Tensor(np.ones(3, np.float32)))


def task_mismatch(out: Path, rank: int, size: int) -> None:
    """Each collective called with a shape that differs between the ranks: the error each rank
    raises goes to OUT/mismatch_rankR.json; a collective the ranks agree on works after them."""
    from cellgraph.communication import comm_func as cf

    @ms.jit
    def two_buckets(x):  # compiled: started early, one agreement check for both
        return ops.AllReduce()(x * 2) + ops.AllReduce()(x)

    errors = {}
    calls = {"all_reduce": lambda x: ops.AllReduce()(x), "all_gather": lambda x: ops.AllGather()(x),
             "compiled_all_reduce": two_buckets,
             "broadcast": lambda x: ops.Broadcast(0)((x,)),
             "all_reduce_dtype": lambda x: ops.AllReduce()(x.astype(ms.float64) if rank else x),
             "all_to_all": lambda x: cf.all_to_all_single_with_output_shape(x.shape, x)}
    shapes = {"all_reduce_dtype": (4, 3), "all_to_all": (2 + 2 * rank, 3)}
    for name, call in calls.items():
        shape = shapes.get(name, (2 + rank, 3))
        try:
            call(Tensor(np.ones(shape, np.float32)))
        except Exception as e:  # noqa: BLE001 - the test reads its type and message
            errors[name] = f"{type(e).__name__}: {e}"
    after = ops.AllReduce()(Tensor(np.ones(2, np.float32))).asnumpy().tolist()
    (out / f"mismatch_rank{rank}.json").write_text(json.dumps({"errors": errors,
                                                                "after": after}))


def task_comm_func(out: Path, rank: int, size: int) -> None:
    """communication.comm_func's collectives, their values to OUT/comm_func_rankR.json."""
    from cellgraph.communication import comm_func as cf

    x = Tensor(np.full((2, 3), rank + 1.0, np.float32))
    rows = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) * (rank + 1))
    total, none = cf.all_reduce(x)
    gathered, handle = cf.all_gather_into_tensor(x, async_op=True)
    handle.wait()
    # two all-reduces in flight at once, waited for in the other order
    summed, first = cf.all_reduce(x, async_op=True)
    largest, second = cf.all_reduce(x * (rank + 2), op="max", async_op=True)
    second.wait()
    first.wait()
    results = {
        "all_reduce": total.asnumpy().tolist(), "sync_handle": none,
        "async_all_reduce": [summed.asnumpy().tolist(), largest.asnumpy().tolist()],
        "max": cf.all_reduce(x, op="max")[0].asnumpy().tolist(),
        "all_gather": gathered.asnumpy().tolist(),
        "reduce_scatter": cf.reduce_scatter_tensor(rows)[0].asnumpy().tolist(),
        "broadcast": cf.broadcast(x, src=1).asnumpy().tolist(),
        "reduce": cf.reduce(x, dst=1).asnumpy().tolist(),
        # each rank's loss sums the gathered tensor: d(sum of losses)/dx = size everywhere
        "grad_all_gather": ms.grad(lambda t: cf.all_gather_into_tensor(t)[0].sum())(
            x).asnumpy().tolist(),
    }
    # point to point: 0 sends to 1; then each starts a send and a receive, and waits
    if rank == 0:
        cf.send(x * 5, dst=1)
    else:
        results["recv"] = cf.recv(x, src=0).asnumpy().tolist()
    sent = cf.isend(Tensor(np.full(3, 10.0 + rank, np.float32)), dst=1 - rank)
    got, handle = cf.irecv(Tensor(np.zeros(3, np.float32)), src=1 - rank)
    handle.wait()
    sent.wait()
    results["irecv"] = got.asnumpy().tolist()
    # all to all: equal parts, uneven parts (with the gradient back), and a list of tensors
    column = Tensor(np.arange(4, dtype=np.float32).reshape(4, 1) + 10 * rank)
    results["all_to_all"] = cf.all_to_all_single_with_output_shape(
        (4, 1), column)[0].asnumpy().ravel().tolist()
    ins, outs = ((1, 3), (1, 2)) if rank == 0 else ((2, 2), (3, 2))

    def uneven(t):
        return cf.all_to_all_single_with_output_shape((sum(outs), 1), t, outs, ins)[0]

    results["uneven"] = uneven(column).asnumpy().ravel().tolist()
    results["grad_uneven"] = ms.grad(lambda t: (uneven(t) * uneven(t)).sum())(
        column).asnumpy().ravel().tolist()
    pieces, _ = cf.all_to_all_with_output_shape(
        [(1, 2), (1, 2)] if rank == 0 else [(2,), (2,)],
        [Tensor(np.full((1, 2), 10.0 * rank, np.float32)),
         Tensor(np.full(2, 10.0 * rank + 1, np.float32))])
    results["all_to_all_list"] = [p.asnumpy().tolist() for p in pieces]
    cf.barrier()
    (out / f"comm_func_rank{rank}.json").write_text(json.dumps(results))


def task_neighbor_exchange(out: Path, rank: int, size: int) -> None:
    """ops.NeighborExchange on two ranks, compiled: a [2] tensor to the peer and a [3] one to
    itself; each rank receives the peer's [2] and its own [3]; the gradient comes back from
    where each tensor went (each rank's loss weighs what it received by rank + 1)."""
    from cellgraph.ops.operations.comm_ops import NeighborExchange

    peer = 1 - rank
    exchange = NeighborExchange(send_rank_ids=[peer, rank], recv_rank_ids=[peer, rank],
                                recv_shapes=([2], [3]), send_shapes=([2], [3]),
                                recv_type=ms.float32)

    def loss(x, y):
        got_x, got_y = exchange((x, y))
        return (got_x.sum() + got_y.sum()) * (rank + 1)

    x = Tensor(np.full(2, 10.0 * rank + 1, np.float32))
    y = Tensor(np.arange(3, dtype=np.float32) + rank)
    got = ms.jit(lambda a, b: exchange((a, b)))(x, y)
    grads = ms.grad(ms.jit(loss), grad_position=(0, 1))(x, y)
    results = {"received": [g.asnumpy().tolist() for g in got],
               "grads": [g.asnumpy().tolist() for g in grads]}
    (out / f"neighbor_exchange_rank{rank}.json").write_text(json.dumps(results))


# ----- kill and resume: `cellgraph launch --max-restarts 1` restarts the workers --------------

RESUME_EPOCHS, RESUME_ROWS = 3, 48  # 6 steps an epoch of 8 rows (4 per rank on 2 ranks)


def _resume_setup(rank: int, size: int):
    """A network with dropout (the random generator matters), Momentum (optimizer state
    matters) and a shuffled dataset sharded by rank (the data order matters)."""
    from cellgraph import dataset

    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True)
    ms.set_seed(3)
    dataset.config.set_seed(3)
    rng = np.random.default_rng(11)
    x = rng.standard_normal((RESUME_ROWS, 6)).astype(np.float32)
    y = rng.standard_normal((RESUME_ROWS, 3)).astype(np.float32)
    data = dataset.NumpySlicesDataset((x, y), ["x", "y"], shuffle=True, num_shards=size,
                                      shard_id=rank).batch(8 // size)
    net = nn.SequentialCell(nn.Dense(6, 16), nn.ReLU(), nn.Dropout(p=0.3), nn.Dense(16, 3))
    return net, data, nn.Momentum(net.trainable_params(), 0.05, 0.9)


def _die_at(step: int, kill_at: int, out: Path) -> None:
    """Rank 1 of the first attempt kills itself (SIGKILL: no cleanup) after step `kill_at`;
    the steps each attempt ran go to OUT/steps_attemptA_rankR.txt."""
    attempt, rank = os.environ.get("CELLGRAPH_RESTART_COUNT", "0"), os.environ.get("RANK")
    with open(out / f"steps_attempt{attempt}_rank{rank}.txt", "a") as f:
        f.write(f"{step}\n")
    if step == kill_at and os.environ.get("CELLGRAPH_RESTART_COUNT", "0") == "0" and \
            os.environ.get("RANK") == "1":
        os.kill(os.getpid(), 9)


def task_resume_model(out: Path, rank: int, size: int, kill_at: int = 10) -> None:
    """Model.train with ModelCheckpoint every 3 steps; killed after step `kill_at` (argv[3],
    0: never), the restarted workers resume from rank 0's checkpoint of step 9."""
    from cellgraph.train import CheckpointConfig, Model, ModelCheckpoint
    from cellgraph.train.callback import Callback

    class Die(Callback):
        def on_train_step_end(self, run_context):
            _die_at(run_context.original_args().cur_step_num, kill_at, out)

    net, data, optimizer = _resume_setup(rank, size)
    model = Model(net, nn.MSELoss(), optimizer)
    checkpoints = ModelCheckpoint("net", str(out / "ckpt"),
                                  CheckpointConfig(save_checkpoint_steps=3))
    model.train(RESUME_EPOCHS, data, callbacks=[checkpoints, Die()])
    np.savez(out / f"final_rank{rank}.npz", **params_of(net))


def task_resume_loop(out: Path, rank: int, size: int, kill_at: int = 14) -> None:
    """A hand loop that saves with resume_state every 6 steps (an epoch's end) and resumes with
    resume_checkpoint; killed after step `kill_at`, it resumes from step 12."""
    from cellgraph.train import resume_checkpoint, resume_state

    net, data, optimizer = _resume_setup(rank, size)
    train_step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), optimizer)
    iterator = data.create_tuple_iterator(num_epochs=-1)
    folder = out / "ckpt"
    folder.mkdir(exist_ok=True)
    state = resume_checkpoint(train_step, folder, iterator)
    step = state["step_num"] if state else 0
    for epoch in range(state["epoch_num"] - 1 if state else 0, RESUME_EPOCHS):
        for x, y in iterator:
            train_step(x, y)
            step += 1
            if step % 6 == 0:
                ms.save_checkpoint(train_step, str(folder / f"loop-{step}.ckpt"),
                                   append_dict=resume_state(epoch + 1, step, iterator))
            _die_at(step, kill_at, out)
    np.savez(out / f"final_rank{rank}.npz", **params_of(net))


TASKS = {"neighbor_exchange": task_neighbor_exchange, "train": task_train, "auto_parallel": task_auto_parallel, "collectives": task_collectives,
         "train_forever": task_train_forever, "stall": task_stall, "mismatch": task_mismatch,
         "comm_func": task_comm_func, "resume_model": task_resume_model, "resume_loop": task_resume_loop}


def main() -> None:
    task, out = sys.argv[1], Path(sys.argv[2])
    from cellgraph.communication import get_group_size, get_rank, init

    ms.set_context(mode=ms.GRAPH_MODE)  # as MindSpore's parallel programs run
    init()
    TASKS[task](out, get_rank(), get_group_size(), *(int(a) for a in sys.argv[3:]))


if __name__ == "__main__":
    main()
