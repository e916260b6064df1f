"""Metric learning as retrieval scripts write it: an embedding network with ops.L2Normalize,
triplets mined in NumPy from class labels, nn.TripletMarginLoss (and ops.triplet_margin_loss),
a pairwise ranking model trained with nn.MarginRankingLoss, ops.cosine_similarity for
retrieval and recall@1 computed with ops.cdist + ops.topk; the losses are checked against
NumPy."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class EmbeddingNet(nn.Cell):
    def __init__(self, in_dim=6, dim=4):
        super().__init__()
        self.body = nn.SequentialCell(nn.Dense(in_dim, 16), nn.ReLU(), nn.Dense(16, dim))
        self.normalize = ops.L2Normalize(axis=1)

    def construct(self, x):
        return self.normalize(self.body(x))


class TripletNet(nn.Cell):
    def __init__(self, embed, margin=0.5):
        super().__init__()
        self.embed = embed
        self.loss = nn.TripletMarginLoss(p=2, margin=margin)

    def construct(self, anchor, positive, negative):
        return self.loss(self.embed(anchor), self.embed(positive), self.embed(negative))


def clusters(n, rng, classes=4, dim=6):
    centres = np.random.default_rng(42).normal(scale=2.5, size=(classes, dim))
    labels = rng.integers(0, classes, size=n)
    return (centres[labels] + rng.normal(size=(n, dim))).astype(np.float32), labels


def mine_triplets(labels, rng):
    anchors, positives, negatives = [], [], []
    for i, label in enumerate(labels):
        same = np.flatnonzero((labels == label) & (np.arange(len(labels)) != i))
        other = np.flatnonzero(labels != label)
        anchors.append(i)
        positives.append(rng.choice(same))
        negatives.append(rng.choice(other))
    return np.array(anchors), np.array(positives), np.array(negatives)


def np_triplet(a, p, n, margin, eps=1e-6):
    d_pos = np.linalg.norm(a - p + eps, axis=1)
    d_neg = np.linalg.norm(a - n + eps, axis=1)
    return np.maximum(d_pos - d_neg + margin, 0).mean()


def test_losses_match_numpy():
    rng = np.random.default_rng(0)
    a, p, n = (rng.normal(size=(5, 3)).astype(np.float32) for _ in range(3))
    loss = nn.TripletMarginLoss(margin=0.7)
    np.testing.assert_allclose(loss(Tensor(a), Tensor(p), Tensor(n)).asnumpy(),
                               np_triplet(a, p, n, 0.7), rtol=1e-5)
    np.testing.assert_allclose(ops.triplet_margin_loss(Tensor(a), Tensor(p), Tensor(n),
                                                       margin=0.7).asnumpy(),
                               np_triplet(a, p, n, 0.7), rtol=1e-5)
    x1, x2 = rng.normal(size=6).astype(np.float32), rng.normal(size=6).astype(np.float32)
    target = np.where(rng.random(6) < 0.5, 1.0, -1.0).astype(np.float32)
    ranking = nn.MarginRankingLoss(margin=0.1, reduction="sum")
    np.testing.assert_allclose(ranking(Tensor(x1), Tensor(x2), Tensor(target)).asnumpy(),
                               np.maximum(-target * (x1 - x2) + 0.1, 0).sum(), rtol=1e-5)
    swapped = nn.TripletMarginLoss(swap=True, reduction="none")(Tensor(a), Tensor(p), Tensor(n))
    d_pn = np.linalg.norm(p - n + 1e-6, axis=1)
    d_an = np.minimum(np.linalg.norm(a - n + 1e-6, axis=1), d_pn)
    np.testing.assert_allclose(swapped.asnumpy(),
                               np.maximum(np.linalg.norm(a - p + 1e-6, axis=1) - d_an + 1, 0),
                               rtol=1e-5)


def recall_at_1(embed, x, labels):
    e = embed(Tensor(x))
    distances = ops.cdist(e, e) + Tensor(np.eye(len(x), dtype=np.float32) * 1e3)
    _, nearest = ops.topk(-distances, 1)
    return float(np.mean(labels[nearest.asnumpy()[:, 0]] == labels))


def test_triplet_training_improves_retrieval():
    ms.set_seed(0)
    rng = np.random.default_rng(0)
    x, labels = clusters(64, rng)
    embed = EmbeddingNet()
    before = recall_at_1(embed, x, labels)
    net = TripletNet(embed)
    train = nn.TrainOneStepCell(net, nn.Adam(net.trainable_params(), learning_rate=0.01))
    losses = []
    for _ in range(40):
        a, p, n = mine_triplets(labels, rng)
        losses.append(float(train(Tensor(x[a]), Tensor(x[p]), Tensor(x[n])).asnumpy()))
    assert np.mean(losses[-5:]) < 0.5 * np.mean(losses[:5])
    test_x, test_labels = clusters(64, np.random.default_rng(1))
    after = recall_at_1(embed, test_x, test_labels)
    assert after > 0.85 and after >= before
    e = embed(Tensor(test_x[:2]))
    np.testing.assert_allclose(ops.norm(e, dim=1).asnumpy(), [1.0, 1.0], rtol=1e-5)
    same = ops.cosine_similarity(e[:1], e[:1]).asnumpy()
    np.testing.assert_allclose(same, [1.0], rtol=1e-5)


def test_pairwise_ranking_model():
    ms.set_seed(1)
    rng = np.random.default_rng(2)
    w_true = rng.normal(size=5).astype(np.float32)
    scorer = nn.Dense(5, 1)
    loss_fn = nn.MarginRankingLoss(margin=0.1)
    opt = nn.SGD(scorer.trainable_params(), learning_rate=0.1)

    def forward(a, b, target):
        return loss_fn(scorer(a).squeeze(-1), scorer(b).squeeze(-1), target)

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)
    for _ in range(60):
        a = rng.normal(size=(32, 5)).astype(np.float32)
        b = rng.normal(size=(32, 5)).astype(np.float32)
        target = np.sign(a @ w_true - b @ w_true).astype(np.float32)
        _, grads = grad_fn(Tensor(a), Tensor(b), Tensor(target))
        opt(grads)
    learned = scorer.weight.asnumpy()[0]
    cosine = learned @ w_true / np.linalg.norm(learned) / np.linalg.norm(w_true)
    assert cosine > 0.9
