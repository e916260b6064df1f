"""`mindspore.train._utils`: the argument checks of the training utilities (summary,
callbacks), in MindSpore's words."""
from __future__ import annotations

import os
from collections.abc import Iterable

__all__ = ["_construct_tensor_list", "_make_directory", "check_value_type"]

_MAX_PATH_LENGTH = 4096


def check_value_type(arg_name, arg_value, valid_types):
    """TypeError unless `arg_value` is an instance of one of `valid_types` (a bool only where
    bool is listed)."""
    valid_types = tuple(valid_types) if isinstance(valid_types, Iterable) else (valid_types,)
    valid = isinstance(arg_value, valid_types)
    if isinstance(arg_value, bool) and bool not in valid_types:
        valid = False
    if not valid:
        raise TypeError(f"For `{arg_name}` the type should be a valid type of "
                        f"{[t.__name__ for t in valid_types]}, but got "
                        f"{type(arg_value).__name__}.")


def _make_directory(path, arg_name='path'):
    """The real path of directory `path`, made if it does not exist."""
    if not isinstance(path, str):
        raise TypeError(f"The {arg_name} is invalid, the type should be string.")
    if path.strip() == "":
        raise ValueError(f"The {arg_name} is invalid, it should be non-blank.")
    path = os.path.realpath(path)
    if len(path) > _MAX_PATH_LENGTH:
        raise ValueError(f"The {arg_name} length is too long, it should be limited in "
                         f"{_MAX_PATH_LENGTH}.")
    if os.path.exists(path):
        if not os.path.isdir(path):
            raise NotADirectoryError(f"The path({path}) is a file path, it should be a "
                                     f"directory path.")
        return path
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except PermissionError as exc:
        raise TypeError("No write permission on the directory.") from exc
    return path


def _construct_tensor_list(types, shapes, batch_expand_num=1):
    """Zero Tensors of the dataset's column `types` and `shapes` (the first axis times
    `batch_expand_num`), to build a network on before data arrives; marked `virtual_flag`."""
    import numpy as np

    from cellgraph.common.dtype import dtype_to_nptype
    from cellgraph.runtime.tensor import Tensor

    if len(types) != len(shapes):
        raise ValueError(f"The length of dataset types must be equal to dataset shapes, but got "
                         f"dataset types={types} and dataset shapes={shapes}")
    tensors = []
    for type_, shape in zip(types, shapes):
        shape = tuple(item * batch_expand_num if i == 0 else item for i, item in enumerate(shape))
        tensor = Tensor(np.zeros(shape, dtype_to_nptype(type_)), dtype=type_)
        tensor.virtual_flag = True
        tensors.append(tensor)
    return tensors
