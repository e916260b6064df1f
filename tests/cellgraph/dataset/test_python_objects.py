"""Dict columns, as MindSpore's pipeline carries them: a dict a source, a map or a
per_batch_map gives stays a Python dict; batch groups dicts key by key; iterators convert what
a dict holds, recursively, to arrays or Tensors (strings stay arrays). The reprs below are
MindSpore 2.10's (CPU), printed by the same code."""
import numpy as np
import pytest

import cellgraph.dataset as ds


def _rows():
    for i in range(2):
        yield {"n": i, "f": 1.5, "l": [1, 2], "s": "x", "a": np.array([1, 2], np.int32),
               "nest": {"k": i}}, i


def test_dict_columns_come_out_converted_recursively():
    data = ds.GeneratorDataset(_rows, ["c1", "c2"], shuffle=False)
    got = [repr(r) for r in data.create_dict_iterator(output_numpy=True)]
    assert got[0] == ("{'c1': {'n': array(0), 'f': array(1.5), 'l': [array(1), array(2)], "
                      "'s': array('x', dtype='<U1'), 'a': array([1, 2], dtype=int32), "
                      "'nest': {'k': array(0)}}, 'c2': array(0, dtype=int64)}")
    row = next(iter(data.create_tuple_iterator()))
    assert repr(row[0]["n"]) == "Tensor(shape=[], dtype=Int64, value= 0)"
    assert repr(row[0]["l"][1]) == "Tensor(shape=[], dtype=Int64, value= 2)"
    assert repr(row[0]["a"]) == "Tensor(shape=[2], dtype=Int32, value= [1, 2])"
    assert repr(row[0]["s"]) == "array('x', dtype='<U1')"
    assert repr(row[1]) == "Tensor(shape=[], dtype=Int64, value= 0)"


def test_map_reads_a_dict_and_batch_groups_dicts_by_key():
    def rows():
        for i in range(5):
            yield {"nested_dict": {"powers": np.power(i, [1, 2, 3])}}, i

    data = ds.GeneratorDataset(rows, ["col1", "col2"])
    data = data.map(lambda c: c["nested_dict"], input_columns=["col1"]).batch(5)
    batch = next(data.create_dict_iterator(output_numpy=True))
    np.testing.assert_array_equal(batch["col1"]["powers"],
                                  [[0, 0, 0], [1, 1, 1], [2, 4, 8], [3, 9, 27], [4, 16, 64]])
    assert repr(batch["col2"]) == "array([0, 1, 2, 3, 4], dtype=int64)"


def test_per_batch_map_returns_dicts_for_whole_batches():
    def per_batch_map(col1, batch_info):
        return {"original_col1": col1, "index": np.arange(3)}, {"copied_col1": col1}

    data = ds.GeneratorDataset(lambda: iter(range(9)), ["col1"])
    data = data.batch(3, per_batch_map=per_batch_map, output_columns=["col1", "col2"])
    got = [repr(r) for r in data.create_dict_iterator(output_numpy=True)]
    assert got[1] == ("{'col1': {'original_col1': [array(3), array(4), array(5)], "
                      "'index': array([0, 1, 2])}, 'col2': {'copied_col1': [array(3), array(4), "
                      "array(5)]}}")


def test_64_bit_integer_columns_print_their_dtype():
    data = ds.NumpySlicesDataset({"a": np.arange(3, dtype=np.uint64), "b": np.arange(3)},
                                 shuffle=False)
    row = next(data.create_tuple_iterator(output_numpy=True))
    assert repr(row) == "[array(0, dtype=uint64), array(0, dtype=int64)]"
    assert row[1].dtype == np.int64


def _dict_rows():
    for i in range(4):
        yield {"integer": i, "pair": np.array([i, i + 1], np.int32)}


def test_batch_of_dicts_stacks_each_key_or_lists_it_after_per_batch_map():
    """MindSpore 2.10: a batch of dict rows is one dict, each key's values one NumPy array; a
    per_batch_map returning a list of dicts gives each key's values as a list."""
    plain = ds.GeneratorDataset(_dict_rows, ["c"]).batch(2)
    row = next(plain.create_dict_iterator(output_numpy=True, num_epochs=1))["c"]
    assert row["integer"].tolist() == [0, 1] and row["pair"].shape == (2, 2)

    def as_dicts(c, info):
        return ([{"v": np.power(x["integer"], 2)} for x in c],)

    mapped = ds.GeneratorDataset(_dict_rows, ["c"]).batch(2, per_batch_map=as_dicts)
    row = next(mapped.create_dict_iterator(output_numpy=True, num_epochs=1))["c"]
    assert isinstance(row["v"], list) and [int(v) for v in row["v"]] == [0, 1]

    def array_and_dict(c, info):
        return ({"a": 1},)

    whole = ds.GeneratorDataset(_dict_rows, ["c"]).batch(2, per_batch_map=array_and_dict)
    assert next(whole.create_dict_iterator(output_numpy=True, num_epochs=1))["c"]["a"] == 1


def test_batch_of_dicts_errors():
    def ragged():
        yield {"a": np.array([1, 2])}
        yield {"a": np.array([1, 2, 3])}

    with pytest.raises(RuntimeError, match="Batch: failed to create a NumPy array with primitive "
                                           "types|setting an array element with a sequence"):
        list(ds.GeneratorDataset(ragged, ["c"]).batch(2).create_tuple_iterator())

    def other_keys():
        yield {"a": 1}
        yield {"b": 1}

    with pytest.raises(RuntimeError, match="b was not found in previous rows"):
        list(ds.GeneratorDataset(other_keys, ["c"]).batch(2).create_tuple_iterator())
    def two():  # a node feeds one pipeline only
        return ds.zip((ds.GeneratorDataset(_dict_rows, ["x"]),
                       ds.GeneratorDataset(_dict_rows, ["y"])))

    def dict_and_list(x, y, info):
        return {"a": 1}, y

    def too_few(x, y, info):
        return x, np.array([1])

    with pytest.raises(RuntimeError, match="mismatched types returned from per_batch_map"):
        list(two().batch(2, per_batch_map=dict_and_list).create_tuple_iterator())
    with pytest.raises(RuntimeError, match="column: y expects: 2 rows returned from "
                                           "'per_batch_map', got: 1"):
        list(two().batch(2, per_batch_map=too_few).create_tuple_iterator())


def test_per_batch_map_errors_are_reported_as_mindspore_does():
    def broken(col, info):
        return 1 / 0

    data = ds.GeneratorDataset(_dict_rows, ["c"]).batch(2, per_batch_map=broken)
    with pytest.raises(RuntimeError) as info:
        list(data.create_tuple_iterator())
    text = str(info.value)
    for part in ("Exception thrown from user defined Python function in dataset",
                 "Python Call Stack", "Traceback (most recent call last):", "in broken",
                 "ZeroDivisionError: division by zero", "Dataset Pipeline Error Message:"):
        assert part in text
