"""`mindspore.parallel._tensor`: a parameter's slices and its layout (a device matrix and a
tensor map, as in strategy files: train/strategy_file.py). `_get_tensor_strategy` says how
many slices each dimension is cut into; `_reshape_param_data` puts the whole parameter back
together from the slices every device holds, stacked in rank order. For transforming
checkpoints between layouts: the layout of a parameter the optimizer shards
(`_construct_tensor_layout_for_opt_shard`), the operators that turn a rank's slice under one
layout into its slice under another (`_transform_tensor_by_layout`, from _redistribution.py),
the ranks and operators a rank needs, and those operators run on NumPy slices."""
from __future__ import annotations

import copy

import numpy as np

from cellgraph.runtime.tensor import Tensor
from cellgraph.train.strategy_file import rank_block

from ._redistribution import source_slice_shape, transform_operators
from ._tensor_transform import optimize_operators


def _get_tensor_strategy(dev_mat, tensor_map):
    """The number of slices each dimension of a tensor laid out by `tensor_map` over
    `dev_mat` is cut into."""
    return [rank_block(0, list(dev_mat), entry)[1] for entry in tensor_map]


def _reshape_param_data(param_data, dev_mat, tensor_map):
    """The whole tensor from `param_data`, the slices of every device of `dev_mat` stacked
    along axis 0 in rank order. Devices holding the same slice hold copies; as in MindSpore,
    the one of the highest rank is kept."""
    dev_mat = list(dev_mat)
    slices = np.split(param_data.asnumpy(), int(np.prod(dev_mat)), axis=0)
    counts = _get_tensor_strategy(dev_mat, tensor_map)
    shape = slices[0].shape
    whole = np.empty([n * c for n, c in zip(shape, counts)], slices[0].dtype)
    for rank, part in enumerate(slices):
        at = tuple(slice(rank_block(rank, dev_mat, e)[0] * n, (rank_block(rank, dev_mat, e)[0]
                                                              + 1) * n)
                   for e, n in zip(tensor_map, shape))
        whole[at] = part
    return Tensor(whole)


# ----- layouts for checkpoint transformation ---------------------------------------------------
# A layout here is (device matrix, tensor map, full shape); tensor-map entries count device
# axes from the right, -1 for none, and a list of axes cuts one dimension several times.

def _construct_from_to_tensor_layout(from_full_tensor_shape, from_dev_matrix, from_tensor_map,
                                     to_full_tensor_shape, to_dev_matrix, to_tensor_map,
                                     param_name=''):
    """The two layouts over the same number of devices: the one over fewer devices gets a
    leading device axis of the ratio (its slices repeated across it)."""
    from_layout = [list(from_dev_matrix), list(from_tensor_map), list(from_full_tensor_shape)]
    to_layout = [list(to_dev_matrix), list(to_tensor_map), list(to_full_tensor_shape)]
    if any(len(layout[2]) != len(layout[1]) for layout in (from_layout, to_layout)):
        raise ValueError(
            f"For param '{param_name}', the tensor map dimensions must match the tensor shape "
            f"dimensions.\nShould be:\n  - len(tensor_map) == len(tensor_shape)\nBut got:\n"
            f"  from_full_tensor_shape = {from_layout[2]}\n"
            f"  from_dev_matrix        = {from_layout[0]}\n"
            f"  from_tensor_map        = {from_layout[1]}\n"
            f"  to_full_tensor_shape   = {to_layout[2]}\n"
            f"  to_dev_matrix          = {to_layout[0]}\n"
            f"  to_tensor_map          = {to_layout[1]}\n"
            f"Please check your strategy file.")
    from_num, to_num = int(np.prod(from_layout[0])), int(np.prod(to_layout[0]))
    if from_num != to_num:
        fewer, more = (to_layout, from_num) if from_num > to_num else (from_layout, to_num)
        if more % int(np.prod(fewer[0])):
            raise ValueError(f"Cannot transform device_num from {from_num} to {to_num}")
        fewer[0].insert(0, more // int(np.prod(fewer[0])))
    return tuple(from_layout), tuple(to_layout)


def _expand_layout(dev_matrix, tensor_map, tensor_shape):
    """A tensor map with lists of axes (dev_matrix [4, 2, 2], map [[2, 1], 0], shape [8, 8])
    as one without ([2, 1, 0] over shape [4, 2, 8]): each axis of a list but the last becomes
    a dimension of its own, of that axis's size."""
    new_map, new_shape = [], []
    for entry, size in zip(tensor_map, tensor_shape):
        if not isinstance(entry, (list, tuple)):
            new_map.append(entry)
            new_shape.append(size)
            continue
        outer = [dev_matrix[len(dev_matrix) - 1 - axis] for axis in entry[:-1]]
        new_map.extend(entry)
        new_shape.extend([*outer, size // int(np.prod(outer))])
    return dev_matrix, new_map, new_shape


def _repeated_device_axes(dev_matrix, tensor_map) -> list:
    """Indices (from the left) of the device axes of size > 1 the tensor map does not use: the
    axes along which the slices repeat, where the optimizer can shard them."""
    used = {len(dev_matrix) - 1 - axis for axis in tensor_map if axis != -1}
    repeated = [i for i, n in enumerate(dev_matrix) if i not in used and n > 1]
    if not repeated:
        raise ValueError(f"The device_matrix {dev_matrix} and tensor_map {tensor_map} cannot "
                         f"sharding opt_shard")
    return repeated


def _construct_tensor_layout_for_opt_shard_by_layout(dev_matrix, tensor_map, opt_shard_step,
                                                     opt_shard_size, origin_full_tensor_shape):
    """`_construct_tensor_layout_for_opt_shard` for a tensor map with lists of axes."""
    if opt_shard_step == 0 or opt_shard_size == 0:
        return dev_matrix, tensor_map, list(origin_full_tensor_shape)
    strategy = _get_tensor_strategy(dev_matrix, tensor_map)
    _, flat_map, _ = _expand_layout(dev_matrix, tensor_map, origin_full_tensor_shape)
    repeated = _repeated_device_axes(dev_matrix, flat_map)
    return _construct_tensor_layout_helper(dev_matrix, tensor_map, opt_shard_size,
                                           origin_full_tensor_shape, strategy, repeated)


def _construct_tensor_layout_helper(dev_matrix, tensor_map, opt_shard_size,
                                    origin_full_tensor_shape, tensor_strategy, repeated_dim):
    """The optimizer's shards taken from the repeated device axes, rightmost first (the last
    one split if only part of it is needed): the first dimension becomes (model-parallel
    slices, the optimizer's axes..., the rest), each optimizer axis mapped to its device
    axis."""
    new_dev = list(dev_matrix)
    renumber = list(range(len(dev_matrix)))  # old axis (from the right) -> new axis
    remaining = opt_shard_size if opt_shard_size != -1 else \
        int(np.prod([dev_matrix[i] for i in repeated_dim]))
    opt_dims = []
    for dim in reversed(repeated_dim):
        part = dev_matrix[dim]
        if remaining < part:  # only part of this axis: split it in (rest, part)
            if part % remaining:
                raise ValueError(f"dev_matrix value {dev_matrix[dim]} at dim "
                                 f"{len(dev_matrix) - dim - 1} cannot be divided by needed opt "
                                 f"sharding size {remaining}")
            part = remaining
            new_dev[dim] = dev_matrix[dim] // part
            new_dev.insert(dim + 1, part)
            for axis in range(len(dev_matrix) - dim - 1, len(dev_matrix)):
                renumber[axis] += 1
        if remaining % part:
            raise ValueError(f"Remained opt_shard_size {remaining} cannot be divided by current "
                             f"sharding size {part}, the repeat dim is "
                             f"{len(dev_matrix) - dim - 1} with dev_matrix value "
                             f"{dev_matrix[dim]}")
        remaining //= part
        opt_dims.insert(0, dim)
        if remaining == 1:
            break
    new_map = copy.deepcopy(list(tensor_map))
    if len(new_dev) != len(dev_matrix):
        opt_dims = [d + 1 for d in opt_dims]
        new_map = [[renumber[a] if a >= 0 else a for a in e] if isinstance(e, (list, tuple))
                   else (renumber[e] if e >= 0 else e) for e in new_map]
    new_shape = list(origin_full_tensor_shape)
    new_shape[0] = tensor_strategy[0]
    rest = origin_full_tensor_shape[0] // tensor_strategy[0]
    outer = [new_dev[d] for d in opt_dims[:-1]]
    new_shape[1:1] = [*outer, rest // int(np.prod(outer))]
    new_map[1:1] = [len(new_dev) - d - 1 for d in opt_dims]
    return new_dev, new_map, new_shape


def _construct_tensor_layout_for_opt_shard(dev_matrix, tensor_map, opt_shard_step, opt_shard_size,
                                           origin_full_tensor_shape):
    """The layout of a parameter the optimizer shards (`opt_shard_size` ways, -1: across every
    repeated device axis; a step or size of 0: not sharded) as a layout without optimizer
    sharding: its first dimension split in (model-parallel slices, optimizer slices, ...),
    the optimizer's slices mapped to the device axes they lie along. dev [4, 2, 2], map
    [2, 1, 0], size 2 -> dev [2, 4, 2, 2], map [2, 3, 1, 0]."""
    if any(isinstance(e, (list, tuple)) for e in tensor_map):
        return _expand_layout(*_construct_tensor_layout_for_opt_shard_by_layout(
            dev_matrix, tensor_map, opt_shard_step, opt_shard_size, origin_full_tensor_shape))
    if opt_shard_step == 0 or opt_shard_size == 0:
        return dev_matrix, tensor_map, list(origin_full_tensor_shape)
    strategy = _get_tensor_strategy(dev_matrix, tensor_map)
    repeated = _repeated_device_axes(dev_matrix, tensor_map)
    if len(repeated) == 1 and int(np.prod(dev_matrix[repeated[0] + 1:])) != opt_shard_step:
        raise ValueError(f"The optimizer sharding step {opt_shard_step} is not equal to the model "
                         f"parallel sharding size {int(np.prod(dev_matrix[repeated[0] + 1:]))}.")
    if 1 < len(repeated) < len(dev_matrix) or repeated[0] > 0:
        return _construct_tensor_layout_helper(dev_matrix, tensor_map, opt_shard_size,
                                               origin_full_tensor_shape, strategy, repeated)
    # every device axis repeats the tensor, the leftmost first: the optimizer's axis leads
    full_shape = list(origin_full_tensor_shape)
    full_shape[0:1] = [strategy[0], origin_full_tensor_shape[0] // strategy[0]]
    new_map = [-1 if n == 1 else len(strategy) - 1 - i for i, n in enumerate(strategy)]
    new_map.insert(1, len(strategy))
    new_dev = [opt_shard_size, *strategy]
    repeat = int(np.prod(dev_matrix)) // (opt_shard_step * opt_shard_size)
    if repeat > 1:
        new_dev.insert(0, repeat)
    return new_dev, new_map, full_shape


# ----- transforming checkpoint slices between layouts ------------------------------------------
# An operator is (name, arguments): ("Reshape", shape), ("StridedSlice", begin + end +
# strides), ("AllConcat", ranks + [axis]), the concatenation of those ranks' slices.

def _transform_tensor_by_layout(from_layout, to_layout, device_list, rank_id,
                                enable_redist_opt=False):
    """The operators that turn rank `rank_id`'s slice of a tensor laid out as `from_layout`
    into its slice under `to_layout` (each (dev_matrix, tensor_map, full_shape)), over the
    ranks `device_list`; with `enable_redist_opt`, merged into fewer collectives as MindSpore
    merges them (_tensor_transform.py)."""
    if not isinstance(from_layout, tuple) or not isinstance(to_layout, tuple):
        raise TypeError(f"The layout should be tuple! layout is {from_layout} and {to_layout}")
    operators = transform_operators(from_layout, to_layout, device_list, rank_id)
    if enable_redist_opt:
        return optimize_operators(operators, source_slice_shape(from_layout))
    return operators


def _get_needed_rank_transform_operator_map_by_layouts(from_tensor_layout, to_tensor_layout,
                                                       device_list, self_rank,
                                                       enable_redist_opt=False):
    """{rank: its operators} for `self_rank` and every rank whose slice it gathers, directly
    or through the gathers those ranks make first."""
    def operators(rank):
        return _transform_tensor_by_layout(from_tensor_layout, to_tensor_layout, device_list,
                                           rank, enable_redist_opt)

    def gathers(ops, levels=None):
        groups = [op[1][:-1] for op in ops if op[0] == "AllConcat"]
        return list(enumerate(groups if levels is None else groups[:levels]))

    result = {self_rank: operators(self_rank)}
    pending = gathers(result[self_rank])
    while pending:
        level, group = pending.pop()
        for rank in group:
            if rank not in result:
                result[rank] = operators(rank)
                pending[0:0] = reversed(gathers(result[rank], level))
    return result


def _get_needed_rank_list_by_layouts(from_tensor_layout, to_tensor_layout, device_list, self_rank):
    """The ranks whose slices `self_rank` needs, in order."""
    return sorted(_get_needed_rank_transform_operator_map_by_layouts(
        from_tensor_layout, to_tensor_layout, device_list, self_rank))


# ----- operator maps between a network's layouts (pipeline stages, resharding) ----------------
# A layout here is (device matrix, tensor map, full shape, ranks). MindSpore keeps each answer
# for every rank it names and gives it back to those ranks, keyed by the layouts (the target's
# shape read from the source), and so does this.

_PIPELINE_OPERATOR_MAPS: dict = {}
_RESHARD_OPERATOR_MAPS: dict = {}


def _operator_map_key(from_layout, to_layout) -> str:
    return (f"{from_layout[0]}, {from_layout[1]}, {from_layout[2]}, {from_layout[3]} -> "
            f"{to_layout[0]}, {to_layout[1]}, {from_layout[2]}, {to_layout[3]}")


def _kept_for_ranks(cache, key, self_rank, infer):
    """`infer()`'s {rank: ...} map, kept under `key` for each rank it names; a rank the map
    under `key` already names gets what was kept for it."""
    if key in cache and self_rank in cache[key]:
        return cache[key][self_rank]
    operator_map = infer()
    cache.setdefault(key, {}).update({rank: operator_map for rank in operator_map})
    return operator_map


def _infer_pp_op_map(from_layout, to_layout, self_rank):
    """The broadcast that gives the ranks a merge of pipeline stages adds the slice of the
    rank at `self_rank`'s place in its stage: {rank: [('Broadcast', root, ranks)]}."""
    from_ranks, to_ranks = list(from_layout[3]), list(to_layout[3])
    per_stage = len(from_ranks)
    stage_start = per_stage * (self_rank // per_stage)
    position = list(range(stage_start, stage_start + per_stage)).index(self_rank)
    root = from_ranks[position]
    added = [rank for rank in to_ranks if rank not in from_ranks]
    ranks = sorted([root, *added[position::per_stage]])
    return {rank: [("Broadcast", root, ranks)] for rank in ranks}


def _get_pipeline_operator_map(from_layout, to_layout, self_rank):
    """The broadcasts a merge of pipeline stages needs ({} unless the target spreads over more
    ranks than the source): each rank of the source's stage sends its slice to the ranks that
    take its place in the stages merged into it."""
    if len(from_layout[3]) >= len(to_layout[3]):
        return {}
    return _kept_for_ranks(_PIPELINE_OPERATOR_MAPS, _operator_map_key(from_layout, to_layout),
                           self_rank, lambda: _infer_pp_op_map(from_layout, to_layout, self_rank))


def _is_multi_shard(tensor_map):
    """Whether a tensor map cuts a dimension along several device axes."""
    return any(isinstance(entry, (list, tuple)) and len(entry) > 1 for entry in tensor_map)


def _slice_shape(dev_matrix, tensor_map, full_shape):
    return [n // cut for n, cut in zip(full_shape, _get_tensor_strategy(dev_matrix, tensor_map))]


def _insert_expand_layout_reshape(param_rank_map, from_info_tuple, to_info_tuple,
                                  insert_from_reshape, insert_to_reshape):
    """Reshapes around each rank's operators where a layout was expanded: first to the
    expanded source slice, last back to the target's own slice."""
    for operators in param_rank_map.values():
        if insert_from_reshape:
            operators.insert(0, ("Reshape", _slice_shape(*from_info_tuple[:3])))
        if insert_to_reshape:
            operators.append(("Reshape", _slice_shape(*to_info_tuple[:3])))


def _infer_reshard_op_map(from_layout, to_layout, self_rank):
    """{rank: operators} a rank needs to reshard (merged as with enable_redist_opt), layouts
    that cut a dimension along several axes expanded into one dimension per axis."""
    from_flat, to_flat = tuple(from_layout[:3]), tuple(to_layout[:3])
    if _is_multi_shard(from_layout[1]):
        from_flat = tuple(_expand_layout(*from_flat))
    if _is_multi_shard(to_layout[1]):
        to_flat = tuple(_expand_layout(*to_flat))
    operator_map = _get_needed_rank_transform_operator_map_by_layouts(
        from_flat, to_flat, from_layout[3], self_rank, True)
    _insert_expand_layout_reshape(operator_map, from_flat, to_layout[:3],
                                  _is_multi_shard(from_layout[1]), _is_multi_shard(to_layout[1]))
    return operator_map


def _get_resharding_operator_map(from_layout, to_layout, self_rank):
    """{rank: operators} that turn the slices under `from_layout` into `self_rank`'s under
    `to_layout`, each (device matrix, tensor map, full shape, ranks)."""
    return _kept_for_ranks(_RESHARD_OPERATOR_MAPS, _operator_map_key(from_layout, to_layout),
                           self_rank, lambda: _infer_reshard_op_map(from_layout, to_layout,
                                                                    self_rank))


def _generate_transform_operator_stack(transform_operators_map, self_rank):
    """[(rank, level, operator)]: `self_rank`'s last operator first, then, breadth first,
    the operator before each one on the same rank, or on every rank of a gather."""
    if self_rank not in transform_operators_map:
        raise ValueError(f"The transform operators of rank id {self_rank} is required.")
    ops = transform_operators_map[self_rank]
    if not ops:
        return []
    queue = [(self_rank, len(ops) - 1, ops[-1])]
    for rank, level, operator in queue:  # the queue grows as it is walked
        if level >= 1:
            ranks = operator[1][:-1] if operator[0] == "AllConcat" else [rank]
            queue.extend((r, level - 1, transform_operators_map[r][level - 1]) for r in ranks)
    return queue


def _apply_tensor_transform_operators(transform_operator_stack, tensor_dict, device_num):
    """Run the stack on the slices of `tensor_dict` ({rank: array}, rank modulo device_num),
    a level at a time, the first level first; the slices are replaced as they change."""
    pending = list(transform_operator_stack)
    while pending:
        level = pending[-1][1]
        entries = []
        while pending and pending[-1][1] == level:
            entries.append(pending.pop())
        _apply_level(entries, tensor_dict, device_num)


def _slice_of(tensor_dict, rank, device_num):
    if rank % device_num not in tensor_dict:
        raise ValueError(f"The checkpoint file of rank {rank % device_num} is missing.")
    return tensor_dict[rank % device_num]


def _apply_level(entries, tensor_dict, device_num):
    """One level's operators, all of one kind: gathers read the slices as they were before
    the level."""
    name = entries[0][2][0]
    gathered = {}
    for rank, level, operator in entries:
        current = _slice_of(tensor_dict, rank, device_num)
        if operator[0] != name:
            raise ValueError(f"The operator in the same level should be equal in the transform "
                             f"tensor operator list, but the find {name} and {operator[0]} in "
                             f"level {level}")
        if operator[0] != "AllConcat":
            tensor_dict[rank % device_num] = _apply_operator(operator[0])(current, operator)
            continue
        parts = [_slice_of(tensor_dict, r, device_num) for r in operator[1][:-1]]
        gathered[rank % device_num] = _apply_operator(operator[0])(parts, operator)
    tensor_dict.update(gathered)


def _check_operator(operator):
    if not isinstance(operator, tuple):
        raise TypeError("The operator should be a list.")
    if len(operator) != 2:
        raise TypeError("The operator should contains 2 item.")
    if not isinstance(operator[1], list):
        raise TypeError("The operator[1] should be list.")


def _apply_reshape(data, operator):
    if not isinstance(data, np.ndarray):
        raise TypeError("The data should be a numpy.ndarray.")
    _check_operator(operator)
    return np.reshape(data, operator[1])


def _apply_all_concat(data_list, operator):
    if not isinstance(data_list, list):
        raise TypeError("The data_list should be a list.")
    _check_operator(operator)
    group, axis = operator[1][:-1], operator[1][-1]
    if len(group) != len(data_list):
        raise ValueError(f"The length of data_list {len(data_list)} should be equal to "
                         f"concat_group size {len(group)}")
    return np.concatenate(data_list, axis)


def _apply_strided_slice(data, operator):
    _check_operator(operator)
    if len(operator[1]) % 3:
        raise ValueError("The slice operator information is wrong.")
    begin, end, strides = np.reshape(operator[1], (3, -1)).tolist()
    return data[tuple(slice(*bounds) for bounds in zip(begin, end, strides))]


_OPERATORS = {"Reshape": _apply_reshape, "StridedSlice": _apply_strided_slice,
              "AllConcat": _apply_all_concat}


def _apply_operator(operator_name):
    """The NumPy function of a transform operator (None for a name that is not one)."""
    return _OPERATORS.get(operator_name)
