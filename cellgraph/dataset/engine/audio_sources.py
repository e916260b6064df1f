"""Audio sources with random access that read .wav files as MindSpore's readers do: CMU
ARCTIC, LJSpeech, LibriTTS, YesNo, GTZAN and Speech Commands, and TED-LIUM's .sph/.stm files. Columns, dtypes, row order, argument checks and error messages are MindSpore's; the
rows a source gives are chosen by the common sampler rules."""
from __future__ import annotations

import os

import numpy as np

from ..core.validator_helpers import check_arguments, check_dir, check_mappable_source
from .vision_readers import _LazySource, _pipeline_error, check_valid_str

__all__ = ["CMUArcticDataset", "GTZANDataset", "LJSpeechDataset", "LibriTTSDataset",
           "SpeechCommandsDataset",
           "TedliumDataset", "YesNoDataset", "read_wave_file"]


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


def _lines(path: str) -> list[str]:
    with open(path, encoding="utf-8", newline="") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class LJSpeechDataset(_LazySource):
    """LJSpeech: the records of metadata.csv ("<id>|<transcription>|<normalized>" a line)
    with their wavs/<id>.wav: columns waveform (float32 (1, n)), sample_rate (int32),
    transcription and normalized_transcription (str)."""

    op = "LJSpeechDataset"

    @check_arguments
    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        check_mappable_source(params, bools=("shuffle",))
        self.dataset_dir = dataset_dir
        super().__init__(["waveform", "sample_rate", "transcription",
                          "normalized_transcription"], num_samples, shuffle, sampler, num_shards,
                         shard_id, cache)

    def build(self):
        metadata = os.path.join(os.path.realpath(self.dataset_dir), "metadata.csv")
        if not os.path.isfile(metadata):
            raise _pipeline_error(f"Invalid file, failed to find LJSpeech metadata file: "
                                  f"{metadata}")
        rows = [line.split("|") for line in _lines(metadata)]
        if not rows:
            raise _pipeline_error(f"Reading failed, unable to read valid data from the LJSpeech "
                                  f"metadata file: {metadata}.")
        return rows

    def row_at(self, index):
        fields = self.index[index]
        if len(fields) < 3:
            raise _pipeline_error(f"Invalid data, the LJSpeech metadata line of "
                                  f"{fields[0]} does not hold three fields.")
        path = os.path.join(self.dataset_dir, "wavs", fields[0] + ".wav")
        waveform, rate = read_wave_file(path)
        return (waveform.reshape(1, -1), np.array(rate, np.int32), np.array(fields[1]),
                np.array(fields[2]))


class YesNoDataset(_LazySource):
    """YesNo: the .wav files of `dataset_dir` (in directory order), named by their eight 0/1
    words ("0_1_0_0_1_0_1_1.wav"): columns waveform (float32 (1, n)), sample_rate and label
    (int32 (8,))."""

    op = "YesNoDataset"

    @check_arguments
    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        check_mappable_source(params, bools=("shuffle",))
        self.dataset_dir = dataset_dir
        super().__init__(["waveform", "sample_rate", "label"], num_samples, shuffle, sampler,
                         num_shards, shard_id, cache)

    def build(self):
        folder = os.path.realpath(self.dataset_dir)
        files = [e.path for e in os.scandir(folder) if os.path.splitext(e.name)[1] == ".wav"]
        if not files:
            raise _pipeline_error(f"Invalid file, no .wav files found under {self.dataset_dir}")
        return files

    def row_at(self, index):
        path = self.index[index]
        words = path[path.rfind(os.sep) + 1:][:15]  # MindSpore reads the name's first 15
        try:
            label = [int(w) for w in words.split("_") if w]
        except ValueError as error:
            raise _pipeline_error(f"[Internal ERROR] Converting char to int confront with an "
                                  f"error in function stoi: {error}") from None
        waveform, rate = read_wave_file(path)
        return waveform.reshape(1, -1), np.array(rate, np.int32), np.array(label, np.int32)


class GTZANDataset(_LazySource):
    """GTZAN: with usage "all" (the default), the .wav files of each genre folder (blues,
    classical, ..., rock, in that order; files in directory order) at 22050 Hz: columns
    waveform (float32 (1, n)), sample_rate (uint32) and label (str: the genre). The "train",
    "valid" and "test" splits (MindSpore's lists of the filtered GTZAN) are not provided."""

    op = "GTZANDataset"
    _GENRES = ("blues", "classical", "country", "disco", "hiphop", "jazz", "metal", "pop",
               "reggae", "rock")

    @check_arguments
    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["train", "valid", "test", "all"], "usage")
        check_mappable_source(params, bools=("shuffle",))
        self.dataset_dir = dataset_dir
        self.usage = "all" if usage is None else usage
        if self.usage != "all":
            raise NotImplementedError(f"GTZANDataset: usage {self.usage!r} needs the file lists "
                                      f"of the filtered GTZAN split, which cellgraph does not "
                                      f"hold; usage 'all' reads every genre folder.")
        super().__init__(["waveform", "sample_rate", "label"], num_samples, shuffle, sampler,
                         num_shards, shard_id, cache)

    def build(self):
        rows = []
        for genre in self._GENRES:
            folder = os.path.join(self.dataset_dir, genre)
            if not os.path.isdir(folder):
                continue
            for entry in os.scandir(folder):
                name, ext = os.path.splitext(entry.path)
                if ext == ".wav" and "." in name:  # MindSpore asks for a "." in the path
                    rows.append((entry.path, genre))
        if not rows:
            raise _pipeline_error(f"Invalid data, no valid data found in path:"
                                  f"{self.dataset_dir}")
        return rows

    def row_at(self, index):
        path, genre = self.index[index]
        waveform, rate = read_wave_file(path)
        if rate != 22050:
            raise _pipeline_error(f"Invalid file, sampling rate of GTZAN wav file must be "
                                  f"22050, file path: {path}")
        return waveform.reshape(1, -1), np.array(22050, np.uint32), np.array(genre)


_TEDLIUM_USAGES = {"release1": ["train", "test", "dev", "all"],
                   "release2": ["train", "test", "dev", "all"], "release3": ["all"]}


class TedliumDataset(_LazySource):
    """TED-LIUM release 1, 2 or 3: a row for each line of the .stm files in
    `<usage>/stm` (release 3: `data/stm`), with its segment of the talk's `.sph` audio: columns
    waveform (float32 (1, n)), sample_rate (int32), transcript, talk_id, speaker_id and
    identifier (str). The rows come in MindSpore's order: sorted by (line number as a string,
    talk, usage).

    The waveform is the segment's 16-bit samples (from the header's sample_rate, start and
    end times and byte format) divided by 32767. MindSpore 2.10 reads the segment from the
    wrong place and then gives a waveform of zeros of the segment's length (its reader indexes
    the zero-filled start of its buffer); cellgraph gives the samples."""

    op = "TedliumDataset"

    @check_arguments
    def __init__(self, dataset_dir, release, usage=None, extensions=None, num_samples=None,
                 num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        params = dict(locals())
        check_valid_str(release, ["release1", "release2", "release3"], "release")
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, _TEDLIUM_USAGES[release], "usage")
        check_mappable_source(params, bools=("shuffle",))
        self.dataset_dir, self.release = dataset_dir, release
        self.usage = "all" if usage is None else usage
        self.extensions = ".sph" if extensions is None else extensions
        super().__init__(["waveform", "sample_rate", "transcript", "talk_id", "speaker_id",
                          "identifier"], num_samples, shuffle, sampler, num_shards, shard_id,
                         cache)

    def build(self):
        if self.extensions != ".sph":
            rule = "-" * 66
            raise RuntimeError(f"Syntax error. \n\n{rule}\n- Dataset Pipeline Error Message: "
                               f"\n{rule}\n[ERROR] TedliumNode: extension {self.extensions} is "
                               f"not supported.\n")
        root = os.path.realpath(self.dataset_dir)
        if self.release == "release3":
            parts = ["data"]
        else:
            parts = ["train", "test", "dev"] if self.usage == "all" else [self.usage]
        rows = []
        for part in parts:
            folder = os.path.join(root, part, "stm")
            if not os.path.isdir(folder):
                raise _pipeline_error(f"Invalid file, failed to open folder: {folder}")
            for name in os.listdir(folder):
                if not name.endswith(".stm") or len(name) == len(".stm"):
                    continue
                for number, line in enumerate(_lines(os.path.join(folder, name))):
                    rows.append((str(number), line.split(" ", 1)[0], part))
        rows.sort()
        if not rows:
            raise _pipeline_error("Invalid data, no valid data matching the dataset API "
                                  "TedliumDataset. Please check file path or dataset API.")
        return rows

    def row_at(self, index):
        from ..nodes import ROW_FILE

        number, talk, part = self.index[index]
        folder = os.path.join(self.dataset_dir, part)
        stm = os.path.join(folder, "stm", talk + ".stm")
        sph = os.path.join(folder, "sph", talk + self.extensions)
        if not os.path.isfile(stm):
            raise _pipeline_error(f"Invalid file, get real path failed, path={stm}")
        lines = _lines(stm)
        line = lines[int(number)] if int(number) < len(lines) else (lines[-1] if lines else "")
        fields = line.split(" ", 6)
        fields += [""] * (7 - len(fields))
        ROW_FILE.path = sph
        waveform, rate = _read_sph(sph, _atof(fields[3]), _atof(fields[4]))
        return (waveform.reshape(1, -1), np.array(rate, np.int32), np.array(fields[6]),
                np.array(fields[0]), np.array(fields[2]), np.array(fields[5]))


def _atof(text: str) -> float:
    """C's atof: the number a string starts with (0.0 where none)."""
    import re

    match = re.match(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", text)
    return float(match.group(0)) if match else 0.0


def _read_sph(path: str, start_time: float, end_time: float) -> tuple[np.ndarray, int]:
    """The samples of a NIST SPHERE file between two times, and its sample rate."""
    if not os.path.isfile(path):
        raise _pipeline_error(f"Invalid file, failed to open file: {path}")
    with open(path, "rb") as f:
        head = f.read(1024)
        if len(head) < 1024:
            raise _pipeline_error(f"Invalid data, failed to read head part from sph file: "
                                  f"{path}, re-download dataset(make sure the data is true).")
        words = head.split(b"\0", 1)[0].decode("latin-1").split()
        fields = {words[i]: words[i + 2] for i in range(len(words) - 2)}
        rate = int(_atof(fields.get("sample_rate", "0")))
        header_size = int(_atof(words[1])) if len(words) > 1 else 1024
        start, end = int(start_time * rate), int(end_time * rate)
        size = max(end - start, 0)
        f.seek(header_size + 2 * start)
        raw = f.read(2 * size)
    if len(raw) < 2 * size:
        raise _pipeline_error(f"Invalid data, failed to read data part from sph file: {path}, "
                              f"re-download dataset(make sure the data is true).")
    order = "<i2" if fields.get("sample_byte_format") == "01" else ">i2"
    samples = np.frombuffer(raw, order).astype(np.float64) / 32767.0
    return samples.astype(np.float32), rate


class SpeechCommandsDataset(_LazySource):
    """Speech Commands: the .wav files of the word folders of `dataset_dir` (all but
    _background_noise_), in path order: usage "test" / "valid" reads the paths that
    testing_list.txt / validation_list.txt name, "train" the others, "all" every one. Columns
    waveform (float32 (1, n)), sample_rate (int32), label (the word folder), speaker_id (str)
    and utterance_number (int32), from "<speaker>_nohash_<n>.wav". As in MindSpore,
    get_dataset_size counts the files of every usage."""

    op = "SpeechCommandsDataset"

    @check_arguments
    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, ["train", "test", "valid", "all"], "usage")
        check_mappable_source(params, bools=("shuffle",))
        self.dataset_dir = dataset_dir
        self.usage = "all" if usage is None else usage
        super().__init__(["waveform", "sample_rate", "label", "speaker_id", "utterance_number"],
                         num_samples, shuffle, sampler, num_shards, shard_id, cache)

    def _all_files(self) -> set:
        root = os.path.realpath(self.dataset_dir)
        folders = [os.path.join(root, n) for n in os.listdir(root)
                   if os.path.isdir(os.path.join(root, n)) and "_background_noise_" not in n]
        if not folders:
            raise _pipeline_error(f"Invalid file, failed to open directory: {root}")
        files = {os.path.join(folder, n) for folder in folders for n in os.listdir(folder)
                 if os.path.splitext(n)[1] == ".wav" and len(n) > len(".wav")}
        if not files:
            raise _pipeline_error(f"Invalid file, no .wav files found under {self.dataset_dir}")
        return files

    def _listed(self, usage: str) -> set:
        root = os.path.realpath(self.dataset_dir)
        name = "testing_list.txt" if usage == "test" else "validation_list.txt"
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            return set()
        with open(path, encoding="utf-8", newline="") as f:
            return {os.path.join(root, line) for line in _lines_of(f.read())}

    def build(self):
        if self.usage == "all":
            return sorted(self._all_files())
        if self.usage in ("test", "valid"):
            return sorted(self._listed(self.usage))
        return sorted(self._all_files() - self._listed("test") - self._listed("valid"))

    def count(self):
        from ..sources import _for_iterator, chained_count

        return chained_count(_for_iterator(self.sampler), len(self._all_files()))

    def row_at(self, index):
        import re

        path = self.index[index]
        waveform, rate = read_wave_file(path)
        folder, name = os.path.split(path)
        match = re.fullmatch(r"(.*)_nohash_(\d+)\.wav", name)
        if not match or not match.group(1):
            raise _pipeline_error(f"Invalid file name, failed to get file info: {name}")
        return (waveform.reshape(1, -1), np.array(rate, np.int32),
                np.array(os.path.basename(folder)), np.array(match.group(1)),
                np.array(int(match.group(2)), np.int32))


def _lines_of(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


_LIBRI_TTS_USAGES = ["dev-clean", "dev-other", "test-clean", "test-other", "train-clean-100",
                     "train-clean-360", "train-other-500"]


def _c_getline(text: str, pos: int, delim: str):
    """std::getline on a stream: (the text up to `delim`, the position after it), or None at
    the end of the stream."""
    if pos >= len(text):
        return None
    end = text.find(delim, pos)
    if end < 0:
        return text[pos:], len(text)
    return text[pos:end], end + 1


def _c_digits(text: str) -> int:
    """MindSpore's digit-by-digit reading of an id (into a uint32, whatever the characters)."""
    value = 0
    for char in text:
        value = (value * 10 + ord(char) - 48) % 2 ** 32
    return value


class LibriTTSDataset(_LazySource):
    """LibriTTS: the utterances of the <speaker>_<chapter>.trans.tsv files under the `usage`
    folders ("all": each of MindSpore's seven in its order), found as MindSpore's reader walks
    the folders (in listing order, a folder's walk ending at its first .trans.tsv), with their
    <usage>/<speaker>/<chapter>/<utterance>.wav (24 kHz). Columns waveform (float32 (1, n)),
    sample_rate (uint32), original_text, normalized_text, speaker_id and chapter_id (uint32) and
    utterance_id."""

    op = "LibriTTSDataset"

    @check_arguments
    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        params = dict(locals())
        check_dir(dataset_dir)
        if usage is not None:
            check_valid_str(usage, [*_LIBRI_TTS_USAGES, "all"], "usage")
        check_mappable_source(params, bools=("shuffle",))
        self.dataset_dir = dataset_dir
        self.usage = "all" if usage is None else usage
        super().__init__(["waveform", "sample_rate", "original_text", "normalized_text",
                          "speaker_id", "chapter_id", "utterance_id"], num_samples, shuffle,
                         sampler, num_shards, shard_id, cache)

    @staticmethod
    def _label_files(folder: str, found: list) -> None:
        if not os.path.isdir(folder):
            return
        for name in os.listdir(folder):
            path = os.path.join(folder, name)
            if os.path.isdir(path):
                LibriTTSDataset._label_files(path, found)
            elif len(name) > 10 and name.endswith(".trans.tsv"):
                found.append(path)
                return

    def build(self):
        root = os.path.realpath(self.dataset_dir)
        rows = []
        for usage in (_LIBRI_TTS_USAGES if self.usage == "all" else [self.usage]):
            files: list = []
            self._label_files(os.path.join(root, usage), files)
            for label_file in files:
                with open(label_file, encoding="utf-8", newline="") as f:
                    text = f.read()
                pos = 0
                while (got := _c_getline(text, pos, "\t")) is not None:
                    utterance, pos = got
                    original, pos = _c_getline(text, pos, "\t") or ("", pos)
                    normalized, pos = _c_getline(text, pos, "\n") or ("", pos)
                    marks = [i for i, c in enumerate(utterance) if c == "_"][:4]
                    if len(marks) != 3:
                        raise _pipeline_error(f"Invalid file, the file may not be a LibriTTS "
                                              f"dataset file: {label_file}")
                    rows.append((usage, utterance, original, normalized,
                                 _c_digits(utterance[:marks[0]]),
                                 _c_digits(utterance[marks[0] + 1:marks[1]])))
        if not rows:
            raise _pipeline_error(f"Invalid data, no valid data matching the dataset API "
                                  f"LibriTTSDataset. Please check dataset API or file path: "
                                  f"{self.dataset_dir}.")
        return rows

    def row_at(self, index):
        usage, utterance, original, normalized, speaker, chapter = self.index[index]
        path = os.path.join(os.path.realpath(self.dataset_dir), usage, str(speaker),
                            str(chapter), utterance + ".wav")
        waveform, rate = read_wave_file(path)
        if rate != 24000:
            raise _pipeline_error(f"Invalid file, sampling rate of LibriTTS wav file must be "
                                  f"24000, file path: {path}")
        return (waveform.reshape(1, -1), np.array(24000, np.uint32), np.array(original),
                np.array(normalized), np.array(speaker, np.uint32),
                np.array(chapter, np.uint32), np.array(utterance))
