"""A worker of tests/cellgraph/ops/test_comm_ops.py, started on two processes by `cellgraph
launch`: `python comm_ops_worker.py TASK OUT_DIR`.

* `halo`: ops.NeighborExchangeV2 as in MindSpore's documented example (rank 0 sends its
  bottom row to rank 1 and receives rank 1's top row below it; rank 1 the other way round),
  its output and the gradient of sum(output) * (rank + 1), to OUT_DIR/halo_rankR.json.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

import cellgraph as ms
from cellgraph import Tensor


def task_halo(out: Path, rank: int) -> None:
    from cellgraph.ops.operations.comm_ops import NeighborExchangeV2

    ids = [-1, -1, -1, -1, 1, -1, -1, -1] if rank == 0 else [0, -1, -1, -1, -1, -1, -1, -1]
    lens = [0, 1, 0, 0] if rank == 0 else [1, 0, 0, 0]
    exchange = NeighborExchangeV2(send_rank_ids=ids, send_lens=lens, recv_rank_ids=ids,
                                  recv_lens=lens, data_format="NCHW")
    x = Tensor(np.full((1, 1, 2, 2), rank + 1.0, np.float32))
    got = ms.jit(exchange)(x)
    grad = ms.grad(ms.jit(lambda t: exchange(t).sum() * (rank + 1)))(x)
    results = {"out": got.asnumpy().tolist(), "grad": grad.asnumpy().tolist()}
    (out / f"halo_rank{rank}.json").write_text(json.dumps(results))


def main() -> None:
    from cellgraph.communication import get_rank, init

    task, out = sys.argv[1], Path(sys.argv[2])
    init()
    {"halo": task_halo}[task](out, get_rank())


if __name__ == "__main__":
    main()
