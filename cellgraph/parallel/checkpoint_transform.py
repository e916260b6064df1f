"""`sync_pipeline_shared_parameters`: after weights shared between pipeline stages change, copy
them between the stages, as MindSpore's does. A network of one stage (every network here:
pipeline stages are not supported) has nothing to synchronise."""
from __future__ import annotations

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
