"""The MindSpore sequence-labelling tutorial's BiLSTM-CRF: an Embedding + bidirectional
nn.LSTM emission network, a CRF cell whose transitions are a Parameter initialised with
initializer('uniform'), the normaliser computed by a forward recursion over time with
ops.logsumexp and a sequence-length mask, the gold score from gathered emissions and
transitions, and Viterbi decoding in NumPy over the learned parameters. The CRF likelihood is
checked against brute-force enumeration of every tag path."""
import itertools

import numpy as np

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.common.initializer import initializer


def sequence_mask(seq_length, max_length, batch_first=False):
    range_vector = ops.arange(0, max_length, 1, dtype=seq_length.dtype)
    result = range_vector < seq_length.view(seq_length.shape + (1,))
    if batch_first:
        return result.astype(ms.int64)
    return result.astype(ms.int64).swapaxes(0, 1)


class CRF(nn.Cell):
    def __init__(self, num_tags, batch_first=False, reduction="sum"):
        super().__init__()
        self.num_tags = num_tags
        self.batch_first = batch_first
        self.reduction = reduction
        self.start_transitions = Parameter(initializer("uniform", (num_tags,), ms.float32),
                                           name="start_transitions")
        self.end_transitions = Parameter(initializer("uniform", (num_tags,), ms.float32),
                                         name="end_transitions")
        self.transitions = Parameter(initializer("uniform", (num_tags, num_tags), ms.float32),
                                     name="transitions")

    def construct(self, emissions, tags, seq_length):
        if self.batch_first:
            emissions = emissions.swapaxes(0, 1)
            tags = tags.swapaxes(0, 1)
        mask = sequence_mask(seq_length, emissions.shape[0])
        numerator = self._score(emissions, tags, mask)
        denominator = self._normalizer(emissions, mask)
        llh = denominator - numerator
        if self.reduction == "sum":
            return llh.sum()
        return llh.mean()

    def _score(self, emissions, tags, mask):
        seq_length, batch_size = tags.shape
        mask = mask.astype(emissions.dtype)
        score = self.start_transitions[tags[0]]
        score += emissions[0, ops.arange(batch_size), tags[0]]
        for i in range(1, seq_length):
            score += self.transitions[tags[i - 1], tags[i]] * mask[i]
            score += emissions[i, ops.arange(batch_size), tags[i]] * mask[i]
        seq_ends = mask.sum(axis=0).astype(ms.int64) - 1
        last_tags = tags[seq_ends, ops.arange(batch_size)]
        score += self.end_transitions[last_tags]
        return score

    def _normalizer(self, emissions, mask):
        seq_length = emissions.shape[0]
        score = self.start_transitions + emissions[0]
        for i in range(1, seq_length):
            broadcast_score = score.expand_dims(2)
            broadcast_emissions = emissions[i].expand_dims(1)
            next_score = broadcast_score + self.transitions + broadcast_emissions
            next_score = ops.logsumexp(next_score, dim=1)
            score = ops.where(mask[i].expand_dims(1).astype(ms.bool_), next_score, score)
        score += self.end_transitions
        return ops.logsumexp(score, dim=1)


class BiLSTM_CRF(nn.Cell):
    def __init__(self, vocab_size, embedding_dim, hidden_dim, num_tags, padding_idx=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=padding_idx)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim // 2, bidirectional=True,
                            batch_first=True)
        self.hidden2tag = nn.Dense(hidden_dim, num_tags, "he_uniform")
        self.crf = CRF(num_tags, batch_first=True)

    def emissions(self, inputs, seq_length):
        embeds = self.embedding(inputs)
        outputs, _ = self.lstm(embeds, seq_length=seq_length)
        return self.hidden2tag(ops.tanh(outputs))

    def construct(self, inputs, seq_length, tags):
        return self.crf(self.emissions(inputs, seq_length), tags, seq_length)


def brute_force_nll(emissions, tags, length, start, end, trans):
    def path_score(path):
        s = start[path[0]] + emissions[0, path[0]]
        for i in range(1, length):
            s += trans[path[i - 1], path[i]] + emissions[i, path[i]]
        return s + end[path[length - 1]]
    num_tags = emissions.shape[1]
    scores = [path_score(p) for p in itertools.product(range(num_tags), repeat=length)]
    log_z = np.log(np.sum(np.exp(scores)))
    return log_z - path_score(tags[:length])


def viterbi(emissions, length, start, end, trans):
    score = start + emissions[0]
    history = []
    for i in range(1, length):
        total = score[:, None] + trans + emissions[i][None, :]
        history.append(total.argmax(0))
        score = total.max(0)
    score = score + end
    best = [int(score.argmax())]
    for back in reversed(history):
        best.append(int(back[best[-1]]))
    return best[::-1]


def test_crf_nll_matches_enumeration_with_padding():
    crf = CRF(3, batch_first=True, reduction="sum")
    rng = np.random.default_rng(0)
    emissions = rng.normal(size=(2, 4, 3)).astype(np.float32)
    tags = np.array([[0, 2, 1, 1], [2, 2, 0, 0]], np.int64)
    lengths = np.array([4, 2], np.int64)
    got = crf(Tensor(emissions), Tensor(tags), Tensor(lengths))
    start = crf.start_transitions.asnumpy()
    end = crf.end_transitions.asnumpy()
    trans = crf.transitions.asnumpy()
    expected = sum(brute_force_nll(emissions[b], tags[b], lengths[b], start, end, trans)
                   for b in range(2))
    np.testing.assert_allclose(got.asnumpy(), expected, rtol=1e-5)


def test_bilstm_crf_learns_tags():
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    vocab, num_tags, length = 8, 3, 5
    # tag = token class: tokens 1-2 -> tag 0, 3-5 -> tag 1, 6-7 -> tag 2
    token_tag = np.array([0, 0, 0, 1, 1, 1, 2, 2])
    tokens = rng.integers(1, vocab, size=(12, length)).astype(np.int64)
    lengths = rng.integers(3, length + 1, size=12).astype(np.int64)
    for row, n in zip(tokens, lengths):
        row[n:] = 0
    tags = token_tag[tokens]
    model = BiLSTM_CRF(vocab, 8, 12, num_tags)
    optimizer = nn.SGD(model.trainable_params(), learning_rate=0.02)
    grad_fn = ms.value_and_grad(model, None, optimizer.parameters)

    def train_step(data, seq_length, label):
        loss, grads = grad_fn(data, seq_length, label)
        optimizer(grads)
        return loss

    data, seq, label = Tensor(tokens), Tensor(lengths), Tensor(tags)
    losses = [float(train_step(data, seq, label).asnumpy()) for _ in range(40)]
    assert losses[-1] < 0.3 * losses[0]
    emissions = model.emissions(data, seq).asnumpy()
    params = [model.crf.start_transitions.asnumpy(), model.crf.end_transitions.asnumpy(),
              model.crf.transitions.asnumpy()]
    correct = total = 0
    for b in range(12):
        n = int(lengths[b])
        path = viterbi(emissions[b], n, *params)
        correct += int(np.sum(np.array(path) == tags[b, :n]))
        total += n
    assert correct / total > 0.9
