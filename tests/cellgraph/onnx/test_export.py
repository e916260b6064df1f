"""export(file_format="ONNX"): each exported network run by onnxruntime gives cellgraph's
outputs; MindSpore's argument checks and errors."""
import os

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

from .networks import Encoder, LeNet5, Recurrent, ResNet

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")


def run_model(path, args):
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    feed = {i.name: np.asarray(a.asnumpy() if isinstance(a, Tensor) else a)
            for i, a in zip(session.get_inputs(), args)}
    return session.run(None, feed)


def exported_and_own(net, args, tmp_path, name="net"):
    """(onnxruntime's outputs of the exported net, cellgraph's outputs in inference mode)."""
    ms.export(net, *args, file_name=str(tmp_path / name), file_format="ONNX")
    got = run_model(tmp_path / f"{name}.onnx", args)
    net.set_train(False)
    want = net(*args)
    want = want if isinstance(want, tuple) else (want,)
    return got, [w.asnumpy() for w in want]


NETWORKS = {
    "lenet": (LeNet5, [(2, 1, 32, 32)]),
    "resnet": (ResNet, [(2, 3, 16, 16)]),
    "lstm": (Recurrent, [(2, 5, 8)]),
    "gru": (lambda: Recurrent(nn.GRU), [(2, 5, 8)]),
    "bilstm": (lambda: Recurrent(bidirectional=True), [(2, 5, 8)]),
    "rnn": (lambda: Recurrent(nn.RNN), [(2, 5, 8)]),
}


@pytest.mark.parametrize("name", sorted(NETWORKS))
def test_networks_run_in_onnxruntime_as_in_cellgraph(name, tmp_path, rng):
    make, shapes = NETWORKS[name]
    args = [Tensor(rng.standard_normal(s).astype(np.float32)) for s in shapes]
    got, want = exported_and_own(make(), args, tmp_path)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


def test_transformer_encoder_with_embedding(tmp_path, rng):
    net = Encoder()
    ids = Tensor(rng.integers(0, 50, (2, 7)).astype(np.int32))
    got, want = exported_and_own(net, [ids], tmp_path)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-6)


def test_weights_are_initializers_named_by_their_parameters(tmp_path):
    net = LeNet5()
    ms.export(net, Tensor(np.zeros((1, 1, 32, 32), np.float32)), file_name=str(tmp_path / "m"),
              file_format="ONNX")
    model = onnx.load(str(tmp_path / "m.onnx"))
    inits = {i.name: onnx.numpy_helper.to_array(i) for i in model.graph.initializer}
    np.testing.assert_array_equal(inits["conv1.weight"], net.conv1.weight.asnumpy())
    np.testing.assert_array_equal(inits["fc3.bias"], net.fc3.bias.asnumpy())
    assert [i.name for i in model.graph.input] == ["x"]
    assert [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim] == [1, 1, 32,
                                                                                      32]


def test_export_runs_in_inference_mode_and_restores_training(tmp_path, rng):
    net = nn.SequentialCell([nn.Dense(4, 4), nn.Dropout(p=0.5), nn.BatchNorm1d(4)])
    net.set_train(True)
    x = Tensor(rng.standard_normal((3, 4)).astype(np.float32))
    ms.export(net, x, file_name=str(tmp_path / "d.onnx"), file_format="ONNX")
    assert net.training
    got = run_model(tmp_path / "d.onnx", [x])[0]
    net.set_train(False)
    np.testing.assert_allclose(got, net(x).asnumpy(), rtol=1e-6, atol=1e-6)


def test_onnx_export_names_and_weights_as_inputs(tmp_path, rng):
    net = nn.Dense(3, 2)
    x = Tensor(rng.standard_normal((4, 3)).astype(np.float32))
    ms.onnx.export(net, x, file_name=str(tmp_path / "a"), input_names=["data"],
                   output_names=["logits"])
    model = onnx.load(str(tmp_path / "a.onnx"))
    assert [i.name for i in model.graph.input] == ["data"]
    assert [o.name for o in model.graph.output] == ["logits"]
    ms.onnx.export(net, x, file_name=str(tmp_path / "b"), export_params=False)
    model = onnx.load(str(tmp_path / "b.onnx"))
    assert [i.name for i in model.graph.input] == ["x", "weight", "bias"]
    assert not {"weight", "bias"} & {i.name for i in model.graph.initializer}
    feed = [x, net.weight, net.bias]
    np.testing.assert_allclose(run_model(tmp_path / "b.onnx", feed)[0], net(x).asnumpy(),
                               rtol=1e-6)
    ms.onnx.export(net, x, file_name=str(tmp_path / "c"), keep_initializers_as_inputs=True)
    model = onnx.load(str(tmp_path / "c.onnx"))
    assert {"weight", "bias"} <= {i.name for i in model.graph.input}
    assert {"weight", "bias"} <= {i.name for i in model.graph.initializer}


def test_several_outputs_and_integer_results(tmp_path, rng):
    class Heads(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(5, 4)

        def construct(self, x):
            y = self.fc(x)
            return y, ops.argmax(y, 1), y.sum(), y > 0

    x = Tensor(rng.standard_normal((3, 5)).astype(np.float32))
    got, want = exported_and_own(Heads(), [x], tmp_path)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


class Erfinv(nn.Cell):
    def construct(self, x):
        y = x * 2
        return ops.erfinv(y)


def test_an_operation_without_onnx_form_names_itself_and_the_line(tmp_path):
    from cellgraph.onnx import ONNXExportError

    x = Tensor(np.full((2, 3), 0.1, np.float32))
    with pytest.raises(ONNXExportError, match="erfinv") as info:
        ms.export(Erfinv(), x, file_name=str(tmp_path / "e"), file_format="ONNX")
    assert info.value.primitive == "erfinv"
    assert isinstance(info.value, RuntimeError)  # MindSpore raises RuntimeError
    assert "return ops.erfinv(y)" in str(info.value) and "test_export.py" in str(info.value)
    assert not os.path.exists(tmp_path / "e.onnx")


def test_argument_checks_as_mindspore(tmp_path):
    net, x = nn.Dense(2, 2), Tensor(np.ones((1, 2), np.float32))
    with pytest.raises(ValueError, match=r"must be one of \['AIR', 'ONNX', 'MINDIR'\], but got "
                                         r"PB\."):
        ms.export(net, x, file_name="m", file_format="PB")
    with pytest.raises(TypeError, match="file_format"):
        ms.export(net, x, file_name="m")
    with pytest.raises(NotImplementedError, match="ONNX"):
        ms.export(net, x, file_name=str(tmp_path / "m"), file_format="AIR")
    assert not os.listdir(tmp_path)
    with pytest.raises(ValueError, match="only support nn.Cell"):
        ms.export(lambda t: t, x, file_name=str(tmp_path / "f"), file_format="ONNX")
    with pytest.raises(ValueError, match="only support customized encryption, but got AES-GCM"):
        ms.export(net, x, file_name=str(tmp_path / "f"), file_format="ONNX", enc_key=b"0" * 16)
    with pytest.raises(ValueError, match="custom_func for MindIR"):
        ms.export(net, x, file_name=str(tmp_path / "f"), file_format="ONNX",
                  custom_func=lambda m: None)
    with pytest.raises(NotImplementedError, match="static shapes"):
        ms.onnx.export(net, x, file_name=str(tmp_path / "f"), dynamic_axes={"x": {0: "b"}})
    with pytest.raises(ValueError, match="input_names"):
        ms.onnx.export(net, x, file_name=str(tmp_path / "f"), input_names="x")


def test_customised_encryption(tmp_path):
    net, x = nn.Dense(2, 2), Tensor(np.ones((1, 2), np.float32))

    def xor(data, key):
        return bytes(b ^ key[i % len(key)] for i, b in enumerate(data))

    key = b"k" * 16
    ms.export(net, x, file_name=str(tmp_path / "enc"), file_format="ONNX", enc_key=key,
              enc_mode=xor)
    data = (tmp_path / "enc.onnx").read_bytes()
    model = onnx.load_from_string(xor(data, key))
    assert model.graph.output[0].name == "output0"


def test_names_the_user_chose_never_meet_made_up_ones(tmp_path, rng):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.const_1 = ms.Parameter(Tensor(np.ones(3, np.float32)), name="relu_2")

        def construct(self, relu_3, const_4):
            return ops.relu(relu_3 * 2.0) + const_4 * self.const_1

    args = [Tensor(rng.standard_normal(3).astype(np.float32)) for _ in range(2)]
    got, want = exported_and_own(Net(), args, tmp_path)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-6)


def test_made_up_names_skip_reserved_ones():
    from cellgraph.onnx.converter import ModelBuilder

    builder = ModelBuilder()
    builder.reserved.update({"relu_1", "relu_2"})
    child = builder.child()
    assert child.fresh("relu") == "relu_3" and builder.fresh("relu") == "relu_4"
