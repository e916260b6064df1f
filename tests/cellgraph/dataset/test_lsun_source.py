"""LSUNDataset reads its split folders as MindSpore 2.10 does (labels, counts and orders
recorded from it on a folder of the same shape)."""
import numpy as np
import pytest

import cellgraph.dataset as ds


@pytest.fixture
def folder(tmp_path):
    for name, files in (("bedroom_train", ["1_1.jpg"]), ("bedroom_val", ["b.jpg"]),
                        ("classroom_train", ["121.jpg"]), ("classroom_val", ["c.jpg"]),
                        ("test", ["2.JPEG"]), ("other_train", ["x.jpg"])):
        (tmp_path / name).mkdir()
        for file in files:
            (tmp_path / name / file).write_bytes(f"{name}/{file}".encode())
    return str(tmp_path)


def _rows(data):
    return [(bytes(r[0]).decode(), int(r[1])) for r in data.create_tuple_iterator(
        output_numpy=True)]


def test_each_split_folder_is_a_label(folder):
    data = ds.LSUNDataset(folder, usage="all", shuffle=False)
    assert data.get_dataset_size() == 4 and data.num_classes() == 2
    assert _rows(data) == [("bedroom_train/1_1.jpg", 0), ("bedroom_val/b.jpg", 1),
                           ("classroom_train/121.jpg", 2), ("classroom_val/c.jpg", 3)]
    label = next(data.create_tuple_iterator(output_numpy=True))[1]
    assert label.dtype == np.uint32
    assert _rows(ds.LSUNDataset(folder, usage="valid", shuffle=False)) == \
        [("bedroom_val/b.jpg", 0), ("classroom_val/c.jpg", 1)]
    data = ds.LSUNDataset(folder, shuffle=False, classes=["bedroom"])
    assert data.num_classes() == 1
    assert _rows(data) == [("bedroom_train/1_1.jpg", 0), ("bedroom_val/b.jpg", 1)]
    assert _rows(ds.LSUNDataset(folder, usage="test", shuffle=False)) == [("test/2.JPEG", 0)]


def test_shuffle_follows_mindspore(folder):
    ds.config.set_seed(4)
    assert [label for _, label in _rows(ds.LSUNDataset(folder))] == [0, 1, 3, 2]


def test_errors(folder):
    with pytest.raises(ValueError, match=r"Input usage is not within the valid set of "
                                         r"\['train', 'test', 'valid', 'all'\]"):
        ds.LSUNDataset(folder, usage="x")
    with pytest.raises(ValueError, match="Input classes is not within the valid set of"):
        ds.LSUNDataset(folder, classes=["nope"])
    with pytest.raises(TypeError, match="Argument classes with value 1 is not of type"):
        ds.LSUNDataset(folder, classes=["bedroom", 1])
    with pytest.raises(TypeError, match="Argument classes with value bedroom is not of type"):
        ds.LSUNDataset(folder, classes="bedroom")
