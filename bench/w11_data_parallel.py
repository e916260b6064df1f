"""W11: data-parallel scaling on the CPU: the W2 MLP's training step on 1 and 2 processes, and
the all-reduce's cost per MB (Gloo over loopback).

Strong scaling keeps the global batch at 128 (64 per process on 2); weak scaling keeps 128 per
process. Each is run with the gradients' all-reduces overlapping the backward pass (each
bucket started as soon as backward has produced it: cellgraph's default) and without
(CELLGRAPH_COMM_OVERLAP=0: all-reduced after backward), in buckets of BUCKET_MB so that there
is something to overlap (the MLP's 2.7 MB of gradients are one bucket at the default 25 MB),
and in that one bucket after backward, as before overlapping existed. Each configuration is launched ROUNDS times, the configurations taking turns, and the
median is reported: on a shared machine a busy spell then slows every configuration alike. Efficiency = time on 1 process / time on 2 processes (weak), or that ratio / 2
(strong). Each configuration is a `cellgraph launch` job (bench/data_parallel_worker.py), timed
inside the workers after a step that is checked against NumPy. PyTorch (the distributed
extra) is required; without it the workload reports nothing.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from bench.timing import optional

WORKLOAD = "W11"
DESCRIPTION = "data parallel: W2 MLP train step on 1 vs 2 processes; all-reduce time per MB"

WORKER = Path(__file__).with_name("data_parallel_worker.py")
ROOT = Path(__file__).resolve().parents[1]
ALLREDUCE_MB = 16
BUCKET_MB = 0.5  # the W2 MLP's gradients in 4 buckets
ROUNDS = 3  # launches of each configuration; the median is reported


def launch(nproc: int, *args, overlap: bool = True) -> dict:
    """Run the worker on `nproc` processes; rank 0's JSON line."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        CELLGRAPH_COMM_OVERLAP="1" if overlap else "0")
    cmd = [sys.executable, "-m", "cellgraph", "launch", "--nproc", str(nproc), str(WORKER),
           *map(str, args)]
    done = subprocess.run(cmd, check=False, capture_output=True, text=True, env=env,
                          timeout=900)
    if done.returncode:
        raise RuntimeError(f"W11 worker failed:\n{done.stdout}\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run(repeats: int) -> list[dict]:
    if optional("torch") is None:
        print("    W11 needs PyTorch (pip install 'cellgraph[distributed]'); skipped",
              file=sys.stderr)
        return []
    steps, batches = 5, max(repeats // 2, 3)
    # name: (processes, worker arguments, overlap, bucket MB or None for the default 25 MB)
    configs = {"one": (1, ("step", 128), True, None),
               "reduce": (2, ("allreduce", ALLREDUCE_MB), True, None)}
    for scaling, per_rank in (("strong", 64), ("weak", 128)):
        configs.update({f"{scaling}/overlap": (2, ("step", per_rank), True, BUCKET_MB),
                        f"{scaling}/sync": (2, ("step", per_rank), False, BUCKET_MB),
                        f"{scaling}/one bucket": (2, ("step", per_rank), False, None)})
    runs: dict = {name: [] for name in configs}
    for _ in range(ROUNDS):  # the configurations take turns, so a busy spell hits them alike
        for name, (nproc, args, overlap, bucket) in configs.items():
            extra = (bucket,) if bucket else ()
            runs[name].append(launch(nproc, *args, steps, batches, *extra, overlap=overlap))
    one = statistics.median(r["step_s"] for r in runs["one"])
    reduce_s, torch_s = (statistics.median(r[k] for r in runs["reduce"])
                         for k in ("cellgraph_s", "torch_s"))
    rows = [{"name": "train step, 1 process, batch 128", "cellgraph_s": one, "numpy_s": None}]
    how = {"overlap": f"{BUCKET_MB} MB buckets overlapping backward",
           "sync": f"{BUCKET_MB} MB buckets after backward",
           "one bucket": "one bucket after backward"}
    for name in configs:
        if "/" not in name:
            continue
        scaling, mode = name.split("/")
        seconds = statistics.median(r["step_s"] for r in runs[name])
        per_rank = 64 if scaling == "strong" else 128
        note = (f"speedup {one / seconds:.2f}x, efficiency {one / seconds / 2:.0%}"
                if scaling == "strong" else f"efficiency {one / seconds:.0%}")
        rows.append({"name": f"train step, 2 processes x {per_rank} ({scaling}), {how[mode]}",
                     "cellgraph_s": seconds, "numpy_s": None, "note": note})
    return rows + [
        {"name": f"all-reduce {ALLREDUCE_MB} MB f32, 2 processes, per MB",
         "cellgraph_s": reduce_s / ALLREDUCE_MB, "numpy_s": None,
         "torch_s": torch_s / ALLREDUCE_MB,
         "note": f"{reduce_s * 1e3:.1f} ms per {ALLREDUCE_MB} MB call"},
    ]
