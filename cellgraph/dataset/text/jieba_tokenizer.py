"""text.JiebaTokenizer: Chinese text cut into words by cppjieba's algorithms
(`jieba_segment.py`), reading the same dictionary (MP) and model (HMM) files MindSpore reads.

The files are read, checked and turned into a segmenter when the transform first runs (as
MindSpore builds its C++ transform when a pipeline or an eager call starts); words added by
`add_word`/`add_dict` take effect at the next build.
"""
from __future__ import annotations

import functools
import os
import re

import numpy as np

from cellgraph.dataset.core.validator_helpers import UINT32_MAX, check_value, type_check
from cellgraph.dataset.transforms.transforms import TensorOperation

from .jieba_segment import (
    HMMModel,
    Lexicon,
    atof,
    file_lines,
    hmm_cut,
    mix_cut,
    mp_cut,
    prefilter,
    split_fields,
)
from .utils import JiebaMode

__all__ = ["JiebaTokenizer"]

_OP = "JiebaTokenizer"
_HMM_START_ERROR = (f"{_OP}: The file format of the MPSegment algorithm is incorrect, and the "
                    f"content fails to be obtained when startProb is loaded.")
_HMM_TRANS_ERROR = (f"{_OP}: The file format of the MPSegment algorithm is incorrect, and the "
                    f"content fails to be obtained when transProb is loaded.")
_HMM_ERROR = f"{_OP}: HMMSegment algorithm file format is incorrect."
_MP_ERROR = f"{_OP}: MPSegment algorithm file format is incorrect."
_ASCII_SPACE = b" \t\n\v\f\r"


def _check_file(path: str) -> None:
    """MindSpore's checks of a tokenizer file's path."""
    if not os.path.exists(path):
        raise RuntimeError(f"{_OP}: tokenizer_file: [{path}] is an invalid directory path.")
    if not os.access(path, os.R_OK):
        raise RuntimeError(f"{_OP}: No access to specified tokenizer path: {path}")


def _read(path: str) -> bytes:
    """The bytes of `path` (a folder reads as empty, as std::ifstream reads it)."""
    _check_file(path)
    if os.path.isdir(path):
        return b""
    with open(path, "rb") as handle:
        return handle.read()


def _file_key(path: str) -> tuple:
    """What identifies the content of `path` for the load caches."""
    try:
        stat = os.stat(path)
    except OSError:
        return (path, None, None)
    return (os.path.realpath(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=4)
def _load_hmm(key: tuple, path: str) -> HMMModel:
    """The HMM model file: after comment ("#") and blank lines, the 4 start log
    probabilities, 4 lines of 4 transition ones, then the emission lines of B, E, M and S
    ("char:logprob" joined by ",")."""
    lines = (line.strip(_ASCII_SPACE) for line in file_lines(_read(path)))
    lines = iter([line for line in lines if line and not line.startswith(b"#")])
    start = split_fields(next(lines, b""), b" ")
    if len(start) != 4:
        raise RuntimeError(_HMM_START_ERROR)
    trans = []
    for _ in range(4):
        row = split_fields(next(lines, b""), b" ")
        if len(row) != 4:
            raise RuntimeError(_HMM_TRANS_ERROR)
        trans.append([atof(value) for value in row])
    emit = [_emission(next(lines, b"")) for _ in range(4)]
    return HMMModel([atof(value) for value in start], trans, emit)


def _emission(line: bytes) -> dict[str, float]:
    if not line:
        raise RuntimeError(_HMM_ERROR)
    probabilities = {}
    for item in split_fields(line, b","):
        pair = split_fields(item, b":")
        try:
            char = pair[0].decode("utf-8")
        except (UnicodeDecodeError, IndexError):
            raise RuntimeError(_HMM_ERROR) from None
        if len(pair) != 2 or len(char) != 1:
            raise RuntimeError(_HMM_ERROR)
        probabilities[char] = atof(pair[1])
    return probabilities


@functools.lru_cache(maxsize=4)
def _load_lexicon(key: tuple, path: str) -> Lexicon:
    """The MP dictionary file: a line per word, "word freq tag" separated by single spaces,
    every freq above 0."""
    entries = []
    for line in file_lines(_read(path)):
        fields = split_fields(line, b" ")
        if len(fields) != 3:
            raise RuntimeError(f"{_OP}: Split result illegal, line: "
                               f"{line.decode('utf-8', 'replace')}")
        try:
            word = fields[0].decode("utf-8")
        except UnicodeDecodeError:
            raise RuntimeError(f"{_OP}: Failed to make node info.") from None
        entries.append((word, atof(fields[1])))
    freq_sum = 0.0
    for _, freq in entries:
        freq_sum += freq
    if not freq_sum > 0:
        raise RuntimeError(_MP_ERROR)
    for word, freq in entries:
        if not freq > 0:  # cppjieba asserts it, ending the process
            raise RuntimeError(f"{_OP}: the frequency of the word \"{word}\" in the MPSegment "
                               f"dictionary should be greater than 0, got {freq}.")
    return Lexicon(entries)


class JiebaTokenizer(TensorOperation):
    """A string -> its words, found by `mode` (MIX: MP then HMM, MP, or HMM) with the HMM
    model file `hmm_path` and the dictionary file `mp_path`; with offsets, also the UTF-8
    byte start and end of each word."""

    def __init__(self, hmm_path, mp_path, mode=JiebaMode.MIX, with_offsets=False):
        if hmm_path is None:
            raise ValueError("The dict of HMMSegment in cppjieba is not provided.")
        if not isinstance(hmm_path, str):
            raise TypeError("Wrong input type for hmm_path, should be string.")
        if mp_path is None:
            raise ValueError("The dict of MPSegment in cppjieba is not provided.")
        if not isinstance(mp_path, str):
            raise TypeError("Wrong input type for mp_path, should be string.")
        if not isinstance(with_offsets, bool):
            raise TypeError("Wrong input type for with_offsets, should be boolean.")
        if not isinstance(mode, JiebaMode):
            raise TypeError("Wrong input type for mode, should be JiebaMode.")
        for path in (hmm_path, mp_path):
            if not os.path.exists(os.path.realpath(path)):
                raise ValueError(f" jieba mode file {path} is not exist.")
        self.mode, self.hmm_path, self.mp_path = mode, hmm_path, mp_path
        self.with_offsets = with_offsets
        self.words: list[tuple[str, int]] = []
        self._segmenter = None

    def add_word(self, word, freq=None):
        """Add `word` to the dictionary, with frequency `freq` (None: the median weight of
        the dictionary's words)."""
        if word is None:
            raise ValueError("word is not provided.")
        if freq is not None:
            type_check(freq, (int,), "")
            check_value(freq, [0, UINT32_MAX])
        if not isinstance(word, str):
            # MindSpore takes it here and fails with a TypeError when the transform is built
            raise TypeError(f"Wrong input type for word, should be string, got {type(word)}.")
        # a freq of 2**31 or more counts as given: MindSpore passes it through a C int, which
        # wraps it negative, and the word then never wins
        self.words.append((word, 0 if freq is None else freq))
        self._segmenter = None

    def add_dict(self, user_dict):
        """Add the words of `user_dict`: a dict word -> freq, or the path of a file with a
        word and an optional freq per line (lines of another form are skipped)."""
        if isinstance(user_dict, str):
            for word, freq in _user_dict_file(user_dict):
                self.add_word(word, freq)
        elif isinstance(user_dict, dict):
            for word, freq in user_dict.items():
                self.add_word(word, freq)
        else:
            raise TypeError("The type of user_dict must str or dict.")

    def _build(self):
        """(mode, lexicon, model): MindSpore's checks of its arguments and files, then the
        files loaded (cached while unchanged) and the added words put in."""
        if not self.hmm_path:
            raise RuntimeError(f"{_OP}: The dict of HMMSegment in cppjieba is not provided.")
        if not self.mp_path:
            raise RuntimeError(f"{_OP}: The dict of MPSegment in cppjieba is not provided.")
        for path in (self.hmm_path, self.mp_path):
            _check_file(path)
        model = _load_hmm(_file_key(self.hmm_path), self.hmm_path)
        lexicon = _load_lexicon(_file_key(self.mp_path), self.mp_path)
        return self.mode, lexicon.with_user_words(self.words), model

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise RuntimeError(f"{_OP}Op: input should be one column data.")
        array = np.asarray(inputs[0])
        if array.ndim != 0 or array.dtype.kind != "U":
            raise RuntimeError(f"{_OP}Op: the input shape should be scalar and the input "
                               f"datatype should be string.")
        if self._segmenter is None:
            self._segmenter = self._build()
        text = str(array)
        spans = _segment(*self._segmenter, text)
        tokens = np.array([text[a:b] for a, b in spans] or [""], dtype=str)
        if not self.with_offsets:
            return tokens
        byte_ends = np.cumsum([len(c.encode("utf-8", "surrogatepass")) for c in text],
                              dtype=np.int64)
        byte_at = np.concatenate([[0], byte_ends])
        starts = np.array([byte_at[a] for a, _ in spans], np.uint32)
        limits = np.array([byte_at[b] for _, b in spans], np.uint32)
        return tokens, starts, limits


def _segment(mode: JiebaMode, lexicon: Lexicon, model: HMMModel,
             text: str) -> list[tuple[int, int]]:
    """The (start, end) character spans of the words of `text`; none for an empty one."""
    spans: list[tuple[int, int]] = []
    for begin, end in prefilter(text):
        if mode is JiebaMode.MP:
            spans.extend(mp_cut(lexicon, text, begin, end))
        elif mode is JiebaMode.HMM:
            spans.extend(hmm_cut(model, text, begin, end))
        else:
            spans.extend(mix_cut(lexicon, model, text, begin, end))
    return spans


# a user dict line: a word (no blank, no "*") and maybe a frequency, as MindSpore reads it
_USER_DICT_LINE = re.compile(r"^\s*([^\s*]+?)\s*([0-9]+)?\s*$")


def _user_dict_file(path: str) -> list[tuple[str, int]]:
    """The (word, freq) lines of a user dictionary file (freq 0 where none is given)."""
    if not os.path.exists(path):
        raise ValueError(f"user dict file {path} is not exist.")
    words = []
    with open(os.path.realpath(path), encoding="utf-8") as handle:
        for line in handle:
            match = _USER_DICT_LINE.match(line.strip())
            if match:
                word, freq = match.groups()
                words.append((word, 0 if freq is None else int(freq)))
    return words
