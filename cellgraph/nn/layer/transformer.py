"""Attention and Transformer encoder layers (MindSpore's, which follow PyTorch's): parameter
names `in_proj_weight`, `in_proj_bias`, `out_proj.weight`, `dense1`, `norm1`, ... so that
checkpoints line up. Sequences are (L, N, E), or (N, L, E) with batch_first.

Masks: a bool mask marks positions that may NOT be attended (True = masked); a float mask is
added to the attention scores.
"""
from __future__ import annotations

import copy
import math

import cellgraph.ops as P
from cellgraph.common.initializer import XavierUniform, initializer
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, ShapeError
from cellgraph.runtime.tensor import Parameter

from ..cell import Cell
from ._checks import guarded, positive_int
from .activation import GELU, ReLU
from .basic import Dense, Dropout
from .container import CellList
from .normalization import LayerNorm

__all__ = ["MultiheadAttention", "Transformer", "TransformerDecoder", "TransformerDecoderLayer",
           "TransformerEncoder", "TransformerEncoderLayer"]


def _additive(mask, dtype):
    """A mask as something to add to the scores: -inf where a bool mask is True."""
    if mask.dtype == dt.bool_:
        return P.masked_fill(P.zeros(tuple(mask.shape), dtype), mask, float("-inf"))
    return P.cast(mask, dtype)


class MultiheadAttention(Cell):
    """softmax(Q K^T / sqrt(d) + mask) V over `num_heads` heads of embed_dim / num_heads."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False,
                 dtype=dt.float32):
        super().__init__()
        self.embed_dim = positive_int(embed_dim, "MultiheadAttention", "embed_dim")
        self.num_heads = positive_int(num_heads, "MultiheadAttention", "num_heads")
        if self.embed_dim % self.num_heads:
            raise ArgumentValueError(f"MultiheadAttention: embed_dim={embed_dim} must be "
                                     f"divisible by num_heads={num_heads}")
        if add_bias_kv or add_zero_attn:
            raise ArgumentValueError("MultiheadAttention: add_bias_kv and add_zero_attn are not "
                                     "supported")
        self.head_dim = self.embed_dim // self.num_heads
        self.kdim, self.vdim = kdim or embed_dim, vdim or embed_dim
        self.batch_first, self.dropout = batch_first, float(dropout)
        self.same_dims = self.kdim == embed_dim and self.vdim == embed_dim
        xavier = XavierUniform()
        if self.same_dims:
            self.in_proj_weight = Parameter(initializer(xavier, (3 * embed_dim, embed_dim),
                                                        dtype), "in_proj_weight")
        else:
            self.q_proj_weight = Parameter(initializer(xavier, (embed_dim, embed_dim), dtype),
                                           "q_proj_weight")
            self.k_proj_weight = Parameter(initializer(xavier, (embed_dim, self.kdim), dtype),
                                           "k_proj_weight")
            self.v_proj_weight = Parameter(initializer(xavier, (embed_dim, self.vdim), dtype),
                                           "v_proj_weight")
        self.in_proj_bias = Parameter(initializer("zeros", (3 * embed_dim,), dtype),
                                      "in_proj_bias") if has_bias else None
        self.out_proj = Dense(embed_dim, embed_dim, has_bias=has_bias,
                              bias_init="zeros", dtype=dtype)

    def _projections(self):
        e = self.embed_dim
        if self.same_dims:
            w = self.in_proj_weight
            weights = (w[:e], w[e:2 * e], w[2 * e:])
        else:
            weights = (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight)
        if self.in_proj_bias is None:
            return tuple((wt, None) for wt in weights)
        b = self.in_proj_bias
        return tuple(zip(weights, (b[:e], b[e:2 * e], b[2 * e:])))

    def _heads(self, x, weight, bias):
        """(L, N, d) -> (N, H, L, head_dim)."""
        y = P.matmul(x, P.swapaxes(weight, 0, 1))
        if bias is not None:
            y = y + bias
        length, batch = x.shape[0], x.shape[1]
        return P.transpose(P.reshape(y, (length, batch, self.num_heads, self.head_dim)),
                           (1, 2, 0, 3))

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True,
                  attn_mask=None, average_attn_weights=True):
        if self.batch_first:
            query, key, value = (P.swapaxes(t, 0, 1) for t in (query, key, value))
        if len(query.shape) != 3 or query.shape[-1] != self.embed_dim:
            raise ShapeError(f"MultiheadAttention: expected a query of shape (L, N, "
                             f"{self.embed_dim}), got {tuple(query.shape)}")
        (wq, bq), (wk, bk), (wv, bv) = self._projections()
        q = self._heads(query, wq, bq) / math.sqrt(self.head_dim)
        k, v = self._heads(key, wk, bk), self._heads(value, wv, bv)
        scores = P.matmul(q, P.swapaxes(k, -1, -2))  # (N, H, L, S)
        if attn_mask is not None:
            mask = _additive(attn_mask, scores.dtype)
            scores = scores + (P.reshape(mask, (-1, self.num_heads) + tuple(mask.shape[-2:]))
                               if len(mask.shape) == 3 else mask)
        if key_padding_mask is not None:
            padding = _additive(key_padding_mask, scores.dtype)
            scores = scores + P.reshape(padding, (padding.shape[0], 1, 1, padding.shape[1]))
        weights = P.softmax(scores, -1)
        if self.dropout > 0:  # as MindSpore: functional dropout, no Dropout child
            weights = P.dropout(weights, self.dropout, guarded(self, "training"))
        out = P.matmul(weights, v)  # (N, H, L, head_dim)
        length, batch = out.shape[2], out.shape[0]
        out = P.reshape(P.transpose(out, (2, 0, 1, 3)), (length, batch, self.embed_dim))
        out = self.out_proj(out)
        if self.batch_first:
            out = P.swapaxes(out, 0, 1)
        if not need_weights:
            return out, None
        return out, (P.mean(weights, 1) if average_attn_weights else weights)


def _activation_function(activation):
    """MindSpore's choice of feed-forward activation: "relu"/"gelu", an nn.ReLU/nn.GELU Cell or
    ops.relu/ops.gelu, else ValueError."""
    if not isinstance(activation, (str, Cell)) and not callable(activation):
        raise ArgumentValueError(f"The argument 'activation' must be str, callable or Cell "
                                 f"instance, but get {activation}.")
    if isinstance(activation, Cell):
        if not isinstance(activation, (ReLU, GELU)):
            raise ArgumentValueError(f"The argument 'activation' must be nn.ReLU or nn.GELU "
                                     f"instance, but get {activation}.")
        return activation
    if callable(activation):
        if activation is not P.relu and activation is not P.gelu:
            raise ArgumentValueError(f"The argument 'activation' must be ops.relu or ops.gelu "
                                     f"instance, but get {activation}.")
        return activation
    functions = {"relu": P.relu, "gelu": P.gelu}
    if activation not in functions:
        raise ArgumentValueError(f"The activation must be relu/gelu, but get {activation}")
    return functions[activation]


def _add_blocks(layer, n, d_model, dim_feedforward, dropout, activation, layer_norm_eps,
                norm_first, dtype) -> None:
    """What the encoder and decoder layers share, after their attention Cells and in
    MindSpore's attribute order (so parameter names and order line up): the feed-forward
    block (dense1, dropout, dense2) and a LayerNorm and a Dropout for each of the `n` residual
    blocks (norm1.., dropout1..); then `activation1`, the activation as given (a child when it
    is a Cell), and `activation`, what the layer calls (ops.relu or ops.gelu for a name)."""
    layer.dense1 = Dense(d_model, dim_feedforward, dtype=dtype)
    layer.dropout = Dropout(p=dropout)
    layer.dense2 = Dense(dim_feedforward, d_model, dtype=dtype)
    layer.norm_first = bool(norm_first)
    for i in range(1, n + 1):
        setattr(layer, f"norm{i}", LayerNorm((d_model,), epsilon=layer_norm_eps, dtype=dtype))
    for i in range(1, n + 1):
        setattr(layer, f"dropout{i}", Dropout(p=dropout))
    layer.activation1 = activation
    layer.activation = _activation_function(activation)


class TransformerEncoderLayer(Cell):
    """Self-attention and a feed-forward block, each with a residual connection and LayerNorm
    (after the block, or before it with norm_first)."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, dtype=dt.float32):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout, True,
                                            batch_first=batch_first, dtype=dtype)
        _add_blocks(self, 2, d_model, dim_feedforward, dropout, activation, layer_norm_eps,
                    norm_first, dtype)

    def _attention(self, x, mask, padding):
        out, _ = self.self_attn(x, x, x, padding, False, mask)
        return self.dropout1(out)

    def _feed_forward(self, x):
        return self.dropout2(self.dense2(self.dropout(self.activation(self.dense1(x)))))

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        x = src
        if self.norm_first:
            x = x + self._attention(self.norm1(x), src_mask, src_key_padding_mask)
            return x + self._feed_forward(self.norm2(x))
        x = self.norm1(x + self._attention(x, src_mask, src_key_padding_mask))
        return self.norm2(x + self._feed_forward(x))


class TransformerEncoder(Cell):
    """`num_layers` copies of `encoder_layer`, then `norm` if given."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = CellList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, src, src_mask=None, src_key_padding_mask=None):
        out = src
        for layer in self.layers:
            out = layer(out, src_mask, src_key_padding_mask)
        return out if self.norm is None else self.norm(out)


class TransformerDecoderLayer(Cell):
    """Self-attention over the target, attention from the target to `memory` (the encoder's
    output) and a feed-forward block, each with a residual connection and LayerNorm (after the
    block, or before it with norm_first). Parameter names as MindSpore's."""

    def __init__(self, d_model, nhead, dim_feedforward=2048, dropout=0.1, activation="relu",
                 layer_norm_eps=1e-5, batch_first=False, norm_first=False, dtype=dt.float32):
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout, True,
                                            batch_first=batch_first, dtype=dtype)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout, True,
                                                 batch_first=batch_first, dtype=dtype)
        _add_blocks(self, 3, d_model, dim_feedforward, dropout, activation, layer_norm_eps,
                    norm_first, dtype)

    def _self_block(self, x, mask, padding):
        out, _ = self.self_attn(x, x, x, padding, False, mask)
        return self.dropout1(out)

    def _memory_block(self, x, memory, mask, padding):
        out, _ = self.multihead_attn(x, memory, memory, padding, False, mask)
        return self.dropout2(out)

    def _feed_forward(self, x):
        return self.dropout3(self.dense2(self.dropout(self.activation(self.dense1(x)))))

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        x = tgt
        if self.norm_first:
            x = x + self._self_block(self.norm1(x), tgt_mask, tgt_key_padding_mask)
            x = x + self._memory_block(self.norm2(x), memory, memory_mask,
                                       memory_key_padding_mask)
            return x + self._feed_forward(self.norm3(x))
        x = self.norm1(x + self._self_block(x, tgt_mask, tgt_key_padding_mask))
        x = self.norm2(x + self._memory_block(x, memory, memory_mask, memory_key_padding_mask))
        return self.norm3(x + self._feed_forward(x))


class TransformerDecoder(Cell):
    """`num_layers` copies of `decoder_layer`, each attending to `memory`, then `norm` if
    given."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        self.layers = CellList([copy.deepcopy(decoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm

    def construct(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        out = tgt
        for layer in self.layers:
            out = layer(out, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                        memory_key_padding_mask)
        return out if self.norm is None else self.norm(out)


class Transformer(Cell):
    """An encoder (TransformerEncoder, or `custom_encoder`) over `src` and a decoder
    (TransformerDecoder, or `custom_decoder`) over `tgt` attending to the encoder's output;
    every weight matrix starts Xavier-uniform, as in MindSpore."""

    def __init__(self, d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                 dim_feedforward=2048, dropout=0.1, activation="relu", custom_encoder=None,
                 custom_decoder=None, layer_norm_eps=1e-5, batch_first=False, norm_first=False,
                 dtype=dt.float32):
        super().__init__()
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                            layer_norm_eps, batch_first, norm_first, dtype=dtype)
            self.encoder = TransformerEncoder(
                layer, num_encoder_layers, LayerNorm((d_model,), epsilon=layer_norm_eps,
                                                     dtype=dtype))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(d_model, nhead, dim_feedforward, dropout, activation,
                                            layer_norm_eps, batch_first, norm_first, dtype=dtype)
            self.decoder = TransformerDecoder(
                layer, num_decoder_layers, LayerNorm((d_model,), epsilon=layer_norm_eps,
                                                     dtype=dtype))
        for _, param in self.parameters_and_names():
            if len(param.shape) > 1:
                param.set_data(initializer(XavierUniform(), param.shape, param.dtype))
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def construct(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                  src_key_padding_mask=None, tgt_key_padding_mask=None,
                  memory_key_padding_mask=None):
        batch_axis = 0 if self.batch_first else 1
        if len(src.shape) == 3 and src.shape[batch_axis] != tgt.shape[batch_axis]:
            raise ArgumentValueError("Transformer: the batch sizes of `src` and `tgt` must be "
                                     f"equal, got {src.shape[batch_axis]} and "
                                     f"{tgt.shape[batch_axis]}")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise ArgumentValueError(f"Transformer: the features of `src` and `tgt` must be "
                                     f"d_model={self.d_model}, got {src.shape[-1]} and "
                                     f"{tgt.shape[-1]}")
        memory = self.encoder(src, src_mask, src_key_padding_mask)
        return self.decoder(tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                            memory_key_padding_mask)
