"""`mindspore.parallel.auto_parallel.AutoParallel`: the parallel configuration of one network.

MindSpore 2.5+ wraps the top-level network (or training function) in `AutoParallel(network,
parallel_mode)`. In its "semi_auto" mode cellgraph runs either of two things:

* a network whose primitives carry sharding strategies (`dense.matmul.shard(...)`): operator
  sharding, as `set_auto_parallel_context(parallel_mode="semi_auto_parallel")` gives it (the
  compiler's shard_operators pass): each process runs its slices of the sharded operators, on
  the whole batch (MindSpore's "full_batch" dataset strategy);
* a network with no strategies: data parallelism. Each process runs the whole network on its
  share of the batch and the parameter gradients are all-reduced: every training cell inside
  the wrapped network (TrainOneStepCell and its loss-scale variant), or the one `Model` builds
  around it, gets an `nn.DistributedGradReducer` over the job's processes, summing the
  gradients (averaging after `enable_gradients_mean()`).

`comm_fusion(config)` and `disable_gradient_fp32_sync()` go into the auto-parallel context
when the network first runs, as MindSpore sets them when it compiles.

Strategy search ("sharding_propagation", "recursive_programming"), optimizer sharding (`hsdp`),
pipeline stages, and strategies combined with a batch split across the processes raise
UnsupportedError.
"""
from __future__ import annotations

import warnings

from cellgraph.nn.cell import Cell
from cellgraph.nn.wrap.grad_reducer import DistributedGradReducer
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, UnsupportedError
from cellgraph.runtime import distributed

PARALLEL_MODES = ("semi_auto", "sharding_propagation", "recursive_programming")
_SHARDING = ("cellgraph runs data parallelism, or the operator strategies a program sets "
             "(semi_auto)")


def world_size() -> int:
    """The number of processes in the job (1 when communication was not initialised)."""
    if not distributed.is_initialized():
        return 1
    return distributed.group_rank_and_size(distributed.WORLD_NAMES[0])[1]


def sharded_primitives(network) -> list:
    """The primitives of `network`'s cells that carry a sharding strategy."""
    if not isinstance(network, Cell):
        return []
    return [value for _, cell in network.cells_and_names() for value in vars(cell).values()
            if getattr(value, "_strategy", None) is not None]


def training_cells(network) -> list:
    """The cells of `network` that reduce their gradients (a `grad_reducer` over `weights`)."""
    if not isinstance(network, Cell):
        return []
    return [cell for _, cell in network.cells_and_names()
            if "grad_reducer" in cell.__dict__ and hasattr(cell, "weights")]


class AutoParallel(Cell):
    """Data-parallel training of `network` (a Cell or a function) in "semi_auto" mode."""

    def __init__(self, network, parallel_mode="semi_auto"):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell) and not callable(network):
            raise DTypeError(f"AutoParallel: `network` must be a Cell or a function, got "
                             f"{type(network).__name__}")
        if parallel_mode not in PARALLEL_MODES:
            raise ArgumentValueError(f"AutoParallel: parallel_mode must be one of "
                                     f"{', '.join(PARALLEL_MODES)}, got {parallel_mode!r}")
        if parallel_mode != "semi_auto":
            raise UnsupportedError(f"AutoParallel: parallel_mode {parallel_mode!r} searches "
                                   f"sharding strategies; {_SHARDING}: use 'semi_auto'")
        self.network = network
        self.parallel_mode = parallel_mode
        self.gradients_mean = False
        self.full_batch = False
        self._configured = False
        self._pipeline_stages = 1
        self._comm_fusion_config = {}
        self._gradient_fp32_sync = True

    def _before_configuring(self, method: str) -> None:
        if self._configured:
            raise ArgumentValueError(f"AutoParallel.{method}: the network has already run; "
                                     f"configure the parallelism before its first call")

    def enable_gradients_mean(self) -> None:
        """Average the all-reduced gradients over the processes (MindSpore's default sums)."""
        self._before_configuring("enable_gradients_mean")
        self.gradients_mean = True

    def comm_fusion(self, config) -> None:
        """The fusion of the gradients' communication (`{"allreduce": {"mode": "size",
        "config": MB}}`, as set_auto_parallel_context's comm_fusion takes it): set in the
        context when the network first runs, so the gradient all-reduces are bucketed by it."""
        if config is not None and not isinstance(config, dict):
            raise DTypeError(f"The parameter '{config}' must be {dict}, but got {type(config)}.")
        self._before_configuring("comm_fusion")
        self._comm_fusion_config = config

    def disable_gradient_fp32_sync(self) -> None:
        """Mirror half-precision gradients in their own precision, not float32 (the context's
        gradient_fp32_sync=False), from the network's first run."""
        self._before_configuring("disable_gradient_fp32_sync")
        self._gradient_fp32_sync = False

    def get_pipeline_stages(self) -> int:
        """The number of pipeline stages (pipeline(stages=...)): 1, the whole network."""
        return self._pipeline_stages

    def dataset_strategy(self, config) -> None:
        """"data_parallel" (each process reads its own share of the batch: data parallelism)
        or "full_batch" (each reads all of it: what operator sharding runs on)."""
        if not isinstance(config, (str, tuple)):
            raise DTypeError(f"AutoParallel.dataset_strategy: config must be a str or a tuple, "
                             f"got {type(config).__name__}")
        if isinstance(config, str) and config not in ("data_parallel", "full_batch"):
            raise ArgumentValueError(f"AutoParallel.dataset_strategy: config must be "
                                     f"'data_parallel' or 'full_batch', got {config!r}")
        if isinstance(config, tuple):
            raise UnsupportedError(f"AutoParallel.dataset_strategy: {config!r} splits the "
                                   f"inputs by a strategy; {_SHARDING} with 'data_parallel' or "
                                   f"'full_batch'")
        self._before_configuring("dataset_strategy")
        self.full_batch = config == "full_batch"

    def pipeline(self, stages=1, output_broadcast=False, interleave=False, scheduler="1f1b"):
        """One stage is the whole network on every process; more stages are not supported."""
        if isinstance(stages, bool) or not isinstance(stages, int):
            raise DTypeError(f"AutoParallel.pipeline: stages must be an int, got {stages!r}")
        if stages <= 0:
            raise ArgumentValueError(f"AutoParallel.pipeline: stages must be > 0, got {stages}")
        if stages > 1:
            raise UnsupportedError(f"AutoParallel.pipeline: {stages} pipeline stages; "
                                   f"{_SHARDING}: use stages=1")
        self._pipeline_stages = stages

    def hsdp(self, shard_size=-1, threshold=64, optimizer_level="level1"):
        """Optimizer sharding: not supported."""
        raise UnsupportedError(f"AutoParallel.hsdp: optimizer sharding shards parameters "
                               f"across processes; {_SHARDING}")

    def save_param_strategy_file(self, file_path):
        raise UnsupportedError(f"AutoParallel.save_param_strategy_file: {_SHARDING}, so there "
                               f"is no parameter strategy to save")

    def load_param_strategy_file(self, file_path):
        raise UnsupportedError(f"AutoParallel.load_param_strategy_file: {_SHARDING}, so a "
                               f"parameter strategy cannot be applied")

    def configure(self, extra_training_cells=()) -> None:
        """Give every training cell (inside the network, and those Model built around it) an
        all-reduce of its gradients over the job's processes; runs once, at the first call."""
        self._configured = True
        self._set_context()
        size = world_size()
        cells = training_cells(self.network) + list(extra_training_cells)
        if size == 1:
            return  # one process: its gradients are the global ones
        if sharded_primitives(self.network):
            return self._shard_operators()
        if not isinstance(self.network, Cell):
            raise UnsupportedError(
                f"AutoParallel: a function run on {size} processes cannot have its gradients "
                f"all-reduced by cellgraph; reduce them inside it with nn.DistributedGradReducer, "
                f"or wrap a Cell (TrainOneStepCell, or the network given to Model)")
        if not cells:
            warnings.warn(f"AutoParallel: {type(self.network).__name__} holds no training "
                          f"cell, so it runs on each of the {size} processes alone; gradients "
                          f"taken outside it are not all-reduced (use nn.DistributedGradReducer)",
                          stacklevel=3)
        for cell in cells:
            cell.grad_reducer = DistributedGradReducer(cell.weights, self.gradients_mean, size)

    def _set_context(self) -> None:
        """The settings MindSpore puts in the auto-parallel context when the network compiles
        and that cellgraph reads there (comm_fusion, gradient_fp32_sync)."""
        from cellgraph.auto_parallel import set_auto_parallel_context

        if self._comm_fusion_config:
            set_auto_parallel_context(comm_fusion=self._comm_fusion_config)
        set_auto_parallel_context(gradient_fp32_sync=self._gradient_fp32_sync)

    def _shard_operators(self) -> None:
        """Operator sharding for the network's strategies, each process on the whole batch;
        the mirrors of the per-rank graph reduce the gradients (no gradient reducer)."""
        if not self.full_batch:
            warnings.warn("AutoParallel: the network's operators carry sharding strategies, "
                          "so each process runs its slices of them on the whole batch, as "
                          "with dataset_strategy('full_batch'): feed every process the same "
                          "batch", stacklevel=3)
        from cellgraph.auto_parallel import set_auto_parallel_context

        set_auto_parallel_context(parallel_mode="semi_auto_parallel", full_batch=True)

    def __call__(self, *args, **kwargs):
        if not self._configured:
            self.configure()
        if not isinstance(self.network, Cell):
            return self.network(*args, **kwargs)  # a function (often @jit) runs as it is
        return super().__call__(*args, **kwargs)

    def construct(self, *inputs):
        return self.network(*inputs)
