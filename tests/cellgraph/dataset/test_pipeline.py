"""Pipeline methods, iterators, the prefetch thread and seeding."""
import threading

import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import Tensor


@pytest.fixture(autouse=True)
def _seeded():
    ds.config.set_seed(7)


def _numbers(n=10, **kwargs):
    return ds.NumpySlicesDataset({"a": np.arange(n), "b": np.arange(n) * 10}, shuffle=False,
                                 **kwargs)


def _values(dataset, column=0):
    return [r[column].tolist() for r in dataset.create_tuple_iterator(output_numpy=True)]


def test_map_replaces_columns_in_place():
    data = _numbers(3).map(lambda a: a + 100, input_columns="a")
    assert data.get_col_names() == ["a", "b"]
    assert _values(data) == [100, 101, 102]


def test_map_with_several_operations_and_output_columns():
    data = _numbers(3).map([lambda a: a * 2, lambda a: (a, a + 1)], input_columns=["a"],
                           output_columns=["double", "double_plus_one"])
    assert data.get_col_names() == ["double", "double_plus_one", "b"]
    assert _values(data, 1) == [1, 3, 5]
    merged = _numbers(3).map(lambda a, b: a + b, input_columns=["a", "b"],
                             output_columns=["sum"])
    assert merged.get_col_names() == ["sum"] and _values(merged) == [0, 11, 22]


def test_map_errors_name_the_columns():
    with pytest.raises(ValueError, match="no column named 'c'"):
        _numbers().map(lambda c: c, input_columns="c")
    bad = _numbers(2).map(lambda a: (a, a), input_columns="a")
    with pytest.raises(RuntimeError, match="returned in 'map' operations: 2, the number of "
                                           "'output_columns': 1"):
        list(bad)


def test_batch_stacks_and_drops_the_remainder():
    data = _numbers(10).batch(4)
    assert data.get_dataset_size() == 3
    batches = list(data.create_tuple_iterator(output_numpy=True))
    assert [b[0].tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    kept = _numbers(10).batch(4, drop_remainder=True)
    assert kept.get_dataset_size() == 2 and len(list(kept)) == 2
    assert kept.get_batch_size() == 4


def test_batch_of_different_shapes_is_an_error():
    ragged = ds.GeneratorDataset(lambda: (np.zeros(i + 1) for i in range(3)), ["x"]).batch(3)
    with pytest.raises(RuntimeError, match="Cannot batch tensors with different shapes"):
        list(ragged)


def test_per_batch_map():
    data = _numbers(4).batch(2, per_batch_map=lambda a, b, info: ([x * info.get_batch_num()
                                                                   for x in a], b),
                             input_columns=["a", "b"])
    assert _values(data) == [[0, 0], [2, 3]]


def test_shuffle_permutes_each_epoch_anew_and_repeats_after_set_seed():
    data = _numbers(50).shuffle(buffer_size=50)
    it = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    first = [r[0].item() for r in it]
    second = [r[0].item() for r in it]
    assert sorted(first) == list(range(50)) and sorted(second) == list(range(50))
    assert first != second and first != list(range(50))
    ds.config.set_seed(7)
    again = [r[0].item() for r in data.create_tuple_iterator(output_numpy=True)]
    assert again == first


def test_small_buffer_shuffle_never_runs_ahead_of_its_buffer():
    order = _values(_numbers(100).shuffle(buffer_size=4))
    assert sorted(order) == list(range(100)) and order != list(range(100))
    # a row cannot come out before it was read: the buffer holds 4 rows ahead
    assert all(value - position <= 3 for position, value in enumerate(order))


def test_repeat_take_skip_project_rename():
    assert _values(_numbers(3).repeat(2)) == [0, 1, 2, 0, 1, 2]
    assert _numbers(3).repeat(2).get_dataset_size() == 6
    assert _numbers(3).repeat(2).get_repeat_count() == 2
    assert _values(_numbers(10).skip(7)) == [7, 8, 9]
    assert _values(_numbers(10).take(2)) == [0, 1]
    assert _numbers(10).skip(3).take(4).get_dataset_size() == 4
    assert _numbers(3).project(["b"]).get_col_names() == ["b"]
    assert _values(_numbers(3).project("b")) == [0, 10, 20]
    renamed = _numbers(2).rename(["a"], ["alpha"])
    assert renamed.get_col_names() == ["alpha", "b"]
    assert list(renamed.create_dict_iterator(output_numpy=True))[1]["alpha"].item() == 1


def test_split_is_disjoint_and_stable_across_epochs():
    train, test = ds.NumpySlicesDataset(np.arange(20), ["a"]).split([0.75, 0.25])
    assert (train.get_dataset_size(), test.get_dataset_size()) == (15, 5)
    first = set(_values(test))
    assert first == set(_values(test)) and not first & set(_values(train))
    assert first | set(_values(train)) == set(range(20))
    parts = _numbers(6).map(lambda a: a, input_columns="a").split([4, 2], randomize=False)
    assert [_values(p) for p in parts] == [[0, 1, 2, 3], [4, 5]]
    with pytest.raises(RuntimeError, match="Sum of split sizes 7 is not equal to dataset size "
                                           "6."):
        _numbers(6).split([4, 3])


def test_split_sizes_as_mindspore_computes_them():
    """Rounded fractions; the rows too many come off the first split that keeps one, the rows
    still wanted go to the first (MindSpore's rule, and its messages)."""
    sizes = [p.get_dataset_size() for p in _numbers(5).split([0.3, 0.3, 0.4], randomize=False)]
    assert sizes == [1, 2, 2]
    sizes = [p.get_dataset_size() for p in _numbers(7).split([0.2, 0.2, 0.6], randomize=False)]
    assert sizes == [2, 1, 4]
    with pytest.raises(ValueError, match="sizes cannot be empty."):
        _numbers(5).split([])
    with pytest.raises(ValueError, match="sizes should be list of int or list of float."):
        _numbers(5).split([1, 0.5])
    with pytest.raises(ValueError, match="the percentages do not sum up to 1."):
        _numbers(5).split([0.5, 0.6])
    with pytest.raises(RuntimeError, match="Split percentage 0.01 is too small."):
        _numbers(5).split([0.01, 0.99])


def test_iterators_give_tensors_dicts_and_columns():
    data = _numbers(4).batch(2)
    row = next(iter(data.create_tuple_iterator()))
    assert isinstance(row, list) and isinstance(row[0], Tensor)
    assert row[0].dtype == ms.int64 and row[0].shape == (2,)
    item = next(iter(data.create_dict_iterator()))
    assert set(item) == {"a", "b"} and isinstance(item["b"], Tensor)
    only_b = next(iter(data.create_tuple_iterator(columns=["b"], output_numpy=True)))
    assert len(only_b) == 1 and only_b[0].tolist() == [0, 10]
    assert [r[0].asnumpy().tolist() for r in data] == [[0, 1], [2, 3]]


def test_iterator_runs_the_number_of_epochs_it_was_made_for():
    it = _numbers(2).create_tuple_iterator(num_epochs=1)
    assert len(list(it)) == 2
    with pytest.raises(RuntimeError, match="epoch"):
        list(it)


def test_rows_are_prepared_in_a_worker_thread():
    threads = set()

    def record(a):
        threads.add(threading.current_thread().name)
        return a

    list(_numbers(5).map(record, input_columns="a").create_tuple_iterator())
    assert threads == {"cellgraph-dataset-prefetch"}


def test_prefetch_stays_ahead_by_at_most_the_prefetch_size():
    produced = []
    ds.config.set_prefetch_size(2)
    try:
        data = _numbers(50).map(lambda a: produced.append(a) or a, input_columns="a")
        it = iter(data.create_tuple_iterator(output_numpy=True))
        next(it)
        for _ in range(100):  # let the worker fill its queue
            if len(produced) >= 4:
                break
            threading.Event().wait(0.01)
        assert 2 <= len(produced) <= 4  # one consumed, two queued, one waiting to be put
        it.stop()
    finally:
        ds.config.set_prefetch_size(16)


def test_errors_in_the_pipeline_reach_the_loop():
    def broken(a):
        if a == 3:
            raise KeyError("row three")
        return a

    # as MindSpore: a RuntimeError naming the map, with the function's own error and traceback
    with pytest.raises(RuntimeError) as info:
        list(_numbers(5).map(broken, input_columns="a"))
    message = str(info.value)
    assert message.startswith("Exception thrown from user defined Python function in dataset.")
    assert "map operation: [PyFunc] failed. Error description:\nKeyError: " in message
    assert "KeyError: 'row three'" in message and "in broken" in message
    assert isinstance(info.value.__cause__, KeyError)


def test_a_map_function_must_return_values_that_make_tensors():
    """As MindSpore 2.10 checks them: None, ragged lists and objects of no data type (a
    generator) are the function's errors; lists, strings, numbers and dicts are values, and
    functions composed in one map pass each other anything."""
    def rows(fn, *more):
        data = ds.NumpySlicesDataset([1, 2], ["a"], shuffle=False)
        return [r[0] for r in data.map([fn, *more], input_columns="a")
                .create_tuple_iterator(num_epochs=1, output_numpy=True)]

    def numbers(_):
        yield np.array([1], np.int32)

    for fn, words in ((lambda a: None, "Got None from Python object"),
                      (numbers, "Failed to create tensor from numpy array, data type is unknown"),
                      (lambda a: [np.ones(2), np.ones(3)], "Error description:\nValueError: ")):
        with pytest.raises(RuntimeError) as info:
            rows(fn)
        assert str(info.value).startswith("Exception thrown from user defined Python function")
        assert f"map operation: [PyFunc] failed. {words}" in str(info.value)
    np.testing.assert_array_equal(rows(lambda a: [a, 2])[1], [2, 2])
    assert rows(lambda a: "ab")[0] == "ab" and rows(lambda a: 3.5)[0] == 3.5
    assert rows(numbers, lambda g: next(g) + 1)[0].tolist() == [2]


def test_a_map_error_names_the_data_file_of_its_row(tmp_path):
    path = tmp_path / "lines.txt"
    path.write_text("one\ntwo\n")

    def broken(text):
        raise ValueError("no")

    data = ds.TextFileDataset(str(path), shuffle=False).map(broken, input_columns="text")
    with pytest.raises(RuntimeError) as info:
        list(data)
    assert (f"map operation: [PyFunc] failed. The corresponding data file is: {path}. Error "
            f"description:\nValueError: ") in str(info.value)


def test_config_values():
    ds.config.set_seed(99)
    assert ds.config.get_seed() == 99
    with pytest.raises(ValueError):
        ds.config.set_seed(-1)
    ds.config.set_num_parallel_workers(2)
    assert ds.config.get_num_parallel_workers() == 2
    assert ds.config.get_prefetch_size() == 16


def test_zip_puts_columns_side_by_side_until_the_shortest_ends():
    letters = ds.NumpySlicesDataset({"c": np.arange(4) + 100}, shuffle=False)
    zipped = ds.zip((_numbers(), letters))
    assert zipped.get_col_names() == ["a", "b", "c"]
    assert zipped.get_dataset_size() == 4
    assert _values(zipped, 2) == [100, 101, 102, 103]
    assert _values(zipped, 1) == [0, 10, 20, 30]
    letters = ds.NumpySlicesDataset({"c": np.arange(4) + 100}, shuffle=False)
    assert _values(letters.zip(_numbers().project("a")), 1) == [0, 1, 2, 3]
    # MindSpore 2.10 builds a zip of the same column names and refuses it when it is read
    twice = ds.zip((_numbers(), _numbers()))
    assert twice.get_dataset_size() == 10
    with pytest.raises(RuntimeError, match="Invalid data, duplicate column b already exists "
                                           "when zipping datasets."):
        twice.get_col_names()
    with pytest.raises(RuntimeError, match="duplicate column b already exists"):
        _values(ds.zip((_numbers(), _numbers())))
    one = ds.NumpySlicesDataset({"z": np.arange(4), "a": np.arange(4)}, shuffle=False)
    with pytest.raises(RuntimeError, match="duplicate column a already exists"):
        _values(ds.zip((_numbers(), one)))
    # MindSpore 2.10's checks and words
    with pytest.raises(TypeError, match="^Invalid dataset, expected Dataset object, but got "
                                        "<class 'list'>!$"):
        ds.zip((_numbers(), [1, 2]))
    for alone in ((), (_numbers(),)):
        with pytest.raises(ValueError, match="^Can't zip empty or just one dataset!$"):
            ds.zip(alone)
    with pytest.raises(TypeError, match=r"^Argument datasets with value 3 is not of type "
                                        r"\[<class 'tuple'>, <class '.*\.Dataset'>\]"):
        _numbers().zip(3)
    with pytest.raises(TypeError, match=r"^Argument dataset\[1\] with value 3 is not of type "
                                        r"\[<class '.*\.Dataset'>\], but got <class 'int'>\.$"):
        _numbers().concat([_numbers(), 3])
    with pytest.raises(TypeError, match=r"^Argument datasets with value 3 is not of type "
                                        r"\[<class 'list'>, <class '.*\.Dataset'>\]"):
        _numbers().concat(3)


def test_concat_chains_rows_of_the_same_columns():
    both = _numbers(3).concat(_numbers(2))
    assert both.get_dataset_size() == 5
    assert _values(both) == [0, 1, 2, 0, 1]
    assert _values(_numbers(2) + _numbers(1) + _numbers(2), 1) == [0, 10, 0, 0, 10]
    # MindSpore builds a concat of differing columns, ranks or types, and refuses it when read
    # (its messages)
    different = _numbers().concat(_numbers().project("a"))
    assert different.get_dataset_size() == 2 * _numbers().get_dataset_size()
    with pytest.raises(RuntimeError, match="'column name' or 'column order' of concat datasets "
                                           "should be the same"):
        _values(different)
    ints = ds.NumpySlicesDataset({"a": np.arange(2)}, shuffle=False)
    floats = ds.NumpySlicesDataset({"a": np.arange(2.0, dtype=np.float32)}, shuffle=False)
    matrix = ds.NumpySlicesDataset({"a": np.zeros((2, 1, 1), np.int64)}, shuffle=False)
    with pytest.raises(RuntimeError, match="data types of the two datasets to be concatenated "
                                           "should be the same, but got: float32 and int64"):
        _values(floats + ints)
    ints = ds.NumpySlicesDataset({"a": np.arange(2)}, shuffle=False)  # one pipeline a node
    with pytest.raises(RuntimeError, match="tensor rank of the two datasets to be concatenated "
                                           "should be the same, but got: 0 and 2"):
        _values(ints + matrix)


def test_map_and_batch_take_mindspores_positions_and_keywords():
    def data():  # a node feeds one pipeline only
        return ds.NumpySlicesDataset({"a": np.arange(4), "b": np.arange(4)}, shuffle=False)

    # the fourth argument of map is num_parallel_workers, as in MindSpore
    mapped = data().map(lambda x: x + 1, ["a"], ["a"], 1, python_multiprocessing=False,
                      max_rowsize=16, cache=None, callbacks=None, offload=None)
    assert [int(r[0]) for r in mapped.create_tuple_iterator(output_numpy=True)] == [1, 2, 3, 4]
    with pytest.raises(TypeError, match="foo"):
        data().map(lambda x: x, ["a"], foo=1)
    batched = data().batch(2, False, 1, per_batch_map=None, input_columns=None)
    assert batched.get_dataset_size() == 2
    with pytest.raises(TypeError, match="foo"):
        data().batch(2, foo=1)


def test_output_shapes_estimate_marks_varying_axes_none():
    def gen():
        for n in (2, 3, 2):
            yield np.ones((n, 4), np.float32), np.int32(n)

    data = ds.GeneratorDataset(gen, ["a", "b"])
    # MindSpore 2.10: [[2, 4], []] and [[None, 4], []]
    assert data.output_shapes() == [[2, 4], []]
    assert data.output_shapes(estimate=True) == [[None, 4], []]
    assert ds.NumpySlicesDataset(np.ones((3, 2, 5)), ["x"]).output_shapes(True) == [[2, 5]]


def test_num_parallel_workers_is_checked_as_mindspore_checks_it(tmp_path):
    import multiprocessing

    cpus = multiprocessing.cpu_count()
    makers = [lambda n: ds.GeneratorDataset([1, 2], ["a"], num_parallel_workers=n),
              lambda n: ds.NumpySlicesDataset([1, 2], num_parallel_workers=n),
              lambda n: ds.NumpySlicesDataset([1, 2]).map(lambda x: x, num_parallel_workers=n),
              lambda n: ds.NumpySlicesDataset([1, 2]).batch(1, num_parallel_workers=n),
              lambda n: ds.MnistDataset(str(tmp_path), num_parallel_workers=n)]
    for make in makers:
        for bad in (0, cpus + 1):
            with pytest.raises(ValueError, match=f"num_parallel_workers exceeds the boundary "
                                                 f"between 1 and {cpus}!"):
                make(bad)
        with pytest.raises(TypeError, match="Argument num_parallel_workers with value 1.5 is "
                                            "not of type"):
            make(1.5)
        with pytest.raises(TypeError, match="with value True is not of type"):
            make(True)
    ds.NumpySlicesDataset([1, 2], num_parallel_workers=None).map(lambda x: x,
                                                                 num_parallel_workers=cpus)


def test_autotune_settings_are_checked_and_kept():
    assert ds.config.get_autotune_interval() == 0 and ds.config.get_enable_autotune() is False
    ds.config.set_autotune_interval(100)
    assert ds.config.get_autotune_interval() == 100
    ds.config.set_autotune_interval(0)
    with pytest.raises(TypeError, match="interval must be of type int"):
        ds.config.set_autotune_interval(True)
    with pytest.raises(ValueError, match="required range"):
        ds.config.set_autotune_interval(-1)
    ds.config.set_enable_autotune(True)
    assert ds.config.get_enable_autotune() is True
    ds.config.set_enable_autotune(False)
    with pytest.raises(TypeError, match="enable must be of type bool"):
        ds.config.set_enable_autotune(1)
    with pytest.raises(RuntimeError, match="cannot be the empty string"):
        ds.config.set_enable_autotune(True, "")
    with pytest.raises(RuntimeError):  # MindSpore checks the folder of the prefix
        ds.config.set_enable_autotune(True, "/nonexistent/folder/autotune_out")
    assert ds.config.get_enable_autotune() is False


def test_output_types_of_string_and_bytes_columns_have_no_width():
    """MindSpore types a string column dtype('<U') and a bytes column dtype('S'): equal to
    np.str_ and np.bytes_, whatever the widths of the values."""
    data = ds.NumpySlicesDataset({"a": np.array(["ab", "c"]), "b": np.array([b"x", b"yy"]),
                                  "c": [1, 2]}, shuffle=False)
    types = data.output_types()
    assert types == [np.dtype("<U"), np.dtype("S"), np.int64]
    assert types[0] == np.str_ and types[1] == np.bytes_


@pytest.mark.parametrize("size, error, text", [
    (1, ValueError, "Input buffer_size is not within the required interval of [2, 2147483647]."),
    (2 ** 31, ValueError, "Input buffer_size is not within the required interval"),
    (2.5, TypeError, "Argument buffer_size with value 2.5 is not of type [<class 'int'>]"),
])
def test_shuffle_buffer_size_checks(size, error, text):
    with pytest.raises(error) as info:
        _numbers().shuffle(size)
    assert text in str(info.value)


@pytest.mark.parametrize("count, error, text", [
    (0, ValueError, ("count should be either -1 or within the required interval of "
                    "(0, 2147483647], got 0.")),
    (2.5, TypeError, "Argument count with value 2.5 is not of type [<class 'int'>]"),
])
def test_take_count_checks(count, error, text):
    with pytest.raises(error) as info:
        _numbers().take(count)
    assert text in str(info.value)


def test_output_shapes_estimate_errors():
    def rows():
        yield (np.zeros((2,)),)
        yield (np.zeros((2, 3)),)

    data = ds.GeneratorDataset(rows, ["data1"])
    with pytest.raises(RuntimeError, match="Inconsistent shapes, expect same shape for each data "
                                           "row, last data row: <2,3>, current data row: <2>"):
        data.output_shapes(estimate=True)
    with pytest.raises(TypeError, match=r"Argument estimate with value 1 is not of type "
                                        r"\[<class 'bool'>\]"):
        data.output_shapes(estimate=1)


def test_len_is_the_dataset_size():
    # MindSpore's Dataset.__len__ is get_dataset_size(): after batching and sharding too
    def data():
        return ds.NumpySlicesDataset(np.arange(10), shuffle=False)

    assert len(data()) == 10
    assert len(data().batch(3)) == 4 and len(data().batch(3, drop_remainder=True)) == 3
    assert len(ds.NumpySlicesDataset(np.arange(10), num_shards=3, shard_id=0)) == 4


def _counting(start, stop):
    def gen():
        for i in range(start, stop):
            yield (np.array(i),)
    return gen


def test_concat_use_sampler_shards_the_concatenated_rows_as_mindspore():
    # recorded from MindSpore 2.10: 3 + 7 rows over 4 shards, generators or mappable sources
    expected = [([0, 4, 8], 3), ([1, 5, 9], 3), ([2, 6], 2), ([3, 7], 2)]
    for mappable in (False, True):
        got = []
        for shard in range(4):
            if mappable:
                data = (ds.NumpySlicesDataset(list(range(3)), ["c"], shuffle=False)
                        + ds.NumpySlicesDataset(list(range(3, 10)), ["c"], shuffle=False))
            else:
                data = (ds.GeneratorDataset(_counting(0, 3), ["c"])
                        + ds.GeneratorDataset(_counting(3, 10), ["c"]))
            data.use_sampler(ds.DistributedSampler(4, shard, shuffle=False))
            rows = [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]
            got.append((rows, data.get_dataset_size()))
        assert got == expected


def test_concat_use_sampler_random_interleaves_the_datasets():
    ds.config.set_seed(5)
    data = ds.GeneratorDataset(_counting(0, 10), ["c"]) + ds.GeneratorDataset(_counting(10, 20),
                                                                               ["c"])
    data.use_sampler(ds.RandomSampler())
    rows = [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]
    assert sorted(rows) == list(range(20))
    assert rows != list(range(20))
    # each dataset keeps its own order
    assert [r for r in rows if r < 10] == list(range(10))
    assert [r for r in rows if r >= 10] == list(range(10, 20))


def test_map_passes_an_operations_outputs_to_the_next_as_its_inputs():
    # MindSpore: a function returning two values feeds a next operation taking two
    data = ds.NumpySlicesDataset([[1, 2]], column_names=["col0"], shuffle=False)
    data = data.map(input_columns=["col0"],
                    operations=[lambda x: x * 3, lambda x: (x, x * x),
                                lambda *images: np.stack(images)])
    rows = [r["col0"].tolist() for r in data.create_dict_iterator(num_epochs=1,
                                                                   output_numpy=True)]
    assert rows == [[[3, 6], [9, 36]]]


def test_compose_checks_its_list_as_mindspore():
    from cellgraph.dataset import transforms

    with pytest.raises(TypeError, match=r"transforms\[0\] is neither a transforms op "
                                        r"\(TensorOperation\) nor a callable pyfunc."):
        transforms.Compose([1])
    with pytest.raises(ValueError, match="transforms list can not be empty."):
        transforms.RandomChoice([])
    with pytest.raises(TypeError, match="Argument transforms list with value"):
        transforms.Compose((lambda x: x,))
    with pytest.raises(ValueError, match=r"op_list\[0\] should be a dataset processing "
                                         r"operation instance"):
        transforms.RandomApply([transforms.OneHot])
    with pytest.raises(RuntimeError, match="Input Tensor is not valid."):
        transforms.Compose([lambda x: x + x])()


def test_flat_map_concatenates_what_func_makes_of_each_row():
    # MindSpore 2.10 gives [0, 1, 0, 1, 2, 3, 2, 3] (its docstring's example)
    data = ds.NumpySlicesDataset([[0, 1], [2, 3]], shuffle=False)
    data = data.flat_map(lambda a: ds.NumpySlicesDataset(a, shuffle=False).repeat(2))
    assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == \
        [0, 1, 0, 1, 2, 3, 2, 3]
    with pytest.raises(TypeError, match="func must be a function."):
        data.flat_map(3)
    with pytest.raises(TypeError, match="flat_map must return a Dataset object."):
        ds.NumpySlicesDataset([1], shuffle=False).flat_map(lambda a: a)


def test_a_dict_column_s_shape_is_mindspore_s():
    """MindSpore 2.10: a column of Python dicts has shape [0] (and type object)."""
    def rows():
        for i in range(3):
            yield {"a": i}, np.ones((2, 3), np.float32)

    data = ds.GeneratorDataset(rows, ["attr", "data"], shuffle=False)
    assert data.output_shapes() == [[0], [2, 3]] == data.output_shapes(estimate=True)
    assert data.output_types() == [np.dtype(object), np.float32]


def test_concat_refuses_a_dataset_without_samples_as_mindspore():
    full = ds.NumpySlicesDataset([1, 2, 3], ["x"], shuffle=False)
    empty = ds.NumpySlicesDataset([1, 2], ["x"], shuffle=False).skip(2)
    with pytest.raises(ValueError, match="There are no samples in the dataset number 1. Please "
                                         "make sure there are valid samples in the dataset."):
        full.concat(empty)
    again = ds.NumpySlicesDataset([4, 5], ["x"], shuffle=False)
    full = ds.NumpySlicesDataset([1, 2, 3], ["x"], shuffle=False)
    assert [int(r[0]) for r in (full + again).create_tuple_iterator(output_numpy=True)] == \
        [1, 2, 3, 4, 5]


def test_map_argument_checks_as_mindspore():
    # MindSpore 2.10's exception types and words
    data = ds.NumpySlicesDataset(([np.zeros((4, 4, 3), np.uint8)] * 2, [1, 2]), ["data", "label"])
    with pytest.raises(ValueError, match="should be a dataset processing operation instance, "
                                         "but got: <class .*HWC2CHW'>. It may be missing "
                                         "parentheses for instantiation."):
        data.map(operations=ds.vision.HWC2CHW, input_columns="data")
    with pytest.raises(ValueError, match="Parameter operations's element of method map should "
                                         "be a python function or class method which should be "
                                         "callable, but got: 3."):
        data.map(operations=[3], input_columns="data")
    for rowsize in ((12, 20), "16", 20.5):
        with pytest.raises(TypeError, match=r"Argument max_rowsize with value .* is not of type "
                                            r"\[<class 'int'>, <class 'list'>\]"):
            data.map(operations=[lambda x: x], max_rowsize=rowsize)
    with pytest.raises(TypeError, match=r"max_rowsize should be a single integer or a "
                                        r"list\[in_rowsize, out_rowsize\] of length 2."):
        data.map(operations=[lambda x: x], max_rowsize=[1, 2, 3])
    with pytest.raises(ValueError, match=r"Input max_rowsize is not within the required "
                                         r"interval of \[-1, 2147483647\]."):
        data.map(operations=[lambda x: x], max_rowsize=-2)
    with pytest.raises(ValueError, match=r"Input max_rowsize\[0\] is not within"):
        data.map(operations=[lambda x: x], max_rowsize=[-2, 3])
    with pytest.raises(TypeError, match="Argument python_multiprocessing with value 1 is not of "
                                        "type"):
        data.map(operations=[lambda x: x], python_multiprocessing=1)
    # (a map MindSpore refused still counts as a consumer of `data`: a new source)
    data = ds.NumpySlicesDataset(([np.zeros((4, 4, 3), np.uint8)] * 2, [1, 2]), ["data", "label"])
    rows = data.map(operations=[lambda x: x + 1], input_columns="data", max_rowsize=[-1, 8])
    assert int(next(rows.create_tuple_iterator(output_numpy=True))[0].max()) == 1


def test_skip_checks_its_count_as_mindspore():
    """MindSpore 2.10's checks and words for skip's count."""
    data = ds.NumpySlicesDataset([1, 2, 3], ["x"], shuffle=False)
    with pytest.raises(ValueError, match=r"Input count is not within the required interval of "
                                         r"\[0, 2147483647\]\."):
        data.skip(-1)
    with pytest.raises(TypeError, match=r"Argument count with value True is not of type "
                                        r"\(<class 'int'>,\), but got <class 'bool'>\."):
        data.skip(True)
    assert [int(r[0]) for r in data.skip(2).create_tuple_iterator(output_numpy=True)] == [3]


def test_input_indexs_is_found_below_where_none_was_set():
    # MindSpore 2.10's answers
    data = ds.NumpySlicesDataset([1, 2, 3], column_names=["x"])
    assert data.input_indexs == ()
    data.input_indexs = 10
    assert data.shuffle(2).project(["x"]).input_indexs == 10
    def other():
        shuffled = ds.NumpySlicesDataset([1, 2, 3], column_names=["x"]).shuffle(2)
        assert shuffled.input_indexs == ()
        shuffled.input_indexs = (1, 0)
        return shuffled

    assert (data + other()).input_indexs == 10
    unset = ds.NumpySlicesDataset([1, 2, 3], column_names=["x"])
    assert (unset + other().project(["x"])).input_indexs == (1, 0)
