"""`mindspore.parallel._utils`: the readers of the auto-parallel context that programs and
MindSpore's tests import from here, `_reset_op_id`, and `_infer_rank_list` (which ranks'
checkpoint slices a parameter is loaded from)."""
from __future__ import annotations

import copy

import numpy as np

from cellgraph import log as logger

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
    """This process's rank: 0 in stand-alone mode (whatever global_rank says), else the
    context's global_rank, which defaults to the job's rank."""
    if _get_parallel_mode() == "stand_alone":
        return 0
    return auto_parallel_context().get_global_rank()


def _get_enable_parallel_optimizer():
    return auto_parallel_context().get_enable_parallel_optimizer()


def _reset_op_id():
    """MindSpore numbers the operators of all the graphs a process compiles (`MatMul-op0`,
    `MatMul-op1`, ...) and this restarts that count. cellgraph numbers the nodes of each graph
    on its own, so no count runs across compiles and there is nothing to restart."""


def _check_similar_layout(tensor_layout1, tensor_layout2):
    """Whether two layouts cut the tensor the same way: the same tensor map, and each device
    axis it uses of the same size (the axes it does not use, which only repeat the slices,
    may differ)."""
    if tensor_layout1[1] != tensor_layout2[1]:
        return False
    return all(tensor_layout1[0][-1 - axis] == tensor_layout2[0][-1 - axis]
               for axis in tensor_layout1[1] if axis != -1)


def _check_same_layout(tensor_layout1, tensor_layout2):
    """Whether two layouts have the same device matrix and tensor map."""
    return tensor_layout1[0] == tensor_layout2[0] and tensor_layout1[1] == tensor_layout2[1]


def _remove_repeated_slices(tensor_layout):
    """`tensor_layout` with each device axis the tensor map does not use set to 1: the layout
    of the distinct slices."""
    dev_mat = list(tensor_layout[0])
    for axis in range(len(dev_mat)):
        if axis not in tensor_layout[1]:
            dev_mat[-1 - axis] = 1
    return [dev_mat, *copy.deepcopy(list(tensor_layout[1:]))]


def _infer_rank_list(train_map, predict_map=None):
    """Which ranks' checkpoint slices each parameter is loaded from, as
    {name: (ranks, whether that one slice is this rank's as it is)}. A layout is
    [dev_mat, tensor_map, ...]; the ranks are the first device of each distinct slice of the
    training layout. With a prediction layout equal to the training one, this rank reads its
    own slice; with one that cuts the same way, the slice of this rank (or the only slice)."""
    ret = {}
    if _get_pipeline_stages() > 1:
        local_rank = int(_get_global_rank() % (_get_device_num() / _get_pipeline_stages()))
    else:
        local_rank = _get_global_rank()
    for param_name, train_layout in train_map.items():
        train_dev_mat = train_layout[0]
        ranks = np.arange(int(np.prod(train_dev_mat))).reshape(train_dev_mat)
        distinct = _remove_repeated_slices(train_layout)[0]
        rank_list = ranks[tuple(0 if n == 1 else slice(None) for n in distinct)].flatten()
        if not predict_map:
            ret[param_name] = (rank_list, False)
            continue
        if param_name not in predict_map:
            logger.warning("predict_map does not contain %s", param_name)
            continue
        predict_layout = predict_map[param_name]
        dev_num = int(np.prod(predict_layout[0]))
        if _check_same_layout(train_layout, predict_layout):
            ret[param_name] = ([local_rank], True)
        elif _check_similar_layout(train_layout, predict_layout) and len(rank_list) == 1:
            ret[param_name] = (rank_list, True)
        elif _check_similar_layout(train_layout, predict_layout) and len(rank_list) == dev_num:
            ret[param_name] = ([rank_list[local_rank]], True)
        else:
            ret[param_name] = (rank_list, False)
    return ret
