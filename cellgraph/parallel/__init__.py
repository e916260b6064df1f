"""`mindspore.parallel`: `AutoParallel` ("semi_auto": data parallelism, or the operator
strategies the network's primitives carry) and `Layout` (a strategy as a device matrix, for
`Primitive.shard`). Sharding a whole function (`shard`) and pipeline stages (`nn.Pipeline`)
exist so programs import, and raise UnsupportedError when used."""
from . import auto_parallel, nn
from .auto_parallel import AutoParallel
from .shard import Layout, shard

__all__ = ["AutoParallel", "Layout", "auto_parallel", "nn", "shard"]
