"""MindSpore's .ckpt format both ways: files MindSpore 2.10 wrote (tests/data/checkpoint, made
by tools/oracle/make_checkpoint_fixtures.py) load bit for bit for every dtype, and saving them
back gives MindSpore's bytes; CRC, encryption, split tensors, prefixes and hostile headers."""
from __future__ import annotations

import io
import os
import shutil

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn
from cellgraph.train import CheckpointError, serialization
from cellgraph.train import checkpoint_proto as proto

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "data", "checkpoint")
KEY = b"0123456789abcdef"
DTYPES = {"f16": "Float16", "bf16": "BFloat16", "f32": "Float32", "f64": "Float64",
          "flag": "Bool", "int8": "Int8", "int16": "Int16", "int32": "Int32", "int64": "Int64",
          "uint8": "UInt8", "uint16": "UInt16", "uint32": "UInt32", "uint64": "UInt64"}


def _fixture(name: str) -> str:
    return os.path.join(DATA, name)


def _bytes(path) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _expected() -> dict:
    with np.load(_fixture("expected.npz"), allow_pickle=False) as archive:
        return {name: archive[name] for name in archive.files}


def _raw(param) -> np.ndarray:
    """The little-endian bytes of a loaded entry as MindSpore stores them."""
    if param.dtype == ms.bfloat16:
        array = param.asnumpy()
        return np.ascontiguousarray(array).view(np.uint16).astype("<u2").view(np.uint8).ravel()
    if serialization._BF16_AS_F32.get(id(param), lambda: None)() is param:
        bits = proto.float32_to_bfloat16_bits(param.asnumpy())
        return bits.astype("<u2").view(np.uint8).ravel()
    return np.ascontiguousarray(param.asnumpy()).view(np.uint8).ravel()


@pytest.fixture(params=["ml_dtypes", "no ml_dtypes"])
def bf16_mode(request, monkeypatch):
    if request.param == "ml_dtypes":
        pytest.importorskip("ml_dtypes")
    else:
        monkeypatch.setattr(proto, "has_ml_dtypes", lambda: False)
        monkeypatch.setattr(serialization, "_warned_bfloat16", [])
    return request.param


def test_every_dtype_mindspore_writes_loads_bit_for_bit(bf16_mode):
    if bf16_mode == "no ml_dtypes":
        with pytest.warns(UserWarning, match="BFloat16 entries load as float32"):
            params = ms.load_checkpoint(_fixture("ms_dtypes.ckpt"))
        assert params["bf16"].dtype == ms.float32
    else:
        params = ms.load_checkpoint(_fixture("ms_dtypes.ckpt"))
        assert params["bf16"].dtype == ms.bfloat16
    expected = _expected()
    for name, label in DTYPES.items():
        if name != "bf16":
            assert str(params[name].dtype) == label
        np.testing.assert_array_equal(_raw(params[name]), expected[name], err_msg=name)
    assert params["f32"].shape == (2, 2, 3) and params["scalar"].shape == ()
    assert float(params["scalar"].asnumpy()) == 7.5
    # append_dict values: int -> Int64, float -> Float32, bool -> Bool, str -> str
    assert (params["epoch_num"].dtype, int(params["epoch_num"].asnumpy())) == (ms.int64, 3)
    assert (params["lr"].dtype, float(params["lr"].asnumpy())) == (ms.float32, 0.125)
    assert params["use_amp"].dtype == ms.bool_ and params["net_name"] == "lenet-ü"


def test_saving_back_gives_mindsporess_bytes(bf16_mode, tmp_path):
    with pytest.warns() if bf16_mode == "no ml_dtypes" else _no_warning():
        params = ms.load_checkpoint(_fixture("ms_dtypes.ckpt"))
    out = tmp_path / "again.ckpt"
    ms.save_checkpoint(params, str(out))
    assert out.read_bytes() == _bytes(_fixture("ms_dtypes.ckpt"))
    crc_params = {k: v for k, v in params.items() if k in DTYPES or k == "scalar"}
    ms.save_checkpoint(crc_params, str(out), crc_check=True)
    assert out.read_bytes() == _bytes(_fixture("ms_dtypes_crc.ckpt"))


class _no_warning:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_append_dict_and_choice_func_as_mindspore_writes_them(tmp_path):
    params = ms.load_checkpoint(_fixture("ms_dtypes.ckpt"))
    tensors = {k: v for k, v in params.items() if k in DTYPES or k == "scalar"}
    out = tmp_path / "with_append.ckpt"
    ms.save_checkpoint(tensors, str(out), append_dict={
        "epoch_num": 3, "lr": 0.125, "use_amp": True, "net_name": "lenet-ü"})
    assert out.read_bytes() == _bytes(_fixture("ms_dtypes.ckpt"))
    ms.save_checkpoint(tensors, str(tmp_path / "few"), choice_func=lambda n: n.startswith("f"),
                       append_dict={"step": 1})
    assert sorted(ms.load_checkpoint(str(tmp_path / "few.ckpt"))) == [
        "f16", "f32", "f64", "flag", "step"]  # ".ckpt" appended; append_dict is not filtered
    with pytest.raises(TypeError, match="append_dict"):
        ms.save_checkpoint(tensors, str(out), append_dict={"bad": [1, 2]})
    with pytest.raises(TypeError, match="unexpected keyword"):
        ms.save_checkpoint(tensors, str(out), enc_kye=KEY)


def test_a_name_saved_twice_keeps_its_first_place_and_its_last_value(tmp_path):
    # MindSpore 2.10 keys the entries by name: an append_dict key that is also a parameter's
    # name (append_info's "momentum" beside Momentum's own) or a name repeated in a list gives
    # one entry, where the name first came, holding the later value
    net = nn.Dense(2, 2)
    net.weight.set_data(Tensor(np.ones((2, 2), np.float32)))
    path = str(tmp_path / "twice.ckpt")
    ms.save_checkpoint(net, path, append_dict={"weight": 5, "epoch": 3})
    loaded = ms.load_checkpoint(path)
    assert list(loaded) == ["weight", "bias", "epoch"]
    assert loaded["weight"].dtype == ms.int64 and loaded["weight"].shape == ()
    assert int(loaded["weight"].asnumpy()) == 5
    ms.save_checkpoint([{"name": "a", "data": Tensor([1.0])}, {"name": "b", "data": Tensor([2])},
                        {"name": "a", "data": Tensor([3, 4])}], path)
    loaded = ms.load_checkpoint(path)
    assert list(loaded) == ["a", "b"]
    assert loaded["a"].asnumpy().tolist() == [3, 4] and loaded["a"].dtype == ms.int64


def test_prefixes_and_choice_func_on_load():
    path = _fixture("ms_dtypes.ckpt")
    assert sorted(ms.load_checkpoint(path, specify_prefix=["int", "uint8"])) == [
        "int16", "int32", "int64", "int8", "uint8"]
    kept = ms.load_checkpoint(path, specify_prefix="int", filter_prefix=("int6", "int8"))
    assert sorted(kept) == ["int16", "int32"]
    # a prefix overrides choice_func, as in MindSpore
    assert sorted(ms.load_checkpoint(path, specify_prefix="f1", choice_func=lambda n: False)) \
        == ["f16"]
    assert sorted(ms.load_checkpoint(path, choice_func=lambda n: n.endswith("64"))) == [
        "f64", "int64", "uint64"]
    with pytest.raises(ValueError, match="empty after filter or specify"):
        ms.load_checkpoint(path, specify_prefix="nothing")
    with pytest.raises(ValueError, match="can't include ''"):
        ms.load_checkpoint(path, filter_prefix=["a", ""])
    with pytest.raises(TypeError, match="specify_prefix"):
        ms.load_checkpoint(path, specify_prefix=3)


def test_a_mindspore_network_checkpoint_loads_into_a_network():
    class Small(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 2, 3, has_bias=True)
            self.fc = nn.Dense(4, 3)

        def construct(self, x):
            return self.fc(self.conv(x).mean((2, 3)))

    net = Small()
    not_loaded, unused = ms.load_param_into_net(net, ms.load_checkpoint(
        _fixture("ms_small_net.ckpt")), strict_load=True)
    assert not_loaded == [] and unused == []
    expected = _expected()
    for name, param in net.parameters_and_names():
        np.testing.assert_array_equal(_raw(param), expected[name], err_msg=name)


def test_strings_are_not_parameters_of_a_network():
    net = nn.Dense(2, 2)
    params = {"weight": Parameter(Tensor(np.ones((2, 2), np.float32)), name="weight"),
              "bias": Parameter(Tensor(np.zeros(2, np.float32)), name="bias"), "tag": "v1"}
    with pytest.warns(UserWarning, match="named no parameter of the network: tag"):
        assert ms.load_param_into_net(net, params) == ([], ["tag"])


def test_crc_check(tmp_path):
    params = ms.load_checkpoint(_fixture("ms_dtypes_crc.ckpt"), crc_check=True)
    assert len(params) == 14
    data = bytearray(_bytes(_fixture("ms_dtypes_crc.ckpt")))
    data[data.index(b"Float64") + 12] ^= 0x01
    (tmp_path / "bad.ckpt").write_bytes(bytes(data))
    ms.load_checkpoint(str(tmp_path / "bad.ckpt"))  # unchecked: loads, as in MindSpore
    with pytest.raises(CheckpointError, match="CRC check failed"):
        ms.load_checkpoint(str(tmp_path / "bad.ckpt"), crc_check=True)
    with pytest.warns(UserWarning, match="holds no CRC code"):
        ms.load_checkpoint(_fixture("ms_dtypes.ckpt"), crc_check=True)


@pytest.mark.parametrize("name,mode,key", [("ms_enc_AES-GCM_16.ckpt", "AES-GCM", KEY),
                                           ("ms_enc_AES-GCM_32.ckpt", "AES-GCM", bytes(range(32))),
                                           ("ms_enc_AES-CBC_16.ckpt", "AES-CBC", KEY),
                                           ("ms_enc_SM4-CBC_16.ckpt", "SM4-CBC", KEY)])
def test_encrypted_checkpoints_both_ways(tmp_path, name, mode, key):
    pytest.importorskip("cryptography")
    expected = _expected()
    params = ms.load_checkpoint(_fixture(name), dec_key=key, dec_mode=mode)
    for entry, param in params.items():
        np.testing.assert_array_equal(_raw(param), expected[entry])
    out = str(tmp_path / "mine.ckpt")
    ms.save_checkpoint(params, out, enc_key=key, enc_mode=mode)
    assert b"Float32" not in _bytes(out)
    again = ms.load_checkpoint(out, dec_key=key, dec_mode=mode)
    for entry, param in again.items():
        np.testing.assert_array_equal(_raw(param), expected[entry])
    with pytest.raises(ValueError, match="failed to decrypt"):
        ms.load_checkpoint(out, dec_key=bytes(reversed(key)), dec_mode=mode)
    with pytest.raises(CheckpointError, match="encrypted checkpoint; pass its `dec_key`"):
        ms.load_checkpoint(out)


def test_a_wrong_key_that_unpads_cleanly_is_still_a_decryption_error(tmp_path, monkeypatch):
    # CBC under a wrong key unpads without error about one time in 256, into garbage; the
    # error must still say the key is wrong, not that the file is no checkpoint.
    pytest.importorskip("cryptography")
    out = str(tmp_path / "enc.ckpt")
    ms.save_checkpoint(nn.Dense(2, 2), out, enc_key=KEY, enc_mode="AES-CBC")
    monkeypatch.setattr(serialization.checkpoint_crypto, "decrypt",
                        lambda blob, key, mode, path: b"\x0f\xff\x13garbage")
    with pytest.raises(ValueError, match="failed to decrypt .* not a checkpoint"):
        ms.load_checkpoint(out, dec_key=KEY, dec_mode="AES-CBC")


def test_encryption_never_writes_a_plain_file(tmp_path, monkeypatch):
    path = tmp_path / "secret.ckpt"
    with pytest.raises(ValueError, match="key must be 16, 24 or 32 bytes"):
        ms.save_checkpoint(nn.Dense(2, 2), str(path), enc_key=b"short")
    with pytest.raises(ValueError, match="encryption mode must be one of"):
        ms.save_checkpoint(nn.Dense(2, 2), str(path), enc_key=KEY, enc_mode="DES")
    with pytest.raises(ValueError, match="cannot be used together"):
        ms.save_checkpoint(nn.Dense(2, 2), str(path), enc_key=KEY, crc_check=True)

    def missing(api):
        raise ImportError(f"{api}: encrypted checkpoints need the cryptography package: "
                          f"pip install 'cellgraph[crypto]'")

    monkeypatch.setattr(serialization.checkpoint_crypto, "_modules", missing)
    with pytest.raises(ImportError, match=r"cellgraph\[crypto\]"):
        ms.save_checkpoint(nn.Dense(2, 2), str(path), enc_key=KEY)
    assert not path.exists()


def test_tensors_split_over_entries(tmp_path, monkeypatch):
    monkeypatch.setattr(proto, "SLICE_BYTES", 64)
    big = np.arange(100, dtype=np.float32).reshape(10, 10)
    path = str(tmp_path / "split.ckpt")
    ms.save_checkpoint({"big": Tensor(big), "small": Tensor(np.ones(2, np.int8))}, path)
    entries = list(proto.iter_entries(_bytes(path)))
    assert [tag for tag, *_ in entries] == ["big"] * 7 + ["small"]
    assert all(dims == [10, 10] for tag, dims, *_ in entries if tag == "big")
    loaded = ms.load_checkpoint(path)
    np.testing.assert_array_equal(loaded["big"].asnumpy(), big)


def _entry_file(tmp_path, dims, type_name="Float32", content=b"\x00" * 4):
    path = tmp_path / "hostile.ckpt"
    path.write_bytes(proto.encode_entry("w", dims, type_name, content))
    return str(path)


def test_hostile_headers_give_typed_errors(tmp_path):
    with pytest.raises(CheckpointError, match=r"declares shape \(1099511627776, 1099511627776\)"):
        ms.load_checkpoint(_entry_file(tmp_path, [2 ** 40, 2 ** 40]))
    with pytest.raises(CheckpointError, match="declares the shape"):
        ms.load_checkpoint(_entry_file(tmp_path, [-1]))
    with pytest.raises(CheckpointError, match="has type 'Complex64'"):
        ms.load_checkpoint(_entry_file(tmp_path, [1], "Complex64", b"\x00" * 8))
    good = _bytes(_entry_file(tmp_path, [1]))
    for damaged in (good[:-2], good[:5], b"\x0a\xff\xff\xff\xff\x0f" + good, b"\xff" * 20):
        (tmp_path / "d.ckpt").write_bytes(damaged)
        with pytest.raises(CheckpointError, match="not a valid checkpoint file"):
            ms.load_checkpoint(str(tmp_path / "d.ckpt"))


def test_safetensors_both_ways_and_conversion(tmp_path):
    params = ms.load_checkpoint(_fixture("ms_dtypes.safetensors"), format="safetensors")
    expected = _expected()
    for name, param in params.items():
        np.testing.assert_array_equal(_raw(param), expected[name], err_msg=name)
    out = str(tmp_path / "mine.safetensors")
    ms.save_checkpoint(params, out, format="safetensors", crc_check=True)
    again = ms.load_checkpoint(out, format="safetensors", crc_check=True)
    assert sorted(again) == sorted(params)
    shutil.copy(_fixture("ms_small_net.ckpt"), tmp_path / "net.ckpt")
    ms.ckpt_to_safetensors(str(tmp_path / "net.ckpt"), str(tmp_path / "st"))
    converted = ms.load_checkpoint(str(tmp_path / "st" / "net.safetensors"),
                                   format="safetensors")
    os.remove(tmp_path / "net.ckpt")
    ms.safetensors_to_ckpt(str(tmp_path / "st" / "net.safetensors"), str(tmp_path))
    assert _bytes(tmp_path / "net.ckpt") == _bytes(_fixture("ms_small_net.ckpt"))
    assert sorted(converted) == ["conv.bias", "conv.weight", "fc.bias", "fc.weight"]
    with pytest.raises(ValueError, match="when format is 'safetensors'"):
        ms.save_checkpoint(params, out, format="safetensors", enc_key=KEY)
    with open(out, "rb") as f:  # a file object, as MindSpore allows for safetensors
        streamed = ms.load_checkpoint(io.BytesIO(f.read()), format="safetensors")
    assert sorted(streamed) == sorted(params)
    with pytest.raises(TypeError, match="a file object only for format='safetensors'"):
        ms.load_checkpoint(io.BytesIO(b""))


def test_remove_redundancy_needs_a_parallel_job():
    net = nn.Dense(2, 2)
    params = {name: p for name, p in net.parameters_and_names()}
    with pytest.raises(TypeError, match="stand-alone"):
        ms.load_param_into_net(net, params, remove_redundancy=True)


def test_safetensors_files_agree_with_the_safetensors_library(tmp_path):
    st = pytest.importorskip("safetensors.numpy")
    params = ms.load_checkpoint(_fixture("ms_dtypes.safetensors"), format="safetensors")
    ours = str(tmp_path / "ours.safetensors")
    ms.save_checkpoint(params, ours, format="safetensors")
    theirs = st.load_file(ours)
    for name, param in params.items():
        np.testing.assert_array_equal(theirs[name], param.asnumpy(), err_msg=name)
        assert theirs[name].dtype == param.asnumpy().dtype
    st.save_file({"a": np.arange(6, dtype=np.int16).reshape(2, 3), "b": np.array(True)},
                 str(tmp_path / "lib.safetensors"))
    loaded = ms.load_checkpoint(str(tmp_path / "lib.safetensors"), format="safetensors")
    np.testing.assert_array_equal(loaded["a"].asnumpy(), np.arange(6).reshape(2, 3))
    assert loaded["a"].dtype == ms.int16 and loaded["b"].shape == ()


class _Trainable(nn.Cell):  # tools/oracle/make_checkpoint_fixtures.py's Trainable
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 3)
        self.bn = nn.BatchNorm1d(3)
        self.fc2 = nn.Dense(3, 2)

    def construct(self, x):
        return self.fc2(self.bn(self.fc1(x)))


_OPTIMIZERS = {"momentum": lambda p: nn.Momentum(p, 0.1, 0.9),
               "sgd": lambda p: nn.SGD(p, 0.1, momentum=0.9),
               "adamw": lambda p: nn.AdamWeightDecay(p, 0.01)}


@pytest.mark.parametrize("kind", sorted(_OPTIMIZERS))
def test_training_network_checkpoints_line_up_with_mindspores(kind, tmp_path):
    """A checkpoint MindSpore 2.10 saved of a TrainOneStepCell (network and optimizer state,
    as ModelCheckpoint saves it) loads into the same training network here with nothing left
    over on either side, bit for bit, and saving it again gives MindSpore's entries in its
    order."""
    expected = np.load(os.path.join(DATA, "ms_train_expected.npz"))
    names = [key.split("/", 1)[1] for key in expected.files if key.startswith(kind + "/")]
    net = _Trainable()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                _OPTIMIZERS[kind](net.trainable_params()))
    assert [p.name for p in train.get_parameters()] == names
    loaded = ms.load_checkpoint(os.path.join(DATA, f"ms_train_{kind}.ckpt"))
    assert ms.load_param_into_net(train, loaded) == ([], [])
    for p in train.get_parameters():
        np.testing.assert_array_equal(_raw(p), expected[f"{kind}/{p.name}"])
    ms.save_checkpoint(train, str(tmp_path / "again.ckpt"))
    again = ms.load_checkpoint(str(tmp_path / "again.ckpt"))
    assert list(again) == names
    for name, value in again.items():
        np.testing.assert_array_equal(_raw(value), expected[f"{kind}/{name}"])
