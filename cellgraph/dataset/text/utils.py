"""`mindspore.dataset.text.Vocab`: words <-> ids, built from a list, a dict, a file or a
dataset (most frequent first, ties in lexicographic order, as MindSpore orders them)."""
from __future__ import annotations

import enum
import os
from collections import Counter

import numpy as np

from cellgraph.dataset.core.validator_helpers import check_value, type_check, type_check_list

__all__ = ["CharNGram", "JiebaMode", "NormalizeForm", "SPieceTokenizerLoadType", "SPieceTokenizerOutType",
           "SentencePieceModel", "SentencePieceVocab", "Vectors", "Vocab", "as_words", "to_bytes",
           "to_str"]


class JiebaMode(enum.IntEnum):
    """The segmentation of text.JiebaTokenizer (MindSpore's values): MIX (max probability,
    then the HMM over runs of single characters), MP (max probability over the dictionary)
    and HMM (the hidden Markov model alone)."""

    MIX = 0
    MP = 1
    HMM = 2


class NormalizeForm(enum.IntEnum):
    """Unicode normalization forms of text.NormalizeUTF8 (MindSpore's values)."""

    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


def to_bytes(array, encoding="utf8") -> np.ndarray:
    """A NumPy array of str, each encoded as bytes in `encoding`."""
    if not isinstance(array, np.ndarray):
        raise ValueError("input should be a NumPy array.")  # noqa: TRY004  (MindSpore's type)
    return np.char.encode(array, encoding)


def to_str(array, encoding="utf8") -> np.ndarray:
    """A NumPy array of bytes, each decoded from `encoding`."""
    if not isinstance(array, np.ndarray):
        raise TypeError("input should be a NumPy array.")
    return np.char.decode(array, encoding)


def check_strings(array, message: str) -> np.ndarray:
    """`array` as a NumPy array, which must hold str data: bytes are not strings to
    MindSpore's text operations, which raise RuntimeError(`message`) for them as for numbers."""
    array = np.asarray(array)
    if array.dtype.kind != "U":
        raise RuntimeError(message)
    return array


def as_words(array) -> list[str]:
    """The strings of a str or bytes array (bytes decoded as UTF-8), flattened."""
    array = np.asarray(array)
    if array.dtype.kind not in "US":
        raise RuntimeError(f"expected a string array, got dtype {array.dtype}")
    return [w.decode("utf-8") if isinstance(w, bytes) else str(w) for w in array.reshape(-1)]


def _unique_words(words, arg_name: str) -> set:
    """MindSpore's check of a word list: a list of str without duplicates."""
    type_check(words, (list,), arg_name)
    seen: set = set()
    for word in words:
        type_check(word, (str,), arg_name)
        if word in seen:
            raise ValueError(f"{arg_name} contains duplicate word: {word}.")
        seen.add(word)
    return seen


def _with_specials(words: list, special_tokens, special_first: bool) -> list:
    specials = list(special_tokens or [])
    words = [w for w in words if w not in specials]
    return specials + words if special_first else words + specials


class Vocab:
    """A word -> id map (ids from 0); unknown words are -1, unknown ids "". A Vocab made
    directly is empty until built (from_list, from_dict, from_file or from_dataset), and
    using it before raises MindSpore's error."""

    def __init__(self):
        self._ids, self._words = None, None

    @classmethod
    def _of(cls, word_ids: dict) -> Vocab:
        vocab = cls()
        vocab._ids = dict(word_ids)
        vocab._words = {i: w for w, i in vocab._ids.items()}
        return vocab

    def _built(self) -> None:
        if self._ids is None:
            raise RuntimeError("The Vocab has not built yet, got type <class 'NoneType'>. Use "
                               "Vocab.from_dataset(), Vocab.from_list(), Vocab.from_file() or "
                               "Vocab.from_dict() to build a Vocab.")

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True) -> Vocab:
        word_set = _unique_words(word_list, "word_list")
        if special_tokens is not None:
            common = word_set & _unique_words(special_tokens, "special_tokens")
            if common:
                raise ValueError(f"special_tokens and word_list contain duplicate word "
                                 f":{common}.")
        type_check(special_first, (bool,), "special_first")
        return cls._of({w: i for i, w in enumerate(_with_specials(list(word_list),
                                                                  special_tokens,
                                                                  special_first))})

    @classmethod
    def from_dict(cls, word_dict) -> Vocab:
        type_check(word_dict, (dict,), "word_dict")
        for word, word_id in word_dict.items():
            type_check(word, (str,), "word")
            type_check(word_id, (int,), "word_id")
            check_value(word_id, (0, 2 ** 31 - 1), "word_id")
        return cls._of(word_dict)

    @classmethod
    def from_file(cls, file_path, delimiter="", vocab_size=None, special_tokens=None,
                  special_first=True) -> Vocab:
        """One word per line (the part before `delimiter`, when given)."""
        if special_tokens is not None:
            _unique_words(special_tokens, "special_tokens")
        type_check(file_path, (str,), "file_path")
        type_check(delimiter, (str,), "delimiter")
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError("Input vocab_size must be greater than 0.")
        if not os.path.isfile(file_path):
            raise ValueError(f"Vocab.from_file: {file_path!r} is not a file")
        with open(file_path, encoding="utf-8") as f:
            words = [line.rstrip("\n") for line in f if line.strip()]
        if delimiter:
            words = [w.split(delimiter)[0] for w in words]
        words = list(dict.fromkeys(words))[:vocab_size]
        specials = list(special_tokens or [])
        words = [w for w in words if w not in specials]
        return cls._of({w: i for i, w in enumerate(_with_specials(words, specials,
                                                                  special_first))})

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k=None,
                     special_tokens=None, special_first=True) -> Vocab:
        """The words of the dataset's string columns whose counts lie in freq_range, the
        top_k most frequent (ties in lexicographic order)."""
        if columns is not None and not isinstance(columns, list):
            columns = [columns]
            type_check_list(columns, (str,), "col")
        if freq_range is not None:
            type_check(freq_range, (tuple,), "freq_range")
            if len(freq_range) != 2:
                raise ValueError("freq_range needs to be a tuple of 2 element.")
            if any(n is not None and not isinstance(n, int) for n in freq_range):
                raise ValueError("freq_range needs to be either None or a tuple of 2 integers or "
                                 "an int and a None.")
            if isinstance(freq_range[0], int) and isinstance(freq_range[1], int) and (
                    freq_range[0] > freq_range[1] or freq_range[0] < 0):
                raise ValueError("frequency range [a,b] should be 0 <= a <= b (a,b are "
                                 "inclusive).")
        type_check(top_k, (int, type(None)), "top_k")
        if isinstance(top_k, int) and top_k <= 0:
            raise ValueError("Input top_k must be greater than 0.")
        type_check(special_first, (bool,), "special_first")
        if special_tokens is not None:
            _unique_words(special_tokens, "special_tokens")
        counts = Counter()
        for row in dataset.create_dict_iterator(output_numpy=True, num_epochs=1):
            for name in columns or list(row):
                counts.update(as_words(row[name]))
        low, high = freq_range or (None, None)
        low, high = low or 0, high if high is not None else sum(counts.values())
        words = sorted((w for w, c in counts.items() if low <= c <= high),
                       key=lambda w: (-counts[w], w))
        specials = list(special_tokens or [])
        words = [w for w in words[:top_k] if w not in specials]
        return cls._of({w: i for i, w in enumerate(_with_specials(words, specials,
                                                                  special_first))})

    def vocab(self) -> dict:
        self._built()
        return dict(self._ids)

    def tokens_to_ids(self, tokens):
        type_check(tokens, (str, list, np.ndarray), "tokens")
        if isinstance(tokens, list):
            for i, token in enumerate(tokens):
                type_check(token, (str, np.str_), f"tokens[{i}]")
        self._built()
        if isinstance(tokens, str) or (isinstance(tokens, np.ndarray) and tokens.ndim == 0):
            return self._ids.get(str(tokens), -1)  # one token (a 0-d array too): one id
        return [self._ids.get(t, -1) for t in as_words(tokens)]

    def ids_to_tokens(self, ids):
        type_check(ids, (int, list, np.ndarray), "ids")
        if isinstance(ids, int):
            check_value(ids, (0, 2 ** 31 - 1), "ids")
        if isinstance(ids, list):
            for i, value in enumerate(ids):
                type_check(value, (int, np.int_), f"ids[{i}]")
                check_value(value, (0, 2 ** 31 - 1), f"ids[{i}]")
        self._built()
        if isinstance(ids, int) or (isinstance(ids, np.ndarray) and ids.ndim == 0):
            return self._words.get(int(ids), "")  # one id (a 0-d array too): one token
        return [self._words.get(int(i), "") for i in np.asarray(ids).reshape(-1)]

    def __len__(self) -> int:
        return len(self._ids or {})


class Vectors:
    """Pre-trained word vectors from a text file of lines "token v1 v2 ...", read as
    MindSpore's loader reads them: a leading line of two fields is a header; the first line
    fixes the dimension; the first vector of a token is kept; `max_vectors` the lines read."""

    def __init__(self, table: dict, dim: int):
        self.table, self.dim = table, dim

    @classmethod
    def from_file(cls, file_path, max_vectors=None):
        from cellgraph.dataset.core.validator_helpers import (
            check_value,
            type_check,
        )

        type_check(file_path, (str,), "file_path")
        if max_vectors is not None:
            type_check(max_vectors, (int,), "max_vectors")
            check_value(max_vectors, [0, 2147483647], "max_vectors")
        cls._check_file(file_path)
        if not os.path.isfile(file_path):
            raise RuntimeError(f"Vectors: get real path failed, path: {file_path}")
        with open(file_path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        while lines:  # header lines ("count dim") before the first vector
            fields = lines[0].split(" ")
            if fields and fields[-1] == "":
                fields.pop()
            if len(fields) != 2:
                break
            lines.pop(0)
        if not lines:
            raise RuntimeError("Vectors: invalid file, file is empty.")
        fields = lines[0].split(" ")
        dim = len(fields) - (2 if fields[-1] == "" else 1)
        if max_vectors:
            lines = lines[:max_vectors]
        table = {}
        for line in lines:
            token, _, rest = line.partition(" ")
            values = rest.split()
            if len(values) <= 1:
                raise RuntimeError("Vectors: token with 1-dimensional vector.")
            if len(values) != dim:
                raise RuntimeError(f"Vectors: all vectors must have the same number of "
                                   f"dimensions, but got dim {len(values)} while expecting {dim}")
            table.setdefault(token, np.array([float(v) for v in values], np.float32))
        return cls(table, dim)

    @classmethod
    def _check_file(cls, file_path: str) -> None:
        """What a subclass asks of the file's name before reading it (nothing here)."""

    def lookup(self, token: str, unk_init, lower_case_backup: bool) -> np.ndarray:
        """The token's vector (lower-cased first with `lower_case_backup`), else `unk_init`
        or zeros."""
        key = token.lower() if lower_case_backup else token
        if key in self.table:
            return self.table[key]
        if unk_init is not None and len(unk_init) == self.dim:
            return np.asarray(unk_init, np.float32)
        return np.zeros(self.dim, np.float32)


class FastText(Vectors):
    """FastText's pre-trained vectors: a `*.vec` file of Vectors' format (MindSpore's check
    and messages)."""

    @classmethod
    def _check_file(cls, file_path: str) -> None:
        if not os.path.isfile(file_path):
            raise RuntimeError("FastText: invalid file, failed to open FastText file.")
        if os.path.basename(file_path).rpartition(".")[2] != "vec":
            raise RuntimeError(f"FastText: invalid file, can not find file '*.vec', but got: "
                               f"{file_path}")


class GloVe(Vectors):
    """GloVe's pre-trained vectors: a `glove.6B.*.txt` file of Vectors' format (MindSpore's
    check and messages)."""

    @classmethod
    def _check_file(cls, file_path: str) -> None:
        if not os.path.isfile(file_path):
            raise RuntimeError("GloVe: invalid file, failed to open GloVe file.")
        stem, _, suffix = os.path.basename(file_path).rpartition(".")
        name = stem.rpartition(".")[0]
        prefix, _, infix = name.rpartition(".")
        if suffix != "txt" or infix != "6B" or prefix != "glove":
            raise RuntimeError(f"GloVe: invalid file, can not find file 'glove.6B.*.txt', but "
                               f"got: {file_path}")


class CharNGram(Vectors):
    """Character n-gram vectors ("2gram-ab ..." lines): a token's vector is the mean of the
    vectors of its 2-, 3- and 4-grams, the token framed by "#BEGIN#" and "#END#" (grams not in
    the file, or equal to the unknown vector, are left out), as MindSpore computes it."""

    def lookup(self, token: str, unk_init, lower_case_backup: bool) -> np.ndarray:
        init = np.zeros(self.dim, np.float32)
        if unk_init is not None and len(unk_init) == self.dim:
            init = np.asarray(unk_init, np.float32)
        chars = ["#BEGIN#", *(token.lower() if lower_case_backup else token), "#END#"]
        total, count = np.zeros(self.dim, np.float32), 0
        for n in (2, 3, 4):
            for pos in range(len(chars) - n + 1):
                vector = self.table.get(f"{n}gram-{''.join(chars[pos:pos + n])}", init)
                if not np.array_equal(vector, init):
                    total += vector
                    count += 1
        return total / np.float32(count) if count else init


# MindSpore's text.utils also holds the SentencePiece vocabulary and its enums
from .sentencepiece import (
    SentencePieceModel,
    SentencePieceVocab,
    SPieceTokenizerLoadType,
    SPieceTokenizerOutType,
)
