"""`mindspore.parallel`: data-parallel configuration (`AutoParallel` in "semi_auto" mode with no
operator strategies). Operator-level sharding (`shard`, `Layout`) and pipeline stages
(`nn.Pipeline`) exist so programs import, and raise UnsupportedError when used."""
from . import auto_parallel, nn
from .auto_parallel import AutoParallel
from .shard import Layout, shard

__all__ = ["AutoParallel", "Layout", "auto_parallel", "nn", "shard"]
