"""cellgraph.dataset.text: Vocab, Lookup, ToNumber and tokenizers on NumPy string arrays."""
from . import transforms, utils
from .transforms import (
    AddToken,
    CaseFold,
    Lookup,
    Ngram,
    NormalizeUTF8,
    PythonTokenizer,
    RegexReplace,
    RegexTokenizer,
    SlidingWindow,
    ToNumber,
    ToVectors,
    Truncate,
    UnicodeCharTokenizer,
    WhitespaceTokenizer,
)
from .utils import CharNGram, NormalizeForm, Vectors, Vocab, to_bytes, to_str

__all__ = [
    "AddToken",
    "CaseFold",
    "CharNGram",
    "Lookup",
    "Ngram",
    "NormalizeForm",
    "NormalizeUTF8",
    "PythonTokenizer",
    "RegexReplace",
    "RegexTokenizer",
    "SlidingWindow",
    "ToNumber",
    "ToVectors",
    "Truncate",
    "UnicodeCharTokenizer",
    "Vectors",
    "Vocab",
    "WhitespaceTokenizer",
    "to_bytes",
    "to_str",
    "transforms",
    "utils",
]
