"""`mindspore.parallel._cost_model_context`: the cost model of the strategy search that
`parallel_mode="auto_parallel"` runs (`set_cost_model_context`, `get_cost_model_context`,
`reset_cost_model_context` and the flags MindSpore's tests set), kept with MindSpore's checks
and defaults. cellgraph refuses to compile a network in auto_parallel mode (it runs the
strategies a program sets), so these are read back, never searched with."""
from __future__ import annotations

from cellgraph._checkparam import args_type_check
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, RunError

from .algo_parameter_config import _float32

_FLOATS = {"device_memory_capacity": 16.0 * 2**30, "costmodel_alpha": 1.0,
           "costmodel_beta": 400.0, "costmodel_gamma": 0.001,
           "costmodel_communi_threshold": 2048.0, "costmodel_communi_const": 3072.0,
           "costmodel_communi_bias": 1024.0,
           "costmodel_allreduce_fusion_tail_percent": 0.1,
           "costmodel_allreduce_fusion_tail_time": 0.1,
           "costmodel_allreduce_fusion_allreduce_inherent_time": 0.1,
           "costmodel_allreduce_fusion_allreduce_bandwidth": 0.1,
           "costmodel_allreduce_fusion_computation_time_parameter": 0.1}
_INTS = {"run_phase": 0, "costmodel_allreduce_fusion_algorithm": 0,
         "costmodel_allreduce_fusion_times": 0}
# the settings MindSpore's C++ side refuses unless positive
_POSITIVE = ("device_memory_capacity", "costmodel_alpha", "costmodel_beta", "costmodel_gamma",
             "costmodel_communi_threshold", "costmodel_communi_const")
_DEFAULTS = {**{k: _float32(v) for k, v in _FLOATS.items()}, **_INTS,
             "multi_subgraphs": False, "dp_algo_single_loop": False,
             "rp_matmul_mem_coef": _float32(0.1)}
_values = dict(_DEFAULTS)


def _store(key, value):
    if key in _POSITIVE and value <= 0:
        raise RunError(f"'{key}' must be positive.")
    if key == "run_phase" and value not in (0, 1):
        raise ArgumentValueError(f"For 'set_run_phase', the argument 'phase' must be '0' or "
                                 f"'1', but got {value}")
    _values[key] = _float32(value) if key in _FLOATS else value


@args_type_check(**dict.fromkeys(_FLOATS, float), **dict.fromkeys(_INTS, int))
def set_cost_model_context(**kwargs):
    """Set the cost model's parameters (device_memory_capacity, costmodel_alpha, ...,
    run_phase: 0 training, 1 inference)."""
    for key, value in kwargs.items():
        if key not in _FLOATS and key not in _INTS:
            raise ArgumentValueError(f"Set context keyword {key} is not recognized!")
        _store(key, value)


def get_cost_model_context(attr_key):
    """The value of one of set_cost_model_context's keys."""
    if attr_key not in _FLOATS and attr_key not in _INTS:
        raise ArgumentValueError(f"Get context keyword {attr_key} is not recognized!")
    return _values[attr_key]


def reset_cost_model_context():
    """Every parameter back to its default."""
    _values.clear()
    _values.update(_DEFAULTS)


def _flag(key: str, value) -> None:
    if not isinstance(value, bool):
        raise DTypeError(f"The type of '{key}' must be bool, but got {type(value)}.")
    _values[key] = value


def _set_multi_subgraphs(multi_subgraph=True):
    """Mark the network as holding several subgraphs (the search's loop handling)."""
    _flag("multi_subgraphs", multi_subgraph)


def _get_multi_subgraphs():
    return _values["multi_subgraphs"]


def _set_algo_single_loop(single_loop=True):
    """One suite of operator strategies for all iterations of a for loop."""
    _flag("dp_algo_single_loop", single_loop)


def _get_algo_single_loop():
    return _values["dp_algo_single_loop"]


def _set_rp_matmul_mem_coef(coef):
    """The weight of a MatMul's memory cost in the recursive-programming search."""
    if isinstance(coef, bool) or not isinstance(coef, (int, float)):
        raise DTypeError(f"The matmul memory coef must be a number, got {type(coef)}.")
    _values["rp_matmul_mem_coef"] = _float32(coef)


def _get_rp_matmul_mem_coef():
    return _values["rp_matmul_mem_coef"]
