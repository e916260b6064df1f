"""batch's per_batch_map columns laid out as MindSpore 2.10 lays them out, its errors (raised
when the pipeline is read, MindSpore's words) and its argument checks; values recorded from
MindSpore 2.10."""
import numpy as np
import pytest

import cellgraph.dataset as ds


def _three():
    def rows():
        for i in range(1, 3):
            yield np.array([i]), np.array([i * 10]), np.array([i * 100])
    return ds.GeneratorDataset(rows, ["a", "b", "c"], shuffle=False)


def _read(data):
    return data.get_col_names(), [[v.tolist() for v in r]
                                  for r in data.create_tuple_iterator(output_numpy=True)]


def test_as_many_outputs_as_inputs_take_the_inputs_places():
    renamed = _three().batch(2, input_columns=["b"], output_columns=["x"],
                             per_batch_map=lambda b, info: (b,))
    assert _read(renamed) == (["a", "x", "c"], [[[[1], [2]], [[10], [20]], [[100], [200]]]])
    swapped = _three().batch(2, input_columns=["a", "c"], output_columns=["c", "a"],
                             per_batch_map=lambda a, c, info: (a, c))
    assert _read(swapped) == (["c", "b", "a"], [[[[1], [2]], [[10], [20]], [[100], [200]]]])
    reordered = _three().batch(2, input_columns=["c", "a"], output_columns=["p", "q"],
                               per_batch_map=lambda c, a, info: (c, a))
    assert _read(reordered) == (["q", "b", "p"], [[[[1], [2]], [[10], [20]], [[100], [200]]]])


def test_other_outputs_come_first():
    merged = _three().batch(2, input_columns=["a", "c"], output_columns=["m"],
                            per_batch_map=lambda a, c, info: ([x + y for x, y in zip(a, c)],))
    assert _read(merged) == (["m", "b"], [[[[101], [202]], [[10], [20]]]])
    two = _three().project(["a", "b"]).batch(
        2, input_columns=["b"], output_columns=["x", "y"],
        per_batch_map=lambda b, info: (b, [-v for v in b]))
    assert _read(two) == (["x", "y", "a"], [[[[10], [20]], [[-10], [-20]], [[1], [2]]]])


def _split(inputs, outputs):
    return _three().project(["a", "b"]).batch(
        2, input_columns=inputs, output_columns=outputs,
        per_batch_map=lambda b, info: (b, [-v for v in b]))


def test_columns_that_do_not_fit_are_refused_when_read():
    missing = _split(["b-1"], ["x", "y"])
    with pytest.raises(RuntimeError, match="Invalid input_columns, 'b-1' of 'input_columns' "
                                           "doesn't exist."):
        missing.get_col_names()
    stray = _split(["b"], ["a"])
    with pytest.raises(RuntimeError, match=r"Invalid output_columns, columns that are not "
                                           r"involved in 'per_batch_map' should not be in "
                                           r"output_columns, but got columns that are not in "
                                           r"input_columns: \[a,\], output_columns: \[a,\]\."):
        list(stray.create_tuple_iterator())
    three = _split(["b"], ["x", "y", "z"])
    assert three.get_col_names() == ["x", "y", "z", "a"]
    with pytest.raises(RuntimeError, match="Invalid per_batch_map, the number of columns "
                                           "returned in 'per_batch_map' function should be 3 , "
                                           "but got: 2"):
        list(three.create_tuple_iterator())


def test_argument_checks():
    def pass_through(a, b, info):
        return a, b

    with pytest.raises(TypeError, match=r"^Argument output_columns with value 233 is not of type "
                                        r"\[<class 'list'>, <class 'str'>\], but got "
                                        r"<class 'int'>\.$"):
        _three().batch(2, input_columns=["b"], output_columns=233,
                       per_batch_map=lambda b, info: (b,))
    for rowsize, error in (((12, 20), TypeError), ("16", TypeError), (20.5, TypeError),
                           (-8, ValueError), ([12.4, 20], TypeError), ([-2, 16], ValueError),
                           ([16, -2], ValueError)):
        with pytest.raises(error, match="is not of type|is not within the required interval"):
            _three().batch(2, per_batch_map=pass_through, input_columns=["a", "b"],
                           max_rowsize=rowsize)


def test_a_callable_batch_size_has_no_batch_size():
    sized = _three().batch(lambda info: info.get_batch_num() + 1)
    assert sized.get_batch_size() == -1 and sized.repeat(2).get_batch_size() == -1
    assert [len(r[0]) for r in sized.create_tuple_iterator(output_numpy=True)] == [1, 1]
