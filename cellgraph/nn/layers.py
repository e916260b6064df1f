"""Basic layers: Dense, Flatten, Dropout, Embedding, Identity.

Library Cells run as Python over graph values (not parsed like a user's construct), so their
shape checks raise errors located at the user's line that called the layer. Attributes that
may change between runs (`training`) are read through `guarded`, so the compiled graph is
rebuilt when they change.
"""
from __future__ import annotations

import math
import numbers

from cellgraph.common.initializer import HeUniform, Uniform, initializer
from cellgraph.compiler.builder import parameter_read_dtype
from cellgraph.compiler.guards import record_guard
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.core import fmt_shape
from cellgraph.primitives.errors import (
    ArgumentValueError,
    DTypeError,
    ShapeError,
    UnsupportedError,
)
from cellgraph.primitives.random_ops import rand_like
from cellgraph.runtime.tensor import Parameter

from .activation import get_activation
from .cell import Cell

__all__ = ["Dense", "Dropout", "Embedding", "EmbeddingLookup", "Flatten", "Identity"]


def guarded(cell: Cell, attr: str):
    """`cell.attr`, recorded so that the graph being compiled is rebuilt when it changes."""
    value = cell.__dict__[attr]
    record_guard(cell, attr, value)
    return value


def positive_int(value, op: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise DTypeError(f"{op}: `{name}` must be an int, got {type(value).__name__} {value!r}")
    if value < 1:
        raise ArgumentValueError(f"{op}: `{name}` must be >= 1, got {value}")
    return int(value)


def check_input(op: str, x, rank=None, channels=None, channel_axis=1, dtype=None) -> None:
    """Shape and dtype checks on a layer's input, worded for the layer."""
    shape = x.shape
    if rank is not None and len(shape) not in (rank if isinstance(rank, tuple) else (rank,)):
        want = " or ".join(str(r) for r in (rank if isinstance(rank, tuple) else (rank,)))
        raise ShapeError(f"{op}: expected an input of rank {want}, got shape {fmt_shape(shape)}")
    if channels is not None and (len(shape) <= channel_axis % max(len(shape), 1)
                                 or shape[channel_axis] != channels):
        raise ShapeError(f"{op}: expected {channels} channels on axis {channel_axis} of the "
                         f"input, got shape {fmt_shape(shape)}")
    if dtype is not None:
        dtype = parameter_read_dtype(dtype)  # under Cell.to_float, the compute dtype
    if dtype is not None and x.dtype != dtype:
        raise DTypeError(f"{op}: the input has dtype {x.dtype} but the layer's parameters are "
                         f"{dtype}; cast one to the other")


def make_activation(activation, op: str):
    if activation is None or isinstance(activation, Cell):
        return activation
    if isinstance(activation, str):
        return get_activation(activation)
    if callable(activation):
        return activation
    raise DTypeError(f"{op}: `activation` must be a name, a Cell or None, got "
                     f"{type(activation).__name__}")


class Dense(Cell):
    """y = activation(x @ weight.T + bias), weight of shape (out_channels, in_channels)."""

    def __init__(self, in_channels, out_channels, weight_init=None, bias_init=None,
                 has_bias=True, activation=None, dtype=dt.float32):
        super().__init__()
        self.in_channels = positive_int(in_channels, "Dense", "in_channels")
        self.out_channels = positive_int(out_channels, "Dense", "out_channels")
        self.has_bias = bool(has_bias)
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, (self.out_channels, self.in_channels),
                                            dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                bias_init = Uniform(1 / math.sqrt(self.in_channels))
            self.bias = Parameter(initializer(bias_init, (self.out_channels,), dtype),
                                  name="bias")
        self.activation = make_activation(activation, "Dense")
        self.activation_flag = self.activation is not None

    def construct(self, x):
        shape = x.shape
        if not shape or shape[-1] != self.in_channels:
            raise ShapeError(f"Dense: expected an input whose last dimension is in_channels="
                             f"{self.in_channels}, got shape {fmt_shape(shape)}")
        check_input("Dense", x, dtype=self.weight.dtype)
        if len(shape) != 2:
            x = F.reshape(x, (-1, self.in_channels))
        x = F.mm(x, self.weight, transpose_b=True)
        if self.has_bias:
            x = F.add(x, self.bias)
        if self.activation_flag:
            x = self.activation(x)
        if len(shape) != 2:
            x = F.reshape(x, tuple(shape[:-1]) + (self.out_channels,))
        return x

    def extend_repr(self) -> str:
        text = f"input_channels={self.in_channels}, output_channels={self.out_channels}, " \
               f"has_bias={self.has_bias}"
        return text + (f", activation={self.activation}" if self.activation_flag else "")


class Flatten(Cell):
    """Merge the axes from `start_dim` to `end_dim` into one (by default all but the batch)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def construct(self, x):
        shape = x.shape
        ndim = max(len(shape), 1)
        start, end = self.start_dim % ndim, self.end_dim % ndim
        if not -ndim <= self.start_dim < ndim or not -ndim <= self.end_dim < ndim or start > end:
            raise ShapeError(f"Flatten: start_dim={self.start_dim} and end_dim={self.end_dim} do "
                             f"not fit an input of shape {fmt_shape(shape)}")
        merged = 1
        for d in shape[start:end + 1]:
            merged *= d
        return F.reshape(x, tuple(shape[:start]) + (merged,) + tuple(shape[end + 1:]))


class Dropout(Cell):
    """In training, zero each element with probability p = 1 - keep_prob and scale the rest by
    1 / keep_prob; in evaluation, the identity. Masks come from the global generator
    (`cellgraph.set_seed`), drawn anew on every run of the compiled graph."""

    def __init__(self, keep_prob=0.5, p=None, dtype=dt.float32):
        super().__init__()
        if p is not None:
            if isinstance(p, bool) or not isinstance(p, numbers.Real):
                raise DTypeError(f"Dropout: `p` must be a float, got {type(p).__name__}")
            if not 0 <= p < 1:
                raise ArgumentValueError(f"Dropout: `p` must be in [0, 1), got {p}")
            keep_prob = 1 - p
        if isinstance(keep_prob, bool) or not isinstance(keep_prob, numbers.Real):
            raise DTypeError(f"Dropout: `keep_prob` must be a float, got "
                             f"{type(keep_prob).__name__}")
        if not 0 < keep_prob <= 1:
            raise ArgumentValueError(f"Dropout: `keep_prob` must be in (0, 1], got {keep_prob}")
        self.keep_prob = float(keep_prob)
        self.p = 1 - self.keep_prob

    def construct(self, x):
        if not guarded(self, "training") or self.keep_prob == 1.0:
            return x
        if not x.dtype.is_float:
            raise DTypeError(f"Dropout: expected a float input, got {x.dtype}")
        mask = F.cast(F.less(rand_like(x), self.keep_prob), x.dtype)
        return NF.dropout(x, self.p, mask=mask)

    def extend_repr(self) -> str:
        return f"p={self.p:g}"


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

    def construct(self, ids):
        if not ids.dtype.is_int:
            raise DTypeError(f"Embedding: expected integer ids, got {ids.dtype}")
        if not self.use_one_hot:
            return F.gather(self.embedding_table, ids, 0)
        flat = F.reshape(ids, (-1,))
        one_hot = F.cast(NF.one_hot(flat, self.vocab_size, 1.0, 0.0),
                         self.embedding_table.dtype)
        out = F.mm(one_hot, self.embedding_table)
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
            norm = F.sqrt(F.reduce_sum(F.square(out), -1, True))
            out = F.div(F.mul(out, self.max_norm), F.maximum(norm, self.max_norm))
        return out

    def extend_repr(self) -> str:
        return f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, " \
               f"target={self.target}, max_norm={self.max_norm}"


class Identity(Cell):
    def construct(self, x):
        return x
