"""W4: the Jacobian of tanh(A @ x), 256 -> 256, by jacrev and by jacfwd.

Both are one batched pass over a standard basis (vmap of the VJP, vmap of the JVP), against
the closed form (1 - tanh(A x)^2)[:, None] * A in NumPy. The basis stays symbolic through the
linear steps, so the batched pass is a scaled copy of A, as the closed form is, not a 256^3
product with an identity matrix. `python -m bench.w4_jacobian` runs it alone.
"""
from __future__ import annotations

import functools

import numpy as np

from bench.timing import block, compare, jax_numpy, optional

WORKLOAD = "W4"
DESCRIPTION = "Jacobian of tanh(A @ x), 256 -> 256, jacrev and jacfwd vs the closed form"
N = 256
TARGET_RATIO = 5.0


def data():
    rng = np.random.default_rng(4)
    a = (rng.standard_normal((N, N)) / np.sqrt(N)).astype(np.float32)
    x = rng.standard_normal(N).astype(np.float32)
    return a, x


def closed_form(a, x):
    t = np.tanh(a @ x)
    return (1 - t * t)[:, None] * a


def make_cellgraph(kind: str):
    """(callable, args): the compiled Jacobian, as a user would write it."""
    import cellgraph
    from cellgraph import Tensor, ops

    cellgraph.set_context(mode=cellgraph.GRAPH_MODE, device_target="CPU")
    a, x = data()
    a_t = Tensor(a)

    def f(x):
        return ops.tanh(ops.matmul(a_t, x))

    return getattr(ops, kind)(f), (Tensor(x),)


def make_jax(kind: str):
    jax, jnp = jax_numpy()
    if jax is None:
        return None
    a, x = data()
    a, x = jnp.asarray(a), jnp.asarray(x)
    jac = jax.jit(getattr(jax, kind)(lambda x: jnp.tanh(a @ x)))
    return lambda: block(jac(x))


def make_torch(kind: str):
    torch = optional("torch")
    if torch is None:
        return None
    a, x = data()
    a, x = torch.from_numpy(a), torch.from_numpy(x)
    jac = getattr(torch.func, kind)(lambda x: torch.tanh(a @ x))
    return lambda: jac(x)


def run(repeats: int) -> list[dict]:
    a, x = data()
    expected = closed_form(a, x)
    rows = []
    for kind in ("jacrev", "jacfwd"):
        jac, args = make_cellgraph(kind)
        np.testing.assert_allclose(jac(*args).asnumpy(), expected, rtol=1e-5, atol=1e-6)
        times = compare({"cellgraph": functools.partial(jac, *args),
                         "numpy": functools.partial(closed_form, a, x),
                         "jax": make_jax(kind), "torch": make_torch(kind)}, repeats)
        rows.append({"name": f"{kind}, {N}x{N}", "cellgraph_s": times["cellgraph"],
                     "numpy_s": times["numpy"], "jax_s": times["jax"],
                     "torch_s": times["torch"], "target_ratio": TARGET_RATIO,
                     "note": "NumPy column: the closed form (1 - tanh^2)[:, None] * A"})
    return rows


if __name__ == "__main__":
    for row in run(repeats=15):
        ratio = row["cellgraph_s"] / row["numpy_s"]
        print(f"{WORKLOAD} {row['name']:<16} cellgraph {row['cellgraph_s'] * 1e6:8.1f} us   "
              f"closed form {row['numpy_s'] * 1e6:8.1f} us   ratio {ratio:.2f}x "
              f"(target <= {TARGET_RATIO:g}x)")
