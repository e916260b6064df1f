"""TedliumDataset reads TED-LIUM .stm/.sph files: the rows, their order (MindSpore's: sorted by
line number as a string, then talk), the text columns and the errors are MindSpore 2.10's; the
waveform is the segment's samples (MindSpore's reader gives zeros of the segment's length)."""
import numpy as np
import pytest

import cellgraph.dataset as ds

RATE = 16000


def _sph(path, samples):
    header = (f"NIST_1A\n   1024\nsample_count -i {len(samples)}\nsample_n_bytes -i 2\n"
              f"channel_count -i 1\nsample_byte_format -s2 10\nsample_rate -i {RATE}\n"
              f"sample_coding -s3 pcm\nend_head\n").encode()
    path.write_bytes(header.ljust(1024, b" ") + np.asarray(samples, ">i2").tobytes())


@pytest.fixture
def release1(tmp_path):
    samples = (np.arange(1600) * 7 % 2000 - 1000).astype(np.int16)
    for part, talks in (("train", {"a": 2, "b": 1}), ("dev", {"c": 1}), ("test", {"d": 1})):
        (tmp_path / part / "sph").mkdir(parents=True)
        (tmp_path / part / "stm").mkdir()
        for talk, count in talks.items():
            _sph(tmp_path / part / "sph" / f"{talk}.sph", samples)
            lines = [f"{talk} 1 spk{talk} {0.01 * i:.2f} {0.01 * i + 0.02:.2f} <o,f0,male> "
                     f"words {i} of {talk}" for i in range(count)]
            (tmp_path / part / "stm" / f"{talk}.stm").write_text("\n".join(lines) + "\n")
    return tmp_path, samples


def test_rows_in_mindspores_order(release1):
    folder, samples = release1
    data = ds.TedliumDataset(str(folder), "release1", "all", shuffle=False)
    assert data.get_dataset_size() == 5
    assert data.get_col_names() == ["waveform", "sample_rate", "transcript", "talk_id",
                                    "speaker_id", "identifier"]
    rows = list(data.create_tuple_iterator(output_numpy=True))
    # (line "0", talks a to d), then (line "1", talk a)
    assert [(str(r[3]), str(r[2])) for r in rows] == [
        ("a", "words 0 of a"), ("b", "words 0 of b"), ("c", "words 0 of c"),
        ("d", "words 0 of d"), ("a", "words 1 of a")]
    waveform, rate = rows[4][0], rows[4][1]
    assert waveform.dtype == np.float32 and waveform.shape == (1, 320)
    assert rate.dtype == np.int32 and int(rate) == RATE
    np.testing.assert_allclose(waveform[0], samples[160:480] / 32767.0, rtol=1e-6)
    assert (str(rows[0][4]), str(rows[0][5])) == ("spka", "<o,f0,male>")


def test_arguments_and_errors(release1, tmp_path):
    folder, _ = release1
    with pytest.raises(ValueError, match=r"release is not within the valid set of "
                                         r"\['release1', 'release2', 'release3'\]"):
        ds.TedliumDataset(str(folder), "release4")
    with pytest.raises(ValueError, match=r"usage is not within the valid set of \['all'\]"):
        ds.TedliumDataset(str(folder), "release3", "train")
    with pytest.raises(RuntimeError, match="extension .wav is not supported"):
        list(ds.TedliumDataset(str(folder), "release1", "train", ".wav"))
    with pytest.raises(RuntimeError, match="failed to open folder"):
        list(ds.TedliumDataset(str(folder), "release3"))
    empty = tmp_path / "empty"
    (empty / "data" / "stm").mkdir(parents=True)
    with pytest.raises(RuntimeError, match="no valid data matching the dataset API "
                                           "TedliumDataset"):
        list(ds.TedliumDataset(str(empty), "release3"))
