"""`mindspore.dataset.text.Vocab`: words <-> ids, built from a list, a dict, a file or a
dataset (most frequent first, ties in lexicographic order, as MindSpore orders them)."""
from __future__ import annotations

import enum
import os
from collections import Counter

import numpy as np

__all__ = ["CharNGram", "NormalizeForm", "Vectors", "Vocab", "as_words", "to_bytes", "to_str"]


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


def as_words(array) -> list[str]:
    """The strings of a str or bytes array (bytes decoded as UTF-8), flattened."""
    array = np.asarray(array)
    if array.dtype.kind not in "US":
        raise RuntimeError(f"expected a string array, got dtype {array.dtype}")
    return [w.decode("utf-8") if isinstance(w, bytes) else str(w) for w in array.reshape(-1)]


def _with_specials(words: list, special_tokens, special_first: bool) -> list:
    specials = list(special_tokens or [])
    words = [w for w in words if w not in specials]
    return specials + words if special_first else words + specials


class Vocab:
    """A word -> id map (ids from 0); unknown words are -1, unknown ids ""."""

    def __init__(self):
        self._ids, self._words = {}, {}

    @classmethod
    def _of(cls, word_ids: dict) -> Vocab:
        vocab = cls()
        vocab._ids = dict(word_ids)
        vocab._words = {i: w for w, i in vocab._ids.items()}
        return vocab

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True) -> Vocab:
        words = list(word_list)
        if len(set(words)) != len(words):
            raise ValueError("Vocab.from_list: word_list holds duplicate words")
        return cls._of({w: i for i, w in enumerate(_with_specials(words, special_tokens,
                                                              special_first))})

    @classmethod
    def from_dict(cls, word_dict) -> Vocab:
        if not all(isinstance(i, int) and i >= 0 for i in word_dict.values()):
            raise ValueError("Vocab.from_dict: ids must be non-negative ints")
        return cls._of(word_dict)

    @classmethod
    def from_file(cls, file_path, delimiter="", vocab_size=None, special_tokens=None,
                  special_first=True) -> Vocab:
        """One word per line (the part before `delimiter`, when given)."""
        if not os.path.isfile(file_path):
            raise ValueError(f"Vocab.from_file: {file_path!r} is not a file")
        with open(file_path, encoding="utf-8") as f:
            words = [line.rstrip("\n") for line in f if line.strip()]
        if delimiter:
            words = [w.split(delimiter)[0] for w in words]
        words = list(dict.fromkeys(words))[:vocab_size]
        return cls.from_list(words, special_tokens, special_first)

    @classmethod
    def from_dataset(cls, dataset, columns=None, freq_range=None, top_k=None,
                     special_tokens=None, special_first=True) -> Vocab:
        """The words of the dataset's string columns whose counts lie in freq_range, the
        top_k most frequent (ties in lexicographic order)."""
        columns = [columns] if isinstance(columns, str) else columns
        counts = Counter()
        for row in dataset.create_dict_iterator(output_numpy=True, num_epochs=1):
            for name in columns or list(row):
                counts.update(as_words(row[name]))
        low, high = freq_range or (None, None)
        low, high = low or 0, high if high is not None else sum(counts.values())
        words = sorted((w for w, c in counts.items() if low <= c <= high),
                       key=lambda w: (-counts[w], w))
        return cls.from_list(words[:top_k], special_tokens, special_first)

    def vocab(self) -> dict:
        return dict(self._ids)

    def tokens_to_ids(self, tokens):
        if isinstance(tokens, str) or (isinstance(tokens, np.ndarray) and tokens.ndim == 0):
            return self._ids.get(str(tokens), -1)  # one token (a 0-d array too): one id
        return [self._ids.get(t, -1) for t in as_words(tokens)]

    def ids_to_tokens(self, ids):
        if isinstance(ids, (int, np.integer)) or (isinstance(ids, np.ndarray) and ids.ndim == 0):
            return self._words.get(int(ids), "")  # one id (a 0-d array too): one token
        return [self._words.get(int(i), "") for i in np.asarray(ids).reshape(-1)]

    def __len__(self) -> int:
        return len(self._ids)


class Vectors:
    """Pre-trained word vectors from a text file of lines "token v1 v2 ...", read as
    MindSpore's loader reads them: a leading line of two fields is a header; the first line
    fixes the dimension; the first vector of a token is kept; `max_vectors` the lines read."""

    def __init__(self, table: dict, dim: int):
        self.table, self.dim = table, dim

    @classmethod
    def from_file(cls, file_path, max_vectors=None):
        from cellgraph.dataset.core.validator_helpers import check_value, type_check

        type_check(file_path, (str,), "file_path")
        if max_vectors is not None:
            type_check(max_vectors, (int,), "max_vectors")
            check_value(max_vectors, [0, 2147483647], "max_vectors")
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

    def lookup(self, token: str, unk_init, lower_case_backup: bool) -> np.ndarray:
        """The token's vector (lower-cased first with `lower_case_backup`), else `unk_init`
        or zeros."""
        key = token.lower() if lower_case_backup else token
        if key in self.table:
            return self.table[key]
        if unk_init is not None and len(unk_init) == self.dim:
            return np.asarray(unk_init, np.float32)
        return np.zeros(self.dim, np.float32)


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
