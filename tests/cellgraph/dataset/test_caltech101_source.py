"""Caltech101Dataset reads the category folders and annotation files as MindSpore 2.10 does
(orders recorded from it on a tree of the same shape: two categories of two images)."""
import numpy as np
import pytest

import cellgraph.dataset as ds


@pytest.fixture
def folder(tmp_path):
    for name, annotation_folder in (("Faces", "Faces_2"), ("apple", "apple")):
        images = tmp_path / "101_ObjectCategories" / name
        images.mkdir(parents=True)
        (tmp_path / "Annotations" / annotation_folder).mkdir(parents=True)
        for number in (1, 2):
            (images / f"image_{number:04d}.jpg").write_bytes(f"{name}{number}".encode())
    (tmp_path / "101_ObjectCategories" / "BACKGROUND_Google").mkdir()
    return tmp_path


def _rows(data):
    return list(data.create_tuple_iterator(output_numpy=True))


def test_categories_in_sorted_folder_order(folder):
    data = ds.Caltech101Dataset(str(folder), shuffle=False)
    assert data.get_col_names() == ["image", "category"]
    assert data.get_dataset_size() == 4
    rows = _rows(data)
    assert [bytes(r[0]).decode() for r in rows] == ["Faces1", "Faces2", "apple1", "apple2"]
    assert [int(r[1]) for r in rows] == [0, 0, 1, 1]
    assert rows[0][0].dtype == np.uint8
    assert data.get_class_indexing()["Faces_easy"] == 1
    assert len(data.get_class_indexing()) == 101


def test_shuffle_and_shards_follow_mindspore(folder):
    ds.config.set_seed(2)
    assert [int(r[1]) for r in _rows(ds.Caltech101Dataset(str(folder)))] == [1, 0, 1, 0]
    shard = _rows(ds.Caltech101Dataset(str(folder), num_shards=2, shard_id=1))
    assert [bytes(r[0]).decode() for r in shard] == ["Faces2", "apple1"]


def test_annotations_from_the_renamed_folders(folder):
    scipy_io = pytest.importorskip("scipy.io")
    for annotation_folder, name in (("Faces_2", "Faces"), ("apple", "apple")):
        for number in (1, 2):
            contour = np.arange(6).reshape(2, 3) + number
            scipy_io.savemat(str(folder / "Annotations" / annotation_folder /
                                 f"annotation_{number:04d}.mat"), {"obj_contour": contour})
    rows = _rows(ds.Caltech101Dataset(str(folder), target_type="all", shuffle=False))
    assert [int(r[1]) for r in rows] == [0, 0, 1, 1]
    np.testing.assert_array_equal(rows[1][2], np.arange(6).reshape(2, 3) + 2)
    data = ds.Caltech101Dataset(str(folder), target_type="annotation", shuffle=False)
    assert data.get_col_names() == ["image", "annotation"]


def test_errors(folder):
    with pytest.raises(ValueError, match=r"Input target_type is not within the valid set of "
                                         r"\['category', 'annotation', 'all'\]"):
        ds.Caltech101Dataset(str(folder), target_type="x")
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.Caltech101Dataset(str(folder / "none"))
    with pytest.raises(TypeError, match="Argument decode with value 1 is not of type"):
        ds.Caltech101Dataset(str(folder), decode=1)
    (folder / "101_ObjectCategories" / "apple" / "image_0002.jpg").rename(
        folder / "101_ObjectCategories" / "apple" / "image_0003.jpg")
    with pytest.raises(RuntimeError, match="image_0002.jpg does not exist or permission denied"):
        _rows(ds.Caltech101Dataset(str(folder), shuffle=False))


def test_a_random_access_sources_error_is_mindspores_runtime_error():
    class Broken:
        def __getitem__(self, index):
            raise ValueError("no such row")

        def __len__(self):
            return 2

    data = ds.GeneratorDataset(Broken(), ["x"], shuffle=False)
    with pytest.raises(RuntimeError, match=r"(?s)Exception thrown from user defined Python "
                                           r"function in dataset.*ValueError: no such row"):
        _rows(data)
