"""Write the MindSpore-made checkpoints under tests/data/checkpoint/, and check that MindSpore
loads the ones cellgraph wrote (run with a Python that has MindSpore 2.10):

    python tools/oracle/make_checkpoint_fixtures.py write [DIR]   # MindSpore writes fixtures
    python tools/oracle/make_checkpoint_fixtures.py check DIR     # MindSpore reads DIR/*.ckpt

`write` saves one entry per dtype MindSpore checkpoints hold (with NaN, infinities, -0.0,
subnormals and the integer extremes), append_dict values of every kind, a small network, the
same with crc_check=True, encrypted copies in each mode, and a safetensors file, plus
expected.npz: every entry's raw little-endian bytes (uint8), so a test compares bit for bit.
`check` loads every .ckpt / .safetensors in DIR with MindSpore and compares each entry with
DIR/expected.npz the same way, printing one line per file.
"""
import os
import sys

import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, nn

KEY = b"0123456789abcdef"
KEY32 = bytes(range(32))


def values() -> dict:
    """name -> (float64 or integer values, MindSpore dtype)."""
    special = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan, 1e-8, 65504.0, 3.1415926]
    out = {"f16": (np.array(special, np.float32).astype(np.float16).reshape(2, 5), ms.float16),
           "bf16": (np.array(special + [1e-40, 3e38], np.float32).reshape(3, 4), ms.bfloat16),
           "f32": (np.array(special + [1e-45, 3.4e38], np.float32).reshape(2, 2, 3), ms.float32),
           "f64": (np.array(special + [5e-324, 1.7e308]), ms.float64),
           "flag": (np.array([True, False, True]), ms.bool_),
           "scalar": (np.array(7.5, np.float32), ms.float32)}
    for name in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"):
        info = np.iinfo(name)
        out[name] = (np.array([info.min, info.max, 0, 1, info.max // 3], name), getattr(ms, name))
    return out


class Small(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, weight_init="normal", has_bias=True)
        self.fc = nn.Dense(4, 3, weight_init="normal", bias_init="normal")

    def construct(self, x):
        return self.fc(self.conv(x).mean((2, 3)))


def tensors() -> dict:
    out = {}
    for name, (array, dtype) in values().items():
        out[name] = Parameter(Tensor(array.astype(np.float32) if dtype == ms.bfloat16 else array)
                              .astype(dtype), name=name)
    return out


def raw(value) -> np.ndarray:
    if isinstance(value, str):
        return np.frombuffer(value.encode(), np.uint8)
    if value.dtype == ms.bfloat16:
        bits = value.astype(ms.float32).asnumpy().view(np.uint32) >> 16
        return bits.astype("<u2").view(np.uint8).reshape(-1)
    array = value.asnumpy()
    return np.ascontiguousarray(array).view(np.uint8).reshape(-1)


def write(folder: str) -> None:
    os.makedirs(folder, exist_ok=True)
    ms.set_seed(0)
    params = tensors()
    append = {"epoch_num": 3, "lr": 0.125, "use_amp": True, "net_name": "lenet-ü"}
    ms.save_checkpoint(params, os.path.join(folder, "ms_dtypes.ckpt"), append_dict=append)
    ms.save_checkpoint(params, os.path.join(folder, "ms_dtypes_crc.ckpt"), crc_check=True)
    net = Small()
    ms.save_checkpoint(net, os.path.join(folder, "ms_small_net.ckpt"))
    for mode, key in (("AES-GCM", KEY), ("AES-CBC", KEY), ("SM4-CBC", KEY), ("AES-GCM", KEY32)):
        name = f"ms_enc_{mode}_{len(key)}.ckpt"
        ms.save_checkpoint(net, os.path.join(folder, name), enc_key=key, enc_mode=mode)
    plain = {k: v for k, v in params.items() if k != "bf16"}
    ms.save_checkpoint(plain, os.path.join(folder, "ms_dtypes.safetensors"), format="safetensors")
    expected = {name: raw(value) for name, value in params.items()}
    expected.update({name: raw(p) for name, p in net.parameters_and_names()})
    np.savez(os.path.join(folder, "expected.npz"), **expected)
    write_training_networks(folder)
    for name in sorted(os.listdir(folder)):
        print(f"{name}: {os.path.getsize(os.path.join(folder, name))} bytes")


OPTIMIZERS = {"momentum": lambda p: nn.Momentum(p, 0.1, 0.9),
              "sgd": lambda p: nn.SGD(p, 0.1, momentum=0.9),
              "adamw": lambda p: nn.AdamWeightDecay(p, 0.01)}


class Trainable(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 3, weight_init="normal")
        self.bn = nn.BatchNorm1d(3)
        self.fc2 = nn.Dense(3, 2, weight_init="normal")

    def construct(self, x):
        return self.fc2(self.bn(self.fc1(x)))


def training_network(kind: str):
    """Trainable in a WithLossCell and a TrainOneStepCell with one of OPTIMIZERS: what
    ModelCheckpoint saves during Model.train, optimizer state included."""
    net = Trainable()
    return nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               OPTIMIZERS[kind](net.trainable_params()))


def write_training_networks(folder: str) -> None:
    """ms_train_<optimizer>.ckpt after one step, and ms_train_expected.npz (raw bytes)."""
    ms.set_seed(1)
    x = Tensor(np.linspace(-1, 1, 12).reshape(3, 4).astype(np.float32))
    y = Tensor(np.zeros((3, 2), np.float32))
    expected = {}
    for kind in OPTIMIZERS:
        train = training_network(kind)
        train(x, y)
        ms.save_checkpoint(train, os.path.join(folder, f"ms_train_{kind}.ckpt"))
        expected.update({f"{kind}/{p.name}": raw(p) for p in train.get_parameters()})
    np.savez(os.path.join(folder, "ms_train_expected.npz"), **expected)


def check(folder: str) -> int:
    expected = np.load(os.path.join(folder, "expected.npz"), allow_pickle=False)
    failures = 0
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        kwargs = {}
        if name.endswith(".safetensors"):
            kwargs["format"] = "safetensors"
        elif not name.endswith(".ckpt"):
            continue
        if "_enc_" in name:
            mode = name.split("_enc_")[1].rsplit("_", 1)[0]
            kwargs.update(dec_key=KEY32 if name.endswith("_32.ckpt") else KEY, dec_mode=mode)
        if "_crc" in name:
            kwargs["crc_check"] = True
        try:
            loaded = ms.load_checkpoint(path, **kwargs)
        except Exception as e:  # noqa: BLE001  (report every file, then fail)
            print(f"{name}: MindSpore failed to load it: {type(e).__name__}: {str(e)[:300]}")
            failures += 1
            continue
        bad = [key for key, value in loaded.items() if key in expected.files
               and not np.array_equal(raw(value), expected[key])]
        dtypes = sorted({str(v.dtype) for v in loaded.values() if not isinstance(v, str)})
        strings = {k: v for k, v in loaded.items() if isinstance(v, str)}
        print(f"{name}: {len(loaded)} entries, dtypes {dtypes}, strings {strings}, "
              f"bit-exact: {'all' if not bad else 'NOT ' + ', '.join(bad)}")
        failures += bool(bad)
    return failures


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2] if len(sys.argv) > 2 else os.path.join(
            os.path.dirname(__file__), "..", "..", "tests", "data", "checkpoint"))
    else:
        sys.exit(check(sys.argv[2]))
