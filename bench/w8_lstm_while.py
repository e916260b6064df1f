"""W8: an LSTM training step written with a Tensor `while` loop against the same LSTM with a
Python `for` (unrolled at compile time).

Sequence length 32, batch 16, input 32, hidden 64, float32; the loss is the mean square of the
last hidden state; one step is the loss, its gradient w.r.t. the weights and an SGD update
(`nn.TrainOneStepCell`). The hand NumPy version does the same forward, backward and update;
JAX runs `lax.scan` under `jax.value_and_grad`, jitted; PyTorch runs the Python loop eagerly.
Target: the `while` step within 1.5x of the `for` step.
"""
from __future__ import annotations

import numpy as np

from bench.timing import block, compare, jax_numpy, optional

WORKLOAD = "W8"
DESCRIPTION = "LSTM training step, T=32 B=16 D=32 H=64: Tensor while loop vs Python for"

STEPS, BATCH, INPUTS, HIDDEN = 32, 16, 32, 64
LEARNING_RATE = 1e-3
WHILE_OVER_FOR = 1.5  # target: the while step at most this times the for step


def data(seed: int = 0):
    """(xs, [wx, wh, b]) as float32 NumPy arrays."""
    rng = np.random.default_rng(seed)
    xs = rng.standard_normal((STEPS, BATCH, INPUTS)).astype(np.float32)
    wx = (rng.standard_normal((INPUTS, 4 * HIDDEN)) / np.sqrt(INPUTS)).astype(np.float32)
    wh = (rng.standard_normal((HIDDEN, 4 * HIDDEN)) / np.sqrt(HIDDEN)).astype(np.float32)
    return xs, [wx, wh, np.zeros(4 * HIDDEN, np.float32)]


def _sigmoid(z):
    return 0.5 * (np.tanh(0.5 * z) + 1)


def numpy_step(xs, weights, update: bool = True):
    """Loss and gradients of the LSTM by hand (and the SGD update, in place)."""
    wx, wh, b = weights
    H = HIDDEN
    h = np.zeros((BATCH, H), np.float32)
    c = np.zeros_like(h)
    tape = []
    for t in range(STEPS):
        z = xs[t] @ wx + h @ wh + b
        i, f, g, o = _sigmoid(z[:, :H]), _sigmoid(z[:, H:2 * H]), np.tanh(z[:, 2 * H:3 * H]), \
            _sigmoid(z[:, 3 * H:])
        c_new = f * c + i * g
        tc = np.tanh(c_new)
        tape.append((h, c, i, f, g, o, tc))
        h, c = o * tc, c_new
    loss = np.mean(h * h)
    dh, dc = 2 * h / h.size, np.zeros_like(c)
    grads = [np.zeros_like(w) for w in weights]
    dz = np.empty((BATCH, 4 * H), np.float32)
    for t in range(STEPS - 1, -1, -1):
        h_prev, c_prev, i, f, g, o, tc = tape[t]
        dc = dc + dh * o * (1 - tc * tc)
        dz[:, 3 * H:] = dh * tc * o * (1 - o)
        dz[:, :H] = dc * g * i * (1 - i)
        dz[:, H:2 * H] = dc * c_prev * f * (1 - f)
        dz[:, 2 * H:3 * H] = dc * i * (1 - g * g)
        grads[0] += xs[t].T @ dz
        grads[1] += h_prev.T @ dz
        grads[2] += dz.sum(0)
        dh, dc = dz @ wh.T, dc * f
    if update:
        for w, g in zip(weights, grads):
            w -= LEARNING_RATE * g
    return loss, grads


def make_cellgraph(kind: str, weights):
    """(training step, gradient function, args) of the `while` or the `for` LSTM."""
    import cellgraph
    from cellgraph import Parameter, Tensor, nn, ops

    cellgraph.set_context(mode=cellgraph.GRAPH_MODE, device_target="CPU")

    class LSTM(nn.Cell):
        def __init__(self):
            super().__init__()
            self.wx, self.wh, self.b = (Parameter(Tensor(w.copy()), name=n)
                                        for w, n in zip(weights, ("wx", "wh", "b")))

        def cell(self, x, h, c):
            z = ops.matmul(x, self.wx) + ops.matmul(h, self.wh) + self.b
            i, f = ops.sigmoid(z[:, :HIDDEN]), ops.sigmoid(z[:, HIDDEN:2 * HIDDEN])
            g, o = ops.tanh(z[:, 2 * HIDDEN:3 * HIDDEN]), ops.sigmoid(z[:, 3 * HIDDEN:])
            c = f * c + i * g
            return o * ops.tanh(c), c

    class WhileLSTM(LSTM):
        def construct(self, xs, h, c, n):
            t = 0
            while t < n:
                h, c = self.cell(xs[t], h, c)
                t = t + 1
            return ops.reduce_mean(h * h)

    class ForLSTM(LSTM):
        def construct(self, xs, h, c, n):
            for t in range(STEPS):
                h, c = self.cell(xs[t], h, c)
            return ops.reduce_mean(h * h)

    net = (WhileLSTM if kind == "while" else ForLSTM)()
    grad_fn = cellgraph.grad(net, grad_position=None, weights=net.trainable_params())
    step = nn.TrainOneStepCell(net, nn.SGD(net.trainable_params(), LEARNING_RATE))
    zeros = np.zeros((BATCH, HIDDEN), np.float32)
    return step, grad_fn, (Tensor(data()[0]), Tensor(zeros), Tensor(zeros),
                           Tensor(np.array(STEPS, np.int64)))


def make_jax(xs, weights):
    jax, jnp = jax_numpy()
    if jax is None:
        return None
    H = HIDDEN

    def loss(params, xs):
        wx, wh, b = params

        def cell(carry, x):
            h, c = carry
            z = x @ wx + h @ wh + b
            i, f = jax.nn.sigmoid(z[:, :H]), jax.nn.sigmoid(z[:, H:2 * H])
            g, o = jnp.tanh(z[:, 2 * H:3 * H]), jax.nn.sigmoid(z[:, 3 * H:])
            c = f * c + i * g
            return (o * jnp.tanh(c), c), None

        zeros = jnp.zeros((BATCH, H), jnp.float32)
        (h, _), _ = jax.lax.scan(cell, (zeros, zeros), xs)
        return jnp.mean(h * h)

    @jax.jit
    def step(params, xs):
        value, grads = jax.value_and_grad(loss)(params, xs)
        return value, [p - LEARNING_RATE * g for p, g in zip(params, grads)]

    state = {"params": [jnp.asarray(w) for w in weights]}
    xj = jnp.asarray(xs)

    def run():
        value, state["params"] = step(state["params"], xj)
        return block(value)

    return run


def make_torch(xs, weights):
    torch = optional("torch")
    if torch is None:
        return None
    params = [torch.from_numpy(w.copy()).requires_grad_() for w in weights]
    xt = torch.from_numpy(xs)
    H = HIDDEN

    def run():
        wx, wh, b = params
        h = torch.zeros((BATCH, H))
        c = torch.zeros((BATCH, H))
        for t in range(STEPS):
            z = xt[t] @ wx + h @ wh + b
            i, f = torch.sigmoid(z[:, :H]), torch.sigmoid(z[:, H:2 * H])
            g, o = torch.tanh(z[:, 2 * H:3 * H]), torch.sigmoid(z[:, 3 * H:])
            c = f * c + i * g
            h = o * torch.tanh(c)
        value = (h * h).mean()
        grads = torch.autograd.grad(value, params)
        with torch.no_grad():
            for p, g in zip(params, grads):
                p -= LEARNING_RATE * g
        return value

    return run


def run(repeats: int) -> list[dict]:
    xs, weights = data()
    _, reference = numpy_step(xs, [w.copy() for w in weights], update=False)
    steps = {}
    for kind in ("for", "while"):
        step, grad_fn, args = make_cellgraph(kind, weights)
        for got, want in zip(grad_fn(*args), reference):
            np.testing.assert_allclose(got.asnumpy(), want, rtol=2e-3, atol=1e-6)
        steps[kind] = lambda step=step, args=args: step(*args)
    own = [w.copy() for w in weights]
    # the two steps and NumPy in interleaved batches: their ratio is what the target is about
    result = compare({"for": steps["for"], "while": steps["while"],
                      "numpy": lambda: numpy_step(xs, own),
                      "jax": make_jax(xs, weights), "torch": make_torch(xs, weights)},
                     repeats, interleaved=("for", "while", "numpy"))
    ratio = result["while"] / result["for"]
    common = {"numpy_s": result["numpy"], "jax_s": result["jax"], "torch_s": result["torch"]}
    return [{"name": "LSTM step, Python for", "cellgraph_s": result["for"], **common},
            {"name": "LSTM step, Tensor while", "cellgraph_s": result["while"], **common,
             "target_met": ratio <= WHILE_OVER_FOR,
             "note": f"x{ratio:.2f} of the for step (target <= {WHILE_OVER_FOR}x)"}]
