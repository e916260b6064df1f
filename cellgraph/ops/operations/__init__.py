"""MindSpore's primitive classes (`ops.MatMul()`, `ops.ReduceSum(keep_dims=True)`, ...), also
importable as `cellgraph.ops.operations` (MindSpore's `mindspore.ops.operations`).

Each class is configured in `__init__` and applied in `__call__`; instances are constants in a
graph, so `self.matmul = ops.MatMul()` works in construct. They are defined in MindSpore's
modules, `array_ops`, `math_ops`, `nn_ops`, `random_ops`, `image_ops`, `other_ops`, `inner_ops` and
`comm_ops`: there
the classes written by hand, then those derived from the primitives' declarations
(ops/primitive_class.py `generate_classes`, filed by each declaration's `ops_module`). The classes of
public primitives MindSpore files in none of them are this package's own; every other class
of `ops` (HyperMap, Assign, ...) it answers for through its module `__getattr__`.
"""
from __future__ import annotations

from cellgraph._lazy import lazy_names as _lazy_names

from .. import primitive_class as _primitive_class
from ..function._namespace import ops_names as _ops_names
from ..primitive_class import PrimitiveClass, define_class  # noqa: F401  (the base, for users)

__all__: list[str] = []

# MindSpore's modules of primitive classes; their classes are those of `ops.operations` too
from .debug_ops import Assert, Print  # noqa: F401  # isort: skip
from . import (
    array_ops,
    comm_ops,
    control_ops,
    image_ops,
    inner_ops,
    math_ops,
    nn_ops,
    other_ops,
    random_ops,
)
from .array_ops import *
from .comm_ops import *
from .control_ops import *
from .image_ops import *
from .inner_ops import *
from .math_ops import *
from .nn_ops import *
from .other_ops import *
from .random_ops import *

for _module in (array_ops, comm_ops, control_ops, image_ops, inner_ops, math_ops, nn_ops,
                other_ops, random_ops):
    __all__.extend(_module.__all__)
# of sparse_ops, MindSpore's ops.operations (and ops) hold these four
from . import sparse_ops  # noqa: F401  (ops.operations.sparse_ops)
from .sparse_ops import SparseSlice, SparseTensorDenseAdd, SparseTensorDenseMatmul, SparseToDense

__all__ += ["SparseSlice", "SparseTensorDenseAdd", "SparseTensorDenseMatmul", "SparseToDense"]
from . import _embedding_cache_ops  # noqa: F401  (ops.operations._embedding_cache_ops)
from ._embedding_cache_ops import MapUniform, PadAndShift, UpdateCache

__all__ += ["MapUniform", "PadAndShift", "UpdateCache"]
__all__.append("PrimitiveClass")
__all__.append("Assert")

# the classes derived from declarations that MindSpore files in none of the modules above
_unfiled = _primitive_class.unfiled_classes(globals())
globals().update(_unfiled)
__all__.extend(_unfiled)


# The summary operations keep values for train.SummaryRecord, which sits above this package:
# they load with it, on first use.
SUMMARY_OPERATIONS = {name: ("cellgraph.train.summary", name) for name in (
    "ScalarSummary", "TensorSummary", "ImageSummary", "HistogramSummary")}
# `Morph` (debug_ops) subclasses ops.primitive's classes, which load after this package
# the classes MindSpore's ops.operations takes from its generated definitions (ops.auto_generate,
# which is built over `ops` and so loads after it)
GENERATED_OPERATIONS = {name: ("cellgraph.ops.auto_generate.gen_ops_prim", name) for name in (
    "LerpScalar", "LogSoftmaxExt", "Roll", "ScalarCast", "Sinc")}
LAZY_OPERATIONS = {**SUMMARY_OPERATIONS, **GENERATED_OPERATIONS,
                   "Morph": ("cellgraph.ops.operations.debug_ops", "Morph")}
_lazy_getattr = _lazy_names(globals(), LAZY_OPERATIONS)[0]


def _from_ops(name: str):
    """`ops.<name>` where it is a primitive class defined elsewhere (the composite and state
    operations, the transforms' classes: `P.HyperMap()`, `P.Assign()`): MindSpore's
    `ops.operations` holds every primitive class `ops` has."""
    value = _ops_names().get(name)
    return value if name[:1].isupper() and isinstance(value, type) and name != "Tensor" \
        else None


def __getattr__(name: str):
    if name in LAZY_OPERATIONS:
        return _lazy_getattr(name)
    if name == "manually_defined":  # MindSpore's hand-written primitives, loaded on first use
        import importlib

        return importlib.import_module(f"{__name__}.manually_defined")
    value = _from_ops(name)
    if value is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # found once: a plain attribute from now on
    return value


def __dir__():
    return sorted(set(globals()) | set(LAZY_OPERATIONS) | {"manually_defined"} |
                  {n for n in _ops_names() if _from_ops(n) is not None})
