"""A Transformer text classifier with MindSpore 2.x's nn.TransformerEncoder: sinusoidal
positional encodings built in NumPy, nn.TransformerEncoderLayer(batch_first=True) with a
src_key_padding_mask from the padding tokens, masked mean pooling, AdamWeightDecay and a
warm-up list from nn.warmup_lr; nn.MultiheadAttention checked against a NumPy reference."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops

VOCAB, LENGTH, D_MODEL = 12, 6, 16


def positional_encoding(length, d_model):
    position = np.arange(length)[:, None]
    div_term = np.exp(np.arange(0, d_model, 2) * (-np.log(10000.0) / d_model))
    pe = np.zeros((length, d_model), np.float32)
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


class TransformerClassifier(nn.Cell):
    def __init__(self, num_classes=2, nhead=2, num_layers=2):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, D_MODEL, padding_idx=0)
        self.pe = Tensor(positional_encoding(LENGTH, D_MODEL))
        layer = nn.TransformerEncoderLayer(D_MODEL, nhead, dim_feedforward=32, dropout=0.0,
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers)
        self.head = nn.Dense(D_MODEL, num_classes)
        self.scale = float(np.sqrt(D_MODEL))

    def construct(self, tokens):
        padding = tokens == 0
        x = self.embedding(tokens) * self.scale + self.pe
        x = self.encoder(x, src_key_padding_mask=padding)
        keep = ops.logical_not(padding).astype(x.dtype).expand_dims(-1)
        pooled = (x * keep).sum(axis=1) / keep.sum(axis=1)
        return self.head(pooled)


def np_attention(q, k, v, w_in, b_in, w_out, b_out, heads, key_padding_mask=None):
    d = q.shape[-1]
    wq, wk, wv = np.split(w_in, 3)
    bq, bk, bv = np.split(b_in, 3)
    Q, K, V = q @ wq.T + bq, k @ wk.T + bk, v @ wv.T + bv
    b, lq, _ = Q.shape
    hd = d // heads

    def split(t):
        return t.reshape(b, -1, heads, hd).transpose(0, 2, 1, 3)
    scores = split(Q) @ split(K).transpose(0, 1, 3, 2) / np.sqrt(hd)
    if key_padding_mask is not None:
        scores = np.where(key_padding_mask[:, None, None, :], -np.inf, scores)
    scores = scores - scores.max(-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(-1, keepdims=True)
    out = (weights @ split(V)).transpose(0, 2, 1, 3).reshape(b, lq, d)
    return out @ w_out.T + b_out, weights.mean(1)


def test_multihead_attention_matches_numpy():
    mha = nn.MultiheadAttention(D_MODEL, 4, batch_first=True)
    rng = np.random.default_rng(0)
    q = rng.normal(size=(2, 3, D_MODEL)).astype(np.float32)
    kv = rng.normal(size=(2, 5, D_MODEL)).astype(np.float32)
    mask = np.array([[False] * 5, [False, False, False, True, True]])
    out, weights = mha(Tensor(q), Tensor(kv), Tensor(kv), key_padding_mask=Tensor(mask))
    params = {p.name.split(".")[-1]: p.asnumpy() for p in mha.trainable_params()}
    w_out = mha.out_proj.weight.asnumpy()
    b_out = mha.out_proj.bias.asnumpy()
    expected, expected_w = np_attention(q, kv, kv, params["in_proj_weight"],
                                        params["in_proj_bias"], w_out, b_out, 4, mask)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(weights.asnumpy(), expected_w, rtol=1e-4, atol=1e-6)
    assert np.all(weights.asnumpy()[1, :, 3:] == 0)


def make_data(n, rng):
    """Class 1 when token 3 appears before token 4 (order matters), padded at the end."""
    tokens = rng.integers(5, VOCAB, size=(n, LENGTH))
    labels = rng.integers(0, 2, size=n)
    for row, label in zip(tokens, labels):
        i, j = sorted(rng.choice(LENGTH - 2, size=2, replace=False))
        row[i], row[j] = (3, 4) if label else (4, 3)
        row[LENGTH - rng.integers(0, 3):] = 0
    return Tensor(tokens.astype(np.int32)), Tensor(labels.astype(np.int32))


def test_transformer_classifier_learns_token_order():
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    net = TransformerClassifier()
    steps = 60
    lrs = nn.warmup_lr(learning_rate=0.005, total_step=steps, step_per_epoch=2,
                       warmup_epoch=2)
    assert len(lrs) == steps and lrs[:4] == [0.0, 0.0, 0.0025, 0.0025]
    opt = nn.AdamWeightDecay(net.trainable_params(), learning_rate=lrs, weight_decay=0.01)
    loss_fn = nn.CrossEntropyLoss()
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, opt.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    net.set_train()
    x, y = make_data(64, rng)
    losses = [float(step(x, y).asnumpy()) for _ in range(steps)]
    assert losses[-1] < 0.3 * losses[0]
    net.set_train(False)
    x_test, y_test = make_data(64, np.random.default_rng(1))
    accuracy = (net(x_test).argmax(1) == y_test).astype(ms.float32).mean()
    assert float(accuracy.asnumpy()) > 0.75
