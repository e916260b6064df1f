"""Dataset.bucket_batch_by_length against batches and errors recorded from MindSpore 2.10:
rows of lengths 1, 7, 2, 4, 8, 3, 5, 1, 6 (the column `seq` = arange(length), `n` = [length])."""
import numpy as np
import pytest

import cellgraph.dataset as ds


def _rows():
    lengths = [1, 7, 2, 4, 8, 3, 5, 1, 6]
    return ds.GeneratorDataset(lambda: ((np.arange(i), np.array([i])) for i in lengths),
                               ["seq", "n"], shuffle=False)


CASES = [
    ('["seq"], [3, 6], [2, 2, 3], None, {}',
     [[[[0, 0], [0, 1]], [[1], [2]]], [[[0, 1, 2, 3], [0, 1, 2, 0]], [[4], [3]]], [[[0, 1, 2, 3, 4, 5, 6, 0], [0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, 3, 4, 5, 0, 0]], [[7], [8], [6]]], [[[0]], [[1]]], [[[0, 1, 2, 3, 4]], [[5]]]]),
    ('["seq"], [3, 6], [2, 3, 2], None, {"seq": ([None], -1)}, False, True',
     [[[[0, -1], [0, 1]], [[1], [2]]], [[[0, 1, 2, 3, 4, 5, 6, -1], [0, 1, 2, 3, 4, 5, 6, 7]], [[7], [8]]], [[[0, 1, 2, 3, -1], [0, 1, 2, -1, -1], [0, 1, 2, 3, 4]], [[4], [3], [5]]]]),
    ('["seq"], [3, 9], [2, 2, 3], None, {"seq": ([None], -1)}, True',
     [[[[0, -1], [0, 1]], [[1], [2]]], [[[0, 1, 2, 3, 4, 5, 6, -1], [0, 1, 2, 3, -1, -1, -1, -1]], [[7], [4]]], [[[0, 1, 2, 3, 4, 5, 6, 7], [0, 1, 2, -1, -1, -1, -1, -1]], [[8], [3]]], [[[0, 1, 2, 3, 4, -1, -1, -1], [0, 1, 2, 3, 4, 5, -1, -1]], [[5], [6]]], [[[0, -1]], [[1]]]]),
    ('["n"], [5], [3, 2], lambda n: int(n[0]), {"seq": ([9], 7)}, False, True',
     [[[[0, 7, 7, 7, 7, 7, 7, 7, 7], [0, 1, 7, 7, 7, 7, 7, 7, 7], [0, 1, 2, 3, 7, 7, 7, 7, 7]], [[1], [2], [4]]], [[[0, 1, 2, 3, 4, 5, 6, 7, 7], [0, 1, 2, 3, 4, 5, 6, 7, 7]], [[7], [8]]], [[[0, 1, 2, 3, 4, 7, 7, 7, 7], [0, 1, 2, 3, 4, 5, 7, 7, 7]], [[5], [6]]]]),
]
ERRORS = [
    ('["seq", "n"], [3], [1, 2]', ValueError, 'If element_length_function is not specified, exactly one column name should be passed.'),
    ('["seq"], [], [1]', ValueError, 'bucket_boundaries cannot be empty.'),
    ('["seq"], [3, 3], [1, 1, 1]', ValueError, 'bucket_boundaries should be strictly increasing.'),
    ('["seq"], [0, 3], [1, 1, 1]', ValueError, 'bucket_boundaries must only contain positive numbers.'),
    ('["seq"], [3], [1]', ValueError, 'bucket_batch_sizes must contain one element more than bucket_boundaries.'),
    ('["seq"], [3], [1, 0]', ValueError, 'bucket_batch_sizes should be a list of positive numbers.'),
    ('["seq"], [3.5], [1, 1]', TypeError, 'bucket_boundaries should be a list of int.'),
    ('["seq"], [3], [1, 1], 5', TypeError, 'element_length_function object is not callable.'),
    ('["seq"], [3], [1, 1], None, {"seq": [None, 0]}', TypeError, "Argument value in pad_info with value [None, 0] is not of type [<class 'tuple'>], but got <class 'list'>."),
    ('"seq", [3], [1, 1]', TypeError, "Argument column_names with value seq is not of type [<class 'list'>], but got <class 'str'>."),
    ('["seq"], [3], [1, 1], None, None, 1', TypeError, "Argument pad_to_bucket_boundary with value 1 is not of type [<class 'bool'>], but got <class 'int'>."),
]


@pytest.mark.parametrize("spelled, expected", CASES)
def test_buckets_give_mindspores_batches(spelled, expected):
    args = eval("(" + spelled + ",)")  # the arguments as written above
    batches = _rows().bucket_batch_by_length(*args).create_tuple_iterator(output_numpy=True)
    assert [[seq.tolist(), n.tolist()] for seq, n in batches] == expected


@pytest.mark.parametrize("spelled, error, message", ERRORS)
def test_arguments_are_checked_with_mindspores_words(spelled, error, message):
    with pytest.raises(error) as info:
        _rows().bucket_batch_by_length(*eval("(" + spelled + ",)"))
    assert str(info.value) == message


def test_a_missing_column_is_found_when_read_and_the_last_bucket_has_no_boundary():
    missing = _rows().bucket_batch_by_length(["other"], [3], [1, 1])
    with pytest.raises(RuntimeError, match="Couldn't find the specified column"):
        list(missing)
    # the boundary pads only the columns pad_info gives a (shape, value): {} pads to the longest
    assert len(list(_rows().bucket_batch_by_length(["seq"], [3], [2, 2], None, {}, True))) == 5
    padded = _rows().bucket_batch_by_length(["seq"], [3], [2, 2], None, {"seq": ([None], 0)},
                                            True)
    with pytest.raises(RuntimeError) as info:
        list(padded)
    assert str(info.value) == ("Invalid data, requested to pad to bucket boundary failed, "
                               "bucket index should be less than 2, but got 1")
