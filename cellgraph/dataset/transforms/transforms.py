"""General transforms (mindspore.dataset.transforms): TypeCast, OneHot, Compose."""
from __future__ import annotations

import numbers

import numpy as np

__all__ = ["Compose", "OneHot", "TensorOperation", "TypeCast"]


class TensorOperation:
    """Base of the transforms: callable on NumPy arrays (and, for vision, Pillow images),
    in a pipeline through `map` or eagerly."""

    def __call__(self, *inputs):
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def numpy_dtype(data_type) -> np.dtype:
    """A NumPy dtype from a cellgraph dtype (mstype.int32), a NumPy dtype or a name."""
    from cellgraph.ops import dtype as dt

    if isinstance(data_type, dt.DType):
        return data_type.np
    try:
        return np.dtype(data_type)
    except TypeError:
        raise TypeError(f"TypeCast: `data_type` must be a dtype (mstype.int32, np.float32), "
                        f"got {data_type!r}") from None


class TypeCast(TensorOperation):
    """Cast to `data_type`."""

    def __init__(self, data_type):
        self.dtype = numpy_dtype(data_type)

    def __call__(self, x):
        return np.asarray(x).astype(self.dtype)


class OneHot(TensorOperation):
    """Integer labels of shape (*) -> one-hot rows of shape (*, num_classes), in the labels'
    dtype; with `smoothing_rate`, float32 rows (1 - rate) * one_hot + rate / num_classes."""

    def __init__(self, num_classes, smoothing_rate=0.0):
        if isinstance(num_classes, bool) or not isinstance(num_classes, numbers.Integral) or \
                num_classes <= 0:
            raise TypeError(f"OneHot: `num_classes` must be a positive int, got "
                            f"{num_classes!r}")
        if isinstance(smoothing_rate, bool) or not isinstance(smoothing_rate, numbers.Real):
            raise TypeError(f"OneHot: `smoothing_rate` must be a float, got {smoothing_rate!r}")
        if not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError(f"OneHot: `smoothing_rate` must be in [0.0, 1.0], got "
                             f"{smoothing_rate}")
        self.num_classes, self.smoothing_rate = int(num_classes), float(smoothing_rate)

    def __call__(self, labels):
        labels = np.asarray(labels)
        if labels.dtype.kind not in "iu":
            raise RuntimeError(f"OneHot: expected integer labels, got dtype {labels.dtype}")
        if labels.ndim > 1:
            raise RuntimeError(f"OneHot: expected a scalar or 1-D label, got shape "
                               f"{labels.shape}")
        if labels.size and (labels.min() < 0 or labels.max() >= self.num_classes):
            raise RuntimeError(f"OneHot: labels must lie in [0, {self.num_classes}), got "
                               f"{labels.min()}..{labels.max()}")
        hot = np.eye(self.num_classes, dtype=labels.dtype)[labels]
        if self.smoothing_rate:
            rate = self.smoothing_rate
            return (hot * (1 - rate) + rate / self.num_classes).astype(np.float32)
        return hot


class Compose(TensorOperation):
    """The transforms one after another, as one operation."""

    def __init__(self, transforms):
        self.transforms = list(transforms)
        if not self.transforms or not all(callable(t) for t in self.transforms):
            raise TypeError(f"Compose: `transforms` must be a non-empty list of callables, got "
                            f"{transforms!r}")

    def __call__(self, *inputs):
        values = inputs
        for transform in self.transforms:
            values = transform(*values)
            values = values if isinstance(values, tuple) else (values,)
        return values[0] if len(values) == 1 else values
