"""`COOTensor`: a 2-D sparse tensor as (indices (N, 2), values (N,), dense shape), as MindSpore
has it; `RowTensor`: some rows of a dense tensor (the gradient of a Gather's table, as
MindSpore's sparse gradients are) as (row indices, those rows, dense shape). Its operations are functional ops on `indices` and `values`, so one works eagerly and
inside construct alike; those whose result size depends on the data (`add`, `coalesce`) run
eagerly only, as their result has no shape known while compiling."""
from __future__ import annotations

import numbers
import warnings

import numpy as np

from cellgraph import ops
from cellgraph.compiler.builder import Tracer, current_builder
from cellgraph.ops import functional as F
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import DTypeError, ShapeError, UnsupportedError
from cellgraph.runtime.tensor import Tensor
from cellgraph.runtime.tensor_format import format_graph_print

__all__ = ["COOTensor", "CSRTensor", "RowTensor", "RowTensorInner", "SparseTensor"]


class RowTensorInner:
    """dense[indices[i]] = values[i] row by row, for a dense tensor of shape `shape` (MindSpore's
    `dense_shape`); rows not listed are zero. `row_tensor=` copies another. MindSpore's
    internal class (its sparse gradients are made as these); the public `RowTensor` derives
    from it."""

    _sparse_kind = "rowtensor"
    _part_names, _shape_name = ("indices", "values"), "dense_shape"  # a graph's leaves, static

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
        if len(value_type.shape) != len(shape):  # MindSpore's TypeErrors for the shapes
            raise DTypeError(f"The size of dense_shape must be the same with the dimension of "
                             f"values {len(value_type.shape)}, but got {len(shape)}")
        for i in range(1, len(shape)):
            if value_type.shape[i] != shape[i]:
                raise DTypeError(f"The {i}th element of dense_shape must be same with the {i}th "
                                 f"dimension of values {value_type.shape[i]}, but got "
                                 f"{shape[i]}")
        if value_type.shape[0] != index_type.shape[0]:
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


class RowTensor(RowTensorInner):
    """The public row-sparse tensor: a `RowTensorInner` (an instance of this class is one of
    those, not the other way round, as in MindSpore)."""


class COOTensor:
    """dense[indices[i]] = values[i] for a dense tensor of `shape`; duplicate indices are kept
    (they add up in `to_dense`) until `coalesce`."""

    _sparse_kind = "cootensor"
    _part_names, _shape_name = ("indices", "values"), "shape"  # a graph's leaves, static

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
        if len(shape) != 2:  # MindSpore's graph check is a TypeError, its PyNative one not
            if current_builder() is not None:
                raise DTypeError(f"For COOTensor, the length of `shape` {shape} must be equal "
                                 f"to the second dimension of `indices`: "
                                 f"{index_type.shape[1]} but got {len(shape)}")
            raise ShapeError(f"For COOTensor, the length of 'shape' must be 2, but got {shape}.")
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
        return (f"COOTensor(shape={list(self.shape)}, dtype={self.dtype}, "
                f"indices={_part_text(self.indices)}, values={_part_text(self.values)})")

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


def _part_text(part) -> str:
    """A sparse tensor's part as MindSpore's C++ writes it inside the sparse tensor's repr (its
    Tensor text without commas: `Tensor(shape=[2], dtype=Int32, value=[1 2])`); a value known
    only inside a graph as its type."""
    if not isinstance(part, Tensor):
        return repr(abstract_of(part))
    return format_graph_print(part.asnumpy(), str(part.dtype))


_CSR_INDEX_DTYPES = ("int16", "int32", "int64")


def _checked_csr(indptr, indices, values, shape):
    """MindSpore's checks of a CSRTensor's parts, in its order and words."""
    if not isinstance(indptr, (Tensor, Tracer)):
        raise DTypeError(f"For CSRTensor, 'indptr' must be Tensor, but got {type(indptr)}.")
    for name, part in (("indices", indices), ("values", values)):
        if not isinstance(part, (Tensor, Tracer)):
            raise DTypeError(f"For CSRTensor, '{name}' must be Tensor, but got {type(part)}.")
    if not isinstance(shape, (tuple, list)):
        raise DTypeError(f"For CSRTensor, 'shape' must be tuple or list, but got {type(shape)}.")
    indptr_shape, indices_shape, values_shape = (tuple(abstract_of(part).shape)
                                                 for part in (indptr, indices, values))
    if not (indptr_shape == indices_shape == values_shape == (0,)):  # an empty one is fine
        for item in shape:
            if not isinstance(item, numbers.Integral):
                raise DTypeError(f"For CSRTensor, the element type of shape must be int, but "
                                 f"got {type(item)}")
            if item <= 0:
                raise ValueError(f"For CSRTensor, the element of shape must be positive, but "
                                 f"got {item}")
        if any(item <= 0 for item in values_shape):
            raise ValueError(f"The element of shape must be positive, but got "
                             f"{min(values_shape)}")
        if int(np.prod(shape)) < int(np.prod(values_shape)):
            raise ValueError(f"Shape total size: {int(np.prod(shape))} is too small to hold "
                             f"{int(np.prod(values_shape))} non-zero values.")
        if len(indices_shape) != 1:
            raise ValueError(f"For CSRTensor, indices must be a 1-dimensional tensor, but got a "
                             f"{len(indices_shape)} dimension tensor.")
        if len(indptr_shape) != 1:
            raise ValueError(f"For CSRTensor, indptr must be a 1-dimensional tensor, but got a "
                             f"{len(indptr_shape)} dimension tensor.")
        if shape[0] + 1 != indptr_shape[0]:
            raise ValueError(f"For CSRTensor, indptr must have length (1 + shape[0]), but got: "
                             f"{indptr_shape[0]}")
        if indices_shape[0] != values_shape[0]:
            raise ValueError(f"For CSRTensor, indices and values must equal in their shape, but "
                             f"got indices shape: {indices_shape[0]}, values shape: "
                             f"{values_shape[0]}.")
        if len(values_shape) + 1 != len(shape):
            raise ValueError(f"Values' dimension should equal to CSRTensor's dimension - 1, but "
                             f"gotValues' dimension: {len(values_shape)} , CSRTensor's "
                             f"dimension: {len(shape)}")
        if values_shape[1:] != tuple(shape[2:]):
            raise ValueError(f"CSRTensor's shape[2: ] must be equal to value's shape[1: ],but "
                             f"CSRTensor's shape[2: ] got: {tuple(shape[2:])} and value's "
                             f"shape[1: ]got: {values_shape[1:]}")
    for name, part in (("indptr", indptr), ("indices", indices)):
        if abstract_of(part).dtype.name not in _CSR_INDEX_DTYPES:
            raise DTypeError(f"For CSRTensor, {name} must have int16 or int32 or int64 data "
                             f"type, but got {abstract_of(part).dtype}.")
    return tuple(int(s) for s in shape)


class SparseTensor(COOTensor):
    """MindSpore's name for `COOTensor` before 1.7, kept with its stricter constructor: Tensor
    indices and values and a tuple shape, all three given."""

    def __init__(self, indices, values, shape):
        warnings.warn("'SparseTensor' is deprecated from version 1.7; use 'COOTensor' instead.",
                      DeprecationWarning, stacklevel=2)
        if not (isinstance(indices, (Tensor, Tracer)) and isinstance(values, (Tensor, Tracer))
                and isinstance(shape, tuple)):
            raise DTypeError("Inputs must follow: COOTensor(indices, values, shape).")
        super().__init__(indices, values, shape)


class CSRTensor:
    """A sparse tensor in compressed sparse row form, as MindSpore's: row r's values are
    values[indptr[r]:indptr[r + 1]], in the columns indices[indptr[r]:indptr[r + 1]], of a
    dense tensor of `shape` (values of more than one dimension fill its trailing axes).
    `csr_tensor=` copies another. Its operations are functional ops on the three parts, so one
    works eagerly and inside construct alike; `add` of two whose patterns differ has a result
    size that depends on the data, and runs eagerly only."""

    _sparse_kind = "csrtensor"
    _part_names, _shape_name = ("indptr", "indices", "values"), "shape"  # as COOTensor's

    def __init__(self, indptr=None, indices=None, values=None, shape=None, csr_tensor=None):
        if csr_tensor is not None:
            if not isinstance(csr_tensor, CSRTensor):
                raise DTypeError(f"Expect input `csr_tensor` to be a CSRTensor, but got "
                                 f"{type(csr_tensor)}")
            if not (indptr is None and indices is None and values is None and shape is None):
                raise DTypeError("If input `csr_tensor` is provided, `indptr`, `indices`, "
                                 "`values`, `shapes` should all be `None`")
            indptr, indices = csr_tensor.indptr, csr_tensor.indices
            values, shape = csr_tensor.values, csr_tensor.shape
        self.shape = _checked_csr(indptr, indices, values, shape)
        self.indptr, self.indices, self.values = indptr, indices, values

    # -- properties -----------------------------------------------------------------------
    @property
    def dtype(self):
        return abstract_of(self.values).dtype

    @property
    def size(self) -> int:
        return int(np.prod(abstract_of(self.values).shape))

    @property
    def itemsize(self) -> int:
        return self.dtype.np.itemsize

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self) -> str:
        return (f"CSRTensor(shape={list(self.shape)}, dtype={self.dtype}, "
                f"indptr={_part_text(self.indptr)}, indices={_part_text(self.indices)}, "
                f"values={_part_text(self.values)})")

    # -- conversions ----------------------------------------------------------------------
    def to_tuple(self):
        return self.indptr, self.indices, self.values, self.shape


    def _row_ids(self):
        """The row of each stored value: how many rows end at or before its position."""
        positions = F.expand_dims(ops.arange(abstract_of(self.values).shape[0],
                                             dtype=abstract_of(self.indices).dtype), 1)
        ends = F.expand_dims(F.cast(self.indptr[1:], abstract_of(self.indices).dtype), 0)
        return ops.sum(ops.greater_equal(positions, ends), 1,
                       dtype=abstract_of(self.indices).dtype)

    def _two_dimensional(self):
        if self.ndim != 2:
            raise ValueError("Currently only support 2-D CSRTensor when converting to "
                             "COOTensor.")

    def to_coo(self):
        """The same entries as a COOTensor (2-D only, as MindSpore's)."""
        self._two_dimensional()
        rows = self._row_ids()
        return COOTensor(ops.stack((rows, F.cast(self.indices, abstract_of(rows).dtype)), 1),
                         self.values, self.shape)

    def to_dense(self):
        """The dense Tensor (2-D only, as MindSpore's, which converts through COO)."""
        return self.to_coo().to_dense()

    def astype(self, dtype):
        return CSRTensor(self.indptr, self.indices, F.cast(self.values, dtype), self.shape)

    def _with_values(self, values):
        return CSRTensor(self.indptr, self.indices, values, self.shape)

    # -- arithmetic -----------------------------------------------------------------------
    def abs(self):
        return self._with_values(ops.abs(self.values))

    def __neg__(self):
        return self._with_values(ops.neg(self.values))

    def _at_entries(self, other):
        """A dense `other` broadcast to the dense shape, read at the stored entries."""
        self._two_dimensional()
        if isinstance(other, numbers.Number):
            return other
        dense = F.broadcast_to(other, self.shape)
        return ops.gather_nd(dense, self.to_coo().indices)

    def __mul__(self, other):
        return self._with_values(ops.mul(self.values, self._at_entries(other)))

    __rmul__ = __mul__

    def __truediv__(self, other):
        return self._with_values(ops.div(self.values, self._at_entries(other)))

    __div__ = __truediv__

    def _other_csr(self, other, verb: str):
        """`other` for self + other or self - other: MindSpore's checks, shape first."""
        if getattr(other, "shape", None) is None or tuple(other.shape) != self.shape:
            raise ValueError("Input tensors should have the same shape.")
        if not isinstance(other, CSRTensor):
            raise DTypeError(f"CSRTensor {verb} with {type(other)} is not supported.")
        return other

    def __add__(self, other):
        return self.add(self._other_csr(other, "add"), 1.0, 1.0)

    def __sub__(self, other):
        return self.add(self._other_csr(other, "subtract"), 1.0, -1.0)

    def add(self, b, alpha, beta):
        """alpha * self + beta * b, a CSRTensor of the entries of either (2-D)."""
        self._two_dimensional()
        if self.indptr is b.indptr and self.indices is b.indices:  # one pattern: no merge
            return self._with_values(ops.add(ops.mul(self.values, alpha),
                                             ops.mul(F.cast(b.values, self.dtype), beta)))
        if current_builder() is not None:
            raise UnsupportedError("CSRTensor.add: two different patterns give a number of "
                                   "values that depends on the data, so it runs eagerly only; "
                                   "call it outside construct or add the dense tensors")
        ours, theirs = self.to_coo(), b.to_coo()
        both = COOTensor(ops.concat((ours.indices, F.cast(theirs.indices, abstract_of(
            ours.indices).dtype)), 0), ops.concat((ops.mul(ours.values, alpha), ops.mul(
                F.cast(theirs.values, self.dtype), beta)), 0), self.shape).coalesce()
        rows = both.indices.asnumpy()[:, 0]
        index_dtype = abstract_of(self.indptr).dtype.np
        indptr = np.searchsorted(rows, np.arange(self.shape[0] + 1)).astype(index_dtype)
        columns = both.indices.asnumpy()[:, 1].astype(abstract_of(self.indices).dtype.np)
        return CSRTensor(Tensor(indptr), Tensor(columns), both.values, self.shape)

    # -- products and sums ----------------------------------------------------------------
    def _row_sums(self, per_entry):
        return ops.unsorted_segment_sum(per_entry, self._row_ids(), self.shape[0])

    def mv(self, dense_vector):
        """self @ dense_vector, dense_vector of shape (shape[1], 1): (shape[0], 1)."""
        if not isinstance(dense_vector, (Tensor, Tracer)):
            raise DTypeError(f"For 'CSRTensor.mv', the type of 'dense_vector' should be Tensor, "
                             f"but got {type(dense_vector).__name__}.")
        return self.mm(dense_vector)

    def mm(self, matrix):
        """self @ matrix for a dense (shape[1], k) matrix: a dense (shape[0], k) Tensor."""
        self._two_dimensional()
        if isinstance(matrix, CSRTensor):
            matrix = matrix.to_dense()
        picked = ops.gather(matrix, self.indices, 0)  # (nnz, k): row indices[i] of matrix
        return self._row_sums(ops.mul(F.expand_dims(F.cast(self.values, abstract_of(
            picked).dtype), 1), picked))

    def sum(self, axis):
        """The sum along `axis` 1 (or -1), kept as an axis: (shape[0], 1), as MindSpore's."""
        self._two_dimensional()
        if axis not in (1, -1):
            raise ValueError(f"For CSRReduceSum, `axis` should be 1 or 1-dim. But got `axis`: "
                             f"{axis}and `1- dim`: -1.")
        return F.expand_dims(self._row_sums(self.values), 1)
