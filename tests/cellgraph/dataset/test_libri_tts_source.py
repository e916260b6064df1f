"""LibriTTSDataset reads LibriTTS folders as MindSpore 2.10 reads them: the .trans.tsv records
(utterance, original text, normalized text), ids parsed from the utterance, 24 kHz waves."""
import wave

import numpy as np
import pytest

import cellgraph.dataset as ds


def _wav(path, samples, rate=24000):
    with wave.open(str(path), "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(rate)
        f.writeframes(np.asarray(samples, "<i2").tobytes())


@pytest.fixture
def folder(tmp_path):
    chapter = tmp_path / "dev-clean" / "84" / "121"
    chapter.mkdir(parents=True)
    _wav(chapter / "84_121_000001_000000.wav", [100, -200])
    _wav(chapter / "84_121_000002_000003.wav", [7])
    (chapter / "84_121.trans.tsv").write_text(
        "84_121_000001_000000\tHello, World.\thello world\n"
        "84_121_000002_000003\tBye!\tbye\n")
    return tmp_path


def test_rows(folder):
    data = ds.LibriTTSDataset(str(folder), shuffle=False)
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert data.get_dataset_size() == 2 and len(rows) == 2
    waveform, rate, original, normalized, speaker, chapter, utterance = rows[0]
    assert waveform.shape == (1, 2) and waveform.dtype == np.float32
    np.testing.assert_allclose(waveform[0], np.array([100, -200]) / 32767.0, rtol=1e-6)
    assert (int(rate), rate.dtype, str(original), str(normalized), int(speaker), speaker.dtype,
            int(chapter), str(utterance)) == (24000, np.uint32, "Hello, World.", "hello world",
                                              84, np.uint32, 121, "84_121_000001_000000")
    assert str(rows[1][6]) == "84_121_000002_000003"


def test_errors(folder):
    with pytest.raises(ValueError, match="usage is not within the valid set"):
        ds.LibriTTSDataset(str(folder), "dev")
    with pytest.raises(RuntimeError, match="no valid data matching the dataset API "
                                           "LibriTTSDataset"):
        list(ds.LibriTTSDataset(str(folder), "test-clean"))
    chapter = folder / "dev-clean" / "84" / "121"
    _wav(chapter / "84_121_000001_000000.wav", [1], rate=16000)
    with pytest.raises(RuntimeError, match="sampling rate of LibriTTS wav file must be 24000"):
        list(ds.LibriTTSDataset(str(folder), "dev-clean", shuffle=False))
    (chapter / "84_121.trans.tsv").write_text("84121\ta\tb\n")
    with pytest.raises(RuntimeError, match="may not be a LibriTTS dataset file"):
        list(ds.LibriTTSDataset(str(folder)))
