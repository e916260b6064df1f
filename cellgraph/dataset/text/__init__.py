"""cellgraph.dataset.text: Vocab, Lookup, ToNumber and tokenizers on NumPy string arrays."""
from . import transforms, utils
from .transforms import (
    AddToken,
    CaseFold,
    Lookup,
    Ngram,
    PythonTokenizer,
    SlidingWindow,
    ToNumber,
    Truncate,
    UnicodeCharTokenizer,
    WhitespaceTokenizer,
)
from .utils import Vocab

__all__ = ["AddToken", "CaseFold", "Lookup", "Ngram", "PythonTokenizer", "SlidingWindow", "ToNumber",
           "Truncate",
           "UnicodeCharTokenizer", "Vocab", "WhitespaceTokenizer", "transforms", "utils"]
