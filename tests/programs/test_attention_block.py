"""A BERT-style encoder layer as model-zoo code writes it: primitive instances (BatchMatMul,
Softmax, Transpose, Reshape, Mul) in __init__, an additive attention mask, LayerNorm, Dropout
that is active only in training, GELU, stacked in a CellList; trained on a toy copy task."""
import math

import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph import dtype as mstype


class MultiHeadAttention(nn.Cell):
    def __init__(self, hidden, heads, dropout=0.1):
        super().__init__()
        self.heads = heads
        self.size_per_head = hidden // heads
        self.query = nn.Dense(hidden, hidden)
        self.key = nn.Dense(hidden, hidden)
        self.value = nn.Dense(hidden, hidden)
        self.out = nn.Dense(hidden, hidden)
        self.matmul_trans_b = ops.BatchMatMul(transpose_b=True)
        self.matmul = ops.BatchMatMul()
        self.softmax = ops.Softmax(axis=-1)
        self.transpose = ops.Transpose()
        self.reshape = ops.Reshape()
        self.multiply = ops.Mul()
        self.scale = 1.0 / math.sqrt(float(self.size_per_head))
        self.dropout = nn.Dropout(p=dropout)
        self.perm = (0, 2, 1, 3)

    def split_heads(self, x, batch, seq):
        x = self.reshape(x, (batch, seq, self.heads, self.size_per_head))
        return self.transpose(x, self.perm)

    def construct(self, x, attention_mask):
        batch, seq, hidden = x.shape
        q = self.split_heads(self.query(x), batch, seq)
        k = self.split_heads(self.key(x), batch, seq)
        v = self.split_heads(self.value(x), batch, seq)
        scores = self.multiply(self.matmul_trans_b(q, k), self.scale)
        adder = (1.0 - ops.expand_dims(attention_mask, 1)) * -10000.0
        scores = scores + ops.expand_dims(adder, 1)
        probs = self.dropout(self.softmax(scores))
        context = self.transpose(self.matmul(probs, v), self.perm)
        context = self.reshape(context, (batch, seq, hidden))
        return self.out(context)


class EncoderLayer(nn.Cell):
    def __init__(self, hidden, heads, intermediate):
        super().__init__()
        self.attention = MultiHeadAttention(hidden, heads)
        self.norm1 = nn.LayerNorm((hidden,), epsilon=1e-12)
        self.ffn = nn.SequentialCell([nn.Dense(hidden, intermediate), nn.GELU(),
                                      nn.Dense(intermediate, hidden)])
        self.norm2 = nn.LayerNorm((hidden,), epsilon=1e-12)
        self.dropout = nn.Dropout(p=0.1)

    def construct(self, x, mask):
        x = self.norm1(x + self.dropout(self.attention(x, mask)))
        return self.norm2(x + self.dropout(self.ffn(x)))


class TinyEncoder(nn.Cell):
    def __init__(self, vocab, hidden=16, heads=2, layers=2, seq=6):
        super().__init__()
        self.embedding = ms.Parameter(Tensor(np.random.default_rng(0).normal(
            0, 0.5, size=(vocab, hidden)).astype(np.float32)), name="embedding_table")
        self.position = ms.Parameter(Tensor(np.zeros((1, seq, hidden), np.float32)),
                                     name="position")
        self.layers = nn.CellList([EncoderLayer(hidden, heads, 32) for _ in range(layers)])
        self.gather = ops.Gather()
        self.head = nn.Dense(hidden, vocab)

    def construct(self, ids, mask):
        x = self.gather(self.embedding, ids, 0) + self.position
        for layer in self.layers:
            x = layer(x, mask)
        return self.head(x)


def test_masked_positions_do_not_change_the_output():
    layer = MultiHeadAttention(8, 2, dropout=0.0)
    layer.set_train(False)
    rng = np.random.default_rng(1)
    x = rng.normal(size=(2, 5, 8)).astype(np.float32)
    mask = np.ones((2, 5), np.float32)
    mask[:, 3:] = 0
    out = layer(Tensor(x), Tensor(mask)).asnumpy()
    x2 = x.copy()
    x2[:, 3:] = rng.normal(size=(2, 2, 8))
    out2 = layer(Tensor(x2), Tensor(mask)).asnumpy()
    np.testing.assert_allclose(out[:, :3], out2[:, :3], rtol=1e-5, atol=1e-5)


def test_encoder_learns_to_reverse_sequences():
    ms.set_seed(0)
    vocab, seq = 6, 6
    rng = np.random.default_rng(0)
    ids = rng.integers(0, vocab, size=(32, seq)).astype(np.int32)
    target = ids[:, ::-1].copy()
    mask = np.ones((32, seq), np.float32)
    net = TinyEncoder(vocab, seq=seq)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.AdamWeightDecay(net.trainable_params(), learning_rate=1e-2,
                                   weight_decay=0.01)

    def forward(x, m, y):
        logits = net(x, m)
        return loss_fn(logits.reshape(-1, vocab), y.reshape(-1))

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    @ms.jit
    def step(x, m, y):
        loss, grads = grad_fn(x, m, y)
        grads = ops.clip_by_global_norm(grads, 1.0)
        optimizer(grads)
        return loss

    net.set_train()
    losses = [float(step(Tensor(ids), Tensor(mask), Tensor(target)).asnumpy())
              for _ in range(150)]
    assert losses[-1] < 0.2 * losses[0]
    net.set_train(False)
    predicted = net(Tensor(ids), Tensor(mask)).argmax(-1).asnumpy()
    assert (predicted == target).mean() > 0.9
    assert net(Tensor(ids), Tensor(mask)).dtype == mstype.float32
