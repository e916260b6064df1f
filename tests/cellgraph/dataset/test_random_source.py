"""RandomDataset makes MindSpore 2.10's rows from the same seed: the values, shapes and random
schema below were recorded from it (dataset seed 7)."""
import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph.dataset.core import config


@pytest.fixture(autouse=True)
def _seed():
    saved = dict(config._state)
    ds.config.set_seed(7)
    yield
    config._state.clear()
    config._state.update(saved)


def test_rows_of_a_schema():
    schema = ds.Schema()
    schema.add_column("image", de_type=ms.uint8, shape=[2, 3])
    schema.add_column("label", de_type=ms.float32)
    schema.add_column("z", de_type=ms.int16, shape=[-1, 2])
    rows = list(ds.RandomDataset(schema=schema, total_rows=3).create_tuple_iterator(
        output_numpy=True))
    assert [[int(c.ravel()[:1].view(np.uint8)[0]) for c in r] for r in rows] == \
        [[19, 58, 81], [112, 250, 116], [250, 78, 67]]
    assert [r[2].shape for r in rows] == [(25, 2), (24, 2), (18, 2)]
    assert rows[0][1].shape == () and rows[0][1].dtype == np.float32
    assert float(rows[2][1]) == 865309568.0  # four bytes of 78
    picked = ds.RandomDataset(schema=schema, total_rows=2, columns_list=["label"])
    assert picked.get_col_names() == ["label"]


def test_random_schema_and_counts():
    data = ds.RandomDataset(total_rows=3)
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert data.get_col_names() == ["c0"]
    assert [(r[0].dtype, r[0].shape, int(r[0].ravel()[0])) for r in rows] == [
        (np.uint8, (10, 14, 32, 23), 116), (np.uint8, (10, 14, 32, 23), 250),
        (np.uint8, (10, 14, 32, 23), 78)]
    unsized = ds.RandomDataset()
    assert unsized.get_dataset_size() == 79 and unsized.get_col_names() == ["c0"]
    first = next(unsized.create_tuple_iterator(output_numpy=True))[0]
    assert first.dtype == np.float16 and first.shape == (14, 32)
    assert ds.RandomDataset(total_rows=10, num_samples=2).get_dataset_size() == 2
    # the rows come in order whatever shuffle says, as in MindSpore
    schema = ds.Schema()
    schema.add_column("image", de_type=ms.uint8, shape=[2])
    for shuffle in (None, True, False):
        data = ds.RandomDataset(schema=schema, total_rows=5, shuffle=shuffle)
        assert [int(r[0][0]) for r in data.create_tuple_iterator(output_numpy=True)] == \
            [19, 58, 199, 81, 112]
