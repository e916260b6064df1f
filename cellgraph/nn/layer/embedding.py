"""Embedding and EmbeddingLookup: rows of a table gathered by index."""
from __future__ import annotations

import numbers

import cellgraph.ops as P
from cellgraph.common.initializer import initializer
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as _core
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.errors import (
    ArgumentValueError,
    DTypeError,
    UnsupportedError,
)
from cellgraph.runtime.tensor import Parameter

from ..cell import Cell
from ._checks import positive_int

__all__ = ["Embedding", "EmbeddingLookup", "MultiFieldEmbeddingLookup"]


class Embedding(Cell):
    """Rows of `embedding_table` (vocab_size, embedding_size) picked by integer ids."""

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=dt.float32, padding_idx=None):
        super().__init__()
        self.vocab_size = positive_int(vocab_size, "Embedding", "vocab_size")
        self.embedding_size = positive_int(embedding_size, "Embedding", "embedding_size")
        self.use_one_hot = bool(use_one_hot)
        self.dtype = dt.as_dtype(dtype)
        if padding_idx is not None and not -self.vocab_size <= padding_idx < self.vocab_size:
            raise ArgumentValueError(f"Embedding: padding_idx={padding_idx} is outside the "
                                     f"vocabulary of {self.vocab_size}")
        table = initializer(embedding_table, (self.vocab_size, self.embedding_size))
        if padding_idx is not None:
            table[padding_idx % self.vocab_size] = 0.0
        self.padding_idx = padding_idx
        self.embedding_table = Parameter(table, name="embedding_table")
        # MindSpore's primitives, which programs shard (`embedding.gather.shard(...)`)
        self.gather = P.Gather()
        self.array_mul = P.MatMul()

    def construct(self, ids):
        if not ids.dtype.is_int:
            raise DTypeError(f"Embedding: expected integer ids, got {ids.dtype}")
        flat = F.reshape(ids, (-1,))
        if self.use_one_hot:
            one_hot = F.cast(NF.one_hot(flat, self.vocab_size, 1.0, 0.0),
                             self.embedding_table.dtype)
            out = self.array_mul(one_hot, self.embedding_table)
        else:
            out = self.gather(self.embedding_table, flat, 0)
        return F.reshape(out, tuple(ids.shape) + (self.embedding_size,))

    def extend_repr(self) -> str:
        return f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, " \
               f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table}, " \
               f"dtype={self.embedding_table.dtype}, padding_idx={self.padding_idx}"


class EmbeddingLookup(Cell):
    """Rows of `embedding_table` (vocab_size, embedding_size) picked by integer ids. With
    target 'CPU' an id outside [0, vocab_size) gives a row of zeros; with 'DEVICE' it raises
    when the graph runs. `max_norm` clips each picked row to that L2 norm. There is no
    sharding here: `slice_mode` and `manual_shapes` only act under MindSpore's
    (semi-)auto-parallel, so any but their defaults raise UnsupportedError."""

    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU",
                 slice_mode="batch_slice", manual_shapes=None, max_norm=None, sparse=True,
                 dtype=dt.float32):
        super().__init__()
        if not isinstance(sparse, bool):
            raise DTypeError(f"EmbeddingLookup: `sparse` must be a bool, got "
                             f"{type(sparse).__name__}")
        self.vocab_size = positive_int(vocab_size, "EmbeddingLookup", "vocab_size")
        if target not in ("CPU", "DEVICE"):
            raise ArgumentValueError(f"EmbeddingLookup: `target` must be 'CPU' or 'DEVICE', got "
                                     f"{target!r}")
        if not sparse and target == "CPU":
            raise ArgumentValueError("EmbeddingLookup: `sparse` must be True when `target` is "
                                     "'CPU'")
        if slice_mode != "batch_slice":
            raise UnsupportedError(f"EmbeddingLookup: slice_mode={slice_mode!r} shards the table "
                                   f"under auto-parallel, which cellgraph does not do; only "
                                   f"'batch_slice' (no sharding) is supported")
        if manual_shapes is not None:
            raise UnsupportedError(f"EmbeddingLookup: manual_shapes={manual_shapes!r} splits a "
                                   f"field-sliced table under auto-parallel, which cellgraph does "
                                   f"not do; it must be None")
        self.embedding_size = positive_int(embedding_size, "EmbeddingLookup", "embedding_size")
        if max_norm is not None and (isinstance(max_norm, bool)
                                     or not isinstance(max_norm, numbers.Real) or max_norm <= 0):
            raise ArgumentValueError(f"EmbeddingLookup: `max_norm` must be a positive float, got "
                                     f"{max_norm!r}")
        self.target, self.slice_mode, self.manual_shapes = target, slice_mode, manual_shapes
        self.sparse = sparse
        self.max_norm = None if max_norm is None else float(max_norm)
        self.embedding_table = Parameter(
            initializer(param_init, (self.vocab_size, self.embedding_size), dtype),
            name="embedding_table")

    def construct(self, indices):
        if not hasattr(indices, "dtype") or not indices.dtype.is_int:
            raise DTypeError(f"EmbeddingLookup: expected integer indices, got "
                             f"{getattr(indices, 'dtype', type(indices).__name__)}")
        if self.target == "CPU":
            inside = F.logical_and(F.greater_equal(indices, 0),
                                   F.less(indices, self.vocab_size))
            rows = F.gather(self.embedding_table, F.select(inside, indices,
                                                           F.zeros_like(indices)), 0)
            out = F.select(F.broadcast_to(F.expand_dims(inside, -1), rows.shape), rows,
                           F.zeros_like(rows))
        else:
            out = F.gather(self.embedding_table, indices, 0)
        if self.max_norm is not None:
            norm = F.sqrt(_core.reduce_sum(F.square(out), -1, True))
            out = F.div(F.mul(out, self.max_norm), F.maximum(norm, self.max_norm))
        return out


_MULTI_FIELD_DTYPES = {"input_indices": (dt.int32, dt.int64), "input_values": (dt.float32,),
                       "field_ids": (dt.int32,)}


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    """Per example, the rows of the ids in `input_indices` (batch, n), each scaled by its
    `input_values` entry, merged per field (`field_ids`, values in [0, field_size)) by
    `operator`: 'SUM', 'MEAN' (the sum over the sum of the values' magnitudes, 0 where that is
    0) or 'MAX' (entries of value 0 take no part; a field with none is 0). The result is
    (batch, field_size, embedding_size), as MindSpore's."""

    OPERATOR_SUM, OPERATOR_MEAN, OPERATOR_MAX = "SUM", "MEAN", "MAX"

    def __init__(self, vocab_size, embedding_size, field_size, param_init="normal",
                 target="CPU", slice_mode="batch_slice", feature_num_list=None, max_norm=None,
                 sparse=True, operator="SUM", dtype=dt.float32):
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode,
                         feature_num_list, max_norm, sparse, dtype=dtype)
        self.field_size = positive_int(field_size, "MultiFieldEmbeddingLookup", "field_size")
        if operator not in ("SUM", "MAX", "MEAN"):
            raise ArgumentValueError(f"For 'MultiFieldEmbeddingLookup', the 'operator' must be "
                                     f"str and must be in '['SUM', 'MAX', 'MEAN']', but got "
                                     f"{operator!r}.")
        self.operator = operator

    def construct(self, input_indices, input_values, field_ids):
        for name, value in (("input_indices", input_indices), ("input_values", input_values),
                            ("field_ids", field_ids)):
            if len(value.shape) != 2:
                raise ArgumentValueError(f"For 'MultiFieldEmbeddingLookup', the dimension of "
                                         f"'{name}' must be 2d, but got {len(value.shape)}")
        for name, value, allowed in (
                ("input_indices", input_indices, "one of [mindspore.int32, mindspore.int64]"),
                ("input_values", input_values, "Float32"), ("field_ids", field_ids, "Int32")):
            if value.dtype not in _MULTI_FIELD_DTYPES[name]:
                raise DTypeError(f"For 'MultiFieldEmbeddingLookup', the '{name}' should be "
                                 f"{allowed}, but got 'mindspore.{value.dtype.np.name}'.")
        batch, length = input_indices.shape
        segments = batch * self.field_size
        bias = F.reshape(P.arange(0, segments, self.field_size, dtype=dt.int32), (batch, 1))
        ids = F.reshape(F.add(field_ids, bias), (-1,))
        weights = F.reshape(input_values, (batch, length, 1))
        embedding = F.mul(weights, super().construct(input_indices))
        if self.operator == "MAX":  # entries of value 0 take no part in the maximum
            embedding = F.add(embedding, F.mul(F.cast(F.equal(weights, 0), dt.float32),
                                               -3.402823466e38))
        embedding = F.reshape(embedding, (-1, self.embedding_size))
        merge = P.unsorted_segment_max if self.operator == "MAX" else P.unsorted_segment_sum
        merged = merge(embedding, ids, segments)
        if self.operator != "SUM":
            count = P.unsorted_segment_sum(F.abs(F.reshape(input_values, (-1,))), ids, segments)
            if self.operator == "MAX":  # a field no entry reached is 0
                merged = F.mul(merged, F.expand_dims(F.cast(F.not_equal(count, 0.0),
                                                            dt.float32), -1))
            else:  # MindSpore's DivNoNan: 0 where the count is 0
                count = F.expand_dims(count, -1)
                empty = F.equal(count, 0.0)
                merged = F.select(F.broadcast_to(empty, merged.shape), F.zeros_like(merged),
                                  F.div(merged, F.select(empty, F.ones_like(count), count)))
        return F.reshape(merged, (batch, self.field_size, -1))
