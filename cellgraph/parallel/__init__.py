"""`mindspore.parallel`: `AutoParallel` ("semi_auto": data parallelism, or the operator
strategies the network's primitives carry) and `Layout` (a strategy as a device matrix, for
`Primitive.shard`). Sharding a whole function (`shard`) and pipeline stages (`nn.Pipeline`)
exist so programs import, and raise UnsupportedError when used. The strategy search's
parameters (`set_algo_parameters`) are kept and read back. The job's strategy, group and
checkpoint files: `build_searched_strategy`, `restore_group_info_list`,
`load_distributed_checkpoint`, `merge_sliced_parameter`."""
from . import auto_parallel, nn
from .algo_parameter_config import get_algo_parameters, reset_algo_parameters, set_algo_parameters
from .auto_parallel import AutoParallel
from .checkpoint_transform import (
    build_searched_strategy,
    load_distributed_checkpoint,
    merge_sliced_parameter,
    restore_group_info_list,
    set_op_strategy_config,
    sync_pipeline_shared_parameters,
)
from .shard import Layout, shard

__all__ = ["AutoParallel", "Layout", "auto_parallel", "build_searched_strategy",
           "get_algo_parameters", "load_distributed_checkpoint", "merge_sliced_parameter", "nn",
           "reset_algo_parameters", "restore_group_info_list", "set_algo_parameters",
           "set_op_strategy_config", "shard", "sync_pipeline_shared_parameters"]
