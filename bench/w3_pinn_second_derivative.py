"""W3: a second derivative by nested reverse mode, as a physics-informed network needs it.

u(x) is a 1-64-64-1 tanh MLP evaluated at 1024 points (x of shape (1024, 1)); d2u/dx2 at every
point is the gradient of the sum of the gradient of the sum of u (the points are independent).
The NumPy reference is the closed form, written by hand.
"""
from __future__ import annotations

import numpy as np

import cellgraph
from bench import timing
from bench.common import pinn_data
from cellgraph import Parameter, Tensor, nn, ops

WORKLOAD = "W3"
DESCRIPTION = "d2u/dx2 of a 1-64-64-1 tanh MLP at 1024 points, by nested grad of the sum"

POINTS, WIDTH = 1024, 64


def data(seed: int = 0):
    """(x, [w1, b1, w2, b2, w3, b3]) as float32 NumPy arrays."""
    return pinn_data(seed, (1, WIDTH, WIDTH, 1), POINTS)


class MLP(nn.Cell):
    """u(x) = tanh(tanh(x w1 + b1) w2 + b2) w3 + b3."""

    def __init__(self, weights):
        super().__init__()
        self.w1, self.b1, self.w2, self.b2, self.w3, self.b3 = (
            Parameter(Tensor(w), name=n)
            for w, n in zip(weights, ("w1", "b1", "w2", "b2", "w3", "b3")))

    def construct(self, x):
        h = ops.tanh(ops.matmul(x, self.w1) + self.b1)
        h = ops.tanh(ops.matmul(h, self.w2) + self.b2)
        return ops.matmul(h, self.w3) + self.b3


_net = None  # the MLP the functions below read (a global, as in a user's script)


def u_sum(x):
    return ops.reduce_sum(_net(x))


du_dx = cellgraph.grad(u_sum)


def du_sum(x):
    return ops.reduce_sum(du_dx(x))


d2u_dx2 = cellgraph.grad(du_sum)


def make_cellgraph():
    """(callable, args) for the compiled second derivative."""
    global _net
    cellgraph.set_context(mode=cellgraph.GRAPH_MODE)
    x, weights = data()
    _net = MLP(weights)
    return d2u_dx2, (Tensor(x),)


def numpy_d2u(x, w1, b1, w2, b2, w3, b3):
    """The closed form: forward, first and second derivative pushed through each layer."""
    h1 = np.tanh(x @ w1 + b1)
    s1 = 1 - h1 * h1
    dh1 = s1 * w1  # d h1 / dx (x has one feature)
    d2h1 = -2 * h1 * dh1 * w1
    h2 = np.tanh(h1 @ w2 + b2)
    s2 = 1 - h2 * h2
    dz2 = dh1 @ w2
    d2z2 = d2h1 @ w2
    d2h2 = s2 * (d2z2 - 2 * h2 * dz2 * dz2)
    return d2h2 @ w3


def make_jax():
    """`jax.jit` of nested `jax.grad`, the weights passed as arguments (as a training loop
    does: closed over, XLA would fold them in as constants and recompile for new ones)."""
    jax, jnp = timing.jax_numpy()
    if jax is None:
        return None
    x, weights = data()

    def u(x, params):
        w1, b1, w2, b2, w3, b3 = params
        h = jnp.tanh(x @ w1 + b1)
        h = jnp.tanh(h @ w2 + b2)
        return h @ w3 + b3

    du = jax.grad(lambda x, params: jnp.sum(u(x, params)))
    d2u = jax.jit(jax.grad(lambda x, params: jnp.sum(du(x, params))))
    x, params = jnp.asarray(x), [jnp.asarray(w) for w in weights]
    return lambda: timing.block(d2u(x, params))


def make_torch():
    torch = timing.optional("torch")
    if torch is None:
        return None
    x0, weights = data()
    w1, b1, w2, b2, w3, b3 = (timing.torch_array(torch, w) for w in weights)
    x0 = timing.torch_array(torch, x0)

    def d2u():
        x = x0.detach().requires_grad_()
        h = torch.tanh(x @ w1 + b1)
        h = torch.tanh(h @ w2 + b2)
        u = h @ w3 + b3
        (du,) = torch.autograd.grad(u.sum(), x, create_graph=True)
        (d2,) = torch.autograd.grad(du.sum(), x)
        return d2

    return d2u


def run(repeats: int) -> list[dict]:
    x, weights = data()
    expected = numpy_d2u(x, *weights)
    cells = {}
    for backend in ("numpy", "jax"):
        if backend not in timing.cellgraph_backends():
            continue
        call = timing.on_backend(backend, make_cellgraph)
        np.testing.assert_allclose(call().asnumpy(), expected, rtol=2e-4, atol=2e-5,
                                   err_msg=f"W3 on {backend}")
        cells[f"cellgraph {backend}"] = call  # apart from the peers' "jax" column
    times = timing.compare({**cells, "numpy_ref": lambda: numpy_d2u(x, *weights),
                     "jax": make_jax(), "torch": make_torch()}, repeats,
                    interleaved=("cellgraph numpy", "numpy_ref"))  # jax: a group of its own, as JAX
    peers = {"numpy_s": times["numpy_ref"], "jax_s": times["jax"], "torch_s": times["torch"],
             "torch_compile_s": times.get("torch_compile")}
    rows = [{"name": "d2u/dx2, 1024 points", "cellgraph_s": times["cellgraph numpy"], **peers,
             "target_ratio": 1.2}]
    if "cellgraph jax" in cells:
        rows.append(timing.peer_target({"name": "d2u/dx2, 1024 points [cellgraph jax]",
                                 "cellgraph_s": times["cellgraph jax"], **peers}, 0.9, ("jax",)))
    return rows
