"""BERT's tokenizers of mindspore.dataset.text: BasicTokenizer (normalise, split at whitespace,
punctuation and CJK characters), WordpieceTokenizer (greedy longest-first subwords from a
Vocab) and BertTokenizer (the two in a row). Offsets are UTF-8 byte positions in the text after
normalisation, as MindSpore gives them.

MindSpore's lower-casing with `preserve_unused_token` folds the text before each kept special
token ([CLS], [SEP], [UNK], [PAD], [MASK]) from the text's start, and then the whole text once
more, so "Hello [CLS] World" is tokenized as "hello [CLS]hello [cls] world"; its WordpieceTokenizer
keeps the offsets of the subwords found before a word turns out to be unknown. Both are what
MindSpore 2.10 outputs, and programs compare against them, so they are kept here.
"""
from __future__ import annotations

import functools
import unicodedata

import numpy as np

from cellgraph.dataset.core.validator_helpers import UINT32_MAX, check_value, type_check
from cellgraph.dataset.transforms.transforms import TensorOperation

from .icu_regex import compile_icu
from .transforms import RegexTokenizer, _one_input, nfkc_casefold
from .utils import NormalizeForm, Vocab, as_words

__all__ = ["BasicTokenizer", "BertTokenizer", "WordpieceTokenizer"]

# ASCII punctuation, Unicode punctuation and the CJK ideograph blocks: each is a token
_COMMON_PATTERN = ("[!-/]|[:-@]|[\\[-`]|[{-~]|[\\p{P}]|[\u4e00-\u9fff]|[\u3400-\u4dbf]"
                   "|[\U00020000-\U0002a6df]|[\U0002a700-\U0002b73f]|[\U0002b740-\U0002b81f]"
                   "|[\U0002b820-\U0002ceaf]|[\uf900-\ufaff]|[\U0002f800-\U0002fa1f]")
_UNUSED_PATTERN = "\\[CLS\\]|\\[SEP\\]|\\[UNK\\]|\\[PAD\\]|\\[MASK\\]|\\[unused\\d+\\]|"
_UNUSED_WORDS = {b"[CLS]", b"[SEP]", b"[UNK]", b"[PAD]", b"[MASK]"}


@functools.cache
def _accents_and_controls():
    """The patterns of nonspacing marks and of control and format characters, compiled on
    first use: a Unicode category takes a scan of every code point, which importing
    cellgraph.dataset (which imports this module) should not pay."""
    return compile_icu("\\p{Mn}"), compile_icu("\\p{Cc}|\\p{Cf}")


def _fold(data: bytes) -> bytes:
    return nfkc_casefold(data.decode("utf-8", errors="replace")).encode("utf-8")


def _unused_word_spans(data: bytes) -> list[tuple[int, int]]:
    """Byte spans [first, last] of the special tokens, scanned as MindSpore scans them (the
    length counter runs on from an earlier unclosed '[')."""
    spans, start, length = [], -1, 0
    for i, byte in enumerate(data):
        if byte == ord("["):
            start, length = i, length + 1
        elif byte == ord("]") and start >= 0:
            length += 1
            if data[start:start + length] in _UNUSED_WORDS:
                spans.append((start, start + length - 1))
            start, length = -1, 0
        elif start >= 0:
            length += 1
    return spans


def _fold_keeping_unused_words(text: str) -> str:
    """NFKC case folding that leaves the special tokens as they are (MindSpore's way: see the
    module's docstring)."""
    data, out, position = text.encode("utf-8"), [], 0
    spans = _unused_word_spans(data)
    while position < len(data):
        if not spans:
            out.append(_fold(data))
            break
        first, last = spans.pop(0)
        out.append(_fold(data[:first]) + data[first:last + 1])
        position = last + 1
    return b"".join(out).decode("utf-8", errors="replace")


def _check_flag(value, name: str) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"Wrong input type for {name}, should be boolean.")


def _check_vocab(vocab, missing: str) -> None:
    if vocab is None:
        raise ValueError(missing)
    if not isinstance(vocab, Vocab):
        raise TypeError("Wrong input type for vocab, should be text.Vocab object.")


def _check_string(value, name: str) -> None:
    if not isinstance(value, str):
        raise TypeError(f"Wrong input type for {name}, should be string.")


def _check_normalization_form(normalization_form) -> None:
    if not isinstance(normalization_form, NormalizeForm):
        raise TypeError("Wrong input type for normalization_form, should be enum of "
                        "'NormalizeForm'.")


class BasicTokenizer(TensorOperation):
    """A string -> its words, punctuation marks and CJK characters; `lower_case` folds case and
    strips accents, otherwise the text is put in `normalization_form`; control characters count
    as spaces; `keep_whitespace` keeps the whitespace runs as tokens; `preserve_unused_token`
    keeps [CLS], [SEP], [UNK], [PAD], [MASK] and [unusedN] whole."""

    def __init__(self, lower_case=False, keep_whitespace=False,
                 normalization_form=NormalizeForm.NONE, preserve_unused_token=True,
                 with_offsets=False):
        _check_flag(lower_case, "lower_case")
        _check_flag(keep_whitespace, "keep_whitespace")
        _check_flag(preserve_unused_token, "preserve_unused_token")
        _check_flag(with_offsets, "with_offsets")
        _check_normalization_form(normalization_form)
        self.lower_case, self.keep_whitespace = lower_case, keep_whitespace
        self.normalization_form = normalization_form
        self.preserve_unused_token, self.with_offsets = preserve_unused_token, with_offsets
        delim = "\\s+|" + _COMMON_PATTERN
        keep = delim if keep_whitespace else _COMMON_PATTERN
        if preserve_unused_token:
            delim, keep = _UNUSED_PATTERN + delim, _UNUSED_PATTERN + keep
        self._split = RegexTokenizer(delim, keep, with_offsets)

    def _normalized(self, text: str) -> str:
        if self.lower_case:
            text = (_fold_keeping_unused_words(text) if self.preserve_unused_token
                    else nfkc_casefold(text))
            text = _accents_and_controls()[0].sub("", unicodedata.normalize("NFD", text))
        elif self.normalization_form is not NormalizeForm.NONE:
            text = unicodedata.normalize(self.normalization_form.name, text)
        return _accents_and_controls()[1].sub(" ", text)

    def __call__(self, *inputs):
        if len(inputs) != 1:
            raise RuntimeError("BasicTokenizer: input only support one column data.")
        array = _one_input(inputs, "BasicTokenizer")  # a dict, say, is MindSpore's TypeError
        if array.ndim != 0:
            raise RuntimeError(f"BasicTokenizer: the input should be a scalar, but got a tensor "
                               f"with rank: {array.ndim}")
        if array.dtype.kind != "U":
            raise RuntimeError("BasicTokenizer: the input should be of type string.")
        return self._split(np.array(self._normalized(as_words(array)[0])))


class WordpieceTokenizer(TensorOperation):
    """Each token -> its subwords in `vocab`, longest first from the left (later pieces carry
    `suffix_indicator`); a token with a piece not in `vocab`, or longer than
    `max_bytes_per_token` bytes, becomes `unknown_token` (or stays whole when that is "")."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100,
                 unknown_token="[UNK]", with_offsets=False):
        _check_vocab(vocab, "vocab is not provided.")
        _check_string(suffix_indicator, "suffix_indicator")
        _check_string(unknown_token, "unknown_token")
        _check_flag(with_offsets, "with_offsets")
        type_check(max_bytes_per_token, (int,), "max_bytes_per_token")
        check_value(max_bytes_per_token, [0, UINT32_MAX])  # unnamed, as MindSpore checks it
        self.vocab, self.suffix_indicator = vocab, suffix_indicator
        self.max_bytes_per_token, self.unknown_token = max_bytes_per_token, unknown_token
        self.with_offsets = with_offsets

    def _pieces(self, token: str, base: int, words: dict, tokens: list, spans: list) -> None:
        """`token`'s subwords onto `tokens`, their byte spans (from `base`) onto `spans`."""
        size = len(token.encode("utf-8"))
        if size > self.max_bytes_per_token:
            unknown = self.unknown_token or token
            tokens.append(unknown)
            spans.append((base, base + len(unknown.encode("utf-8"))))
            return
        ends = np.cumsum([0] + [len(c.encode("utf-8")) for c in token])  # byte end per char
        found, start = [], 0
        while start < len(token):
            prefix = self.suffix_indicator if start else ""
            end = next((e for e in range(len(token), start, -1)
                        if prefix + token[start:e] in words), None)
            if end is None:  # the spans found so far stay, as in MindSpore
                tokens.append(self.unknown_token or token)
                spans.append((base, base + size))
                return
            found.append(prefix + token[start:end])
            spans.append((base + int(ends[start]), base + int(ends[end])))
            start = end
        tokens.extend(found)

    def __call__(self, *inputs):
        array = _one_input(inputs[:1], "WordpieceTokenizer")
        if array.ndim > 1 or array.dtype.kind != "U":
            raise RuntimeError("WordpieceTokenizer: The input shape should be 1D scalar the input "
                               "datatype should be string.")
        starts = (np.asarray(inputs[1]).reshape(-1) if self.with_offsets and len(inputs) == 3
                  else None)
        words, tokens, spans = self.vocab.vocab(), [], []
        for i, token in enumerate(as_words(array)):
            base = int(starts[i]) if starts is not None else 0
            self._pieces(token, base, words, tokens, spans)
        if not tokens:
            tokens, spans = [""], [(0, 0)]
        out = np.array(tokens, dtype=str)
        if not self.with_offsets:
            return out
        return (out, np.array([a for a, _ in spans], np.uint32),
                np.array([b for _, b in spans], np.uint32))


class BertTokenizer(TensorOperation):
    """BasicTokenizer, then WordpieceTokenizer on its tokens (and their offsets)."""

    def __init__(self, vocab, suffix_indicator="##", max_bytes_per_token=100,
                 unknown_token="[UNK]", lower_case=False, keep_whitespace=False,
                 normalization_form=NormalizeForm.NONE, preserve_unused_token=True,
                 with_offsets=False):
        _check_vocab(vocab, "vacab is not provided.")  # MindSpore's spelling
        _check_string(suffix_indicator, "suffix_indicator")
        if not isinstance(max_bytes_per_token, int):
            raise TypeError("Wrong input type for max_bytes_per_token, should be int.")
        type_check(max_bytes_per_token, (int,), "max_bytes_per_token")
        check_value(max_bytes_per_token, [0, UINT32_MAX])  # unnamed, as MindSpore checks it
        _check_string(unknown_token, "unknown_token")
        for value, name in ((lower_case, "lower_case"), (keep_whitespace, "keep_whitespace"),
                            (preserve_unused_token, "preserve_unused_token"),
                            (with_offsets, "with_offsets")):
            _check_flag(value, name)
        _check_normalization_form(normalization_form)
        self.vocab, self.suffix_indicator = vocab, suffix_indicator
        self.max_bytes_per_token, self.unknown_token = max_bytes_per_token, unknown_token
        self.lower_case, self.keep_whitespace = lower_case, keep_whitespace
        self.normalization_form = normalization_form
        self.preserve_unused_token, self.with_offsets = preserve_unused_token, with_offsets
        self._basic = BasicTokenizer(lower_case, keep_whitespace, normalization_form,
                                     preserve_unused_token, with_offsets)
        self._wordpiece = WordpieceTokenizer(vocab, suffix_indicator, max_bytes_per_token,
                                             unknown_token, with_offsets)

    def __call__(self, *inputs):
        words = self._basic(*inputs)
        return self._wordpiece(*words) if self.with_offsets else self._wordpiece(words)
