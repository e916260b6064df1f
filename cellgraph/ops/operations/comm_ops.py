"""MindSpore's `ops.operations.comm_ops`: the collectives (`AllReduce`, `AllGather`,
`ReduceScatter`, `Broadcast`, ...) and `ReduceOp`. They are the core's
(cellgraph/primitives/comm_ops.py): a collective is a primitive with its own kernels."""
from cellgraph.primitives.comm_ops import *
from cellgraph.primitives.comm_ops import __all__  # noqa: F401
