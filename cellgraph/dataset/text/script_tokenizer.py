"""text.UnicodeScriptTokenizer: a string split where the Unicode script (ICU's
uscript_getScript: Latin, Han, Common for punctuation and digits, Inherited for combining
marks, ...) or whitespace-ness changes; offsets are UTF-8 byte positions."""
from __future__ import annotations

import bisect

from cellgraph.dataset.transforms.transforms import TensorOperation

from .transforms import _one_input, _one_string, _tokens
from .unicode_scripts import RANGES

__all__ = ["UnicodeScriptTokenizer"]

_FIRSTS = [first for first, _, _ in RANGES]
# Unicode's White_Space property (ICU's u_isUWhiteSpace), which differs from str.isspace
_WHITE_SPACE = frozenset([*range(0x9, 0xE), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B),
                          0x2028, 0x2029, 0x202F, 0x205F, 0x3000])


def script_of(char: str) -> int:
    """The index of `char`'s script in unicode_scripts.SCRIPT_NAMES (0: Unknown)."""
    code = ord(char)
    at = bisect.bisect_right(_FIRSTS, code) - 1
    if at >= 0 and code <= RANGES[at][1]:
        return RANGES[at][2]
    return 0


class UnicodeScriptTokenizer(TensorOperation):
    """A string -> its runs of one script and one whitespace-ness; whitespace runs are
    dropped unless `keep_whitespace`."""

    def __init__(self, keep_whitespace=False, with_offsets=False):
        if not isinstance(keep_whitespace, bool):
            raise TypeError("Wrong input type for keep_whitespace, should be boolean.")
        if not isinstance(with_offsets, bool):
            raise TypeError("Wrong input type for with_offsets, should be boolean.")
        self.keep_whitespace, self.with_offsets = keep_whitespace, with_offsets

    def __call__(self, *inputs):
        text = _one_string(_one_input(inputs, "UnicodeScriptTokenizer"),
                           "UnicodeScriptTokenizer")
        spans, start, last = [], 0, None
        for i, char in enumerate(text):
            kind = (script_of(char), ord(char) in _WHITE_SPACE)
            if i and kind != last:
                if self.keep_whitespace or not last[1]:
                    spans.append((start, i))
                start = i
            last = kind
        if text and (self.keep_whitespace or not last[1]):
            spans.append((start, len(text)))
        return _tokens(text, spans, self.with_offsets)
