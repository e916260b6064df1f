"""The model zoo's TextCNN: Embedding, ExpandDims to NCHW, three Conv2d branches whose kernels
span the embedding width, ReLU, ReduceMax over time, Concat, Dropout and Dense; a
GeneratorDataset over a random-access source with map and batch; Model(net, loss, opt,
metrics={"acc"}), model.train with LossMonitor, TimeMonitor and ModelCheckpoint, and
model.eval; the checkpoint reloads into a fresh network with the same predictions."""
import os

import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import Tensor, nn, ops
from cellgraph.train.callback import CheckpointConfig, LossMonitor, ModelCheckpoint, TimeMonitor

VOCAB, LENGTH, EMBED = 20, 10, 8


class TextCNN(nn.Cell):
    def __init__(self, vocab_len, word_len, num_classes, vec_length, dropout=0.5):
        super().__init__()
        self.vec_length = vec_length
        self.word_len = word_len
        self.num_classes = num_classes
        self.unsqueeze = ops.ExpandDims()
        self.embedding = nn.Embedding(vocab_len, self.vec_length, embedding_table="normal")
        self.slice = ops.Slice()
        self.layer1 = self.make_layer(kernel_height=2)
        self.layer2 = self.make_layer(kernel_height=3)
        self.layer3 = self.make_layer(kernel_height=4)
        self.concat = ops.Concat(1)
        self.fc = nn.Dense(3 * 6, self.num_classes)
        self.drop = nn.Dropout(p=dropout)
        self.reducemax = ops.ReduceMax(keep_dims=False)

    def make_layer(self, kernel_height):
        return nn.SequentialCell([
            nn.Conv2d(in_channels=1, out_channels=6, kernel_size=(kernel_height,
                                                                  self.vec_length),
                      pad_mode="valid", has_bias=True),
            nn.ReLU(),
        ])

    def construct(self, x):
        x = self.unsqueeze(x, 1)
        x = self.embedding(x)
        x1 = self.layer1(x)
        x2 = self.layer2(x)
        x3 = self.layer3(x)
        x1 = self.reducemax(x1, (2, 3))
        x2 = self.reducemax(x2, (2, 3))
        x3 = self.reducemax(x3, (2, 3))
        x = self.concat((x1, x2, x3))
        x = self.drop(x)
        return self.fc(x)


class SentenceSource:
    """Class 1 sentences contain the bigram (3, 4); class 0 sentences never do."""

    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.data = rng.integers(5, VOCAB, size=(n, LENGTH)).astype(np.int32)
        self.label = rng.integers(0, 2, size=n).astype(np.int32)
        starts = rng.integers(0, LENGTH - 1, size=n)
        for row, label, start in zip(self.data, self.label, starts):
            if label:
                row[start:start + 2] = (3, 4)

    def __getitem__(self, index):
        return self.data[index], self.label[index]

    def __len__(self):
        return len(self.label)


def create_dataset(n, seed, batch_size, shuffle):
    dataset = ds.GeneratorDataset(SentenceSource(n, seed), column_names=["data", "label"],
                                  shuffle=shuffle)
    dataset = dataset.map(operations=lambda y: y.astype(np.int32), input_columns="label")
    return dataset.batch(batch_size, drop_remainder=True)


def test_textcnn_shapes_and_branch_widths():
    net = TextCNN(VOCAB, LENGTH, 2, EMBED)
    x = Tensor(np.random.default_rng(0).integers(0, VOCAB, (3, LENGTH)).astype(np.int32))
    net.set_train(False)
    assert net(x).shape == (3, 2)
    assert net.layer3[0].weight.shape == (6, 1, 4, EMBED)
    embedded = net.embedding(net.unsqueeze(x, 1))
    assert embedded.shape == (3, 1, LENGTH, EMBED)
    assert net.layer1(embedded).shape == (3, 6, LENGTH - 1, 1)


def test_textcnn_model_train_eval_and_checkpoint(tmp_path, capsys):
    ms.set_seed(5)
    net = TextCNN(VOCAB, LENGTH, 2, EMBED, dropout=0.1)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Adam(net.trainable_params(), learning_rate=0.01, weight_decay=1e-4)
    model = ms.Model(net, loss_fn=loss, optimizer=opt, metrics={"acc"})
    train_ds = create_dataset(128, 0, 16, shuffle=True)
    eval_ds = create_dataset(64, 1, 16, shuffle=False)
    assert train_ds.get_dataset_size() == 8
    before = model.eval(eval_ds)["acc"]
    config = CheckpointConfig(save_checkpoint_steps=8, keep_checkpoint_max=2)
    ckpt = ModelCheckpoint(prefix="textcnn", directory=str(tmp_path), config=config)
    model.train(4, train_ds, callbacks=[TimeMonitor(), LossMonitor(4), ckpt],
                dataset_sink_mode=False)
    printed = capsys.readouterr().out
    assert "epoch: 4 step: 8" in printed and "loss is" in printed
    after = model.eval(eval_ds)["acc"]
    assert after > 0.9 and after > before
    files = sorted(f for f in os.listdir(tmp_path) if f.endswith(".ckpt"))
    assert files == ["textcnn-3_8.ckpt", "textcnn-4_8.ckpt"]

    fresh = TextCNN(VOCAB, LENGTH, 2, EMBED)
    param_dict = ms.load_checkpoint(str(tmp_path / "textcnn-4_8.ckpt"))
    with pytest.warns(UserWarning):
        not_loaded, unused = ms.load_param_into_net(fresh, param_dict)
    assert not_loaded == []
    assert "moment1.fc.weight" in unused and "global_step" in unused
    net.set_train(False)
    fresh.set_train(False)
    x = Tensor(SentenceSource(8, 7).data)
    np.testing.assert_allclose(fresh(x).asnumpy(), net(x).asnumpy(), rtol=1e-6)
