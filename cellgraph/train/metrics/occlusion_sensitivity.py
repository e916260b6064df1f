"""`OcclusionSensitivity`: how much a classifier's score for the label drops when each part of
its input is covered."""
from __future__ import annotations

import numpy as np

from .metric import Metric, check_type, rearrange_inputs

__all__ = ["OcclusionSensitivity"]


def _bounding_box(b_box, image_shape: np.ndarray):
    """The box's lowest and highest index per axis (negative: from the image's size)."""
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(image_shape):
        raise ValueError(f"For 'OcclusionSensitivity', the bounding box must contain upper and "
                         f"lower for all dimensions (except batch number), and the length of "
                         f"'b_box' must be twice as long as predicted value's (except batch "
                         f"number), but got 'b_box' length {len(b_box)}, predicted value length "
                         f"(except batch number) {len(image_shape)}.")
    low, high = np.array(b_box[::2]), np.array(b_box[1::2])
    low[low < 0] = 0
    high[high < 0] = image_shape[high < 0] - 1
    if np.any(high >= image_shape):
        raise ValueError("For 'OcclusionSensitivity', maximum bounding box must be smaller than "
                         "image size for all values.")
    if np.any(low > high):
        raise ValueError("For 'OcclusionSensitivity', minimum bounding box must be smaller than "
                         "maximum bounding box for all values.")
    return low, high


class OcclusionSensitivity(Metric):
    """update(model, x, label): for each position of the single input x (or of `b_box`), x with
    a cube of half-width `margin` around it set to `pad_val` goes through `model` (in batches of
    `n_batch`); `eval` gives the label's score on x less its score on each occluded copy, in the
    shape of the positions."""

    def __init__(self, pad_val=0.0, margin=2, n_batch=128, b_box=None):
        super().__init__()
        self.pad_val = check_type("pad_val", pad_val, (float,))
        self.margin = check_type("margin", margin, (int, list))
        self.n_batch = check_type("n_batch", n_batch, (int,))
        self.b_box = b_box if b_box is None else check_type("b_box", b_box, (list,))
        self.clear()

    def clear(self):
        self._baseline, self._sensitivity_im = 0, 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        from cellgraph.common.tensor import Tensor
        from cellgraph.nn import Cell

        if len(inputs) != 3:
            raise ValueError(f"For 'OcclusionSensitivity.update', it needs 3 inputs "
                             f"(classification model, predicted value, label), but got "
                             f"{len(inputs)}.")
        model = check_type("model", inputs[0], (Cell,))
        x, label = self._convert_data(inputs[1]), self._convert_data(inputs[2])
        if x.shape[0] > 1:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the shape at index 0 of the "
                               f"predicted value (input[1]) must be 1, but got {x.shape[0]}.")
        if np.prod(label.shape) != x.shape[0]:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the number of the label "
                               f"(input[2]) must be same as the batches, but got the label "
                               f"number {np.prod(label.shape)}, and batches {x.shape[0]}.")
        image_shape = np.array(x.shape[1:])
        low, high = _bounding_box(self.b_box, image_shape)
        label = int(label.reshape(-1)[0])
        self._baseline = model(Tensor(x)).asnumpy()[0, label].item()
        positions_shape = tuple(image_shape if low is None else high - low + 1)
        scores = []
        batch = []
        count = int(np.prod(positions_shape))
        for flat in range(count):
            center = np.array(np.unravel_index(flat, positions_shape))
            if low is not None:
                center = center + low
            covered = tuple(slice(max(0, c - self.margin), min(size, c + self.margin))
                            for c, size in zip(center, image_shape))
            occluded = x.copy()
            occluded[(Ellipsis, *covered)] = self.pad_val
            batch.append(occluded)
            if len(batch) == self.n_batch or flat == count - 1:
                scores.append(model(Tensor(np.vstack(batch))).asnumpy()[:, label])
                batch = []
        self._sensitivity_im = np.concatenate(scores).reshape(positions_shape)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._baseline - np.squeeze(self._sensitivity_im)
