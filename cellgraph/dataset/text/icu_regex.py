"""MindSpore's text operations take ICU regular expressions; this reads them with Python's `re`.
ICU's Unicode property classes (`\\p{Ll}`, `\\P{Cc}`, `\\p{L}`, `\\p{Han}`) become explicit
character classes built from `unicodedata` (and Unicode's script ranges), and ICU's `$1` group
references in a replacement become `\\g<1>`."""
from __future__ import annotations

import functools
import re
import sys
import unicodedata

_PROPERTY = re.compile(r"\\([pP])\{(\w+)\}")
_GROUP_REF = re.compile(r"\$(\d+)")


# scripts `unicodedata` does not know, from Unicode's Scripts.txt
_SCRIPTS = {"Han": [(0x2E80, 0x2E99), (0x2E9B, 0x2EF3), (0x2F00, 0x2FD5), (0x3005, 0x3005),
                    (0x3007, 0x3007), (0x3021, 0x3029), (0x3038, 0x303B), (0x3400, 0x4DBF),
                    (0x4E00, 0x9FFF), (0xF900, 0xFA6D), (0xFA70, 0xFAD9), (0x16FE2, 0x16FE3),
                    (0x16FF0, 0x16FF1), (0x20000, 0x2A6DF), (0x2A700, 0x2B739),
                    (0x2B740, 0x2B81D), (0x2B820, 0x2CEA1), (0x2CEB0, 0x2EBE0),
                    (0x2F800, 0x2FA1D), (0x30000, 0x3134A), (0x31350, 0x323AF)]}


@functools.cache
def _category_ranges(category: str) -> str:
    """The code points whose general category is `category` (or starts with it, for a
    one-letter class), or of a script in _SCRIPTS, as a character-class body of ranges."""
    if category in _SCRIPTS:
        return "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in _SCRIPTS[category])
    if not re.fullmatch(r"[A-Z][a-z]?", category):
        raise ValueError(f"regex: the Unicode property \\p{{{category}}} is not supported; "
                         f"general categories (L, Ll, N, Nd, P, Cc, ...) and Han are")
    parts, start = [], None
    for code in range(sys.maxunicode + 2):
        inside = code <= sys.maxunicode and unicodedata.category(chr(code)).startswith(category)
        if inside and start is None:
            start = code
        elif not inside and start is not None:
            first, last = re.escape(chr(start)), re.escape(chr(code - 1))
            parts.append(first if start == code - 1 else f"{first}-{last}")
            start = None
    return "".join(parts)


def _in_class(pattern: str, position: int) -> bool:
    """Whether `position` of `pattern` lies inside a [...] class."""
    depth, i = 0, 0
    while i < position:
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            depth += 1
        elif char == "]" and depth:
            depth -= 1
        i += 1
    return depth > 0


def compile_icu(pattern: str) -> re.Pattern:
    """An ICU pattern as a compiled Python pattern."""
    out, last = [], 0
    for match in _PROPERTY.finditer(pattern):
        body = _category_ranges(match.group(2))
        negated = match.group(1) == "P"
        if _in_class(pattern, match.start()):
            if negated:
                raise ValueError("regex: \\P{...} inside a [...] class is not supported")
            out.append(pattern[last:match.start()] + body)
        else:
            out.append(pattern[last:match.start()] + ("[^" if negated else "[") + body + "]")
        last = match.end()
    out.append(pattern[last:])
    return re.compile("".join(out))


def icu_replacement(replace: str) -> str:
    """An ICU replacement string ($1 for a group) as Python's (\\g<1>), backslashes kept
    literal."""
    return _GROUP_REF.sub(r"\\g<\1>", replace.replace("\\", "\\\\"))
