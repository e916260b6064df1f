"""The other direction of make_checkpoint_fixtures.py: cellgraph loads every MindSpore-made
fixture and saves it again (same options: CRC, encryption mode and key, safetensors) into DIR,
once with ml_dtypes and once as if it were missing (BFloat16 held as float32), so that

    python tools/oracle/write_cellgraph_checkpoints.py DIR              # cellgraph's Python
    python tools/oracle/make_checkpoint_fixtures.py check DIR           # MindSpore's Python

shows MindSpore loading each file cellgraph wrote, bit for bit.
"""
import os
import shutil
import sys

import cellgraph as ms
from cellgraph.train import checkpoint_file

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "tests", "data", "checkpoint")
KEYS = {16: b"0123456789abcdef", 32: bytes(range(32))}


def options(name: str) -> tuple[dict, dict]:
    """(load options, save options) for a fixture file name."""
    if name.endswith(".safetensors"):
        return {"format": "safetensors"}, {"format": "safetensors"}
    if "_enc_" in name:
        mode, size = name.split("_enc_")[1][:-len(".ckpt")].rsplit("_", 1)
        key = KEYS[int(size)]
        return {"dec_key": key, "dec_mode": mode}, {"enc_key": key, "enc_mode": mode}
    if "_crc" in name:
        return {"crc_check": True}, {"crc_check": True}
    return {}, {}


def main(folder: str) -> None:
    os.makedirs(folder, exist_ok=True)
    shutil.copy(os.path.join(DATA, "expected.npz"), folder)
    for name in sorted(os.listdir(DATA)):
        if not name.endswith((".ckpt", ".safetensors")):
            continue
        load, save = options(name)
        params = ms.load_checkpoint(os.path.join(DATA, name), **load)
        ms.save_checkpoint(params, os.path.join(folder, "cg_" + name), **save)
    checkpoint_file._has_ml_dtypes = lambda: False  # as without ml_dtypes: float32 in memory
    params = ms.load_checkpoint(os.path.join(DATA, "ms_dtypes.ckpt"))
    ms.save_checkpoint(params, os.path.join(folder, "cg_no_ml_dtypes_ms_dtypes.ckpt"))
    for name in sorted(os.listdir(folder)):
        same = ""
        source = os.path.join(DATA, name[3:])
        if os.path.exists(source) and "_enc_" not in name:
            with open(source, "rb") as a, open(os.path.join(folder, name), "rb") as b:
                same = " (the same bytes as MindSpore's file)" if a.read() == b.read() else \
                    " (bytes differ from MindSpore's file)"
        print(f"wrote {name}{same}")


if __name__ == "__main__":
    main(sys.argv[1])
