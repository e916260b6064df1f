"""`mindspore._extends.parse.standard_method`: the functions MindSpore's graph compiler maps
Python's operators and builtins onto, for programs and tests that call them by name. Each is
the operation it stands for, so it works in construct and eagerly alike."""
from __future__ import annotations

__all__ = ["ms_len", "uadd", "usub"]


def ms_len(data):
    """`len(data)`."""
    return len(data)


def uadd(x):
    """`+x`."""
    return +x


def usub(x):
    """`-x`."""
    return -x
