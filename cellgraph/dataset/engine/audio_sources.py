"""Audio sources with random access that read .wav files as MindSpore's readers do: CMU
ARCTIC. Columns, dtypes, row order, argument checks and error messages are MindSpore's; the
rows a source gives are chosen by the common sampler rules."""
from __future__ import annotations

import os

import numpy as np

from ..core.validator_helpers import check_arguments, check_dir, check_mappable_source
from .vision_readers import _LazySource, _pipeline_error, check_valid_str

__all__ = ["CMUArcticDataset", "read_wave_file"]


def read_wave_file(path: str) -> tuple[np.ndarray, int]:
    """MindSpore's reading of a .wav file: the 44-byte canonical header (sample rate, bits per
    sample, data size), then data size / (bits per sample // 8) 16-bit samples divided by
    32767 (float32; samples the file lacks read as 0). Gives (waveform, sample rate)."""
    from ..nodes import ROW_FILE

    real = os.path.realpath(path)
    if not os.path.isfile(real):
        raise _pipeline_error(f"Invalid file path, failed to find waveform file: {real}")
    ROW_FILE.path = real
    with open(real, "rb") as f:
        header = f.read(44).ljust(44, b"\0")
        sample_rate = int.from_bytes(header[24:28], "little", signed=True)
        bits = int.from_bytes(header[34:36], "little", signed=True)
        data_size = int.from_bytes(header[40:44], "little", signed=True)
        if bits // 8 == 0:
            raise _pipeline_error("ReadWaveFile: zero division error, bits per sample of the "
                                  "audio can not be zero.")
        count = max(int(data_size / float(bits // 8)), 0)
        raw = f.read(2 * count)
    samples = np.zeros(count, np.int16)
    got = len(raw) // 2
    samples[:got] = np.frombuffer(raw[:2 * got], "<i2")
    return samples.astype(np.float32) / np.float32(32767.0), sample_rate


class CMUArcticDataset(_LazySource):
    """CMU ARCTIC: the utterances of cmu_us_<name>_arctic/etc/txt.done.data ('( <id> "<text>"
    )' a line) with their wav/<id>.wav (16 kHz): columns waveform (float32 (1, n)),
    sample_rate (uint32), transcript and utterance_id (str: the id's part after its last
    "_")."""

    op = "CMUArcticDataset"
    _NAMES = ('aew', 'ahw', 'aup', 'awb', 'axb', 'bdl', 'clb', 'eey', 'fem', 'gka', 'jmk', 'ksp',
              'ljm', 'lnh', 'rms', 'rxr', 'slp', 'slt')

    @check_arguments
    def __init__(self, dataset_dir, name=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if name is not None:
            check_valid_str(name, list(self._NAMES), "name")
        check_mappable_source(params, bools=("shuffle",))
        self.dataset_dir = dataset_dir
        self.name = "aew" if name is None else name
        super().__init__(["waveform", "sample_rate", "transcript", "utterance_id"],
                         num_samples, shuffle, sampler, num_shards, shard_id, cache)

    def _folder(self) -> str:
        return os.path.join(os.path.realpath(self.dataset_dir), f"cmu_us_{self.name}_arctic")

    def build(self):
        labels = os.path.join(self._folder(), "etc", "txt.done.data")
        if not os.path.isfile(labels):
            raise _pipeline_error(f"Invalid file, failed to find label file: {labels}")
        with open(labels, encoding="utf-8", newline="") as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        rows = []
        for line in lines:
            first = line.find('"')
            second = line.find('"', first + 1) if first >= 0 else -1
            if second < 0:
                raise _pipeline_error(f"Invalid file, the file may not be a CMUArctic dataset "
                                      f"file: {labels}")
            rows.append((line[2:first - 1], line[first + 1:second]))
        if not rows:
            raise _pipeline_error(f"Invalid data, no valid data found in path: "
                                  f"{self.dataset_dir}")
        return rows

    def row_at(self, index):
        utterance, transcript = self.index[index]
        cut = utterance.rfind("_")
        if cut < 0 or cut + 1 >= len(utterance):
            raise _pipeline_error(f"Invalid utterance id, please check if it is in valid "
                                  f"format: {utterance}")
        path = os.path.join(self._folder(), "wav", utterance + ".wav")
        waveform, rate = read_wave_file(path)
        if rate != 16000:
            raise _pipeline_error(f"Invalid file, sampling rate of CMUArctic wav file must be "
                                  f"16000, file path: {path}")
        return (waveform.reshape(1, -1), np.array(16000, np.uint32), np.array(transcript),
                np.array(utterance[cut + 1:]))
