"""W19: per-example gradients by `vmap` of `grad`, as differential privacy and influence
functions need them.

A 64-128-128-10 ReLU MLP with softmax cross-entropy (one-hot labels); the gradient of one
example's loss w.r.t. all six weights and biases, for each of 256 examples:
`cellgraph.vmap(cellgraph.grad(loss, grad_position=(0, ..., 5)), in_axes=(None,) * 6 + (0, 0))`.
The NumPy reference is the closed form with per-example outer products (`einsum`); the peers
are `jax.jit(jax.vmap(jax.grad(...)))` and `torch.func.vmap(torch.func.grad(...))`.
"""
from __future__ import annotations

import numpy as np

import cellgraph
from bench import timing
from bench.common import classification_data, jax_mlp_logits, numpy_mlp_backward
from cellgraph import Tensor, ops

WORKLOAD = "W19"
DESCRIPTION = "per-example grads of a 64-128-128-10 MLP, batch 256, by vmap of grad"

SIZES, BATCH = (64, 128, 128, 10), 256


def data():
    """(x, one-hot labels, the six weights and biases), as W2 makes them for its own sizes."""
    return classification_data(0, SIZES, BATCH)


def loss(w1, b1, w2, b2, w3, b3, x, label):
    """One example's cross-entropy: x of shape (64,), label one-hot (10,)."""
    h = ops.relu(ops.matmul(ops.expand_dims(x, 0), w1) + b1)
    h = ops.relu(ops.matmul(h, w2) + b2)
    log_p = ops.log_softmax(ops.matmul(h, w3) + b3, -1)
    return -ops.reduce_sum(ops.expand_dims(label, 0) * log_p)


def make_cellgraph():
    x, onehot, weights = data()
    per_example = cellgraph.vmap(cellgraph.grad(loss, grad_position=tuple(range(6))),
                                 in_axes=(None,) * 6 + (0, 0))
    return per_example, tuple(Tensor(w) for w in weights) + (Tensor(x), Tensor(onehot))


def numpy_per_example(x, onehot, *weights):
    (x, h1, h2), (d1, d2, d3) = numpy_mlp_backward(x, onehot, *weights)
    outer = "bi,bj->bij"
    return (np.einsum(outer, x, d1), d1, np.einsum(outer, h1, d2), d2, np.einsum(outer, h2, d3),
            d3)


def make_jax():
    jax, jnp = timing.jax_numpy()
    if jax is None:
        return None
    x, onehot, weights = data()

    def example_loss(params, x, label):
        return -jnp.sum(label * jax.nn.log_softmax(jax_mlp_logits(jax, params, x)))

    grads = jax.jit(jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0)))
    params = [jnp.asarray(w) for w in weights]
    x, onehot = jnp.asarray(x), jnp.asarray(onehot)
    return lambda: timing.block(grads(params, x, onehot))


def make_torch():
    torch = timing.optional("torch")
    if torch is None:
        return None
    from torch.func import grad, vmap

    x, onehot, weights = data()
    params = tuple(timing.torch_array(torch, w) for w in weights)
    x, onehot = timing.torch_array(torch, x), timing.torch_array(torch, onehot)

    def example_loss(params, x, label):
        w1, b1, w2, b2, w3, b3 = params
        h = torch.relu(x @ w1 + b1)
        h = torch.relu(h @ w2 + b2)
        return -(label * torch.log_softmax(h @ w3 + b3, -1)).sum()

    grads = vmap(grad(example_loss), in_dims=(None, 0, 0))
    return lambda: grads(params, x, onehot)


def run(repeats: int) -> list[dict]:
    x, onehot, weights = data()
    expected = numpy_per_example(x, onehot, *weights)
    cells = {}
    for backend in timing.cellgraph_backends():
        call = timing.on_backend(backend, make_cellgraph)
        for got, want in zip(call(), expected):
            np.testing.assert_allclose(got.asnumpy().reshape(want.shape), want, rtol=2e-4,
                                       atol=2e-5, err_msg=f"W19 on {backend}")
        cells[f"cellgraph {backend}"] = call
    times = timing.compare({**cells, "numpy": lambda: numpy_per_example(x, onehot, *weights),
                     "jax": make_jax(), "torch": make_torch()}, repeats,
                    interleaved=(*cells, "numpy"))
    cellgraph.set_context(mode=cellgraph.GRAPH_MODE, device_target="CPU")
    rows = [{"name": f"per-example grads, batch {BATCH} [{name}]", "cellgraph_s": times[name],
             "numpy_s": times["numpy"], "jax_s": times["jax"], "torch_s": times["torch"],
             "torch_compile_s": times.get("torch_compile")}
            for name in cells]
    return [timing.peer_target(row, 1.0, ("torch",)) if "torch]" in row["name"] else row
            for row in rows]
