"""A graph convolutional network written with message passing, as GNN code on MindSpore does:
edge lists as int32 Tensors, node features gathered by source id, messages scaled by the
symmetric degree normalisation and summed into destination nodes with ops.unsorted_segment_sum
(ops.UnsortedSegmentSum in 1.x code), a max-pooling readout with ops.unsorted_segment_max;
semi-supervised training with a label mask on a two-community graph. The layer is checked
against the dense NumPy formula D^-1/2 (A + I) D^-1/2 X W."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class GCNConv(nn.Cell):
    def __init__(self, in_feat, out_feat, activation=None):
        super().__init__()
        self.fc = nn.Dense(in_feat, out_feat, has_bias=False, weight_init="XavierUniform")
        self.bias = ms.Parameter(ops.zeros(out_feat, ms.float32), name="bias")
        self.activation = activation
        self.segment_sum = ops.UnsortedSegmentSum()

    def construct(self, x, src, dst, norm, num_nodes):
        h = self.fc(x)
        messages = ops.gather(h, src, 0) * norm.expand_dims(1)
        out = self.segment_sum(messages, dst, num_nodes) + self.bias
        if self.activation is not None:
            out = self.activation(out)
        return out


class GCN(nn.Cell):
    def __init__(self, in_feat, hidden, classes, num_nodes):
        super().__init__()
        self.num_nodes = num_nodes
        self.conv1 = GCNConv(in_feat, hidden, nn.ReLU())
        self.conv2 = GCNConv(hidden, classes)
        self.dropout = nn.Dropout(p=0.2)

    def construct(self, x, src, dst, norm):
        h = self.conv1(x, src, dst, norm, self.num_nodes)
        h = self.dropout(h)
        return self.conv2(h, src, dst, norm, self.num_nodes)


class MaskedLoss(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="none")

    def construct(self, x, src, dst, norm, label, mask):
        logits = self.net(x, src, dst, norm)
        per_node = self.loss(logits, label)
        return (per_node * mask).sum() / mask.sum()


def two_communities(n=20, seed=0):
    rng = np.random.default_rng(seed)
    community = np.repeat([0, 1], n // 2)
    edges = set()
    for i in range(n):
        for j in range(i + 1, n):
            p = 0.5 if community[i] == community[j] else 0.03
            if rng.random() < p:
                edges.add((i, j))
                edges.add((j, i))
    edges |= {(i, i) for i in range(n)}              # self loops: A + I
    src, dst = np.array(sorted(edges)).T
    degree = np.bincount(dst, minlength=n).astype(np.float32)
    norm = (1 / np.sqrt(degree[src] * degree[dst])).astype(np.float32)
    features = rng.normal(size=(n, 4)).astype(np.float32)
    features[:, 0] += community * 1.0                # a weak feature signal
    return features, src.astype(np.int32), dst.astype(np.int32), norm, community


def test_message_passing_layer_matches_dense_formula():
    x, src, dst, norm, _ = two_communities()
    n = len(x)
    conv = GCNConv(4, 3)
    out = conv(Tensor(x), Tensor(src), Tensor(dst), Tensor(norm), n).asnumpy()
    adjacency = np.zeros((n, n), np.float32)
    adjacency[dst, src] = 1.0
    degree = adjacency.sum(1)
    a_hat = adjacency / np.sqrt(degree[:, None] * degree[None, :])
    expected = a_hat @ x @ conv.fc.weight.asnumpy().T
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_segment_max_readout_per_graph():
    node_features = Tensor(np.array([[1.0, 5.0], [3.0, 2.0], [0.0, 9.0], [4.0, 4.0]],
                                    np.float32))
    graph_id = Tensor(np.array([0, 0, 1, 1], np.int32))
    pooled = ops.unsorted_segment_max(node_features, graph_id, 2)
    np.testing.assert_array_equal(pooled.asnumpy(), [[3.0, 5.0], [4.0, 9.0]])
    summed = ops.unsorted_segment_sum(node_features, graph_id, 2)
    np.testing.assert_array_equal(summed.asnumpy(), [[4.0, 7.0], [4.0, 13.0]])


def test_gcn_semi_supervised_node_classification():
    ms.set_seed(0)
    x, src, dst, norm, community = two_communities()
    n = len(x)
    mask = np.zeros(n, np.float32)
    mask[[0, 1, 10, 11]] = 1.0                       # two labelled nodes per community
    net = GCN(4, 8, 2, n)
    loss_net = MaskedLoss(net)
    opt = nn.Adam(net.trainable_params(), learning_rate=0.05, weight_decay=5e-4)
    train = nn.TrainOneStepCell(loss_net, opt)
    train.set_train()
    inputs = (Tensor(x), Tensor(src), Tensor(dst), Tensor(norm))
    labels, label_mask = Tensor(community.astype(np.int32)), Tensor(mask)
    losses = [float(train(*inputs, labels, label_mask).asnumpy()) for _ in range(50)]
    assert losses[-1] < 0.2 * losses[0]
    net.set_train(False)
    predicted = net(*inputs).argmax(axis=1).asnumpy()
    unlabelled = mask == 0
    # 16 unlabelled nodes from 4 labelled ones: at least 12 right (chance is 8)
    assert np.mean(predicted[unlabelled] == community[unlabelled]) >= 0.75
