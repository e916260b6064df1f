"""PennTreebankDataset against rows and errors recorded from MindSpore 2.10 on three small
files (test: b0 b1; train: a0 .. a3; valid: c0 .. c2): its parallel readers interleave the
files, and its shards are equal runs of rows that wrap around."""
import pytest

import cellgraph.dataset as ds  # noqa: F401 (the calls in the tests eval use it)

CASES = [
    ('usage="all", shuffle=False, num_parallel_workers=1', 9, [' b0 ', ' b1 ', ' a0 ', ' a1 ', ' a2 ', ' a3 ', ' c0 ', ' c1 ', ' c2 ']),
    ('usage="all", shuffle=False, num_parallel_workers=2', 9, [' b0 ', ' a0 ', ' b1 ', ' a1 ', ' c0 ', ' a2 ', ' c1 ', ' a3 ', ' c2 ']),
    ('usage="train", shuffle=False', 4, [' a0 ', ' a1 ', ' a2 ', ' a3 ']),
    ('usage="all", shuffle=False, num_parallel_workers=2, num_shards=2, shard_id=1', 5, [' a3 ', ' c0 ', ' b0 ', ' c1 ', ' c2 ']),
    ('usage="all", shuffle=False, num_parallel_workers=1, num_shards=4, shard_id=3', 3, [' b0 ', ' b1 ', ' a0 ']),
    ('usage="all", shuffle=False, num_parallel_workers=2, num_samples=4', 4, [' b0 ', ' a0 ', ' b1 ', ' a1 ']),
]
ERRORS = [
    ('usage="dev"', ValueError, "Input usage is not within the valid set of ['train', 'valid', 'test', 'all']."),
    ('num_samples=-1', ValueError, 'num_samples exceeds the boundary between 0 and 9223372036854775807(INT64_MAX)!'),
    ('usage=1', TypeError, "Argument usage with value 1 is not of type [<class 'str'>], but got <class 'int'>."),
]


@pytest.fixture
def folder(tmp_path):
    for name, rows in (("ptb.test.txt", "b0 b1"), ("ptb.train.txt", "a0 a1 a2 a3"),
                       ("ptb.valid.txt", "c0 c1 c2")):
        (tmp_path / name).write_text("".join(f" {r} \n" for r in rows.split()))
    return str(tmp_path)


@pytest.mark.parametrize("spelled, size, expected", CASES)
def test_penn_treebank_gives_mindspores_rows(folder, spelled, size, expected):
    data = eval(f"ds.PennTreebankDataset(folder, {spelled})")  # the call as written above
    assert data.get_dataset_size() == size
    assert [r[0].item() for r in data.create_tuple_iterator(output_numpy=True)] == expected


@pytest.mark.parametrize("spelled, error, message", ERRORS)
def test_penn_treebank_arguments_are_checked_with_mindspores_words(folder, spelled, error,
                                                                    message):
    with pytest.raises(error) as info:
        eval(f"ds.PennTreebankDataset(folder, {spelled})")
    assert str(info.value) == message
