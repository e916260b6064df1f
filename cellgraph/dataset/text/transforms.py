"""Text transforms of mindspore.dataset.text on NumPy string arrays: Lookup, ToNumber and the
tokenizers (offsets are UTF-8 byte positions, uint32, as MindSpore gives them)."""
from __future__ import annotations

import re
import unicodedata

import numpy as np

from cellgraph.dataset.core.validator_helpers import (
    INT32_MAX,
    check_pos_int32,
    check_value,
    type_check,
)
from cellgraph.dataset.transforms.transforms import TensorOperation, numpy_dtype
from cellgraph.primitives import dtype as dt

from .icu_regex import compile_icu, icu_replacement
from .sentencepiece import SentencePieceTokenizer
from .utils import NormalizeForm, Vectors, Vocab, as_words, check_strings

__all__ = ["AddToken", "BasicTokenizer", "BertTokenizer", "CaseFold", "FilterWikipediaXML",
           "JiebaTokenizer", "Lookup",
           "Ngram", "NormalizeUTF8", "PythonTokenizer",
           "RegexReplace", "RegexTokenizer", "SentencePieceTokenizer", "SlidingWindow", "ToNumber",
           "ToVectors", "Truncate", "TruncateSequencePair",
           "UnicodeCharTokenizer", "UnicodeScriptTokenizer", "WhitespaceTokenizer", "WordpieceTokenizer"]


class AddToken(TensorOperation):
    """`token` added at the start (`begin`) or the end of each 1-D (or 2-D: along the last
    axis) string sequence."""

    def __init__(self, token, begin=True):
        type_check(token, (str,), "token")
        type_check(begin, (bool,), "begin")
        self.token, self.begin = token, begin

    def __call__(self, words):
        array = check_strings(words, "AddToken: input tensor type should be string.")
        if array.ndim not in (1, 2):
            raise RuntimeError("AddToken: input tensor rank should be 1 or 2.")
        token = np.full(array.shape[:-1] + (1,), self.token)
        parts = [token, array] if self.begin else [array, token]
        return np.concatenate(parts, axis=-1)


def _one_input(inputs: tuple, op: str) -> np.ndarray:
    if len(inputs) != 1:
        raise RuntimeError(f"{op}: The op is OneToOne, can only accept one tensor as input.")
    try:
        array = np.asarray(inputs[0])
    except ValueError:
        array = np.asarray(inputs[0], dtype=object)
    if array.dtype == object:  # an eager call's input must make a tensor, as in MindSpore
        raise TypeError(f"Invalid user input. Got {type(inputs[0])}: {inputs[0]}, cannot be "
                        f"converted into tensor.")
    return array


def _pad_spec(pad, side: str) -> tuple[str, int]:
    if not (isinstance(pad, tuple) and len(pad) == 2 and isinstance(pad[0], str)
            and isinstance(pad[1], int)):
        raise ValueError(f"{side}_pad needs to be a tuple of (str, int) str is pad token and int "
                         f"is pad_width.")
    return pad


class Ngram(TensorOperation):
    """The n-grams of a 1-D string sequence for each n in `n` (an int or a list), one after
    another: the sequence padded with `left_pad` = (token, width) and `right_pad`, each window
    of n words joined by `separator`; an n longer than the padded sequence gives one ""."""

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        n = [n] if isinstance(n, int) and not isinstance(n, bool) else n
        if not (isinstance(n, list) and n):
            raise ValueError("n needs to be a non-empty list of positive integers.")
        for i, gram in enumerate(n):
            type_check(gram, (int,), f"gram[{i}]")
            if gram <= 0:
                raise ValueError(f"Input gram_{i} must be greater than 0.")
        left_pad, right_pad = _pad_spec(left_pad, "left"), _pad_spec(right_pad, "right")
        if left_pad[1] < 0 or right_pad[1] < 0:
            raise ValueError("padding width need to be positive numbers.")
        type_check(separator, (str,), "separator")
        self.ngrams, self.left_pad, self.right_pad, self.separator = n, left_pad, right_pad, \
            separator

    def __call__(self, *inputs):
        array = _one_input(inputs, "Ngram")
        if array.dtype.kind != "U" or array.ndim != 1:
            raise RuntimeError("Ngram: input is not a 1D data with string datatype.")
        words = as_words(array)
        grams = []
        for n in self.ngrams:
            # each side padded with at most n - 1 tokens
            padded = ([self.left_pad[0]] * min(self.left_pad[1], n - 1) + words
                      + [self.right_pad[0]] * min(self.right_pad[1], n - 1))
            if n > len(padded):
                grams.append("")
            else:
                grams.extend(self.separator.join(padded[i:i + n])
                             for i in range(len(padded) - n + 1))
        return np.array(grams, dtype=np.str_)


class SlidingWindow(TensorOperation):
    """The windows of `width` consecutive items of a 1-D sequence, stacked: shape
    (len - width + 1, width), empty when `width` is longer; `axis` 0 or -1."""

    def __init__(self, width, axis=0):
        check_pos_int32(width, "width")
        type_check(axis, (int,), "axis")
        self.width, self.axis = width, axis

    def __call__(self, *inputs):
        array = _one_input(inputs, "SlidingWindow")
        if array.ndim != 1:
            raise RuntimeError(f"SlidingWindow: SlidingWindow supports 1D input only for now, but "
                               f"got {array.ndim}D.")
        if self.axis not in (0, -1):
            raise RuntimeError(f"SlidingWindow: The parameter axis supports 0 or -1 only for now, "
                               f"but got {self.axis}.")
        count = len(array) - self.width + 1
        if count <= 0:
            return np.array([], dtype=array.dtype)
        return np.stack([array[i:i + self.width] for i in range(count)])


class Lookup(TensorOperation):
    """Words -> their ids in `vocab` (`unknown_token`'s id for others; without one, an
    unknown word is an error), as `data_type`."""

    def __init__(self, vocab, unknown_token=None, data_type=dt.int32):
        if unknown_token is not None:
            type_check(unknown_token, (str,), "unknown_token")
        if not isinstance(vocab, Vocab):
            raise TypeError(f"Lookup: `vocab` must be a text.Vocab, got {type(vocab).__name__}")
        if isinstance(data_type, dt.String):  # MindSpore's check and words
            raise RuntimeError(  # noqa: TRY004 (MindSpore's parameter error is a RuntimeError)
                "Syntax error. Lookup : The parameter data_type must be numeric including bool.")
        type_check(data_type, (dt.DType,), "data_type")  # MindSpore's dtypes only, not NumPy's
        self.vocab, self.dtype = vocab, numpy_dtype(data_type)
        self.unknown_token = unknown_token
        self.unknown_id = None

    def _validate_params(self) -> None:
        """MindSpore's check when the pipeline (or an eager call) starts: the unknown token is
        a word of the vocab."""
        if self.unknown_token is not None and self.unknown_id is None:
            self.unknown_id = self.vocab.tokens_to_ids(self.unknown_token)
            if self.unknown_id == -1:
                self.unknown_id = None
                raise RuntimeError(f'Lookup: "{self.unknown_token}" doesn\'t exist in vocab.')

    def __call__(self, words):
        self._validate_params()
        array = check_strings(words, "Lookup: input is not string datatype.")
        ids = self.vocab.tokens_to_ids(list(as_words(array)))  # one id per word, 0-d too
        for word, i in zip(as_words(array), ids):
            if i == -1 and self.unknown_id is None:
                raise RuntimeError(f'Lookup: invalid data, token: "{word}" doesn\'t exist in '
                                   f'vocab and no unknown token is specified.')
        ids = [self.unknown_id if i == -1 else i for i in ids]
        return np.asarray(ids, self.dtype).reshape(array.shape)


class TruncateSequencePair(TensorOperation):
    """Two 1-D sequences cut to at most `max_length` items together: while too long, the
    longer one (the second, when they are as long) loses its last item."""

    def __init__(self, max_length):
        self.max_length = max_length

    def __call__(self, *inputs):
        if len(inputs) != 2:
            raise RuntimeError(f"TruncateSequencePair: Expected two inputs, but got "
                               f"{len(inputs)} inputs.")
        first, second = (np.asarray(x) for x in inputs)
        if first.ndim != 1 or second.ndim != 1:
            raise RuntimeError("TruncateSequencePair: both data column should be of rank 1.")
        keep1, keep2 = len(first), len(second)
        for _ in range(max(keep1 + keep2 - self.max_length, 0)):
            if keep1 > keep2:
                keep1 -= 1
            else:
                keep2 -= 1
        return first[:keep1], second[:keep2]


class Truncate(TensorOperation):
    """A 1-D (or 2-D: along the last axis) sequence cut to its first `max_seq_len` items."""

    def __init__(self, max_seq_len):
        type_check(max_seq_len, (int,), "max_seq_len")
        check_value(max_seq_len, [1, INT32_MAX], "max_seq_len")
        self.max_seq_len = max_seq_len

    def __call__(self, x):
        array = np.asarray(x)
        if array.ndim not in (1, 2):
            raise RuntimeError(f"Truncate: expected a 1-D or 2-D input, got shape {array.shape}")
        return array[..., :self.max_seq_len]


_INT_PREFIX = re.compile(r"\s*[+-]?\d+")
_FLOAT_PREFIX = re.compile(r"\s*[+-]?(inf(inity)?|nan|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)",
                           re.IGNORECASE)


class ToNumber(TensorOperation):
    """Strings -> numbers of `data_type`, read as C's strtoll / strtof / strtod read them (the
    longest number at the start, after blanks); a string with no number, or one out of the
    type's range (an underflowing float too), is an error, in MindSpore's words."""

    def __init__(self, data_type):
        self.dtype = numpy_dtype(data_type)
        if self.dtype.kind not in "iuf":
            raise TypeError(f"data_type: {data_type} is not numeric data type.")

    def __call__(self, *inputs):
        array = check_strings(_one_input(inputs, "ToNumber"),
                              "ToNumber: input should be string datatype.")
        values = [self._number(s) for s in as_words(array)]
        return np.asarray(values, self.dtype).reshape(array.shape)

    def _out_of_bounds(self, text: str, low, high, fmt: str) -> RuntimeError:
        return RuntimeError(f"ToNumber: string input {text} will be out of bounds if cast to "
                            f"{self.dtype}. The valid range is: [{low:{fmt}}, {high:{fmt}}].")

    def _number(self, text: str):
        pattern = _INT_PREFIX if self.dtype.kind in "iu" else _FLOAT_PREFIX
        match = pattern.match(text)
        if match is None:
            raise RuntimeError(f'ToNumber: it is invalid to convert "{text}" to a number.')
        if self.dtype.kind in "iu":
            info = np.iinfo(self.dtype)
            value = int(match.group())
            if not info.min <= value <= info.max or self.dtype.kind == "u" and "-" in text:
                raise self._out_of_bounds(text, info.min, info.max, "d")
            return value
        parsed = np.float64 if self.dtype == np.float64 else np.float32
        info = np.finfo(parsed)
        value = float(match.group())
        if abs(value) > float(info.max) or value != 0 and abs(value) < float(info.tiny):
            raise self._out_of_bounds(text, -float(info.max), float(info.max), ".6f")
        if self.dtype == np.float16 and abs(value) > 65504:
            raise RuntimeError(f"ToFloat16: value {value:.6f}in input data is outside of valid "
                               f"float16 range [65504.000000, -65504.000000].")
        return value


def _tokens(text: str, spans: list[tuple[int, int]], with_offsets: bool):
    """The tokens, and with offsets their UTF-8 byte starts and ends. No token is one empty
    token at 0, as MindSpore's tokenizers give it."""
    spans = spans or [(0, 0)]
    tokens = np.array([text[a:b] for a, b in spans], dtype=str)
    if not with_offsets:
        return tokens
    starts = [len(text[:a].encode("utf-8")) for a, _ in spans]
    limits = [len(text[:b].encode("utf-8")) for _, b in spans]
    return tokens, np.array(starts, np.uint32), np.array(limits, np.uint32)


def _one_string(value, op: str, strict: bool = True) -> str:
    """The one string of a 0-d array: of str data (`strict`, MindSpore's tokenizers) or also
    bytes, decoded as UTF-8 (PythonTokenizer)."""
    array = np.asarray(value)
    if array.ndim != 0 or strict and array.dtype.kind != "U":
        raise RuntimeError(f"{op}Op: the input shape should be scalar and the input datatype "
                           f"should be string.")
    return as_words(array)[0]


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
        return np.array(self.tokenizer(_one_string(text, "PythonTokenizer", strict=False)), dtype=str)


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
        array = check_strings(text, "CaseFold: input is not string datatype.")
        out = [nfkc_casefold(str(word)) for word in array.reshape(-1)]
        return np.array(out, dtype=np.str_).reshape(array.shape)


def _map_strings(array, convert) -> np.ndarray:
    """`convert` applied to every string of a str (or bytes) array, in its shape."""
    array = np.asarray(array)
    return np.array([convert(w) for w in as_words(array)], dtype=str).reshape(array.shape)


# MindSpore's rewrites of Wikipedia markup to lower-case words (after Matt Mahoney's filter):
# (ICU pattern, replacement). MindSpore keeps them in a std::map, so they apply in the order of
# the patterns' UTF-16 code units, not as listed; "R" becomes "" there, and an ICU replacement's
# backslash quotes the next character ("\n" is "n"). Both kept, for MindSpore's output.
_WIKIPEDIA_REWRITES = sorted([
    (r"<.*>", ""), (r"&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), (r"<ef[^<]*<\/ef>", ""),
    ("<[^>]*>", ""), (r"\[http:[^] ]*", "["), (r"\|thumb", ""), (r"\|left", ""),
    (r"\|right", ""), (r"\|\d+px", ""), (r"\[\[image:[^\[\]]*\|", ""),
    (r"\[\[category:([^|\]]*)[^]]*\]\]", "[[$1]]"), (r"\[\[[a-z\-]*:[^\]]*\]\]", ""),
    (r"\[\[[^\|\]]*\|", "[["), (r"\{\{[^\}]*\}\}", ""), (r"\{[^\}]*\}", ""), (r"\[", ""),
    (r"\]", ""), ("&[^;]*;", " "),
    *((c, "" if c == "R" else c.lower()) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    *((str(d), f" {w} ") for d, w in enumerate(("zero", "one", "two", "three", "four", "five",
                                                 "six", "seven", "eight", "nine"))),
    (r"[^a-z\n]+", " "), (r"\n ", ""), (r"\s+", " "), (r"\n\s*\n", r"\n")],
    key=lambda rewrite: rewrite[0].encode("utf-16-be"))


class FilterWikipediaXML(TensorOperation):
    """Text in Wikipedia's XML dump format as "clean" text: lower-case letters a-z (from A-Z,
    digits spelled out) and single spaces; a `#redirect` page becomes empty. MindSpore's
    rewrites, in its order (see _WIKIPEDIA_REWRITES), each result trimmed."""

    _rewrites = None

    def __call__(self, *inputs):
        array = check_strings(_one_input(inputs, "FilterWikipediaXML"),
                              "FilterWikipediaXML: input is not of type string.")
        rewrites = FilterWikipediaXML._rewrites
        if rewrites is None:
            rewrites = FilterWikipediaXML._rewrites = [
                (compile_icu(p), icu_replacement(r)) for p, r in _WIKIPEDIA_REWRITES]
        text = as_words(array.reshape(-1)[:1])[0] if array.size else ""
        if "#redirect" in text or "#REDIRECT" in text:
            text = ""
        else:
            for regex, replacement in rewrites:
                text = regex.sub(replacement, text).strip()
        return np.array(text, dtype=str) if array.ndim == 0 else \
            np.full(array.shape, text, dtype=object).astype(str)


class NormalizeUTF8(TensorOperation):
    """Strings in the Unicode normalization form `normalize_form` (NormalizeForm.NONE keeps
    them)."""

    def __init__(self, normalize_form=NormalizeForm.NFKC):
        type_check(normalize_form, (NormalizeForm,), "normalize_form")
        self.normalize_form = normalize_form

    def __call__(self, *inputs):
        array = check_strings(_one_input(inputs, "NormalizeUTF8"),
                              "NormalizeUTF8: input is not string datatype.")
        if self.normalize_form is NormalizeForm.NONE:
            return _map_strings(array, str)
        form = self.normalize_form.name
        return _map_strings(array, lambda w: unicodedata.normalize(form, w))


class RegexReplace(TensorOperation):
    """Matches of the ICU regex `pattern` replaced by `replace` (`$1` names a group): all of
    them, or with `replace_all=False` the first."""

    def __init__(self, pattern, replace, replace_all=True):
        type_check(pattern, (str,), "pattern")
        type_check(replace, (str,), "replace")
        type_check(replace_all, (bool,), "replace_all")
        self.pattern, self.replace, self.replace_all = pattern, replace, replace_all
        self._regex, self._replacement = compile_icu(pattern), icu_replacement(replace)

    def __call__(self, *inputs):
        array = check_strings(_one_input(inputs, "RegexReplace"),
                              "RegexReplace: input is not string datatype.")
        count = 0 if self.replace_all else 1
        return _map_strings(array, lambda w: self._regex.sub(self._replacement, w, count=count))


class RegexTokenizer(TensorOperation):
    """A string split at the matches of the ICU regex `delim_pattern`; the delimiters that
    match `keep_delim_pattern` whole are tokens too; empty tokens are dropped (no token at all
    is one empty token)."""

    def __init__(self, delim_pattern, keep_delim_pattern="", with_offsets=False):
        type_check(delim_pattern, (str,), "delim_pattern")
        type_check(keep_delim_pattern, (str,), "keep_delim_pattern")
        type_check(with_offsets, (bool,), "with_offsets")
        self.delim_pattern, self.keep_delim_pattern = delim_pattern, keep_delim_pattern
        self.with_offsets = with_offsets
        self._delim = compile_icu(delim_pattern)
        self._keep = compile_icu(keep_delim_pattern) if keep_delim_pattern else None

    def __call__(self, *inputs):
        text = _one_string(_one_input(inputs, "RegexTokenizer"), "RegexTokenizer")
        spans, start = [], 0
        for match in self._delim.finditer(text):
            if match.start() > start:
                spans.append((start, match.start()))
            if self._keep is not None and match.end() > match.start() and \
                    self._keep.fullmatch(match.group()):
                spans.append(match.span())
            start = match.end()
        if start < len(text):
            spans.append((start, len(text)))
        return _tokens(text, spans, self.with_offsets)


class ToVectors(TensorOperation):
    """Tokens -> their vectors in `vectors` (Vectors or CharNGram; float32): one token gives a
    vector, several a (count, dim) matrix; an unknown token gets `unk_init` (or zeros)."""

    def __init__(self, vectors, unk_init=None, lower_case_backup=False):
        type_check(vectors, (Vectors,), "vectors")
        if unk_init is not None:
            type_check(unk_init, (list, tuple), "unk_init")
            for i, value in enumerate(unk_init):
                type_check(value, (int, float), f"unk_init[{i}]")
        type_check(lower_case_backup, (bool,), "lower_case_backup")
        self.vectors, self.unk_init = vectors, unk_init
        self.lower_case_backup = lower_case_backup

    def __call__(self, *inputs):
        array = check_strings(_one_input(inputs, "ToVectors"),
                              "ToVectors: input tensor type should be string.")
        if self.unk_init is not None and len(self.unk_init) != self.vectors.dim:
            raise RuntimeError(f"ToVectors: unk_init must be the same length as vectors, but got "
                               f"unk_init: {len(self.unk_init)} and vectors: {self.vectors.dim}")
        rows = [self.vectors.lookup(w, self.unk_init, self.lower_case_backup)
                for w in as_words(array)]
        return rows[0] if len(rows) == 1 else np.stack(rows)


# the tokenizers built from the ones above; MindSpore keeps them in this module too
from .bert_tokenizers import BasicTokenizer, BertTokenizer, WordpieceTokenizer
from .jieba_tokenizer import JiebaTokenizer
from .script_tokenizer import UnicodeScriptTokenizer
