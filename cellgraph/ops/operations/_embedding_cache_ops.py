"""MindSpore's `ops.operations._embedding_cache_ops`: the embedding cache's operations.
`UpdateCache` writes rows of a cache Parameter in place, skipping the rows whose index is
negative or not below `max_num` (the cache's marker for "not cached")."""
from __future__ import annotations

from cellgraph.common.assign import assign
from cellgraph.ops.primitive_class import PrimitiveClass
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_ops import check_range
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Tensor

__all__ = ["UpdateCache"]

_INT_TYPES = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.uint16, dt.uint32, dt.uint64)


def update_cache(input_x, indices, updates, max_num):
    """input_x viewed as rows of updates.shape[1] elements; row indices[i] becomes row i of
    `updates` where 0 <= indices[i] < max_num, in order (a repeated index keeps the last);
    an index past input_x's rows fails when the graph runs. Returns [0] of input_x's dtype,
    as MindSpore's kernel does."""
    op = "UpdateCache"
    if abstract_of(indices).dtype not in _INT_TYPES:
        raise DTypeError(f"For '{op}', the 'indices' must be a Tensor of an integer type, but "
                         f"got Tensor[{abstract_of(indices).dtype}].")
    x_dtype = abstract_of(input_x).dtype
    update_shape = tuple(abstract_of(updates).shape)
    if len(update_shape) < 2:
        raise ArgumentValueError(f"For '{op}', the dimension of 'update' must be at least 2D, "
                                 f"but got: {len(update_shape)}D")
    length = update_shape[1]
    rows = F.reshape(input_x, (-1, length))
    count = abstract_of(rows).shape[0]
    index = F.reshape(indices, (-1,))
    batch = abstract_of(index).shape[0]
    new_rows = F.reshape(F.cast(updates, x_dtype), (-1, length))[:batch]
    limit = F.cast(max_num, abstract_of(index).dtype) if isinstance(max_num, Tensor) or \
        hasattr(max_num, "aval") else max_num
    valid = F.logical_and(F.greater_equal(index, 0), F.less(index, limit))
    # row 0 is a scratch row that the skipped entries write; the cache's rows follow it
    kept = check_range(F.select(valid, index, F.zeros_like(index)), low=0, high=count,
                       what="row index", op=op)
    target = F.select(valid, F.add(kept, 1), F.zeros_like(index))
    padded = F.concat((F.zeros((1, length), x_dtype), rows), 0)
    written = F.tensor_scatter_update(padded, F.expand_dims(target, -1), new_rows)
    assign(input_x, F.reshape(written[1:count + 1], tuple(abstract_of(input_x).shape)))
    return F.zeros((1,), x_dtype)


class UpdateCache(PrimitiveClass):
    """`UpdateCache()(input_x, indices, updates, max_num)`: `update_cache`."""

    def __init__(self):
        self._attrs = {}

    def __call__(self, input_x, indices, updates, max_num):
        return update_cache(input_x, indices, updates, max_num)
