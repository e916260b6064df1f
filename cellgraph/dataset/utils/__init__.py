"""mindspore.dataset.utils: LineReader, random access to the lines of a text file."""
from .line_reader import LineReader

__all__ = ["LineReader"]
