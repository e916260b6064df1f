"""Dataset.save writes MindRecord files with the schema MindSpore's SaveToDisk derives; the
values read back below are MindSpore 2.10's (CPU) for the same pipeline."""
import numpy as np
import pytest

import cellgraph.dataset as ds


def _columns():
    return {"a-b": np.arange(4, dtype=np.uint8), "f": np.linspace(0, 1, 4).astype(np.float16),
            "v": np.arange(12, dtype=np.int64).reshape(4, 3),
            "m": np.ones((4, 2, 2), np.float64), "s": np.array(["x", "y", "z", "w"]),
            "u": np.arange(4, dtype=np.uint32)}


def test_saved_columns_read_back_with_mindrecord_types(tmp_path):
    path = str(tmp_path / "saved.mindrecord")
    ds.NumpySlicesDataset(_columns(), shuffle=False).save(path)
    back = ds.MindDataset(path, shuffle=False)
    assert back.get_col_names() == ["a_b", "f", "m", "s", "u", "v"]
    rows = list(back.create_dict_iterator(output_numpy=True))
    assert [sorted((k, v.dtype.str) for k, v in rows[1].items())] == [[
        ("a_b", "<i4"), ("f", "<f4"), ("m", "<f8"), ("s", "<U1"), ("u", "<i8"), ("v", "<i8")]]
    assert rows[1]["f"].item() == 0.333251953125
    assert rows[2]["v"].tolist() == [6, 7, 8]
    assert rows[3]["m"].tolist() == [[1.0, 1.0], [1.0, 1.0]]
    assert [r["s"].item() for r in rows] == ["x", "y", "z", "w"]


def test_save_over_several_files(tmp_path):
    path = str(tmp_path / "parts")
    ds.NumpySlicesDataset([1, 2, 3, 4, 5, 6], ["c"], shuffle=False).save(path, num_files=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["parts0", "parts0.db", "parts1",
                                                          "parts1.db"]
    back = ds.MindDataset([path + "0", path + "1"], shuffle=False)
    assert sorted(int(r["c"]) for r in back.create_dict_iterator(output_numpy=True)) == \
        [1, 2, 3, 4, 5, 6]


def test_save_arguments_and_existing_files(tmp_path):
    data = ds.NumpySlicesDataset([1, 2], ["c"])
    with pytest.raises(ValueError, match="num_files should between 0 and 1000"):
        data.save(str(tmp_path / "x"), num_files=0)
    with pytest.raises(ValueError, match="tfrecord dataset format is not supported"):
        data.save(str(tmp_path / "x"), file_type="tfrecord")
    with pytest.raises(TypeError, match="Argument num_files with value 1 is not of type"):
        data.save(str(tmp_path / "x"), num_files="1")
    data.save(str(tmp_path / "once"))
    with pytest.raises(RuntimeError):
        data.save(str(tmp_path / "once"))


def test_rows_whose_inner_axes_vary_are_refused(tmp_path):
    def rows():
        yield (np.zeros((2, 3), np.float32),)
        yield (np.zeros((2, 4), np.float32),)

    with pytest.raises(RuntimeError, match="dynamic shape"):
        ds.GeneratorDataset(rows, ["x"]).save(str(tmp_path / "dyn"))
