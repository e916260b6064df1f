"""Checkpoints: save_checkpoint, load_checkpoint, load_param_into_net.

A `.ckpt` file is MindSpore's protobuf checkpoint (`checkpoint_proto`), so files move both ways
between cellgraph and MindSpore; reading one never runs code. `format="safetensors"` reads and
writes Hugging Face's safetensors instead. Checkpoints of cellgraph's earlier format (a NumPy
.npz archive with a marker entry, read with allow_pickle=False) still load.
"""
from __future__ import annotations

import numbers
import os
import warnings
import weakref

import numpy as np

from cellgraph import safe_io
from cellgraph._lazy import lazy_names
from cellgraph.auto_parallel import is_data_parallel
from cellgraph.device import export, load  # MindSpore files them in train.serialization
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.comm_ops import WORLD_COMM_GROUP
from cellgraph.primitives.errors import CellgraphError, DTypeError, ShapeError, UnsupportedError
from cellgraph.runtime import distributed
from cellgraph.runtime.sharded_parameters import gathered, slice_to_hold
from cellgraph.runtime.tensor import Parameter, Tensor, cast_to_dtype

from . import checkpoint_crypto, safetensors
from . import checkpoint_proto as proto
from .async_save import check_async_save, start_async_save
from .checkpoint_file import (
    CheckpointError,
    entry_array,
    is_npz,
    read_checkpoint_arrays,
    read_ckpt,
    read_npz,
)

__all__ = ["CheckpointError", "export", "load", "load_checkpoint", "load_param_into_net",
           "merge_sliced_parameter", "read_checkpoint_arrays", "save_checkpoint"]

# MindSpore's tables from a checkpoint entry's type name to the dtype and to the NumPy type
# (Int4 has no counterpart here: cellgraph has no 4-bit dtype; "str" entries load as str).
tensor_to_ms_type = {label: dt.as_dtype(name) for label, name in proto.TYPE_NAMES.items()}
tensor_to_np_type = {label: np.dtype(dtype.np_name).type for label, dtype in
                     tensor_to_ms_type.items() if dtype.np_name not in dt.ML_DTYPES}
tensor_to_np_type["str"] = "U"

# export(file_format="MINDIR") saves the Parameters apart from the graph when they pass
# TOTAL_SAVE kilobytes, in data files of at most PARAMETER_SPLIT_SIZE kilobytes
# (train/mindir_split.py); MindSpore's names and values, read at each export
TOTAL_SAVE = 1024 * 1024
PARAMETER_SPLIT_SIZE = 1024 * 1024 * 1024

FORMATS = ("ckpt", "safetensors")
_SAVE_KWARGS = ("remove_redundancy", "incremental", "global_step_num")
# Parameters loaded from BFloat16 entries as float32 (no ml_dtypes): saved back as BFloat16
_BF16_AS_F32: dict[int, weakref.ref] = {}
_warned_bfloat16 = []


class CheckpointNotFoundError(CellgraphError, FileNotFoundError, ValueError):
    """No checkpoint file at the path (MindSpore raises ValueError for it)."""


# ----- what to save ------------------------------------------------------------------------------

def _named_values(save_obj, choice_func, api: str) -> list[tuple[str, object]]:
    """(name, value) pairs from a Cell, a list of Parameters or {"name", "data"} dicts, or a
    dict, keeping those `choice_func` accepts."""
    if hasattr(save_obj, "parameters_and_names"):  # saved under each Parameter's own name
        items = [(param.name, param) for _, param in save_obj.parameters_and_names()]
    elif isinstance(save_obj, dict):
        items = list(save_obj.items())
    elif isinstance(save_obj, (list, tuple)):
        items = []
        for entry in save_obj:
            if isinstance(entry, Parameter):
                items.append((entry.name, entry))
            elif isinstance(entry, dict) and {"name", "data"} <= set(entry):
                items.append((entry["name"], entry["data"]))
            else:
                raise DTypeError(f"{api}: a list to save must hold Parameters or dicts with "
                                 f"'name' and 'data', got {entry!r:.80}")
    else:
        raise DTypeError(f"{api}: `save_obj` must be a Cell, a list or a dict, got "
                         f"{type(save_obj).__name__}")
    for name, _ in items:
        if not isinstance(name, str) or not name:
            raise DTypeError(f"{api}: parameter names must be non-empty strings, got {name!r}")
    if choice_func is not None:
        items = [(name, value) for name, value in items if choice_func(name)]
    return items


def _check_append_dict(append_dict, api: str) -> dict:
    if append_dict is None:
        return {}
    if not isinstance(append_dict, dict):
        raise DTypeError(f"{api}: `append_dict` must be a dict, got {type(append_dict).__name__}")
    for key, value in append_dict.items():
        if not isinstance(key, str) or not isinstance(value, (numbers.Number, str, Tensor,
                                                              np.ndarray, np.generic)):
            raise DTypeError(f"{api}: `append_dict` entries must be str: int, float, bool, str "
                             f"or Tensor, got {key!r}: {type(value).__name__}")
    return append_dict


def _append_value(value):
    """An append_dict number as MindSpore stores it (Tensor(value): int64, float32, bool)."""
    if isinstance(value, (bool, np.bool_)):
        return np.asarray(value, np.bool_)
    if isinstance(value, numbers.Integral):
        return np.asarray(value, np.int64)
    if isinstance(value, numbers.Real):
        return np.asarray(value, np.float32)
    return value


def _entry(name: str, value, api: str) -> tuple[list[int], str, bytes]:
    """(dims, MindSpore type string, little-endian bytes) of one value to save."""
    if isinstance(value, proto.BF16Array):
        return list(value.shape), "BFloat16", proto.float32_to_bfloat16_bits(value).tobytes()
    if isinstance(value, str):
        return [0], proto.STRING_TYPE, np.array(value, f"<U{max(len(value), 1)}").tobytes()
    if isinstance(value, Tensor):
        array, dtype = value.asnumpy(), value.dtype
        if _BF16_AS_F32.get(id(value), lambda: None)() is value and dtype == dt.float32:
            return list(array.shape), "BFloat16", proto.float32_to_bfloat16_bits(array).tobytes()
    elif isinstance(value, (np.ndarray, np.generic, numbers.Number)):
        array = np.asarray(value)
        try:
            dtype = dt.from_numpy(array.dtype)
        except TypeError:
            dtype = None
    else:
        raise DTypeError(f"{api}: cannot save {name!r}: expected a Tensor, array, number or "
                         f"str, got {type(value).__name__}")
    if dtype is None or dtype.label not in proto.TYPE_NAMES:
        raise DTypeError(f"{api}: {name!r} has dtype {dtype or array.dtype}, which a MindSpore "
                         f"checkpoint cannot hold (it holds {', '.join(proto.TYPE_NAMES)})")
    if dtype.np_name in dt.ML_DTYPES:
        array = array.view(f"u{array.dtype.itemsize}")
    if array.dtype.byteorder == ">":
        array = array.astype(array.dtype.newbyteorder("<"))
    return list(array.shape), dtype.label, array.tobytes()


# ----- save ---------------------------------------------------------------------------------------

def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False,
                    append_dict=None, enc_key=None, enc_mode="AES-GCM", choice_func=None,
                    crc_check=False, format="ckpt", **kwargs) -> None:
    """Write the parameters of `save_obj` (a Cell, a list of Parameters or of {"name", "data"}
    dicts, or a dict) that `choice_func` keeps, plus `append_dict`, to `ckpt_file_name` (".ckpt"
    or ".safetensors" appended when missing) in MindSpore's checkpoint format or, with
    format="safetensors", as safetensors. With `integrated_save` (the default), a parameter
    each rank holds a slice of (semi-auto parallel) is saved whole, gathered from the ranks
    (every rank must call save_checkpoint then); without it, each rank saves its slice.
    With `async_save` (True, "thread" or "process") the values are read now and the file is
    written in the background (train/async_save.py). The keywords `incremental`
    (MapParameters, which cellgraph has not) and `global_step_num` (AITurbo) change nothing."""
    api = "save_checkpoint"
    path = _save_path(ckpt_file_name, format, api)
    _check_bool(integrated_save, "integrated_save", api)
    check_async_save(async_save)
    append_dict = _check_append_dict(append_dict, api)
    if enc_key is not None and not isinstance(enc_key, bytes):
        raise DTypeError(f"{api}: `enc_key` must be bytes or None, got {type(enc_key).__name__}")
    if not isinstance(enc_mode, str):
        raise DTypeError(f"{api}: `enc_mode` must be a str, got {type(enc_mode).__name__}")
    _check_bool(crc_check, "crc_check", api)
    unknown = set(kwargs) - set(_SAVE_KWARGS)
    if unknown:
        raise TypeError(f"{api}() got unexpected keyword argument(s) {', '.join(sorted(unknown))}")
    remove_redundancy = kwargs.get("remove_redundancy")
    if remove_redundancy is not None and not isinstance(remove_redundancy, bool):
        raise DTypeError(f"{api}: `remove_redundancy` must be a bool or None, got "
                         f"{remove_redundancy!r}")
    if format == "safetensors":
        for name, value, default in (("enc_key", enc_key, None), ("enc_mode", enc_mode,
                                     "AES-GCM"), ("incremental", kwargs.get("incremental", False),
                                     False), ("global_step_num", kwargs.get("global_step_num"),
                                     None)):
            if value != default:
                raise ValueError(f"{api}: when format is 'safetensors', `{name}` must be "
                                 f"{default!r}, got {value!r}")
    named = _named_values(save_obj, choice_func, api)
    if integrated_save:  # sharded parameters whole, gathered on every rank before any writes
        named = [(name, gathered(value)) for name, value in named]
    named += [(key, _append_value(value)) for key, value in append_dict.items()]
    # entries are keyed by name, as MindSpore's are: a later entry with a name already taken
    # (an append_dict key that is also a parameter's name, the optimizer's "momentum" and
    # append_info's, say) replaces the earlier one's value and keeps its place in the file
    by_name = {}
    for name, value in named:
        by_name[name] = value
    named = list(by_name.items())
    # each entry's bytes are made as it is written, so a model is not held twice in memory; an
    # error midway removes the partial file and leaves the old one (safe_io)
    entries = ((name, *_entry(name, value, api)) for name, value in named)
    if enc_key is not None:
        if crc_check:
            raise ValueError(f"{api}: `enc_key` and `crc_check` cannot be used together (an "
                             f"encrypted file is authenticated by its cipher)")
        checkpoint_crypto.check_key(enc_key, enc_mode, api)
    if not writes_checkpoints():
        return
    if format == "safetensors":
        write, options = _write_safetensors, (crc_check, remove_redundancy)
    else:
        write, options = _write_ckpt, (crc_check, enc_key, enc_mode)
    if async_save:  # the bytes as they are now; training goes on changing the parameters
        start_async_save(async_save, write, path, list(entries), *options)
    else:
        write(path, entries, *options)


def _save_path(ckpt_file_name, format, api: str) -> str:
    _check_format(format, api)
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise DTypeError(f"{api}: `ckpt_file_name` must be a path, got "
                         f"{type(ckpt_file_name).__name__}")
    path = os.path.abspath(os.fspath(ckpt_file_name))
    if os.path.isdir(path):
        raise IsADirectoryError(f"{api}: `ckpt_file_name` {path!r} is a folder; it must be a "
                                f"file name")
    return path if path.endswith(format) else f"{path}.{format}"


def _check_bool(value, name: str, api: str) -> None:
    if not isinstance(value, bool):
        raise DTypeError(f"{api}: `{name}` must be a bool, got {value!r}")


def _write_ckpt(path: str, entries, crc_check: bool, enc_key, enc_mode) -> None:
    with safe_io.atomic_write(path) as f:
        if enc_key is not None:
            plain = b"".join(part for name, dims, type_name, data in entries
                             for message in proto.entries_of(name, dims, type_name, data)
                             for part in message)
            f.write(checkpoint_crypto.encrypt(plain, enc_key, enc_mode))
            return
        crc = 0
        for name, dims, type_name, data in entries:
            for head, content in proto.entries_of(name, dims, type_name, data):
                if crc_check:
                    crc = proto.crc32(content, proto.crc32(head, crc))
                f.write(head)
                f.write(content)
        if crc_check:
            f.write(proto.crc_trailer(crc))


def _write_safetensors(path: str, entries, crc_check: bool, remove_redundancy) -> None:
    arrays, metadata, crc = {}, {"format": "ms"}, 0
    if remove_redundancy is not None:
        metadata["remove_redundancy"] = str(remove_redundancy)
    for name, dims, type_name, data in sorted(entries, key=lambda entry: entry[0]):
        if type_name == proto.STRING_TYPE:
            raise DTypeError(f"save_checkpoint: {name!r} is a string, which a safetensors file "
                             f"cannot hold")
        arrays[name] = entry_array(name, dims, type_name, data)
        if crc_check:
            crc = proto.crc32(data, proto.crc32(name.encode(), crc))
    if crc_check:
        metadata["crc_num"] = str(crc)
    safetensors.write(path, arrays, metadata if arrays else None)


def writes_checkpoints() -> bool:
    """False on the ranks of a data-parallel job other than rank 0: they hold the same
    parameters, so rank 0 alone writes them (a rank that reads the file should wait for it,
    `ops.Barrier()` after the save, as no collective happens here: the common
    `if get_rank() == 0: save_checkpoint(...)` must not wait for the other ranks)."""
    if not (is_data_parallel() and distributed.is_initialized()):
        return True
    return distributed.group_rank_and_size(WORLD_COMM_GROUP)[0] == 0


# ----- load ---------------------------------------------------------------------------------------

def _check_format(format, api: str) -> None:
    if format not in FORMATS:
        raise ValueError(f"{api}: `format` must be 'ckpt' or 'safetensors', got {format!r}")


def _read_safetensors(path: str, crc_check: bool, remove_redundancy: bool, keep) -> dict:
    try:
        arrays, metadata = safetensors.read(path)
    except safetensors.SafetensorsError as e:
        raise CheckpointError(f"load_checkpoint: {e}") from None
    if crc_check:
        if "crc_num" not in metadata:
            raise CheckpointError(f"load_checkpoint: {path!r} holds no CRC code to check")
        crc = 0
        for name in arrays:  # in the file's order, as MindSpore checks it
            crc = proto.crc32(arrays[name].tobytes(),
                              proto.crc32(name.encode(), crc))
        if str(crc) != metadata["crc_num"]:
            raise CheckpointError(f"load_checkpoint: {path!r}: the CRC check failed; the file "
                                  f"is damaged")
    saved = metadata.get("remove_redundancy")
    if saved is not None and saved != str(remove_redundancy):
        warnings.warn(f"load_checkpoint: {path!r} was saved with remove_redundancy={saved} but "
                      f"is loaded with remove_redundancy={remove_redundancy}", stacklevel=3)
    return {name: array for name, array in arrays.items() if keep(name)}


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None,
                    dec_key=None, dec_mode="AES-GCM", specify_prefix=None,
                    choice_func=None, crc_check=False, remove_redundancy=False,
                    format="ckpt") -> dict:
    """The checkpoint's entries as a dict name -> Parameter (a str for string entries), loaded
    into `net` if given. `specify_prefix` keeps only names starting with one of its prefixes and
    `filter_prefix` drops those; `choice_func(name)` selects when neither is given."""
    api = "load_checkpoint"
    _check_format(format, api)
    from_stream = format == "safetensors" and hasattr(ckpt_file_name, "read")
    if not from_stream and not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise DTypeError(f"{api}: `ckpt_file_name` must be a path" + (
            " (a file object only for format='safetensors')" if hasattr(ckpt_file_name, "read")
            else "") + f", got {type(ckpt_file_name).__name__}")
    keep_prefix = _prefixes(specify_prefix, api, "specify_prefix")
    drop_prefix = _prefixes(filter_prefix, api, "filter_prefix")
    if dec_key is not None and not isinstance(dec_key, bytes):
        raise DTypeError(f"{api}: `dec_key` must be bytes or None, got {type(dec_key).__name__}")
    if not isinstance(dec_mode, str):
        raise DTypeError(f"{api}: `dec_mode` must be a str, got {type(dec_mode).__name__}")
    _check_bool(crc_check, "crc_check", api)
    _check_bool(remove_redundancy, "remove_redundancy", api)
    if format == "safetensors" and (dec_key is not None or dec_mode != "AES-GCM"):
        raise ValueError(f"{api}: when format is 'safetensors', `dec_key` and `dec_mode` must "
                         f"keep their defaults")
    path = ckpt_file_name if from_stream else os.fspath(ckpt_file_name)
    if not from_stream:
        if not path.endswith(format):
            raise ValueError(f"{api}: the file name must end with the format {format!r}, got "
                             f"{path!r}")
        if not os.path.isfile(path):
            raise CheckpointNotFoundError(f"{api}: no checkpoint file at {path!r}")
    use_choice = choice_func is not None and specify_prefix is None and filter_prefix is None

    def keep(name: str) -> bool:
        if keep_prefix and not name.startswith(keep_prefix):
            return False
        if drop_prefix and name.startswith(drop_prefix):
            return False
        if not use_choice:
            return True
        try:
            return bool(choice_func(name))
        except Exception as exc:  # as MindSpore's: any failure while reading is a ValueError
            raise ValueError(f"{exc}\nFor 'load_checkpoint', failed to load the checkpoint "
                             f"file {path}.") from exc

    if format == "safetensors":
        arrays = _read_safetensors(path, crc_check, remove_redundancy, keep)
    elif is_npz(path) and dec_key is None:
        arrays = {name: a for name, a in read_npz(path).items() if keep(name)}
    else:
        arrays = read_ckpt(path, dec_key, dec_mode, crc_check, keep)
    if not arrays:
        raise ValueError(f"{api}: the loaded parameter dict of {path!r} is empty after "
                         f"filter or specify; check `filter_prefix`, `specify_prefix` and "
                         f"`choice_func`")
    params = {name: _parameter(name, value, path) for name, value in arrays.items()}
    if not _warned_bfloat16 and any(isinstance(v, proto.BF16Array) for v in arrays.values()):
        _warned_bfloat16.append(True)
        warnings.warn("load_checkpoint: BFloat16 entries load as float32 (exactly) because "
                      "ml_dtypes is not installed (pip install 'cellgraph[bfloat16]'); "
                      "save_checkpoint writes them back as BFloat16", stacklevel=2)
    if net is not None:
        load_param_into_net(net, params, strict_load, remove_redundancy)
    return params


def _parameter(name: str, value, path: str):
    if isinstance(value, str):
        return value
    if isinstance(value, proto.BF16Array):  # a BFloat16 entry, ml_dtypes missing
        param = Parameter(Tensor(value.view(np.ndarray), dt.float32), name=name)
        key = id(param)
        _BF16_AS_F32[key] = weakref.ref(param, lambda _, key=key: _BF16_AS_F32.pop(key, None))
        return param
    try:
        dtype = dt.from_numpy(value.dtype)
    except TypeError:
        raise CheckpointError(f"load_checkpoint: entry {name!r} of {path!r} has dtype "
                              f"{value.dtype}, which no parameter has") from None
    return Parameter(Tensor(value, dtype), name=name)


def _prefixes(value, api: str, name: str) -> tuple:
    if value is None:
        return ()
    if not isinstance(value, (str, list, tuple)):
        raise DTypeError(f"{api}: `{name}` must be a string, list[string] or tuple[string], got "
                         f"{type(value).__name__}")
    items = (value,) if isinstance(value, str) else tuple(value)
    if not items:
        raise ValueError(f"{api}: `{name}` can't be an empty {type(value).__name__}")
    for i, prefix in enumerate(items):
        if not isinstance(prefix, str):
            raise DTypeError(f"{api}: the elements of `{name}` must be strings, got "
                             f"{type(prefix).__name__} at index {i}")
        if not prefix:
            raise ValueError(f"{api}: `{name}` can't include ''")
    return items


class _ParameterShapeError(ShapeError, RuntimeError):
    """A checkpoint value of another shape than its parameter's: MindSpore raises RuntimeError."""


class _ParameterDTypeError(DTypeError, RuntimeError):
    """A checkpoint value of a dtype its parameter's cannot take: MindSpore raises RuntimeError."""


def _converted(param, value, strict: bool, name: str) -> np.ndarray:
    """The checkpoint value as the parameter's dtype (this rank's slice of a whole value for a
    parameter held as slices), or an error for a mismatch."""
    array = value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)
    array = slice_to_hold(param, array)
    if tuple(array.shape) != tuple(param.shape):
        raise _ParameterShapeError(f"load_param_into_net: Parameter {name!r} has shape "
                         f"{tuple(param.shape)} in the network but {tuple(array.shape)} in "
                         f"the checkpoint")
    want = param.dtype.np
    if array.dtype != want:
        have = dt.from_numpy(array.dtype)  # bfloat16 is a float though NumPy calls it void
        same_kind = (have.is_float and param.dtype.is_float) or (
            have.is_int and param.dtype.is_int) or (have.is_bool and param.dtype.is_bool)
        if strict or not same_kind:
            raise _ParameterDTypeError(f"load_param_into_net: Parameter {name!r} has dtype {param.dtype} "
                             f"in the network but {dt.from_numpy(array.dtype)} in the "
                             f"checkpoint" + ("" if strict else "; only conversions within "
                                              "floats or within integers are made"))
        converted = cast_to_dtype(array, want)  # floats round as MindSpore casts them
        if not have.is_float and not np.array_equal(converted.astype(array.dtype), array):
            raise _ParameterDTypeError(f"load_param_into_net: Parameter {name!r} is {param.dtype} in the "
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

    A shape mismatch is an error; a dtype mismatch is converted within floats (rounded, as
    MindSpore casts) or within integers when no value changes (300 never becomes an int8 44) unless
    `strict_load`. Network parameters not loaded and checkpoint entries not used are reported
    (a warning each, strict or not, as in MindSpore) and returned. Nothing is
    changed unless every check passes. String entries (append_dict's) name no parameter.
    `remove_redundancy` (a checkpoint whose data-parallel copies were saved once, spread over
    the ranks) needs a parallel job that redistributes them, which cellgraph does not do."""
    api = "load_param_into_net"
    _check_bool(strict_load, "strict_load", api)
    _check_bool(remove_redundancy, "remove_redundancy", api)
    if remove_redundancy:
        if not distributed.is_initialized() or \
                distributed.group_rank_and_size(WORLD_COMM_GROUP)[1] == 1:
            raise DTypeError(f"{api}: loading a checkpoint saved with redundancy removal "
                             f"(remove_redundancy=True) needs a parallel job, but this one is "
                             f"stand-alone")
        raise CheckpointError(f"{api}: remove_redundancy=True (each rank loading its share "
                              f"and broadcasting it) is not supported; save the checkpoint "
                              f"with remove_redundancy=False")
    if not hasattr(net, "parameters_and_names"):
        raise DTypeError(f"{api}: `net` must be a Cell, got {type(net).__name__}")
    if not isinstance(parameter_dict, dict):
        raise DTypeError(f"{api}: `parameter_dict` must be a dict, got "
                         f"{type(parameter_dict).__name__}")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Tensor, np.ndarray, str)):
            raise DTypeError(f"For 'parameter_dict', the element in the argument 'parameter_dict' "
                             f"should be a 'str' and 'Parameter' , but got {type(key)} and "
                             f"{type(value)}.")
    updates, missing = [], []
    net_params = [(param.name, param) for _, param in net.parameters_and_names()]
    for name, param in net_params:  # found by each Parameter's own name, as MindSpore does
        if name in parameter_dict and isinstance(parameter_dict[name], str):
            continue  # an append_dict string: not loaded, reported as unused
        if name not in parameter_dict:
            missing.append(name)
            continue
        updates.append((param, _converted(param, parameter_dict[name], strict_load, name)))
    for param, array in updates:
        param.set_data(array)
    used = {name for name, _ in net_params}
    unused = [name for name in parameter_dict if name not in used]
    if missing:
        warnings.warn(f"{api}: {len(missing)} parameter(s) of the network were not loaded: "
                      f"{', '.join(missing[:10])}", stacklevel=2)
    if unused:
        warnings.warn(f"{api}: {len(unused)} checkpoint entr{'y' if len(unused) == 1 else 'ies'}"
                      f" named no parameter of the network: {', '.join(unused[:10])}",
                      stacklevel=2)
    return missing, unused


def _save_graph(network, file_name):
    """MindSpore writes the network's compiled graph as its IR protobuf (`get_func_graph_proto`)
    to `file_name`; cellgraph's graphs are no MindSpore protobufs, so this is refused (the
    `cellgraph ir` command and `dump_ir` show them)."""
    raise UnsupportedError(f"_save_graph: cellgraph cannot write {type(network).__name__}'s "
                           f"graph as MindSpore's IR protobuf to {file_name!r}; use "
                           f"cellgraph.dump_ir or the `cellgraph ir` command to see it")


def _get_funcgraph(net, *inputs):
    """Compile the Cell `net` for `inputs` and return its optimised graph (cellgraph's IR
    `Graph`, where MindSpore returns its FuncGraph); a compile error is raised as when the
    Cell is called."""
    from cellgraph.inspect_ir import graph_at_stage
    from cellgraph.nn.cell import Cell

    if not isinstance(net, Cell):  # MindSpore's ValueError
        raise ValueError(  # noqa: TRY004
            "For get_funcgraph's parameter 'net', currently only support Cell right now.")
    return graph_at_stage(net, *inputs, stage="optimize")


def merge_sliced_parameter(sliced_parameters, strategy=None):
    """One Parameter from the slices of a Parameter saved by several devices, joined along
    axis 0 in order, with MindSpore's checks: a non-empty list of Parameters of one name, rank
    and trailing shape. A `strategy` (MindSpore's saved parallel layouts) is not read by
    cellgraph, which saves whole Parameters: given one, UnsupportedError."""
    op = "merge_sliced_parameter"
    if not isinstance(sliced_parameters, list):
        raise DTypeError(f"For '{op}', the argument 'sliced_parameters' should be list, but got "
                         f"{type(sliced_parameters)}.")
    if not sliced_parameters:
        raise ValueError(f"For '{op}', the argument 'sliced_parameters' should not be empty.")
    if strategy and not isinstance(strategy, dict):
        raise DTypeError(f"For '{op}', the argument 'strategy' should be dict, but got "
                         f"{type(strategy)}.")
    first = sliced_parameters[0]
    for index, parameter in enumerate(sliced_parameters):
        if not isinstance(parameter, Parameter):
            raise DTypeError(f"For '{op}', the element in 'sliced_parameters' should be "
                             f"'Parameter', but got {type(parameter)} at index {index}.")
        if (parameter.name != first.name or len(parameter.shape) != len(first.shape)
                or parameter.shape[1:] != first.shape[1:]):
            raise ValueError(
                f"For '{op}', please make sure that the elements in 'slice_parameters' have the "
                f"same name, dimension length and shape except 0 axis. The name, dimension "
                f"length, shape except 0 axis should be {first.name}, {len(first.shape)}, "
                f"{tuple(first.shape[1:])}, but got name: {parameter.name}, dimension length: "
                f"{len(parameter.shape)}, shape except 0 axis: {tuple(parameter.shape[1:])} at "
                f"index {index}.")
    if strategy:
        raise UnsupportedError(f"{op}: merging by a parallel `strategy` is not supported; "
                               f"cellgraph saves whole Parameters, so slices in order are "
                               f"merged without one")
    merged = Tensor(np.concatenate([p.asnumpy() for p in sliced_parameters]))
    return Parameter(merged, first.name, first.requires_grad, first.layerwise_parallel)



# MindSpore's train.serialization keeps these names of its parallel package's functions
# (read when first used: the parallel package imports this module)
__getattr__, __dir__ = lazy_names(globals(), {
    "build_searched_strategy": ("cellgraph.parallel.checkpoint_transform",
                                "build_searched_strategy"),
    "restore_group_info_list": ("cellgraph.parallel.checkpoint_transform",
                                "restore_group_info_list"),
    "load_distributed_checkpoint": ("cellgraph.train.distributed_checkpoint",
                                    "load_distributed_checkpoint")})
