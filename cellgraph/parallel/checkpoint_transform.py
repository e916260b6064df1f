"""`sync_pipeline_shared_parameters`: after weights shared between pipeline stages change, copy
them between the stages, as MindSpore's does. A network of one stage (every network here:
pipeline stages are not supported) has nothing to synchronise. `set_op_strategy_config`: where
auto_parallel's strategy search saves or loads the operators' strategies (JSON), with
MindSpore's checks; cellgraph runs no search (a compile under auto_parallel is refused)."""
from __future__ import annotations

import os

from cellgraph.primitives.errors import DTypeError, UnsupportedError


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
