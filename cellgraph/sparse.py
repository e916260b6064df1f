"""`COOTensor`: a 2-D sparse tensor as (indices (N, 2), values (N,), dense shape), as MindSpore
has it; `RowTensor`: some rows of a dense tensor (the gradient of a Gather's table, as
MindSpore's sparse gradients are) as (row indices, those rows, dense shape). Its operations are functional ops on `indices` and `values`, so one works eagerly and
inside construct alike; those whose result size depends on the data (`add`, `coalesce`) run
eagerly only, as their result has no shape known while compiling."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph import ops
from cellgraph.compiler.builder import current_builder
from cellgraph.ops import functional as F
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import DTypeError, ShapeError, UnsupportedError
from cellgraph.runtime.tensor import Tensor

__all__ = ["COOTensor", "RowTensor"]


class RowTensor:
    """dense[indices[i]] = values[i] row by row, for a dense tensor of shape `shape` (MindSpore's
    `dense_shape`); rows not listed are zero. `row_tensor=` copies another."""

    _sparse_kind = "rowtensor"

    def __init__(self, indices=None, values=None, shape=None, row_tensor=None):
        if row_tensor is not None:
            indices, values, shape = row_tensor.indices, row_tensor.values, row_tensor.dense_shape
        if indices is None or values is None or shape is None:
            raise DTypeError("RowTensor: expected indices, values and shape (or row_tensor)")
        index_type, value_type = abstract_of(indices), abstract_of(values)
        if len(index_type.shape) != 1 or not index_type.dtype.is_int:
            raise DTypeError(f"RowTensor: indices must be a 1-D integer Tensor, got "
                             f"{index_type}")
        shape = tuple(int(s) for s in shape)
        if (len(value_type.shape) != len(shape) or value_type.shape[0] != index_type.shape[0]
                or tuple(value_type.shape[1:]) != shape[1:]):
            raise ShapeError(f"RowTensor: values of shape {tuple(value_type.shape)} are not "
                             f"{index_type.shape[0]} rows of a tensor of shape {shape}")
        self.indices, self.values, self.dense_shape = indices, values, shape

    @property
    def dtype(self):
        return abstract_of(self.values).dtype

    def __repr__(self) -> str:
        return (f"RowTensor(dense_shape={self.dense_shape}, dtype={self.dtype}, "
                f"rows={abstract_of(self.indices).shape[0]})")

    def to_dense(self):
        """The dense Tensor (rows listed twice add up)."""
        zeros = F.zeros(self.dense_shape, self.dtype)
        return ops.tensor_scatter_add(zeros, F.expand_dims(self.indices, -1), self.values)


class COOTensor:
    """dense[indices[i]] = values[i] for a dense tensor of `shape`; duplicate indices are kept
    (they add up in `to_dense`) until `coalesce`."""

    _sparse_kind = "cootensor"

    def __init__(self, indices=None, values=None, shape=None, coo_tensor=None):
        if coo_tensor is not None:
            indices, values, shape = coo_tensor.indices, coo_tensor.values, coo_tensor.shape
        if indices is None or values is None or shape is None:
            raise DTypeError("COOTensor: expected indices, values and shape (or coo_tensor)")
        index_type, value_type = abstract_of(indices), abstract_of(values)
        if len(index_type.shape) != 2 or index_type.shape[1] != 2:
            raise ShapeError(f"COOTensor: indices must have shape (N, 2), got {index_type.shape}")
        if not index_type.dtype.is_int:
            raise DTypeError(f"COOTensor: indices must be integers, got {index_type.dtype}")
        if len(value_type.shape) != 1 or value_type.shape[0] != index_type.shape[0]:
            raise ShapeError(f"COOTensor: values must have shape ({index_type.shape[0]},), got "
                             f"{value_type.shape}")
        shape = tuple(int(s) for s in shape)
        if len(shape) != 2:
            raise ShapeError(f"COOTensor: the dense shape must have 2 dimensions, got {shape}")
        self.indices, self.values, self.shape = indices, values, shape

    # -- properties -----------------------------------------------------------------------
    @property
    def dtype(self):
        return abstract_of(self.values).dtype

    @property
    def size(self) -> int:
        return abstract_of(self.values).shape[0]

    @property
    def itemsize(self) -> int:
        return self.dtype.np.itemsize

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        return f"COOTensor(shape={self.shape}, dtype={self.dtype}, nnz={self.size})"

    # -- conversions ----------------------------------------------------------------------
    def to_dense(self):
        """The dense Tensor (values at repeated indices add up)."""
        zeros = F.zeros(self.shape, self.dtype)
        return ops.tensor_scatter_add(zeros, self.indices, self.values)

    def to_tuple(self):
        return self.indices, self.values, self.shape

    def astype(self, dtype, keep_type=True):
        return COOTensor(self.indices, F.cast(self.values, dtype), self.shape)

    def _with_values(self, values):
        return COOTensor(self.indices, values, self.shape)

    # -- arithmetic -----------------------------------------------------------------------
    def abs(self):
        return self._with_values(ops.abs(self.values))

    def __neg__(self):
        return self._with_values(ops.neg(self.values))

    def _at_indices(self, other):
        """`other` (a number, or a Tensor broadcast to the dense shape) at the stored
        indices."""
        if isinstance(other, numbers.Number):
            return other
        dense = F.broadcast_to(other, self.shape)
        return ops.gather_nd(dense, self.indices)

    def __mul__(self, other):
        return self._with_values(ops.mul(self.values, self._at_indices(other)))

    __rmul__ = __mul__

    def __truediv__(self, other):
        return self._with_values(ops.div(self.values, self._at_indices(other)))

    def __add__(self, other):
        if isinstance(other, COOTensor):
            return self.add(other, 0.0)
        return ops.add(self.to_dense(), other)  # sparse + dense is dense

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, COOTensor):
            return self.add(-other, 0.0)
        return ops.sub(self.to_dense(), other)

    def __rsub__(self, other):
        return ops.sub(other, self.to_dense())

    # -- data-dependent sizes: eager only -------------------------------------------------
    def _eager(self, op: str):
        if current_builder() is not None:
            raise UnsupportedError(f"COOTensor.{op}: its number of values depends on the data, "
                                   f"so it runs eagerly only; call it outside construct or use "
                                   f"to_dense()")

    def coalesce(self):
        """One entry per index, the values at repeated indices summed, indices sorted."""
        self._eager("coalesce")
        indices = np.asarray(self.indices.asnumpy()).reshape(-1, 2)
        flat = indices[:, 0].astype(np.int64) * self.shape[1] + indices[:, 1]
        keys, where = np.unique(flat, return_inverse=True)
        summed = ops.unsorted_segment_sum(self.values, Tensor(where.astype(np.int32)),
                                          len(keys))
        rows = np.stack([keys // self.shape[1], keys % self.shape[1]], 1).astype(indices.dtype)
        return COOTensor(Tensor(rows), summed, self.shape)

    def add(self, other, thresh):
        """self + other as a COOTensor; entries whose magnitude is below `thresh` dropped."""
        self._eager("add")
        if not isinstance(other, COOTensor) or other.shape != self.shape:
            raise ShapeError(f"COOTensor.add: expected a COOTensor of shape {self.shape}, got "
                             f"{other!r}")
        joined = COOTensor(ops.concat((self.indices, F.cast(other.indices, abstract_of(
            self.indices).dtype)), 0), ops.concat((self.values, F.cast(other.values, self.dtype)),
                                                  0), self.shape).coalesce()
        limit = float(thresh.asnumpy()) if isinstance(thresh, Tensor) else float(thresh)
        keep = np.flatnonzero(np.abs(joined.values.asnumpy()) >= limit).astype(np.int64)
        keep = Tensor(keep)
        return COOTensor(ops.gather(joined.indices, keep, 0), ops.gather(joined.values, keep, 0),
                         self.shape)
