"""The classes of MindSpore's `ops.operations.sparse_ops` over a CSR sparse matrix given as its
parts (dense shape, batch pointers, row pointers, column indices, values), a batch of matrices
when the dense shape has three entries. The index parts set the result's shape, so they are
value inputs (known when the graph is built); the values and the dense operand are computed
with, so gradients reach them:

    SparseMatrixMatMul()(shape, batches, rows, cols, values, x2)   is
    matmul(tensor_scatter_add(zeros(shape), coordinates(batches, rows, cols), values), x2)
"""
from __future__ import annotations

import numpy as np

from cellgraph.ops.primitive_class import PrimitiveClass
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import (
    check_tensor_dtype,
    check_tensor_types_same,
    check_types_same,
)
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Tensor

__all__ = ["SparseMatrixMatMul", "SparseTensorToCSRSparseMatrix"]

_VALUE_DTYPES = ("Complex128", "Complex64", "Float32", "Float64")


def _check_values(op: str, **tensors) -> None:
    for name, value in tensors.items():
        check_tensor_dtype(op, name, abstract_of(value).dtype, _VALUE_DTYPES)


def _check_index_parts(op: str, **tensors) -> None:
    for name, value in tensors.items():
        check_tensor_dtype(op, name, abstract_of(value).dtype, ("Int32", "Int64"))


def csr_coordinates(op: str, dense_shape, batch_pointers, row_pointers, col_indices):
    """The (batch, row, column) of every stored value, as an (N, 3) int64 array, and the
    dense shape with its batch axis (a 2-D matrix is a batch of one)."""
    names = ("x1_dense_shape", "x1_batch_pointers", "x1_row_pointers", "x1_col_indices")
    parts = (dense_shape, batch_pointers, row_pointers, col_indices)
    dtypes = {str(abstract_of(p).dtype) if hasattr(p, "aval") else "Int64" for p in parts}
    if not dtypes <= {"Int32", "Int64"}:
        raise DTypeError(f"For primitive[{op}], the input argument[{names[0]}] must be a type "
                         f"of {{Tensor[Int32], Tensor[Int64]}}, but got {sorted(dtypes)}.")
    check_types_same(op, {name: abstract_of(p).dtype if hasattr(p, "aval") else dt.int64
                          for name, p in zip(names, parts)})
    shape, batches, rows, cols = (
        np.asarray(value_input(p, op, n)).reshape(-1).astype(np.int64)
        for p, n in zip(parts, names))
    if len(shape) not in (2, 3):
        raise ShapeError(f"For {op}, the dense shape must have 2 or 3 entries, got "
                         f"{tuple(shape.tolist())}")
    shape = (1,) * (3 - len(shape)) + tuple(int(d) for d in shape)
    count, height = shape[0], shape[1]
    if len(batches) != count + 1 or len(rows) != count * (height + 1):
        raise ShapeError(f"For {op}, a batch of {count} matrices of {height} rows needs "
                         f"{count + 1} batch pointers and {count * (height + 1)} row pointers, "
                         f"got {len(batches)} and {len(rows)}")
    coordinates = []
    for b in range(count):
        row_starts = rows[b * (height + 1):(b + 1) * (height + 1)]
        per_row = np.diff(row_starts)
        row_of = np.repeat(np.arange(height), per_row)
        start = batches[b]
        col_of = cols[start + row_starts[0]:start + row_starts[-1]]
        coordinates.append(np.stack([np.full(len(row_of), b), row_of, col_of], axis=1))
    return np.concatenate(coordinates).reshape(-1, 3), shape


def _flip(x, conjugate: bool):
    """The last two axes swapped, conjugated too for an adjoint."""
    x = F.transpose(x, (0, 2, 1))
    return F.conj(x) if conjugate else x


class SparseMatrixMatMul(PrimitiveClass):
    """`SparseMatrixMatMul(transpose_x1=False, transpose_x2=False, adjoint_x1=False,
    adjoint_x2=False, transpose_output=False, conjugate_output=False)(x1_dense_shape,
    x1_batch_pointers, x1_row_pointers, x1_col_indices, x1_values, x2_dense)`: the CSR matrix
    (or batch of matrices) x1 times the dense x2, either transposed or adjointed first, the
    product transposed and/or conjugated after."""

    def __init__(self, transpose_x1=False, transpose_x2=False, adjoint_x1=False,
                 adjoint_x2=False, transpose_output=False, conjugate_output=False):
        flags = {"transpose_x1": transpose_x1, "transpose_x2": transpose_x2,
                 "adjoint_x1": adjoint_x1, "adjoint_x2": adjoint_x2,
                 "transpose_output": transpose_output, "conjugate_output": conjugate_output}
        for name, value in flags.items():
            if not isinstance(value, bool):
                raise DTypeError(f"For 'SparseMatrixMatMul', the type of '{name}' should be "
                                 f"'bool', but got type '{type(value).__name__}'.")
        self.__dict__.update(flags)
        self._attrs = flags

    def __call__(self, x1_dense_shape, x1_batch_pointers, x1_row_pointers, x1_col_indices,
                 x1_values, x2_dense):
        op = "SparseMatrixMatMul"
        check_tensor_types_same(op, {"x1_values": abstract_of(x1_values).dtype,
                                     "x2_dense": abstract_of(x2_dense).dtype}, _VALUE_DTYPES)
        for side in ("x1", "x2"):  # checked when called, as MindSpore's shape inference does
            if self._attrs[f"adjoint_{side}"] and self._attrs[f"transpose_{side}"]:
                raise ArgumentValueError(
                    f"For {op}, only one of adjoint_{side} and transpose_{side} may be true, "
                    f"but got adjoint_{side} = 1, and transpose_{side} = 1.")
        rank = abstract_of(x2_dense).ndim
        entries = abstract_of(x1_dense_shape).shape[0]
        if rank != entries:
            raise ArgumentValueError(
                f"For {op}, x1_dense_shape.shape[0] and rank of x2_dense must be the same, but "
                f"got x1_dense_shape.shape[0] = {entries}, and rank of x2_dense = {rank}.")
        coordinates, shape = csr_coordinates(op, x1_dense_shape, x1_batch_pointers,
                                             x1_row_pointers, x1_col_indices)
        dtype = abstract_of(x1_values).dtype
        x1 = F.tensor_scatter_add(F.zeros(shape, dtype), coordinates, x1_values)
        x2 = x2_dense if rank == 3 else F.expand_dims(x2_dense, 0)
        if self.transpose_x1 or self.adjoint_x1:
            x1 = _flip(x1, self.adjoint_x1 and dtype.is_complex)
        if self.transpose_x2 or self.adjoint_x2:
            x2 = _flip(x2, self.adjoint_x2 and dtype.is_complex)
        x2_shape = abstract_of(x2).shape
        if (x2_shape[1], x2_shape[0]) != (abstract_of(x1).shape[2], shape[0]) and None not in \
                x2_shape[:2]:
            raise ShapeError(f"For {op}, x1 of shape {tuple(abstract_of(x1).shape)} cannot "
                             f"multiply x2 of shape {tuple(abstract_of(x2).shape)}")
        out = F.batch_matmul(x1, x2)
        if self.transpose_output:
            out = F.transpose(out, (0, 2, 1))
        if self.conjugate_output and dtype.is_complex:
            out = F.conj(out)
        return out if rank == 3 else F.reshape(out, tuple(abstract_of(out).shape[1:]))


class SparseTensorToCSRSparseMatrix(PrimitiveClass):
    """`SparseTensorToCSRSparseMatrix()(x_indices, x_values, x_dense_shape)`: a COO sparse
    tensor of rank 2 (or 3, a batch) as the CSR parts (dense shape, batch pointers, row
    pointers, column indices, values). The entries keep their order, as MindSpore's kernel
    keeps it: the pointers count each batch's and row's entries."""

    def __call__(self, x_indices, x_values, x_dense_shape):
        op = "SparseTensorToCSRSparseMatrix"
        _check_index_parts(op, x_indices=x_indices, x_dense_shape=x_dense_shape)
        _check_values(op, x_values=x_values)
        shape = np.asarray(value_input(x_dense_shape, op, "x_dense_shape")).reshape(-1)
        if len(shape) not in (2, 3):
            raise ArgumentValueError(f"For '{op}', the input x_dense_shape should have rank 2 "
                                     f"or 3, but got {len(shape)}.")
        indices = np.asarray(value_input(x_indices, op, "x_indices")).reshape(-1, len(shape))
        count, height = (1, int(shape[0])) if len(shape) == 2 else (int(shape[0]),
                                                                    int(shape[1]))
        batch_of = indices[:, 0] if len(shape) == 3 else np.zeros(len(indices), np.int64)
        row_of = indices[:, -2]
        index_dtype = abstract_of(x_indices).dtype.np
        batch_pointers = np.concatenate([[0], np.cumsum(np.bincount(batch_of, minlength=count))])
        row_pointers = np.concatenate([
            np.concatenate([[0], np.cumsum(np.bincount(row_of[batch_of == b], minlength=height))])
            for b in range(count)])
        columns = F.reshape(F.gather(x_indices, np.array([len(shape) - 1], np.int64), 1), (-1,))
        return (x_dense_shape, Tensor(batch_pointers.astype(index_dtype)),
                Tensor(row_pointers.astype(index_dtype)), columns, x_values)
