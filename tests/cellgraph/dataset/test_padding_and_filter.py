"""padded_batch and batch(pad_info=...), filter, and the general transforms Concatenate, Slice,
Duplicate, Mask and text.Truncate, on hand-checked rows."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph import dtype as mstype
from cellgraph.dataset import text, transforms


def ragged():
    data = ds.NumpySlicesDataset({"n": [1, 3, 2]}, shuffle=False)
    return data.map(lambda n: (np.arange(int(n)), np.ones((int(n), 2))), input_columns="n",
                    output_columns=["seq", "grid"])


def first(dataset):
    return next(dataset.create_tuple_iterator(output_numpy=True))


def test_padded_batch_shapes_and_values():
    seq, grid = first(ragged().padded_batch(3, pad_info={"seq": ([4], 9)}))
    np.testing.assert_array_equal(seq, [[0, 9, 9, 9], [0, 1, 2, 9], [0, 1, 9, 9]])
    assert grid.shape == (3, 3, 2) and grid[0, 1:].sum() == 0  # not named: longest, zeros
    seq, _ = first(ragged().padded_batch(2, pad_info={"seq": (None, -1),
                                                      "grid": ([None, 2], 0.5)}))
    np.testing.assert_array_equal(seq, [[0, -1, -1], [0, 1, 2]])
    with pytest.raises(TypeError, match="unexpected keyword argument 'pad_info'"):
        ragged().batch(2, pad_info={"seq": (None, -1)})  # MindSpore 2 pads in padded_batch only
    with pytest.raises(RuntimeError, match="Cannot batch tensors with different shapes in "
                                           "column 0. First element had shape <1> and this "
                                           "element had shape <3>"):
        first(ragged().padded_batch(3))
    with pytest.raises(TypeError, match="pad_info"):
        ragged().padded_batch(3, pad_info={"seq": 4})
    with pytest.raises(ValueError, match="column"):
        ragged().padded_batch(3, pad_info={"missing": (None, 0)})


def test_filter_keeps_rows_the_predicate_accepts():
    def data():  # a node feeds one pipeline only
        return ds.NumpySlicesDataset({"x": np.arange(10), "y": np.arange(10) * 2}, shuffle=False)

    kept = data().filter(lambda x: x % 3 == 0, input_columns=["x"])
    assert [int(r["y"]) for r in kept.create_dict_iterator(output_numpy=True)] == [0, 6, 12, 18]
    both = data().filter(lambda x, y: x + y > 20)
    assert both.get_dataset_size() == 3
    with pytest.raises(TypeError, match="callable"):
        data().filter(3)


def test_general_transforms():
    np.testing.assert_array_equal(
        transforms.Concatenate(0, np.array([1]), np.array([9]))(np.array([2, 3]), np.array([4])),
        [1, 2, 3, 4, 9])
    grid = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(transforms.Slice(slice(0, 2), [1, 3])(grid),
                                  [[1, 3], [5, 7]])
    np.testing.assert_array_equal(transforms.Slice(1)(grid), [[4, 5, 6, 7]])
    a, b = transforms.Duplicate()(np.array([1, 2]))
    assert a is not b and list(b) == [1, 2]
    mask = transforms.Mask(transforms.Relational.GE, 2, mstype.int32)(np.array([1, 2, 3]))
    assert mask.dtype == np.int32 and list(mask) == [0, 1, 1]
    np.testing.assert_array_equal(text.Truncate(2)(np.array(["a", "b", "c"])), ["a", "b"])
    with pytest.raises(ValueError, match="max_seq_len"):
        text.Truncate(0)
    with pytest.raises(TypeError, match="Relational"):
        transforms.Mask(">", 1)


def test_slice_takes_mindspores_options_and_reports_its_errors():
    """MindSpore 2.10: True, None and Ellipsis take a whole axis; a negative index counts from
    the end; an index out of range, an empty list or False fail when the row is sliced."""
    row = np.array([1, 2, 3, 4, 5])
    for whole in (True, None, Ellipsis):
        np.testing.assert_array_equal(transforms.Slice(whole)(row), row)
    grid = np.arange(6).reshape(2, 3)
    np.testing.assert_array_equal(transforms.Slice(True, [0, -1])(grid), [[0, 2], [3, 5]])
    np.testing.assert_array_equal(transforms.Slice(1, True)(grid), [[3, 4, 5]])
    for option, message in ((5, "Index 5 is out of bounds."), (-6, "Index -1 is out of bounds."),
                            ([1, 7], "Index 7 is out of bounds."),
                            ([], "Both indices and slices can not be empty."),
                            (False, "Both indices and slices can not be empty.")):
        with pytest.raises(RuntimeError, match=message):
            transforms.Slice(option)(row)
        data = ds.NumpySlicesDataset([row], shuffle=False).map(transforms.Slice(option))
        with pytest.raises(RuntimeError, match=r"map operation: \[Slice\] failed\. " + message):
            list(data.create_tuple_iterator())
    with pytest.raises(TypeError, match=r"Argument slice_option\[0\] with value \[0, 1\] is not "
                                        r"of type \[<class 'int'>\], but got <class 'list'>"):
        transforms.Slice([[0, 1]])
    with pytest.raises(TypeError, match=r"Argument slice\[1\] with value True is not of type "
                                        r"\(<class 'int'>,\), but got <class 'bool'>"):
        transforms.Slice([1, True])
