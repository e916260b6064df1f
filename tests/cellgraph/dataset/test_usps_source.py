"""USPSDataset reads the LIBSVM text files `usps` and `usps.t` as MindSpore 2.10 reads them (the
rows below were recorded from it on the same synthetic files)."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import vision


def _line(label, seed):
    values = np.linspace(-1, 1, 256)[np.random.default_rng(seed).permutation(256)]
    return f"{label} " + " ".join(f"{i + 1}:{v:.6f}" for i, v in enumerate(values)) + " \n"


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "usps").write_text(_line(3, 0) + _line(10, 1))
    (tmp_path / "usps.t").write_text(_line(1, 2))
    return str(tmp_path)


ROWS = {2: [88, 90, 245, 53, 202, 147], 9: [29, 138, 13, 78, 154, 119],
        0: [230, 136, 182, 135, 66, 119]}


@pytest.mark.parametrize("usage, labels", [("train", [2, 9]), ("test", [0]),
                                           ("all", [2, 0, 9])])
def test_rows_as_mindspore_reads_them(folder, usage, labels):
    data = ds.USPSDataset(folder, usage, shuffle=False)
    assert data.get_col_names() == ["image", "label"]
    got = []
    for image, label in data.create_tuple_iterator(output_numpy=True):
        assert image.shape == (16, 16, 1) and image.dtype == np.uint8
        assert label.dtype == np.uint32 and int(image.sum()) == 32513
        assert image.ravel()[:6].tolist() == ROWS[int(label)]
        got.append(int(label))
    assert got == labels


def test_errors(folder, tmp_path):
    with pytest.raises(ValueError, match="does not exist or is not a directory"):
        ds.USPSDataset(str(tmp_path / "none"))
    with pytest.raises(ValueError, match=r"usage is not within the valid set of \['train', "
                                         r"'test', 'all'\]"):
        ds.USPSDataset(folder, "valid")
    with pytest.raises(TypeError, match="Argument shard_id"):
        ds.USPSDataset(folder, "train", num_shards=2, shard_id="0")
    (tmp_path / "usps").unlink()
    with pytest.raises(RuntimeError, match="USPS dataset train file: .*usps does not exist or "
                                           "is a directory"):
        list(ds.USPSDataset(folder, "train"))
    (tmp_path / "usps").write_text("1 1:0.5 3:0.5 \n")
    with pytest.raises(RuntimeError, match="should be 257, but got 3"):
        list(ds.USPSDataset(folder, "train"))


def test_decode_of_a_decoded_image_names_the_rank(folder):
    data = ds.USPSDataset(folder, "train").map(vision.Decode(), input_columns=["image"])
    with pytest.raises(RuntimeError, match="Decode: invalid input shape, only support 1D "
                                           "input, got rank: 3"):
        list(data)
