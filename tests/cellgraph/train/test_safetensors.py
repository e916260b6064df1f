"""safetensors: the byte layout, round trips through save/load_checkpoint, and the converters."""
import json
import struct

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import nn
from cellgraph.train import safetensors
from cellgraph.train.serialization import CheckpointError


def test_byte_layout_is_the_safetensors_format(tmp_path):
    weight = np.arange(6, dtype=np.float32).reshape(2, 3)
    step = np.array([7], np.int64)
    path = tmp_path / "m.safetensors"
    safetensors.write(path, {"w": weight, "step": step}, {"format": "pt"})
    blob = path.read_bytes()
    (size,) = struct.unpack("<Q", blob[:8])
    assert size % 8 == 0
    header = json.loads(blob[8:8 + size])
    assert header["w"] == {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}
    assert header["step"] == {"dtype": "I64", "shape": [1], "data_offsets": [24, 32]}
    assert header["__metadata__"] == {"format": "pt"}
    data = blob[8 + size:]
    np.testing.assert_array_equal(np.frombuffer(data[:24], "<f4").reshape(2, 3), weight)
    assert struct.unpack("<q", data[24:32]) == (7,)
    arrays, metadata = safetensors.read(path)
    np.testing.assert_array_equal(arrays["w"], weight)
    np.testing.assert_array_equal(arrays["step"], step)
    assert metadata == {"format": "pt"}


def test_bad_files_are_refused(tmp_path):
    path = tmp_path / "bad.safetensors"
    path.write_bytes(struct.pack("<Q", 10 ** 9) + b"{}")
    with pytest.raises(CheckpointError, match="header length"):
        ms.load_checkpoint(str(path), format="safetensors")
    header = json.dumps({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 8]}}).encode()
    path.write_bytes(struct.pack("<Q", len(header)) + header + bytes(8))
    with pytest.raises(CheckpointError, match="data_offsets"):
        ms.load_checkpoint(str(path), format="safetensors")
    with pytest.raises(ValueError, match="format"):
        ms.load_checkpoint(str(path), format="npz")


def test_checkpoint_round_trip_and_converters(tmp_path):
    net = nn.Dense(3, 2)
    expected = {name: p.asnumpy() for name, p in net.parameters_and_names()}
    ms.save_checkpoint(net, str(tmp_path / "net.safetensors"), format="safetensors")
    loaded = ms.load_checkpoint(str(tmp_path / "net.safetensors"), format="safetensors")
    for name, array in expected.items():
        np.testing.assert_array_equal(loaded[name].asnumpy(), array)

    (tmp_path / "ckpt" / "rank0").mkdir(parents=True)
    ms.save_checkpoint(net, str(tmp_path / "ckpt" / "rank0" / "a.ckpt"))
    ms.ckpt_to_safetensors(str(tmp_path / "ckpt"), str(tmp_path / "st"),
                           name_map={"weight": "dense.weight"})
    arrays, _ = safetensors.read(tmp_path / "st" / "rank0" / "a.safetensors")
    np.testing.assert_array_equal(arrays["dense.weight"], expected["weight"])
    np.testing.assert_array_equal(arrays["bias"], expected["bias"])

    ms.safetensors_to_ckpt(str(tmp_path / "st" / "rank0" / "a.safetensors"))
    back = ms.load_checkpoint(str(tmp_path / "st" / "rank0" / "a.ckpt"))
    np.testing.assert_array_equal(back["dense.weight"].asnumpy(), expected["weight"])
    with pytest.raises(ValueError, match="ending with '.ckpt'"):
        ms.ckpt_to_safetensors(str(tmp_path / "st" / "rank0" / "a.safetensors"))


def test_bfloat16_and_float8_entries():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    values = np.array([1.5, -2.0, 0.25], np.float32)
    arrays = {"b": values.astype(ml_dtypes.bfloat16), "f": values.astype(ml_dtypes.float8_e4m3fn)}
    blob = safetensors.encode(arrays)
    (size,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + size])
    assert header["b"]["dtype"] == "BF16" and header["f"]["dtype"] == "F8_E4M3"
    # bfloat16 is the top half of float32's bits
    bits = np.frombuffer(blob[8 + size:8 + size + 6], "<u2")
    np.testing.assert_array_equal(bits, (values.view(np.uint32) >> 16).astype(np.uint16))


def test_float8_checkpoint_round_trip(tmp_path):
    pytest.importorskip("ml_dtypes")
    t = ms.Tensor(np.array([0.5, 3.0, -448.0], np.float32)).astype(ms.float8_e4m3fn)
    ms.save_checkpoint({"q": t}, str(tmp_path / "q.ckpt"))
    back = ms.load_checkpoint(str(tmp_path / "q.ckpt"))["q"]
    assert back.dtype == ms.float8_e4m3fn
    np.testing.assert_array_equal(back.asnumpy().astype(np.float32), [0.5, 3.0, -448.0])


def test_load_distributed_checkpoint_merges_agreeing_ranks(tmp_path):
    net = nn.Dense(3, 2)
    files = []
    for rank in range(2):
        files.append(str(tmp_path / f"rank{rank}.safetensors"))
        ms.save_checkpoint(net, files[-1], format="safetensors")
    target = nn.Dense(3, 2)
    merged = ms.load_distributed_checkpoint(target, files, format="safetensors",
                                            return_param_dict=True)
    np.testing.assert_array_equal(target.weight.asnumpy(), net.weight.asnumpy())
    np.testing.assert_array_equal(merged["bias"].asnumpy(), net.bias.asnumpy())

    other = nn.Dense(3, 2)
    other.weight.set_data(ms.Tensor(net.weight.asnumpy() + 1))
    ms.save_checkpoint(other, files[1], format="safetensors")
    with pytest.raises(CheckpointError, match="'(weight|bias)' differs between rank 0 and rank 1"):
        ms.load_distributed_checkpoint(target, files, format="safetensors")
    with pytest.raises(NotImplementedError, match="predict_strategy"):
        ms.load_distributed_checkpoint(target, files, predict_strategy={})
