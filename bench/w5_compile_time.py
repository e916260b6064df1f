"""W5: cold compile time of the W2 and W3 gradients, and of W3 and W16 on the jax backend.

Each sample is a fresh interpreter (`python -m bench.w5_compile_time child MODULE BACKEND
KWARGS`) that builds the workload on cellgraph backend BACKEND, times the first call (parse, AD,
optimise, codegen or XLA lowering, and one run) and the steady call, and prints both; the
compile time is their difference. With JAX installed, the same is measured for `jax.jit` of the
same program: on the jax backend both columns include XLA's compilation, so the difference is
what cellgraph's front end and optimiser cost against JAX's tracing.
"""
from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import time

from bench.timing import cellgraph_backends, median_of

WORKLOAD = "W5"
DESCRIPTION = "cold compile time of W2 and W3 (first call minus steady call, fresh process)"

# (label, workload module, cellgraph backend, make_* keyword arguments, target seconds or None)
CASES = (("W2 MLP grad", "bench.w2_mlp_grad", "numpy", {}, 0.100),
         ("W3 d2u/dx2", "bench.w3_pinn_second_derivative", "numpy", {}, 0.150),
         ("W3 d2u/dx2 [jax backend]", "bench.w3_pinn_second_derivative", "jax", {}, None),
         ("W16 d4u/dx4 [jax backend]", "bench.w16_pinn_higher_order", "jax", {"order": 4}, None))
STEADY_CALLS = 15


def _first_and_steady(fn) -> dict:
    start = time.perf_counter()
    fn()
    first = time.perf_counter() - start
    steady = []
    for _ in range(STEADY_CALLS):
        start = time.perf_counter()
        fn()
        steady.append(time.perf_counter() - start)
    return {"first": first, "steady": median_of(steady)}


def child(module_name: str, backend: str = "numpy", kwargs: str = "{}") -> dict:
    """Runs in the fresh interpreter: first and steady call times of cellgraph (and JAX)."""
    from bench.timing import block
    from cellgraph.runtime.backend import set_backend

    module = importlib.import_module(module_name)
    kwargs = json.loads(kwargs)
    set_backend(backend)
    fn, args = module.make_cellgraph(**kwargs)[:2]
    out = {"cellgraph": _first_and_steady(lambda: block(fn(*args)))}
    jax_fn = module.make_jax(**kwargs)
    if jax_fn is not None:
        out["jax"] = _first_and_steady(jax_fn)
    return out


def _sample(module_name: str, backend: str, kwargs: dict) -> dict:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.run([sys.executable, "-m", "bench.w5_compile_time", "child", module_name,
                           backend, json.dumps(kwargs)],
                          cwd=root, capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run(repeats: int) -> list[dict]:
    rows = []
    samples = max(3, min(repeats, 7))
    for name, module_name, backend, kwargs, target in CASES:
        if backend not in cellgraph_backends():
            continue
        results = [_sample(module_name, backend, kwargs) for _ in range(samples)]
        compile_s = median_of([r["cellgraph"]["first"] - r["cellgraph"]["steady"]
                               for r in results])
        first = median_of([r["cellgraph"]["first"] for r in results])
        jax_s = (median_of([r["jax"]["first"] - r["jax"]["steady"] for r in results])
                 if all("jax" in r for r in results) else None)
        rows.append({"name": f"compile {name}", "cellgraph_s": compile_s, "numpy_s": None,
                     "jax_s": jax_s, "target_s": target,
                     "note": f"first call {first * 1e3:.0f} ms; median of {samples} processes"})
    return rows


if __name__ == "__main__":
    if len(sys.argv) in (3, 5) and sys.argv[1] == "child":
        print(json.dumps(child(*sys.argv[2:])))
    else:
        print("usage: python -m bench.w5_compile_time child MODULE [BACKEND KWARGS]",
              file=sys.stderr)
        sys.exit(2)
