"""Dataset.batch checks its arguments and batches rows as MindSpore 2.10 does: the error types
and words below are MindSpore's (its tests match them)."""
import numpy as np
import pytest

import cellgraph.dataset as ds


def _ragged():
    return ds.GeneratorDataset(lambda: ((np.array([i] * i),) for i in range(1, 6)), ["a"])


def _numbers(n=5):
    return ds.GeneratorDataset(lambda: ((np.array([i]),) for i in range(n)), ["a"])


@pytest.mark.parametrize("call, error, message", [
    (lambda d: d.batch(2.5), TypeError, "batch_size should either be an int or a callable."),
    (lambda d: d.batch(0), ValueError,
     "Input batch_size is not within the required interval of [1, 2147483647]."),
    (lambda d: d.batch(2147483648), ValueError,
     "Input batch_size is not within the required interval of [1, 2147483647]."),
    (lambda d: d.batch(lambda a, b: 1), ValueError,
     "callable batch_size should take one parameter (BatchInfo)."),
    (lambda d: d.batch(2, 1), TypeError,
     ("Argument drop_remainder with value 1 is not of type [<class 'bool'>], but got "
      "<class 'int'>.")),
    (lambda d: d.batch(2, input_columns=["a"]), ValueError,
     "input_columns can be specified only when per_batch_map is set."),
    (lambda d: d.batch(2, input_columns=["a"], per_batch_map=lambda a: a), ValueError,
     "The signature of per_batch_map should match with input columns."),
])
def test_batch_arguments_are_checked_with_mindspores_words(call, error, message):
    with pytest.raises(error) as info:
        call(_numbers())
    assert str(info.value) == message


@pytest.mark.parametrize("keyword", ["column_order", "pad_info"])
def test_batch_refuses_the_1x_keywords(keyword):
    with pytest.raises(TypeError, match=f"got an unexpected keyword argument '{keyword}'"):
        _numbers().batch(2, **{keyword: None})


def test_true_is_a_batch_size_of_one_and_a_callable_sizes_each_batch():
    assert [b[0].shape for b in _numbers().batch(True)] == [(1, 1)] * 5
    sizes = _numbers(6).batch(lambda info: info.get_batch_num() + 1)
    assert [b[0].shape[0] for b in sizes.create_tuple_iterator(output_numpy=True)] == [1, 2, 3]


def test_rows_that_cannot_be_stacked_are_a_runtime_error():
    with pytest.raises(RuntimeError) as info:
        list(_ragged().batch(4))
    assert str(info.value) == ("Cannot batch tensors with different shapes in column 0. First "
                               "element had shape <1> and this element had shape <2>")
    mixed = ds.GeneratorDataset(lambda: iter([(np.array([1]),), (np.array([1.5]),)]), ["a"])
    with pytest.raises(RuntimeError) as info:
        list(mixed.batch(2))
    assert str(info.value) == ("Cannot batch tensors with different types in column 0. First "
                               "element had type int64 and this element had type float64")
    with pytest.raises(RuntimeError, match="Batch size cannot be -1 without using batch "
                                           "sampler."):
        list(_numbers().batch(-1))
