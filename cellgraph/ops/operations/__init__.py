"""MindSpore's primitive classes (`ops.MatMul()`, `ops.ReduceSum(keep_dims=True)`, ...), also
importable as `cellgraph.ops.operations` (MindSpore's `mindspore.ops.operations`).

Each class is configured in `__init__` and applied in `__call__`; instances are constants in a
graph, so `self.matmul = ops.MatMul()` works in construct. They are defined in MindSpore's
modules, `array_ops`, `math_ops`, `nn_ops`, `random_ops`, `image_ops` and `comm_ops`: there
the classes written by hand, then those derived from the primitives' declarations
(ops/derive.py `generate_classes`, filed by `_filing.py`). The classes of public primitives
MindSpore files in none of them join this package when `cellgraph.ops` is imported.
"""
from __future__ import annotations

from cellgraph._lazy import lazy_names as _lazy_names

from ..derive import PrimitiveClass, define_class  # noqa: F401  (the base, for users)

__all__: list[str] = []

# MindSpore's modules of primitive classes; their classes are those of `ops.operations` too
from . import array_ops, comm_ops, image_ops, math_ops, nn_ops, random_ops
from .array_ops import *
from .comm_ops import *
from .image_ops import *
from .math_ops import *
from .nn_ops import *
from .random_ops import *

for _module in (array_ops, comm_ops, image_ops, math_ops, nn_ops, random_ops):
    __all__.extend(_module.__all__)
__all__.append("PrimitiveClass")


# The summary operations keep values for train.SummaryRecord, which sits above this package:
# they load with it, on first use.
SUMMARY_OPERATIONS = {name: ("cellgraph.train.summary", name) for name in (
    "ScalarSummary", "TensorSummary", "ImageSummary", "HistogramSummary")}
# `Morph` (debug_ops) subclasses ops.primitive's classes, which load after this package
LAZY_OPERATIONS = {**SUMMARY_OPERATIONS, "Morph": ("cellgraph.ops.operations.debug_ops", "Morph")}
__getattr__ = _lazy_names(globals(), LAZY_OPERATIONS)[0]
