"""A pipeline must be a tree: MindSpore 2.10 refuses a node that feeds two consumers (zipped or
concatenated with itself, or shared by two pipelines) when the pipeline runs or is asked about
its rows, with a ValueError (the behaviour and message below are MindSpore 2.10's)."""
import gc

import numpy as np
import pytest

import cellgraph.dataset as ds

NOT_A_TREE = r"^The data pipeline is not a tree \(i\.e\., one node has 2 consumers\)$"


def _numbers(n=4):
    return ds.NumpySlicesDataset({"a": np.arange(n)}, shuffle=False)


def _values(dataset):
    return [r[0].tolist() for r in dataset.create_tuple_iterator(output_numpy=True)]


def test_concat_with_itself_is_refused_by_every_question_about_the_rows():
    data = _numbers()
    both = data + data  # building it is allowed
    questions = [
        lambda: both.get_dataset_size(), lambda: len(both), lambda: both.get_col_names(),
        lambda: both.output_shapes(), lambda: both.output_types(),
        lambda: both.get_batch_size(), lambda: both.get_repeat_count(),
        lambda: both.num_classes(), lambda: both.to_json(),
        lambda: both.create_tuple_iterator(), lambda: both.create_dict_iterator(),
        lambda: iter(both), lambda: both.device_que(), lambda: both.split([4, 4]),
    ]
    for ask in questions:
        with pytest.raises(ValueError, match=NOT_A_TREE):
            ask()
    assert both.get_init_step() == 0  # not a question about the rows
    assert _values(data) == [0, 1, 2, 3]  # the shared node runs on its own


def test_save_refuses_a_pipeline_that_is_not_a_tree(tmp_path):
    data = _numbers()
    with pytest.raises(ValueError, match=NOT_A_TREE):
        (data + data).save(str(tmp_path / "rows.mindrecord"))
    assert not list(tmp_path.iterdir())


def test_a_node_zipped_with_a_renamed_self_feeds_two_consumers():
    data = _numbers()
    zipped = ds.zip((data.rename("a", "b"), data))
    with pytest.raises(ValueError, match=NOT_A_TREE):
        _values(zipped)
    inner = _numbers().map(lambda a: a)
    zipped = ds.zip((inner.rename("a", "b"), inner.rename("a", "c")))
    with pytest.raises(ValueError, match=NOT_A_TREE):
        _values(zipped)


def test_a_node_two_pipelines_were_built_on_refuses_both():
    data = _numbers()
    first = data.map(lambda a: a + 1)
    assert _values(first) == [1, 2, 3, 4]
    second = data.map(lambda a: a + 2)
    for pipeline in (first, second, first.batch(2), first.repeat(1)):
        with pytest.raises(ValueError, match=NOT_A_TREE):
            _values(pipeline)
    del second
    gc.collect()
    # a consumer that was collected still counts, as in MindSpore
    with pytest.raises(ValueError, match=NOT_A_TREE):
        _values(first)


def test_a_name_bound_again_leaves_the_first_consumer_counted():
    data = _numbers()
    repeated = data.repeat(2)
    repeated = data.repeat(3)
    with pytest.raises(ValueError, match=NOT_A_TREE):
        _values(repeated)


def test_a_node_below_the_shared_one_is_checked_too():
    mapped = _numbers().map(lambda a: a)
    halves, singles = mapped.batch(2), mapped.batch(1)
    with pytest.raises(ValueError, match=NOT_A_TREE):
        _values(halves.repeat(2))
    with pytest.raises(ValueError, match=NOT_A_TREE):
        _values(singles)


def test_split_parts_are_copies_not_consumers():
    data = _numbers()
    first, second = data.split([2, 2], randomize=False)
    assert _values(first) == [0, 1] and _values(second) == [2, 3]
    assert _values(data) == [0, 1, 2, 3]
    zipped = first.zip(second.rename("a", "b"))
    assert [r.tolist() for r in next(zipped.create_tuple_iterator(output_numpy=True))] == [0, 2]
    assert _values(data.map(lambda a: a * 10)) == [0, 10, 20, 30]


def test_split_of_a_pipeline_reads_a_copy_of_it():
    mapped = _numbers().map(lambda a: a * 2)
    first, second = mapped.split([1, 3], randomize=False)
    assert _values(first) == [0] and _values(second) == [2, 4, 6]
    assert _values(mapped.batch(4)) == [[0, 2, 4, 6]]


def test_split_parts_keep_the_consumers_the_split_node_had():
    """MindSpore splits a copy of the dataset, which keeps the record of the nodes built on the
    original: a part of a source is run on its own, but one more node on it is refused; a
    part of a pipeline is refused."""
    source = _numbers()
    source.map(lambda a: a)
    first, second = source.split([2, 2], randomize=False)
    assert _values(first) == [0, 1] and _values(second) == [2, 3]
    with pytest.raises(ValueError, match=NOT_A_TREE):
        _values(first.batch(1))
    mapped = _numbers().map(lambda a: a + 1)
    mapped.batch(2)
    first, second = mapped.split([2, 2], randomize=False)
    with pytest.raises(ValueError, match=NOT_A_TREE):
        _values(first)
