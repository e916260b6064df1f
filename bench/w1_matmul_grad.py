"""W1: the per-call cost of a tiny gradient, where the call path dominates the arithmetic.

The seed MatMul net (`out = matmul(x * z, y)`, x 2x3, y 3x3, z a Parameter) differentiated
w.r.t. x with `GradOperation()` inside a Cell, as in seed s01.
"""
from __future__ import annotations

import numpy as np

from bench.timing import block, compare, jax_numpy, optional

WORKLOAD = "W1"
DESCRIPTION = "seed MatMul net, d out / d x with GradOperation() (x 2x3, y 3x3): per-call time"

X = np.array([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], np.float32)
Y = np.array([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], np.float32)
Z = np.array([1.0], np.float32)


def make_cellgraph():
    """(callable, args) for the compiled gradient, built as the seed builds it."""
    import cellgraph
    from cellgraph import Parameter, Tensor, nn, ops

    cellgraph.set_context(mode=cellgraph.GRAPH_MODE, device_target="CPU")

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.matmul = ops.MatMul()
            self.z = Parameter(Tensor(Z), name="z")

        def construct(self, x, y):
            x = x * self.z
            out = self.matmul(x, y)
            return out

    class GradNetWrtX(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.grad_op = ops.GradOperation()

        def construct(self, x, y):
            gradient_function = self.grad_op(self.net)
            return gradient_function(x, y)

    return GradNetWrtX(Net()), (Tensor(X), Tensor(Y))


def numpy_grad(x, y, z):
    """d sum(matmul(x * z, y)) / dx, by hand: ones(out) @ y.T * z."""
    dout = np.ones((x.shape[0], y.shape[1]), x.dtype)
    return (dout @ y.T) * z


def make_jax():
    jax, jnp = jax_numpy()
    if jax is None:
        return None
    z = jnp.asarray(Z)
    grad = jax.jit(jax.grad(lambda x, y: jnp.sum(jnp.matmul(x * z, y))))
    x, y = jnp.asarray(X), jnp.asarray(Y)
    return lambda: block(grad(x, y))


def make_torch():
    torch = optional("torch")
    if torch is None:
        return None
    z = torch.from_numpy(Z)
    y = torch.from_numpy(Y)
    x0 = torch.from_numpy(X)

    def grad():
        x = x0.detach().requires_grad_()
        out = torch.matmul(x * z, y)
        (dx,) = torch.autograd.grad(out, x, torch.ones_like(out))
        return dx

    return grad


def run(repeats: int) -> list[dict]:
    net, args = make_cellgraph()
    expected = numpy_grad(X, Y, Z)
    np.testing.assert_allclose(net(*args).asnumpy(), expected, rtol=1e-6)
    times = compare({"cellgraph": lambda: net(*args), "numpy": lambda: numpy_grad(X, Y, Z),
                     "jax": make_jax(), "torch": make_torch()}, repeats)
    return [{"name": "grad x, 2x3 @ 3x3", "cellgraph_s": times["cellgraph"],
             "numpy_s": times["numpy"], "jax_s": times["jax"], "torch_s": times["torch"],
             "target_ratio": 1.5}]
