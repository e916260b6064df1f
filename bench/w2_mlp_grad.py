"""W2: a training-step gradient, where the matrix products dominate.

A 784-512-512-10 ReLU MLP with softmax cross-entropy (log_softmax, one-hot float labels, mean
over the batch of 128), float32, differentiated w.r.t. all weights and biases (Parameters).
"""
from __future__ import annotations

import numpy as np

from bench.common import classification_data, jax_mlp_logits, numpy_mlp_backward
from bench.timing import block, compare, jax_numpy, optional

WORKLOAD = "W2"
DESCRIPTION = "784-512-512-10 ReLU MLP, softmax cross-entropy, batch 128: grad w.r.t. weights"

SIZES = (784, 512, 512, 10)
BATCH = 128


def data(seed: int = 0):
    """(x, one-hot labels, [w1, b1, w2, b2, w3, b3]) as float32 NumPy arrays."""
    return classification_data(seed, SIZES, BATCH)


def make_net(weights):
    """The MLP as a Cell of (x, one-hot labels) -> loss, its Parameters set to `weights`."""
    from cellgraph import Parameter, Tensor, nn, ops

    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w1, self.b1, self.w2, self.b2, self.w3, self.b3 = (
                Parameter(Tensor(w), name=n)
                for w, n in zip(weights, ("w1", "b1", "w2", "b2", "w3", "b3")))

        def construct(self, x, labels):
            h = ops.relu(ops.matmul(x, self.w1) + self.b1)
            h = ops.relu(ops.matmul(h, self.w2) + self.b2)
            logits = ops.matmul(h, self.w3) + self.b3
            log_p = ops.log_softmax(logits, -1)
            return -ops.reduce_mean(ops.reduce_sum(labels * log_p, -1))

    return MLP()


def make_cellgraph():
    """(gradient callable, args) for the compiled gradient w.r.t. every Parameter."""
    import cellgraph
    from cellgraph import Tensor

    cellgraph.set_context(mode=cellgraph.GRAPH_MODE, device_target="CPU")
    x, onehot, weights = data()
    net = make_net(weights)
    grad_fn = cellgraph.grad(net, grad_position=None, weights=net.trainable_params())
    return grad_fn, (Tensor(x), Tensor(onehot))


def numpy_grad(x, onehot, *weights):
    """Forward and backward by hand, as one would write it in NumPy (the mean over the batch
    scales each example's gradient by 1 / batch)."""
    (x, h1, h2), (d1, d2, d3) = numpy_mlp_backward(x, onehot, *weights, scale=1 / x.shape[0])
    return (x.T @ d1, d1.sum(0), h1.T @ d2, d2.sum(0), h2.T @ d3, d3.sum(0))


def make_jax():
    jax, jnp = jax_numpy()
    if jax is None:
        return None
    x, onehot, weights = data()

    def loss(params, x, onehot):
        log_p = jax.nn.log_softmax(jax_mlp_logits(jax, params, x), -1)
        return -jnp.mean(jnp.sum(onehot * log_p, -1))

    grad = jax.jit(jax.grad(loss))
    params = [jnp.asarray(w) for w in weights]
    x, onehot = jnp.asarray(x), jnp.asarray(onehot)
    return lambda: block(grad(params, x, onehot))


def make_torch():
    torch = optional("torch")
    if torch is None:
        return None
    x, onehot, weights = data()
    params = [torch.from_numpy(w).requires_grad_() for w in weights]
    x, onehot = torch.from_numpy(x), torch.from_numpy(onehot)

    def grad():
        w1, b1, w2, b2, w3, b3 = params
        h = torch.relu(x @ w1 + b1)
        h = torch.relu(h @ w2 + b2)
        loss = -(onehot * torch.log_softmax(h @ w3 + b3, -1)).sum(-1).mean()
        return torch.autograd.grad(loss, params)

    return grad


def run(repeats: int) -> list[dict]:
    grad_fn, args = make_cellgraph()
    x, onehot, weights = data()
    expected = numpy_grad(x, onehot, *weights)
    for got, want in zip(grad_fn(*args), expected):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=2e-4, atol=2e-6)
    times = compare({"cellgraph": lambda: grad_fn(*args),
                     "numpy": lambda: numpy_grad(x, onehot, *weights),
                     "jax": make_jax(), "torch": make_torch()}, repeats)
    return [{"name": "MLP grad, batch 128", "cellgraph_s": times["cellgraph"],
             "numpy_s": times["numpy"], "jax_s": times["jax"], "torch_s": times["torch"],
             "target_ratio": 1.05}]
