"""`mindspore.parallel.nn`: the micro-batch wrappers (GradAccumulation, MicroBatchInterleaved,
Pipeline: nn's, summing the network over slices of the batch) and PipelineGradReducer, which
needs pipeline stages on separate devices; cellgraph runs one stage (the whole network) per
process, so it raises saying so."""
from __future__ import annotations

from cellgraph.nn.wrap.cell_wrapper import GradAccumulationCell, PipelineCell
from cellgraph.nn.wrap.cell_wrapper import MicroBatchInterleaved as _MicroBatchInterleaved
from cellgraph.primitives.errors import UnsupportedError


class Pipeline(PipelineCell):
    """`mindspore.parallel.nn.Pipeline`: nn.PipelineCell (the network summed over
    micro-batches, with the stage annotations)."""


class PipelineGradReducer:
    """The gradient reducer of a pipeline-parallel network: not supported."""

    def __init__(self, parameters, scale_sense=1.0, opt_shard=None):
        raise UnsupportedError("parallel.nn.PipelineGradReducer: needs pipeline stages, which "
                               "cellgraph does not run; use nn.DistributedGradReducer")


class GradAccumulation(GradAccumulationCell):
    """`mindspore.parallel.nn.GradAccumulation`: nn.GradAccumulationCell (the batch split into
    `micro_size` micro-batches whose outputs, and so gradients, add up)."""


class MicroBatchInterleaved(_MicroBatchInterleaved):
    """`mindspore.parallel.nn.MicroBatchInterleaved`: nn.MicroBatchInterleaved."""
