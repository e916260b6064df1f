"""load + nn.GraphCell on MindIR files MindSpore 2.10 wrote (tests/data/mindir, made by
tools/oracle/make_mindir_fixtures.py; expected.npz holds the outputs MindSpore's own GraphCell
gave for them)."""
import os
from pathlib import Path

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn
from cellgraph.train import mindir_proto
from cellgraph.train.mindir_graph import MindIRGraph, attribute_value

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "mindir")
EXPECTED = np.load(os.path.join(DATA, "expected.npz"))
KEY = b"0123456789abcdef"


def _inputs(name):
    return [Tensor(EXPECTED[f"{name}.in{i}"]) for i in range(4) if f"{name}.in{i}" in EXPECTED]


def _check(name, outs):
    outs = outs if isinstance(outs, tuple) else (outs,)
    count = sum(key.startswith(f"{name}.out") for key in EXPECTED.files)
    assert len(outs) == count
    for i, out in enumerate(outs):
        assert out.asnumpy().dtype == EXPECTED[f"{name}.out{i}"].dtype
        np.testing.assert_allclose(out.asnumpy(), EXPECTED[f"{name}.out{i}"], rtol=1e-5,
                                   atol=1e-6)


@pytest.mark.parametrize("name", ["lenet", "resblock", "mlp", "wide", "layers", "if_net",
                                  "while_net"])
@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_graph_cell_runs_mindspore_files_with_its_numbers(name, mode):
    ms.set_context(mode=mode)
    try:
        cell = nn.GraphCell(ms.load(os.path.join(DATA, f"{name}.mindir")))
        _check(name, cell(*_inputs(name)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_parameters_are_the_files_and_params_init_replaces_them():
    graph = ms.load(os.path.join(DATA, "mlp.mindir"))
    cell = nn.GraphCell(graph)
    assert sorted(cell.parameters_dict()) == ["fc1.bias", "fc1.weight", "fc2.weight", "scale"]
    np.testing.assert_allclose(cell.parameters_dict()["scale"].asnumpy(),
                               np.linspace(0.5, 2.0, 4), rtol=1e-6)
    zero = Tensor(np.zeros(4, np.float32))
    changed = nn.GraphCell(graph, params_init={"scale": zero, "no.such": zero})
    x, y = _inputs("mlp")
    first, second = changed(x, y)
    # scale 0: h = -y, so the outputs are those of y alone
    h = (-y.asnumpy()).reshape(-1, 2, 2).transpose(0, 2, 1)
    np.testing.assert_allclose(first.asnumpy(), np.exp(-h * h).sum(axis=1), rtol=1e-6)
    np.testing.assert_allclose(second.asnumpy(), np.maximum(h, 0).mean(), rtol=1e-6)


def test_encrypted_file_loads_with_its_key():
    pytest.importorskip("cryptography")
    graph = ms.load(os.path.join(DATA, "dense_gcm.mindir"), dec_key=KEY, dec_mode="AES-GCM")
    _check("dense_gcm", nn.GraphCell(graph)(*_inputs("dense_gcm")))
    with pytest.raises(RuntimeError, match="may be encrypted and decrypt failed"):
        ms.load(os.path.join(DATA, "dense_gcm.mindir"))
    with pytest.raises(RuntimeError, match="may be encrypted and decrypt failed"):
        ms.load(os.path.join(DATA, "dense_gcm.mindir"), dec_key=b"f" * 16)


def test_customized_decryption_is_called_with_the_key(tmp_path):
    plain = Path(DATA, "lenet.mindir").read_bytes()
    path = tmp_path / "flipped.mindir"
    path.write_bytes(bytes(byte ^ 0x5A for byte in plain))
    seen = []

    def unflip(data, key):
        seen.append(key)
        return bytes(byte ^ 0x5A for byte in data)

    graph = ms.load(str(path), dec_key=b"k", dec_mode=unflip)
    assert seen == [b"k"]
    _check("lenet", nn.GraphCell(graph)(*_inputs("lenet")))


def test_load_errors_are_mindsporess(tmp_path):
    with pytest.raises(ValueError, match="must be string"):
        ms.load(3)
    with pytest.raises(ValueError, match="should end with '.mindir'"):
        ms.load("net.ckpt")
    with pytest.raises(ValueError, match="does not exist"):
        ms.load(str(tmp_path / "none.mindir"))
    with pytest.raises(NotImplementedError, match="obfuscation"):
        ms.load(os.path.join(DATA, "mlp.mindir"), obf_func=None)
    broken = tmp_path / "broken.mindir"
    broken.write_bytes(b"\x0a\xff\xff\xff")
    with pytest.raises(RuntimeError, match="Load MindIR failed"):
        ms.load(str(broken))
    with pytest.raises(ValueError, match="'dec_key' must be isinstance"):
        ms.load(os.path.join(DATA, "mlp.mindir"), dec_key="key")
    graph = ms.load(os.path.join(DATA, "mlp.mindir"))
    with pytest.raises(TypeError, match="must be a FuncGraph"):
        nn.GraphCell(object())
    with pytest.raises(TypeError, match="must be a dict"):
        nn.GraphCell(graph, params_init=[])
    with pytest.raises(TypeError, match="must be Tensor or Parameter"):
        nn.GraphCell(graph, params_init={"scale": 1.0})
    # MindSpore 2.10's message
    with pytest.raises(ValueError, match="Only support update parameter by Tensor or Parameter "
                                         "with same shape and dtype as it. The parameter "
                                         "'scale' has shape"):
        nn.GraphCell(graph, params_init={"scale": Tensor(np.zeros(3, np.float32))})
    with pytest.raises(NotImplementedError, match="obfuscation"):
        nn.GraphCell(graph, obf_random_seed=1)
    with pytest.raises(TypeError, match="takes 2 inputs, but got 1"):
        nn.GraphCell(graph)(Tensor(np.zeros((3, 6), np.float32)))


def _model(nodes, primitives, inputs=("g:x",), output="g:out"):
    graph = {"name": "g", "node": nodes, "input": [{"name": name} for name in inputs],
             "output": [{"name": output}]}
    return {"graph": graph, "primitives": primitives}


def test_an_operation_without_a_class_is_named_when_loading():
    node = {"input": ["g:x"], "output": ["g:out"], "name": "g:out", "op_type": "REF::NoSuchOp:1"}
    prim = {"name": "NoSuchOp:1", "op_type": "NoSuchOp", "prim_type": 2}
    with pytest.raises(NotImplementedError, match="'NoSuchOp'"):
        MindIRGraph(_model([node], [prim]))
    call = {"input": ["g:x"], "output": ["g:out"], "name": "g:out", "op_type": "REF::nowhere"}
    with pytest.raises(NotImplementedError, match="'nowhere', which the file does not define"):
        MindIRGraph(_model([call], []))


def test_a_mindspore_while_loop_runs_as_a_loop():
    # while_net calls its loop graph in tail position: a thousand trips need no deep stack
    graph = ms.load(os.path.join(DATA, "while_net.mindir"))
    x = Tensor(np.full((2, 2), 1e-30, np.float32))
    out = nn.GraphCell(graph, params_init={"step": Tensor(np.array([1e-30], np.float32))})(
        x, Tensor(np.array(1.0, np.float32)))
    # x doubles each trip from 1e-30 * (1 + ...): about 100 trips to pass 0.25 per element
    assert 1.0 <= out.asnumpy().sum() < 2.0


def test_if_net_prints_and_updates_in_place(capsys):
    x, y = _inputs("if_net")
    _check("if_net", nn.GraphCell(ms.load(os.path.join(DATA, "if_net.mindir")))(x, y))
    assert "if_net ran" in capsys.readouterr().out


def test_primitive_and_primitive_function_nodes_hand_their_arguments_to_the_class():
    # Softmax as PRIMITIVE (axis an attribute) and as PRIMITIVE_FUNCTION (axis the last input)
    axis = {"name": "axis", "type": mindir_proto.ATTR["TUPLE"],
            "values": [{"ints": [0], "type": mindir_proto.ATTR["INT64"]}]}
    nodes = [{"output": ["c"], "op_type": "Constant", "attribute": [{**axis, "name": "value"}]},
             {"input": ["g:x"], "output": ["g:a"], "op_type": "REF::Softmax:1"},
             {"input": ["g:a", "c"], "output": ["g:out"], "op_type": "REF::Softmax:2"}]
    prims = [{"name": "Softmax:1", "op_type": "Softmax", "prim_type": 1, "attribute": [axis]},
             {"name": "Softmax:2", "op_type": "Softmax", "prim_type": 2}]
    graph = MindIRGraph(_model(nodes, prims))
    x = np.array([[1.0, 2.0], [3.0, 0.0]], np.float32)
    once = np.exp(x) / np.exp(x).sum(0)
    np.testing.assert_allclose(graph(Tensor(x)).asnumpy(),
                               np.exp(once) / np.exp(once).sum(0), rtol=1e-6)


def test_attribute_values_of_each_kind():
    A = mindir_proto.ATTR
    assert attribute_value({"type": A["INT64"], "i": -3}) == -3
    assert attribute_value({"type": A["BOOL"], "i": 1}) is True
    assert attribute_value({"type": A["FLOAT"], "f": 0.5}) == 0.5
    assert attribute_value({"type": A["STRING"], "s": b"NCHW"}) == "NCHW"
    assert attribute_value({"type": A["NONE"]}) is None
    assert attribute_value({"type": A["LIST"], "values": [{"type": A["INT64"], "ints": [2]}]}) \
        == [2]
    tensor = mindir_proto.tensor_proto(np.arange(6, dtype=np.int32).reshape(2, 3))
    value = attribute_value({"type": A["TENSORS"], "tensors": [tensor]})
    np.testing.assert_array_equal(value.asnumpy(), np.arange(6).reshape(2, 3))
    with pytest.raises(NotImplementedError, match="CSR_TENSOR"):
        attribute_value({"type": A["CSR_TENSOR"], "name": "sparse"})


def test_messages_encode_and_decode_back():
    model = {"ir_version": "1.1", "producer_name": "MindSpore", "little_endian": True,
             "graph": {"name": "g", "parameter": [mindir_proto.tensor_proto(
                 np.array([1.5, -2.0], np.float32), name="g:w", ref_key="w")],
                       "attribute": [{"name": "n", "i": -1, "type": 7, "floats": [0.5, 2.0]}]},
             "mind_ir_version": 3}
    assert mindir_proto.decode("ModelProto", mindir_proto.encode("ModelProto", model)) == model
    data = Path(DATA, "mlp.mindir").read_bytes()
    decoded = mindir_proto.decode("ModelProto", data)
    assert decoded["producer_name"] == "MindSpore"
    assert mindir_proto.decode("ModelProto", mindir_proto.encode("ModelProto", decoded)) == decoded


def test_graph_cell_inside_compiled_code():
    cell = nn.GraphCell(ms.load(os.path.join(DATA, "lenet.mindir")))

    @ms.jit
    def run(x):
        return cell(x) * 2

    (x,) = _inputs("lenet")
    np.testing.assert_allclose(run(x).asnumpy(), EXPECTED["lenet.out0"] * 2, rtol=1e-5,
                               atol=1e-6)
    branching = nn.GraphCell(ms.load(os.path.join(DATA, "if_net.mindir")))

    @ms.jit
    def run_if(x, y):
        return branching(x, y)

    with pytest.raises(NotImplementedError, match="control flow"):
        run_if(*_inputs("if_net"))


def test_bfloat16_tensors_read_exactly():
    bits = np.array([0x3F80, 0xC0A0, 0x0000, 0x7F80], np.uint16)  # 1.0, -5.0, 0.0, inf
    tensor = {"dims": [2, 2], "data_type": 16, "raw_data": bits.tobytes()}
    values = mindir_proto.tensor_array(tensor)
    np.testing.assert_array_equal(values.astype(np.float32), [[1.0, -5.0], [0.0, np.inf]])


def test_parameters_assigned_in_the_graph_keep_their_values_between_calls():
    cell = nn.GraphCell(ms.load(os.path.join(DATA, "counter.mindir")))
    (x,) = _inputs("counter")
    _check("counter", cell(x))  # MindSpore's first call: x * 1
    np.testing.assert_allclose(cell(x).asnumpy(), x.asnumpy() * 2)  # MindSpore gives x * 2 next
    np.testing.assert_array_equal(cell.parameters_dict()["count"].asnumpy(), [2.0])
