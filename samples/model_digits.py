"""LeNet on the digits through a dataset pipeline, trained by Model.train with callbacks.

The MindSpore way of writing a training program: the data go through a `dataset` pipeline
(NumpySlicesDataset -> map with vision transforms -> batch), the network, loss and optimizer
go into a `Model`, and `model.train` runs the epochs while callbacks report: LossMonitor prints
`epoch: 1 step: 44, loss is 0.52`, TimeMonitor the time per epoch and per step, and
ModelCheckpoint saves the parameters after every epoch. `model.eval` gives the test accuracy
(about 98 %). Needs scikit-learn for the data: `pip install 'cellgraph[samples]'`.
"""
import numpy as np
from lenet_digits import LeNet, load_digits_data

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import nn
from cellgraph.dataset import transforms, vision
from cellgraph.train import (
    CheckpointConfig,
    History,
    LossMonitor,
    Model,
    ModelCheckpoint,
    TimeMonitor,
)


def load_digit_images(seed=0):
    """The digits as HWC uint8 images with values 0..16 (as scikit-learn stores them) and
    their labels, split into a training and a test set."""
    x_train, y_train, x_test, y_test = load_digits_data(seed=seed)

    def as_images(x):  # float NCHW in [0, 1] -> the stored integer pixels, HWC
        return np.rint(x * 16).astype(np.uint8).transpose(0, 2, 3, 1)

    return (as_images(x_train), y_train), (as_images(x_test), y_test)


def create_dataset(images, labels, batch_size, training):
    """Pixels scaled to [0, 1] and made CHW, labels int32; shuffled and batched."""
    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=training)
    data = data.map([vision.Rescale(1 / 16, 0.0), vision.HWC2CHW()], input_columns="image")
    data = data.map(transforms.TypeCast(ms.int32), input_columns="label")
    return data.batch(batch_size, drop_remainder=training)


def build_model(learning_rate, steps, **model_kwargs):
    net = LeNet()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    schedule = nn.CosineDecayLR(learning_rate / 100, learning_rate, steps)
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=schedule, momentum=0.9)
    return Model(net, loss_fn, optimizer, metrics={"accuracy"}, **model_kwargs)


def main(epochs=20, batch_size=32, learning_rate=0.05, train_size=None, seed=0,
         checkpoint_dir="checkpoints", verbose=True):
    """Train and return {"test_accuracy", "epoch_losses", "checkpoint"}."""
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(seed)
    ds.config.set_seed(seed)
    (x_train, y_train), (x_test, y_test) = load_digit_images(seed=seed)
    if train_size is not None:
        x_train, y_train = x_train[:train_size], y_train[:train_size]
    train_set = create_dataset(x_train, y_train, batch_size, training=True)
    test_set = create_dataset(x_test, y_test, 128, training=False)
    steps = train_set.get_dataset_size()

    model = build_model(learning_rate, epochs * steps)
    history = History()
    saver = ModelCheckpoint(prefix="lenet", directory=str(checkpoint_dir), config=CheckpointConfig(
        save_checkpoint_steps=steps, keep_checkpoint_max=1))
    callbacks = [history, saver] + ([LossMonitor(steps), TimeMonitor()] if verbose else [])
    model.train(epochs, train_set, callbacks=callbacks)
    result = model.eval(test_set)
    if verbose:
        print(f"Eval result: {result}")
        print(f"test accuracy {100 * result['accuracy']:.2f}% on {len(y_test)} images; "
              f"parameters in {saver.latest_ckpt_file_name}")
    return {"test_accuracy": result["accuracy"], "epoch_losses": history.history["net_output"],
            "checkpoint": saver.latest_ckpt_file_name}


if __name__ == "__main__":
    main()
