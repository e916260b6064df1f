"""`mindspore.ops.operations._sequence_ops`: MindSpore's primitives on tuples and lists.

In a graph here, tuples and lists hold their elements by position (a Tensor's shape is a tuple
of ints), so each of these is the Python operation it names, traced like any other Python
code in `construct`; their elements may be Tensors where the operation applies to them
(`SequenceAddN` sums Tensors). On a dynamic-length sequence (`mutable(seq, True)`, whose length
is known only when the graph runs) they are the same operations on its run-time value
(`cellgraph.compiler.dynamic_sequence`).
"""
from __future__ import annotations

import functools
import operator

from cellgraph.compiler.dynamic_sequence import RuntimeSequence, sequence_length
from cellgraph.ops.function.array_func.shape import unstack
from cellgraph.ops.primitive_class import PrimitiveClass
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of, normalize_axis
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

__all__ = ["InSequence", "ListAppend", "ListInsert", "ListToTensor", "SequenceAdd", "SequenceAddN",
           "SequenceConcat", "SequenceCount", "SequenceIndex", "SequenceMax", "SequenceMin",
           "SequenceMul", "SequenceSlice", "SequenceStack", "SequenceUnstack", "SequenceZerosLike",
           "TensorToList", "TensorToScalar", "TensorToTuple", "TupleToTensor", "list_equal",
           "list_greater_equal", "list_greater_than", "list_le", "list_lt", "make_range",
           "sequence_len", "shape_mul", "tuple_equal", "tuple_greater_equal", "tuple_greater_than",
           "tuple_le", "tuple_lt"]


class _SequenceOp(PrimitiveClass):
    def __repr__(self) -> str:
        return f"Prim[{type(self).__name__}]"


class SequenceAdd(_SequenceOp):
    """`input_1 + input_2`: the two sequences joined."""

    def __call__(self, input_1, input_2):
        return input_1 + input_2


class SequenceAddN(_SequenceOp):
    """The sum of the elements of `input_1` (numbers or Tensors). MindSpore 2.10 gives the
    first element for a tuple of constant ints (1 for `(1, 2, 3)`); this is the sum."""

    def __call__(self, input_1):
        return functools.reduce(operator.add, input_1)


class SequenceMul(_SequenceOp):
    """`input_1 * input_2`: the sequence repeated `input_2` times."""

    def __call__(self, input_1, input_2):
        return input_1 * input_2


class SequenceCount(_SequenceOp):
    """How many elements of `sequence` equal `target`."""

    def __call__(self, sequence, target):
        return sequence.count(target)


class SequenceIndex(_SequenceOp):
    """The first position of `target` in `sequence[start:end]`, counted from the start of
    `sequence`."""

    def __call__(self, sequence, target, start=None, end=None):
        return sequence.index(target, start, end)


class InSequence(_SequenceOp):
    """`target in sequence`."""

    def __call__(self, target, sequence):
        return target in sequence


class SequenceMax(_SequenceOp):
    """The largest element."""

    def __call__(self, sequence):
        return max(sequence)


class SequenceMin(_SequenceOp):
    """The smallest element."""

    def __call__(self, sequence):
        return min(sequence)


class SequenceSlice(_SequenceOp):
    """`seq[start:stop:step]`."""

    def __call__(self, seq, start, stop, step):
        return seq[start:stop:step]


class SequenceZerosLike(_SequenceOp):
    """A sequence of the same kind with each element's zero (0 for an int, 0.0 for a float)."""

    def __call__(self, sequence):
        return type(sequence)(type(x)(0) for x in sequence)


class _AxisOp(_SequenceOp):
    def __init__(self, axis=0):
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise DTypeError(f"For '{type(self).__name__}', the 'axis' must be int, but got "
                             f"{type(axis).__name__}.")
        self.axis = axis


class SequenceConcat(_AxisOp):
    """The Tensors of a sequence joined along `axis` (MindSpore files it in
    `ops.auto_generate`)."""

    def __call__(self, input_x):
        if isinstance(input_x, RuntimeSequence) and input_x.element is not None and \
                input_x.element.kind == "tensor":
            # a dynamic-length sequence: its elements stacked next to `axis`, which then takes
            # the run-time count of them times its own size
            rank = len(input_x.element.shape)
            if not -rank <= self.axis < rank:
                raise ArgumentValueError(f"For 'SequenceConcat', the axis must be in [{-rank}, "
                                         f"{rank}), but got {self.axis}")
            axis = self.axis % rank
            stacked = input_x.stacked(axis)
            shape = tuple(input_x.element.shape)
            return F.reshape(stacked, shape[:axis] + (-1,) + shape[axis + 1:])
        return F.concat(_tensors(input_x, "SequenceConcat"), self.axis)


class SequenceStack(_AxisOp):
    """The Tensors of a sequence stacked along a new axis `axis`; a dynamic-length sequence's
    run-time count of them is that axis's size."""

    def __call__(self, input_x):
        if isinstance(input_x, RuntimeSequence):
            return input_x.stacked(self.axis)
        return F.stack(_tensors(input_x, "SequenceStack"), self.axis)


class SequenceUnstack(_AxisOp):
    """A tuple of the slices of a Tensor along `axis`; `num`, when given, must be that axis's
    length."""

    def __init__(self, axis=0, num=None):
        super().__init__(axis)
        self.num = num

    def __call__(self, input_x):
        length = abstract_of(input_x).shape[normalize_axis(self.axis, abstract_of(input_x).ndim)]
        if self.num is not None and self.num != length:
            raise ArgumentValueError(f"For 'SequenceUnstack', num={self.num} but axis "
                                     f"{self.axis} has length {length}")
        return unstack(input_x, self.axis)


def _tensors(sequence, op: str) -> list:
    if isinstance(sequence, RuntimeSequence):
        raise DTypeError(f"For '{op}', a dynamic length sequence is joined along an axis only "
                         f"by SequenceStack here")
    if not isinstance(sequence, (tuple, list)):
        raise DTypeError(f"For '{op}', the input must be a tuple or list of Tensors, but got "
                         f"{type(sequence).__name__}.")
    return list(sequence)


class TupleToTensor(_SequenceOp):
    """A 1-D Tensor of `dtype` holding the tuple's numbers."""

    def __call__(self, input_tuple, dtype):
        from cellgraph.runtime.tensor import Tensor

        if isinstance(input_tuple, RuntimeSequence):
            return input_tuple.to_tensor(dtype)
        return Tensor(input_tuple, dtype)


class ListToTensor(_SequenceOp):
    """A Tensor of `dtype` holding the list's numbers."""

    def __call__(self, input_list, dtype):
        from cellgraph.runtime.tensor import Tensor

        if isinstance(input_list, RuntimeSequence):
            return input_list.to_tensor(dtype)
        return Tensor(input_list, dtype)


def _tensor_values(op: str, input_tensor, kind: type | None):
    """The Tensor's values as Python numbers: a `kind` (tuple or list) of them for a 1-d
    Tensor, one for a 0-d Tensor (kind None). Values computed in a graph are variable scalars
    (a dynamic-length sequence where the length is known only at run time)."""
    from cellgraph.compiler.builder import Tracer
    from cellgraph.compiler.dynamic_sequence import variable_scalar
    from cellgraph.ops.function.array_func.attributes import is_tensor

    if not is_tensor(input_tensor):
        raise DTypeError(f"For '{op}', the input must be a Tensor, but got "
                         f"{type(input_tensor).__name__}.")
    rank_one = kind is not None
    shape = abstract_of(input_tensor).shape
    if not rank_one and tuple(shape) == (1,):  # a one-element vector's number, as MindSpore's
        input_tensor, shape = input_tensor.reshape(()), ()
    if len(shape) != (1 if rank_one else 0):
        raise ArgumentValueError(f"For '{op}', the input must be a "
                                 f"{'1-D' if rank_one else '0-D'} Tensor, but got a Tensor of "
                                 f"shape {list(shape)}.")
    # a Tensor passed to the graph is read as `int(x)` reads it: the graph is specialised on
    # its value (a size); one computed in the graph gives values known when it runs
    known = input_tensor.builder.input_value(input_tensor) if isinstance(
        input_tensor, Tracer) else input_tensor.asnumpy()
    if known is not None:
        values = known.tolist()
        return kind(values) if rank_one else values
    if not rank_one:
        return variable_scalar(input_tensor)
    if shape[0] is None:
        return RuntimeSequence.of_tensor(kind, input_tensor)
    return kind(variable_scalar(input_tensor[i]) for i in range(shape[0]))


class TensorToTuple(_SequenceOp):
    """The values of a 1-D Tensor as a tuple of numbers."""

    def __call__(self, input_tensor):
        return _tensor_values("TensorToTuple", input_tensor, tuple)


class TensorToList(_SequenceOp):
    """The values of a 1-D Tensor as a list of numbers."""

    def __call__(self, input_tensor):
        return _tensor_values("TensorToList", input_tensor, list)


class TensorToScalar(_SequenceOp):
    """The value of a 0-D (or one-element 1-D) Tensor as a number."""

    def __call__(self, input_tensor):
        return _tensor_values("TensorToScalar", input_tensor, None)


class ListAppend(_SequenceOp):
    """A new list: `input_data` with `target` appended."""

    def __call__(self, input_data, target):
        if isinstance(input_data, RuntimeSequence):
            return input_data + [target]
        return [*input_data, target]


class ListInsert(_SequenceOp):
    """A new list: `input_data` with `target` inserted before position `index`."""

    def __call__(self, input_data, index, target):
        out = list(input_data)
        out.insert(index, target)
        return out


class sequence_len(_SequenceOp):  # MindSpore's lower-case class names
    """`len(sequence)`."""

    def __call__(self, sequence):
        return sequence_length(sequence)


class shape_mul(_SequenceOp):
    """The product of a shape's dimensions (the number of elements)."""

    def __call__(self, shape):
        return functools.reduce(operator.mul, shape, 1)


class make_range(_SequenceOp):
    """`range(start, limit, delta)`."""

    def __call__(self, start, limit, delta):
        return range(start, limit, delta)


def _comparison(name: str, compare, doc: str):
    return type(name, (_SequenceOp,), {"__call__": lambda self, x, y: compare(x, y),
                                       "__doc__": doc, "__module__": __name__})


tuple_equal = _comparison("tuple_equal", operator.eq, "`x == y` of two tuples.")
tuple_lt = _comparison("tuple_lt", operator.lt, "`x < y` of two tuples, element by element.")
tuple_le = _comparison("tuple_le", operator.le, "`x <= y` of two tuples.")
tuple_greater_than = _comparison("tuple_greater_than", operator.gt, "`x > y` of two tuples.")
tuple_greater_equal = _comparison("tuple_greater_equal", operator.ge, "`x >= y` of two tuples.")
list_equal = _comparison("list_equal", operator.eq, "`x == y` of two lists.")
list_lt = _comparison("list_lt", operator.lt, "`x < y` of two lists, element by element.")
list_le = _comparison("list_le", operator.le, "`x <= y` of two lists.")
list_greater_than = _comparison("list_greater_than", operator.gt, "`x > y` of two lists.")
list_greater_equal = _comparison("list_greater_equal", operator.ge, "`x >= y` of two lists.")
