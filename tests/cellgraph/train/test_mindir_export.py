"""export(file_format='MINDIR'): files MindSpore 2.10 runs with the same numbers (its outputs
for the files cellgraph wrote are in tests/data/mindir/ms_ran_cellgraph.npz, made by
tools/oracle/write_cellgraph_mindir.py and make_mindir_fixtures.py `check`), and that load
reads back."""
import os

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.common.initializer import initializer
from cellgraph.train import mindir_proto

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "mindir")


def _weights(cell):
    """Deterministic values for every Parameter (by position), so that both sides agree."""
    for i, param in enumerate(cell.trainable_params()):
        values = np.sin(np.arange(param.size, dtype=np.float64) * 0.7 + i) * 0.5
        param.set_data(Tensor(values.reshape(param.shape).astype(np.float32)))
    return cell


class ConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, pad_mode="same", has_bias=True)
        self.bn = nn.BatchNorm2d(2)
        self.pool = nn.MaxPool2d(2, 2, pad_mode="same")
        self.avg = nn.AvgPool2d(2, 1)
        self.avg_same = nn.AvgPool2d(3, 2, pad_mode="same")
        self.conv2 = nn.Conv2d(2, 4, 3, stride=2, pad_mode="pad", padding=(1, 0, 2, 1))
        self.fc = nn.Dense(18, 3)

    def construct(self, x):
        x = self.pool(ops.relu(self.bn(self.conv(x))))
        x = ops.sigmoid(self.avg(x)) - ops.tanh(self.avg(x)) / 2.0
        y = self.conv2(ops.concat((x, x), 2))
        return (ops.softmax(self.fc(x.reshape(2, -1)) * 2.0 + 1, axis=-1),
                x.mean(axis=(2, 3), keep_dims=True).squeeze() + self.avg_same(x).sum(axis=(2, 3)),
                ops.log_softmax(y.sum(axis=1), 1), ops.maximum(y, 0.1).max(axis=(1, 3)))


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 8, activation="relu")
        self.fc2 = nn.Dense(8, 4, has_bias=False)
        self.scale = ms.Parameter(initializer("ones", [4]), "scale")

    def construct(self, x, y):
        h = self.fc2(ops.exp(-self.fc1(x))) * self.scale - y
        h = ops.matmul(h.reshape(3, 2, 2), h.reshape(3, 2, 2).transpose(0, 2, 1))
        return ops.sqrt(ops.abs(h) + 1) ** 2.0, (h >= 0.5)


class ControlFlow(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2)

    def construct(self, x, y):
        print("x:", x)
        if x.sum() < y:
            x = self.fc(x)
        else:
            x = x - y
        while x.sum() < y * 3:
            x = x * 2 + 1
        return x, y + 1


ZERO = Tensor([0], ms.float32)
ONE = Tensor([1], ms.float32)


class Recursive(nn.Cell):
    def construct(self, x, z):
        def f(x, z):
            y = ZERO
            if x < 0:
                y = ONE
            elif x < 3:
                y = x * f(x - 1, z)
            else:
                y = f(x - 4, z)
            return y + 1 + z

        return f(x, z)


class Indexing(nn.Cell):
    def construct(self, x):
        half = ops.cast(x, ms.float16)
        return (half[:, 1:3], x[0], x[::-2, 1], x[..., -1], ops.cast(x[1:, :-1] > 0, ms.int32),
                x[-2:, ::3])


class Wide(nn.Cell):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(10, 6)
        self.ln = nn.LayerNorm((6,))
        self.conv1d = nn.Conv1d(6, 4, 3, pad_mode="same")
        self.bn1 = nn.BatchNorm1d(4)
        self.gap = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Dense(4, 3)

    def construct(self, ids, x):
        h = nn.GELU()(self.ln(self.emb(ids)))
        c = self.conv1d(h.transpose(0, 2, 1))
        c = ops.leaky_relu(c, 0.1) + ops.silu(c)
        a, b = ops.split(c, [2, 2], axis=1)
        s = ops.stack([a, b], 1).reshape(2, 4, 5)
        g = self.bn1(self.gap(s.expand_dims(-1)).squeeze(-1).squeeze(-1))
        w = ops.where(g > 0, g, ops.zeros_like(g))
        m = ops.bmm(h, h.transpose(0, 2, 1)).max(axis=-1)
        return (self.fc(w), ops.argmax(m, -1), ops.clamp(x, -0.5, 0.5).cumsum(1),
                ops.gather(x, Tensor([0, 2], ms.int32), 1))


def networks():
    """name -> (network, inputs), as written for MindSpore to run."""
    rng = np.random.RandomState(7)
    f32 = lambda *shape: Tensor(rng.randn(*shape).astype(np.float32))
    return {"cg_convnet": (_weights(ConvNet()), (f32(2, 1, 8, 8),)),
            "cg_mlp": (_weights(MLP()), (f32(3, 6), f32(3, 4))),
            "cg_control": (_weights(ControlFlow()), (f32(3, 2), Tensor(np.array(9.0, np.float32)))),
            "cg_indexing": (Indexing(), (f32(3, 4),)),
            "cg_wide": (_weights(Wide()), (Tensor(rng.randint(0, 10, (2, 5)).astype(np.int32)),
                                           f32(2, 3))),
            "cg_recursive": (Recursive(), (Tensor(np.array([6.5], np.float32)),
                                           Tensor(np.array([0.5], np.float32))))}


@pytest.mark.parametrize("name", ["cg_convnet", "cg_mlp", "cg_control", "cg_indexing",
                                  "cg_wide", "cg_recursive"])
def test_mindspore_runs_the_file_with_the_networks_numbers(name, tmp_path):
    net, inputs = networks()[name]
    net.set_train(False)
    expected = net(*inputs)
    ms.export(net, *inputs, file_name=str(tmp_path / name), file_format="MINDIR")
    recorded = np.load(os.path.join(DATA, "ms_ran_cellgraph.npz"))
    outs = nn.GraphCell(ms.load(str(tmp_path / f"{name}.mindir")))(*inputs)
    expected = expected if isinstance(expected, tuple) else (expected,)
    outs = outs if isinstance(outs, tuple) else (outs,)
    assert len(outs) == len(expected) == sum(k.startswith(name + ".") for k in recorded.files)
    for i, (mine, out) in enumerate(zip(expected, outs)):
        theirs = recorded[f"{name}.out{i}"]  # MindSpore 2.10 ran cellgraph's file
        assert theirs.dtype == mine.asnumpy().dtype and theirs.shape == mine.shape
        np.testing.assert_allclose(mine.asnumpy(), theirs, rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(out.asnumpy(), mine.asnumpy())


def test_file_layout_is_mindsporess(tmp_path):
    net, inputs = networks()["cg_mlp"]
    ms.export(net, *inputs, file_name=str(tmp_path / "mlp"), file_format="MINDIR")
    with open(tmp_path / "mlp.mindir", "rb") as file:
        model = mindir_proto.decode("ModelProto", file.read())
    assert model["mind_ir_version"] == 3
    graph = model["graph"]
    assert [p["ref_key"] for p in graph["parameter"]] == ["fc1.weight", "fc1.bias",
                                                          "fc2.weight", "scale"]
    assert [value["tensor"][0]["dims"] for value in graph["input"]] == [[3, 6], [3, 4]]
    kinds = {p["op_type"]: p["prim_type"] for p in model["primitives"]}
    assert kinds["MatMul"] == kinds["BatchMatMul"] == mindir_proto.PRIMITIVE_FUNCTION
    assert kinds["MakeTuple"] == mindir_proto.PRIMITIVE


def test_encrypted_export_loads_with_the_key(tmp_path):
    pytest.importorskip("cryptography")
    net, inputs = networks()["cg_mlp"]
    key = b"0123456789abcdef"
    ms.export(net, *inputs, file_name=str(tmp_path / "enc.mindir"), file_format="MINDIR",
              enc_key=key, enc_mode="AES-CBC")
    assert sorted(os.listdir(tmp_path)) == ["enc.mindir"]
    graph = ms.load(str(tmp_path / "enc.mindir"), dec_key=key, dec_mode="AES-CBC")
    np.testing.assert_array_equal(nn.GraphCell(graph)(*inputs)[0].asnumpy(),
                                  net(*inputs)[0].asnumpy())


def test_what_mindir_cannot_hold_is_refused_without_a_file(tmp_path):
    class Sorted(nn.Cell):
        def construct(self, x):
            return ops.sort(x)[0] * 2

    x = Tensor(np.ones((2, 3), np.float32))
    with pytest.raises(NotImplementedError, match="sort"):
        ms.export(Sorted(), x, file_name=str(tmp_path / "s"), file_format="MINDIR")

    class Picked(nn.Cell):
        def construct(self, x):
            return x[None, 1]

    with pytest.raises(NotImplementedError, match="StridedSlice"):
        ms.export(Picked(), x, file_name=str(tmp_path / "n"), file_format="MINDIR")

    class Padded(nn.Cell):
        def __init__(self):
            super().__init__()
            self.pool = nn.MaxPool2d(2, 2, pad_mode="pad", padding=1)

        def construct(self, x):
            return self.pool(x)

    with pytest.raises(NotImplementedError, match="max_pool2d with the explicit padding"):
        ms.export(Padded(), Tensor(np.ones((1, 1, 4, 4), np.float32)),
                  file_name=str(tmp_path / "p"), file_format="MINDIR")
    with pytest.raises(NotImplementedError, match="custom"):
        ms.export(nn.Dense(3, 2), x, file_name=str(tmp_path / "c"), file_format="MINDIR",
                  custom_func=lambda model: None)
    with pytest.raises(NotImplementedError, match="AIR"):
        ms.export(nn.Dense(3, 2), x, file_name=str(tmp_path / "a"), file_format="AIR")
    assert not os.listdir(tmp_path)


def test_nested_results_keep_their_structure(tmp_path):
    class Nested(nn.Cell):
        def construct(self, x):
            return x + 1, (x * 2, [x - 1, x]), 3

    x = Tensor(np.ones(2, np.float32))
    ms.export(Nested(), x, file_name=str(tmp_path / "nest"), file_format="MINDIR")
    out = nn.GraphCell(ms.load(str(tmp_path / "nest.mindir")))(x)
    # MindSpore 2.10's GraphCell gives the same for this file: (t, (t, [t, t]), 3)
    assert isinstance(out, tuple) and isinstance(out[1], tuple) and isinstance(out[1][1], list)
    assert out[2] == 3
    np.testing.assert_array_equal(out[1][1][0].asnumpy(), [0.0, 0.0])
    np.testing.assert_array_equal(out[0].asnumpy(), [2.0, 2.0])

    class Keyed(nn.Cell):
        def construct(self, x):
            return {"a": x}

    with pytest.raises(NotImplementedError, match="returns a dict"):
        ms.export(Keyed(), x, file_name=str(tmp_path / "keyed"), file_format="MINDIR")


class Stateful(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = ms.Parameter(Tensor(np.zeros(1, np.float32)), "count")
        self.w = ms.Parameter(Tensor(np.full(2, 3.0, np.float32)), "w")

    def construct(self, x):
        ops.assign_add(self.count, Tensor([1.0], ms.float32))
        y = x * self.count + self.w
        ops.assign(self.w, self.w * 2)
        return y


def test_parameter_updates_are_written_as_assignments(tmp_path):
    x = Tensor(np.ones(2, np.float32))
    ms.export(Stateful(), x, file_name=str(tmp_path / "state"), file_format="MINDIR")
    cell = nn.GraphCell(ms.load(str(tmp_path / "state.mindir")))
    # MindSpore 2.10 runs this file to [4, 4], then [8, 8], leaving count [2] and w [12, 12]
    np.testing.assert_array_equal(cell(x).asnumpy(), [4.0, 4.0])
    np.testing.assert_array_equal(cell(x).asnumpy(), [8.0, 8.0])
    np.testing.assert_array_equal(cell.parameters_dict()["count"].asnumpy(), [2.0])
    np.testing.assert_array_equal(cell.parameters_dict()["w"].asnumpy(), [12.0, 12.0])
    with open(tmp_path / "state.mindir", "rb") as file:
        model = mindir_proto.decode("ModelProto", file.read())
    assert [p["op_type"] for p in model["primitives"]].count("Assign") == 2


def test_a_loop_counted_by_a_python_number_exports(tmp_path):
    """The counter is a number known at run time (a retyping node, written as the value)."""
    class Doubling(nn.Cell):
        def construct(self, x, n):
            i = 0
            while i < n:
                x = x * 2
                i += 1
            return x

    net, x, n = Doubling(), Tensor(np.ones(3, np.float32)), Tensor(3)
    ms.export(net, x, n, file_name=str(tmp_path / "loop"), file_format="MINDIR")
    graph = nn.GraphCell(ms.load(str(tmp_path / "loop.mindir")))
    np.testing.assert_array_equal(graph(x, n).asnumpy(), [8.0, 8.0, 8.0])  # MindSpore's too
