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

__all__ = ["Embedding", "EmbeddingLookup"]


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
               f"use_one_hot={self.use_one_hot}, padding_idx={self.padding_idx}"


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

    def extend_repr(self) -> str:
        return f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, " \
               f"target={self.target}, max_norm={self.max_norm}"
