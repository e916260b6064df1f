"""GeneratorDataset checks its arguments and the rows its source gives as MindSpore 2.10 does
(messages recorded from it)."""
import numpy as np
import pytest

import cellgraph.dataset as ds


class _Source:
    def __getitem__(self, index):
        return (np.array(index),)

    def __len__(self):
        return 4


@pytest.mark.parametrize("kwargs, error, message", [
    ({"batch_sampler": 1}, TypeError, "batch_sampler should have __getitem__ or __iter__ method."),
    ({"batch_sampler": [[0, 1]], "collate_fn": []}, TypeError, "collate_fn should be callable."),
    ({"collate_fn": len}, ValueError, "collate_fn can be specified only when batch_sampler is set."),
    ({"max_rowsize": -2}, ValueError,
     "Input max_rowsize is not within the required interval of [-1, 2147483647]."),
])
def test_argument_errors(kwargs, error, message):
    with pytest.raises(error) as info:
        ds.GeneratorDataset(_Source(), ["data"], **kwargs)
    assert str(info.value) == message


def test_a_source_without_getitem_takes_no_sampler():
    def rows():
        yield (np.array(1),)

    for kwargs in ({"sampler": ds.SequentialSampler()}, {"num_shards": 2, "shard_id": 0},
                   {"batch_sampler": [[0]]}):
        name = next(iter(kwargs))
        with pytest.raises(ValueError, match=f"{name} is not supported if source does not have "
                                             f"attribute '__getitem__'."):
            ds.GeneratorDataset(rows, ["data"], **kwargs)


@pytest.mark.parametrize("batch_sampler, message", [
    ([1, 2], "Batch sampler should return a list, but got an integer."),
    ([["1"]], "Python sampler should return index of type integer, but got: string"),
    ([[0.5]], "Python sampler should return index of type integer, but got: float64"),
])
def test_batch_sampler_errors(batch_sampler, message):
    data = ds.GeneratorDataset(_Source(), ["data"], batch_sampler=batch_sampler)
    with pytest.raises(RuntimeError, match=message):
        list(data)


@pytest.mark.parametrize("row, message", [
    ((np.array([{1}]),), ("Data type of 1th item of the input or its converted Numpy array is "
                         "expected to be int or float or str, but got object.")),
    (np.array([[1, None]]), ("Data type of the input or its converted Numpy array is expected "
                            "to be int or float or str, but got object.")),
])
def test_rows_of_python_objects_are_refused(row, message):
    data = ds.GeneratorDataset(lambda: iter([row]), ["data"])
    with pytest.raises(RuntimeError, match="Exception thrown from user defined Python") as info:
        list(data)
    assert message in str(info.value)


def _two_columns():
    yield (np.array([1], np.int8), np.array("a"))


def test_column_types_none_leaves_a_column_unchecked_and_a_mismatch_raises():
    import cellgraph as ms

    data = ds.GeneratorDataset(_two_columns, ["a", "b"], column_types=[None, ms.string])
    assert [str(c.dtype) for c in next(data.create_tuple_iterator(output_numpy=True))] == \
        ["int8", "<U1"]
    data = ds.GeneratorDataset(_two_columns, ["a", "b"], column_types=[ms.float32, None])
    with pytest.raises(RuntimeError) as info:
        list(data)
    assert ("type of returned data in 'GeneratorDataset' should be same with specified "
            "column_types, but the type of returned data: <class 'numpy.ndarray'>, specified "
            "column type: float32") in str(info.value)


def test_schema_gives_the_names_and_types():
    import cellgraph as ms

    schema = ds.Schema()
    schema.add_column("x", ms.int8)
    schema.add_column("y", "string")
    data = ds.GeneratorDataset(_two_columns, schema=schema)
    assert data.get_col_names() == ["x", "y"]
    assert len(list(data)) == 1
    schema = ds.Schema()
    schema.add_column("x", ms.int32)
    schema.add_column("y", "string")
    with pytest.raises(RuntimeError, match="specified column type: int32"):
        list(ds.GeneratorDataset(_two_columns, schema=schema))
    with pytest.raises(ValueError, match="Neither columns_names nor schema are provided."):
        ds.GeneratorDataset(_two_columns)
    with pytest.raises(ValueError, match="schema should be a path to schema file or a schema "
                                         "object."):
        ds.GeneratorDataset(_two_columns, schema=3)
