"""A matrix-factorisation recommender and a bag-of-words classifier on nn.Embedding: gathers by
id Tensors, padding_idx rows that stay zero, a sigmoid BCE loss with explicit user/item biases,
and embedding gradients that add up over repeated ids (checked against NumPy)."""
import numpy as np

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops


class MatrixFactorization(nn.Cell):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)
        self.user_bias = nn.Embedding(n_users, 1)
        self.item_bias = nn.Embedding(n_items, 1)
        self.global_bias = Parameter(Tensor(np.zeros(1, np.float32)), name="global_bias")

    def construct(self, users, items):
        dot = (self.user(users) * self.item(items)).sum(axis=-1)
        bias = self.user_bias(users).squeeze(-1) + self.item_bias(items).squeeze(-1)
        return dot + bias + self.global_bias


class BagOfWords(nn.Cell):
    def __init__(self, vocab, dim, classes):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.fc = nn.Dense(dim, classes)

    def construct(self, tokens):
        mask = ops.cast(tokens != 0, ms.float32)
        summed = (self.embed(tokens) * mask.expand_dims(-1)).sum(axis=1)
        count = ops.maximum(mask.sum(axis=1, keepdims=True), 1.0)
        return self.fc(summed / count)


def test_embedding_gradient_accumulates_repeated_ids():
    table = nn.Embedding(5, 3)
    ids = Tensor(np.array([[1, 1], [4, 1]], np.int32))
    weights = np.arange(12, dtype=np.float32).reshape(2, 2, 3)
    grad = ms.grad(lambda t: (table(t) * Tensor(weights)).sum(), None,
                   table.trainable_params())(ids)[0]
    expected = np.zeros((5, 3), np.float32)
    np.add.at(expected, ids.asnumpy().reshape(-1), weights.reshape(-1, 3))
    np.testing.assert_allclose(grad.asnumpy(), expected)


def test_matrix_factorization_fits_ratings():
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    n_users, n_items = 20, 15
    true_u, true_v = rng.normal(size=(n_users, 2)), rng.normal(size=(n_items, 2))
    users = rng.integers(0, n_users, size=200).astype(np.int32)
    items = rng.integers(0, n_items, size=200).astype(np.int32)
    ratings = ((true_u[users] * true_v[items]).sum(1) > 0).astype(np.float32)
    model = MatrixFactorization(n_users, n_items, 4)
    loss_fn = nn.BCEWithLogitsLoss()
    opt = nn.Adam(model.trainable_params(), learning_rate=0.05)
    grad_fn = ms.value_and_grad(lambda u, i, r: loss_fn(model(u, i), r), None, opt.parameters)

    @ms.jit
    def step(u, i, r):
        loss, grads = grad_fn(u, i, r)
        opt(grads)
        return loss

    u, i, r = Tensor(users), Tensor(items), Tensor(ratings)
    losses = [float(step(u, i, r).asnumpy()) for _ in range(150)]
    assert losses[-1] < 0.3 * losses[0]
    accuracy = ((model(u, i).asnumpy() > 0) == (ratings > 0.5)).mean()
    assert accuracy > 0.9


def test_bag_of_words_keeps_padding_row_zero():
    ms.set_seed(1)
    rng = np.random.default_rng(1)
    tokens = rng.integers(1, 10, size=(64, 6)).astype(np.int32)
    tokens[:, 4:] = 0  # padding
    labels = (tokens[:, :4] >= 5).sum(1) >= 2
    net = BagOfWords(10, 8, 2)
    assert np.all(net.embed.embedding_table.asnumpy()[0] == 0)
    train = nn.TrainOneStepCell(
        nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
        nn.Adam(net.trainable_params(), 0.05))
    x, y = Tensor(tokens), Tensor(labels.astype(np.int32))
    losses = [float(train(x, y).asnumpy()) for _ in range(80)]
    assert losses[-1] < 0.5 * losses[0]
    assert np.all(net.embed.embedding_table.asnumpy()[0] == 0)
