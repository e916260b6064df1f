"""The strategy and checkpoint files of a parallel job: `build_searched_strategy` (each
parameter's layout from a strategy file), `restore_group_info_list` (the ranks a group
information file names), `load_distributed_checkpoint` and `merge_sliced_parameter` (from
train, where cellgraph keeps them). `sync_pipeline_shared_parameters`: after weights shared between pipeline stages change, copy
them between the stages, as MindSpore's does. A network of one stage (every network here:
pipeline stages are not supported) has nothing to synchronise. `set_op_strategy_config`: where
auto_parallel's strategy search saves or loads the operators' strategies (JSON), with
MindSpore's checks; cellgraph runs no search (a compile under auto_parallel is refused)."""
from __future__ import annotations

import os

from cellgraph.primitives.errors import DTypeError, UnsupportedError
from cellgraph.train import strategy_file
from cellgraph.train.distributed_checkpoint import load_distributed_checkpoint
from cellgraph.train.serialization import merge_sliced_parameter

__all__ = ["build_searched_strategy", "load_distributed_checkpoint", "merge_sliced_parameter",
           "restore_group_info_list", "set_op_strategy_config", "sync_pipeline_shared_parameters"]


def _check_file(api: str, argument: str, type_word: str, path, what: str, hint: str) -> None:
    """MindSpore's checks of a file argument: a str naming an existing file."""
    if not isinstance(path, str):
        raise DTypeError(f"For '{api}', the argument '{argument}' should be {type_word}, but "
                         f"got {type(path)}.")
    if not os.path.isfile(path):
        raise ValueError(f"For '{api}', no such {what}: {path}.{hint}")


def build_searched_strategy(strategy_filename):
    """{parameter name: its layout (strategy_file.ParallelLayouts)} from the strategy file a
    parallel job saved (protobuf, or JSON when the name ends in ".json"); None for None."""
    api = "build_searched_strategy"
    if strategy_filename is None:
        return None
    _check_file(api, "strategy_filename", "string", strategy_filename, "strategy file",
                " Please check whether the 'strategy_filename' exists.")
    if os.path.getsize(strategy_filename) == 0:
        raise ValueError(f"For '{api}', the strategy file {strategy_filename} should not be "
                         f"empty. Please check whether the 'strategy_filename' is correct.")
    return strategy_file.parallel_layouts(strategy_filename)


def restore_group_info_list(group_info_file_name):
    """The rank list (`ckpt_restore_rank_list`) of a group information file, as MindSpore
    writes it (node_strategy.proto's ParallelGroupMap)."""
    api = "restore_group_info_list"
    _check_file(api, "group_info_file_name", "str", group_info_file_name,
                "group information file", "")
    if os.path.getsize(group_info_file_name) == 0:
        raise ValueError(f"For '{api}', the group information file should not be empty.")
    with open(group_info_file_name, "rb") as f:
        data = f.read()
    try:
        return strategy_file.restore_rank_list(data)
    except ValueError as e:
        raise ValueError(f"For '{api}', the group information file {group_info_file_name} is "
                         f"not a group information message: {e}") from None


def sync_pipeline_shared_parameters(net):
    """Synchronise the parameters `net`'s pipeline stages share (MindSpore's checks)."""
    from cellgraph.nn.cell import Cell
    from cellgraph.parallel._utils import _get_pipeline_stages

    if not isinstance(net, Cell):
        raise DTypeError(f"For 'sync_pipeline_shared_parameters', the argument 'net' should be "
                         f"a Cell, but got {type(net)}.")
    stages = getattr(net, "_pipeline_stages", None) or _get_pipeline_stages()
    if stages < 2:
        return
    raise UnsupportedError(f"sync_pipeline_shared_parameters: {stages} pipeline stages are not "
                           f"supported")


def set_op_strategy_config(mode="SAVE", path=""):
    """Keep where the strategy search saves ("SAVE") or loads ("LOAD") the operators'
    strategies: an absolute path to a .json file, whose folder is made now, as MindSpore
    does. MindSpore's KeyErrors for a relative path, another suffix or another mode."""
    from cellgraph.auto_parallel import set_ops_strategy_json_config

    if not os.path.isabs(path):
        raise KeyError("File path must be an absolute path")
    if os.path.splitext(path)[1] != ".json":
        raise KeyError("File type must be .json")
    folder = os.path.dirname(path)
    if folder and not os.path.exists(folder):
        os.makedirs(folder, mode=0o700, exist_ok=True)
    if mode not in ("SAVE", "LOAD"):
        raise KeyError("Type must be 'SAVE' or 'LOAD'")
    set_ops_strategy_json_config(mode, path, "all")
