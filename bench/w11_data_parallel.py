"""W11: data-parallel scaling on the CPU: the W2 MLP's training step on 1 and 2 processes, and
the all-reduce's cost per MB (Gloo over loopback).

Strong scaling keeps the global batch at 128 (64 per process on 2); weak scaling keeps 128 per
process. Each configuration is launched ROUNDS times, the configurations taking turns, and the
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
ROUNDS = 3  # launches of each configuration; the median is reported


def launch(nproc: int, *args) -> dict:
    """Run the worker on `nproc` processes; rank 0's JSON line."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
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
    configs = {"one": (1, "step", 128), "strong": (2, "step", 64), "weak": (2, "step", 128),
               "reduce": (2, "allreduce", ALLREDUCE_MB)}
    runs: dict = {name: [] for name in configs}
    for _ in range(ROUNDS):  # the configurations take turns, so a busy spell hits them alike
        for name, (nproc, *args) in configs.items():
            runs[name].append(launch(nproc, *args, steps, batches))
    one, strong, weak = (statistics.median(r["step_s"] for r in runs[n])
                         for n in ("one", "strong", "weak"))
    reduce_s, torch_s = (statistics.median(r[k] for r in runs["reduce"])
                         for k in ("cellgraph_s", "torch_s"))
    return [
        {"name": "train step, 1 process, batch 128", "cellgraph_s": one, "numpy_s": None},
        {"name": "train step, 2 processes x 64 (strong)", "cellgraph_s": strong,
         "numpy_s": None, "note": f"speedup {one / strong:.2f}x, efficiency "
                                  f"{one / strong / 2:.0%}"},
        {"name": "train step, 2 processes x 128 (weak)", "cellgraph_s": weak, "numpy_s": None,
         "note": f"efficiency {one / weak:.0%}"},
        {"name": f"all-reduce {ALLREDUCE_MB} MB f32, 2 processes, per MB",
         "cellgraph_s": reduce_s / ALLREDUCE_MB, "numpy_s": None,
         "torch_s": torch_s / ALLREDUCE_MB,
         "note": f"{reduce_s * 1e3:.1f} ms per {ALLREDUCE_MB} MB call"},
    ]
