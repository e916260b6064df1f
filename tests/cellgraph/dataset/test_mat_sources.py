"""Flowers102Dataset, SVHNDataset and SBDataset over small `.mat` files written here: the rows,
their order and dtypes, and the argument checks, as MindSpore 2.10 gives them."""
import os
import sys

import numpy as np
import pytest

import cellgraph.dataset as ds

sio = pytest.importorskip("scipy.io")
sparse = pytest.importorskip("scipy.sparse")


def _rows(data):
    return list(data.create_tuple_iterator(num_epochs=1, output_numpy=True))


@pytest.fixture
def svhn_dir(tmp_path):
    rng = np.random.default_rng(0)
    for part, labels in (("train", [10, 3]), ("test", [1]), ("extra", [7, 10, 2])):
        images = rng.integers(0, 256, (32, 32, 3, len(labels)), dtype=np.uint8)
        sio.savemat(tmp_path / f"{part}_32x32.mat",
                    {"X": images, "y": np.array(labels, np.uint8).reshape(-1, 1)})
    return tmp_path


def test_svhn_rows_labels_and_usage(svhn_dir):
    rows = _rows(ds.SVHNDataset(str(svhn_dir), shuffle=False))
    # usage None is "all": train, test, extra in turn; label 10 is the digit 0
    assert [int(r[1]) for r in rows] == [0, 3, 1, 7, 0, 2]
    assert rows[0][0].shape == (32, 32, 3) and rows[0][0].dtype == np.uint8
    assert rows[0][1].dtype == np.uint32
    x = sio.loadmat(svhn_dir / "extra_32x32.mat")["X"]
    np.testing.assert_array_equal(rows[4][0], x[:, :, :, 1])
    assert ds.SVHNDataset(str(svhn_dir), usage="extra").get_dataset_size() == 3
    assert ds.SVHNDataset(str(svhn_dir), usage="test").get_dataset_size() == 1
    sharded = ds.SVHNDataset(str(svhn_dir), usage="all", num_shards=2, shard_id=1, shuffle=False)
    assert sharded.get_dataset_size() == 3


def test_svhn_checks(svhn_dir, tmp_path):
    with pytest.raises(ValueError, match=r"Input usage is not within the valid set of "
                                         r"\['train', 'test', 'extra', 'all'\]"):
        ds.SVHNDataset(str(svhn_dir), usage="valid")
    os.remove(svhn_dir / "extra_32x32.mat")
    with pytest.raises(ValueError, match="extra_32x32.mat does not exist"):
        ds.SVHNDataset(str(svhn_dir), usage="all")
    with pytest.raises(RuntimeError, match="sampler and shuffle cannot be specified"):
        ds.SVHNDataset(str(svhn_dir), usage="train", shuffle=False,
                       sampler=ds.SequentialSampler())
    with pytest.raises(TypeError, match="Argument shuffle"):
        ds.SVHNDataset(str(svhn_dir), usage="train", shuffle=1)


def _jpeg(path, shade):
    Image = pytest.importorskip("PIL.Image")
    Image.fromarray(np.full((6, 8, 3), shade, np.uint8)).save(path)


@pytest.fixture
def flowers_dir(tmp_path):
    pytest.importorskip("PIL.Image")
    (tmp_path / "jpg").mkdir()
    (tmp_path / "segmim").mkdir()
    for number in range(1, 6):
        _jpeg(tmp_path / "jpg" / f"image_{number:05d}.jpg", 40 * number)
        _jpeg(tmp_path / "segmim" / f"segmim_{number:05d}.jpg", 250 - 40 * number)
    sio.savemat(tmp_path / "imagelabels.mat", {"labels": np.array([[5, 1, 102, 7, 9]])})
    sio.savemat(tmp_path / "setid.mat", {"trnid": np.array([[2, 4]]), "tstid": np.array([[5]]),
                                         "valid": np.array([[1, 3]])})
    return tmp_path


def test_flowers102_rows(flowers_dir):
    rows = _rows(ds.Flowers102Dataset(str(flowers_dir), shuffle=False))
    # "all": trnid, tstid, valid in turn; labels from 1..102 to 0..101
    assert [int(r[1]) for r in rows] == [0, 6, 8, 4, 101]
    assert rows[0][1].dtype == np.uint32
    with open(flowers_dir / "jpg" / "image_00002.jpg", "rb") as file:
        np.testing.assert_array_equal(rows[0][0], np.frombuffer(file.read(), np.uint8))
    seg = _rows(ds.Flowers102Dataset(str(flowers_dir), task="Segmentation", usage="valid",
                                     decode=True, shuffle=False))
    assert [len(r) for r in seg] == [3, 3]
    assert seg[0][0].shape == (6, 8, 3) and seg[0][1].shape == (6, 8, 3)
    assert abs(int(seg[0][0].mean()) - 40) <= 2 and abs(int(seg[0][1].mean()) - 210) <= 2
    assert [int(r[2]) for r in seg] == [4, 101]
    indexing = ds.Flowers102Dataset(str(flowers_dir)).get_class_indexing()
    assert len(indexing) == 102
    assert indexing["pink primrose"] == 0 and indexing["blackberry lily"] == 101
    assert indexing["pink-yellow dahlia?"] == 59


def test_flowers102_checks(flowers_dir):
    with pytest.raises(ValueError, match=r"Input task is not within the valid set of "
                                         r"\['Classification', 'Segmentation'\]"):
        ds.Flowers102Dataset(str(flowers_dir), task="Detection")
    with pytest.raises(TypeError, match="Argument decode with value 1 is not of type"):
        ds.Flowers102Dataset(str(flowers_dir), decode=1)
    with pytest.raises(ValueError, match="num_parallel_workers exceeds"):
        ds.Flowers102Dataset(str(flowers_dir), num_parallel_workers=0)
    os.remove(flowers_dir / "jpg" / "image_00005.jpg")
    with pytest.raises(RuntimeError, match="Can not find image file: .*image_00005.jpg"):
        _rows(ds.Flowers102Dataset(str(flowers_dir), usage="test"))


@pytest.fixture
def sbd_dir(tmp_path):
    pytest.importorskip("PIL.Image")
    (tmp_path / "img").mkdir()
    (tmp_path / "cls").mkdir()
    for i, name in enumerate(["a1", "b2", "c3"]):
        _jpeg(tmp_path / "img" / f"{name}.jpg", 60 * i)
        boundaries = np.empty((20, 1), object)
        for category in range(20):
            grid = np.zeros((6, 8), np.uint8)
            grid[category % 6, i] = 1 if category in (0, 4, 19) else 0
            boundaries[category, 0] = sparse.csc_matrix(grid)
        segmentation = np.full((6, 8), i + 1, np.uint8)
        gtcls = np.empty((1, 1), [("Boundaries", "O"), ("Segmentation", "O")])
        gtcls[0, 0] = (boundaries, segmentation)
        sio.savemat(tmp_path / "cls" / f"{name}.mat", {"GTcls": gtcls})
    (tmp_path / "train.txt").write_text("a1\nb2\n")
    (tmp_path / "val.txt").write_text("c3\n")
    (tmp_path / "train_noval.txt").write_text("b2")
    return tmp_path


def test_sbd_rows(sbd_dir):
    rows = _rows(ds.SBDataset(str(sbd_dir), task="Boundaries", shuffle=False))
    assert len(rows) == 3  # "all" is train then val
    assert rows[0][1].shape == (20, 6, 8) and rows[0][1].dtype == np.uint8
    # categories 0, 4 and 19 mark one pixel each, in column i of row category % 6
    assert [int(r[1].sum()) for r in rows] == [3, 3, 3]
    assert rows[2][1][4, 4, 2] == 1 and rows[2][1][19, 1, 2] == 1
    seg = _rows(ds.SBDataset(str(sbd_dir), task="Segmentation", usage="train", decode=True,
                             shuffle=False))
    assert [r[1].shape for r in seg] == [(6, 8), (6, 8)]
    assert [int(r[1][0, 0]) for r in seg] == [1, 2]
    assert seg[1][0].shape == (6, 8, 3)
    assert ds.SBDataset(str(sbd_dir), usage="train_noval").get_dataset_size() == 1


def test_sbd_checks(sbd_dir):
    with pytest.raises(ValueError, match=r"Input usage is not within the valid set of "
                                         r"\['train', 'val', 'train_noval', 'all'\]"):
        ds.SBDataset(str(sbd_dir), usage="test")
    os.remove(sbd_dir / "val.txt")
    with pytest.raises(FileNotFoundError, match="SBDataset: .*val.txt not found"):
        ds.SBDataset(str(sbd_dir), usage="all")


def test_mat_sources_without_scipy(svhn_dir, monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.io", None)
    with pytest.raises(ImportError, match=r"needs SciPy \(scipy.io.loadmat\)"):
        ds.SVHNDataset(str(svhn_dir), usage="train")


def test_class_homes():
    assert ds.SVHNDataset.__module__ == "cellgraph.dataset.engine.datasets_vision"
    assert ds.Flowers102Dataset.__module__ == "cellgraph.dataset.engine.datasets_vision"
    assert issubclass(ds.SBDataset, ds.GeneratorDataset)
