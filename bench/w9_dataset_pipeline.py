"""W9: the input pipeline is not the bottleneck. A small CNN trained by `Model.train` over a
`dataset` pipeline (NumpySlicesDataset of uint8 CIFAR-sized images -> Rescale, Normalize,
HWC2CHW, TypeCast -> shuffle -> batch, prefetched in a worker thread) against the same
training step called in a plain loop over batches prepared beforehand as NumPy arrays.
The "NumPy" column here is that pre-built loop; the target is the pipeline within 10 %."""
from __future__ import annotations

import numpy as np

from bench.timing import compare

WORKLOAD = "W9"
DESCRIPTION = "small CNN: Model.train over a dataset pipeline vs a loop over pre-built batches"

IMAGES, BATCH, CLASSES = 256, 32, 10
MEAN, STD = [0.49, 0.48, 0.45], [0.25, 0.24, 0.26]


def _network():
    from cellgraph import nn

    class SmallCNN(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 16, 3, pad_mode="same")
            self.conv2 = nn.Conv2d(16, 32, 3, pad_mode="same")
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()
            self.fc = nn.Dense(32 * 8 * 8, CLASSES)

        def construct(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            x = self.pool(self.relu(self.conv2(x)))
            return self.fc(self.flatten(x))

    return SmallCNN()


def _model():
    import cellgraph as ms
    from cellgraph import nn

    ms.set_seed(0)
    net = _network()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return ms.Model(net, loss, nn.Momentum(net.trainable_params(), 0.01, 0.9))


def _data():
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, (IMAGES, 32, 32, 3), dtype=np.uint8)
    labels = rng.integers(0, CLASSES, IMAGES)
    return images, labels


def _pipeline(images, labels, shuffled=True):
    import cellgraph as ms
    import cellgraph.dataset as ds
    from cellgraph.dataset import transforms, vision

    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False)
    data = data.map([vision.Rescale(1 / 255, 0.0), vision.Normalize(MEAN, STD),
                     vision.HWC2CHW()], input_columns="image")
    data = data.map(transforms.TypeCast(ms.int32), input_columns="label")
    if shuffled:
        data = data.shuffle(IMAGES)
    return data.batch(BATCH, drop_remainder=True)


def _prebuilt(images, labels):
    """The same preprocessing, done once, as NumPy batches."""
    x = ((images / 255 - np.array(MEAN)) / np.array(STD)).astype(np.float32)
    x = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
    y = labels.astype(np.int32)
    return [(x[i:i + BATCH], y[i:i + BATCH]) for i in range(0, IMAGES, BATCH)]


def run(repeats: int) -> list[dict]:
    from cellgraph import Tensor

    images, labels = _data()
    pipeline = _pipeline(images, labels)
    batches = _prebuilt(images, labels)
    in_order = next(iter(_pipeline(images, labels, shuffled=False).create_tuple_iterator(
        output_numpy=True)))
    np.testing.assert_allclose(in_order[0], batches[0][0], rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(in_order[1], batches[0][1])

    with_pipeline, plain = _model(), _model()
    step = plain.train_network

    def pipeline_epoch():
        with_pipeline.train(1, pipeline)

    def prebuilt_epoch():
        for x, y in batches:
            step(Tensor(x), Tensor(y))

    steps = len(batches)
    times = compare({"cellgraph": pipeline_epoch, "numpy": prebuilt_epoch},
                    repeats)
    per_step, per_step_ref = times["cellgraph"] / steps, times["numpy"] / steps
    return [{"name": f"train step, batch {BATCH}, 3x32x32", "cellgraph_s": per_step,
             "numpy_s": per_step_ref, "target_ratio": 1.1,
             "note": f"{1 / per_step:.0f} steps/s with the pipeline, "
                     f"{1 / per_step_ref:.0f} over pre-built batches"}]
