"""A sentiment-style text classifier: nn.Embedding, a bidirectional nn.LSTM(batch_first=True)
whose final hidden states feed a Dense head, trained with a functional step."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class RNNClassifier(nn.Cell):
    def __init__(self, vocab_size, embedding_dim, hidden_dim, output_dim, pad_idx):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=pad_idx)
        self.rnn = nn.LSTM(embedding_dim, hidden_dim, num_layers=1, bidirectional=True,
                           batch_first=True)
        self.fc = nn.Dense(hidden_dim * 2, output_dim)

    def construct(self, inputs):
        embedded = self.embedding(inputs)
        _, (hidden, _) = self.rnn(embedded)
        hidden = ops.concat((hidden[-2, :, :], hidden[-1, :, :]), axis=1)
        return self.fc(hidden)


def make_sequences(n, length, vocab, seed):
    """Class 1 sequences contain the token 1 somewhere; class 0 sequences never do."""
    rng = np.random.default_rng(seed)
    tokens = rng.integers(2, vocab, size=(n, length))
    labels = rng.integers(0, 2, size=n)
    positions = rng.integers(0, length, size=n)
    tokens[labels == 1, positions[labels == 1]] = 1
    return tokens.astype(np.int32), labels.astype(np.float32).reshape(-1, 1)


def test_lstm_classifier_learns_keyword():
    model = RNNClassifier(vocab_size=12, embedding_dim=8, hidden_dim=8, output_dim=1,
                          pad_idx=0)
    loss_fn = nn.BCEWithLogitsLoss()
    optimizer = nn.Adam(model.trainable_params(), learning_rate=0.05)

    def forward_fn(data, label):
        logits = model(data)
        return loss_fn(logits, label)

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)

    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    tokens, labels = make_sequences(64, 6, 12, 0)
    losses = [float(train_step(Tensor(tokens), Tensor(labels)).asnumpy()) for _ in range(60)]
    assert losses[-1] < 0.5 * losses[0]
    test_tokens, test_labels = make_sequences(64, 6, 12, 1)
    model.set_train(False)
    predicted = (ops.sigmoid(model(Tensor(test_tokens))) > 0.5).asnumpy()
    assert (predicted == test_labels.astype(bool)).mean() > 0.8


def test_gru_output_shapes_batch_first():
    gru = nn.GRU(4, 6, num_layers=2, batch_first=True)
    x = Tensor(np.ones((3, 5, 4), np.float32))
    h0 = Tensor(np.zeros((2, 3, 6), np.float32))
    output, hn = gru(x, h0)
    assert output.shape == (3, 5, 6) and hn.shape == (2, 3, 6)
    np.testing.assert_allclose(output.asnumpy()[:, -1], hn.asnumpy()[-1], rtol=1e-6)
