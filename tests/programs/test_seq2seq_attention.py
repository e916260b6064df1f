"""A GRU encoder-decoder with Luong (dot) attention, as translation tutorials write it: an
Embedding + nn.GRU(batch_first=True) encoder, a decoder stepped by a Python `for` in construct
with nn.GRUCell, attention through ops.BatchMatMul and ops.softmax, teacher forcing from the
target Tensor, a masked NLL loss, and a functional step with ms.jit; it learns to reverse
short sequences."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops

VOCAB = 7        # 0 = pad, 1 = start, 2..6 = symbols
LENGTH = 4
HIDDEN = 24


class Encoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, 16)
        self.gru = nn.GRU(16, HIDDEN, batch_first=True)

    def construct(self, src):
        embedded = self.embedding(src)
        outputs, hidden = self.gru(embedded)
        return outputs, hidden


class AttnDecoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, 16)
        self.cell = nn.GRUCell(16, HIDDEN)
        self.concat = nn.Dense(HIDDEN * 2, HIDDEN, activation="tanh")
        self.out = nn.Dense(HIDDEN, VOCAB)
        self.bmm = ops.BatchMatMul()
        self.bmm_t = ops.BatchMatMul(transpose_b=True)

    def step(self, token, hidden, enc_outputs):
        embedded = self.embedding(token)
        hidden = self.cell(embedded, hidden)
        scores = self.bmm_t(ops.expand_dims(hidden, 1), enc_outputs)   # (B, 1, T)
        weights = ops.softmax(scores, axis=-1)
        context = self.bmm(weights, enc_outputs).squeeze(1)              # (B, H)
        combined = self.concat(ops.cat((hidden, context), axis=1))
        return ops.log_softmax(self.out(combined), axis=1), hidden, weights

    def construct(self, start, hidden, enc_outputs, target):
        token = start
        log_probs = []
        for t in range(target.shape[1]):
            logp, hidden, _ = self.step(token, hidden, enc_outputs)
            log_probs.append(logp)
            token = target[:, t]                       # teacher forcing
        return ops.stack(log_probs, axis=1)


class Seq2Seq(nn.Cell):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = AttnDecoder()

    def construct(self, src, target):
        enc_outputs, hidden = self.encoder(src)
        start = ops.ones((src.shape[0],), ms.int32)
        return self.decoder(start, hidden[0], enc_outputs, target)


def masked_nll(log_probs, target):
    mask = (target != 0).astype(ms.float32)
    picked = ops.gather_elements(log_probs, 2, target.expand_dims(-1)).squeeze(-1)
    return -(picked * mask).sum() / mask.sum()


def make_batch(rng, n):
    src = rng.integers(2, VOCAB, size=(n, LENGTH)).astype(np.int32)
    lengths = rng.integers(2, LENGTH + 1, size=n)
    for row, length in zip(src, lengths):
        row[length:] = 0
    target = np.zeros_like(src)
    for i, length in enumerate(lengths):
        target[i, :length] = src[i, :length][::-1]
    return Tensor(src), Tensor(target)


def test_attention_weights_are_a_distribution_over_source_positions():
    model = Seq2Seq()
    src, target = make_batch(np.random.default_rng(0), 3)
    enc_outputs, hidden = model.encoder(src)
    assert enc_outputs.shape == (3, LENGTH, HIDDEN)
    assert hidden.shape == (1, 3, HIDDEN)
    _, _, weights = model.decoder.step(ops.ones((3,), ms.int32), hidden[0], enc_outputs)
    np.testing.assert_allclose(weights.sum(axis=-1).asnumpy(), np.ones((3, 1)), rtol=1e-5)
    log_probs = model(src, target)
    assert log_probs.shape == (3, LENGTH, VOCAB)
    np.testing.assert_allclose(ops.exp(log_probs).sum(-1).asnumpy(), np.ones((3, LENGTH)),
                               rtol=1e-5)


def test_masked_loss_matches_numpy():
    rng = np.random.default_rng(3)
    logits = rng.normal(size=(2, LENGTH, VOCAB)).astype(np.float32)
    log_probs = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    target = np.array([[3, 2, 0, 0], [4, 5, 6, 2]], np.int32)
    mask = target != 0
    picked = np.take_along_axis(log_probs, target[..., None], axis=2)[..., 0]
    expected = -(picked * mask).sum() / mask.sum()
    got = masked_nll(Tensor(log_probs), Tensor(target))
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-5)


def test_seq2seq_learns_to_reverse():
    ms.set_seed(2)
    rng = np.random.default_rng(1)
    model = Seq2Seq()
    optimizer = nn.Adam(model.trainable_params(), learning_rate=0.01)

    def forward_fn(src, target):
        return masked_nll(model(src, target), target)

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)

    @ms.jit
    def train_step(src, target):
        loss, grads = grad_fn(src, target)
        optimizer(grads)
        return loss

    losses = []
    for _ in range(80):
        src, target = make_batch(rng, 16)
        losses.append(float(train_step(src, target).asnumpy()))
    assert np.mean(losses[-10:]) < 0.5 * np.mean(losses[:10])
