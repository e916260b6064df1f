"""Tiny files in the on-disk formats the readers take, written by the tests themselves."""
from __future__ import annotations

import os

import numpy as np


def write_idx(path, array: np.ndarray) -> None:
    """An IDX file: magic 0 0 0x08 (uint8) <rank>, big-endian uint32 dims, then the bytes."""
    array = np.asarray(array, np.uint8)
    header = bytes([0, 0, 0x08, array.ndim]) + np.array(array.shape, ">u4").tobytes()
    with open(path, "wb") as f:
        f.write(header + array.tobytes())


def write_mnist(directory, images: dict, labels: dict) -> None:
    """images/labels: {"train": array, "test": array}; images (N, 28, 28) uint8."""
    os.makedirs(directory, exist_ok=True)
    for usage, prefix in (("train", "train"), ("test", "t10k")):
        if usage in images:
            write_idx(os.path.join(directory, f"{prefix}-images-idx3-ubyte"), images[usage])
            write_idx(os.path.join(directory, f"{prefix}-labels-idx1-ubyte"), labels[usage])


def cifar_records(images: np.ndarray, *label_columns) -> bytes:
    """CIFAR binary records: the label byte(s), then the image channel-major (images HWC)."""
    chw = np.asarray(images, np.uint8).transpose(0, 3, 1, 2).reshape(len(images), -1)
    labels = np.stack([np.asarray(c, np.uint8) for c in label_columns], axis=1)
    return np.concatenate([labels, chw], axis=1).tobytes()


def write_cifar10(directory, images: np.ndarray, labels: np.ndarray, batches=5,
                  test=None) -> None:
    """The train images split over data_batch_1..N.bin; `test`=(images, labels) too."""
    os.makedirs(directory, exist_ok=True)
    for i, (part_images, part_labels) in enumerate(zip(np.array_split(images, batches),
                                                       np.array_split(labels, batches))):
        with open(os.path.join(directory, f"data_batch_{i + 1}.bin"), "wb") as f:
            f.write(cifar_records(part_images, part_labels))
    for i in range(batches, 5):  # a reader needs all five files
        open(os.path.join(directory, f"data_batch_{i + 1}.bin"), "wb").close()
    test_images, test_labels = test if test is not None else (images[:0], labels[:0])
    with open(os.path.join(directory, "test_batch.bin"), "wb") as f:
        f.write(cifar_records(test_images, test_labels))


def random_images(rng, count: int, size=32, channels=3) -> np.ndarray:
    return rng.integers(0, 256, (count, size, size, channels), dtype=np.uint8)
