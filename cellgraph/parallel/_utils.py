"""`mindspore.parallel._utils`: the readers of the auto-parallel context that programs and
MindSpore's tests import from here, and `_reset_op_id`."""
from __future__ import annotations

from ._auto_parallel_context import auto_parallel_context


def _get_parallel_mode():
    return auto_parallel_context().get_parallel_mode()


def _is_in_auto_parallel_mode():
    return _get_parallel_mode() in ("semi_auto_parallel", "auto_parallel")


def _is_in_data_parallel_mode():
    return _get_parallel_mode() == "data_parallel"


def _get_full_batch():
    return auto_parallel_context().get_full_batch()


def _get_pipeline_stages():
    return auto_parallel_context().get_pipeline_stages()


def _get_gradients_mean():
    return auto_parallel_context().get_gradients_mean()


def _get_device_num():
    return auto_parallel_context().get_device_num()


def _get_global_rank():
    return auto_parallel_context().get_global_rank()


def _get_enable_parallel_optimizer():
    return auto_parallel_context().get_enable_parallel_optimizer()


def _reset_op_id():
    """MindSpore numbers the operators of all the graphs a process compiles (`MatMul-op0`,
    `MatMul-op1`, ...) and this restarts that count. cellgraph numbers the nodes of each graph
    on its own, so no count runs across compiles and there is nothing to restart."""
