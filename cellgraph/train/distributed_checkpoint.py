"""`load_distributed_checkpoint`: one network's parameters from the checkpoints of every rank
of a job.

cellgraph's parallel jobs are data-parallel, so every rank holds every parameter whole: the
ranks' files are merged by checking that each parameter agrees across them. Merging slices of
sharded parameters needs an operator-sharding strategy, which cellgraph does not run, so a
strategy file is refused.
"""
from __future__ import annotations

import numpy as np

from cellgraph.primitives.errors import DTypeError, UnsupportedError
from cellgraph.runtime.tensor import Parameter, Tensor

from .serialization import CheckpointError, load_checkpoint, load_param_into_net


def _merged(per_rank: list[dict], filenames: list) -> dict:
    merged = {}
    for name in per_rank[0]:
        first = per_rank[0][name].asnumpy()
        for rank, params in enumerate(per_rank[1:], start=1):
            if name not in params:
                raise CheckpointError(f"load_distributed_checkpoint: {filenames[rank]!r} (rank "
                                      f"{rank}) has no entry {name!r}, which rank 0 has")
            other = params[name].asnumpy()
            if other.shape != first.shape or not np.array_equal(other, first, equal_nan=True):
                raise CheckpointError(f"load_distributed_checkpoint: {name!r} differs between "
                                      f"rank 0 and rank {rank}; merging slices of a sharded "
                                      f"parameter needs a sharding strategy, which cellgraph "
                                      f"does not run")
        merged[name] = Parameter(Tensor(first, per_rank[0][name].dtype), name=name)
    return merged


def load_distributed_checkpoint(network, checkpoint_filenames=None, predict_strategy=None,
                                train_strategy_filename=None, strict_load=False, dec_key=None,
                                dec_mode="AES-GCM", format="ckpt", unified_safetensors_dir=None,
                                dst_safetensors_dir=None, rank_id=None,
                                output_format="safetensors", name_map=None,
                                max_process_num=64, return_param_dict=False):
    """Load into `network` the parameters saved by every rank (`checkpoint_filenames`, in rank
    order), checking that the ranks agree; the merged dict is returned when
    `return_param_dict`."""
    api = "load_distributed_checkpoint"
    for option, value in (("predict_strategy", predict_strategy),
                          ("train_strategy_filename", train_strategy_filename),
                          ("unified_safetensors_dir", unified_safetensors_dir)):
        if value is not None:
            raise UnsupportedError(f"{api}: `{option}` describes sharded parameters; cellgraph "
                                   f"runs data parallelism only, where every rank saves every "
                                   f"parameter whole")
    if not isinstance(checkpoint_filenames, (list, tuple)) or not checkpoint_filenames:
        raise DTypeError(f"{api}: `checkpoint_filenames` must be a non-empty list of files, "
                         f"one per rank, got {checkpoint_filenames!r}")
    per_rank = [load_checkpoint(name, dec_key=dec_key, dec_mode=dec_mode, format=format)
                for name in checkpoint_filenames]
    merged = _merged(per_rank, list(checkpoint_filenames))
    if name_map:
        merged = {name_map.get(name, name): p for name, p in merged.items()}
        for name, param in merged.items():
            param.name = name
    if network is not None:
        load_param_into_net(network, merged, strict_load)
    return merged if return_param_dict else None
