"""SpeechCommandsDataset reads Speech Commands folders as MindSpore 2.10 reads them: the usages'
rows, the columns parsed from the file names, and get_dataset_size counting every usage's files
(what MindSpore gives for the same layout)."""
import wave

import numpy as np
import pytest

import cellgraph.dataset as ds


def _wav(path, samples):
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(16000)
        f.writeframes(np.asarray(samples, "<i2").tobytes())


@pytest.fixture
def folder(tmp_path):
    _wav(tmp_path / "bob" / "aa11_nohash_2.wav", [1, -2, 3])
    _wav(tmp_path / "bob" / "bb22_nohash_0.wav", [4])
    _wav(tmp_path / "up" / "cc33_nohash_1.wav", [5, 6])
    _wav(tmp_path / "_background_noise_" / "noise.wav", [7])
    (tmp_path / "testing_list.txt").write_text("up/cc33_nohash_1.wav\n")
    (tmp_path / "validation_list.txt").write_text("bob/bb22_nohash_0.wav\n")
    return str(tmp_path)


@pytest.mark.parametrize("usage, speakers", [(None, ["aa11", "bb22", "cc33"]),
                                             ("train", ["aa11"]), ("test", ["cc33"]),
                                             ("valid", ["bb22"])])
def test_usages(folder, usage, speakers):
    data = ds.SpeechCommandsDataset(folder, usage, shuffle=False)
    assert data.get_dataset_size() == 3  # MindSpore counts every usage's files
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [str(r[3]) for r in rows] == speakers


def test_columns(folder):
    row = next(ds.SpeechCommandsDataset(folder, "train").create_tuple_iterator(
        output_numpy=True))
    waveform, rate, label, speaker, number = row
    assert waveform.shape == (1, 3) and waveform.dtype == np.float32
    np.testing.assert_allclose(waveform[0], np.array([1, -2, 3]) / 32767.0, rtol=1e-6)
    assert (int(rate), rate.dtype, str(label), str(speaker), int(number), number.dtype) == \
        (16000, np.int32, "bob", "aa11", 2, np.int32)
    with pytest.raises(ValueError, match="usage is not within the valid set"):
        ds.SpeechCommandsDataset(folder, "dev")
