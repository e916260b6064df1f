"""LeNet on the 8x8 handwritten digits: Conv2d, MaxPool2d and Dense trained with TrainOneStepCell.

The digits data set ships inside scikit-learn (1797 grey images of 8x8 pixels, 10 classes), so
the sample needs no download: `pip install 'cellgraph[samples]'`. A LeNet-style network (two
convolution + pooling stages, two dense layers) is trained with softmax cross entropy and the
Momentum optimizer. TrainOneStepCell compiles the forward pass, the backward pass and the
parameter update into one graph, compiled once for the batch shape and rerun for every batch.
It reaches about 98 % accuracy on the held-out images in a few seconds on a laptop CPU; when
matplotlib is installed it also saves the loss curves in lenet_digits_loss.png.
`main(amp_level="O2")` trains the same network in float16 mixed precision with dynamic loss
scaling (samples/mixed_precision_digits.py does that through `Model`).
"""
import sys

import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn

from _common import Progress, save_curve


def load_digits_data(test_fraction=0.2, seed=0):
    """Images as float32 NCHW in [0, 1] and int32 labels, split into train and test sets."""
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        sys.exit("lenet_digits.py needs scikit-learn for the digits data set; install the "
                 "samples extra: pip install 'cellgraph[samples]' (or pip install scikit-learn)")
    digits = load_digits()
    images = (digits.images / 16.0).astype(np.float32)[:, None, :, :]  # (N, 1, 8, 8)
    labels = digits.target.astype(np.int32)
    order = np.random.default_rng(seed).permutation(len(labels))
    n_test = int(len(labels) * test_fraction)
    test, train = order[:n_test], order[n_test:]
    return images[train], labels[train], images[test], labels[test]


class LeNet(nn.Cell):
    """conv 3x3 -> ReLU -> max pool 2x2, twice, then two dense layers: 8x8 -> 4x4 -> 2x2."""

    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, pad_mode="same", has_bias=True)
        self.conv2 = nn.Conv2d(8, 16, 3, pad_mode="same", has_bias=True)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 2 * 2, 64)
        self.fc2 = nn.Dense(64, num_classes)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))  # (N, 8, 4, 4)
        x = self.pool(self.relu(self.conv2(x)))  # (N, 16, 2, 2)
        x = self.relu(self.fc1(self.flatten(x)))
        return self.fc2(x)  # logits


def evaluate(eval_net, images, labels):
    """(mean loss, accuracy) over a whole set, in one call."""
    loss, logits, _ = eval_net(Tensor(images), Tensor(labels))
    accuracy = float((logits.asnumpy().argmax(axis=1) == labels).mean())
    return float(loss.asnumpy()), accuracy


def train_step_cell(net, loss_fn, optimizer, amp_level="O0"):
    """One compiled training step. With amp_level="O2" the network computes in float16 (the
    weights stay float32) and the loss is scaled dynamically, the step skipped on overflow."""
    if amp_level == "O0":
        return nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer)
    ms.amp.auto_mixed_precision(net, amp_level)
    scale = nn.DynamicLossScaleUpdateCell(loss_scale_value=2 ** 12, scale_factor=2,
                                          scale_window=200)
    return nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, loss_fn), optimizer, scale)


def main(epochs=20, batch_size=32, learning_rate=0.05, train_size=None, seed=0,
         plot="lenet_digits_loss.png", verbose=True, amp_level="O0"):
    """Train and return {"test_accuracy", "train_loss", "test_loss", "seconds", "plot"}."""
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(seed)  # parameter initialisation
    x_train, y_train, x_test, y_test = load_digits_data(seed=seed)
    if train_size is not None:
        x_train, y_train = x_train[:train_size], y_train[:train_size]

    rng = np.random.default_rng(seed)
    batches = len(y_train) // batch_size  # full batches only: one shape, one compiled graph

    net = LeNet()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    # The learning rate falls along a cosine from `learning_rate` to 1 % of it; the schedule is
    # a Cell, evaluated on the optimizer's step counter inside the training graph.
    schedule = nn.CosineDecayLR(learning_rate / 100, learning_rate, epochs * batches)
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=schedule, momentum=0.9)
    train_step = train_step_cell(net, loss_fn, optimizer, amp_level)
    eval_net = nn.WithEvalCell(net, loss_fn)

    progress = Progress(epochs, verbose=verbose)
    train_loss, test_loss, accuracy = [], [], 0.0
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(y_train))  # a new shuffle each epoch
        total = 0.0
        for b in range(batches):
            idx = order[b * batch_size:(b + 1) * batch_size]
            loss = train_step(Tensor(x_train[idx]), Tensor(y_train[idx]))
            total += float((loss[0] if isinstance(loss, tuple) else loss).asnumpy())
        train_loss.append(total / batches)
        loss, accuracy = evaluate(eval_net, x_test, y_test)
        test_loss.append(loss)
        progress.report(epoch, loss=train_loss[-1], test_loss=loss,
                        test_accuracy=f"{100 * accuracy:.1f}%")

    written = save_curve(plot, {"train": train_loss, "test": test_loss}, "epoch",
                         "LeNet on digits: cross-entropy loss") if plot else None
    if verbose:
        print(f"test accuracy {100 * accuracy:.2f}% on {len(y_test)} images"
              + (f"; loss curves in {written}" if written else ""))
    return {"test_accuracy": accuracy, "train_loss": train_loss, "test_loss": test_loss,
            "seconds": progress.seconds, "plot": written}


if __name__ == "__main__":
    main()
