"""Checkpoints: save_checkpoint, load_checkpoint, load_param_into_net.

The file is a NumPy .npz archive (a zip of .npy arrays) read with allow_pickle=False, so loading
a checkpoint never runs code. Each parameter is stored under its hierarchical name
("fc1.weight"); a marker entry identifies the format and its version.
"""
from __future__ import annotations

import numbers
import os
import tempfile
import warnings
import zipfile

import numpy as np

from cellgraph.auto_parallel import is_data_parallel
from cellgraph.ops import dtype as dt
from cellgraph.ops.comm_ops import WORLD_COMM_GROUP
from cellgraph.ops.errors import CellgraphError, DTypeError, ShapeError
from cellgraph.runtime import distributed
from cellgraph.runtime.tensor import Parameter, Tensor

from . import safetensors

__all__ = ["CheckpointError", "load_checkpoint", "load_param_into_net", "save_checkpoint"]

# MindSpore's tables from a checkpoint entry's type name to the dtype and to the NumPy type
# (its "str" entries and Int4 have no counterpart here: cellgraph has no string or 4-bit dtype).
_TYPE_NAMES = ("Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64",
               "Float16", "Float32", "Float64", "Bool")
tensor_to_ms_type = {name: dt.as_dtype(name.lower().replace("bool", "bool_"))
                     for name in _TYPE_NAMES}
tensor_to_ms_type["BFloat16"] = dt.bfloat16
tensor_to_np_type = {name: np.dtype(tensor_to_ms_type[name].np).type for name in _TYPE_NAMES}

MARKER = "__cellgraph_checkpoint__"
VERSION = 1
# The .npy format has no bfloat16 or float8 (ml_dtypes' types are stored as raw void bytes):
# such entries are written as their unsigned bit patterns, and an entry named by this pattern
# (for bfloat16: "__cellgraph_bfloat16__") lists them.
ML_DTYPE_MARKER = "__cellgraph_{}__"
FORMATS = ("ckpt", "safetensors")


class CheckpointError(CellgraphError, ValueError):
    """A checkpoint file that cannot be read, or that does not fit the network."""


def _named_values(save_obj, api: str) -> list[tuple[str, np.ndarray]]:
    """(name, array) pairs from a Cell, a list of {"name", "data"} dicts or a dict."""
    if hasattr(save_obj, "parameters_and_names"):
        items = list(save_obj.parameters_and_names())
    elif isinstance(save_obj, dict):
        items = list(save_obj.items())
    elif isinstance(save_obj, (list, tuple)):
        items = []
        for entry in save_obj:
            if not isinstance(entry, dict) or set(entry) < {"name", "data"}:
                raise DTypeError(f"{api}: a list to save must hold dicts with 'name' and 'data', "
                                 f"got {entry!r:.80}")
            items.append((entry["name"], entry["data"]))
    else:
        raise DTypeError(f"{api}: expected a Cell, a dict or a list of {{'name', 'data'}} "
                         f"dicts, got {type(save_obj).__name__}")
    return [(name, _as_array(value, name, api)) for name, value in items]


def _as_array(value, name, api: str) -> np.ndarray:
    if not isinstance(name, str) or not name or name.startswith("__"):
        raise DTypeError(f"{api}: parameter names must be non-empty strings not starting with "
                         f"'__', got {name!r}")
    if isinstance(value, Tensor):
        return value.asnumpy()
    if isinstance(value, (np.ndarray, np.generic, numbers.Number)):
        return np.asarray(value)
    raise DTypeError(f"{api}: cannot save {name!r}: expected a Tensor, array or number, got "
                     f"{type(value).__name__}")


def _supported(array: np.ndarray) -> bool:
    try:
        dt.from_numpy(array.dtype)
        return True
    except TypeError:
        return False


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False,
                    append_dict=None, enc_key=None, enc_mode="AES-GCM", choice_func=None,
                    crc_check=False, format="ckpt", **kwargs) -> None:
    """Write the parameters of `save_obj` (a Cell, a dict name -> Tensor, or MindSpore's list of
    {"name", "data"} dicts) plus `append_dict` entries to `ckpt_file_name`, as a cellgraph
    checkpoint or, with format="safetensors", a safetensors file."""
    api = "save_checkpoint"
    _check_format(format, api)
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise DTypeError(f"{api}: `ckpt_file_name` must be a path, got "
                         f"{type(ckpt_file_name).__name__}")
    named = _named_values(save_obj, api)
    if append_dict:
        named += _named_values(dict(append_dict), api)
    arrays = {}
    for name, array in named:
        if name in arrays:
            raise CheckpointError(f"{api}: two parameters are named {name!r}; give them "
                                  f"distinct names")
        if not _supported(array):
            raise DTypeError(f"{api}: {name!r} has dtype {array.dtype}, which a checkpoint "
                             f"cannot hold")
        arrays[name] = array
    if format == "safetensors":
        if writes_checkpoints():
            safetensors.write(ckpt_file_name, arrays)
        return
    arrays = _encode_ml_dtypes(arrays)
    arrays[MARKER] = np.array(VERSION, np.int64)
    if writes_checkpoints():
        _write(os.fspath(ckpt_file_name), arrays)


def writes_checkpoints() -> bool:
    """False on the ranks of a data-parallel job other than rank 0: they hold the same
    parameters, so rank 0 alone writes them (a rank that reads the file should wait for it,
    `ops.Barrier()` after the save, as no collective happens here: the common
    `if get_rank() == 0: save_checkpoint(...)` must not wait for the other ranks)."""
    if not (is_data_parallel() and distributed.is_initialized()):
        return True
    return distributed.group_rank_and_size(WORLD_COMM_GROUP)[0] == 0


def _write(path: str, arrays: dict) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez(f, **arrays)
        os.replace(tmp, path)  # a crash never leaves a half-written checkpoint behind
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def _encode_ml_dtypes(arrays: dict) -> dict:
    """Entries NumPy's format cannot hold (bfloat16, float8) as their unsigned bit patterns,
    listed per dtype in a marker entry."""
    arrays = dict(arrays)
    for dtype_name in dt.ML_DTYPES:
        names = [name for name, a in arrays.items() if a.dtype.name == dtype_name]
        for name in names:
            arrays[name] = arrays[name].view(f"u{arrays[name].dtype.itemsize}")
        if names:
            arrays[ML_DTYPE_MARKER.format(dtype_name)] = np.array(names)
    return arrays


def _decode_ml_dtypes(arrays: dict) -> dict:
    for dtype_name in dt.ML_DTYPES:
        names = arrays.pop(ML_DTYPE_MARKER.format(dtype_name), None)
        if names is not None:
            np_dtype = dt.as_dtype(dtype_name).np  # needs ml_dtypes, as the saving program did
            for name in names.tolist():
                arrays[name] = arrays[name].view(np_dtype)
    return arrays


def _looks_like_mindspore_protobuf(path: str) -> bool:
    """MindSpore's .ckpt is a protobuf `Checkpoint` whose first field (repeated `value`, a
    length-delimited message) starts with the byte 0x0a; a cellgraph checkpoint is a zip."""
    try:
        with open(path, "rb") as f:
            head = f.read(1)
    except OSError:
        return False
    return head == b"\x0a" and not zipfile.is_zipfile(path)


def _read_arrays(path: str) -> dict:
    api = "load_checkpoint"
    if _looks_like_mindspore_protobuf(path):
        raise CheckpointError(f"{api}: {path!r} looks like a checkpoint saved by MindSpore (a "
                              f"protobuf file), which cellgraph does not read; only files "
                              f"written by cellgraph.save_checkpoint (NumPy archives) load")
    try:
        with np.load(path, allow_pickle=False) as archive:
            names = list(archive.files)
            if MARKER not in names:
                raise CheckpointError(f"{api}: {path!r} is a NumPy archive but not a cellgraph "
                                      f"checkpoint (no {MARKER} entry)")
            return {name: archive[name] for name in names}
    except CheckpointError:
        raise
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, KeyError) as e:
        raise CheckpointError(f"{api}: {path!r} is not a valid checkpoint file (corrupted or "
                              f"truncated): {type(e).__name__}: {e}") from None


def read_checkpoint_arrays(path: str) -> dict:
    """The entries of a cellgraph checkpoint file, name -> ndarray."""
    arrays = _decode_ml_dtypes(_read_arrays(path))
    version = arrays.pop(MARKER)
    if version.shape != () or int(version) > VERSION:
        raise CheckpointError(f"load_checkpoint: {path!r} has format version {version}, newer "
                              f"than this cellgraph reads ({VERSION})")
    return arrays


def _check_format(format, api: str) -> None:
    if format not in FORMATS:
        raise ValueError(f"{api}: `format` must be 'ckpt' or 'safetensors', got {format!r}")


def _read_safetensors(path: str) -> dict:
    try:
        return safetensors.read(path)[0]
    except safetensors.SafetensorsError as e:
        raise CheckpointError(f"load_checkpoint: {e}") from None


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None,
                    dec_key=None, dec_mode="AES-GCM", specify_prefix=None,
                    choice_func=None, crc_check=False, remove_redundancy=False,
                    format="ckpt") -> dict:
    """The checkpoint's parameters (a cellgraph checkpoint, or a safetensors file with
    format="safetensors") as a dict name -> Parameter (and loaded into `net` if given).
    `filter_prefix` drops names starting with it; `specify_prefix` keeps only those."""
    api = "load_checkpoint"
    _check_format(format, api)
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise DTypeError(f"{api}: `ckpt_file_name` must be a path, got "
                         f"{type(ckpt_file_name).__name__}")
    path = os.fspath(ckpt_file_name)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{api}: no checkpoint file at {path!r}")
    arrays = _read_safetensors(path) if format == "safetensors" else \
        read_checkpoint_arrays(path)
    drop = _prefixes(filter_prefix, api, "filter_prefix")
    keep = _prefixes(specify_prefix, api, "specify_prefix")
    params = {}
    for name, array in arrays.items():
        if drop and name.startswith(drop) or keep and not name.startswith(keep):
            continue
        if choice_func is not None and not choice_func(name):
            continue
        if not _supported(array):
            raise CheckpointError(f"{api}: entry {name!r} of {path!r} has dtype {array.dtype}, "
                                  f"which no parameter has")
        params[name] = Parameter(Tensor(array, dt.from_numpy(array.dtype)), name=name)
    if net is not None:
        load_param_into_net(net, params, strict_load)
    return params


def _prefixes(value, api: str, name: str) -> tuple:
    if value is None:
        return ()
    items = (value,) if isinstance(value, str) else tuple(value)
    if not all(isinstance(v, str) and v for v in items):
        raise DTypeError(f"{api}: `{name}` must be a string or a list of strings, got {value!r}")
    return items


def _converted(param, value, strict: bool, name: str) -> np.ndarray:
    """The checkpoint value as the parameter's dtype, or an error for a mismatch."""
    array = value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)
    if tuple(array.shape) != tuple(param.shape):
        raise ShapeError(f"load_param_into_net: Parameter {name!r} has shape "
                         f"{tuple(param.shape)} in the network but {tuple(array.shape)} in "
                         f"the checkpoint")
    want = param.dtype.np
    if array.dtype != want:
        have = dt.from_numpy(array.dtype)  # bfloat16 is a float though NumPy calls it void
        same_kind = (have.is_float and param.dtype.is_float) or (
            have.is_int and param.dtype.is_int) or (have.is_bool and param.dtype.is_bool)
        if strict or not same_kind:
            raise DTypeError(f"load_param_into_net: Parameter {name!r} has dtype {param.dtype} "
                             f"in the network but {dt.from_numpy(array.dtype)} in the "
                             f"checkpoint" + ("" if strict else "; only conversions within "
                                              "floats or within integers are made"))
        converted = array.astype(want)
        if not np.array_equal(converted.astype(array.dtype), array, equal_nan=same_kind
                              and array.dtype.kind == "f"):
            raise DTypeError(f"load_param_into_net: Parameter {name!r} is {param.dtype} in the "
                             f"network but {dt.from_numpy(array.dtype)} in the checkpoint, and "
                             f"converting would change values ({_first_change(array, converted)})"
                             f"; convert the checkpoint's values yourself if that is intended")
        array = converted
    return array


def _first_change(array: np.ndarray, converted: np.ndarray) -> str:
    back = converted.astype(array.dtype)
    changed = np.flatnonzero(~((back == array) | (np.isnan(back) & np.isnan(array))
                               if array.dtype.kind == "f" else back == array))
    i = int(changed[0])
    return f"{array.flat[i].item()!r} would become {converted.flat[i].item()!r}"


def load_param_into_net(net, parameter_dict, strict_load=False,
                        remove_redundancy=False) -> tuple[list, list]:
    """Copy `parameter_dict` (name -> Parameter/Tensor) into the network's parameters of the
    same names. Returns (network parameters not loaded, checkpoint entries not used).

    A shape mismatch is an error; a dtype mismatch is converted within floats or within
    integers when no value changes (300 never becomes an int8 44, 0.1 never a float32) unless
    `strict_load`, which also makes a missing parameter an error. Network parameters not loaded
    and checkpoint entries not used are reported (a warning each) and returned. Nothing is
    changed unless every check passes."""
    if remove_redundancy:
        raise NotImplementedError("load_param_into_net: remove_redundancy=True (a checkpoint "
                                  "whose data-parallel ranks each saved only their share) is "
                                  "not supported")
    api = "load_param_into_net"
    if not hasattr(net, "parameters_and_names"):
        raise DTypeError(f"{api}: `net` must be a Cell, got {type(net).__name__}")
    if not isinstance(parameter_dict, dict):
        raise DTypeError(f"{api}: `parameter_dict` must be a dict, got "
                         f"{type(parameter_dict).__name__}")
    updates, missing = [], []
    for name, param in net.parameters_and_names():
        if name not in parameter_dict:
            missing.append(name)
            continue
        updates.append((param, _converted(param, parameter_dict[name], strict_load, name)))
    if missing and strict_load:
        raise CheckpointError(f"{api}: the checkpoint has no value for "
                              f"{len(missing)} parameter(s) of the network: "
                              f"{', '.join(missing[:10])}" + (" ..." if len(missing) > 10
                                                             else ""))
    for param, array in updates:
        param.set_data(array)
    used = {name for name, _ in net.parameters_and_names()}
    unused = [name for name in parameter_dict if name not in used]
    if missing:
        warnings.warn(f"{api}: {len(missing)} parameter(s) of the network were not loaded: "
                      f"{', '.join(missing[:10])}", stacklevel=2)
    if unused:
        warnings.warn(f"{api}: {len(unused)} checkpoint entr{'y' if len(unused) == 1 else 'ies'}"
                      f" named no parameter of the network: {', '.join(unused[:10])}",
                      stacklevel=2)
    return missing, unused
