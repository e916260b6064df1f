"""An image classification script over a folder of PNG files: ImageFolderDataset (one folder
per class), Decode, Resize, RandomHorizontalFlip, ToTensor, Normalize(is_hwc=False), OneHot
labels through transforms.Compose, a dense-label SoftmaxCrossEntropyWithLogits, and a network
cast with to_float(float16) whose BatchNorm layers stay float32."""
import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import nn
from cellgraph.dataset import transforms, vision
from cellgraph.train import Model

Image = pytest.importorskip("PIL.Image")


def write_images(root, per_class=12, seed=0):
    """Class 'horizontal' has a bright horizontal band, class 'vertical' a vertical one."""
    rng = np.random.default_rng(seed)
    for name in ("horizontal", "vertical"):
        (root / name).mkdir(parents=True)
        for i in range(per_class):
            pixels = rng.integers(0, 60, size=(12, 12, 3)).astype(np.uint8)
            offset = int(rng.integers(2, 8))
            if name == "horizontal":
                pixels[offset:offset + 3, :, :] = 230
            else:
                pixels[:, offset:offset + 3, :] = 230
            Image.fromarray(pixels).save(root / name / f"{i}.png")


def create_dataset(path, training, batch_size=8):
    data = ds.ImageFolderDataset(str(path), shuffle=training, decode=False)
    image_ops = [vision.Decode(), vision.Resize((16, 16))]
    if training:
        image_ops.append(vision.RandomHorizontalFlip(0.5))
    image_ops += [vision.ToTensor(), vision.Normalize([0.5] * 3, [0.25] * 3, is_hwc=False)]
    data = data.map(image_ops, input_columns="image")
    data = data.map(transforms.Compose([transforms.OneHot(2), transforms.TypeCast(ms.float32)]),
                    input_columns="label")
    return data.batch(batch_size)


class SmallConvNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.features = nn.SequentialCell([
            nn.Conv2d(3, 8, 3, pad_mode="same"), nn.BatchNorm2d(8), nn.ReLU(),
            nn.MaxPool2d(2, 2),
            nn.Conv2d(8, 8, 3, pad_mode="same"), nn.BatchNorm2d(8), nn.ReLU(),
            nn.AvgPool2d(8, 8),
        ])
        self.flatten = nn.Flatten()
        self.classifier = nn.Dense(8, 2)

    def construct(self, x):
        return self.classifier(self.flatten(self.features(x)))


def test_image_folder_training(tmp_path):
    write_images(tmp_path / "train")
    write_images(tmp_path / "val", per_class=6, seed=1)
    train_set = create_dataset(tmp_path / "train", training=True)
    image, label = next(train_set.create_tuple_iterator(output_numpy=True))
    assert image.shape == (8, 3, 16, 16) and image.dtype == np.float32
    assert label.shape == (8, 2) and set(label.sum(1)) == {1.0}
    assert abs(float(image.mean())) < 2.0

    ms.set_seed(0)
    net = SmallConvNet()
    net.to_float(ms.float16)
    for _, cell in net.cells_and_names():
        if isinstance(cell, nn.BatchNorm2d):
            cell.to_float(ms.float32)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=False, reduction="mean")
    opt = nn.Adam(net.trainable_params(), learning_rate=0.01)
    model = Model(net, loss, opt, metrics={"acc": nn.Accuracy()})
    model.train(8, train_set, dataset_sink_mode=False)
    result = model.eval(create_dataset(tmp_path / "val", training=False),
                        dataset_sink_mode=False)
    assert result["acc"] > 0.8
    out = net(ms.Tensor(image))
    assert out.dtype == ms.float16
    assert net.features[1].moving_mean.dtype == ms.float32
