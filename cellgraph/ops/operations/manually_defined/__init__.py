"""MindSpore's `ops.operations.manually_defined`: the primitives MindSpore writes by hand
rather than generating from its op table. Those cellgraph defines elsewhere are the same
objects here (Shape, Rank, Cast, Tile, BatchNorm, FlashAttentionScore, the loops); the scalar
operations are classes over Python arithmetic on scalars, done on the values while the graph is
built, as `ops.functional`'s scalar functions are."""
from __future__ import annotations

from cellgraph.loops import ForiLoop, Scan, WhileLoop
from cellgraph.ops.function.array_func.attributes import rank, shape
from cellgraph.ops.function.array_func.creation import scalar_to_tensor
from cellgraph.ops.function.other_func import SCALAR_OPS, scalar_cast
from cellgraph.ops.operations.array_ops import Cast, Rank, ScalarToTensor, Shape, Tile
from cellgraph.ops.operations.nn_ops import BatchNorm, FlashAttentionScore
from cellgraph.ops.primitive_class import define_classes
from cellgraph.primitives.nn_functional import tile
from cellgraph.runtime.tensor import Parameter, Tensor

_SCALAR_FUNCTIONS = {
    **{name: SCALAR_OPS[name] for name in (
        "scalar_add", "scalar_sub", "scalar_mul", "scalar_div", "scalar_floordiv",
        "scalar_mod", "scalar_pow", "scalar_usub", "scalar_lt", "scalar_gt", "scalar_le",
        "scalar_ge", "scalar_eq", "scalar_uadd", "scalar_log", "scalar_max", "scalar_min")},
    "scalar_bool": bool,
}


def shape_(input_x):
    """`shape_(x)`: the shape of `x`, a tuple (MindSpore's instance of Shape)."""
    return shape(input_x)


globals().update(_SCALAR_FUNCTIONS)
_CLASSES = {"".join(part.capitalize() for part in name.split("_")).replace(
    "Floordiv", "FloorDiv"): fn for name, fn in {**_SCALAR_FUNCTIONS,
                                                  "scalar_cast": scalar_cast}.items()}
define_classes(globals(), _CLASSES, __name__)

__all__ = [
    "BatchNorm",
    "Cast",
    "FlashAttentionScore",
    "ForiLoop",
    "Parameter",
    "Rank",
    "ScalarToTensor",
    "Scan",
    "Shape",
    "Tensor",
    "Tile",
    "WhileLoop",
    "rank",
    "scalar_cast",
    "scalar_to_tensor",
    "shape_",
    "tile",
]
__all__.extend(sorted(_SCALAR_FUNCTIONS) + sorted(_CLASSES))
