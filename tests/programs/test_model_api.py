"""The Model API the way 1.x and 2.x scripts use it: dataset sink mode left at its default,
Model over a WithLossCell with no loss_fn, eval_network + eval_indexes, model.predict,
model.fit with a validation set and EarlyStopping, History, and TimeMonitor output."""
import numpy as np

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import Tensor, nn
from cellgraph.train import EarlyStopping, History, LossMonitor, Model, TimeMonitor


def blobs(n, seed):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 3, size=n).astype(np.int32)
    centers = np.array([[2.0, 0.0], [-2.0, 0.0], [0.0, 2.5]], np.float32)
    x = (centers[labels] + 0.6 * rng.normal(size=(n, 2))).astype(np.float32)
    return x, labels


def make_dataset(n, seed, batch_size=16):
    x, y = blobs(n, seed)
    return ds.NumpySlicesDataset({"data": x, "label": y}, shuffle=True).batch(batch_size)


class Classifier(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(2, 16, activation="relu")
        self.fc2 = nn.Dense(16, 3)

    def construct(self, x):
        return self.fc2(self.fc1(x))


def test_default_sink_mode_and_predict(capsys):
    ms.set_seed(0)
    net = Classifier()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    model = Model(net, loss_fn=loss, optimizer=opt, metrics={"acc", "loss"})
    train_set = make_dataset(96, 0)
    model.train(5, train_set, callbacks=[LossMonitor(), TimeMonitor()])
    result = model.eval(make_dataset(48, 1))
    assert result["acc"] > 0.9 and result["loss"] < 0.5
    printed = capsys.readouterr().out
    assert "epoch: 5 step: 6, loss is" in printed
    x, y = blobs(8, 2)
    logits = model.predict(Tensor(x))
    assert logits.shape == (8, 3)
    assert (logits.asnumpy().argmax(1) == y).mean() >= 0.75


def test_model_over_with_loss_cell_and_eval_network():
    ms.set_seed(1)
    net = Classifier()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    net_with_loss = nn.WithLossCell(net, loss)
    eval_net = nn.WithEvalCell(net, loss)
    opt = nn.Adam(net.trainable_params(), learning_rate=0.02)
    model = Model(net_with_loss, optimizer=opt, eval_network=eval_net, eval_indexes=[0, 1, 2],
                  metrics={"acc": nn.Accuracy(), "loss": nn.Loss()})
    history = History()
    model.train(6, make_dataset(96, 0), callbacks=[history], dataset_sink_mode=False)
    losses = history.history["net_output"]
    assert len(losses) == 6 and losses[-1] < losses[0]
    result = model.eval(make_dataset(48, 1), dataset_sink_mode=False)
    assert result["acc"] > 0.9


def test_fit_with_validation_and_early_stopping():
    ms.set_seed(2)
    net = Classifier()
    model = Model(net, nn.CrossEntropyLoss(), nn.Adam(net.trainable_params(), 0.05),
                  metrics={"accuracy"})
    stopper = EarlyStopping(monitor="accuracy", mode="max", patience=2, min_delta=0.0)
    history = History()
    model.fit(40, make_dataset(96, 0), make_dataset(48, 1), callbacks=[stopper, history],
              dataset_sink_mode=False)
    epochs_run = len(history.history["net_output"])
    assert epochs_run < 40
    assert model.eval(make_dataset(48, 1))["accuracy"] > 0.9
