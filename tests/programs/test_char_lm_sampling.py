"""A character-level language model and its sampler, as text-generation scripts write them:
an Embedding + 2-layer nn.LSTM(dropout) model trained with nn.CrossEntropyLoss(label_smoothing)
over (batch, time, vocab) logits reshaped to rows, gradient clipping with ops.clip_by_global_norm,
then generation with temperature, top-k filtering through ops.topk + masked_fill, sampling with
ops.multinomial, greedy decoding with argmax, and the hidden state carried between steps."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops

TEXT = "abcdefgh" * 12
VOCAB = sorted(set(TEXT))
STOI = {c: i for i, c in enumerate(VOCAB)}


class CharLM(nn.Cell):
    def __init__(self, vocab, embed=8, hidden=24):
        super().__init__()
        self.embedding = nn.Embedding(vocab, embed)
        self.lstm = nn.LSTM(embed, hidden, num_layers=2, dropout=0.1, batch_first=True)
        self.head = nn.Dense(hidden, vocab)

    def construct(self, tokens, state=None):
        out, state = self.lstm(self.embedding(tokens), state)
        return self.head(out), state


def batches(rng, n, length):
    ids = np.array([STOI[c] for c in TEXT], np.int32)
    starts = rng.integers(0, len(ids) - length - 1, size=n)
    x = np.stack([ids[s:s + length] for s in starts])
    y = np.stack([ids[s + 1:s + length + 1] for s in starts])
    return Tensor(x), Tensor(y)


def top_k_filter(logits, k):
    values, _ = ops.topk(logits, k)
    threshold = values[:, -1:]
    return logits.masked_fill(logits < threshold, float("-inf"))


def generate(model, prompt, steps, temperature=1.0, top_k=None, greedy=False):
    model.set_train(False)
    tokens = Tensor(np.array([[STOI[c] for c in prompt]], np.int32))
    logits, state = model(tokens)
    out = list(prompt)
    for _ in range(steps):
        last = logits[:, -1, :] / temperature
        if top_k is not None:
            last = top_k_filter(last, top_k)
        if greedy:
            next_id = last.argmax(axis=-1).astype(ms.int32)
        else:
            next_id = ops.multinomial(ops.softmax(last, axis=-1), 1).squeeze(-1).astype(ms.int32)
        out.append(VOCAB[int(next_id.asnumpy()[0])])
        logits, state = model(next_id.expand_dims(1), state)
    return "".join(out)


def test_top_k_filter_keeps_the_k_largest():
    logits = Tensor(np.array([[0.1, 2.0, -1.0, 1.5, 0.3]], np.float32))
    filtered = top_k_filter(logits, 2).asnumpy()
    assert np.isfinite(filtered).sum() == 2 and filtered[0, 1] == 2.0 and filtered[0, 3] == 1.5
    probs = ops.softmax(top_k_filter(logits, 2), axis=-1).asnumpy()
    np.testing.assert_allclose(probs[0, [1, 3]], np.exp([2.0, 1.5]) / np.exp([2.0, 1.5]).sum(),
                               rtol=1e-6)
    ms.set_seed(3)
    draws = ops.multinomial(Tensor(probs), 400, replacement=True).asnumpy()
    assert set(np.unique(draws)) <= {1, 3}
    assert abs((draws == 1).mean() - probs[0, 1]) < 0.08


def test_char_lm_learns_the_cycle_and_generates_it():
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    model = CharLM(len(VOCAB))
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    opt = nn.Adam(model.trainable_params(), learning_rate=0.02)

    def forward(x, y):
        logits, _ = model(x)
        return loss_fn(logits.reshape(-1, len(VOCAB)), y.reshape(-1))

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        grads = ops.clip_by_global_norm(grads, 1.0)
        opt(grads)
        return loss

    model.set_train()
    losses = [float(step(*batches(rng, 16, 10)).asnumpy()) for _ in range(60)]
    assert losses[-1] < 0.3 * losses[0]
    assert generate(model, "abc", 10, greedy=True) == "abcdefghabcde"
    ms.set_seed(1)
    sampled = generate(model, "de", 8, temperature=0.5, top_k=2)
    assert len(sampled) == 10 and set(sampled) <= set(VOCAB)
    agree = sum(a == b for a, b in zip(sampled, "defghabcde"))
    assert agree >= 8
