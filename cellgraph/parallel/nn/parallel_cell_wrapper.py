"""`mindspore.parallel.nn.parallel_cell_wrapper`: the micro-batch wrappers (GradAccumulation,
MicroBatchInterleaved, Pipeline: nn's, summing the network over slices of the batch)."""
from __future__ import annotations

from cellgraph.nn.wrap.cell_wrapper import GradAccumulationCell, PipelineCell
from cellgraph.nn.wrap.cell_wrapper import MicroBatchInterleaved as _MicroBatchInterleaved


class Pipeline(PipelineCell):
    """`mindspore.parallel.nn.Pipeline`: nn.PipelineCell (the network summed over
    micro-batches, with the stage annotations)."""


class GradAccumulation(GradAccumulationCell):
    """`mindspore.parallel.nn.GradAccumulation`: nn.GradAccumulationCell (the batch split into
    `micro_size` micro-batches whose outputs, and so gradients, add up)."""


class MicroBatchInterleaved(_MicroBatchInterleaved):
    """`mindspore.parallel.nn.MicroBatchInterleaved`: nn.MicroBatchInterleaved."""


__all__ = ["GradAccumulation", "MicroBatchInterleaved", "Pipeline", "PipelineCell"]
