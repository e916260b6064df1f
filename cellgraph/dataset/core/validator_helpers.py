"""The argument checks of mindspore.dataset's transforms and sources, with MindSpore's error
types and words (its tests match the messages): a wrong type is a TypeError naming the
argument, its value and the accepted types; a value out of range is a ValueError naming the
interval."""
from __future__ import annotations

import functools
import inspect
import os

INT32_MAX = 2147483647
INT32_MIN = -2147483648
UINT32_MAX = 4294967295
FLOAT_MAX_INTEGER = 16777216
FLOAT_MIN_INTEGER = -16777216
DOUBLE_MAX_INTEGER = 9007199254740992

__all__ = ["check_arguments", "check_dir", "check_file", "check_filename", "check_float32",
           "check_float32_not_zero", "check_int32", "check_int32_not_zero",
           "check_list_same_size", "check_mappable_source", "check_non_negative_float32",
           "check_non_negative_int32", "check_num_samples", "check_pos_float32",
           "check_pos_int32", "check_sampler_shuffle_shard_options", "check_uint8", "check_value",
           "type_check", "type_check_list", "validate_dataset_param_value"]


def _shown(value):
    return '""' if repr(value) == repr("") else value


def type_check(arg, types: tuple, arg_name: str) -> None:
    """TypeError unless `arg` is one of `types`; a bool is not an int unless bool is listed."""
    if int in types and bool not in types and isinstance(arg, bool):
        raise TypeError(f"Argument {arg_name} with value {_shown(arg)} is not of type {types}, "
                        f"but got {type(arg)}.")
    if not isinstance(arg, types):
        raise TypeError(f"Argument {arg_name} with value {_shown(arg)} is not of type "
                        f"{list(types)}, but got {type(arg)}.")


def type_check_list(args, types: tuple, arg_name: str) -> None:
    """Each item of the list or tuple `args` is one of `types`."""
    type_check(args, (list, tuple), arg_name)
    for i, arg in enumerate(args):
        type_check(arg, types, f"{arg_name}[{i}]")


def check_value(value, valid_range, arg_name="", left_open_interval=False,
                right_open_interval=False) -> None:
    """ValueError unless `value` lies in `valid_range`, each end closed unless said open."""
    low, high = valid_range
    below = value <= low if left_open_interval else value < low
    above = value >= high if right_open_interval else value > high
    if below or above:
        name = f"{arg_name} " if arg_name else ""
        left, right = "(" if left_open_interval else "[", ")" if right_open_interval else "]"
        raise ValueError(f"Input {name}is not within the required interval of "
                         f"{left}{low}, {high}{right}.")


def check_uint8(value, arg_name="") -> None:
    type_check(value, (int,), arg_name)
    check_value(value, [0, 255], arg_name)


def check_fill_value(fill_value) -> tuple:
    """MindSpore's check of an image fill value (its vision validators'): an int or a 3-tuple
    of ints, each in [0, 255]; returned as three channels."""
    if isinstance(fill_value, int):
        check_uint8(fill_value, "fill_value")
        return (fill_value,) * 3
    if isinstance(fill_value, tuple) and len(fill_value) == 3:
        for i, value in enumerate(fill_value):
            check_uint8(value, f"fill_value[{i}]")
        return tuple(fill_value)
    raise TypeError("fill_value should be a single integer or a 3-tuple.")


def check_int32(value, arg_name="") -> None:
    type_check(value, (int,), arg_name)
    check_value(value, [INT32_MIN, INT32_MAX], arg_name)


def check_pos_int32(value, arg_name="") -> None:
    type_check(value, (int,), arg_name)
    check_value(value, [1, INT32_MAX], arg_name)


def check_non_negative_int32(value, arg_name="") -> None:
    type_check(value, (int,), arg_name)
    check_value(value, [0, INT32_MAX], arg_name)


def check_int32_not_zero(value, arg_name="") -> None:
    # MindSpore pads the name with a space before its type check too ("Argument x  with")
    type_check(value, (int,), f"{arg_name} " if arg_name else arg_name)
    if value < INT32_MIN or value > INT32_MAX or value == 0:
        raise ValueError(f"Input {arg_name} is not within the required interval of "
                         f"[{INT32_MIN}, 0) and (0, {INT32_MAX}].")


def check_float32(value, arg_name="") -> None:
    type_check(value, (float, int), arg_name)
    check_value(value, [FLOAT_MIN_INTEGER, FLOAT_MAX_INTEGER], arg_name)


def check_pos_float32(value, arg_name="") -> None:
    type_check(value, (float, int), arg_name)
    check_value(value, [0, FLOAT_MAX_INTEGER], arg_name, True)


def check_non_negative_float32(value, arg_name="") -> None:
    type_check(value, (float, int), arg_name)
    check_value(value, [0, FLOAT_MAX_INTEGER], arg_name)


def check_float32_not_zero(value, arg_name="") -> None:
    type_check(value, (float, int), f"{arg_name} " if arg_name else arg_name)
    if value < FLOAT_MIN_INTEGER or value > FLOAT_MAX_INTEGER or value == 0:
        raise ValueError(f"Input {arg_name} is not within the required interval of "
                         f"[{FLOAT_MIN_INTEGER}, 0) and (0, {FLOAT_MAX_INTEGER}].")


def check_list_same_size(list1, list2, list1_name="", list2_name="") -> None:
    if len(list1) != len(list2):
        raise ValueError(f"The size of {list1_name} should be the same as that of "
                         f"{list2_name}.")


INT64_MAX = 9223372036854775807
_FORBIDDEN_IN_FILENAME = set(r'\/:*?"<>|`&\';')


def check_filename(path) -> None:
    """The last part of `path` holds none of the characters MindSpore forbids in a file name."""
    if not isinstance(path, str):
        raise TypeError(f"path: {path} is not string")
    filename = os.path.basename(os.path.realpath(path))
    if set(filename) & _FORBIDDEN_IN_FILENAME:
        raise ValueError(r"filename should not contain \/:*?\"<>|`&;\'")
    if filename.startswith(" ") or filename.endswith(" "):
        raise ValueError("filename should not start/end with space.")


def check_valid_str(value, valid_strings, arg_name="") -> None:
    """`value` is a str among `valid_strings`."""
    type_check(value, (str,), arg_name)
    if value not in valid_strings:
        raise ValueError(f"Input {arg_name} is not within the valid set of {valid_strings}.")


def check_dir(dataset_dir) -> None:
    """`dataset_dir` is a str naming a readable folder."""
    type_check(dataset_dir, (str,), "dataset_dir")
    if not os.path.isdir(dataset_dir) or not os.access(dataset_dir, os.R_OK):
        raise ValueError(f"The folder {dataset_dir} does not exist or is not a directory or "
                         f"permission denied!")


def check_file(dataset_file) -> None:
    """`dataset_file` is a str naming a readable file (the error names its real path)."""
    check_filename(dataset_file)
    real = os.path.realpath(dataset_file)
    if not os.path.isfile(real) or not os.access(real, os.R_OK):
        raise ValueError(f"The file {real} does not exist or permission denied!")


def check_num_samples(value) -> None:
    type_check(value, (int,), "num_samples")
    if value < 0 or value > INT64_MAX:
        raise ValueError(f"num_samples exceeds the boundary between 0 and {INT64_MAX}"
                         f"(INT64_MAX)!")


def validate_dataset_param_value(param_list, param_dict: dict, param_type) -> None:
    """Each named argument that is given is of `param_type` (num_samples and
    num_parallel_workers also in their ranges)."""
    from ..engine import check_num_parallel_workers

    for name in param_list:
        value = param_dict.get(name)
        if value is None:
            continue
        if name == "num_parallel_workers":
            check_num_parallel_workers(value)
        if name == "num_samples":
            check_num_samples(value)
        else:
            type_check(value, (param_type,), name)


def check_sampler_shuffle_shard_options(param_dict: dict) -> None:
    """A sampler excludes shuffle, sharding and num_samples; num_shards and shard_id come
    together, shard_id in [0, num_shards - 1]."""
    shuffle, sampler = param_dict.get("shuffle"), param_dict.get("sampler")
    num_shards, shard_id = param_dict.get("num_shards"), param_dict.get("shard_id")
    if sampler is not None:
        if shuffle is not None:
            raise RuntimeError("sampler and shuffle cannot be specified at the same time.")
        if num_shards is not None or shard_id is not None:
            raise RuntimeError("sampler and sharding cannot be specified at the same time.")
        if param_dict.get("num_samples") is not None:
            raise RuntimeError("sampler and num_samples cannot be specified at the same time.")
    if num_shards is not None:
        check_pos_int32(num_shards, "num_shards")
        if shard_id is None:
            raise RuntimeError("num_shards is specified and currently requires shard_id as "
                               "well.")
        check_value(shard_id, [0, num_shards - 1], "shard_id")
    if num_shards is None and shard_id is not None:
        raise RuntimeError("shard_id is specified but num_shards is not.")


def check_mappable_source(param_dict: dict, bools=("shuffle", "decode")) -> None:
    """The checks every image source with random access makes of its common arguments."""
    validate_dataset_param_value(["num_samples", "num_parallel_workers", "num_shards",
                                  "shard_id"], param_dict, int)
    validate_dataset_param_value(list(bools), param_dict, bool)
    check_sampler_shuffle_shard_options(param_dict)


def check_arguments(method):
    """Bind a call's arguments to `method`'s signature first, as MindSpore's checks do, so a
    missing or unknown argument is a TypeError in MindSpore's words ("missing a required
    argument: 'dataset_dir'")."""
    signature = inspect.signature(method)

    @functools.wraps(method)
    def checked(*args, **kwargs):
        try:
            signature.bind(*args, **kwargs)
        except TypeError as error:
            raise TypeError(str(error)) from None
        return method(*args, **kwargs)

    return checked


def shape_mismatch(message: str) -> RuntimeError:
    """A RuntimeError that MindSpore's engine files under its shape-mismatch status: an
    iterator reports it under "Shape is incorrect." rather than the general summary."""
    error = RuntimeError(message)
    error.pipeline_summary = "Shape is incorrect."
    return error


def check_independent_mode(feature_name: str, condition=True) -> None:
    """MindSpore's refusal of the features its independent dataset process lacks (cache, sync
    wait and update, callbacks, offload, AutoTune) when MS_INDEPENDENT_DATASET is "True"."""
    mode = os.environ.get("MS_INDEPENDENT_DATASET")
    if condition and mode and mode.strip() in ("True", "true"):
        raise RuntimeError(f"{feature_name} is not supported in Dataset Independent mode.")
