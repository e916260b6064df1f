"""RandomErasing as MindSpore 2.10's Python implementation: its draws from Python's `random`
(and numpy.random for 'random' noise), seeded by dataset.config.set_seed, and its argument
checks; the boxes and errors were recorded from MindSpore 2.10."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import vision

IMAGES = np.full((6, 9, 11, 3), 200, np.uint8)
LEVEL = np.float32(200) * (np.float32(1) / np.float32(255))  # ToTensor's value of 200


def _boxes(op, seed):
    """(top, left, height, width, first erased value) of each row's erased box, or None."""
    ds.config.set_seed(seed)
    data = ds.NumpySlicesDataset({"image": IMAGES}, shuffle=False)
    data = data.map([vision.ToTensor(), op], "image", num_parallel_workers=1)
    boxes = []
    for row in data.create_tuple_iterator(output_numpy=True):
        changed = np.argwhere(row[0] != LEVEL)
        if not len(changed):
            boxes.append(None)
            continue
        low, high = changed[:, 1:].min(0), changed[:, 1:].max(0)
        boxes.append((int(low[0]), int(low[1]), int(high[0] - low[0] + 1),
                      int(high[1] - low[1] + 1), round(float(row[0][0, low[0], low[1]]), 6)))
    return boxes


@pytest.mark.parametrize("op, seed, boxes", [
    (lambda: vision.RandomErasing(1.0), 11,
     [(3, 3, 3, 8, 0.0), (4, 7, 5, 4, 0.0), (1, 2, 7, 4, 0.0), (0, 3, 3, 8, 0.0),
      (1, 4, 3, 7, 0.0), (1, 3, 6, 3, 0.0)]),
    (lambda: vision.RandomErasing(0.5, scale=(0.1, 0.6), ratio=(0.5, 2), value=(1, 2, 3)), 3,
     [(3, 5, 6, 6, 1.0), None, None, None, (3, 4, 6, 5, 1.0), None]),
    (lambda: vision.RandomErasing(0.9, value="random", max_attempts=3), 5,
     [(6, 0, 3, 8, 0.441227), (0, 1, 5, 5, 1.821365), (4, 1, 4, 4, -0.055671),
      (4, 2, 2, 2, 0.906889), None, (2, 7, 1, 4, 0.212043)]),
])
def test_seeded_boxes_are_mindspores(op, seed, boxes):
    assert _boxes(op(), seed) == boxes


@pytest.mark.parametrize("arguments, error, message", [
    ("prob=1.5", ValueError, "Input prob is not within the required interval of [0.0, 1.0]."),
    ("scale=(0.5,)", TypeError, "scale should be a list or tuple of length 2."),
    ("scale=(0.5, 0.1)", ValueError, "scale should be in (min,max) format. Got (max,min)."),
    ("scale=(0, 0)", ValueError, "Input scale[1] must be greater than 0."),
    ("scale=(-1, 0.5)", ValueError,
     "Input is not within the required interval of [0, 16777216]."),
    ("ratio=(0, 1)", ValueError, "Input is not within the required interval of (0, 16777216]."),
    ("value=(1, 2)", ValueError,
     ("The value for erasing should be either a single value, or a string 'random', or a "
     "sequence of 3 elements for RGB respectively.")),
    ("value=(1.0, 2, 3)", TypeError,
     "Argument value with value 1.0 is not of type [<class 'int'>], but got <class 'float'>."),
    ("value=(1, 2, 300)", ValueError,
     "Input value is not within the required interval of [0, 255]."),
    ("value=1.5", TypeError,
     ("Argument value with value 1.5 is not of type [<class 'int'>, <class 'list'>, <class "
     "'tuple'>, <class 'str'>], but got <class 'float'>.")),
    ("inplace=1", TypeError,
     "Argument inplace with value 1 is not of type [<class 'bool'>], but got <class 'int'>."),
    ("max_attempts=0", ValueError, "Input is not within the required interval of [1, 16777216]."),
])
def test_arguments_are_checked_with_mindspores_words(arguments, error, message):
    with pytest.raises(error) as caught:
        eval(f"vision.RandomErasing({arguments})")  # as written in the recorded cases
    assert str(caught.value) == message
