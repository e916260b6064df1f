"""`python -m bench [--repeats N] [--only W1,W3] [--json FILE]`: run the workloads, print one table.

Workloads are the modules `bench/w*_*.py`, found by name; the contract they follow is in
bench/README.md. Times are medians; ratios are cellgraph's time over the other column's.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import sys
import time

COLUMNS = (("numpy_s", "NumPy"), ("jax_s", "JAX"), ("torch_s", "PyTorch"),
           ("torch_compile_s", "torch.compile"))


def limit_threads(threads: int) -> None:
    """Give every library the same number of threads, before any of them is imported.

    One thread by default: on a small shared machine, thread pools that wait for a descheduled
    sibling make multi-threaded timings swing by several times, and the comparison stays fair
    because cellgraph, NumPy, JAX and PyTorch all get the same.
    """
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(threads)
    if threads == 1:
        flags = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
        os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + flags).strip()


def full_float32() -> None:
    """The peers compute in float32 as cellgraph does (its GPU backends turn TF32 off, to give
    MindSpore's numbers): JAX's matrix products and convolutions at "highest" precision, and
    PyTorch's without TF32."""
    os.environ.setdefault("JAX_DEFAULT_MATMUL_PRECISION", "highest")
    try:
        import torch
    except ImportError:
        return
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False


def discover() -> list:
    """The workload modules, ordered by file name (w1_..., w2_..., ...)."""
    import bench

    names = sorted(m.name for m in pkgutil.iter_modules(bench.__path__)
                   if m.name[:1] == "w" and "_" in m.name and m.name[1:].split("_")[0].isdigit())
    names.sort(key=lambda n: (int(n[1:].split("_")[0]), n))
    return [importlib.import_module(f"bench.{n}") for n in names]


def fmt_time(seconds) -> str:
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def fmt_ratio(a, b) -> str:
    return f"{a / b:.2f}x" if a is not None and b else "-"


def verdict(row: dict) -> str:
    """'met' / 'MISSED' against the row's target, '' when it has none."""
    checks = []
    if row.get("target_ratio") is not None and row.get("numpy_s"):
        checks.append(row["cellgraph_s"] / row["numpy_s"] <= row["target_ratio"])
    if row.get("target_s") is not None:
        checks.append(row["cellgraph_s"] <= row["target_s"])
    if "target_met" in row:
        checks.append(bool(row["target_met"]))
    if not checks:
        return ""
    return "met" if all(checks) else "MISSED"


def target_text(row: dict) -> str:
    parts = []
    if row.get("target_ratio") is not None:
        parts.append(f"<={row['target_ratio']:g}x NumPy")
    if row.get("target_s") is not None:
        parts.append(f"<={fmt_time(row['target_s'])}")
    return ", ".join(parts)


def table(results: list[tuple], shown: list[tuple]) -> str:
    header = ["workload", "case", "cellgraph"]
    for _, label in shown:
        header += [label, f"vs {label}"]
    header += ["target", "", "note"]
    rows = [header]
    for workload, row in results:
        cells = [workload, row["name"], fmt_time(row["cellgraph_s"])]
        for key, _ in shown:
            cells += [fmt_time(row.get(key)), fmt_ratio(row["cellgraph_s"], row.get(key))]
        cells += [target_text(row), verdict(row), row.get("note", "")]
        rows.append(cells)
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--repeats", type=int, default=25,
                        help="timed batches per implementation (the median is reported)")
    parser.add_argument("--only", default="", help="comma-separated workloads, e.g. W1,W3")
    parser.add_argument("--json", default=None, help="also write the rows to this file")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time per call as wall time (default) or as the process's CPU "
                             "time, steadier on a machine busy with other work")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads for BLAS, OpenMP, XLA and PyTorch (default 1)")
    parser.add_argument("--device", choices=("CPU", "GPU"), default="CPU",
                        help="GPU: time cellgraph's torch_cuda, cupy and jax backends against JAX "
                             "and PyTorch (eager and torch.compile) on the GPU")
    args = parser.parse_args(argv)
    limit_threads(args.threads)
    if args.device == "GPU":
        os.environ["BENCH_DEVICE"] = "GPU"
        # JAX takes most of the GPU's memory at its first call unless told not to; PyTorch and
        # CuPy share the device in the same process
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
        full_float32()
    from bench.timing import set_clock

    set_clock(args.clock)
    only = {w.strip().upper() for w in args.only.split(",") if w.strip()}
    results = []
    for module in discover():
        if only and module.WORKLOAD.upper() not in only:
            continue
        print(f"{module.WORKLOAD}: {module.DESCRIPTION}", file=sys.stderr, flush=True)
        start = time.perf_counter()
        for row in module.run(args.repeats):
            results.append((module.WORKLOAD, row))
        print(f"    ({time.perf_counter() - start:.1f} s)", file=sys.stderr, flush=True)
    shown = [(k, label) for k, label in COLUMNS if any(r.get(k) is not None for _, r in results)]
    print(table(results, shown))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([dict(workload=w, **r) for w, r in results], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
