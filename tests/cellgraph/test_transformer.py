"""MultiheadAttention and the Transformer encoder against a NumPy reference, with masks,
batch_first, MindSpore's parameter names and gradients."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn
from cellgraph.testing import check_grads

from .nn_checks import check_weight_grads, t64, to_float64


def np_softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def np_mha(attn, q, k, v, key_padding=None, attn_mask=None):
    """(L, N, E) reference from the layer's own weights."""
    e, h = attn.embed_dim, attn.num_heads
    w, b = attn.in_proj_weight.asnumpy(), attn.in_proj_bias.asnumpy()

    def heads(x, i):
        y = x @ w[i * e:(i + 1) * e].T + b[i * e:(i + 1) * e]
        return y.reshape(x.shape[0], x.shape[1], h, e // h).transpose(1, 2, 0, 3)

    scores = heads(q, 0) @ heads(k, 1).transpose(0, 1, 3, 2) / np.sqrt(e // h)
    if attn_mask is not None:
        scores = np.where(attn_mask, -np.inf, scores)
    if key_padding is not None:
        scores = np.where(key_padding[:, None, None, :], -np.inf, scores)
    weights = np_softmax(scores)
    out = (weights @ heads(v, 2)).transpose(2, 0, 1, 3).reshape(q.shape[0], q.shape[1], e)
    out = out @ attn.out_proj.weight.asnumpy().T + attn.out_proj.bias.asnumpy()
    return out, weights.mean(1)


def test_multihead_attention_matches_numpy(rng):
    attn = nn.MultiheadAttention(8, 2)
    assert [n for n, _ in attn.parameters_and_names()] == [
        "in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"]
    q, k = rng.standard_normal((4, 3, 8)), rng.standard_normal((6, 3, 8))
    padding = np.zeros((3, 6), bool)
    padding[1, 4:] = True
    causal = np.triu(np.ones((4, 6), bool), 3)
    out, weights = attn(Tensor(q.astype(np.float32)), Tensor(k.astype(np.float32)),
                        Tensor(k.astype(np.float32)), Tensor(padding), True, Tensor(causal))
    ref_out, ref_weights = np_mha(attn, q, k, k, padding, causal)
    np.testing.assert_allclose(out.asnumpy(), ref_out, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(weights.asnumpy(), ref_weights, rtol=1e-4, atol=1e-6)
    assert np.all(weights.asnumpy()[1, :, 4:] == 0)

    first = nn.MultiheadAttention(8, 2, batch_first=True)
    first.in_proj_weight.set_data(attn.in_proj_weight)
    first.out_proj.weight.set_data(attn.out_proj.weight)
    first.out_proj.bias.set_data(attn.out_proj.bias)
    swapped, _ = first(*(Tensor(q.transpose(1, 0, 2).astype(np.float32)),) * 3)
    np.testing.assert_allclose(swapped.asnumpy().transpose(1, 0, 2), np_mha(attn, q, q, q)[0],
                               rtol=1e-4, atol=1e-5)


def test_multihead_attention_bias_kv_and_zero_attn_match_numpy(rng):
    """add_bias_kv appends bias_k/bias_v as one more key position, add_zero_attn a zero one;
    the masks get a column for each, never masked."""
    attn = nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True)
    assert [n for n, _ in attn.parameters_and_names()] == [
        "in_proj_weight", "in_proj_bias", "bias_k", "bias_v", "out_proj.weight",
        "out_proj.bias"]
    q, k = rng.standard_normal((3, 2, 4)), rng.standard_normal((5, 2, 4))
    padding = np.zeros((2, 5), bool)
    padding[0, 3:] = True
    bk, bv = attn.bias_k.asnumpy(), attn.bias_v.asnumpy()
    e, h = 4, 2
    w, b = attn.in_proj_weight.asnumpy(), attn.in_proj_bias.asnumpy()
    qp, kp, vp = (x @ w[i * e:(i + 1) * e].T + b[i * e:(i + 1) * e]
                  for i, x in enumerate((q, k, k)))
    kp = np.concatenate([kp, np.broadcast_to(bk, (1, 2, 4)), np.zeros((1, 2, 4))])
    vp = np.concatenate([vp, np.broadcast_to(bv, (1, 2, 4)), np.zeros((1, 2, 4))])

    def heads(x):
        return x.reshape(x.shape[0], 2, h, e // h).transpose(1, 2, 0, 3)

    scores = heads(qp) @ heads(kp).transpose(0, 1, 3, 2) / np.sqrt(e // h)
    full_padding = np.concatenate([padding, np.zeros((2, 2), bool)], 1)
    weights = np_softmax(np.where(full_padding[:, None, None, :], -np.inf, scores))
    ref = (weights @ heads(vp)).transpose(2, 0, 1, 3).reshape(3, 2, e)
    ref = ref @ attn.out_proj.weight.asnumpy().T + attn.out_proj.bias.asnumpy()
    out, got_weights = attn(Tensor(q.astype(np.float32)), Tensor(k.astype(np.float32)),
                            Tensor(k.astype(np.float32)), key_padding_mask=Tensor(padding))
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got_weights.asnumpy(), weights.mean(1), rtol=1e-4, atol=1e-6)


def test_multihead_attention_one_sequence_masks_and_outputs(rng):
    """A 2-D query is one sequence (MindSpore runs it as a batch of one); a uint8 attn_mask is a
    bool one; need_weights=False gives a 1-tuple, as MindSpore's layer returns."""
    attn = nn.MultiheadAttention(4, 2)
    q = Tensor(rng.standard_normal((3, 1, 4)).astype(np.float32))
    mask = np.triu(np.ones((3, 3), bool), 1)
    batch_out, batch_weights = attn(q, q, q, attn_mask=Tensor(mask))
    one_out, one_weights = attn(q[:, 0], q[:, 0], q[:, 0], attn_mask=Tensor(mask))
    assert one_out.shape == (3, 4) and one_weights.shape == (3, 3)
    np.testing.assert_allclose(one_out.asnumpy(), batch_out.asnumpy()[:, 0], rtol=1e-6)
    np.testing.assert_allclose(one_weights.asnumpy(), batch_weights.asnumpy()[0], rtol=1e-6)
    as_bytes = attn(q, q, q, attn_mask=Tensor(mask.astype(np.uint8)), need_weights=False)
    assert isinstance(as_bytes, tuple) and len(as_bytes) == 1
    np.testing.assert_array_equal(as_bytes[0].asnumpy(), batch_out.asnumpy())
    per_head = attn(q, q, q, attn_mask=Tensor(mask), average_attn_weights=False)[1]
    assert per_head.shape == (1, 2, 3, 3)


@pytest.mark.parametrize("call, words", [
    (lambda a, q: a(q, q, q, attn_mask=Tensor(np.ones((2, 2), np.float32))),
     "The shape of the `attn_mask` should be (3, 3), but got (2, 2)."),
    (lambda a, q: a(q, q, q, attn_mask=Tensor(np.ones((3, 3), np.int32))),
     "`attn_mask` only support float, byte, and bool types"),
    (lambda a, q: a(q, q, q, key_padding_mask=Tensor(np.ones((1, 3), np.int32))),
     "only bool and floating types of key_padding_mask are supported"),
    (lambda a, q: a(q[0], q, q), "For unbatched `query`, the `key` and `value` must be 2D"),
    (lambda a, q: nn.MultiheadAttention(5, 2), "must be divisible by 'num_heads'"),
])
def test_multihead_attention_refuses_with_mindspores_words(call, words):
    attn, q = nn.MultiheadAttention(4, 2), Tensor(np.ones((3, 1, 4), np.float32))
    with pytest.raises(ValueError) as info:
        call(attn, q)
    assert words in str(info.value)


def test_multihead_attention_initial_values_follow_mindspore():
    """out_proj: HeUniform(sqrt(5)) weights, Uniform(1/sqrt(embed_dim)) bias, as MindSpore's
    layer sets them (the bias is not zeros); in_proj_bias zeros."""
    attn = nn.MultiheadAttention(16, 2)
    bias = attn.out_proj.bias.asnumpy()
    assert np.all(np.abs(bias) <= 0.25) and np.any(bias != 0)
    assert np.all(np.abs(attn.out_proj.weight.asnumpy()) <= 0.25)
    assert np.all(attn.in_proj_bias.asnumpy() == 0)
    assert nn.MultiheadAttention(4, 2, has_bias=False).in_proj_bias is None


def test_attention_gradients(rng):
    attn = to_float64(nn.MultiheadAttention(4, 2))
    x = rng.standard_normal((3, 2, 4))
    check_grads(lambda v: attn(v, v, v)[0], (x,), order=2, rtol=1e-4)

    class Output(nn.Cell):
        def __init__(self):
            super().__init__()
            self.attn = attn

        def construct(self, v):
            return self.attn(v, v, v, None, False)[0]

    check_weight_grads(Output(), (t64(x),))


@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_layer_matches_numpy(norm_first, rng):
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, norm_first=norm_first)
    x = rng.standard_normal((5, 2, 8))

    def norm(v, cell):
        mu, var = v.mean(-1, keepdims=True), v.var(-1, keepdims=True)
        return (v - mu) / np.sqrt(var + 1e-5) * cell.gamma.asnumpy() + cell.beta.asnumpy()

    def ff(v):
        hidden = np.maximum(v @ layer.dense1.weight.asnumpy().T + layer.dense1.bias.asnumpy(),
                            0)
        return hidden @ layer.dense2.weight.asnumpy().T + layer.dense2.bias.asnumpy()

    if norm_first:
        y = x + np_mha(layer.self_attn, *(norm(x, layer.norm1),) * 3)[0]
        ref = y + ff(norm(y, layer.norm2))
    else:
        y = norm(x + np_mha(layer.self_attn, x, x, x)[0], layer.norm1)
        ref = norm(y + ff(y), layer.norm2)
    np.testing.assert_allclose(layer(Tensor(x.astype(np.float32))).asnumpy(), ref, rtol=1e-4,
                               atol=1e-4)


def test_encoder_stacks_copies():
    layer = nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0)
    encoder = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm((4,)))
    names = [n for n, _ in encoder.parameters_and_names()]
    assert "layers.0.self_attn.in_proj_weight" in names
    assert "layers.1.dense2.bias" in names and names[-1] == "norm.beta"
    assert encoder.layers[0].dense1.weight is not encoder.layers[1].dense1.weight
    x = Tensor(np.ones((3, 2, 4), np.float32))
    assert encoder(x, None, Tensor(np.array([[False, False, True]] * 2))).shape == (3, 2, 4)


@pytest.mark.parametrize("norm_first, expected", [
    (False, [[0.3127, 0.24898, 0.16815], [0.30681, 0.2466, 0.16223],
             [0.3127, 0.24898, 0.16816], [0.3068, 0.24658, 0.16225]]),
    (True, [[0.21864, 0.24442, 0.40628], [0.14675, 0.26649, 0.44038],
            [0.2192, 0.24421, 0.40558], [0.1465, 0.26665, 0.44055]]),
])
def test_transformer_matches_mindspore(norm_first, expected):
    # expected: MindSpore 2.10's output for the same weights and inputs
    model = nn.Transformer(8, 2, 1, 2, 16, norm_first=norm_first)
    model.set_train(False)
    for k, (_, p) in enumerate(model.parameters_and_names()):
        size = int(np.prod(p.shape))
        p.set_data(Tensor((np.sin(np.arange(size) * 0.37 + k) * 0.3).reshape(p.shape)
                          .astype(np.float32)))
    src = np.cos(np.arange(2 * 3 * 8) * 0.21).reshape(2, 3, 8).astype(np.float32)
    tgt = np.sin(np.arange(4 * 3 * 8) * 0.13).reshape(4, 3, 8).astype(np.float32)
    out = model(Tensor(src), Tensor(tgt)).asnumpy()
    np.testing.assert_allclose(out[:, 0, :3], expected, atol=2e-5)
    names = [n for n, _ in model.parameters_and_names()]
    assert len(names) == 52 and "decoder.layers.1.multihead_attn.in_proj_weight" in names
    assert "encoder.layers.0.dense1.weight" in names and names[-1] == "decoder.norm.beta"


def test_transformer_decoder_keeps_the_target_shape_and_dtype():
    layer = nn.TransformerDecoderLayer(d_model=16, nhead=4, dim_feedforward=32,
                                       dtype=ms.float16)
    decoder = nn.TransformerDecoder(layer, num_layers=2)
    decoder.set_train(False)
    out = decoder(Tensor(np.random.rand(5, 3, 16), ms.float16),
                  Tensor(np.random.rand(4, 3, 16), ms.float16))
    assert out.shape == (5, 3, 16) and out.dtype == ms.float16
    with pytest.raises(ValueError, match="d_model"):
        nn.Transformer(16, 4, 1, 1, 32)(Tensor(np.ones((2, 1, 8), np.float32)),
                                        Tensor(np.ones((2, 1, 8), np.float32)))


def test_encoder_takes_mindspores_mask_keywords():
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
    encoder = nn.TransformerEncoder(layer, 2)
    src = Tensor(np.random.rand(3, 2, 8).astype(np.float32))
    mask = Tensor(np.zeros((3, 3), np.float32))
    np.testing.assert_allclose(encoder(src, src_mask=mask).asnumpy(), encoder(src).asnumpy(),
                               rtol=1e-6)


def test_encoder_and_decoder_stack_a_fresh_layer_of_the_given_settings():
    """As MindSpore: TransformerEncoder/Decoder build a new layer from the given one's settings
    (new weights, one more set of initializer draws) and stack copies of it, so a program's
    later random draws and its weights line up with MindSpore's."""
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu",
                                       batch_first=True, norm_first=True)
    np.random.seed(3)
    encoder = nn.TransformerEncoder(layer, 2)
    after_encoder = np.random.random()
    np.random.seed(3)
    fresh = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu",
                                       batch_first=True, norm_first=True)
    assert np.random.random() == after_encoder
    for stacked in encoder.layers:
        assert stacked.batch_first and stacked.norm_first and stacked.activation1 == "gelu"
        np.testing.assert_array_equal(stacked.dense1.weight.asnumpy(),
                                      fresh.dense1.weight.asnumpy())
    assert not np.array_equal(encoder.layers[0].dense1.weight.asnumpy(),
                              layer.dense1.weight.asnumpy())
    decoder_layer = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0)
    decoder = nn.TransformerDecoder(decoder_layer, 1)
    assert decoder.layers[0].dim_feedforward == 16 and decoder.layers[0].nhead == 2
