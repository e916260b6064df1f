"""`mindspore.parallel.algo_parameter_config`: the parameters of the strategy search that
`parallel_mode="auto_parallel"` runs (`set_algo_parameters`, `get_algo_parameters`,
`reset_algo_parameters`), kept with MindSpore's checks and defaults. cellgraph runs the
strategies a program sets and refuses to compile a network in auto_parallel mode, so these
are read back, never searched with."""
from __future__ import annotations

import numpy as np

from cellgraph._checkparam import args_type_check
from cellgraph.primitives.errors import ArgumentValueError, RunError

__all__ = ["get_algo_parameters", "reset_algo_parameters", "set_algo_parameters"]


def _float32(value) -> float:
    """The value as MindSpore keeps it (a C++ float) and reads it back."""
    return np.float32(value).item()


_DEFAULTS = {"fully_use_devices": False, "elementwise_op_strategy_follow": False,
             "tensor_slice_align_enable": False, "tensor_slice_align_size": 16,
             "enable_algo_approxi": False, "algo_approxi_epsilon": _float32(0.1)}
_values = dict(_DEFAULTS)


def _align_size(size):
    if size < 1 or size > 1024:
        raise ArgumentValueError(f"Align_size must be in [1, 1024], but got {size}")
    return size


def _epsilon(epsilon):
    if not 0 < epsilon <= 1:
        raise RunError("'epsilon' must be in (0, 1]")
    return _float32(epsilon)


_CHECKS = {"tensor_slice_align_size": _align_size, "algo_approxi_epsilon": _epsilon}


@args_type_check(tensor_slice_align_enable=bool, tensor_slice_align_size=int,
                 fully_use_devices=bool, elementwise_op_strategy_follow=bool,
                 enable_algo_approxi=bool, algo_approxi_epsilon=float)
def set_algo_parameters(**kwargs):
    """Set fully_use_devices, elementwise_op_strategy_follow, tensor_slice_align_enable,
    tensor_slice_align_size ([1, 1024]), enable_algo_approxi, algo_approxi_epsilon ((0, 1])."""
    for key, value in kwargs.items():
        if key not in _DEFAULTS:
            raise ArgumentValueError(f"Set context keyword {key} is not recognized!")
        _values[key] = _CHECKS.get(key, lambda v: v)(value)


def get_algo_parameters(attr_key):
    """The value of one of set_algo_parameters' keys."""
    if attr_key not in _DEFAULTS:
        raise ArgumentValueError(f"Get context keyword {attr_key} is not recognized!")
    return _values[attr_key]


def reset_algo_parameters():
    """Every key back to its default."""
    _values.clear()
    _values.update(_DEFAULTS)
