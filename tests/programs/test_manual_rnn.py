"""A character-level recurrent model written by hand, as tutorials do before nn.RNN: a cell of
Dense layers stepped by a Python `for` over the time axis inside construct, teacher forcing,
gradient through time checked against finite differences, and training that learns a
repeating sequence; the same construct with an `if self.training` branch and a Tensor while
loop for greedy generation."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.testing import check_grads


class ElmanCell(nn.Cell):
    def __init__(self, input_size, hidden_size, dtype=ms.float32):
        super().__init__()
        self.ih = nn.Dense(input_size, hidden_size, dtype=dtype)
        self.hh = nn.Dense(hidden_size, hidden_size, has_bias=False, dtype=dtype)
        self.tanh = nn.Tanh()

    def construct(self, x, h):
        return self.tanh(self.ih(x) + self.hh(h))


class CharRNN(nn.Cell):
    def __init__(self, vocab, hidden, seq_len, dtype=ms.float32):
        super().__init__()
        self.vocab, self.hidden, self.seq_len = vocab, hidden, seq_len
        self.cell = ElmanCell(vocab, hidden, dtype)
        self.out = nn.Dense(hidden, vocab, dtype=dtype)
        self.dropout = nn.Dropout(p=0.1)
        self.dtype = dtype

    def construct(self, x):
        batch = x.shape[0]
        h = ops.zeros((batch, self.hidden), self.dtype)
        logits = []
        for t in range(self.seq_len):
            h = self.cell(x[:, t, :], h)
            step = self.out(h)
            if self.training:
                step = self.dropout(step)
            logits.append(step)
        return ops.stack(logits, axis=1)


def one_hot(ids, vocab):
    return np.eye(vocab, dtype=np.float32)[ids]


def test_gradient_through_time_matches_finite_differences():
    net = CharRNN(3, 4, 5, dtype=ms.float64)
    net.set_train(False)
    x = Tensor(one_hot(np.array([[0, 1, 2, 1, 0]]), 3).astype(np.float64))
    check_grads(lambda inputs: (net(inputs) ** 2).sum(), (x,), order=1)
    weight = net.cell.hh.weight
    grads = ms.grad(lambda inputs: (net(inputs) ** 2).sum(), None, [weight])(x)
    original = weight.asnumpy().copy()
    eps = 1e-6
    bumped = original.copy()
    bumped[1, 2] += eps
    weight.set_data(Tensor(bumped))
    up = float((net(x) ** 2).sum().asnumpy())
    bumped[1, 2] -= 2 * eps
    weight.set_data(Tensor(bumped))
    down = float((net(x) ** 2).sum().asnumpy())
    weight.set_data(Tensor(original))
    np.testing.assert_allclose(grads[0].asnumpy()[1, 2], (up - down) / (2 * eps), rtol=1e-5)


def test_learns_a_repeating_sequence():
    ms.set_seed(0)
    vocab, seq_len = 4, 8
    pattern = np.array([0, 1, 2, 3] * 3)
    starts = np.arange(4)
    inputs = np.stack([pattern[s:s + seq_len] for s in starts])
    targets = np.stack([pattern[s + 1:s + seq_len + 1] for s in starts]).astype(np.int32)
    net = CharRNN(vocab, 16, seq_len)
    loss_fn = nn.CrossEntropyLoss()
    opt = nn.Adam(net.trainable_params(), learning_rate=0.03)

    def forward(x, y):
        return loss_fn(net(x).reshape(-1, vocab), y.reshape(-1))

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)
    x, y = Tensor(one_hot(inputs, vocab)), Tensor(targets)
    net.set_train()
    for _ in range(80):
        _, grads = grad_fn(x, y)
        opt(grads)
    net.set_train(False)
    predicted = net(x).argmax(-1).asnumpy()
    assert (predicted == targets).mean() > 0.95


class Generator(nn.Cell):
    """Greedy generation with a Tensor-dependent while loop: step until the model emits the
    stop token or the length limit is reached."""

    def __init__(self, rnn, stop_token, max_len):
        super().__init__()
        self.rnn = rnn
        self.stop_token = stop_token
        self.max_len = max_len
        self.eye = Tensor(np.eye(rnn.vocab, dtype=np.float32))

    def construct(self, first):
        h = ops.zeros((1, self.rnn.hidden), ms.float32)
        token = first
        length = Tensor(0, ms.int32)
        while token != self.stop_token and length < self.max_len:
            h = self.rnn.cell(self.eye[token].reshape(1, -1), h)
            token = self.rnn.out(h).argmax(-1).reshape(())
            length = length + 1
        return length


def test_greedy_generation_loop():
    ms.set_seed(0)
    vocab = 4
    pattern = np.array([0, 1, 2, 3] * 3)
    net = CharRNN(vocab, 16, 8)
    inputs = np.stack([pattern[s:s + 8] for s in range(4)])
    targets = np.stack([pattern[s + 1:s + 9] for s in range(4)]).astype(np.int32)
    train = nn.TrainOneStepCell(nn.WithLossCell(
        net, _FlatLoss(vocab)), nn.Adam(net.trainable_params(), 0.03))
    for _ in range(80):
        train(Tensor(one_hot(inputs, vocab)), Tensor(targets))
    net.set_train(False)
    generate = Generator(net, stop_token=3, max_len=10)
    # from 0 the learnt cycle reaches token 3 after three steps: 1, 2, 3
    assert int(generate(Tensor(0, ms.int64)).asnumpy()) == 3
    assert int(generate(Tensor(3, ms.int64)).asnumpy()) == 0


class _FlatLoss(nn.Cell):
    def __init__(self, vocab):
        super().__init__()
        self.vocab = vocab
        self.ce = nn.CrossEntropyLoss()

    def construct(self, logits, labels):
        return self.ce(logits.reshape(-1, self.vocab), labels.reshape(-1))
