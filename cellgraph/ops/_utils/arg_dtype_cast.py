"""MindSpore's `ops._utils.arg_dtype_cast`: the primitives that turn a tuple into a list and
back (`TupleToList`, `ListToTuple`), on constant sequences and on dynamic-length ones
(`mutable(seq, True)`) alike. They move no data, so their gradients pass straight through."""
from __future__ import annotations

from cellgraph.compiler.dynamic_sequence import RuntimeSequence
from cellgraph.ops.operations._sequence_ops import _SequenceOp
from cellgraph.primitives.errors import DTypeError

__all__ = ["ListToTuple", "TupleToList"]


def _converted(op: str, sequence, source: type, target: type):
    if isinstance(sequence, RuntimeSequence) and sequence.kind is source:
        return RuntimeSequence(target, sequence.element, sequence.data, sequence.known,
                               sequence.items)
    if not isinstance(sequence, source):
        raise DTypeError(f"For '{op}', the input must be a {source.__name__}, but got "
                         f"{type(sequence).__name__}.")
    return target(sequence)


class TupleToList(_SequenceOp):
    """The tuple's elements as a list."""

    def __call__(self, input_tuple):
        return _converted("TupleToList", input_tuple, tuple, list)


class ListToTuple(_SequenceOp):
    """The list's elements as a tuple."""

    def __call__(self, input_list):
        return _converted("ListToTuple", input_list, list, tuple)
