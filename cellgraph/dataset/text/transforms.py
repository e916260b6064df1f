"""Text transforms of mindspore.dataset.text on NumPy string arrays: Lookup, ToNumber and the
tokenizers (offsets are UTF-8 byte positions, uint32, as MindSpore gives them)."""
from __future__ import annotations

import re
import unicodedata

import numpy as np

from cellgraph.dataset.core.validator_helpers import type_check
from cellgraph.dataset.transforms.transforms import TensorOperation, numpy_dtype
from cellgraph.primitives import dtype as dt

from .utils import Vocab, as_words

__all__ = ["AddToken", "CaseFold", "Lookup", "PythonTokenizer", "ToNumber", "Truncate", "UnicodeCharTokenizer",
           "WhitespaceTokenizer"]


class AddToken(TensorOperation):
    """`token` added at the start (`begin`) or the end of each 1-D (or 2-D: along the last
    axis) string sequence."""

    def __init__(self, token, begin=True):
        type_check(token, (str,), "token")
        type_check(begin, (bool,), "begin")
        self.token, self.begin = token, begin

    def __call__(self, words):
        array = np.asarray(words)
        if array.dtype.kind not in "US":
            raise RuntimeError("AddToken: input tensor type should be string.")
        if array.ndim not in (1, 2):
            raise RuntimeError("AddToken: input tensor rank should be 1 or 2.")
        token = np.full(array.shape[:-1] + (1,), self.token)
        parts = [token, array] if self.begin else [array, token]
        return np.concatenate(parts, axis=-1)


class Lookup(TensorOperation):
    """Words -> their ids in `vocab` (`unknown_token`'s id for others; without one, an
    unknown word is an error), as `data_type`."""

    def __init__(self, vocab, unknown_token=None, data_type=dt.int32):
        if not isinstance(vocab, Vocab):
            raise TypeError(f"Lookup: `vocab` must be a text.Vocab, got {type(vocab).__name__}")
        self.vocab, self.dtype = vocab, numpy_dtype(data_type)
        self.unknown_id = None
        if unknown_token is not None:
            self.unknown_id = vocab.tokens_to_ids(unknown_token)
            if self.unknown_id == -1:
                raise ValueError(f"Lookup: unknown_token {unknown_token!r} is not in the vocab")

    def __call__(self, words):
        array = np.asarray(words)
        ids = self.vocab.tokens_to_ids(array)
        for word, i in zip(as_words(array), ids):
            if i == -1 and self.unknown_id is None:
                raise RuntimeError(f"Lookup: {word!r} is not in the vocab and no unknown_token "
                                   f"was given")
        ids = [self.unknown_id if i == -1 else i for i in ids]
        return np.asarray(ids, self.dtype).reshape(array.shape)


class Truncate(TensorOperation):
    """A 1-D (or 2-D: along the last axis) sequence cut to its first `max_seq_len` items."""

    def __init__(self, max_seq_len):
        if isinstance(max_seq_len, bool) or not isinstance(max_seq_len, int) or max_seq_len < 1:
            raise ValueError(f"Truncate: `max_seq_len` must be a positive int, got "
                             f"{max_seq_len!r}")
        self.max_seq_len = max_seq_len

    def __call__(self, x):
        array = np.asarray(x)
        if array.ndim not in (1, 2):
            raise RuntimeError(f"Truncate: expected a 1-D or 2-D input, got shape {array.shape}")
        return array[..., :self.max_seq_len]


class ToNumber(TensorOperation):
    """Strings -> numbers of `data_type` (an unparsable or out-of-range string is an error)."""

    def __init__(self, data_type):
        self.dtype = numpy_dtype(data_type)
        if self.dtype.kind not in "iuf":
            raise TypeError(f"ToNumber: `data_type` must be numeric, got {self.dtype}")

    def __call__(self, strings):
        array = np.asarray(strings)
        values = []
        for s in as_words(array):
            try:
                value = float(s) if self.dtype.kind == "f" else int(s)
            except ValueError:
                raise RuntimeError(f"ToNumber: {s!r} is not a {self.dtype} number") from None
            if self.dtype.kind in "iu" and not (np.iinfo(self.dtype).min <= value <=
                                                np.iinfo(self.dtype).max):
                raise RuntimeError(f"ToNumber: {s!r} is out of the range of {self.dtype}")
            values.append(value)
        return np.asarray(values, self.dtype).reshape(array.shape)


def _tokens(text: str, spans: list[tuple[int, int]], with_offsets: bool):
    """The tokens, and with offsets their UTF-8 byte starts and ends."""
    tokens = np.array([text[a:b] for a, b in spans], dtype=str)
    if not with_offsets:
        return tokens
    starts = [len(text[:a].encode("utf-8")) for a, _ in spans]
    limits = [len(text[:b].encode("utf-8")) for _, b in spans]
    return tokens, np.array(starts, np.uint32), np.array(limits, np.uint32)


def _one_string(value, op: str) -> str:
    words = as_words(value)
    if np.asarray(value).ndim != 0:
        raise RuntimeError(f"{op}: expected one string (a 0-d array), got shape "
                           f"{np.asarray(value).shape}")
    return words[0]


class UnicodeCharTokenizer(TensorOperation):
    """A string -> its characters (with offsets: and their byte ranges)."""

    def __init__(self, with_offsets=False):
        self.with_offsets = bool(with_offsets)

    def __call__(self, text):
        text = _one_string(text, "UnicodeCharTokenizer")
        return _tokens(text, [(i, i + 1) for i in range(len(text))], self.with_offsets)


class WhitespaceTokenizer(TensorOperation):
    """A string -> the runs of non-whitespace characters."""

    def __init__(self, with_offsets=False):
        self.with_offsets = bool(with_offsets)

    def __call__(self, text):
        text = _one_string(text, "WhitespaceTokenizer")
        spans = [m.span() for m in re.finditer(r"\S+", text)]
        return _tokens(text, spans, self.with_offsets)


class PythonTokenizer(TensorOperation):
    """A string -> the tokens `tokenizer(str)` returns."""

    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise TypeError(f"PythonTokenizer: `tokenizer` must be callable, got {tokenizer!r}")
        self.tokenizer = tokenizer

    def __call__(self, text):
        return np.array(self.tokenizer(_one_string(text, "PythonTokenizer")), dtype=str)


# Default_Ignorable_Code_Point outside the format characters (category Cf), which NFKC_Casefold
# removes along with them
_IGNORABLE_RANGES = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
                     (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0x1BCA0, 0x1BCA3),
                     (0xE0000, 0xE0FFF))


def _ignorable(char: str) -> bool:
    code = ord(char)
    return unicodedata.category(char) == "Cf" or any(lo <= code <= hi
                                                     for lo, hi in _IGNORABLE_RANGES)


def nfkc_casefold(text: str) -> str:
    """Unicode's NFKC_Casefold mapping (what ICU's case folding normaliser gives): NFKC, full
    case folding, NFKC again, with the default-ignorable code points removed."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return "".join(c for c in folded if not _ignorable(c))


class CaseFold(TensorOperation):
    """Each string of a string array case-folded (NFKC_Casefold), the shape kept."""

    def __call__(self, text):
        array = np.asarray(text)
        if array.dtype.kind not in "US":
            raise RuntimeError("CaseFold: input is not string datatype.")
        if array.dtype.kind == "S":
            array = np.char.decode(array, "utf-8")
        out = [nfkc_casefold(str(word)) for word in array.reshape(-1)]
        return np.array(out, dtype=np.str_).reshape(array.shape)
