"""VOCDataset, WIDERFaceDataset, FlickrDataset, QMnistDataset, STL10Dataset and
CMUArcticDataset read their formats as MindSpore 2.10 does: the expected rows, dtypes and
errors below are MindSpore's on the folders of source_files.py."""
import numpy as np
import pytest

import cellgraph.dataset as ds

from . import source_files


def _rows(data):
    return list(data.create_dict_iterator(output_numpy=True, num_epochs=1))


def _error(make):
    with pytest.raises(RuntimeError) as info:
        _rows(make())
    return str(info.value)


@pytest.fixture
def voc(tmp_path):
    return source_files.voc(str(tmp_path / "voc"))


def test_voc_detection(voc):
    data = ds.VOCDataset(voc, task="Detection", shuffle=False, extra_metadata=True)
    rows = _rows(data.rename("_meta-filename", "fn"))
    assert [str(r["fn"]) for r in rows] == ["a", "b", "c"]
    first = rows[0]
    assert first["bbox"].dtype == np.float32 and first["label"].dtype == np.uint32
    np.testing.assert_array_equal(first["bbox"], np.array(
        [[10, 20, 100, 50], [5.7, 6, 3.5, 24]], np.float32))  # xmin, ymin, width, height
    assert first["label"].tolist() == [[3], [2]]  # the unnamed object is left out
    assert first["difficult"].tolist() == [[0], [1]]
    assert first["truncate"].tolist() == [[1], [0]]
    assert rows[1]["label"].tolist() == [[1], [3]] and rows[2]["label"].tolist() == [[0]]
    assert first["image"].tobytes() == source_files.JPEG + b"a"  # the file's bytes
    assert ds.VOCDataset(voc, task="Detection").get_class_indexing() == \
        {"bird": 0, "car": 1, "cat": 2, "dog": 3}
    assert ds.VOCDataset(voc, task="Detection").num_classes() is None


def test_voc_class_indexing_keeps_only_its_classes(voc):
    rows = _rows(ds.VOCDataset(voc, task="Detection", class_indexing={"cat": 7, "bird": 2},
                               shuffle=False))
    assert [r["label"].tolist() for r in rows] == [[[7]], [[2]]]
    np.testing.assert_array_equal(rows[1]["bbox"], [[7, 8, 2, 2]])


def test_voc_segmentation(voc):
    rows = _rows(ds.VOCDataset(voc, task="Segmentation", shuffle=False))
    assert list(rows[0]) == ["image", "target"]
    assert rows[0]["target"].tobytes() == source_files.PNG + b"b"  # train.txt lists b, a
    assert rows[1]["image"].tobytes() == source_files.JPEG + b"a"


def test_voc_errors(voc):
    message = _error(lambda: ds.VOCDataset(voc, task="Detection", usage="badbox"))
    assert "Invalid bndbox, the coordinate of bndbox in " in message
    assert "bad.xml should be greater than 0, but got {0, 2, 3, 4}" in message
    message = _error(lambda: ds.VOCDataset(voc, task="Detection", usage="badxml"))
    assert "broken.xml: the xml file is damaged or incorrect format." in message
    with pytest.raises(ValueError, match="nothere.txt does not exist or permission denied!"):
        ds.VOCDataset(voc, task="Detection", usage="nothere")
    with pytest.raises(ValueError, match="class_indexing is not supported in Segmentation"):
        ds.VOCDataset(voc, class_indexing={"a": 1})
    with pytest.raises(ValueError, match="Invalid task : Other."):
        ds.VOCDataset(voc, task="Other")


@pytest.fixture
def wider(tmp_path):
    return source_files.wider_face(str(tmp_path / "wf"))


def test_wider_face_train(wider):
    rows = _rows(ds.WIDERFaceDataset(wider, usage="train", shuffle=False))
    assert list(rows[0]) == ["image", "bbox", "blur", "expression", "illumination",
                             "occlusion", "pose", "invalid"]
    assert rows[0]["bbox"].dtype == np.int32 and rows[0]["blur"].dtype == np.int32
    assert rows[0]["bbox"].tolist() == [[1, 2, 3, 4], [5, 6, 7, 8]]
    assert [rows[0][k].tolist() for k in ("blur", "expression", "illumination", "occlusion",
                                         "pose", "invalid")] == \
        [[0, 2], [1, 0], [0, 1], [1, 0], [2, 0], [0, 1]]
    assert rows[1]["bbox"].tolist() == [[9, 10, 11, 12]] and rows[1]["invalid"].tolist() == [0]


def test_wider_face_valid_test_and_all(wider):
    rows = _rows(ds.WIDERFaceDataset(wider, usage="valid", shuffle=False))
    assert rows[0]["bbox"].tolist() == [[0, 0, 0, 0]]  # a count of 0 still reads one line
    rows = _rows(ds.WIDERFaceDataset(wider, usage="test", shuffle=False))
    assert list(rows[0]) == ["image"] and rows[0]["image"].tobytes() == source_files.JPEG + b"te"
    # MindSpore walks the val images with the event folders the train walk found as well
    message = _error(lambda: ds.WIDERFaceDataset(wider, usage="all"))
    assert "WIDER_val/images/1--Run, not exists or permission denied." in message
    with pytest.raises(ValueError, match=r"Input usage is not within the valid set of"):
        ds.WIDERFaceDataset(wider, usage="x")


def test_flickr(tmp_path):
    images, captions = source_files.flickr(str(tmp_path))
    rows = _rows(ds.FlickrDataset(images, captions, shuffle=False))
    assert [r["annotation"].tolist() for r in rows] == [["Two dogs run.", "Dogs."], ["A bird."]]
    assert rows[1]["image"].tobytes() == source_files.PNG + b"b"


def test_qmnist(tmp_path):
    root = source_files.qmnist(str(tmp_path))
    labels = {u: [int(r["label"]) for r in _rows(ds.QMnistDataset(root, u, shuffle=False))]
              for u in ("train", "test", "nist", "all")}
    assert labels == {"train": [0, 6, 2], "test": [1, 7], "nist": [2],
                      "all": [0, 6, 2, 1, 7, 2]}
    rows = _rows(ds.QMnistDataset(root, "test", False, shuffle=False))
    assert rows[0]["label"].dtype == np.uint32
    assert [r["label"].tolist() for r in rows] == [[1, 8, 5, 2, 9, 6, 3, 0],
                                                   [7, 4, 1, 8, 5, 2, 9, 6]]
    rows = _rows(ds.QMnistDataset(root, "all", shuffle=False))
    assert rows[0]["image"].shape == (28, 28, 1)
    assert [int(r["image"].sum()) for r in rows] == [97627, 98812, 100649, 97635, 101331,
                                                     100541]


def test_stl10(tmp_path):
    root = source_files.stl10(str(tmp_path))

    def seen(usage):
        return [(int(r["label"]), r["image"][0, 1].tolist(), r["image"][2, 0].tolist())
                for r in _rows(ds.STL10Dataset(root, usage, shuffle=False))]

    train = [(2, [101, 30, 210], [7, 187, 116]), (9, [139, 68, 248], [45, 225, 154])]
    test = [(0, [100, 29, 209], [6, 186, 115])]
    unlabeled = [(-1, [105, 34, 214], [11, 191, 120])]
    assert seen("train") == train and seen("unlabeled") == unlabeled
    assert seen("train+unlabeled") == train + unlabeled
    assert seen("all") == test + train + unlabeled  # the files in name order
    row = _rows(ds.STL10Dataset(root, "test"))[0]
    assert row["image"].shape == (96, 96, 3) and row["label"].dtype == np.int32


def test_cmu_arctic(tmp_path):
    root = source_files.cmu_arctic(str(tmp_path))
    rows = _rows(ds.CMUArcticDataset(root, shuffle=False))
    assert rows[0]["waveform"].dtype == np.float32 and rows[0]["waveform"].shape == (1, 5)
    np.testing.assert_array_equal(rows[0]["waveform"], np.array(
        [[0.0, 3.0518509447574615e-05, -3.0518509447574615e-05, 1.0, -1.000030517578125]],
        np.float32))
    assert rows[0]["sample_rate"].dtype == np.uint32 and int(rows[0]["sample_rate"]) == 16000
    assert [str(r["transcript"]) for r in rows] == ["Author of the danger trail.", "Not at all."]
    assert [str(r["utterance_id"]) for r in rows] == ["a0001", "b0002"]
    message = _error(lambda: ds.CMUArcticDataset(root, name="bdl"))
    assert "sampling rate of CMUArctic wav file must be 16000, file path: " in message
    with pytest.raises(ValueError, match="Input name is not within the valid set of"):
        ds.CMUArcticDataset(root, name="xyz")


def test_lj_speech(tmp_path):
    rows = _rows(ds.LJSpeechDataset(source_files.lj_speech(str(tmp_path)), shuffle=False))
    assert list(rows[0]) == ["waveform", "sample_rate", "transcription",
                             "normalized_transcription"]
    np.testing.assert_array_equal(rows[1]["waveform"], np.array(
        [[-0.00012207403779029846, 0.00015259254723787308]], np.float32))
    assert rows[0]["sample_rate"].dtype == np.int32 and int(rows[0]["sample_rate"]) == 22050
    assert [str(r["normalized_transcription"]) for r in rows] == ["Printing, in the",
                                                                  "in first"]
    assert str(rows[1]["transcription"]) == "in 1st"


def test_yes_no(tmp_path):
    rows = _rows(ds.YesNoDataset(source_files.yes_no(str(tmp_path)), shuffle=False))
    assert len(rows) == 1
    assert rows[0]["label"].dtype == np.int32
    assert rows[0]["label"].tolist() == [0, 1, 0, 0, 1, 0, 1, 1]
    assert int(rows[0]["sample_rate"]) == 8000
    np.testing.assert_array_equal(rows[0]["waveform"], np.array(
        [[0.0002136295661330223, -0.0002136295661330223, 0.0]], np.float32))


def test_gtzan_all(tmp_path):
    rows = _rows(ds.GTZANDataset(source_files.gtzan(str(tmp_path)), shuffle=False))
    assert [str(r["label"]) for r in rows] == ["blues", "jazz"]
    assert rows[0]["sample_rate"].dtype == np.uint32 and int(rows[0]["sample_rate"]) == 22050
    np.testing.assert_array_equal(rows[1]["waveform"],
                                  np.array([[-0.0009155552834272385]], np.float32))
    with pytest.raises(NotImplementedError, match="filtered GTZAN split"):
        ds.GTZANDataset(str(tmp_path), usage="valid")


def test_sun397(tmp_path):
    rows = _rows(ds.SUN397Dataset(source_files.sun397(str(tmp_path)), shuffle=False))
    # categories in name order, labelled by their line in ClassName.txt; sun_*.jpg only
    assert [(int(r["label"]), r["image"].tobytes()[len(source_files.JPEG):]) for r in rows] == \
        [(1, b"a/abbey/sun_1.jpg"), (1, b"a/abbey/sun_2.jpg"), (0, b"b/beach/sun_9.jpg")]
    assert rows[0]["label"].dtype == np.uint32


def test_caltech256_reads_jpg_and_JPEG(tmp_path):
    for name in ("002.b/x.jpg", "002.b/y.JPEG", "002.b/z.png", "001.a/w.jpg"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_bytes(source_files.JPEG + name.encode())
    data = ds.Caltech256Dataset(str(tmp_path), shuffle=False)
    assert data.get_dataset_size() == 3  # MindSpore's values: the .png is left out
    rows = [(r["label"].dtype, int(r["label"]), r["image"].tobytes()[len(source_files.JPEG):])
            for r in _rows(data)]
    assert rows == [(np.int32, 0, b"001.a/w.jpg"), (np.int32, 1, b"002.b/x.jpg"),
                    (np.int32, 1, b"002.b/y.JPEG")]


def test_sbu(tmp_path):
    data = ds.SBUDataset(source_files.sbu(str(tmp_path)), shuffle=False)
    assert data.get_dataset_size() == 2  # MindSpore's values: the missing image is left out
    assert [(str(r["caption"]), r["image"].tobytes()[len(source_files.JPEG):])
            for r in _rows(data)] == [("first caption", b"a"), ("third one", b"c")]
