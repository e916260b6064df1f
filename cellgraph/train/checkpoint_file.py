"""Reading a .ckpt file into arrays: MindSpore's protobuf checkpoint (checkpoint_proto), plain
or encrypted (checkpoint_crypto), and cellgraph's earlier format (a NumPy .npz archive with a
marker entry, read with allow_pickle=False). Every entry's bytes must be exactly what its dims
and type declare, so a huge declared shape is an error here, never an allocation."""
from __future__ import annotations

import warnings
import zipfile

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import CellgraphError

from . import checkpoint_crypto
from . import checkpoint_proto as proto

MARKER = "__cellgraph_checkpoint__"  # cellgraph's earlier .npz format
VERSION = 1
ML_DTYPE_MARKER = "__cellgraph_{}__"
_ML_ITEMSIZE = {"BFloat16": 2, "Float8E4M3FN": 1, "Float8E5M2": 1}


class CheckpointError(CellgraphError, ValueError):
    """A checkpoint file that cannot be read, or that does not fit the network."""


def entry_array(name: str, dims, type_name: str, data) -> np.ndarray:
    """The array of one entry; its bytes must be exactly what its dims and type declare."""
    if type_name not in proto.TYPE_NAMES:
        raise CheckpointError(f"entry {name!r} has type {type_name!r}; expected one of "
                              f"{', '.join(proto.TYPE_NAMES)} or 'str'")
    dtype = dt.as_dtype(proto.TYPE_NAMES[type_name])
    ml_dtype = dtype.np_name in dt.ML_DTYPES
    itemsize = _ML_ITEMSIZE[type_name] if ml_dtype else np.dtype(dtype.np_name).itemsize
    if any(d < 0 for d in dims):
        raise CheckpointError(f"entry {name!r} declares the shape {tuple(dims)}")
    shape = tuple(dims)
    if shape == (0,) and len(data) == itemsize:  # MindSpore writes a 0-d tensor's dims as [0]
        shape = ()
    count = 1
    for d in shape:
        count *= d
    if count * itemsize != len(data):
        raise CheckpointError(f"entry {name!r} declares shape {shape} of {type_name} "
                              f"({count * itemsize} bytes) but holds {len(data)} bytes")
    if not ml_dtype:
        return np.frombuffer(data, np.dtype(dtype.np_name).newbyteorder("<")).reshape(shape) \
            .astype(dtype.np_name)
    bits = np.frombuffer(data, f"<u{itemsize}").reshape(shape).astype(f"u{itemsize}")
    if proto.has_ml_dtypes():
        return bits.view(dtype.np)
    if type_name == "BFloat16":
        return proto.bfloat16_bits_to_float32(bits)
    raise CheckpointError(f"entry {name!r} is {type_name}, which needs the ml_dtypes package: "
                          f"pip install 'cellgraph[bfloat16]'")


def read_ckpt(path: str, dec_key=None, dec_mode="AES-GCM", crc_check=False,
              keep=lambda name: True) -> dict:
    """The entries of a MindSpore checkpoint file that `keep` accepts, name -> ndarray (or str
    for MindSpore's string entries)."""
    with open(path, "rb") as f:
        blob = f.read()
    if dec_key is not None:
        blob, _ = proto.split_crc(blob)
        blob = checkpoint_crypto.decrypt(blob, dec_key, dec_mode, path)
    elif checkpoint_crypto.is_cipher(blob):
        raise CheckpointError(f"{path!r} is an encrypted checkpoint; pass its `dec_key` (and "
                              f"`dec_mode`)")
    blob, stored_crc = proto.split_crc(blob)
    if crc_check:
        if stored_crc is None:
            warnings.warn(f"load_checkpoint: {path!r} holds no CRC code to check", stacklevel=3)
        elif proto.crc32(blob) != stored_crc:
            raise CheckpointError(f"{path!r}: the CRC check failed; the file is damaged")
    arrays, pending = {}, []
    try:
        entries = list(proto.iter_entries(blob))
        if not entries and blob:
            raise proto.ProtoError("no checkpoint entry")
        for i, (name, dims, type_name, data) in enumerate(entries):
            if not keep(name):
                continue
            pending.append(data)
            if i + 1 < len(entries) and entries[i + 1][0] == name:
                continue  # a tensor split over several entries continues
            data, pending = b"".join(pending) if len(pending) > 1 else pending[0], []
            if type_name == proto.STRING_TYPE:
                text = np.frombuffer(data, f"<U{max(len(data) // 4, 1)}")
                arrays[name] = str(text[0]) if len(text) else ""
            else:
                arrays[name] = entry_array(name, dims, type_name, data)
    except ValueError as e:  # ProtoError, CheckpointError, or bytes NumPy cannot view
        if dec_key is not None:  # CBC with a wrong key can unpad cleanly into garbage
            raise checkpoint_crypto.DecryptError(
                f"load_checkpoint: failed to decrypt {path!r} with this {dec_mode} key: the "
                f"decrypted bytes are not a checkpoint (wrong key, or a damaged file): {e}"
            ) from None
        raise CheckpointError(f"load_checkpoint: {path!r} is not a valid checkpoint file "
                              f"(corrupted, truncated or not a checkpoint): {e}") from None
    return arrays


def is_npz(path: str) -> bool:
    return zipfile.is_zipfile(path)


def read_npz(path: str) -> dict:
    """The entries of a checkpoint in cellgraph's earlier format (an .npz archive)."""
    api = "load_checkpoint"
    try:
        with np.load(path, allow_pickle=False) as archive:
            names = list(archive.files)
            if MARKER not in names:
                raise CheckpointError(f"{api}: {path!r} is a NumPy archive but not a cellgraph "
                                      f"checkpoint (no {MARKER} entry)")
            arrays = {name: archive[name] for name in names}
    except CheckpointError:
        raise
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, KeyError) as e:
        raise CheckpointError(f"{api}: {path!r} is not a valid checkpoint file (corrupted or "
                              f"truncated): {type(e).__name__}: {e}") from None
    version = arrays.pop(MARKER)
    if version.shape != () or int(version) > VERSION:
        raise CheckpointError(f"{api}: {path!r} has format version {version}, newer than this "
                              f"cellgraph reads ({VERSION})")
    for dtype_name in dt.ML_DTYPES:
        names = arrays.pop(ML_DTYPE_MARKER.format(dtype_name), None)
        for name in ([] if names is None else names.tolist()):
            arrays[name] = arrays[name].view(dt.as_dtype(dtype_name).np)
    return arrays


def read_checkpoint_arrays(path: str) -> dict:
    """The entries of a .ckpt file (MindSpore's format or cellgraph's earlier one)."""
    return read_npz(path) if is_npz(path) else read_ckpt(path)
