"""Values known only when the graph runs that Python code takes for a tuple, a list or a number:
MindSpore's dynamic-length sequences and variable scalars.

A dynamic-length sequence (`mutable([1, 2, 3], True)`, a slice with a bound known only at run
time, ...) holds elements of one type: numbers of one Python type, Tensors of one shape and
dtype, or tuples of such numbers of one length. Its elements live in one graph value stacked
along a first axis whose size is known only at run time (None), so what is done to the
sequence is done to that value:

    a = mutable([1, 2, 3, 4], True)      data: i64[?]        (a list)
    a + [5]                              concat(data, [5])
    a[1:3]                               data[1:3]
    len(a), a[i]                         variable scalars (0-d graph values)
    a.append(x), a[i] = x                data replaced, as MindSpore's lists are updated

A variable scalar (`mutable(2)` in a graph, `len(a)`, `a.count(x)`) is a 0-d graph value that
`isinstance` takes for an int, float or bool (by its dtype) and not for a Tensor; arithmetic
with numbers or other variable scalars gives variable scalars, and a graph that returns one
gives the caller a Python number, as MindSpore does. The caller of a graph returning a
dynamic-length sequence gets a list or tuple of its elements.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.array_ops import Slice
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, CompileError, DTypeError
from cellgraph.primitives.special_ops import cumsum

from . import builder as _builder
from .builder import Tracer, current_builder, is_tensor_like
from .dynamic_dims import set_dims_p
from .pytree import is_plain_dict

__all__ = ["RuntimeScalar", "RuntimeSequence", "is_runtime_scalar", "is_runtime_sequence",
           "sequence_length", "variable_scalar"]

_SCALAR_TYPES = {bool: dt.bool_, int: dt.int64, float: dt.float32}


def number_kind(value) -> type:
    """The Python type a graph takes a real number as: bool, int or float (MindSpore's
    scalar dtypes Bool, Int64 and Float32, `_SCALAR_TYPES`)."""
    return bool if isinstance(value, bool) else int if isinstance(
        value, numbers.Integral) else float


def number_dtype(value) -> dt.DType:
    return _SCALAR_TYPES[number_kind(value)]


def number_array(value) -> np.ndarray:
    """A Python number as the 0-d array of its scalar dtype."""
    return np.asarray(value, number_dtype(value).np)
_TYPE_NAMES = {bool: "Bool", int: "Int64", float: "Float32"}


# ------------------------------------------------------------------ variable scalars
class RuntimeScalar(Tracer):
    """A 0-d graph value standing for a Python number known only at run time."""

    __slots__ = ()

    @property
    def python_type(self) -> type:
        dtype = self.aval.dtype
        return bool if dtype.is_bool else int if dtype.is_int else float

    @staticmethod
    def rebuild(static, items):
        """From a graph's result tree: a variable scalar while a graph is built, else the
        Python number the caller gets."""
        (py,), (value,) = static, items
        return variable_scalar(value) if isinstance(value, Tracer) else py(
            value.asnumpy().item())


def variable_scalar(value) -> RuntimeScalar:
    """`value` (a number or a 0-d graph value) as a variable scalar of MindSpore's scalar
    dtypes: int64 for ints, float32 for floats, bool for bools."""
    if isinstance(value, RuntimeScalar):
        return value
    if isinstance(value, numbers.Number) and not isinstance(value, complex):
        value = set_dims_p(number_array(value), shape=())
    elif not isinstance(value, Tracer) or value.aval.shape != ():
        raise DTypeError(f"a variable scalar is made from a number or a 0-d value, got "
                         f"{type(value).__name__}")
    origin = value
    if value.aval.dtype.is_float and value.aval.dtype != dt.float32:
        value = F.cast(value, dt.float32)
    elif value.aval.dtype.is_int and value.aval.dtype != dt.int64:
        value = F.cast(value, dt.int64)
    # a new graph value (the class of `value` is kept), weakly typed: in arithmetic with a
    # Tensor it takes the Tensor's dtype, as MindSpore's scalars do (`n * x`, n mutable)
    out = set_dims_p(value, shape=(), weak=True)
    out.__class__ = RuntimeScalar
    if isinstance(origin, Tracer):  # a value input reads through it (an inner graph's input)
        dtype = out.aval.dtype.np
        out.builder.record_derived(out, origin, lambda known: known.astype(dtype))
    return out


_builder.variable_scalar = variable_scalar  # Tracer.item()


def runtime_shape(value) -> tuple:
    """The shape of a graph value as a tuple: ints, and a variable scalar read when the graph
    runs for each size known only then (what `x.shape` and `ops.shape` give in a construct,
    as MindSpore's graphs give them)."""
    from cellgraph.primitives.dynamic_ops import shape_of

    sizes = tuple(abstract_of(value).shape)
    if None not in sizes:
        return sizes
    runtime = shape_of(value)
    return tuple(variable_scalar(runtime[i]) if d is None else d for i, d in enumerate(sizes))


def is_runtime_scalar(value) -> bool:
    return isinstance(value, RuntimeScalar)


def _scalar_operand(x) -> bool:
    return isinstance(x, RuntimeScalar) or (
        isinstance(x, numbers.Number) and not isinstance(x, complex))


def _scalar_binary(name: str):
    base = getattr(Tracer, name)

    def method(self, other):
        out = base(self, other)
        if _scalar_operand(other) and isinstance(out, Tracer) and out.aval.shape == ():
            return variable_scalar(out)
        return out

    method.__name__ = name
    return method


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__",
              "__rmod__", "__pow__", "__rpow__", "__and__", "__rand__", "__or__", "__ror__",
              "__xor__", "__rxor__", "__lshift__", "__rlshift__", "__rshift__", "__rrshift__",
              "__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__"):
    setattr(RuntimeScalar, _name, _scalar_binary(_name))
RuntimeScalar.__hash__ = Tracer.__hash__
RuntimeScalar.__neg__ = lambda self: variable_scalar(Tracer.__neg__(self))


# ------------------------------------------------------------------ dynamic-length sequences
@dataclass(frozen=True)
class Element:
    """The type every element of a dynamic-length sequence has: a number of `py`'s type, a
    Tensor of `shape` and `dtype`, or a tuple/list (`seq`) of `shape[0]` numbers of `py`'s
    type."""

    kind: str  # "scalar", "tensor", "tuple", "list"
    dtype: dt.DType
    shape: tuple = ()  # of one element's data
    py: type | None = None

    def type_name(self) -> str:
        """The element's type as MindSpore names it when elements of two types meet."""
        return self.py.__name__ if self.kind == "scalar" else (
            "Tensor" if self.kind == "tensor" else self.kind)

    def abstract(self) -> str:
        """MindSpore's text for the element's abstract, in its messages."""
        scalar = (f"AbstractScalar(Type: {_TYPE_NAMES.get(self.py, self.dtype)}, "
                  f"Value: ValueAny, Shape: NoShape)")
        if self.kind == "scalar":
            return scalar
        if self.kind == "tensor":
            return (f"AbstractTensor(shape: ({', '.join(map(str, self.shape))}), element: "
                    f"AbstractScalar(Type: {self.dtype}, Value: ValueAny, Shape: NoShape))")
        name = "AbstractTuple" if self.kind == "tuple" else "AbstractList"
        items = ", ".join(f"element[{i}]: {scalar}" for i in range(self.shape[0]))
        return f"{name}{{{items}}}"


def _element_of(value, where: str) -> tuple[Element, object]:
    """The Element of one item, and its data (an array or graph value of the element's
    shape)."""
    if isinstance(value, RuntimeScalar):
        return Element("scalar", value.aval.dtype, (), value.python_type), value
    if isinstance(value, numbers.Number) and not isinstance(value, complex):
        return Element("scalar", number_dtype(value), (), number_kind(value)), number_array(
            value)
    if is_tensor_like(value) and not isinstance(value, np.ndarray):
        aval = abstract_of(value).strong()
        return Element("tensor", aval.dtype, tuple(aval.shape)), value
    if isinstance(value, (tuple, list)) and value and all(
            isinstance(v, numbers.Number) and not isinstance(v, complex) for v in value):
        elements = [_element_of(v, where)[0] for v in value]
        if any(e != elements[0] for e in elements):
            raise _type_mismatch(elements, where)
        first = elements[0]
        return (Element(type(value).__name__, first.dtype, (len(value),), first.py),
                np.asarray(value, first.dtype.np))
    raise DTypeError(f"{where}: a dynamic length sequence holds numbers, Tensors or tuples of "
                     f"numbers, got {type(value).__name__}")


def _type_mismatch(elements, where):
    first = elements[0]
    i = next(i for i, e in enumerate(elements) if e != first)
    return ArgumentValueError(
        f"In graph mode, the element type of dynamic length array must be the same.The element "
        f"type do not match, can not convert to dynamic length sequence. The 0th element type "
        f"is: {first.type_name()}. The {i}th element type is: {elements[i].type_name()}")


def _stack(items: list, element: Element, dynamic: bool = True):
    """The data of `items` (element data) stacked along a first axis of run-time size (of
    their count when not `dynamic`)."""
    if all(isinstance(i, np.ndarray) for i in items):
        data = np.stack(items) if items else np.zeros((0, *element.shape), element.dtype.np)
    else:
        data = F.stack([i if isinstance(i, Tracer) else _as_value(i, element) for i in items])
    return set_dims_p(data, shape=(None, *element.shape)) if dynamic else data


def _as_value(item, element: Element):
    if isinstance(item, np.ndarray):
        return item
    return np.asarray(item.asnumpy() if hasattr(item, "asnumpy") else item, element.dtype.np)


class RuntimeSequence:
    """A tuple or list whose length is known only when the graph runs (see the module
    docstring). `data` is None for an empty sequence whose element type is not known yet."""

    __slots__ = ("data", "element", "items", "kind", "known")

    def __init__(self, kind: type, element: Element | None, data, known=None, items=None):
        self.kind = kind
        self.element = element
        self.data = data
        # the same elements stacked with the length known when it was made (until the
        # sequence changes): an item at an int position is read from it, so that gradients
        # flow back to the values the sequence was made of through shapes known here
        self.known = known
        # the values it was made of (until it changes): a `for` loop over it takes them one
        # by one, as MindSpore's loop over it does when the graph runs
        self.items = items

    def __setattr__(self, name, value):
        if name == "data":  # changed: no longer of the length or values it was made with
            object.__setattr__(self, "known", None)
            object.__setattr__(self, "items", None)
        object.__setattr__(self, name, value)

    @staticmethod
    def rebuild(static, items):
        """From a graph's result tree: a dynamic-length sequence while a graph is built, else
        the list or tuple the caller gets."""
        kind, element = static
        data = items[0] if items else None
        if isinstance(data, Tracer) or (data is None and current_builder() is not None):
            return RuntimeSequence(kind, element, data)
        return to_python(kind, element, data)

    @property
    def runtime_sequence(self):
        """The parts a graph's result tree keeps: the kind, the element and the data."""
        return self

    @classmethod
    def of(cls, values, where: str = "mutable") -> RuntimeSequence:
        """A dynamic-length sequence holding `values` (a tuple or list)."""
        if isinstance(values, RuntimeSequence):
            return values
        kind = tuple if isinstance(values, tuple) else list
        if not values:
            return cls(kind, None, None, items=())
        pairs = [_element_of(v, where) for v in values]
        elements = [e for e, _ in pairs]
        if any(e.kind != elements[0].kind or e.py != elements[0].py for e in elements):
            raise _type_mismatch(elements, where)
        if any(e != elements[0] for e in elements):
            raise _shape_mismatch(elements)
        known = _stack([d for _, d in pairs], elements[0], dynamic=False)
        return cls(kind, elements[0], set_dims_p(known, shape=(None, *elements[0].shape)),
                   known if isinstance(known, Tracer) else None, tuple(values))

    @classmethod
    def of_tensor(cls, kind: type, tensor) -> RuntimeSequence:
        """A dynamic-length sequence of the numbers of a 1-d graph value (MindSpore's
        `TensorToTuple`), held as MindSpore's scalar dtypes: int64, float32 or bool."""
        dtype = tensor.aval.dtype
        py = bool if dtype.is_bool else int if dtype.is_int else float
        scalar = _SCALAR_TYPES[py]
        return cls(kind, Element("scalar", scalar, (), py),
                   tensor if dtype == scalar else F.cast(tensor, scalar))

    @classmethod
    def broadened(cls, initial, grown) -> RuntimeSequence | None:
        """`initial`, a tuple or list that a loop body turns into `grown` of another length,
        as a dynamic-length sequence (MindSpore broadens it so); None unless every item of
        both is of one element type."""
        if type(initial) not in (tuple, list) or type(grown) is not type(initial) or \
                len(initial) == len(grown):
            return None
        try:
            elements = {_element_of(v, "loop")[0] for v in (*initial, *grown)}
        except (DTypeError, ArgumentValueError):
            return None
        if len(elements) != 1:
            return None
        if initial:
            return cls.of(initial, "loop")
        element = elements.pop()
        return cls(type(initial), element, _stack([], element))

    # -- what the sequence is
    def __repr__(self) -> str:
        return f"<dynamic length {self.kind.__name__} of {self.element}>"

    def __bool__(self):
        raise CompileError("the truth value of a dynamic length sequence is known only at run "
                           "time")

    def __iter__(self):
        if self.items is not None:
            return iter(self.items)
        raise RuntimeError("For 'for' loop, the dynamic length input is unsupported in graph "
                           "mode here once the sequence has changed in the graph: its number "
                           "of iterations must be known when the graph is compiled")

    def length(self) -> RuntimeScalar:
        """`len(seq)`, a variable int."""
        if self.data is None:
            return variable_scalar(0)
        column = self.data
        if column.aval.ndim > 1:
            column = A.getitem(column, index=(Slice(None, None, None),) + (0,) * (
                column.aval.ndim - 1))
        ones = F.cast(A.ones_like(column), dt.int64)
        return variable_scalar(A.reduce_sum(ones, axis=(0,), keep_dims=False))

    def _positions(self):
        """0, 1, ... n-1 as an int64 graph value of the sequence's run-time length."""
        column = self.data
        if column.aval.ndim > 1:
            column = A.getitem(column, index=(Slice(None, None, None),) + (0,) * (
                column.aval.ndim - 1))
        ones = F.cast(A.ones_like(column), dt.int64)
        return cumsum(ones, axis=0, exclusive=True, reverse=False)

    def _element_value(self, row):
        if self.element.kind == "scalar":
            return variable_scalar(row)
        if self.element.kind == "tensor":
            return row
        items = tuple(variable_scalar(A.getitem(row, index=(i,)))
                      for i in range(self.element.shape[0]))
        return items if self.element.kind == "tuple" else list(items)

    def _matching(self, other, op: str, which=("first", "second")) -> RuntimeSequence:
        other = RuntimeSequence.of(other, op) if not isinstance(other, RuntimeSequence) \
            else other
        a, b = self.element, other.element
        if a is not None and b is not None and a != b:
            raise DTypeError(f"For primitive {op}, the element of {which[0]} input abstract "
                             f"'{a.abstract()}' is not same with the element of {which[1]} "
                             f"input abstract '{b.abstract()}'.")
        return other

    def _with(self, data, element=None) -> RuntimeSequence:
        return RuntimeSequence(self.kind, element or self.element, data)

    # -- operations
    def __add__(self, other):
        if not isinstance(other, (tuple, list, RuntimeSequence)):
            return NotImplemented
        other = self._matching(other, "SequenceAdd")
        if other.data is None:
            return self._with(self.data)
        if self.data is None:
            return self._with(other.data, other.element)
        return self._with(set_dims_p(F.concat([self.data, other.data]),
                                     shape=self.data.aval.shape))

    def __radd__(self, other):
        if not isinstance(other, (tuple, list)):
            return NotImplemented
        return RuntimeSequence.of(other, "SequenceAdd")._matching(self, "SequenceAdd") \
            if not other else RuntimeSequence.of(other, "SequenceAdd").__add__(self)

    def __mul__(self, times):
        if isinstance(times, bool) or not isinstance(times, int):
            raise CompileError("a dynamic length sequence is repeated a number of times known "
                               "when the graph is compiled here (an int)")
        if self.data is None or times == 1:
            return self._with(self.data)
        if times <= 0:
            return self._with(A.getitem(self.data, index=(Slice(0, 0, None),)))
        return self._with(set_dims_p(F.concat([self.data] * times),
                                     shape=self.data.aval.shape))

    __rmul__ = __mul__

    def __getitem__(self, index):
        if isinstance(index, slice):
            bounds = (index.start, index.stop, index.step)
            if any(isinstance(b, Tracer) for b in bounds):
                return self._with(_dynamic_slice(self.data, index))
            if self.data is None:
                return self._with(None)
            return self._with(set_dims_p(A.getitem(self.data, index=(Slice(*bounds),)),
                                         shape=self.data.aval.shape))
        if self.data is None:
            raise ArgumentValueError("cannot get item by index from an empty sequence.")
        if isinstance(index, Tracer):
            position = F.cast(F.reshape(index, ()), dt.int64)
            length = self.length()
            position = F.where(position < 0, position + length, position)
            return self._element_value(A.gather(self.data, position, axis=0))
        if isinstance(index, bool) or not isinstance(index, int):
            raise DTypeError(f"list indices must be integers or slices, not "
                             f"{type(index).__name__}")
        if self.known is not None:
            return self._element_value(F.getitem(self.known, index))
        return self._element_value(A.getitem(self.data, index=(index,)))

    def __setitem__(self, index, value):
        if self.kind is not list:
            raise DTypeError("'tuple' object does not support item assignment")
        if isinstance(index, slice):
            self._set_slice(index, value)
            return
        element, item = _element_of(value, "list_setitem")
        if self.element is not None and element != self.element:
            raise DTypeError(f"For list_setitem, when the queue is dynamic length, the element "
                             f"within dynamic length sequence abstract "
                             f"'{self.element.abstract()}' is not same with the target element "
                             f"abstract '{element.abstract()}'.")
        if self.data is None:
            raise ArgumentValueError("list assignment index out of range")
        position = index
        if isinstance(index, Tracer):
            position = F.cast(F.reshape(index, ()), dt.int64)
        length = self.length()
        if isinstance(position, int):
            position = position if position >= 0 else position + length
        else:
            position = F.where(position < 0, position + length, position)
        hit = F.equal(self._positions(), position)
        if self.element.shape:
            hit = A.getitem(hit, index=(Slice(None, None, None),) + (None,) * len(
                self.element.shape))
        self.data = set_dims_p(F.where(hit, item, self.data), shape=self.data.aval.shape)

    def _set_slice(self, index, value):
        if index.step is not None and (isinstance(index.step, Tracer) or index.step != 1):
            raise CompileError("a slice of a dynamic length list is assigned with step 1 here")
        other = RuntimeSequence.of(value, "list_setitem") if not isinstance(
            value, RuntimeSequence) else value
        if self.element is not None and other.element is not None and \
                self.element != other.element:
            raise DTypeError(f"For SequenceSliceSetItem, the element within origin sequence "
                             f"abstract '{self.element.abstract()}' is not same with the "
                             f"element within target sequence abstract "
                             f"'{other.element.abstract()}'.")
        head = self[:index.start] if index.start is not None else self[:0]
        tail = self[index.stop:] if index.stop is not None else self[:0]
        out = head + other + tail
        self.data, self.element = out.data, out.element

    def append(self, value):
        """`seq.append(value)`: the list grows by one element (in place, as in MindSpore)."""
        if self.kind is not list:
            raise AttributeError("'tuple' object has no attribute 'append'")
        out = self + [value]
        self.data, self.element = out.data, out.element

    def count(self, value) -> RuntimeScalar:
        """How many elements equal `value`, a variable int."""
        if self.data is None:
            return variable_scalar(0)
        return variable_scalar(A.reduce_sum(F.cast(self._equal_rows(value), dt.int64),
                                            axis=(0,), keep_dims=False))

    def index(self, value) -> RuntimeScalar:
        """The first position of `value`, a variable int."""
        if self.data is None:
            raise ArgumentValueError(f"{value} is not in list")
        hit = self._equal_rows(value)
        big = F.cast(A.ones_like(F.cast(hit, dt.int64)), dt.int64) * (2 ** 62)
        return variable_scalar(A.reduce_min(F.where(hit, self._positions(), big), axis=(0,),
                                            keep_dims=False))

    def _equal_rows(self, value):
        """Per element, whether it equals `value` (a 1-D bool graph value)."""
        try:
            _, item = _element_of(value, "SequenceCount")
        except DTypeError:
            return F.cast(A.zeros_like(self._positions()), dt.bool_)
        same = F.equal(self.data, item if not isinstance(item, np.ndarray) else
                       np.asarray(item, self.data.aval.dtype.np))
        axes = tuple(range(1, same.aval.ndim))
        if axes:
            same = A.reduce_min(F.cast(same, dt.int32), axis=axes, keep_dims=False) > 0
        return same

    def stacked(self, axis: int = 0):
        """The Tensor elements stacked along a new axis `axis` (SequenceStack)."""
        if self.data is None or self.element.kind != "tensor":
            raise DTypeError("For 'SequenceStack', the input must be a sequence of Tensors")
        ndim = self.data.aval.ndim
        axis = axis + ndim if axis < 0 else axis
        if not 0 <= axis < ndim:
            raise ArgumentValueError(f"For 'SequenceStack', the axis must be in [{-ndim}, "
                                     f"{ndim}), but got {axis}")
        perm = tuple(range(1, axis + 1)) + (0,) + tuple(range(axis + 1, ndim))
        return A.transpose(self.data, perm=perm) if axis else self.data

    def to_tensor(self, dtype):
        """The elements as one Tensor of `dtype` (ListToTensor, TupleToTensor)."""
        if self.data is None:
            raise ArgumentValueError("cannot convert an empty sequence to a Tensor")
        return F.cast(self.data, dtype)


class DynamicLengthList(list):
    """A list `mutable(seq, True)` made outside a graph: a graph it is passed to takes it as a
    dynamic-length list (its elements of one type and shape; each length compiles its own
    specialisation). `origin` holds the elements as they were given (Python numbers stay
    numbers there: in the graph they are variable scalars)."""

    origin: tuple = ()


class DynamicLengthTuple(tuple):
    """The tuple counterpart of DynamicLengthList."""

    origin: tuple = ()


def dynamic_length_argument(values, origin):
    """`values` (the elements as graph inputs take them) marked as a dynamic-length sequence
    of the kind of `origin`."""
    out = (DynamicLengthTuple if isinstance(origin, tuple) else DynamicLengthList)(values)
    out.origin = tuple(origin)
    return out


def take_dynamic_arguments(given, traced):
    """The traced arguments of a graph with the dynamic-length sequences among `given` (the
    caller's values, DynamicLengthList/Tuple) made RuntimeSequences, as MindSpore's graphs
    take them: elements given as numbers become variable scalars; a sequence whose Tensors
    differ in shape stays a sequence of its elements (MindSpore's also takes those). Mutable
    numbers (ScalarArguments) become variable scalars too."""
    if isinstance(given, (DynamicLengthList, DynamicLengthTuple)):
        kind = tuple if isinstance(given, tuple) else list
        items = [variable_scalar(v) if isinstance(o, numbers.Number) and not isinstance(
            o, complex) else v for o, v in zip(given.origin, traced)]
        if not one_shape(items):
            return kind(items)
        return RuntimeSequence.of(kind(items))
    if getattr(type(given), "_scalar_argument", False):  # a mutable number: a variable scalar
        scalar = variable_scalar(traced)  # whose value an operation that needs it (an axis)
        scalar.builder.record_derived(scalar, traced, lambda value: value)  # reads as int(x)
        return scalar
    if isinstance(given, (tuple, list)) and isinstance(traced, (tuple, list)):
        return type(traced)(take_dynamic_arguments(g, t) for g, t in zip(given, traced))
    if is_plain_dict(given) and is_plain_dict(traced):
        return {k: take_dynamic_arguments(given[k], traced[k]) for k in traced}
    return traced


def has_dynamic_arguments(args) -> bool:
    """Whether the arguments hold a dynamic-length sequence or a mutable number."""
    if isinstance(args, (DynamicLengthList, DynamicLengthTuple)) or getattr(
            type(args), "_scalar_argument", False):
        return True
    if isinstance(args, (tuple, list)):
        return any(has_dynamic_arguments(a) for a in args)
    if is_plain_dict(args):
        return any(has_dynamic_arguments(a) for a in args.values())
    return False


def representable(values) -> bool:
    """Whether the elements are of the kinds a dynamic-length sequence holds here (numbers,
    Tensors, tuples or lists of numbers)."""
    try:
        for v in values:
            _element_of(v, "mutable")
    except (DTypeError, ArgumentValueError):
        return False
    return True


def one_shape(values) -> bool:
    """Whether the Tensors (or tuples) of `values` share one shape (length), so that they stack
    into a dynamic-length sequence here; MindSpore also takes Tensors of different shapes."""
    shapes = {tuple(abstract_of(v).shape) if is_tensor_like(v) else
              (len(v) if isinstance(v, (tuple, list)) else None) for v in values}
    return len(shapes) <= 1


def _shape_mismatch(elements):
    first = elements[0]
    i = next(i for i, e in enumerate(elements) if e != first)
    return DTypeError(
        f"In graph mode, the element shape of dynamic length array must be the same.The element "
        f"do not match, can not convert to dynamic length sequence. The 0th element is: "
        f"{first.abstract()}. The {i}th element shape is: {elements[i].abstract()}")


def _dynamic_slice(data, index: slice):
    """data[start:stop:step] with bounds known only at run time (Python's slice rules)."""
    if data is None:
        return None
    n_seq = RuntimeSequence(list, Element("tensor", data.aval.dtype, data.aval.shape[1:]), data)
    pos = n_seq._positions()
    n = n_seq.length()

    def bound(b, default):
        if b is None:
            return default
        b = F.cast(F.reshape(b, ()), dt.int64) if isinstance(b, Tracer) else b
        b = F.where(b < 0, b + n, b) if isinstance(b, Tracer) else (b if b >= 0 else b + n)
        return b

    step = index.step if index.step is not None else 1
    if isinstance(step, Tracer):
        step = F.cast(F.reshape(step, ()), dt.int64)
    elif step < 0:
        raise CompileError("a negative step with run-time bounds is not supported here")
    start, stop = bound(index.start, 0), bound(index.stop, n)
    keep = F.logical_and(pos >= start, pos < stop)
    keep = F.logical_and(keep, F.equal((pos - start) % step, 0))
    if data.aval.ndim == 1:
        return F.masked_select(data, keep)
    rows = F.masked_select(n_seq._positions(), keep)
    return set_dims_p(A.gather(data, rows, axis=0), shape=data.aval.shape)


def is_runtime_sequence(value) -> bool:
    return isinstance(value, RuntimeSequence)


def sequence_length(value):
    """`len(value)`: a variable int for a dynamic-length sequence."""
    if isinstance(value, RuntimeSequence):
        return value.length()
    return len(value)


def to_python(kind: type, element: Element | None, data):
    """What a graph that returns a dynamic-length sequence gives its caller: a tuple or list
    of Python numbers, Tensors or tuples (`data` is the run-time array's Tensor)."""
    if data is None or element is None:
        return kind()
    array = data.asnumpy()
    if element.kind == "scalar":
        items = [element.py(v) for v in array.tolist()]
    elif element.kind == "tensor":
        items = [type(data)(row) for row in array]
    else:
        seq = tuple if element.kind == "tuple" else list
        items = [seq(element.py(v) for v in row) for row in array.tolist()]
    return kind(items)


# ------------------------------------------------------------------ builtins in a graph
NOT_HANDLED = object()


def builtin_call(fn, args, kwargs):
    """A builtin called with a dynamic-length sequence or variable scalar, as MindSpore's graph
    mode does it; NOT_HANDLED when none of them is involved."""
    import builtins

    if fn is builtins.len and len(args) == 1 and isinstance(args[0], RuntimeSequence):
        return args[0].length()
    if fn is builtins.isinstance and len(args) == 2 and isinstance(
            args[0], (RuntimeSequence, RuntimeScalar)):
        classes = args[1] if isinstance(args[1], tuple) else (args[1],)
        kind = args[0].kind if isinstance(args[0], RuntimeSequence) else args[0].python_type
        return any(isinstance(c, type) and issubclass(kind, c) for c in classes)
    if fn in (builtins.map, builtins.zip, builtins.enumerate, builtins.filter) and any(
            isinstance(a, RuntimeSequence) for a in args):
        raise RuntimeError(f"For '{fn.__name__}', the dynamic length input is unsupported in "
                           f"graph mode")
    if fn is builtins.range and any(is_tensor_like(a) for a in args):
        return _range(*args)
    if fn in (builtins.list, builtins.tuple) and len(args) == 1 and isinstance(
            args[0], RuntimeSequence):
        return RuntimeSequence(fn, args[0].element, args[0].data)
    return NOT_HANDLED


def _range(*args):
    from cellgraph.primitives.dynamic_ops import sequence_range

    check_range_arguments(args)
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (
        (*args, 1) if len(args) == 2 else args)
    bounds = [variable_scalar(b) for b in (start, stop, step)]
    return RuntimeSequence(tuple, Element("scalar", dt.int64, (), int),
                           sequence_range(*bounds))


def check_range_arguments(args) -> None:
    """MindSpore's graph-mode `range` (its make_range): one to three int scalars (variable
    ones too); a Tensor or a float is refused, and so are a zero step and a range whose
    traversal leaves int64."""
    if not 1 <= len(args) <= 3:
        raise RuntimeError(f"For 'make_range', the input size should within [1, 3] but "
                           f"got{len(args)}")
    for i, a in enumerate(args):
        if isinstance(a, RuntimeScalar):
            ok = a.python_type is int
        else:
            ok = not is_tensor_like(a) and isinstance(a, int) and not isinstance(a, bool)
        if not ok:
            if is_tensor_like(a):
                shown = f"AbstractTensor(shape: ({', '.join(map(str, abstract_of(a).shape))}))"
            elif isinstance(a, (bool, int, float)):
                value = f"{a:g}" if isinstance(a, float) else a  # MindSpore writes 3.0 as 3
                shown = (f"AbstractScalar(Type: {_TYPE_NAMES[type(a)]}, Value: {value}, "
                         f"Shape: NoShape)")
            else:
                shown = f"{type(a).__name__} {a!r}"
            raise DTypeError(f"For 'make_range', the {i}th input should be a int scalar but got "
                             f"{shown}")
    if any(isinstance(a, Tracer) for a in args):
        return
    start, stop, step = (0, args[0], 1) if len(args) == 1 else (
        (*args, 1) if len(args) == 2 else args)
    if step == 0:
        raise RuntimeError("For 'range', the argument 'step' could not be 0.")
    values = range(start, stop, step)
    low, high = -2 ** 63, 2 ** 63 - 1
    if values and not (low <= start <= high and low <= values[-1] + step <= high):
        raise ArgumentValueError("Integer overflow error occurred when traversing the range. "
                                 "Please check the inputs of range.")


def slice_sequence(container, index: slice):
    """`seq[start:stop:step]` of a tuple or list with a bound known only at run time: a
    dynamic-length sequence."""
    return RuntimeSequence.of(container, "SequenceSlice")[index]


def has_runtime_bound(index) -> bool:
    return isinstance(index, slice) and any(
        isinstance(b, Tracer) for b in (index.start, index.stop, index.step))


def set_item_at(container: list, index, value) -> None:
    """`lst[i] = value` with `i` known only at run time: every element becomes the value chosen
    when the graph runs (MindSpore's elements are then no longer constants)."""
    element, _ = _element_of(value, "list_setitem")
    kinds = [_element_of(v, "list_setitem")[0] for v in container]
    for i, k in enumerate(kinds):
        if (k.kind, k.py) != (kinds[0].kind, kinds[0].py):
            raise DTypeError(f"For list_setitem, the sequence[{i}] item abstract "
                             f"'{k.abstract()}' is not same with the sequence[0] item abstract "
                             f"'{kinds[0].abstract()}'.")
    if kinds and (element.kind, element.py) != (kinds[0].kind, kinds[0].py):
        raise DTypeError(f"For list_setitem, the element within constant length sequence "
                         f"abstract '{kinds[0].abstract()}' is not same with the target "
                         f"element abstract '{element.abstract()}'.")
    position = F.cast(F.reshape(index, ()), dt.int64)
    n = len(container)
    position = F.where(position < 0, position + n, position)
    for i, old in enumerate(container):
        chosen = F.where(F.equal(position, i), value, old)
        container[i] = variable_scalar(chosen) if element.kind == "scalar" else chosen


def isconstant(value) -> bool:
    """`F.isconstant(x)`: whether `x` is known when the graph is compiled (no part of it is
    computed when the graph runs)."""
    if isinstance(value, (Tracer, RuntimeSequence)):
        return False
    if isinstance(value, (tuple, list)):
        return all(isconstant(v) for v in value)
    if isinstance(value, dict):
        return all(isconstant(v) for v in value.values())
    return True


def _builtin_names():
    import builtins

    return (builtins.len, builtins.isinstance, builtins.map, builtins.zip, builtins.enumerate,
            builtins.filter, builtins.range, builtins.list, builtins.tuple)


BUILTINS = _builtin_names()


def is_hooked(fn) -> bool:
    """Whether `fn` is a builtin `builtin_call` may take over."""
    return any(fn is b for b in BUILTINS)
