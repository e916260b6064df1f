"""The exceptions a user can see. Each message names the operation, the values and the location."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SourceLoc:
    """Where a node came from: file, line, column and the text of that line."""

    filename: str
    line: int
    col: int = 0
    text: str = ""

    def short(self) -> str:
        import os

        return f"{os.path.basename(self.filename)}:{self.line}"

    def render(self) -> str:
        """`In file path:line` (MindSpore's way of naming the place), followed by the source
        line and a caret under the column."""
        head = f"  In file {self.filename}:{self.line}"
        if not self.text:
            return head
        stripped = self.text.lstrip()
        caret = " " * max(self.col - (len(self.text) - len(stripped)), 0) + "^"
        return f"{head}\n    {stripped}\n    {caret}"


class CellgraphError(Exception):
    """Base class; `loc` is the user's source location when known."""

    def __init__(self, message: str, loc: SourceLoc | None = None):
        self.message = message
        self.loc = loc
        super().__init__(self._text())

    def _text(self) -> str:
        return self.message if self.loc is None else f"{self.message}\n{self.loc.render()}"

    def with_loc(self, loc: SourceLoc | None):
        """Attach a location if none is known yet; returns self for `raise e.with_loc(...)`."""
        if self.loc is None and loc is not None:
            self.loc = loc
            self.args = (self._text(),)
        return self


class CompileError(CellgraphError, SyntaxError, RuntimeError):
    """Source that graph mode cannot compile (unsupported syntax, undefined names). MindSpore
    raises RuntimeError for these; it is a SyntaxError too, as the source is what is wrong."""

    def __str__(self) -> str:
        return self.args[0]


class SyntaxTypeError(CellgraphError, TypeError):
    """Source MindSpore's parser refuses with a TypeError (a comprehension with more than one
    `for`)."""


class UndefinedNameError(CellgraphError, NameError):
    """A name construct reads that is defined nowhere (MindSpore raises NameError)."""


class UnboundNameError(CellgraphError, UnboundLocalError):
    """A name construct reads that some path leaves unbound: assigned in one branch of an `if`
    only, or first in a loop body (MindSpore raises UnboundLocalError)."""


class ShapeError(CellgraphError, ValueError):
    """Operands whose shapes do not fit the operation."""


class DTypeError(CellgraphError, TypeError):
    """Operands of the wrong type: a non-Tensor where a Tensor is needed, a bad dtype."""


class ArgumentError(CellgraphError, TypeError):
    """A call with the wrong number or kind of arguments."""


class KeywordArgumentError(ArgumentError, RuntimeError):
    """A call, compiled into a graph, with a keyword its function does not take: Python's
    TypeError, and the RuntimeError MindSpore's graph compiler raises for it."""


class TransformArgumentError(ArgumentError, RuntimeError):
    """A transform's argument MindSpore's graph compiler refuses with a RuntimeError (vmap's
    `in_axes` and `out_axes` that do not fit the call): a TypeError, and that RuntimeError."""


class ShapeRunError(ShapeError, RuntimeError):
    """Shapes that do not fit where MindSpore's kernel, not its shape inference, refuses them
    (a convolution's input channels): a ValueError, and the RuntimeError MindSpore raises."""


class GradValueError(CellgraphError, ValueError):
    """A gradient API called with an impossible combination of values."""


class GradRequestError(GradValueError, RuntimeError):
    """A gradient asked for that MindSpore refuses with a RuntimeError: `grad_position=()`,
    `get_grad` of a position or Parameter that has no gradient."""


class GradPositionError(GradValueError, IndexError, RuntimeError):
    """A grad_position beyond the call's inputs: MindSpore 2.10 raises RuntimeError for it in
    PyNative ("Position index 3 is exceed input size"), IndexError in a graph."""


class ArgumentValueError(CellgraphError, ValueError):
    """An argument of the right type but an impossible value (a negative size, an unknown
    name, a probability outside [0, 1])."""


class AttributeLookupError(CellgraphError, AttributeError):
    """An attribute that the object construct reads it from does not have (a Cell's, a
    Tensor's, a sequence's); MindSpore raises AttributeError for it while compiling."""


class IndexValueError(CellgraphError, IndexError):
    """An index MindSpore refuses while compiling, by its value (`x[False]`)."""


class IndexRangeError(CellgraphError, IndexError, RuntimeError):
    """An index or a label outside the axis it indexes, found while the graph ran. Python
    raises IndexError for it; MindSpore's CPU and GPU kernels raise RuntimeError."""


class RunError(CellgraphError, RuntimeError):
    """An operation that failed while the compiled graph ran, for a reason no other class
    names (the message says which operation, on which values, at which line)."""


class LeafInplaceError(CellgraphError, RuntimeError):
    """An in-place operation on a leaf that requires grad (an input Tensor or a Parameter) while
    PyNative mode's autograd records a gradient: MindSpore forbids it, as the backward pass
    would read the overwritten values."""


class CommunicationError(CellgraphError, RuntimeError):
    """Collectives used before `init()`, an unknown group, a peer that died or timed out."""


# A program that prints `type(e).__name__` sees MindSpore's builtin names ("ValueError",
# "TypeError"), as it would under MindSpore; tracebacks (which use __qualname__) still show the
# precise class, and `except ShapeError` still tells the kinds apart.
for _cls in (ShapeError, GradValueError, ArgumentValueError):
    _cls.__name__ = "ValueError"
for _cls in (DTypeError, ArgumentError):
    _cls.__name__ = "TypeError"
UndefinedNameError.__name__ = "NameError"
AttributeLookupError.__name__ = "AttributeError"
IndexRangeError.__name__ = IndexValueError.__name__ = "IndexError"
RunError.__name__ = LeafInplaceError.__name__ = ShapeRunError.__name__ = "RuntimeError"
del _cls


class UnsupportedError(CellgraphError, NotImplementedError):
    """A MindSpore feature that cellgraph cannot provide on this platform (MindIR export,
    Ascend-only kernels); the message says what to use instead."""


_USER_FUNCTION_MARK = "_cellgraph_raised_by_user_function"


def mark_raised_by_user_function(exc: BaseException, loc: SourceLoc | None) -> BaseException:
    """Mark `exc`, raised by a user's function that a kernel ran (ops.Custom's), to reach the
    user as that function raised it (as in MindSpore), with a note of the call's line."""
    setattr(exc, _USER_FUNCTION_MARK, True)
    if loc is not None and hasattr(exc, "add_note"):
        exc.add_note(f"raised by the function of the operation called at\n{loc.render()}")
    return exc


def raised_by_user_function(exc: BaseException) -> bool:
    return getattr(exc, _USER_FUNCTION_MARK, False)
