"""Attention as compositions of existing operations: `ops.flash_attention_score` (MindSpore's fused
Ascend kernel, here the same mathematics written out: scale * Q K^T + pse, masked, softmax,
dropout, times V) and `multi_head_attention_forward`, the function behind
`nn.MultiheadAttention`. Their gradients and batching come from the operations they are made
of."""
from __future__ import annotations

import numpy as np

from cellgraph.ops.function.array_func.indexing import masked_fill
from cellgraph.ops.function.array_func.shape import repeat_interleave, swapaxes
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import rounding_ops as R
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError, UnsupportedError
from cellgraph.primitives.nn_functional import dropout
from cellgraph.primitives.random_ops import rand

__all__ = ["flash_attention_score", "multi_head_attention_forward"]


_LAYOUTS = ("BSH", "BNSD", "SBH", "BSND")


_NO_BAND = 2147483647


def _to_bnsd(x, layout: str, heads: int, name: str):
    """A query/key/value in `layout` as (B, N, S, D)."""
    shape = abstract_of(x).shape
    rank = 4 if layout in ("BNSD", "BSND") else 3
    if len(shape) != rank:
        raise ShapeError(f"flash_attention_score: expected a {rank}-D `{name}` for "
                         f"input_layout {layout!r}, got shape {shape}")
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return F.transpose(x, (0, 2, 1, 3))
    if layout == "SBH":
        x = swapaxes(x, 0, 1)
        shape = abstract_of(x).shape
    b, s, h = shape
    if h % heads:
        raise ShapeError(f"flash_attention_score: the hidden size {h} of `{name}` is not a "
                         f"multiple of {heads} heads")
    return F.transpose(F.reshape(x, (b, s, heads, h // heads)), (0, 2, 1, 3))


def _from_bnsd(x, layout: str):
    if layout == "BNSD":
        return x
    if layout == "BSND":
        return F.transpose(x, (0, 2, 1, 3))
    b, n, s, d = abstract_of(x).shape
    x = F.reshape(F.transpose(x, (0, 2, 1, 3)), (b, s, n * d))
    return swapaxes(x, 0, 1) if layout == "SBH" else x


def _discarded(s1: int, s2: int, sparse_mode: int, pre_tokens: int, next_tokens: int):
    """The positions a sparse mode masks by itself (True = discarded), or None."""
    rows, cols = np.arange(s1)[:, None], np.arange(s2)[None, :]
    if sparse_mode == 2:  # causal from the top-left corner
        return cols > rows
    if sparse_mode == 3:  # causal from the bottom-right corner
        return cols > rows + (s2 - s1)
    if sparse_mode == 0 and (pre_tokens, next_tokens) != (_NO_BAND, _NO_BAND):
        return (cols - rows > next_tokens) | (rows - cols > pre_tokens)
    return None


def _unpack_bits(mask, s2: int):
    """MindSpore's uint8 drop_mask, eight keep-bits per byte, lowest bit first -> 0/1."""
    shape = abstract_of(mask).shape
    bits = [F.cast(M.not_equal(R.bitwise_and(R.bitwise_right_shift(mask, k), 1), 0),
                   dt.float32)
            for k in range(8)]
    stacked = F.stack(bits, -1)
    return F.getitem(F.reshape(stacked, tuple(shape[:-1]) + (shape[-1] * 8,)),
                     (Ellipsis, slice(0, s2)))


def _attention(query, key, value, head_num, real_shift, drop_mask, attn_mask, keep_prob,
               scalar_value, pre_tokens, next_tokens, input_layout, sparse_mode):
    """(softmax_max, softmax_sum, attention_out): the row maxima and sums of exp(score - max)
    that the fused kernel keeps for its backward pass, and the attention output."""
    op = "flash_attention_score"
    if input_layout not in _LAYOUTS:
        raise UnsupportedError(f"{op}: input_layout must be one of {_LAYOUTS} on this "
                               f"platform, got {input_layout!r}")
    if sparse_mode not in (0, 1, 2, 3):
        raise UnsupportedError(f"{op}: sparse_mode {sparse_mode} (prefix and band "
                               f"compression modes) is not supported; use 0-3")
    if not 0 < keep_prob <= 1:
        raise ArgumentValueError(f"{op}: keep_prob must be in (0, 1], got {keep_prob}")
    dtype = abstract_of(query).dtype
    if not dtype.is_float or abstract_of(key).dtype != dtype or abstract_of(value).dtype != dtype:
        raise DTypeError(f"{op}: expected query, key and value of one float dtype, got "
                         f"{dtype}, {abstract_of(key).dtype}, {abstract_of(value).dtype}")
    q = _to_bnsd(query, input_layout, head_num, "query")
    head_dim = abstract_of(q).shape[-1]
    kv_heads = (abstract_of(key).shape[-1] // head_dim if input_layout in ("BSH", "SBH")
                else abstract_of(key).shape[1 if input_layout == "BNSD" else 2])
    if kv_heads < 1 or head_num % kv_heads:
        raise ShapeError(f"{op}: the key's {kv_heads} heads must divide head_num {head_num}")
    k = _to_bnsd(key, input_layout, kv_heads, "key")
    v = _to_bnsd(value, input_layout, kv_heads, "value")
    if kv_heads != head_num:  # grouped-query attention: each key head serves a group
        k = repeat_interleave(k, head_num // kv_heads, 1)
        v = repeat_interleave(v, head_num // kv_heads, 1)
    scores = F.matmul(q, swapaxes(k, -1, -2)) * scalar_value
    if real_shift is not None:
        scores = scores + F.cast(real_shift, dtype)
    s1, s2 = abstract_of(scores).shape[-2:]
    own = _discarded(s1, s2, sparse_mode, pre_tokens, next_tokens)
    low = float(dt.finfo(dtype).min)
    if own is not None:
        scores = masked_fill(scores, A.cast(own, dtype=dt.bool_), low)
    elif attn_mask is not None:
        scores = masked_fill(scores, F.cast(attn_mask, dt.bool_), low)
    row_max = F.reduce_max(scores, -1, True)
    exp = M.exp(scores - F.stop_gradient(row_max))
    row_sum = F.reduce_sum(exp, -1, True)
    probs = exp / row_sum
    if keep_prob < 1:
        keep = (_unpack_bits(drop_mask, s2) if drop_mask is not None
                else F.cast(M.less(rand(abstract_of(probs).shape), keep_prob), dt.float32))
        probs = probs * F.cast(keep, dtype) / keep_prob
    out = _from_bnsd(F.matmul(probs, v), input_layout)
    stats = tuple(F.broadcast_to(F.cast(t, dt.float32), abstract_of(t).shape[:-1] + (8,))
                  for t in (row_max, row_sum))
    return stats[0], stats[1], out


def flash_attention_score(query, key, value, head_num, real_shift=None, drop_mask=None,
                          padding_mask=None, attn_mask=None, prefix=None, actual_seq_qlen=None,
                          actual_seq_kvlen=None, keep_prob=1.0, scalar_value=1.0,
                          pre_tokens=2147483647, next_tokens=2147483647, inner_precise=0,
                          input_layout="BSH", sparse_mode=0):
    """Dropout(Softmax(Mask(scalar_value * Q K^T + real_shift, attn_mask)), keep_prob) V in
    `input_layout`; attn_mask is True (1) where a position is discarded."""
    if prefix is not None or actual_seq_qlen is not None or actual_seq_kvlen is not None:
        raise UnsupportedError("flash_attention_score: prefix and actual_seq_qlen/kvlen "
                               "belong to the TND layout and sparse_mode 5+, which this "
                               "platform does not provide")
    return _attention(query, key, value, head_num, real_shift, drop_mask, attn_mask,
                      keep_prob, scalar_value, pre_tokens, next_tokens, input_layout,
                      sparse_mode)[2]


def _flash_attention_class(query, key, value, real_shift=None, drop_mask=None,
                           padding_mask=None, attn_mask=None, prefix=None,
                           actual_seq_qlen=None, actual_seq_kvlen=None, *, head_num,
                           keep_prob=1.0, scale_value=1.0, pre_tokens=2147483647,
                           next_tokens=2147483647, inner_precise=0, input_layout="BSH",
                           sparse_mode=0):
    """FlashAttentionScore's (softmax_max, softmax_sum, softmax_out, attention_out); the
    kernel leaves softmax_out empty."""
    row_max, row_sum, out = _attention(query, key, value, head_num, real_shift, drop_mask,
                                       attn_mask, keep_prob, scale_value, pre_tokens,
                                       next_tokens, input_layout, sparse_mode)
    empty = F.reshape(F.cast(row_max, abstract_of(query).dtype), (-1,))[0:0]
    return row_max, row_sum, empty, out


def flash_attention_score_impl(query, key, value, real_shift=None, drop_mask=None,
                               padding_mask=None, attn_mask=None, prefix=None,
                               actual_seq_qlen=None, actual_seq_kvlen=None, head_num=1,
                               keep_prob=1.0, scale_value=1.0, pre_tokens=2147483647,
                               next_tokens=2147483647, inner_precise=0, input_layout="BSH",
                               sparse_mode=0):
    """The generated call function: every argument at call time, in the class's order."""
    return _flash_attention_class(query, key, value, real_shift, drop_mask, padding_mask,
                                  attn_mask, prefix, actual_seq_qlen, actual_seq_kvlen,
                                  head_num=head_num, keep_prob=keep_prob,
                                  scale_value=scale_value, pre_tokens=pre_tokens,
                                  next_tokens=next_tokens, inner_precise=inner_precise,
                                  input_layout=input_layout, sparse_mode=sparse_mode)


def _additive_mask(mask, dtype):
    """A bool mask (True = not attended) as -inf to add; a float mask as it is."""
    if abstract_of(mask).dtype == dt.bool_:
        return masked_fill(F.zeros(abstract_of(mask).shape, dtype), mask, float("-inf"))
    return F.cast(mask, dtype)


def _project(x, weight, bias):
    y = F.matmul(x, swapaxes(weight, 0, 1))
    return y if bias is None else y + bias


def _masks_for_one_more_key(attn_mask, key_padding_mask):
    """The masks with a column for one more key position, never masked."""
    if attn_mask is not None:
        attn_mask = F.concat((attn_mask, F.zeros_like(F.getitem(
            attn_mask, (Ellipsis, slice(0, 1))))), -1)
    if key_padding_mask is not None:
        key_padding_mask = F.concat((key_padding_mask, F.zeros_like(F.getitem(
            key_padding_mask, (slice(None), slice(0, 1))))), -1)
    return attn_mask, key_padding_mask


def _check_mha_inputs(query, key, value, key_padding_mask, attn_mask, num_heads, separate):
    """MindSpore's checks of the inputs' ranks and shapes, in its words (ValueError); True when
    the inputs are batched (L, N, E), False for one sequence (L, E)."""
    q_shape, k_shape, v_shape = (abstract_of(t).shape for t in (query, key, value))
    batched = len(q_shape) == 3
    kind = "batched" if batched else "unbatched"
    if len(q_shape) not in (2, 3):
        raise ArgumentValueError(f"The `query` should be unbatched 2D or batched 3D tensor, "
                                 f"but got `query` with {len(q_shape)}D.")
    if len(k_shape) != len(q_shape) or len(v_shape) != len(q_shape):
        raise ArgumentValueError(
            f"For {kind} `query`, the `key` and `value` must be {len(q_shape)}D tensor, but got "
            f"`key` with {len(k_shape)}D and `value` with {len(v_shape)}D.")
    if key_padding_mask is not None:
        rank = len(abstract_of(key_padding_mask).shape)
        if rank != len(q_shape) - 1:
            raise ArgumentValueError(
                f"For {kind} `query`, the `key_padding_mask` must be `None` or "
                f"{len(q_shape) - 1}D, but got `key_padding_mask` with {rank}D.")
        kpm_dtype = abstract_of(key_padding_mask).dtype
        if kpm_dtype != dt.bool_ and not kpm_dtype.is_float:
            raise ArgumentValueError("The `key_padding_mask` only supports bool and floating "
                                     "dtypes.")
    if separate:
        if k_shape[:-1] != v_shape[:-1]:
            raise ArgumentValueError(f"The sequence length and batch dims of `key`: "
                                     f"{k_shape[:2]} do not match `value`: {v_shape[:2]}.")
    elif k_shape != v_shape:
        raise ArgumentValueError(f"The shape of `key` {k_shape} does not match `value` "
                                 f"{v_shape}.")
    if attn_mask is not None:
        _check_attn_mask(abstract_of(attn_mask), q_shape, k_shape, num_heads)
    return batched


def _check_attn_mask(mask, q_shape, k_shape, num_heads):
    """An attn_mask of float, uint8 or bool, (L, S) or (N * num_heads, L, S)."""
    if mask.dtype not in (dt.uint8, dt.bool_) and not mask.dtype.is_float:
        raise ArgumentValueError(f"`attn_mask` only support float, byte, and bool types, "
                                 f"but got not {mask.dtype}.")
    length, source = q_shape[0], k_shape[0]
    if len(mask.shape) == 2:
        expected = (length, source)
    elif len(mask.shape) == 3:
        batch = q_shape[1] if len(q_shape) == 3 else 1
        expected = (batch * num_heads, length, source)
    else:
        raise ArgumentValueError(f"The ndim of `attn_mask` only support 2 or 3, but got "
                                 f"{len(mask.shape)}.")
    if tuple(mask.shape) != expected:
        raise ArgumentValueError(f"The shape of the `attn_mask` should be {expected}, but got "
                                 f"{tuple(mask.shape)}.")


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads,
                                 in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn,
                                 dropout_p, out_proj_weight, out_proj_bias, training=True,
                                 key_padding_mask=None, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None,
                                 k_proj_weight=None, v_proj_weight=None, static_k=None,
                                 static_v=None, average_attn_weights=True, is_causal=False,
                                 k_is_v=False, q_is_k=False, dtype=dt.float32):
    """(attn_output (L, N, E), attn_weights (N, L, S) averaged over heads, or per head) for
    sequences (L, N, E), or (L, E) and (L, S) for one sequence; masks: bool True = not
    attended, float = added to the scores, uint8 as bool."""
    op = "multi_head_attention_forward"
    if is_causal:  # MindSpore adds its boolean lower triangle to the scores as numbers
        raise UnsupportedError(f"{op}: is_causal=True is not supported; pass the causal mask "
                               f"as attn_mask")
    if static_k is not None or static_v is not None:
        raise UnsupportedError(f"{op}: static_k/static_v are not supported")
    batched = _check_mha_inputs(query, key, value, key_padding_mask, attn_mask, num_heads,
                                use_separate_proj_weight)
    if not batched:  # one sequence: a batch of one, as MindSpore runs it
        query, key, value = (F.expand_dims(t, 1) for t in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = F.expand_dims(key_padding_mask, 0)
    length, batch, embed = abstract_of(query).shape
    if embed != embed_dim_to_check:
        raise ArgumentValueError(f"The `embed_dim` should be {embed_dim_to_check}, but got "
                                 f"{embed}.")
    if embed % num_heads:
        raise ArgumentValueError(f"The `embed_dim` {embed} can not be divisible by "
                                 f"`num_heads` {num_heads}.")
    if attn_mask is not None and abstract_of(attn_mask).dtype == dt.uint8:
        attn_mask = F.cast(attn_mask, dt.bool_)
    head = embed // num_heads
    if use_separate_proj_weight:
        weights = (q_proj_weight, k_proj_weight, v_proj_weight)
        if None in weights:
            missing = ("q", "k", "v")[weights.index(None)]
            raise ArgumentValueError(f"`use_separate_proj_weight` is ``True`` but "
                                     f"`{missing}_proj_weight` got ``None``.")
    elif in_proj_weight is None:
        raise ArgumentValueError("`use_separate_proj_weight` is ``False`` but `in_proj_weight` "
                                 "got ``None``.")
    else:
        weights = tuple(F.getitem(in_proj_weight, slice(i * embed, (i + 1) * embed))
                        for i in range(3))
    biases = (None,) * 3 if in_proj_bias is None else tuple(
        F.getitem(in_proj_bias, slice(i * embed, (i + 1) * embed)) for i in range(3))
    q, k, v = (_project(x, w, b) for x, w, b in zip((query, key, value), weights, biases))
    if (bias_k is None) != (bias_v is None):
        raise ArgumentValueError("The bias_k and bias_v should be ``None``at the same time.")
    if bias_k is not None:  # one more key/value position
        k = F.concat((k, F.broadcast_to(F.reshape(bias_k, (1, 1, embed)), (1, batch, embed))))
        v = F.concat((v, F.broadcast_to(F.reshape(bias_v, (1, 1, embed)), (1, batch, embed))))
        attn_mask, key_padding_mask = _masks_for_one_more_key(attn_mask, key_padding_mask)

    def heads(x):  # (S, N, E) -> (N, H, S, head)
        s = abstract_of(x).shape[0]
        return F.transpose(F.reshape(x, (s, batch, num_heads, head)), (1, 2, 0, 3))

    # MindSpore divides both Q and K by head ** 0.25, computed in `dtype`
    scale = float(np.sqrt(np.sqrt(np.asarray(head, dt.as_dtype(dtype).np))))
    q, k, v = heads(q) / scale, heads(k), heads(v)
    if add_zero_attn:
        k, v = (F.concat((t, F.zeros_like(F.getitem(t, (Ellipsis, slice(0, 1), slice(None))))),
                         2) for t in (k, v))
        attn_mask, key_padding_mask = _masks_for_one_more_key(attn_mask, key_padding_mask)
    scores = F.matmul(q, swapaxes(k, -1, -2) / scale)  # (N, H, L, S)
    s = abstract_of(scores).shape[-1]
    if key_padding_mask is not None and tuple(abstract_of(key_padding_mask).shape) != (batch, s):
        raise ArgumentValueError(f"The shape of `key_padding_mask` should be {(batch, s)}, but "
                                 f"got {tuple(abstract_of(key_padding_mask).shape)}.")
    if attn_mask is not None:
        mask = _additive_mask(attn_mask, abstract_of(scores).dtype)
        if len(abstract_of(mask).shape) == 3:
            mask = F.reshape(mask, (batch, num_heads, length, s))
        scores = scores + mask
    if key_padding_mask is not None:
        padding = _additive_mask(key_padding_mask, abstract_of(scores).dtype)
        scores = scores + F.reshape(padding, (batch, 1, 1, s))
    weights = F.softmax(scores, -1)
    if training and dropout_p > 0:
        weights = dropout(weights, dropout_p)
    out = F.reshape(F.transpose(F.matmul(weights, v), (2, 0, 1, 3)), (length, batch, embed))
    out = _project(out, out_proj_weight, out_proj_bias)
    if average_attn_weights:
        weights = F.reduce_sum(weights, 1) / num_heads
    if not batched:
        out, weights = F.squeeze(out, 1), F.squeeze(weights, 0)
    return out, weights

