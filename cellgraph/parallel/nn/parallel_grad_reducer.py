"""`mindspore.parallel.nn.parallel_grad_reducer`: PipelineGradReducer, nn's."""
from __future__ import annotations

from cellgraph.nn.wrap.grad_reducer import PipelineGradReducer

__all__ = ["PipelineGradReducer"]
