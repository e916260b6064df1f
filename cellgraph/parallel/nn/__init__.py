"""`mindspore.parallel.nn`: the micro-batch and pipeline wrappers (parallel_cell_wrapper) and
the pipeline's gradient reducer (parallel_grad_reducer)."""
from . import parallel_cell_wrapper, parallel_grad_reducer
from .parallel_cell_wrapper import GradAccumulation, MicroBatchInterleaved, Pipeline, PipelineCell
from .parallel_grad_reducer import PipelineGradReducer

__all__ = ["GradAccumulation", "MicroBatchInterleaved", "Pipeline", "PipelineCell",
           "PipelineGradReducer", "parallel_cell_wrapper", "parallel_grad_reducer"]
