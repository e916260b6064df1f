"""LineReader: the lines of a text file by number (from 1), read from the byte offsets of the
lines found when it is made, as MindSpore's LineReader reads them."""
from __future__ import annotations

import os
import warnings

from ..core.validator_helpers import check_filename, check_value, type_check

__all__ = ["LineReader"]


class LineReader:
    """Line-based reading of `filename`: `len()` lines, `readline(n)` (or `reader[n]`) the n-th
    without its line break ("\\r\\n", "\\n" or "\\r")."""

    def __init__(self, filename):
        check_filename(filename)
        self.filename = os.path.realpath(filename)
        if not os.path.exists(self.filename):
            raise RuntimeError(f"The input file [{filename}] does not exist.")
        if not os.path.isfile(self.filename):
            raise RuntimeError(f"The input file [{filename}] is not a regular file.")
        self.offsets = [0]
        with open(self.filename, mode="rb") as handle:
            while handle.readline():
                self.offsets.append(handle.tell())
        self.offsets.pop()
        if not self.offsets:
            warnings.warn(f"The input file [{filename}] is empty.", stacklevel=2)
        self.fo_handle = None

    def __getitem__(self, line):
        return self.readline(line)

    def __len__(self):
        return self.len()

    def __del__(self):
        self.close()

    def len(self) -> int:
        """The number of lines of the file."""
        return len(self.offsets)

    def readline(self, line) -> str:
        """The text of line `line` (from 1), without its line break."""
        type_check(line, (int,), "line")
        check_value(line, [0, 2 ** 64 - 1], "line")
        check_value(line, [1, len(self.offsets)], "line")
        if self.fo_handle is None:
            self.fo_handle = open(self.filename, encoding="utf-8")  # noqa: SIM115 - kept open
        self.fo_handle.seek(self.offsets[line - 1])
        content = self.fo_handle.readline()
        for ending in ("\r\n", "\n", "\r"):
            if content.endswith(ending):
                return content[:-len(ending)]
        return content

    def close(self) -> None:
        """Close the file."""
        handle = getattr(self, "fo_handle", None)
        if handle is not None:
            handle.close()
            self.fo_handle = None
