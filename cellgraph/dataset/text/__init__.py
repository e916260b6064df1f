"""cellgraph.dataset.text: Vocab, Lookup, ToNumber and tokenizers on NumPy string arrays
(SentencePiece's through the sentencepiece package)."""
from . import transforms, utils
from .sentencepiece import (
    SentencePieceModel,
    SentencePieceTokenizer,
    SentencePieceVocab,
    SPieceTokenizerLoadType,
    SPieceTokenizerOutType,
)
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
    TruncateSequencePair,
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
    "SPieceTokenizerLoadType",
    "SPieceTokenizerOutType",
    "SentencePieceModel",
    "SentencePieceTokenizer",
    "SentencePieceVocab",
    "SlidingWindow",
    "ToNumber",
    "ToVectors",
    "Truncate",
    "TruncateSequencePair",
    "UnicodeCharTokenizer",
    "Vectors",
    "Vocab",
    "WhitespaceTokenizer",
    "to_bytes",
    "to_str",
    "transforms",
    "utils",
]
