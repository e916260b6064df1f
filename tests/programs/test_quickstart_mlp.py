"""The 2.x quick start: MNIST-format files read by MnistDataset, a SequentialCell MLP, a
functional training step with value_and_grad and an optimizer call, and train/test loops."""
import struct

import numpy as np

import cellgraph as ms
from cellgraph import nn
from cellgraph.dataset import MnistDataset, transforms, vision


def write_idx_files(folder, prefix, images, labels):
    """Images (N, 28, 28) uint8 and labels (N,) uint8 in the idx-ubyte format MNIST ships."""
    with open(folder / f"{prefix}-images-idx3-ubyte", "wb") as f:
        f.write(struct.pack(">IIII", 2051, len(images), 28, 28))
        f.write(images.astype(np.uint8).tobytes())
    with open(folder / f"{prefix}-labels-idx1-ubyte", "wb") as f:
        f.write(struct.pack(">II", 2049, len(labels)))
        f.write(labels.astype(np.uint8).tobytes())


def make_fake_mnist(root, n_train=192, n_test=64, seed=0):
    """Four classes, each a bright square in its own quadrant plus noise."""
    rng = np.random.default_rng(seed)

    def sample(n):
        labels = rng.integers(0, 4, size=n)
        images = rng.integers(0, 60, size=(n, 28, 28))
        for i, label in enumerate(labels):
            r, c = divmod(int(label), 2)
            images[i, r * 14:r * 14 + 14, c * 14:c * 14 + 14] += 180
        return images.clip(0, 255), labels

    (root / "train").mkdir()
    (root / "test").mkdir()
    write_idx_files(root / "train", "train", *sample(n_train))
    write_idx_files(root / "test", "t10k", *sample(n_test))


def datapipe(path, batch_size):
    image_transforms = [
        vision.Rescale(1.0 / 255.0, 0),
        vision.Normalize(mean=(0.1307,), std=(0.3081,)),
        vision.HWC2CHW(),
    ]
    label_transform = transforms.TypeCast(ms.int32)
    dataset = MnistDataset(path)
    dataset = dataset.map(image_transforms, "image")
    dataset = dataset.map(label_transform, "label")
    dataset = dataset.batch(batch_size)
    return dataset


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28 * 28, 64),
            nn.ReLU(),
            nn.Dense(64, 64),
            nn.ReLU(),
            nn.Dense(64, 10),
        )

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


def test_quickstart(tmp_path):
    make_fake_mnist(tmp_path)
    train_dataset = datapipe(str(tmp_path / "train"), 32)
    test_dataset = datapipe(str(tmp_path / "test"), 32)
    for image, label in test_dataset.create_tuple_iterator():
        assert image.shape == (32, 1, 28, 28) and image.dtype == ms.float32
        assert label.shape == (32,) and label.dtype == ms.int32
        break

    model = Network()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(model.trainable_params(), 1e-2)

    def forward_fn(data, label):
        logits = model(data)
        loss = loss_fn(logits, label)
        return loss, logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    def train_loop(model, dataset):
        model.set_train()
        losses = []
        for data, label in dataset.create_tuple_iterator():
            losses.append(float(train_step(data, label).asnumpy()))
        return losses

    def test_loop(model, dataset, loss_fn):
        num_batches = dataset.get_dataset_size()
        model.set_train(False)
        total, test_loss, correct = 0, 0, 0
        for data, label in dataset.create_tuple_iterator():
            pred = model(data)
            total += len(data)
            test_loss += loss_fn(pred, label).asnumpy()
            correct += (pred.argmax(1) == label).asnumpy().sum()
        return correct / total, test_loss / num_batches

    first_accuracy, first_loss = test_loop(model, test_dataset, loss_fn)
    epoch_losses = []
    for _ in range(3):
        epoch_losses.append(np.mean(train_loop(model, train_dataset)))
    accuracy, test_loss = test_loop(model, test_dataset, loss_fn)
    assert epoch_losses[-1] < epoch_losses[0]
    assert test_loss < first_loss
    assert accuracy > 0.9 > first_accuracy
