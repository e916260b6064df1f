"""W18: a transformer encoder layer's training step: batched matmuls, softmax, LayerNorm, GELU.

One post-norm encoder layer (sequence 64, model width 128, 4 heads, feed-forward 512 with erf
GELU), batch 8, a mean-squared-error loss against a fixed target, one Momentum step (lr 0.01,
momentum 0.9) in one graph (`TrainOneStepCell`). PyTorch runs the same step eagerly and JAX as
one `jax.jit` function, both from cellgraph's initial weights; the check before timing is one
step against PyTorch (or nothing without it).
"""
from __future__ import annotations

import math

import numpy as np

import cellgraph
from bench import timing
from bench.common import check_step, jax_momentum_step
from cellgraph import Tensor, nn, ops
from cellgraph.runtime.backend import set_backend

WORKLOAD = "W18"
DESCRIPTION = "transformer encoder layer step (batch 8, seq 64, d 128, 4 heads, ffn 512)"

BATCH, SEQ, WIDTH, HEADS, FFN = 8, 64, 128, 4, 512
LR, MOMENTUM = 0.01, 0.9
EPSILON = 1e-7  # MindSpore LayerNorm's default


class EncoderLayer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.q, self.k, self.v, self.o = (nn.Dense(WIDTH, WIDTH) for _ in range(4))
        self.ff1, self.ff2 = nn.Dense(WIDTH, FFN), nn.Dense(FFN, WIDTH)
        self.norm1, self.norm2 = nn.LayerNorm((WIDTH,)), nn.LayerNorm((WIDTH,))

    def heads(self, x):
        return ops.transpose(ops.reshape(x, (BATCH, SEQ, HEADS, WIDTH // HEADS)), (0, 2, 1, 3))

    def construct(self, x):
        q, k, v = self.heads(self.q(x)), self.heads(self.k(x)), self.heads(self.v(x))
        scores = ops.matmul(q, ops.transpose(k, (0, 1, 3, 2))) * (1 / math.sqrt(WIDTH // HEADS))
        attended = ops.matmul(ops.softmax(scores, -1), v)
        attended = ops.reshape(ops.transpose(attended, (0, 2, 1, 3)), (BATCH, SEQ, WIDTH))
        x = self.norm1(x + self.o(attended))
        return self.norm2(x + self.ff2(ops.gelu(self.ff1(x))))


def data(seed: int = 0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((BATCH, SEQ, WIDTH)).astype(np.float32),
            rng.standard_normal((BATCH, SEQ, WIDTH)).astype(np.float32))


def make_cellgraph():
    """(step, (x, target), net) on the current backend, weights from seed 0."""
    cellgraph.set_seed(0)
    net = EncoderLayer()
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=LR, momentum=MOMENTUM)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), optimizer)
    x, target = data()
    return step, (Tensor(x), Tensor(target)), net


def initial_weights() -> dict:
    cellgraph.set_seed(0)
    return {p.name: p.asnumpy().copy() for p in EncoderLayer().trainable_params()}


def _forward(lib, p, x):
    """The layer over torch or jax.numpy: `lib` gives softmax, gelu, layer_norm and swap."""
    def dense(h, name):
        return h @ p[f"{name}.weight"].T + p[f"{name}.bias"]

    def heads(h):
        return lib.swap(h.reshape(BATCH, SEQ, HEADS, WIDTH // HEADS), 1, 2)

    q, k, v = heads(dense(x, "q")), heads(dense(x, "k")), heads(dense(x, "v"))
    scores = (q @ lib.swap(k, -1, -2)) * (1 / math.sqrt(WIDTH // HEADS))
    attended = lib.swap(lib.softmax(scores) @ v, 1, 2).reshape(BATCH, SEQ, WIDTH)
    x = lib.layer_norm(x + dense(attended, "o"), p, "norm1")
    return lib.layer_norm(x + dense(lib.gelu(dense(x, "ff1")), "ff2"), p, "norm2")


class _Lib:
    def __init__(self, **fns):
        self.__dict__.update(fns)


def make_torch():
    torch = timing.optional("torch")
    if torch is None:
        return None
    f = torch.nn.functional
    params = {k: timing.torch_array(torch, v.copy()).requires_grad_() for k, v in initial_weights().items()}
    optimizer = torch.optim.SGD(list(params.values()), lr=LR, momentum=MOMENTUM)
    x, target = (timing.torch_array(torch, a) for a in data())
    lib = _Lib(softmax=lambda s: torch.softmax(s, -1), gelu=f.gelu, swap=torch.transpose,
               layer_norm=lambda h, p, name: f.layer_norm(h, (WIDTH,), p[f"{name}.gamma"],
                                                          p[f"{name}.beta"], EPSILON))

    def step():
        optimizer.zero_grad(set_to_none=True)
        loss = f.mse_loss(_forward(lib, params, x), target)
        loss.backward()
        optimizer.step()
        return loss

    return step, params


def make_jax():
    jax, jnp = timing.jax_numpy()
    if jax is None:
        return None

    def layer_norm(h, p, name):
        mean = h.mean(-1, keepdims=True)
        var = jnp.square(h - mean).mean(-1, keepdims=True)
        return (h - mean) / jnp.sqrt(var + EPSILON) * p[f"{name}.gamma"] + p[f"{name}.beta"]

    lib = _Lib(softmax=lambda s: jax.nn.softmax(s, -1),
               gelu=lambda h: jax.nn.gelu(h, approximate=False), swap=jnp.swapaxes,
               layer_norm=layer_norm)

    def loss_fn(params, x, target):
        return jnp.mean(jnp.square(_forward(lib, params, x) - target))

    return jax_momentum_step(jax, loss_fn, initial_weights(), data(), LR, MOMENTUM)


def run(repeats: int) -> list[dict]:
    cells = {}
    for backend in timing.cellgraph_backends():
        built = {}

        def build(built=built):
            built["step"], built["args"], built["net"] = make_cellgraph()
            return built["step"], built["args"]

        call = timing.on_backend(backend, build)
        set_backend(backend)
        check_step(f"W18 on {backend}", built["step"], built["args"], built["net"],
                   make_torch())
        cells[f"cellgraph {backend}"] = call
    peer = make_torch()
    times = timing.compare({**cells, "jax": make_jax(), "torch": peer and peer[0]}, repeats,
                    interleaved=tuple(cells))
    cellgraph.set_context(mode=cellgraph.GRAPH_MODE, device_target="CPU")
    rows = [{"name": f"encoder layer step [{name}]", "cellgraph_s": times[name], "numpy_s": None,
             "jax_s": times["jax"], "torch_s": times["torch"],
             "torch_compile_s": times.get("torch_compile")} for name in cells]
    return [timing.peer_target(row, 1.2, ("jax", "torch")) if "numpy" in row["name"] else row
            for row in rows]
