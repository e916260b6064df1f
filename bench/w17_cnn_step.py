"""W17: convolutional training steps, where im2col, pooling and BatchNorm dominate.

* LeNet-5 on 1x32x32 images, batch 64: conv 5x5 (6) - ReLU - max pool 2 - conv 5x5 (16) -
  ReLU - max pool 2 - dense 120 - 84 - 10;
* a 2-block ResNet on 16x32x32 feature maps, batch 32: two residual blocks of conv 3x3 - BatchNorm
  (training) - ReLU - conv 3x3 - BatchNorm, added to the input, ReLU; global average pool and a
  dense layer to 10 classes.

A step is cellgraph's `TrainOneStepCell(WithLossCell(net, SoftmaxCrossEntropyWithLogits(sparse,
mean)), Momentum(lr 0.01, momentum 0.9))`: forward, backward and update in one graph. PyTorch
runs the same step eagerly (`torch.optim.SGD` with momentum is MindSpore's Momentum) and JAX as
one `jax.jit` function with the parameters donated; both start from cellgraph's initial
weights. There is no hand-written NumPy version: the check before timing is one step against
PyTorch (or JAX) from the same weights.
"""
from __future__ import annotations

import numpy as np

import cellgraph
from bench import timing
from bench.common import check_step, jax_momentum_step
from cellgraph import Tensor, nn, ops
from cellgraph.runtime.backend import set_backend

WORKLOAD = "W17"
DESCRIPTION = "LeNet-5 (batch 64) and 2-block ResNet (16x32x32, batch 32) training steps"

LR, MOMENTUM = 0.01, 0.9
# at most this many times PyTorch eager's step
TARGETS = {"cellgraph numpy": 2.0, "cellgraph torch": 1.2}
CASES = {"lenet": ("LeNet-5 step, batch 64", (64, 1, 32, 32)),
         "resnet": ("2-block ResNet step, 32x32x16, batch 32", (32, 16, 32, 32))}


class LeNet5(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid", has_bias=True)
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid", has_bias=True)
        self.pool = nn.MaxPool2d(2, 2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)

    def construct(self, x):
        x = self.pool(ops.relu(self.conv1(x)))
        x = self.pool(ops.relu(self.conv2(x)))
        x = ops.relu(self.fc1(self.flatten(x)))
        return self.fc3(ops.relu(self.fc2(x)))


class Block(nn.Cell):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, pad_mode="same")
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, pad_mode="same")
        self.bn2 = nn.BatchNorm2d(channels)

    def construct(self, x):
        h = ops.relu(self.bn1(self.conv1(x)))
        return ops.relu(self.bn2(self.conv2(h)) + x)


class ResNet2(nn.Cell):
    def __init__(self, channels=16):
        super().__init__()
        self.block1 = Block(channels)
        self.block2 = Block(channels)
        self.fc = nn.Dense(channels, 10)

    def construct(self, x):
        h = self.block2(self.block1(x))
        return self.fc(ops.reduce_mean(h, (2, 3)))


NETS = {"lenet": LeNet5, "resnet": ResNet2}


def data(case: str, seed: int = 0):
    rng = np.random.default_rng(seed)
    shape = CASES[case][1]
    return (rng.standard_normal(shape).astype(np.float32),
            rng.integers(0, 10, shape[0]).astype(np.int32))


def make_cellgraph(case: str):
    """(step, (images, labels), net) on the current backend, weights from seed 0."""
    cellgraph.set_seed(0)
    net = NETS[case]()
    net.set_train()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=LR, momentum=MOMENTUM)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), optimizer)
    x, labels = data(case)
    return step, (Tensor(x), Tensor(labels)), net


def initial_weights(case: str) -> dict:
    """Parameter name -> the initial value cellgraph's net starts from."""
    cellgraph.set_seed(0)
    return {p.name: p.asnumpy().copy() for p in NETS[case]().trainable_params()}


# ----- PyTorch ----------------------------------------------------------------------------------

def _torch_forward(torch, case, p, x, stats):
    f = torch.nn.functional
    if case == "lenet":
        x = f.max_pool2d(f.relu(f.conv2d(x, p["conv1.weight"], p["conv1.bias"])), 2)
        x = f.max_pool2d(f.relu(f.conv2d(x, p["conv2.weight"], p["conv2.bias"])), 2)
        x = f.relu(f.linear(x.flatten(1), p["fc1.weight"], p["fc1.bias"]))
        x = f.relu(f.linear(x, p["fc2.weight"], p["fc2.bias"]))
        return f.linear(x, p["fc3.weight"], p["fc3.bias"])
    for b in ("block1", "block2"):
        def norm(h, name, b=b):
            mean, var = stats[f"{b}.{name}"]
            return f.batch_norm(h, mean, var, p[f"{b}.{name}.gamma"], p[f"{b}.{name}.beta"],
                                training=True, momentum=0.1, eps=1e-5)
        h = f.relu(norm(f.conv2d(x, p[f"{b}.conv1.weight"], padding=1), "bn1"))
        x = f.relu(norm(f.conv2d(h, p[f"{b}.conv2.weight"], padding=1), "bn2") + x)
    return f.linear(x.mean((2, 3)), p["fc.weight"], p["fc.bias"])


def make_torch(case: str):
    """(step, params) of an eager PyTorch training step, or None without PyTorch."""
    torch = timing.optional("torch")
    if torch is None:
        return None
    params = {k: timing.torch_array(torch, v.copy()).requires_grad_() for k, v in
              initial_weights(case).items()}
    stats = {f"{b}.{n}": (timing.torch_array(torch, np.zeros(16, np.float32)),
                                timing.torch_array(torch, np.ones(16, np.float32)))
             for b in ("block1", "block2") for n in ("bn1", "bn2")}
    optimizer = torch.optim.SGD(list(params.values()), lr=LR, momentum=MOMENTUM)
    x, labels = (timing.torch_array(torch, a) for a in data(case))
    labels = labels.long()

    def step():
        optimizer.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(_torch_forward(torch, case, params, x, stats),
                                                 labels)
        loss.backward()
        optimizer.step()
        return loss

    return step, params


# ----- JAX --------------------------------------------------------------------------------------

def _jax_forward(jax, jnp, case, p, x):
    lax = jax.lax

    def conv(h, w, b=None, pad="VALID"):
        out = lax.conv_general_dilated(h, w, (1, 1), pad)
        return out if b is None else out + b[None, :, None, None]

    def pool(h):
        return lax.reduce_window(h, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    if case == "lenet":
        x = pool(jax.nn.relu(conv(x, p["conv1.weight"], p["conv1.bias"])))
        x = pool(jax.nn.relu(conv(x, p["conv2.weight"], p["conv2.bias"])))
        x = jax.nn.relu(x.reshape(x.shape[0], -1) @ p["fc1.weight"].T + p["fc1.bias"])
        x = jax.nn.relu(x @ p["fc2.weight"].T + p["fc2.bias"])
        return x @ p["fc3.weight"].T + p["fc3.bias"]

    def norm(h, prefix):
        mean = h.mean((0, 2, 3), keepdims=True)
        var = jnp.square(h - mean).mean((0, 2, 3), keepdims=True)
        scale = p[prefix + ".gamma"][None, :, None, None]
        return (h - mean) / jnp.sqrt(var + 1e-5) * scale + p[prefix + ".beta"][None, :, None,
                                                                               None]

    for b in ("block1", "block2"):
        h = jax.nn.relu(norm(conv(x, p[f"{b}.conv1.weight"], pad="SAME"), f"{b}.bn1"))
        x = jax.nn.relu(norm(conv(h, p[f"{b}.conv2.weight"], pad="SAME"), f"{b}.bn2") + x)
    return x.mean((2, 3)) @ p["fc.weight"].T + p["fc.bias"]


def make_jax(case: str):
    jax, jnp = timing.jax_numpy()
    if jax is None:
        return None

    def loss_fn(params, x, labels):
        logits = _jax_forward(jax, jnp, case, params, x)
        log_p = jax.nn.log_softmax(logits, -1)
        return -jnp.mean(jnp.take_along_axis(log_p, labels[:, None], 1))

    return jax_momentum_step(jax, loss_fn, initial_weights(case), data(case), LR, MOMENTUM)


def run(repeats: int) -> list[dict]:
    rows = []
    for case, (title, _) in CASES.items():
        cells = {}
        for backend in timing.cellgraph_backends():
            built = {}

            def build(case=case, built=built):
                built["step"], built["args"], built["net"] = make_cellgraph(case)
                return built["step"], built["args"]

            call = timing.on_backend(backend, build)
            set_backend(backend)
            check_step(f"W17 {case} on {backend}", built["step"], built["args"],
                       built["net"], make_torch(case))
            cells[f"cellgraph {backend}"] = call
        peer = make_torch(case)
        times = timing.compare({**cells, "jax": make_jax(case), "torch": peer and peer[0]}, repeats,
                        interleaved=tuple(cells))
        for name in cells:
            row = {"name": f"{title} [{name}]", "cellgraph_s": times[name], "numpy_s": None,
                   "jax_s": times["jax"], "torch_s": times["torch"],
                   "torch_compile_s": times.get("torch_compile")}
            bound = TARGETS.get(name)
            rows.append(timing.peer_target(row, bound, ("torch",)) if bound else row)
    cellgraph.set_context(mode=cellgraph.GRAPH_MODE, device_target="CPU")
    return rows
