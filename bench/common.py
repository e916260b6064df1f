"""What several workloads build the same way: MLP weights, the check of a training step."""
from __future__ import annotations

import itertools

import numpy as np


def mlp_weights(rng: np.random.Generator, sizes: tuple) -> list:
    """[w1, b1, w2, b2, ...] as float32 arrays: w of shape (fan_in, fan_out) scaled by
    1/sqrt(fan_in), b small."""
    weights = []
    for fan_in, fan_out in itertools.pairwise(sizes):
        weights.append((rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in))
                       .astype(np.float32))
        weights.append((0.1 * rng.standard_normal(fan_out)).astype(np.float32))
    return weights


def check_step(label: str, step, args, net, peer) -> None:
    """One cellgraph training step against one PyTorch step from the same weights: the loss
    and every Parameter after the update. `peer`: (torch step, its params by name) or None
    (PyTorch absent: nothing to check against)."""
    if peer is None:
        return
    torch_step, torch_params = peer
    want = float(torch_step().detach())
    got = float(step(*args).asnumpy())
    np.testing.assert_allclose(got, want, rtol=1e-4, err_msg=f"{label}: loss")
    for p in net.trainable_params():
        np.testing.assert_allclose(p.asnumpy(), torch_params[p.name].detach().cpu().numpy(),
                                   rtol=1e-3, atol=1e-5, err_msg=f"{label}: {p.name} after a step")


def classification_data(seed: int, sizes: tuple, batch: int):
    """(x, one-hot labels, MLP weights for `sizes`) as float32 arrays, from one seed."""
    rng = np.random.default_rng(seed)
    weights = mlp_weights(rng, sizes)
    x = rng.standard_normal((batch, sizes[0])).astype(np.float32)
    onehot = np.eye(sizes[-1], dtype=np.float32)[rng.integers(0, sizes[-1], batch)]
    return x, onehot, weights


def jax_momentum_step(jax, loss_fn, weights: dict, inputs: tuple, lr: float, momentum: float):
    """A call running one `jax.jit` training step (value_and_grad of `loss_fn(params, *inputs)`,
    MindSpore's Momentum update, parameters and moments donated) and waiting for the loss."""
    jnp = jax.numpy

    def step(params, moments, *inputs):
        loss, grads = jax.value_and_grad(loss_fn)(params, *inputs)
        moments = jax.tree.map(lambda v, g: momentum * v + g, moments, grads)
        params = jax.tree.map(lambda w, v: w - lr * v, params, moments)
        return params, moments, loss

    compiled = jax.jit(step, donate_argnums=(0, 1))
    state = {"params": {k: jnp.asarray(v) for k, v in weights.items()}}
    state["moments"] = jax.tree.map(jnp.zeros_like, state["params"])
    inputs = tuple(jnp.asarray(a) for a in inputs)

    def run():
        state["params"], state["moments"], loss = compiled(state["params"], state["moments"],
                                                           *inputs)
        return loss.block_until_ready()

    return run


def pinn_data(seed: int, sizes: tuple, points: int):
    """(x of shape (points, 1) evenly spaced on [-2, 2], MLP weights for `sizes`) as float32."""
    weights = mlp_weights(np.random.default_rng(seed), sizes)
    return np.linspace(-2, 2, points, dtype=np.float32).reshape(points, 1), weights


def jax_mlp_logits(jax, params, x):
    """The logits of W2's and W19's two-hidden-layer ReLU MLP, in JAX."""
    w1, b1, w2, b2, w3, b3 = params
    h = jax.nn.relu(x @ w1 + b1)
    h = jax.nn.relu(h @ w2 + b2)
    return h @ w3 + b3


def numpy_mlp_backward(x, onehot, w1, b1, w2, b2, w3, b3, scale=None):
    """W2's and W19's ReLU MLP by hand in NumPy: the activations (x, h1, h2) and the gradients
    of each example's softmax cross-entropy (times `scale`) w.r.t. the three pre-activations."""
    z1 = x @ w1 + b1
    h1 = np.maximum(z1, 0)
    z2 = h1 @ w2 + b2
    h2 = np.maximum(z2, 0)
    logits = h2 @ w3 + b3
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    d3 = e / e.sum(axis=1, keepdims=True) - onehot
    if scale is not None:
        d3 = d3 * scale
    d2 = (d3 @ w3.T) * (z2 > 0)
    d1 = (d2 @ w2.T) * (z1 > 0)
    return (x, h1, h2), (d1, d2, d3)
