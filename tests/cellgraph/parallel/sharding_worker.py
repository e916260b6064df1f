"""A worker of the operator-sharding tests, started by `cellgraph launch`:
`python sharding_worker.py TASK OUT_DIR [auto_parallel]`, TASK `all` (each of the
following in one job) or a model: `mlp` (two Dense layers,
Megatron style: column-parallel then row-parallel), `block` (a transformer block: attention
heads split across the ranks, its feed-forward column- then row-parallel) or `lookup` (an
embedding whose vocabulary is split across the ranks, then the MLP); `mlp_2d` and `block_2d`
(on 4 ranks, in `all` too) are the MLP and the block with the batch split as well, over a
device matrix (dp, mp) = (2, 2); `moves` checks each redistribution primitive's kernel against
its definition; `reload` loads the slices a job saved, with its strategy file, into a job of
another size.

In semi_auto_parallel mode on every rank: the output, the loss and its gradients for the
parameters, then the parameters after STEPS steps of TrainOneStepCell with Momentum, written to
OUT_DIR/MODEL_rankR.npz with the split of each parameter this rank holds (the number of
slices of each dimension, and where this rank's starts) and its bytes; rank 0 also writes the per-rank graph (dump_ir at shard_operators) to
OUT_DIR/MODEL.ir. Each rank then saves the trained network to OUT_DIR/MODEL_rankR.ckpt (whole,
gathered) and OUT_DIR/MODEL_slices_rankR.ckpt (its slices), and loads the whole one into a
new sharded network. With `auto_parallel` the training cell is wrapped in AutoParallel(...,
"semi_auto") instead of setting the parallel mode (results in MODEL_auto_parallel_rankR.npz).
`run(MODEL, 1)` in one process (stand-alone mode: strategies have no effect)
gives the reference the test compares with.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.runtime.sharded_parameters import slice_starts, split_dims

STEPS = 3
BATCH, SEQ, WIDTH, HEADS, HIDDEN, VOCAB = 4, 3, 8, 4, 16, 12


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(WIDTH, HIDDEN, activation="relu")
        self.fc2 = nn.Dense(HIDDEN, WIDTH)

    def construct(self, x):
        return self.fc2(self.fc1(x))


def megatron(mlp_in: nn.Dense, mlp_out: nn.Dense, n: int, dp: int = 1) -> None:
    """Column-parallel `mlp_in` (its output features split), row-parallel `mlp_out` (its input
    features split: partial sums, all-reduced before the bias); with `dp` > 1 the rows (the
    batch) are split too, over the other axis of a device matrix (dp, n)."""
    mlp_in.matmul.shard(((dp, 1), (n, 1)))
    mlp_in.bias_add.shard(((dp, n), (n,)))
    mlp_out.matmul.shard(((dp, n), (1, n)))
    mlp_out.bias_add.shard(((dp, 1), (1,)))


class Block(nn.Cell):
    """Pre-norm self-attention and a feed-forward layer, each with a residual."""

    def __init__(self):
        super().__init__()
        self.query, self.key, self.value = (nn.Dense(WIDTH, WIDTH) for _ in range(3))
        self.projection = nn.Dense(WIDTH, WIDTH)
        self.scores = ops.BatchMatMul(transpose_b=True)
        self.mix = ops.BatchMatMul()
        self.softmax = ops.Softmax(-1)
        self.reshape, self.transpose = ops.Reshape(), ops.Transpose()
        self.norm1, self.norm2 = nn.LayerNorm((WIDTH,)), nn.LayerNorm((WIDTH,))
        self.ff1 = nn.Dense(WIDTH, HIDDEN, activation="gelu")
        self.ff2 = nn.Dense(HIDDEN, WIDTH)
        self.scale = 1.0 / float(np.sqrt(WIDTH // HEADS))

    def heads(self, x, b, s):
        return self.transpose(self.reshape(x, (b, s, HEADS, WIDTH // HEADS)), (0, 2, 1, 3))

    def construct(self, x):
        b, s, _ = x.shape
        h = self.norm1(x)
        q, k, v = self.heads(self.query(h), b, s), self.heads(self.key(h), b, s), \
            self.heads(self.value(h), b, s)
        weights = self.softmax(self.scores(q, k) * self.scale)
        mixed = self.transpose(self.mix(weights, v), (0, 2, 1, 3))
        x = x + self.projection(self.reshape(mixed, (b, s, WIDTH)))
        return x + self.ff2(self.ff1(self.norm2(x)))


def shard_block(block: Block, n: int, dp: int = 1) -> None:
    """Megatron's attention: query, key and value column-parallel (each rank computes its
    heads), the batch matmuls and softmax split along heads, the projection row-parallel;
    with `dp` > 1 the batch is split too (a device matrix (dp, n))."""
    for dense in (block.query, block.key, block.value):
        dense.matmul.shard(((dp, 1), (n, 1)))
        dense.bias_add.shard(((dp, n), (n,)))
    block.scores.shard(((dp, n, 1, 1), (dp, n, 1, 1)))
    block.softmax.shard(((dp, n, 1, 1),))
    block.mix.shard(((dp, n, 1, 1), (dp, n, 1, 1)))
    block.projection.matmul.shard(((dp, n), (1, n)))
    block.projection.bias_add.shard(((dp, 1), (1,)))
    megatron(block.ff1, block.ff2, n, dp)


class Lookup(nn.Cell):
    """An embedding and the MLP over it."""

    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, WIDTH)
        self.mlp = MLP()

    def construct(self, ids):
        return self.mlp(self.embedding(ids))


def dp_mp(model: str, n: int) -> tuple[int, int]:
    """(data-parallel, model-parallel) split counts of a model on `n` ranks: the `_2d` models
    split over a device matrix (2, n / 2), the others over all ranks along one axis."""
    if model.endswith("_2d") and n > 1:
        return 2, n // 2
    return 1, n


def build(model: str, n: int) -> tuple[nn.Cell, np.ndarray, np.ndarray]:
    ms.set_seed(5)
    rs = np.random.RandomState(7)
    dp, n = dp_mp(model, n)
    model = model.removesuffix("_2d")
    if model == "mlp":
        net = MLP()
        megatron(net.fc1, net.fc2, n, dp)
        shape = (BATCH, WIDTH)
    elif model == "lookup":  # the vocabulary split across the ranks (masked lookups)
        net = Lookup()
        net.embedding.gather.shard(((n, 1), (1,)))
        megatron(net.mlp.fc1, net.mlp.fc2, n)
        ids = rs.randint(0, VOCAB, (BATCH, SEQ)).astype(np.int32)
        return net, ids, rs.randn(BATCH, SEQ, WIDTH).astype(np.float32)
    else:
        net = Block()
        shard_block(net, n, dp)
        shape = (BATCH, SEQ, WIDTH)
    return net, rs.randn(*shape).astype(np.float32), rs.randn(*shape).astype(np.float32)


def run(model: str, n: int, wrap=None) -> tuple[dict, str, nn.Cell, np.ndarray]:
    """Arrays by name (out, loss, grad/P, param/P, split/P, bytes/P), the per-rank IR, the
    trained network and its input; `wrap` wraps the training cell (AutoParallel)."""
    net, x, y = build(model, n)
    ir = ms.dump_ir(net, Tensor(x), stage="shard_operators")
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    params = net.trainable_params()
    result = {"out": net(Tensor(x)).asnumpy()}
    loss, grads = ms.value_and_grad(loss_net, None, params)(Tensor(x), Tensor(y))
    result["loss"] = loss.asnumpy()
    result.update({f"grad/{p.name}": g.asnumpy() for p, g in zip(params, grads)})
    step = nn.TrainOneStepCell(loss_net, nn.Momentum(params, 0.1, 0.9))
    step = step if wrap is None else wrap(step)
    for _ in range(STEPS):
        step(Tensor(x), Tensor(y))
    for p in params:
        result[f"param/{p.name}"] = p.asnumpy()
        dims = split_dims(p)
        result[f"split/{p.name}"] = np.array([dims.get(d, 1) for d in range(len(p.shape))])
        result[f"start/{p.name}"] = np.array(slice_starts(p))
        result[f"bytes/{p.name}"] = np.array(p.asnumpy().nbytes)
    result["trained_out"] = net(Tensor(x)).asnumpy()
    return result, ir, net, x


def checkpoints(model: str, net: nn.Cell, x: np.ndarray, out: Path, rank: int) -> dict:
    """Save the trained network whole (integrated_save, the default: gathered from the ranks)
    and as this rank's slices; load the whole file into a new sharded network of the same
    model, already run once (so it holds slices): its output must be the trained one's."""
    whole, slices = out / f"{model}_rank{rank}.ckpt", out / f"{model}_slices_rank{rank}.ckpt"
    ms.save_checkpoint(net, str(whole))
    ms.save_checkpoint(net, str(slices), integrated_save=False)
    fresh, _, _ = build(model, get_size())
    fresh(Tensor(x))
    ms.load_param_into_net(fresh, ms.load_checkpoint(str(whole)))
    return {"reloaded_out": fresh(Tensor(x)).asnumpy(),
            "held_after_load": np.array([p.asnumpy().nbytes for p in fresh.trainable_params()])}


def moves(out: Path, rank: int, size: int) -> None:
    """Each redistribution move's kernel on this rank against its definition, eagerly and in
    a compiled function: errors to OUT_DIR/moves_rankR.npz."""
    from cellgraph.primitives import redistribution_ops as R

    comm = {"group": "hccl_world_group", "rank_size": size}
    x = np.arange(4 * size * 6 * size, dtype=np.float32).reshape(4 * size, 6 * size)
    rows, cols = x.shape[0] // size, x.shape[1] // size
    mine_rows, mine_cols = x[rank * rows:(rank + 1) * rows], x[:, rank * cols:(rank + 1) * cols]
    total = sum(k + 1 for k in range(size)) * x
    cases = {
        "slice": (lambda t: R.shard_slice(t, axis=1, **comm), x, mine_cols),
        "all_gather": (lambda t: R.shard_all_gather(t, axis=1, **comm), mine_cols, x),
        "all_to_all": (lambda t: R.shard_all_to_all(t, split_axis=1, concat_axis=0, **comm),
                       mine_rows, mine_cols),
        "all_reduce": (lambda t: R.shard_all_reduce(t, **comm), (rank + 1) * x, total),
        "reduce_scatter": (lambda t: R.shard_reduce_scatter(t, axis=0, **comm), (rank + 1) * x,
                           total[rank * rows:(rank + 1) * rows]),
        "mirror": (lambda t: R.shard_mirror(t, **comm), x, x),
        "rank": (lambda t: R.shard_rank(**comm) + t * 0, np.zeros((), np.int32),
                 np.array(rank, np.int32)),
    }
    errors = {}
    for name, (move, given, expected) in cases.items():
        for how, fn in (("eager", move), ("compiled", ms.jit(move))):
            got = fn(Tensor(given)).asnumpy()
            errors[f"{name}/{how}"] = np.array(
                np.inf if got.shape != expected.shape else abs(got - expected).max())
    # round trips through the moves are the identity on the logical tensor: the gradient of
    # sum(w * round_trip(x)) is w (the moves' derivatives carried back through each other)
    w = np.cos(x)
    trips = {
        "slice_gather": lambda t: R.shard_all_gather(R.shard_slice(t, axis=1, **comm), axis=1,
                                                     **comm),
        "all_to_all": lambda t: R.shard_all_gather(R.shard_all_to_all(
            R.shard_slice(t, axis=0, **comm), split_axis=1, concat_axis=0, **comm), axis=1,
            **comm),
    }
    for name, trip in trips.items():
        def loss(t, trip=trip):
            return (trip(t) * Tensor(w)).sum()
        got = ms.grad(loss)(Tensor(x)).asnumpy()
        errors[f"grad/{name}"] = np.array(abs(got - w).max())
    np.savez(out / f"moves_rank{rank}.npz", **errors)


def get_size() -> int:
    from cellgraph.communication import get_group_size

    return get_group_size()


def auto_parallel(model: str, out: Path, rank: int, size: int) -> None:
    """The model trained with its training cell wrapped in AutoParallel(..., "semi_auto")
    (with the parallel mode not set by hand)."""
    from cellgraph.parallel import AutoParallel

    def wrap(cell):
        wrapped = AutoParallel(cell, "semi_auto")
        wrapped.dataset_strategy("full_batch")
        return wrapped
    result = run(model, size, wrap)[0]
    np.savez(out / f"{model}_auto_parallel_rank{rank}.npz", **result)


def sharded(model: str, out: Path, rank: int, size: int) -> None:
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", full_batch=True,
                                 strategy_ckpt_config={"save_file": str(
                                     out / f"{model}_strategy.ckpt")})
    result, ir, net, x = run(model, size)
    result.update(checkpoints(model, net, x, out, rank))
    np.savez(out / f"{model}_rank{rank}.npz", **result)
    if rank == 0:
        (out / f"{model}.ir").write_text(ir)


MODELS = ("mlp", "block", "lookup")
MODELS_2D = ("mlp_2d", "block_2d")  # on 4 ranks: dp x mp = 2 x 2


def reload(model: str, source: Path, ranks: int, out: Path, rank: int, size: int) -> None:
    """The checkpoints of `model`'s slices saved by a job of `ranks` ranks in `source`, with its
    strategy file, loaded by load_distributed_checkpoint into the same model sharded over this
    job's `size` ranks (over one axis); its output goes to
    OUT_DIR/MODEL_reloaded_on_SIZE_rankR.npz with the bytes each parameter holds here."""
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", full_batch=True)
    net, x, _ = build(model.removesuffix("_2d"), size)
    net(Tensor(x))  # once: the network holds its slices
    files = [str(source / f"{model}_slices_rank{r}.ckpt") for r in range(ranks)]
    ms.load_distributed_checkpoint(net, files,
                                   train_strategy_filename=str(source / f"{model}_strategy.ckpt"))
    result = {"out": net(Tensor(x)).asnumpy()}
    result.update({f"bytes/{p.name}": np.array(p.asnumpy().nbytes)
                   for p in net.trainable_params()})
    np.savez(out / f"{model}_reloaded_on_{size}_rank{rank}.npz", **result)


def main() -> None:
    """TASK: a model, `all` (the auto_parallel run first, then each model, then the moves:
    one job instead of five), `moves`, `two_axes` (the models over a device matrix (2, 2)), or
    `reload MODEL[,MODEL...] SOURCE_DIR SOURCE_RANKS`."""
    from cellgraph.communication import get_group_size, get_rank, init

    task, out = sys.argv[1], Path(sys.argv[2])
    ms.set_context(mode=ms.GRAPH_MODE)  # sharding compiles the graph
    init()
    rank, size = get_rank(), get_group_size()
    if task == "reload":  # reload OUT_DIR MODELS SOURCE_DIR SOURCE_RANKS
        for model in sys.argv[3].split(","):
            reload(model, Path(sys.argv[4]), int(sys.argv[5]), out, rank, size)
        return None
    if task == "two_axes":
        for model in MODELS_2D:
            sharded(model, out, rank, size)
        return None
    if task == "moves":
        return moves(out, rank, size)
    if len(sys.argv) > 3 and sys.argv[3] == "auto_parallel":
        return auto_parallel(task, out, rank, size)
    if task != "all":
        return sharded(task, out, rank, size)
    auto_parallel("mlp", out, rank, size)  # before anything sets the parallel mode
    for model in MODELS + (MODELS_2D if size == 4 else ()):
        sharded(model, out, rank, size)
    moves(out, rank, size)


if __name__ == "__main__":
    main()
