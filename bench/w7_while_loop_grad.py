"""W7: reverse mode through a Tensor `while` loop, n = 10 .. 10,000 trips.

The loop body `x = sin(x) * w + 0.5 * x` on 64-wide float32 vectors, the trip count a Tensor,
differentiated w.r.t. x and w. The hand NumPy version records every state in a preallocated
array and walks it back; JAX runs `lax.fori_loop` (a scan, as its bounds are static) under
`jax.grad`, jitted; PyTorch runs the Python loop eagerly under autograd. The gradient must grow
linearly with n (the last row: the exponent between n = 100 and 10,000) and stay within 3x of
hand NumPy at n = 1000.
"""
from __future__ import annotations

import math

import numpy as np

import cellgraph
from bench import timing
from bench.timing import block, compare, jax_numpy, optional
from cellgraph import nn, ops

WORKLOAD = "W7"
DESCRIPTION = "grad through a Tensor while loop, x = sin(x)*w + 0.5*x, 64 wide, n = 10..10,000"

TRIPS = (10, 100, 1000, 10_000)
WIDTH = 64
RATIO_AT_1000 = 3.0  # target: at most this times hand NumPy at n = 1000
MAX_EXPONENT = 1.1  # target: time ~ n^e with e at most this between n = 100 and 10,000


def data(seed: int = 0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(WIDTH).astype(np.float32),
            rng.standard_normal(WIDTH).astype(np.float32))


def numpy_grad(x, w, n: int):
    """d sum(x_n) / d(x, w), keeping the states in one preallocated array."""
    states = np.empty((n, x.size), x.dtype)
    for k in range(n):
        states[k] = x
        x = np.sin(x) * w + 0.5 * x
    dx, dw = np.ones_like(x), np.zeros_like(w)
    for k in range(n - 1, -1, -1):
        s = states[k]
        dw += dx * np.sin(s)
        dx = dx * (np.cos(s) * w + 0.5)
    return dx, dw


class SinLoop(nn.Cell):
    """sum(x_n) after n trips of the body; n is a Tensor, so the loop is a real loop."""

    def construct(self, x, w, n):
        i = 0
        while i < n:
            x = ops.sin(x) * w + 0.5 * x
            i = i + 1
        return x.sum()


def make_cellgraph():
    cellgraph.set_context(mode=cellgraph.GRAPH_MODE, device_target="CPU")
    return cellgraph.grad(SinLoop(), grad_position=(0, 1))


def make_jax(x, w, n: int):
    jax, jnp = jax_numpy()
    if jax is None:
        return None

    def loss(x, w):
        x = jax.lax.fori_loop(0, n, lambda i, v: jnp.sin(v) * w + 0.5 * v, x)
        return jnp.sum(x)

    fn = jax.jit(jax.grad(loss, argnums=(0, 1)))
    xj, wj = jnp.asarray(x), jnp.asarray(w)
    return lambda: block(fn(xj, wj))


def make_torch(x, w, n: int):
    torch = optional("torch")
    if torch is None:
        return None
    x0, w0 = torch.from_numpy(x), torch.from_numpy(w)

    def step():
        xv, wv = x0.detach().requires_grad_(), w0.detach().requires_grad_()
        v = xv
        for _ in range(n):
            v = torch.sin(v) * wv + 0.5 * v
        return torch.autograd.grad(v.sum(), (xv, wv))

    return step


def _build(n: int):
    """(the gradient, its arguments) on the backend selected now."""
    from cellgraph import Tensor

    x, w = data()
    return make_cellgraph(), (Tensor(x), Tensor(w), Tensor(np.array(n, np.int64)))


def run(repeats: int) -> list[dict]:
    from cellgraph import Tensor

    x, w = data()
    xt, wt = Tensor(x), Tensor(w)
    grad = make_cellgraph()
    rows, times = [], {}
    for n in TRIPS:
        nt = Tensor(np.array(n, np.int64))
        got = grad(xt, wt, nt)
        want = numpy_grad(x, w, n)
        for g, r in zip(got, want):
            np.testing.assert_allclose(g.asnumpy(), r, rtol=1e-4, atol=1e-5)
        others = {}  # the other backends (jax: the loop and its tape in one XLA program)
        for backend in timing.cellgraph_backends():
            if backend != "numpy":
                call = timing.on_backend(backend, lambda n=n: _build(n))
                for g, r in zip(call(), want):
                    np.testing.assert_allclose(np.asarray(g.asnumpy()), r, rtol=1e-4, atol=1e-5,
                                               err_msg=f"W7 n={n} on {backend}")
                others[f"cellgraph {backend}"] = call
        result = compare({"cellgraph": lambda nt=nt: grad(xt, wt, nt),
                          "numpy": lambda n=n: numpy_grad(x, w, n),
                          "jax": make_jax(x, w, n), "torch": make_torch(x, w, n), **others},
                         max(3, repeats // max(1, n // 1000)),
                         interleaved=("cellgraph", "numpy"))
        times[n] = result["cellgraph"]
        row = {"name": f"while grad, n={n}", "cellgraph_s": result["cellgraph"],
               "numpy_s": result["numpy"], "jax_s": result["jax"], "torch_s": result["torch"],
               "note": f"{result['cellgraph'] / n * 1e6:.1f} us per trip"}
        if n == 1000:
            row["target_ratio"] = RATIO_AT_1000
        rows.append(row)
        for name in others:
            other = {"name": f"while grad, n={n} [{name}]", "cellgraph_s": result[name],
                     "numpy_s": result["numpy"], "jax_s": result["jax"],
                     "torch_s": result["torch"]}
            rows.append(timing.peer_target(other, 1.0, ("jax",)) if name == "cellgraph jax"
                        else other)
    exponent = math.log(times[10_000] / times[100]) / math.log(100)
    rows.append({"name": "growth n=100 -> 10,000", "cellgraph_s": times[10_000],
                 "numpy_s": None, "target_met": exponent <= MAX_EXPONENT,
                 "note": f"time ~ n^{exponent:.3f} (target exponent <= {MAX_EXPONENT})"})
    return rows
