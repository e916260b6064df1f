"""W16: second and fourth derivatives of a deeper MLP, as physics-informed networks need them.

u(x) is a 1-64-64-64-1 tanh MLP at 4096 points (x of shape (4096, 1)); the n-th derivative at
every point is n nested `cellgraph.grad`s of the sum (the points are independent). The NumPy
reference pushes a truncated Taylor series (the value and its first n derivatives) through each
layer by hand: linear layers act on every coefficient, tanh by Faa di Bruno's formula.

One row per cellgraph backend (numpy, torch, jax when installed); the JAX and PyTorch columns
are their own nested gradients (`jax.jit` of nested `jax.grad`; `torch.autograd.grad` with
`create_graph`), timed in the same run.
"""
from __future__ import annotations

import numpy as np

import cellgraph
from bench import timing
from bench.common import pinn_data
from cellgraph import Parameter, Tensor, nn, ops

WORKLOAD = "W16"
DESCRIPTION = "d2u/dx2 and d4u/dx4 of a 1-64-64-64-1 tanh MLP at 4096 points, nested grad"

POINTS, WIDTH, DEPTH = 4096, 64, 3
ORDERS = (2, 4)


def data(seed: int = 0):
    """(x, [w1, b1, ..., w4, b4]) as float32 NumPy arrays."""
    return pinn_data(seed, (1,) + (WIDTH,) * DEPTH + (1,), POINTS)


class MLP(nn.Cell):
    """u(x): tanh hidden layers, a linear output."""

    def __init__(self, weights):
        super().__init__()
        for i, (w, b) in enumerate(zip(weights[::2], weights[1::2])):
            setattr(self, f"w{i}", Parameter(Tensor(w), name=f"w{i}"))
            setattr(self, f"b{i}", Parameter(Tensor(b), name=f"b{i}"))

    def construct(self, x):
        h = ops.tanh(ops.matmul(x, self.w0) + self.b0)
        h = ops.tanh(ops.matmul(h, self.w1) + self.b1)
        h = ops.tanh(ops.matmul(h, self.w2) + self.b2)
        return ops.matmul(h, self.w3) + self.b3


def nested_grad(net, order: int):
    """d^order u / dx^order at every point, as `order` nested grads of sums."""
    fn = net
    for _ in range(order):
        fn = cellgraph.grad(_summed(fn))
    return fn


def _summed(fn):
    def total(x):
        return ops.reduce_sum(fn(x))
    return total


def make_cellgraph(order: int = 2):
    """(callable, args) for the compiled derivative on the current backend."""
    x, weights = data()
    return nested_grad(MLP(weights), order), (Tensor(x),)


# ----- the NumPy reference: Taylor coefficients through each layer ------------------------------

def _tanh_derivatives(t, order: int) -> list:
    """d^k tanh / dz^k for k = 1..order, written in t = tanh(z)."""
    f1 = 1 - t * t
    ds = [f1]
    if order >= 2:
        ds.append(-2 * t * f1)
    if order >= 3:
        ds.append(-2 * f1 * f1 - 2 * t * ds[1])
    if order >= 4:
        ds.append(-6 * f1 * ds[1] - 2 * t * ds[2])
    return ds


def _compose(fs, zs) -> list:
    """Derivatives 1..4 of f(z(x)) from f's derivatives `fs` and z's `zs` (Faa di Bruno)."""
    z1 = zs[0]
    z1_sq = z1 * z1  # products, not `**`: NumPy's float32 power is several times slower
    out = [fs[0] * z1]
    if len(zs) >= 2:
        out.append(fs[1] * z1_sq + fs[0] * zs[1])
    if len(zs) >= 3:
        out.append(fs[2] * z1_sq * z1 + 3 * fs[1] * z1 * zs[1] + fs[0] * zs[2])
    if len(zs) >= 4:
        out.append(fs[3] * z1_sq * z1_sq + 6 * fs[2] * z1_sq * zs[1]
                   + fs[1] * (3 * zs[1] * zs[1] + 4 * z1 * zs[2]) + fs[0] * zs[3])
    return out


def numpy_derivative(x, weights, order: int):
    """d^order u / dx^order by hand (x has one feature: dx/dx = 1, higher ones 0)."""
    h = x
    dh = [np.ones_like(x)] + [np.zeros_like(x)] * (order - 1)
    pairs = list(zip(weights[::2], weights[1::2]))
    for w, b in pairs[:-1]:
        z, dz = h @ w + b, [d @ w for d in dh]
        h = np.tanh(z)
        dh = _compose(_tanh_derivatives(h, order), dz)
    return dh[order - 1] @ pairs[-1][0]


# ----- peers ------------------------------------------------------------------------------------

def make_jax(order: int = 2):
    """`jax.jit` of nested `jax.grad`, the weights passed as arguments (see W3)."""
    jax, jnp = timing.jax_numpy()
    if jax is None:
        return None
    x, weights = data()

    def u(x, params):
        h = x
        for w, b in zip(params[:-2:2], params[1:-2:2]):
            h = jnp.tanh(h @ w + b)
        return h @ params[-2] + params[-1]

    fn = u
    for _ in range(order):
        fn = jax.grad(lambda x, params, f=fn: jnp.sum(f(x, params)))
    compiled = jax.jit(fn)
    x, params = jnp.asarray(x), [jnp.asarray(w) for w in weights]
    return lambda: timing.block(compiled(x, params))


def make_torch(order: int = 2):
    torch = timing.optional("torch")
    if torch is None:
        return None
    x0, weights = data()
    params = [timing.torch_array(torch, w) for w in weights]
    x0 = timing.torch_array(torch, x0)

    def derivative():
        x = x0.detach().requires_grad_()
        h = x
        for w, b in zip(params[:-2:2], params[1:-2:2]):
            h = torch.tanh(h @ w + b)
        out = h @ params[-2] + params[-1]
        for k in range(order):
            (out,) = torch.autograd.grad(out.sum(), x, create_graph=k < order - 1)
        return out

    return derivative


def run(repeats: int) -> list[dict]:
    rows = []
    x, weights = data()
    for order in ORDERS:
        expected = numpy_derivative(x.astype(np.float64), [w.astype(np.float64)
                                                          for w in weights], order)
        cells = {}
        for backend in timing.cellgraph_backends():
            call = timing.on_backend(backend, lambda o=order: make_cellgraph(o))
            out = call()
            np.testing.assert_allclose(np.asarray(out.asnumpy(), np.float64), expected,
                                       rtol=2e-3, atol=2e-3 * np.abs(expected).max(),
                                       err_msg=f"W16 order {order} on {backend}")
            cells[f"cellgraph {backend}"] = call
        # the NumPy backend alternates with its NumPy reference; the torch and jax backends run
        # in groups of their own, as their peers do (thread pools, caches left warm or cold)
        times = timing.compare({**cells, "numpy": lambda o=order: numpy_derivative(x, weights, o),
                         "jax": make_jax(order), "torch": make_torch(order)}, repeats,
                        interleaved=("cellgraph numpy", "numpy"))
        for name in cells:
            row = {"name": f"d{order}u/dx{order}, {POINTS} points [{name}]",
                   "cellgraph_s": times[name], "numpy_s": times["numpy"], "jax_s": times["jax"],
                   "torch_s": times["torch"],
                   "torch_compile_s": times.get("torch_compile")}
            rows.append(timing.peer_target(row, 0.9, ("jax",)) if name == "cellgraph jax" else row)
    cellgraph.set_context(mode=cellgraph.GRAPH_MODE, device_target="CPU")
    return rows
