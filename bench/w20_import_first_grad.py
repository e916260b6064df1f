"""W20: `import` plus a first gradient, each in a fresh interpreter: what a short script pays
before its first result. The clock starts after `import numpy` (every library needs it) and
stops when the gradient is computed: cellgraph's `grad` of `sum(tanh(x) * x)`, JAX's
`jax.jit(jax.grad(...))` of the same, and PyTorch's `backward()` of it."""
from __future__ import annotations

import subprocess
import sys

from bench.timing import median_of

WORKLOAD = "W20"
DESCRIPTION = "import plus a first gradient of sum(tanh(x) * x), fresh interpreter each"

_PROGRAMS = {
    "cellgraph": "import cellgraph as ms\nfrom cellgraph import ops\n"
                 "g = ms.grad(lambda x: ops.sum(ops.tanh(x) * x))"
                 "(ms.Tensor(np.ones(3, np.float32)))\ng.asnumpy()",
    "jax": "import jax\nimport jax.numpy as jnp\n"
           "jax.jit(jax.grad(lambda x: jnp.sum(jnp.tanh(x) * x)))"
           "(jnp.ones(3, jnp.float32)).block_until_ready()",
    "torch": "import torch\nx = torch.ones(3, requires_grad=True)\n"
             "(torch.tanh(x) * x).sum().backward()\nx.grad.numpy()",
}
_TIMED = "import numpy as np, time\nstart = time.perf_counter()\n{}\n" \
         "print(time.perf_counter() - start)"


def _sample(library: str) -> float | None:
    proc = subprocess.run([sys.executable, "-c", _TIMED.format(_PROGRAMS[library])],
                          check=False, capture_output=True, text=True)
    if proc.returncode != 0:
        if library == "cellgraph":
            raise RuntimeError(proc.stderr)
        return None  # the peer is not installed
    return float(proc.stdout.strip().splitlines()[-1])


def run(repeats: int) -> list[dict]:
    samples = max(3, min(repeats, 7))
    times: dict[str, list] = {name: [] for name in _PROGRAMS}
    for _ in range(samples):  # interleaved, so a slow spell of the machine hits every column
        for name in _PROGRAMS:
            times[name].append(_sample(name))
    med = {name: (median_of(ts) if all(t is not None for t in ts) else None)
           for name, ts in times.items()}
    row = {"name": "import + first grad", "cellgraph_s": med["cellgraph"], "numpy_s": None,
           "jax_s": med["jax"], "torch_s": med["torch"],
           "note": f"median of {samples} fresh interpreters; target <= 0.7x JAX (peer)"}
    if med["jax"] is not None:
        row["target_met"] = med["cellgraph"] <= 0.7 * med["jax"]
    return [row]
