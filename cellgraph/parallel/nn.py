"""`mindspore.parallel.nn`: micro-batch wrappers (GradAccumulation, MicroBatchInterleaved) and
pipeline-parallel ones, which need pipeline stages on separate devices; cellgraph runs one
stage (the whole network) per process, so Pipeline and PipelineGradReducer raise saying so."""
from __future__ import annotations

from cellgraph import ops
from cellgraph.nn.cell import Cell
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError, UnsupportedError


class Pipeline:
    """Split a network into `stages` pipeline stages: not supported."""

    def __init__(self, network, micro_size, stage_config=None):
        raise UnsupportedError("parallel.nn.Pipeline: pipeline stages place parts of the "
                               "network on different devices; cellgraph runs the whole "
                               "network on every process (data parallelism only)")


class PipelineGradReducer:
    """The gradient reducer of a pipeline-parallel network: not supported."""

    def __init__(self, parameters, scale_sense=1.0, opt_shard=None):
        raise UnsupportedError("parallel.nn.PipelineGradReducer: needs pipeline stages, which "
                               "cellgraph does not run; use nn.DistributedGradReducer")


def _micro_slices(op: str, inputs: tuple, parts: int, index: int) -> tuple:
    """Slice `index` of `parts` equal slices of every Tensor input along its batch axis (0);
    other inputs pass through."""
    sliced = []
    for value in inputs:
        if not hasattr(value, "shape") or not value.shape:
            sliced.append(value)
            continue
        batch = value.shape[0]
        if batch % parts:
            raise ShapeError(f"{op}: the batch axis of an input of shape {tuple(value.shape)} "
                             f"does not split into {parts} equal micro-batches")
        size = batch // parts
        sliced.append(value[index * size:(index + 1) * size])
    return tuple(sliced)


class _MicroBatchSum(Cell):
    """The network run on `parts` equal slices of the batch, its outputs added."""

    OP = ""
    COUNT = ""

    def __init__(self, network, parts):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise DTypeError(f"{self.OP}: `network` must be a Cell, got "
                             f"{type(network).__name__}")
        if isinstance(parts, bool) or not isinstance(parts, int):
            raise DTypeError(f"{self.OP}: `{self.COUNT}` must be an int, got {parts!r}")
        if parts <= 0:
            raise ArgumentValueError(f"{self.OP}: `{self.COUNT}` must be positive, got {parts}")
        self.network, self.parts = network, parts

    def construct(self, *inputs):
        total = None
        for i in range(self.parts):
            output = self.network(*_micro_slices(self.OP, inputs, self.parts, i))
            total = output if total is None else ops.add(total, output)
        return total


class GradAccumulation(_MicroBatchSum):
    """Gradient accumulation within one step: the batch is split into `micro_size`
    micro-batches, the network (usually a network with its loss) runs on each and their
    outputs add up, so the gradient of the result is the sum of the micro-batches'
    gradients."""

    OP, COUNT = "GradAccumulation", "micro_size"

    def __init__(self, network, micro_size):
        super().__init__(network, micro_size)
        self.micro_size = micro_size


class MicroBatchInterleaved(_MicroBatchSum):
    """The batch split into `interleave_num` slices, the network run on each and the outputs
    added (MindSpore interleaves the slices' computation and communication on its devices;
    the result is the same)."""

    OP, COUNT = "MicroBatchInterleaved", "interleave_num"

    def __init__(self, network, interleave_num=2):
        super().__init__(network, interleave_num)
        self.interleave_num = interleave_num
