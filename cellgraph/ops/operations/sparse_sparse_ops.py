"""The classes of MindSpore's `ops.operations.sparse_ops` that combine two COO sparse tensors.
Which positions the result holds depends on both tensors' indices, so the indices are value
inputs (known when the graph is built); the values are computed with, so gradients reach them.

The positions are merged as MindSpore's kernel merges them: one pass over both lists in their
given order, the smaller index (compared axis by axis) first, an index held by both taken once.
"""
from __future__ import annotations

import numpy as np

from cellgraph.ops.primitive_class import PrimitiveClass
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import check_tensor_dtype, check_types_same
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Tensor

__all__ = ["SparseAdd", "SparseSparseMaximum", "SparseSparseMinimum"]

_VALUE_DTYPES = ("Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64",
                 "Float16", "Float32", "Float64")


def merge_positions(a: np.ndarray, b: np.ndarray) -> tuple:
    """(merged indices, for each the row of `a` it comes from or -1, the row of `b` or -1)."""
    merged, from_a, from_b = [], [], []
    i = j = 0
    while i < len(a) or j < len(b):
        if j == len(b) or (i < len(a) and tuple(a[i]) < tuple(b[j])):
            merged.append(a[i]), from_a.append(i), from_b.append(-1)
            i += 1
        elif i == len(a) or tuple(b[j]) < tuple(a[i]):
            merged.append(b[j]), from_a.append(-1), from_b.append(j)
            j += 1
        else:
            merged.append(a[i]), from_a.append(i), from_b.append(j)
            i, j = i + 1, j + 1
    rank = a.shape[1]
    return (np.asarray(merged, np.int64).reshape(-1, rank), np.asarray(from_a, np.int64),
            np.asarray(from_b, np.int64))


def _values_at(values, rows: np.ndarray):
    """values[rows], 0 where a row is -1 (a position the tensor does not hold)."""
    picked = F.gather(values, np.maximum(rows, 0), 0)
    held = Tensor(rows >= 0)
    return F.select(held, picked, F.zeros_like(picked))


def _check_positions_int64(op: str, x1_indices, x1_shape, x2_indices, x2_shape) -> None:
    """MindSpore's check that both operands' indices and shapes are int64 Tensors."""
    for name, value in (("x1_indices", x1_indices), ("x1_shape", x1_shape),
                        ("x2_indices", x2_indices), ("x2_shape", x2_shape)):
        check_tensor_dtype(op, name, abstract_of(value).dtype, ("Int64",))


def _check(op: str, x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape):
    _check_positions_int64(op, x1_indices, x1_shape, x2_indices, x2_shape)
    for name, value in (("x1_values", x1_values), ("x2_values", x2_values)):
        dtype = str(abstract_of(value).dtype)
        if dtype not in _VALUE_DTYPES:
            raise DTypeError(f"For primitive[{op}], the input argument[{name}] must be a real "
                             f"number Tensor, but got Tensor[{dtype}].")
    check_types_same(op, {"x1_values": abstract_of(x1_values).dtype,
                          "x2_values": abstract_of(x2_values).dtype})
    if abstract_of(x1_shape).shape != abstract_of(x2_shape).shape:
        raise ArgumentValueError(f"For {op}, x1_shape and x2_shape must have one length, got "
                                 f"{abstract_of(x1_shape).shape} and "
                                 f"{abstract_of(x2_shape).shape}")


class _SparseSparseCombine(PrimitiveClass):
    """(y_indices, y_values) of two sparse tensors of one shape combined elementwise by
    `combine` over the positions either holds (a position one lacks counts as 0)."""

    combine = staticmethod(F.minimum)

    def __call__(self, x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape):
        op = type(self).__name__
        _check(op, x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape)
        rank = int(np.asarray(value_input(x1_shape, op, "x1_shape")).size)
        a, b = (np.asarray(value_input(i, op, name)).reshape(-1, rank)
                for i, name in ((x1_indices, "x1_indices"), (x2_indices, "x2_indices")))
        merged, from_a, from_b = merge_positions(a, b)
        values = self.combine(_values_at(x1_values, from_a), _values_at(x2_values, from_b))
        return Tensor(merged), values


# SparseAdd's value dtypes, each with the dtype its `thresh` must have
_ADD_THRESH_DTYPES = {"Int8": "Int8", "Int16": "Int16", "Int32": "Int32", "Int64": "Int64",
                      "Float32": "Float32", "Float64": "Float64", "Complex64": "Float32",
                      "Complex128": "Float64"}


def _check_add(x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape, thresh):
    """MindSpore's checks of SparseAdd's operands: ranks, lengths, then dtypes."""
    op = "SparseAdd"
    ranks = (("x1_indices", x1_indices, 2), ("x2_indices", x2_indices, 2),
             ("x1_values", x1_values, 1), ("x2_values", x2_values, 1), ("x1_shape", x1_shape, 1),
             ("x2_shape", x2_shape, 1), ("thresh", thresh, 0))
    for name, value, rank in ranks:
        if abstract_of(value).ndim != rank:
            raise ArgumentValueError(f"For {op}, {name} must be a {rank}-dimensional tensor, but "
                                     f"got a {abstract_of(value).ndim}-dimensional tensor.")
    for side, indices, values in (("x1", x1_indices, x1_values), ("x2", x2_indices, x2_values)):
        rows, count = abstract_of(indices).shape[0], abstract_of(values).shape[0]
        if rows != count:
            raise ArgumentValueError(f"For {op}, the length of {side}_indices and {side}_values "
                                     f"must be same, but got length of {side}_indices is {rows}, "
                                     f"and length of {side}_values is {count}")
    _check_positions_int64(op, x1_indices, x1_shape, x2_indices, x2_shape)
    value_dtype = str(abstract_of(x1_values).dtype)
    for name, value, expected in (("x2_values", x2_values, value_dtype),
                                  ("thresh", thresh, _ADD_THRESH_DTYPES.get(value_dtype))):
        dtype = str(abstract_of(value).dtype)
        if dtype != expected:
            raise DTypeError(f"For {op}, the type of x1_values, and {name} should be the same "
                             f"data type, but got type of x1_values is {value_dtype}, and type "
                             f"of {name} is {dtype}")
    if value_dtype not in _ADD_THRESH_DTYPES:
        raise DTypeError(f"For {op}, x1_values must be a Tensor of one of "
                         f"{sorted(_ADD_THRESH_DTYPES)}, but got Tensor[{value_dtype}].")


class SparseAdd(PrimitiveClass):
    """`SparseAdd()(x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape, thresh)`:
    (sum_indices, sum_values, sum_shape), the sum of two COO sparse tensors of one shape over
    the positions either holds, merged as MindSpore's kernel merges them. A position both hold
    is dropped where |x1 + x2| < thresh, which reads the values (and `thresh`) as value
    inputs; positions one tensor alone holds are kept whatever their value. Gradients reach
    each operand's values at the positions the sum kept."""

    def __call__(self, x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape,
                 thresh):
        op = "SparseAdd"
        _check_add(x1_indices, x1_values, x1_shape, x2_indices, x2_values, x2_shape, thresh)
        rank = int(np.asarray(value_input(x1_shape, op, "x1_shape")).size)
        a, b = (np.asarray(value_input(i, op, name)).reshape(-1, rank)
                for i, name in ((x1_indices, "x1_indices"), (x2_indices, "x2_indices")))
        merged, from_a, from_b = merge_positions(a, b)
        both = (from_a >= 0) & (from_b >= 0)
        if both.any():
            a_values, b_values = (np.asarray(value_input(v, op, name)).reshape(-1) for v, name in
                                  ((x1_values, "x1_values"), (x2_values, "x2_values")))
            limit = np.asarray(value_input(thresh, op, "thresh"))
            sums = a_values[from_a[both]] + b_values[from_b[both]]
            keep = np.ones(len(merged), bool)
            keep[np.flatnonzero(both)] = limit <= np.abs(sums)
            merged, from_a, from_b = merged[keep], from_a[keep], from_b[keep]
        values = F.add(_values_at(x1_values, from_a), _values_at(x2_values, from_b))
        return Tensor(merged), values, F.stop_gradient(x1_shape)


class SparseSparseMinimum(_SparseSparseCombine):
    """`SparseSparseMinimum()(x1_indices, x1_values, x1_shape, x2_indices, x2_values,
    x2_shape)`: (y_indices, y_values), the elementwise minimum of two sparse tensors of one
    shape over the positions either holds (a position one lacks counts as 0)."""

    combine = staticmethod(F.minimum)


class SparseSparseMaximum(_SparseSparseCombine):
    """`SparseSparseMaximum()(x1_indices, x1_values, x1_shape, x2_indices, x2_values,
    x2_shape)`: (y_indices, y_values), the elementwise maximum of two sparse tensors of one
    shape over the positions either holds (a position one lacks counts as 0)."""

    combine = staticmethod(F.maximum)
