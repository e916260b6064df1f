"""MindSpore's `ops.operations.comm_ops`: the collectives (`AllReduce`, `AllGather`,
`ReduceScatter`, `Broadcast`, ...) and `ReduceOp`. They are the core's
(cellgraph/primitives/comm_ops.py): a collective is a primitive with its own kernels."""
from cellgraph.primitives.comm_ops import *
from cellgraph.primitives.comm_ops import __all__  # noqa: F401

from ..primitive import PrimitiveWithInfer


class _VirtualDataset(PrimitiveWithInfer):
    """MindSpore's marker of a network's dataset inputs, which its auto-parallel pass splits
    along the batch by the dataset strategy. cellgraph's processes read the whole batch (the
    full_batch strategy, the only one semi_auto_parallel runs), so the inputs pass unchanged,
    as a tuple."""

    def __init__(self):
        super().__init__("_VirtualDataset")
        self.add_prim_attr("order_enforce_skip", True)

    def infer_shape(self, *args):
        return args

    def infer_dtype(self, *args):
        return args

    def __call__(self, *args):
        return args


virtual_dataset = _VirtualDataset()
