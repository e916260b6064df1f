"""The columns after a map, in MindSpore's order: as many outputs as inputs take the inputs'
places, otherwise the outputs come first and then the columns the map does not read; a name
given twice keeps its later place. Layouts and first rows recorded from MindSpore 2.10."""
import numpy as np
import pytest

from cellgraph import dataset as ds

NAMES = ["c1", "c2", "c3", "c4", "c5"]


def _gen():
    for i in range(2):
        yield tuple(np.array([i * 10 ** k + 1]) for k in range(5))


@pytest.mark.parametrize("inputs, outputs, fn, names, first", [
    (["c2", "c3", "c5"], ["c2", "c5"], lambda a, b, c: (a, c), ["c2", "c5", "c1", "c4"],
     [1, 1, 1, 1]),
    (["c3"], ["x", "y"], lambda a: (a, a + 1), ["x", "y", "c1", "c2", "c4", "c5"],
     [1, 2, 1, 1, 1, 1]),
    (["c3"], ["z"], lambda a: a + 5, ["c1", "c2", "z", "c4", "c5"], [1, 1, 6, 1, 1]),
    (["c3", "c1"], ["c1", "c3"], lambda a, b: (a + 1, b + 2), ["c3", "c2", "c1", "c4", "c5"],
     [3, 1, 2, 1, 1]),
    (["c1"], ["c2", "o"], lambda a: (a - 1, a + 1), ["o", "c2", "c3", "c4", "c5"],
     [2, 1, 1, 1, 1]),
    (["c4", "c2"], ["a", "b", "c"], lambda a, b: (a, b, a), ["a", "b", "c", "c1", "c3", "c5"],
     [1, 1, 1, 1, 1, 1]),
])
def test_map_layout(inputs, outputs, fn, names, first):
    data = ds.GeneratorDataset(_gen, NAMES).map(fn, input_columns=inputs, output_columns=outputs)
    assert data.get_col_names() == names
    row = next(data.create_tuple_iterator(output_numpy=True))
    assert [int(v[0]) for v in row] == first


def test_operations_returning_too_many_columns():
    data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).map(operations=lambda x: (1, 2))
    with pytest.raises(RuntimeError, match=r"Invalid columns, the number of columns returned in "
                                           r"'map' operations should match the number of "
                                           r"'output_columns', but got the number of columns "
                                           r"returned in 'map' operations: 2, the number of "
                                           r"'output_columns': 1."):
        list(data.create_tuple_iterator(output_numpy=True))
