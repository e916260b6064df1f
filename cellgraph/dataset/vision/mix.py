"""Batch mixing of mindspore.dataset.vision: MixUpBatch, CutMixBatch and MixUp, on a batch of
images and its one-hot labels. MixUpBatch and CutMixBatch draw as MindSpore's C++ kernels draw
(std::mt19937 from the dataset seed, libstdc++'s shuffle and gamma distribution), so a seeded
op gives MindSpore's images and labels on the same batches (in a pipeline, as MindSpore's with
one map worker); MixUp draws from numpy.random, as MindSpore's Python MixUp does."""
from __future__ import annotations

from enum import IntEnum

import numpy as np

from cellgraph.dataset import _std_shuffle
from cellgraph.dataset.core.validator_helpers import (
    FLOAT_MAX_INTEGER,
    check_pos_float32,
    check_value,
    type_check,
)
from cellgraph.dataset.transforms.transforms import CppRandomOperation, TensorOperation

__all__ = ["CutMixBatch", "ImageBatchFormat", "MixUp", "MixUpBatch"]


class ImageBatchFormat(IntEnum):
    """Layout of a batch of images: NHWC (batch, height, width, channels) or NCHW."""

    NHWC = 0
    NCHW = 1


def _check_positive(value, name: str) -> None:
    if value <= 0:
        raise ValueError(f"Input {name} must be greater than 0.")


def _shuffled_indices(n: int, words) -> list:
    ids = list(range(n))
    _std_shuffle.shuffle(ids, words)
    return ids


def _numeric_labels(labels: np.ndarray, op: str) -> None:
    if labels.dtype.kind not in "biuf":
        raise RuntimeError(f"{op}: invalid label type, label must be in a numeric type, but got: "
                           f"{labels.dtype}. You may need to perform OneHot first.")


def _mixed(first: np.ndarray, second: np.ndarray, lam) -> np.ndarray:
    """lam * first + (1 - lam) * second, as OpenCV's addWeighted gives it (integers rounded to
    nearest and saturated)."""
    lam = np.float32(lam)
    value = lam * first.astype(np.float32) + (np.float32(1) - lam) * second.astype(np.float32)
    if first.dtype.kind in "iu":
        info = np.iinfo(first.dtype)
        return np.clip(np.rint(value), info.min, info.max).astype(first.dtype)
    return value.astype(first.dtype)


class MixUpBatch(CppRandomOperation):
    """Mix each image of a batch with another of the same batch (a shuffle of the batch) as
    lam * image + (1 - lam) * other, lam = x1 / (x1 + x2) with x1, x2 drawn from
    Gamma(alpha, 1) once per batch; the one-hot labels (N x C or N x L x C) are mixed alike,
    as float32."""

    def __init__(self, alpha=1.0):
        type_check(alpha, (int, float), "alpha")
        _check_positive(alpha, "alpha")
        check_pos_float32(alpha)
        self.alpha = alpha

    def __call__(self, *inputs):
        op = "MixUpBatch"
        if len(inputs) < 2:
            raise RuntimeError(f"{op}: size of input data should be 2 (including images or labels),"
                               f" but got: {len(inputs)}, check 'input_columns' when call this "
                               f"operator.")
        images, labels = np.asarray(inputs[0]), np.asarray(inputs[1])
        if images.ndim != 4 or images.shape[0] != (labels.shape[0] if labels.ndim else -1):
            raise RuntimeError(f"{op}: rank of image shape should be: 4, but got: {images.ndim}, "
                               f"make sure image shape are <H,W,C> or <C,H,W> and batched before "
                               f"calling MixUpBatch.")
        _numeric_labels(labels, op)
        if labels.ndim not in (2, 3):
            raise RuntimeError(f"{op}: wrong labels shape. The second column (labels) must have a "
                               f"shape of NC or NLC where N is the batch size, L is the number of "
                               f"labels in each row, and C is the number of classes. labels must "
                               f"be in one-hot format and in a batch, but got rank: {labels.ndim}")
        if images.shape[1] not in (1, 3) and images.shape[3] not in (1, 3):
            raise RuntimeError(f"{op}: images shape should in <N,H,W,C> or <N,C,H,W>, got shape:"
                               f"<{','.join(str(d) for d in images.shape)}>")
        words = self.words
        x1 = _std_shuffle.GammaFloat(self.alpha)(words)
        x2 = _std_shuffle.GammaFloat(self.alpha)(words)
        if abs(float(x1) + float(x2)) <= float(np.finfo(np.float32).eps):
            raise RuntimeError("addition of variable(x1 and x2) of Gamma should not be 0.")
        lam = np.float32(x1 / np.float32(x1 + x2))
        order = _shuffled_indices(images.shape[0], words)
        float_labels = labels.astype(np.float32)
        out_labels = lam * float_labels + (np.float32(1) - lam) * float_labels[order]
        out_images = _mixed(images, images[order], lam)
        return out_images, out_labels.astype(np.float32)


def _crop_box(height: int, width: int, lam, words) -> tuple[int, int, int, int]:
    """(x, y, crop_width, crop_height): a box of sqrt(1 - lam) of each side about a centre
    drawn uniformly in [0, width] x [0, height], clipped to the image."""
    ratio = np.float32(np.sqrt(np.float32(1) - np.float32(lam)))
    cut_w = int(np.float32(width) * ratio)
    cut_h = int(np.float32(height) * ratio)
    cx = _std_shuffle.uniform_int(words, 0, width)
    cy = _std_shuffle.uniform_int(words, 0, height)
    x = min(max(cx - cut_w // 2, 0), width - 1)
    y = min(max(cy - cut_h // 2, 0), height - 1)
    x2 = min(max(cx + cut_w // 2, 0), width - 1)
    y2 = min(max(cy + cut_h // 2, 0), height - 1)
    crop_w = min(max(x2 - x, 1), max(width - 1, 1))
    crop_h = min(max(y2 - y, 1), max(height - 1, 1))
    return x, y, crop_w, crop_h


class CutMixBatch(CppRandomOperation):
    """With probability `prob` per image, paste into it a box of another image of the batch
    (a shuffle of the batch); the box covers about 1 - lam of the image, lam = x1 / (x1 + x2)
    with x1, x2 from Gamma(alpha, 1), and the one-hot labels are mixed by the area kept."""

    def __init__(self, image_batch_format, alpha=1.0, prob=1.0):
        type_check(image_batch_format, (ImageBatchFormat,), "image_batch_format")
        type_check(alpha, (int, float), "alpha")
        type_check(prob, (int, float), "prob")
        check_pos_float32(alpha)
        _check_positive(alpha, "alpha")
        check_value(prob, [0, 1], "prob")
        self.image_batch_format, self.alpha, self.prob = image_batch_format, alpha, prob

    def _validate(self, inputs) -> tuple[np.ndarray, np.ndarray]:
        op = "CutMixBatch"
        if len(inputs) < 2:
            raise RuntimeError(f"{op}: invalid input size, input should have 2 columns (image and "
                               f"label), but got: {len(inputs)}")
        images, labels = np.asarray(inputs[0]), np.asarray(inputs[1])
        if images.ndim != 4:
            message = (f"{op}: input image is not in shape of <B,H,W,C> or <B,C,H,W>, but got "
                       f"dimension: {images.ndim}")
            if images.ndim == 3:
                message += ". You may need to perform Batch first."
            raise RuntimeError(message)
        channels = images.shape[1 if self.image_batch_format == ImageBatchFormat.NCHW else 3]
        if channels not in (1, 3):
            raise RuntimeError(f"{op}: input image is not in channel of 1 or 3, but got channel: "
                               f"{channels}")
        _numeric_labels(labels, op)
        if labels.ndim not in (2, 3):
            raise RuntimeError(f"{op}: input label is not in shape of <Batch,Class> or "
                               f"<Batch,Row,Class>, but got dimension: {labels.ndim}. You may "
                               f"need to perform OneHot and Batch first.")
        if images.shape[0] != labels.shape[0]:
            raise RuntimeError(f"{op}: batch sizes of image and label must be the same, but got "
                               f"image size: {images.shape[0]} and label size: {labels.shape[0]}")
        return images, labels

    def __call__(self, *inputs):
        images, labels = self._validate(inputs)
        words = self.words
        order = _shuffled_indices(images.shape[0], words)
        gamma_a = _std_shuffle.GammaFloat(self.alpha)
        gamma_b = _std_shuffle.GammaFloat(self.alpha)
        float_labels = labels.astype(np.float32)
        out_labels = float_labels.copy()
        out_images = images.copy()
        nchw = self.image_batch_format == ImageBatchFormat.NCHW
        height, width = images.shape[2:] if nchw else images.shape[1:3]
        max_float = float(np.finfo(np.float32).max)
        for i in range(images.shape[0]):
            x1, x2 = gamma_a(words), gamma_b(words)
            while max_float - float(x1) < float(x2):
                x1, x2 = gamma_a(words), gamma_b(words)
            lam = np.float32(x1 / np.float32(x1 + x2))
            if _std_shuffle.canonical_double(words) < self.prob:
                x, y, w, h = _crop_box(height, width, lam, words)
                source = images[order[i]]
                if nchw:
                    out_images[i][:, y:y + h, x:x + w] = source[:, y:y + h, x:x + w]
                else:
                    out_images[i][y:y + h, x:x + w] = source[y:y + h, x:x + w]
                label_lam = np.float32(1) - np.float32(w * h) / np.float32(height * width)
                out_labels[i] = (label_lam * float_labels[i] +
                                 (np.float32(1) - label_lam) * float_labels[order[i]])
        return out_images, out_labels


class MixUp(TensorOperation):
    """Mix a batch of images (N x ...) and its one-hot labels (N x C) with weights lam drawn
    per image from Beta(alpha, alpha). With `is_single`, image i is mixed with image i + 1 of
    the same batch (the last with the first); otherwise with the mixed output of the previous
    batch (the first batch passes unchanged). As MindSpore's Python MixUp it draws from
    `numpy.random` (which dataset.config.set_seed seeds) and gives float64 arrays."""

    python_implementation = True  # as MindSpore runs it

    def __init__(self, batch_size, alpha, is_single=True):
        type_check(is_single, (bool,), "is_single")
        type_check(batch_size, (int,), "batch_size")
        type_check(alpha, (int, float), "alpha")
        check_value(batch_size, (1, FLOAT_MAX_INTEGER))
        _check_positive(alpha, "alpha")
        self.batch_size, self.alpha, self.is_single = batch_size, alpha, is_single
        self.image = self.label = 0
        self.is_first = True

    def __call__(self, image, label):
        n = self.batch_size
        lam = np.random.beta(self.alpha, self.alpha, n)
        image, label = np.asarray(image), np.asarray(label)
        if self.is_single:
            shifted = list(range(1, n)) + [0]
            other_image, other_label = image[shifted, ...], label[shifted, ...]
        else:
            if self.is_first:
                lam = np.ones(n)
                self.is_first = False
            other_image, other_label = self.image, self.label
        lam_image = lam.reshape((n, 1, 1, 1))
        lam_label = lam.reshape((n, 1))
        mixed_image = lam_image * image + (1 - lam_image) * other_image
        mixed_label = lam_label * label + (1 - lam_label) * other_label
        if not self.is_single:
            self.image, self.label = mixed_image, mixed_label
        return mixed_image, mixed_label
