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
from cellgraph.common.initializer import (
    HeUniform,
    Uniform,
    XavierNormal,
    XavierUniform,
    initializer,
)
from cellgraph.ops.function.nn_func.attention import multi_head_attention_forward
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError
from cellgraph.runtime.tensor import Parameter

from ..cell import Cell
from ._checks import guarded, positive_int
from .activation import GELU, ReLU
from .basic import Dense, Dropout
from .container import CellList
from .normalization import LayerNorm

__all__ = ["MultiheadAttention", "Transformer", "TransformerDecoder", "TransformerDecoderLayer",
           "TransformerEncoder", "TransformerEncoderLayer"]


class MultiheadAttention(Cell):
    """softmax(Q K^T / sqrt(d) + mask) V over `num_heads` heads of embed_dim / num_heads, by
    `ops.function.nn_func.multi_head_attention_forward`, with MindSpore's parameters and their
    initial values."""

    def __init__(self, embed_dim, num_heads, dropout=0.0, has_bias=True, add_bias_kv=False,
                 add_zero_attn=False, kdim=None, vdim=None, batch_first=False,
                 dtype=dt.float32):
        super().__init__()
        self.embed_dim = positive_int(embed_dim, "MultiheadAttention", "embed_dim")
        self.num_heads = positive_int(num_heads, "MultiheadAttention", "num_heads")
        if self.embed_dim % self.num_heads:
            raise ArgumentValueError("The init argument 'embed_dim' must be divisible by "
                                     "'num_heads'.")
        dtype = dt.float32 if dtype is None else dtype
        self.head_dim = self.embed_dim // self.num_heads
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self.batch_first, self.dropout, self.dtype = batch_first, dropout, dtype
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        xavier = XavierUniform()
        self.in_proj_weight = self.q_proj_weight = self.k_proj_weight = None
        self.v_proj_weight = None
        if self._qkv_same_embed_dim:
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
                              weight_init=HeUniform(math.sqrt(5)),
                              bias_init=Uniform(1 / math.sqrt(embed_dim)), dtype=dtype)
        self.bias_k = self.bias_v = None
        if add_bias_kv:
            self.bias_k = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype),
                                    "bias_k")
            self.bias_v = Parameter(initializer(XavierNormal(), (1, 1, embed_dim), dtype),
                                    "bias_v")
        self.add_zero_attn = add_zero_attn

    def construct(self, query, key, value, key_padding_mask=None, need_weights=True,
                  attn_mask=None, average_attn_weights=True):
        if key_padding_mask is not None and key_padding_mask.dtype != dt.bool_ \
                and not key_padding_mask.dtype.is_float:
            raise ArgumentValueError("only bool and floating types of key_padding_mask are "
                                     "supported")
        batched = len(query.shape) == 3
        if self.batch_first and batched:
            query, key, value = (P.swapaxes(t, 1, 0) for t in (query, key, value))
        separate = not self._qkv_same_embed_dim
        out, weights = multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=guarded(self, "training"),
            key_padding_mask=key_padding_mask, attn_mask=attn_mask,
            use_separate_proj_weight=separate, q_proj_weight=self.q_proj_weight,
            k_proj_weight=self.k_proj_weight, v_proj_weight=self.v_proj_weight,
            average_attn_weights=average_attn_weights, dtype=self.dtype)
        if self.batch_first and batched:
            out = P.swapaxes(out, 1, 0)
        return (out, weights) if need_weights else (out,)


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
    layer.d_model, layer.dim_feedforward = d_model, dim_feedforward
    layer.dropout_num, layer.layernorm_eps, layer.dtype = dropout, layer_norm_eps, dtype


def _fresh_layer(cls, layer):
    """A new `cls` layer of `layer`'s settings: MindSpore's encoder and decoder stack copies of
    a layer they build anew (with new weights), not of the layer they are given."""
    return cls(layer.d_model, layer.nhead, layer.dim_feedforward, layer.dropout_num,
               layer.activation1, layer.layernorm_eps, layer.batch_first, layer.norm_first,
               dtype=layer.dtype)


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
        self.nhead, self.batch_first = nhead, batch_first

    def _attention(self, x, mask, padding):
        out = self.self_attn(x, x, x, padding, False, mask)[0]
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
    """`num_layers` copies of an encoder layer of `encoder_layer`'s settings, then `norm` if
    given."""

    def __init__(self, encoder_layer, num_layers, norm=None):
        super().__init__()
        layer = _fresh_layer(TransformerEncoderLayer, encoder_layer)
        self.layers = CellList([copy.deepcopy(layer) for _ in range(num_layers)])
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
        self.nhead, self.batch_first = nhead, batch_first

    def _self_block(self, x, mask, padding):
        out = self.self_attn(x, x, x, padding, False, mask)[0]
        return self.dropout1(out)

    def _memory_block(self, x, memory, mask, padding):
        out = self.multihead_attn(x, memory, memory, padding, False, mask)[0]
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
    """`num_layers` copies of a decoder layer of `decoder_layer`'s settings, each attending to
    `memory`, then `norm` if given."""

    def __init__(self, decoder_layer, num_layers, norm=None):
        super().__init__()
        layer = _fresh_layer(TransformerDecoderLayer, decoder_layer)
        self.layers = CellList([copy.deepcopy(layer) for _ in range(num_layers)])
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
