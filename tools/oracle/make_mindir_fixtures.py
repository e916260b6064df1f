"""Write MindIR files MindSpore 2.10 exported under tests/data/mindir/, with the outputs
MindSpore's own `load` + `nn.GraphCell` gave for them; and check that MindSpore runs the files
cellgraph exported (run with a Python that has MindSpore 2.10, from outside the repository):

    python tools/oracle/make_mindir_fixtures.py write DIR   # MindSpore writes DIR/*.mindir
    python tools/oracle/make_mindir_fixtures.py check DIR   # MindSpore runs DIR/*.mindir

`write` exports each network below run on its inputs in graph mode (dense_gcm encrypted
with AES-GCM and KEY), then loads the file back
and records the inputs and GraphCell's outputs in DIR/expected.npz (`NAME.in0`, ...,
`NAME.out0`, ...). `check` loads every DIR/*.mindir with MindSpore, runs it on the inputs in
DIR/inputs.npz (`NAME.in0`, ...) and writes its outputs to DIR/ms_outputs.npz.
"""
import os
import sys

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops


class LeNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, pad_mode="valid", has_bias=True)
        self.bn = nn.BatchNorm2d(4)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(4, 6, 3, pad_mode="same")
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(6 * 3 * 3, 10, activation="relu")
        self.fc2 = nn.Dense(10, 5)

    def construct(self, x):
        x = self.pool(ops.relu(self.bn(self.conv1(x))))
        x = ops.sigmoid(self.conv2(x))
        return ops.softmax(self.fc2(self.fc1(self.flatten(x))) * 2.0 + 1, axis=-1)


class ResBlock(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 3, 3, pad_mode="pad", padding=1)
        self.bn1 = nn.BatchNorm2d(3)
        self.conv2 = nn.Conv2d(3, 3, 3, pad_mode="same")
        self.bn2 = nn.BatchNorm2d(3)
        self.avg = nn.AvgPool2d(2, 2)
        self.gap = ops.ReduceMean(keep_dims=True)

    def construct(self, x):
        out = ops.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = ops.relu(out + x)
        return self.avg(out), self.gap(out, (2, 3)).squeeze()


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 8)
        self.fc2 = nn.Dense(8, 4, has_bias=False)
        self.scale = ms.Parameter(Tensor(np.linspace(0.5, 2.0, 4).astype(np.float32)), "scale")

    def construct(self, x, y):
        h = ops.tanh(self.fc1(x))
        h = self.fc2(h) * self.scale - y
        h = h.reshape((-1, 2, 2)).transpose(0, 2, 1)
        return ops.exp(-h * h).sum(axis=1), ops.maximum(h, 0.0).mean()


class Wide(nn.Cell):
    """Embedding, LayerNorm, GELU, Dropout (inference), Conv1d, split/stack, adaptive pooling,
    BatchNorm1d, where, batched matmul, argmax, clamp, cumsum, pow, erf, gather."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 6)
        self.ln = nn.LayerNorm((6,))
        self.gelu = nn.GELU()
        self.drop = nn.Dropout(p=0.3)
        self.conv1d = nn.Conv1d(6, 4, 3, pad_mode="same")
        self.bn1 = nn.BatchNorm1d(4)
        self.gap = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Dense(4, 3)

    def construct(self, ids, x):
        h = self.drop(self.gelu(self.ln(self.emb(ids))))
        c = self.conv1d(h.transpose(0, 2, 1))
        c = ops.leaky_relu(c, 0.1) + ops.silu(c)
        a, b = ops.split(c, [2, 2], axis=1)
        s = ops.stack([a, b], 1).reshape(2, 4, 5)
        g = self.bn1(self.gap(s.expand_dims(-1)).squeeze(-1).squeeze(-1))
        w = ops.where(g > 0, g, ops.zeros_like(g))
        m = ops.bmm(h, h.transpose(0, 2, 1)).max(axis=-1)
        return (self.fc(w), ops.argmax(m, -1), ops.clamp(x, -0.5, 0.5).cumsum(1),
                ops.pow(ops.abs(x), 0.5) + ops.erf(x), ops.gather(x, Tensor([0, 2], ms.int32), 1))


class Layers(nn.Cell):
    """TransformerEncoderLayer, LSTM, grouped Conv2d, Conv2dTranspose, PReLU, bilinear
    Upsample, logsumexp, one_hot."""

    def __init__(self):
        super().__init__()
        self.enc = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True)
        self.lstm = nn.LSTM(8, 4, batch_first=True)
        self.conv = nn.Conv2d(2, 4, 3, group=2, pad_mode="pad", padding=1)
        self.convt = nn.Conv2dTranspose(4, 2, 2, stride=2)
        self.prelu = nn.PReLU()
        self.up = nn.Upsample(size=(8, 8), mode="bilinear")

    def construct(self, x, img):
        h = self.enc(x)
        o, (hn, _) = self.lstm(h)
        y = self.convt(self.prelu(self.conv(img)))
        return (o, hn, y, ops.softmax(ops.logsumexp(h, -1, True), 1),
                ops.one_hot(ops.argmax(h, -1), 8, Tensor(1.0), Tensor(0.0)), self.up(img).mean())


class Counter(nn.Cell):
    """A Parameter updated in place (AssignAdd) on every call."""

    def __init__(self):
        super().__init__()
        self.count = ms.Parameter(Tensor(np.zeros(1, np.float32)), "count")

    def construct(self, x):
        ops.assign_add(self.count, Tensor([1.0], ms.float32))
        return x * self.count


class IfNet(nn.Cell):
    """A Tensor `if` (Switch between Partial closures) over in-place adds and a print."""

    def construct(self, x, y):
        x += 1
        if x < y:
            y += x
        else:
            y -= x
        print("if_net ran")
        return y * 2


class WhileNet(nn.Cell):
    """A Tensor `while` (a graph that calls itself) reading a Parameter."""

    def __init__(self):
        super().__init__()
        self.step = ms.Parameter(Tensor(np.array([1.5], np.float32)), "step")

    def construct(self, x, y):
        while x.sum() < y:
            x = x * 2 + self.step
        return x


KEY = b"0123456789abcdef"


def networks():
    """name -> (network, inputs, export's keyword arguments)."""
    rng = np.random.RandomState(0)
    f32 = lambda *shape: Tensor(rng.randn(*shape).astype(np.float32))
    return {"lenet": (LeNet(), (f32(2, 1, 8, 8),), {}),
            "resblock": (ResBlock(), (f32(2, 3, 6, 6),), {}),
            "mlp": (MLP(), (f32(3, 6), f32(3, 4)), {}),
            "wide": (Wide(), (Tensor(rng.randint(0, 10, (2, 5)).astype(np.int32)), f32(2, 3)), {}),
            "layers": (Layers(), (f32(2, 3, 8), f32(1, 2, 4, 4)), {}),
            "counter": (Counter(), (f32(2),), {}),
            "dense_gcm": (nn.Dense(3, 2), (f32(1, 3),), {"enc_key": KEY, "enc_mode": "AES-GCM"}),
            "if_net": (IfNet(), (Tensor(np.array([1.0], np.float32)),
                                 Tensor(np.array([4.0], np.float32))), {}),
            "while_net": (WhileNet(), (f32(2, 2), Tensor(np.array(40.0, np.float32))), {})}


def write(folder):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    expected = {}
    for name, (net, inputs, options) in networks().items():
        net.set_train(False)
        path = os.path.join(folder, name)
        ms.export(net, *inputs, file_name=path, file_format="MINDIR", **options)
        os.chmod(path + ".mindir", 0o644)
        keys = {"dec_key": KEY} if options else {}
        for i, value in enumerate(inputs):  # before the run: in-place operations change them
            expected[f"{name}.in{i}"] = value.asnumpy().copy()
        outs = nn.GraphCell(ms.load(path + ".mindir", **keys))(*inputs)
        outs = outs if isinstance(outs, tuple) else (outs,)
        for i, value in enumerate(outs):
            expected[f"{name}.out{i}"] = value.asnumpy()
    np.savez(os.path.join(folder, "expected.npz"), **expected)


def check(folder):
    ms.set_context(mode=ms.GRAPH_MODE)
    inputs = np.load(os.path.join(folder, "inputs.npz"))
    results = {}
    for file in sorted(os.listdir(folder)):
        if not file.endswith(".mindir"):
            continue
        name = file[:-len(".mindir")]
        args = [Tensor(inputs[f"{name}.in{i}"]) for i in range(10) if f"{name}.in{i}" in inputs]
        try:
            outs = nn.GraphCell(ms.load(os.path.join(folder, file)))(*args)
        except Exception as error:  # noqa: BLE001 - reported per file
            print(f"{file}: {type(error).__name__}: {str(error).splitlines()[0]}")
            continue
        outs = outs if isinstance(outs, tuple) else (outs,)
        for i, value in enumerate(outs):
            results[f"{name}.out{i}"] = value.asnumpy()
        print(f"{file}: ran, {len(outs)} outputs")
    np.savez(os.path.join(folder, "ms_outputs.npz"), **results)


if __name__ == "__main__":
    {"write": write, "check": check}[sys.argv[1]](sys.argv[2])
