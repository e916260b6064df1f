"""A worker of tests/cellgraph/test_mint_distributed.py, started on 2 processes by
`cellgraph launch` (distributed_worker.launch): `python mint_distributed_worker.py TASK OUT`.

* `mint`: every mint.distributed function once (synchronous and, where it has one, with
  async_op=True, started on both ranks before either waits), the results to
  OUT/mint_rankR.json;
* `comm_func`: comm_func's gather_into_tensor and scatter_tensor (with gradients) and
  batch_isend_irecv, to OUT/comm_func_extra_rankR.json;
* `ops_comm`: the ranks meet through a TCPStore; ops.communication's in-place forms of
  gather_into_tensor, scatter_tensor and all_to_all_v_c, then its returning forms
  (set_comm_ops_inplace(False)), to OUT/ops_comm_rankR.json.
"""
from __future__ import annotations

import json
import sys
from datetime import timedelta
from pathlib import Path

import numpy as np

import cellgraph as ms
from cellgraph import Tensor
from cellgraph.mint import distributed as dist


def full(value, shape=(2, 3), dtype=np.float32) -> Tensor:
    return Tensor(np.full(shape, value, dtype))


def listed(tensor) -> list:
    return tensor.asnumpy().tolist()


def task_mint(out: Path, rank: int, size: int) -> dict:
    got = {"rank": dist.get_rank(), "size": dist.get_world_size(),
           "initialized": dist.is_initialized(), "available": dist.is_available(),
           "backend": dist.get_backend(), "ranks": dist.get_process_group_ranks()}
    t = full(rank + 1.0)
    got["all_reduce_returns"] = dist.all_reduce(t)
    got["all_reduce"] = listed(t)
    t = full(rank + 1.0)
    dist.all_reduce(t, op="avg")
    got["all_reduce_avg"] = listed(t)
    t = full(rank + 1.0)
    handle = dist.all_reduce(t, op="max", async_op=True)
    handle.wait()
    got["all_reduce_max_async"] = listed(t)
    gathered = full(0.0, (4, 3))
    dist.all_gather_into_tensor(gathered, full(rank + 1.0))
    got["all_gather_into_tensor"] = listed(gathered)
    uneven = full(0.0, (3, 2))
    dist.all_gather_into_tensor_uneven(uneven, full(rank + 1.0, (1 + rank, 2)), [1, 2])
    got["all_gather_uneven"] = listed(uneven)
    part = full(0.0)
    dist.reduce_scatter_tensor(part, Tensor(np.arange(12, dtype=np.float32).reshape(4, 3)))
    got["reduce_scatter_tensor"] = listed(part)
    part = full(0.0, (1 + rank, 2))
    dist.reduce_scatter_tensor_uneven(part, Tensor(np.arange(6, dtype=np.float32)
                                                   .reshape(3, 2)), [1, 2])
    got["reduce_scatter_uneven"] = listed(part)
    t = full(rank + 1.0)
    dist.reduce(t, dst=1)
    got["reduce"] = listed(t)
    t = full(rank + 5.0)
    dist.broadcast(t, src=1)
    got["broadcast"] = listed(t)
    pieces = [full(0.0) for _ in range(size)]
    dist.all_gather(pieces, full(rank + 1.0))
    got["all_gather"] = [listed(p) for p in pieces]
    part = full(0.0)
    dist.reduce_scatter(part, [full(rank + 1.0 + i) for i in range(size)])
    got["reduce_scatter"] = listed(part)
    mine = full(0.0)
    dist.scatter(mine, [full(10.0 + i) for i in range(size)] if rank == 0 else [], src=0)
    got["scatter"] = listed(mine)
    pieces = [full(0.0) for _ in range(size)] if rank == 1 else []
    dist.gather(full(rank + 1.0), pieces, dst=1)
    got["gather"] = [listed(p) for p in pieces]
    outs = [full(0.0, (1, 2)), full(0.0, (2,))]
    dist.all_to_all(outs, [full(rank * 10.0 + 1, (1, 2)), full(rank * 10.0 + 2, (2,))])
    got["all_to_all"] = [listed(o) for o in outs]
    received = full(0.0, (2, 1))
    dist.all_to_all_single(received, Tensor(np.array([[rank * 10.0], [rank * 10.0 + 1]],
                                                     np.float32)))
    got["all_to_all_single"] = listed(received)
    dist.barrier()
    dist.barrier(async_op=True).wait()
    # point to point: rank 0 sends first, rank 1 receives first; then both start, then wait
    peer = 1 - rank
    box = full(0.0, (2,))
    if rank == 0:
        dist.send(full(7.0, (2,)), dst=1)
    else:
        got["recv_returns"] = dist.recv(box, src=0)
        got["recv"] = listed(box)
    box = full(0.0, (2,))
    handles = [dist.isend(full(rank + 20.0, (2,)), dst=peer), dist.irecv(box, src=peer)]
    for h in handles:
        h.wait()
    got["irecv"] = listed(box)
    box = full(0.0, (2,))
    ops = [dist.P2POp("isend", full(rank + 30.0, (2,)), peer), dist.P2POp(dist.irecv, box, peer)]
    (handle,) = dist.batch_isend_irecv(ops)
    handle.wait()
    got["batch_isend_irecv"] = listed(box)
    # objects
    objects = [None] * size
    dist.all_gather_object(objects, {"rank": rank, "name": f"r{rank}"})
    got["all_gather_object"] = objects
    objects = [f"from {rank}", (rank, [1, 2])]
    dist.broadcast_object_list(objects, src=1)
    got["broadcast_object_list"] = objects
    gathered = [None] * size if rank == 0 else None
    dist.gather_object({"r": rank}, gathered, dst=0)
    got["gather_object"] = gathered
    mine = [None]
    dist.scatter_object_list(mine, [{"to": i} for i in range(size)] if rank == 1 else None, src=1)
    got["scatter_object_list"] = mine
    if rank == 0:
        dist.send_object_list([{"a": 1}, "b"], dst=1)
    else:
        objects = [None, None]
        dist.recv_object_list(objects, src=0)
        got["recv_object_list"] = objects
    # groups
    name = dist.new_group([1, 0])
    got["new_group"] = name
    got["new_group_again"] = dist.new_group([0, 1])
    got["group_rank"] = dist.get_group_rank(name, rank)
    got["global_rank"] = dist.get_global_rank(name, rank)
    t = full(rank + 1.0)
    dist.all_reduce(t, group=name)
    got["all_reduce_in_group"] = listed(t)
    dist.destroy_process_group(name)
    # ranks that disagree on a shape: ValueError on both, naming both shapes
    try:
        dist.all_reduce(full(1.0, (2 + rank, 3)))
    except ValueError as e:
        got["mismatch"] = str(e)
    return got


def task_comm_func(out: Path, rank: int, size: int) -> dict:
    from cellgraph.communication import comm_func

    got = {}
    x = Tensor(np.arange(4, dtype=np.float64).reshape(2, 2) + 10 * rank)
    got["gather_into_tensor"] = listed(comm_func.gather_into_tensor(x, dst=1))
    got["scatter_tensor"] = listed(comm_func.scatter_tensor(
        Tensor(np.arange(8, dtype=np.float64).reshape(4, 2) + 100 * rank), src=1))
    w = Tensor(np.arange(8, dtype=np.float64).reshape(4, 2) if rank == 1 else np.ones(1))

    def gathered_loss(t):
        return (w * comm_func.gather_into_tensor(t, dst=1)).sum()

    got["grad_gather"] = listed(ms.grad(gathered_loss)(x))
    v = Tensor(np.full((2, 2), rank + 1.0))

    def scattered_loss(t):
        return (v * comm_func.scatter_tensor(t, src=0)).sum()

    got["grad_scatter"] = listed(ms.grad(scattered_loss)(Tensor(np.zeros((4, 2)))))
    peer = 1 - rank
    outputs = comm_func.batch_isend_irecv([
        comm_func.P2POp("isend", Tensor(np.float32(rank + 1.0)), peer),
        comm_func.P2POp("irecv", Tensor(np.zeros((), np.float32)), peer),
        comm_func.P2POp("isend", Tensor(np.full(2, rank + 5.0, np.float32)), peer),
        comm_func.P2POp(comm_func.irecv, (2,), peer, recv_dtype=ms.float32)])
    got["batch"] = [(o.shape, str(o.dtype), listed(o)) for o in outputs]
    return got


def task_ops_comm(out: Path, rank: int, size: int) -> dict:
    from cellgraph.ops import communication as comm

    got = {}
    gathered = full(-1.0, (4, 2))
    got["gather_into_tensor_returns"] = comm.gather_into_tensor(gathered, full(rank + 1.0, (2, 2)),
                                                                dst=1)
    got["gather_into_tensor"] = listed(gathered)
    part = full(0.0, (2, 2))
    comm.scatter_tensor(part, Tensor(np.arange(8, dtype=np.float32).reshape(4, 2) + 100 * rank),
                        src=0)
    got["scatter_tensor"] = listed(part)
    # rank 0 sends 1 row to itself and 2 to rank 1; rank 1 sends 3 rows to 0 and none to itself
    rows = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2) + 10 * rank)
    received = full(0.0, (4, 2) if rank == 0 else (2, 2))
    comm.all_to_all_v_c(received, rows, [1, 2, 3, 0])
    got["all_to_all_v_c"] = listed(received)

    comm.set_comm_ops_inplace(False)
    t = full(rank + 1.0)
    total, handle = comm.all_reduce(t)
    got["all_reduce"], got["all_reduce_handle"], got["input_kept"] = (
        listed(total), handle, listed(t))
    got["all_reduce_avg"] = listed(comm.all_reduce(full(rank + 1.0), op="avg")[0])
    got["all_gather_into_tensor"] = listed(comm.all_gather_into_tensor(None, full(rank + 1.0))[0])
    got["reduce_scatter_tensor"] = listed(comm.reduce_scatter_tensor(
        None, Tensor(np.arange(12, dtype=np.float32).reshape(4, 3)))[0])
    pieces, _ = comm.all_to_all([(1, 2), (2,)], [full(rank + 1.0, (1, 2)), full(rank + 11.0, (2,))])
    got["all_to_all"] = [listed(p) for p in pieces]
    got["all_to_all_single"] = listed(comm.all_to_all_single(
        None, Tensor(np.array([[rank], [10.0 + rank]], np.float32)))[0])
    if rank == 0:
        comm.send(full(7.0, (2,)), dst=1)
    else:
        got["recv"] = listed(comm.recv(full(0.0, (2,)), src=0))
    try:
        comm.broadcast(full(0.0), src=0)
    except ValueError as e:
        got["broadcast_error"] = str(e)
    comm.set_comm_ops_inplace(True, ["all_reduce"])
    t = full(rank + 1.0)
    got["all_reduce_again_returns"] = comm.all_reduce(t)
    got["all_reduce_again"] = listed(t)
    comm.set_comm_ops_inplace(True)
    return got


TASKS = {"mint": task_mint, "comm_func": task_comm_func, "ops_comm": task_ops_comm}


def main() -> None:
    task, out = sys.argv[1], Path(sys.argv[2])
    if task == "mint":  # joins through init_method when the test asks for it
        if len(sys.argv) > 3:
            import os

            dist.init_process_group(init_method=sys.argv[3], rank=int(os.environ["RANK"]),
                                    world_size=2, timeout=timedelta(seconds=60))
        else:
            dist.init_process_group()
    elif task == "ops_comm":  # joins through a TCPStore on the launcher's master port + 1
        import os

        from cellgraph.ops import communication as comm

        rank = int(os.environ["RANK"])
        store = comm.TCPStore("127.0.0.1", int(sys.argv[3]), world_size=2, is_master=rank == 0,
                              timeout=timedelta(seconds=60))
        store.set(f"hello{rank}", f"from {rank}")
        assert store.get(f"hello{1 - rank}") == f"from {1 - rank}".encode()
        comm.init_process_group(store=store, rank=rank, world_size=2,
                                timeout=timedelta(seconds=60))
    else:
        from cellgraph.communication import init

        init()
    rank, size = dist.get_rank(), dist.get_world_size()
    result = TASKS[task](out, rank, size)
    (out / f"{task}_rank{rank}.json").write_text(json.dumps(result))
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
