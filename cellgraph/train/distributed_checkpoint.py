"""`load_distributed_checkpoint`: one network's parameters from the checkpoints of every rank
of a job.

A parameter the job held whole on every rank (data parallelism) is merged by checking that the
ranks agree on it. One held as slices (semi-auto parallel, saved with
`integrated_save=False`) is put back together from the ranks' slices as the job's strategy
file says (`train_strategy_filename`, written by the job through
`set_auto_parallel_context(strategy_ckpt_save_file=...)`: strategy_file.py). The whole
parameters then load into `network`, whatever its world size: a network whose parameters are
held as slices takes this rank's slice of each (runtime/sharded_parameters.py).
"""
from __future__ import annotations

import numpy as np

from cellgraph.primitives.errors import DTypeError, UnsupportedError
from cellgraph.runtime.tensor import Parameter, Tensor

from . import strategy_file
from .serialization import CheckpointError, load_checkpoint, load_param_into_net


def _merged(per_rank: list[dict], filenames: list, layouts: dict) -> dict:
    merged = {}
    for name in per_rank[0]:
        if name in layouts:
            for rank, params in enumerate(per_rank):
                if name not in params:
                    raise CheckpointError(f"load_distributed_checkpoint: {filenames[rank]!r} "
                                          f"(rank {rank}) has no entry {name!r}, which the "
                                          f"strategy file lays out")
            whole = strategy_file.merge_slices(name, [p[name].asnumpy() for p in per_rank],
                                               layouts[name])
            merged[name] = Parameter(Tensor(whole, per_rank[0][name].dtype), name=name)
            continue
        first = per_rank[0][name].asnumpy()
        for rank, params in enumerate(per_rank[1:], start=1):
            if name not in params:
                raise CheckpointError(f"load_distributed_checkpoint: {filenames[rank]!r} (rank "
                                      f"{rank}) has no entry {name!r}, which rank 0 has")
            other = params[name].asnumpy()
            if other.shape != first.shape or not np.array_equal(other, first, equal_nan=True):
                raise CheckpointError(f"load_distributed_checkpoint: {name!r} differs between "
                                      f"rank 0 and rank {rank}; merging slices of a sharded "
                                      f"parameter needs the job's strategy file "
                                      f"(train_strategy_filename), which does not lay it out")
        merged[name] = Parameter(Tensor(first, per_rank[0][name].dtype), name=name)
    return merged


def load_distributed_checkpoint(network, checkpoint_filenames=None, predict_strategy=None,
                                train_strategy_filename=None, strict_load=False, dec_key=None,
                                dec_mode="AES-GCM", format="ckpt", unified_safetensors_dir=None,
                                dst_safetensors_dir=None, rank_id=None,
                                output_format="safetensors", name_map=None,
                                max_process_num=64, return_param_dict=False):
    """Load into `network` the parameters saved by every rank (`checkpoint_filenames`, in rank
    order): slices put back together as `train_strategy_filename` lays them out, whole
    parameters checked to agree across the ranks; the merged dict is returned when
    `return_param_dict`. The network takes them whole, or its slices of them where it holds
    slices (any world size). `predict_strategy` (a layout to load into, from MindSpore's
    infer_predict_layout) and safetensors directories are not supported: the network's own
    layout decides."""
    api = "load_distributed_checkpoint"
    for option, value in (("predict_strategy", predict_strategy),
                          ("unified_safetensors_dir", unified_safetensors_dir)):
        if value is not None:
            raise UnsupportedError(f"{api}: `{option}` is not supported; cellgraph loads the "
                                   f"merged parameters into the network, which takes its own "
                                   f"slices of them")
    layouts = {}
    if train_strategy_filename is not None:
        if not isinstance(train_strategy_filename, str):
            raise DTypeError(f"{api}: `train_strategy_filename` must be str, got "
                             f"{type(train_strategy_filename).__name__}")
        layouts = strategy_file.load(train_strategy_filename)
    if not isinstance(checkpoint_filenames, (list, tuple)) or not checkpoint_filenames:
        raise DTypeError(f"{api}: `checkpoint_filenames` must be a non-empty list of files, "
                         f"one per rank, got {checkpoint_filenames!r}")
    per_rank = [load_checkpoint(name, dec_key=dec_key, dec_mode=dec_mode, format=format)
                for name in checkpoint_filenames]
    merged = _merged(per_rank, list(checkpoint_filenames), layouts)
    if name_map:
        merged = {name_map.get(name, name): p for name, p in merged.items()}
        for name, param in merged.items():
            param.name = name
    if network is not None:
        load_param_into_net(network, merged, strict_load)
    return merged if return_param_dict else None
