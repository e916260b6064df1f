"""W21: fused elementwise kernels (the `numba` extra) against the same graph unfused.

The gradient of an elementwise-heavy function, `sum(u / (1 + u^2) * x - 0.5 u^2 w)` with
`u = x w + 0.25`, w.r.t. x: after AD and the optimiser some fifteen elementwise nodes, which the
numpy backend runs as fused kernels where numba is installed. Timed at 64x64 (where the
per-call cost of each NumPy call dominates) and 1024x1024 (where each node's pass over memory
does), each against the same graph bound unfused in the same run and the gradient written by
hand in NumPy. The last rows are numba's compile time for this graph's kernels in a fresh
process, with an empty kernel cache and with the cache the first process wrote.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from bench.timing import compare, median_of

WORKLOAD = "W21"
DESCRIPTION = "fused elementwise kernels (numba) vs the same graph unfused and hand NumPy"

SIZES = ((64, 64), (1024, 1024))


def numpy_grad(x, w):
    u = x * w + np.float32(0.25)
    s = u * u
    d = 1 + s
    return (1 - s) / (d * d) * w * x + u / d - u * w * w


def make_cellgraph(fused: bool, args: tuple):
    """The jitted gradient, called once on `args` with fusion on or off (fusion happens when
    a graph is bound, at its first call)."""
    import cellgraph as ms
    from cellgraph import ops
    from cellgraph.runtime import fused_kernels

    def f(x, w):
        u = x * w + 0.25
        return ops.sum(u / (1 + u * u) * x - 0.5 * u * u * w)

    fn = ms.jit(ms.grad(f))
    fused_kernels.ENABLED = fused
    try:
        fn(*args)
    finally:
        fused_kernels.ENABLED = True
    return fn


def _data(shape):
    rng = np.random.default_rng(0)
    return (rng.standard_normal(shape).astype(np.float32),
            rng.standard_normal(shape).astype(np.float32))


def child(cache_dir: str) -> dict:
    """In a fresh interpreter: seconds to compile (or load) the kernels of the 64x64 graph."""
    os.environ["CELLGRAPH_CACHE_DIR"] = cache_dir
    from cellgraph import Tensor
    from cellgraph.runtime import fused_kernels

    fused_kernels.COMPILE_AFTER = 0
    x, w = (Tensor(a) for a in _data(SIZES[0]))
    start = time.perf_counter()
    make_cellgraph(True, (x, w))
    first = time.perf_counter() - start
    return {"first": first, "kernel_s": fused_kernels.STATS["compile_s"],
            "kernels": fused_kernels.STATS["kernels"]}


def _compile_rows(samples: int) -> list[dict]:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cold, warm = [], []
    for _ in range(samples):
        with tempfile.TemporaryDirectory() as cache:
            for into in (cold, warm):
                proc = subprocess.run([sys.executable, "-m", "bench.w21_fused_elementwise",
                                       "child", cache], cwd=root, capture_output=True,
                                      text=True, check=True)
                into.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    rows = []
    for label, results in (("empty kernel cache", cold), ("kernels on disk", warm)):
        rows.append({"name": f"kernel compile, {label}",
                     "cellgraph_s": median_of([r["kernel_s"] for r in results]),
                     "numpy_s": None,
                     "note": f"{results[0]['kernels']} kernel(s), numba's import included; "
                             f"first call {median_of([r['first'] for r in results]) * 1e3:.0f}"
                             f" ms; median of {samples} processes"})
    return rows


def _timed_row(shape, repeats: int) -> dict:
    from cellgraph import Tensor
    from cellgraph.runtime import fused_kernels

    a, b = _data(shape)
    x, w = Tensor(a), Tensor(b)
    fused, plain = make_cellgraph(True, (x, w)), make_cellgraph(False, (x, w))
    for _ in range(fused_kernels.COMPILE_AFTER + 1):  # past the unfused first calls
        fused(x, w)
    expected = numpy_grad(a, b)
    for fn in (fused, plain):
        np.testing.assert_allclose(fn(x, w).asnumpy(), expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(fused(x, w).asnumpy(), plain(x, w).asnumpy())
    times = compare({"cellgraph": lambda: fused(x, w), "numpy": lambda: numpy_grad(a, b),
                     "unfused": lambda: plain(x, w)}, repeats,
                    interleaved=("cellgraph", "numpy", "unfused"))
    return {"name": f"grad, {shape[0]}x{shape[1]}, fused", "cellgraph_s": times["cellgraph"],
            "numpy_s": times["numpy"],
            "note": f"unfused (no numba) {times['unfused'] * 1e6:.1f} us: fused "
                    f"{times['cellgraph'] / times['unfused']:.2f}x of it"}


def run(repeats: int) -> list[dict]:
    from cellgraph.runtime import fused_kernels

    if not fused_kernels.available():
        return [{"name": "numba not installed", "cellgraph_s": None, "numpy_s": None,
                 "note": "pip install 'cellgraph[numba]'"}]
    rows = [_timed_row(shape, repeats) for shape in SIZES]
    return rows + _compile_rows(max(1, min(repeats // 10, 3)))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "child":
        print(json.dumps(child(sys.argv[2])))
    else:
        print("usage: python -m bench.w21_fused_elementwise child CACHE_DIR", file=sys.stderr)
        sys.exit(2)
