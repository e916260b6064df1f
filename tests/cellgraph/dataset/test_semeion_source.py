"""SemeionDataset reads semeion.data as MindSpore 2.10 does; file sources check their sampling
arguments with MindSpore's errors."""
import numpy as np
import pytest

import cellgraph.dataset as ds


def _line(label, seed):
    pixels = np.random.default_rng(seed).integers(0, 2, 256)
    onehot = np.eye(10, dtype=int)[label]
    return " ".join(f"{v:.4f}" for v in list(pixels) + list(onehot)), pixels


@pytest.fixture
def folder(tmp_path):
    lines = [_line(label, seed) for seed, label in enumerate([3, 0, 9])]
    (tmp_path / "semeion.data").write_text("\n".join(text for text, _ in lines) + "\n")
    return str(tmp_path), [pixels for _, pixels in lines]


def test_rows(folder):
    path, pixels = folder
    data = ds.SemeionDataset(path, shuffle=False)
    assert data.get_dataset_size() == 3 and data.get_col_names() == ["image", "label"]
    rows = list(data.create_dict_iterator(output_numpy=True, num_epochs=1))
    assert [int(r["label"]) for r in rows] == [3, 0, 9]
    assert rows[0]["image"].dtype == np.uint8 and rows[0]["image"].shape == (16, 16)
    assert rows[0]["label"].dtype == np.uint32
    np.testing.assert_array_equal(rows[1]["image"].ravel(), pixels[1])


@pytest.mark.parametrize("kwargs, error, text", [
    ({"shuffle": False, "sampler": ds.SequentialSampler()}, RuntimeError,
     "sampler and shuffle cannot be specified at the same time."),
    ({"sampler": ds.SequentialSampler(), "num_shards": 2, "shard_id": 0}, RuntimeError,
     "sampler and sharding cannot be specified at the same time."),
    ({"num_shards": 2}, RuntimeError, ("num_shards is specified and currently requires shard_id "
                                      "as well.")),
    ({"shard_id": 0}, RuntimeError, "shard_id is specified but num_shards is not."),
    ({"num_shards": 2, "shard_id": 5}, ValueError, ("Input shard_id is not within the required "
                                                   "interval of [0, 1].")),
])
def test_sampling_argument_checks(folder, kwargs, error, text):
    with pytest.raises(error) as info:
        ds.SemeionDataset(folder[0], **kwargs)
    assert text in str(info.value)


def test_map_errors_name_the_file(folder):
    def broken(x):
        raise ValueError("no")

    data = ds.SemeionDataset(folder[0]).map(broken, input_columns=["label"])
    with pytest.raises(RuntimeError, match="The corresponding data file is: .*semeion.data"):
        list(data.create_tuple_iterator())
