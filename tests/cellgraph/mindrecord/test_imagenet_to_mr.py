"""ImageNetToMR writes what MindSpore 2.10's writes for the same folder (recorded: the files
are byte-identical but for their names): classes in map-file order, non-JPEG and empty files
skipped, each call of 256 rows to the next shard."""
import os

import pytest

from cellgraph.mindrecord import FileReader, ImageNetToMR, ParamValueError


@pytest.fixture
def folder(tmp_path):
    for name, prefix in (("n01", "a"), ("n02", "b")):
        os.makedirs(tmp_path / "images" / name)
        for i in range(3):
            (tmp_path / "images" / name / f"{prefix}{i}.{'JPEG' if name == 'n01' else 'jpg'}"
             ).write_bytes(f"{prefix}{i}".encode())
    (tmp_path / "images" / "n02" / "skip.png").write_bytes(b"x")
    (tmp_path / "images" / "n02" / "empty.jpg").write_bytes(b"")
    (tmp_path / "map.txt").write_text("n01 0\nn02 1\nnX 2\n")
    return tmp_path


def test_transform(folder):
    out = str(folder / "inet")
    ImageNetToMR(str(folder / "map.txt"), str(folder / "images"), out, 2).transform()
    rows = list(FileReader(out + "0").get_next())
    assert sorted((r["label"], r["image"]) for r in rows) == [
        (0, b"a0"), (0, b"a1"), (0, b"a2"), (1, b"b0"), (1, b"b1"), (1, b"b2")]
    assert all(r["file_name"].startswith(str(folder / "images")) for r in rows)
    assert FileReader(out + "0").schema() == {"file_name": {"type": "string"},
                                              "image": {"type": "bytes"},
                                              "label": {"type": "int32"}}
    assert os.path.exists(out + "1") and os.path.exists(out + "1.db")


def test_argument_errors(folder):
    args = (str(folder / "map.txt"), str(folder / "images"))
    with pytest.raises(ParamValueError, match="File name should not contains"):
        ImageNetToMR(*args, "bad*name", 1)
    with pytest.raises(ValueError, match="The parameter partition_number must be int"):
        ImageNetToMR(*args, str(folder / "o"), None)
    with pytest.raises(ParamValueError, match="shard_num's value: 0 should between 1 and 1000"):
        ImageNetToMR(*args, str(folder / "o"), 0)
    with pytest.raises(ParamValueError, match="File path can not end with '/'"):
        ImageNetToMR(*args, "imagenet/path/", 1)
