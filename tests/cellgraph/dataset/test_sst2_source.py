"""SST2Dataset: GLUE's SST-2 tab-separated files under a header line, as MindSpore 2.10 reads
them (expected rows recorded from it on the same files)."""
import pytest

import cellgraph.dataset as ds


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "train.tsv").write_text("sentence\tlabel\nit is good \t1\nbad , really bad \t0\n"
                                        "\"quoted whole\"\t1\nfine\t0\n")
    (tmp_path / "dev.tsv").write_text("sentence\tlabel\nd1 \t0\nd2 \t1\nd3 \t1\n")
    (tmp_path / "test.tsv").write_text("index\tsentence\n0\tt one .\n1\tt two .\n")
    return str(tmp_path)


def _rows(data):
    return [[str(x) for x in row] for row in data.create_tuple_iterator(output_numpy=True)]


def test_columns_and_rows(folder):
    data = ds.SST2Dataset(folder, usage="train", shuffle=False)
    assert data.get_col_names() == ["sentence", "label"]
    assert data.get_dataset_size() == 4
    assert _rows(data) == [["it is good ", "1"], ["bad , really bad ", "0"],
                           ["quoted whole", "1"], ["fine", "0"]]
    data = ds.SST2Dataset(folder, usage="test", shuffle=False)
    assert data.get_col_names() == ["sentence"]
    assert _rows(data) == [["t one ."], ["t two ."]]
    assert _rows(ds.SST2Dataset(folder, usage="dev", shuffle=False, num_shards=2,
                                shard_id=0)) == [["d1 ", "0"], ["d2 ", "1"]]
    assert len(_rows(ds.SST2Dataset(folder, usage="train", shuffle=False, num_samples=3))) == 3


def test_default_usage_is_train_shuffled_by_the_seed(folder):
    ds.config.set_seed(7)
    assert [row[0] for row in _rows(ds.SST2Dataset(folder))] == \
        ["fine", "it is good ", "quoted whole", "bad , really bad "]


def test_errors(folder):
    with pytest.raises(ValueError, match=r"Input usage is not within the valid set of "
                                         r"\['train', 'test', 'dev'\]"):
        ds.SST2Dataset(folder, usage="all")
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.SST2Dataset(folder + "/none")
    with pytest.raises(TypeError, match="shuffle must be of boolean or enum of 'Shuffle'"):
        ds.SST2Dataset(folder, shuffle=1)
