"""transforms.Unique: distinct values in first-seen order, each element's index among them and
the counts, as MindSpore 2.10 gives them (expected values recorded from it, CPU)."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import transforms


def _lists(out):
    return [(o.tolist(), str(o.dtype)) for o in out]


def test_eager_values_indices_counts():
    out = transforms.Unique()([[0, -1, -2, -1, 2], [2, -0, 2, 1, -3]])
    assert _lists(out) == [([0, -1, -2, 2, 1, -3], "int64"),
                           ([0, 1, 2, 1, 3, 3, 0, 3, 4, 5], "int32"),
                           ([2, 2, 1, 3, 1, 1], "int32")]
    out = transforms.Unique()(np.array([[1.5, 0.5], [1.5, np.nan]], np.float32))
    assert str(out[0].dtype) == "float32"
    np.testing.assert_array_equal(out[0], [1.5, 0.5, np.nan])
    assert _lists(out[1:]) == [([0, 1, 0, 2], "int32"), ([2, 1, 1], "int32")]
    out = transforms.Unique()(np.array([[[1, 2], [2, 3]]], np.int8))
    assert _lists(out) == [([1, 2, 3], "int8"), ([0, 1, 1, 2], "int32"), ([1, 2, 1], "int32")]


def test_in_a_map_three_columns():
    data = ds.NumpySlicesDataset([[[0, 1], [2, 1]], [[3, 3], [2, 2]]], column_names=["x"],
                                 shuffle=False)
    data = data.map(transforms.Unique(), input_columns="x", output_columns=["x", "y", "z"])
    rows = [{k: v.tolist() for k, v in row.items()}
            for row in data.create_dict_iterator(output_numpy=True)]
    assert rows == [{"x": [0, 1, 2], "y": [0, 1, 2, 1], "z": [1, 2, 1]},
                    {"x": [3, 2], "y": [0, 0, 1, 1], "z": [2, 2]}]


@pytest.mark.parametrize("value, message", [
    ([0, -1, -2], "Unique: input must be at least 2-D in order to do unique op, got rank:1"),
    (np.array([["a", "b"]]), "Unique: only support numeric datatype of input, got string."),
    (np.array([[True, False]]), "Unique: Unique op only supports numeric input."),
    (np.zeros((2, 0), np.int32), "Input Tensor has no data."),
])
def test_errors(value, message):
    with pytest.raises(RuntimeError, match=message.replace(".", r"\.")):
        transforms.Unique()(value)
