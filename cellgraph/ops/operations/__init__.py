"""MindSpore's primitive classes (`ops.MatMul()`, `ops.ReduceSum(keep_dims=True)`, ...), also
importable as `cellgraph.ops.operations` (MindSpore's `mindspore.ops.operations`).

Each class is configured in `__init__` and applied in `__call__`; instances are constants in a
graph, so `self.matmul = ops.MatMul()` works in construct. The classes of public primitives
(`ops.Add`, `ops.Exp`, ...) are derived from their declarations (ops/derive.py) and join this
module when `cellgraph.ops` is imported; those written here delegate to a functional wrapper
that normalises their arguments.
"""
from __future__ import annotations

from cellgraph._lazy import lazy_names as _lazy_names

from .. import functional as F
from ..derive import PrimitiveClass, define_class  # noqa: F401  (the base, for users)

__all__: list[str] = []


def _define(name: str, fn, init: dict | None = None) -> None:
    globals()[name] = define_class(name, fn, init, __name__)
    __all__.append(name)


for _name, _fn in {"Reshape": F.reshape, "Transpose": F.transpose, "Cast": F.cast,
                   "ExpandDims": F.expand_dims, "Fill": F.fill, "Gather": F.gather}.items():
    _define(_name, _fn)
_define("MatMul", F.mm, {"transpose_a": False, "transpose_b": False})
_define("BatchMatMul", F.batch_matmul, {"transpose_a": False, "transpose_b": False})
for _name, _fn in {"ReduceSum": F.reduce_sum, "ReduceMean": F.reduce_mean,
                   "ReduceMax": F.reduce_max, "ReduceMin": F.reduce_min}.items():
    _define(_name, lambda x, axis=(), keep_dims=False, _f=_fn: _f(x, axis, keep_dims),
            {"keep_dims": False})
_define("BroadcastTo", lambda x, shape: F.broadcast_to(x, shape), {"shape": None})
_define("Squeeze", lambda x, axis=(): F.squeeze(x, axis), {"axis": ()})
_define("Concat", lambda x, axis=0: F.concat(x, axis), {"axis": 0})
_define("Stack", lambda x, axis=0: F.stack(x, axis), {"axis": 0})
_define("Softmax", lambda x, axis=-1: F.softmax(x, axis[0] if isinstance(axis, tuple) else axis),
        {"axis": -1})
_define("LogSoftmax", lambda x, axis=-1: F.log_softmax(x, axis), {"axis": -1})

# MindSpore's modules of primitive classes; their classes are those of `ops.operations` too
from . import array_ops, image_ops, math_ops, nn_ops, random_ops
from .array_ops import *
from .image_ops import *
from .math_ops import *
from .nn_ops import *
from .random_ops import *

for _module in (array_ops, image_ops, math_ops, nn_ops, random_ops):
    __all__.extend(_module.__all__)
__all__.append("PrimitiveClass")

from cellgraph.primitives.comm_ops import *  # the collectives: AllReduce, AllGather, ... and ReduceOp
from cellgraph.primitives.comm_ops import __all__ as _comm_all

__all__.extend(_comm_all)


# The summary operations keep values for train.SummaryRecord, which sits above this package:
# they load with it, on first use.
SUMMARY_OPERATIONS = {name: ("cellgraph.train.summary", name) for name in (
    "ScalarSummary", "TensorSummary", "ImageSummary", "HistogramSummary")}
__getattr__ = _lazy_names(globals(), SUMMARY_OPERATIONS)[0]
