"""The sequence and dict operations of MindSpore's `ops.functional` (`F.tuple_getitem`,
`F.make_dict`, `F.reduced_shape`, ...): in MindSpore they are graph primitives; here they work
on the Python tuples, lists and dicts a graph is built from, while it is built, and on the same
values outside a graph."""
from __future__ import annotations

from cellgraph.compiler.builder import Tracer
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, IndexValueError

__all__ = ["broadcast_gradient_args", "dict_getitem", "dict_setitem", "in_dict", "list_equal", "list_getitem", "list_len",
           "list_setitem", "make_dict", "make_list", "make_slice", "not_in_dict",
           "reduced_shape", "shape_mul", "tuple_equal", "tuple_getitem", "tuple_reversed",
           "tuple_setitem"]

_TYPE_NAMES = ((bool, "Bool"), (int, "Int64"), (float, "Float32"), (str, "String"),
               (tuple, "Tuple"), (list, "List"), (dict, "Dictionary"))


def _type_name(value) -> str:
    """MindSpore's name for the kind of a graph value, as its type errors say it."""
    if isinstance(value, Tracer) or hasattr(value, "dtype") and hasattr(value, "shape"):
        return "Tensor"
    return next((name for kind, name in _TYPE_NAMES if isinstance(value, kind)),
                type(value).__name__)


def _expect(op: str, value, kinds, expected: str):
    if not isinstance(value, kinds):
        raise DTypeError(f"For '{op}', input[0] should be {expected}, but got "
                         f"{_type_name(value)}.")


def _index(op: str, seq, index) -> int:
    if isinstance(index, bool) or not isinstance(index, int):
        raise IndexValueError(f"{op} evaluator index should be an int64 number, but got "
                         f"{_type_name(index)} {index!r}")
    return index


def _getitem(op: str, seq, index):
    _expect(op, seq, (tuple, list), "Tuple or List")
    index = _index(op, seq, index)
    if not -len(seq) <= index < len(seq):
        raise IndexValueError(f"{op} evaluator index should be in range[{-len(seq)}, {len(seq)}), "
                         f"but got {index}.")
    return seq[index]


def _setitem(op: str, seq, index, value):
    _expect(op, seq, (tuple, list), "Tuple or List")
    index = _index(op, seq, index)
    if not -len(seq) <= index < len(seq):
        raise IndexValueError(f"{op} evaluator the index: {index} to set out of range: "
                         f"[{-len(seq)},{len(seq) - 1}].")
    items = list(seq)
    items[index] = value
    return type(seq)(items)


def tuple_getitem(data, index):
    """`data[index]` of a tuple (or list): an int index inside the sequence."""
    return _getitem("TupleGetItem", data, index)


def list_getitem(data, index):
    """`data[index]` of a list (or tuple): an int index inside the sequence."""
    return _getitem("list_getitem", data, index)


def tuple_setitem(data, index, value):
    """A new tuple: `data` with its item `index` replaced by `value`."""
    return _setitem("tuple_setitem", data, index, value)


def list_setitem(data, index, value):
    """A new list: `data` with its item `index` replaced by `value`."""
    return _setitem("list_setitem", data, index, value)


def _same(x, y) -> bool:
    """Whether two graph values are equal as MindSpore compares them in a sequence: numbers
    of one kind by value (1 and 1.0 differ), Tensors by shape, dtype and, when both are known,
    values; sequences item by item."""
    if isinstance(x, (tuple, list)) and isinstance(y, (tuple, list)):
        return len(x) == len(y) and all(map(_same, x, y))
    if _type_name(x) == "Tensor" or _type_name(y) == "Tensor":
        if _type_name(x) != _type_name(y) or tuple(x.shape) != tuple(y.shape) \
                or x.dtype != y.dtype:
            return False
        if x is y or isinstance(x, Tracer) or isinstance(y, Tracer):
            return True  # values known only when the graph runs: alike as far as types go
        return bool((x.asnumpy() == y.asnumpy()).all())
    return _type_name(x) == _type_name(y) and x == y


def _sequence_equal(op: str, x, y) -> bool:
    for value in (x, y):
        if not isinstance(value, (tuple, list)):
            raise DTypeError(f"For primitive '{op}', the input must be a list or tuple, but "
                             f"got: {_type_name(value)}")
    return _same(x, y)


def tuple_equal(x, y) -> bool:
    """Whether two tuples (or lists) hold equal items."""
    return _sequence_equal("tuple_equal", x, y)


def list_equal(x, y) -> bool:
    """Whether two lists (or tuples) hold equal items."""
    return _sequence_equal("list_equal", x, y)


def list_len(data) -> int:
    """The length of a list or tuple."""
    _expect("sequence_len", data, (tuple, list), "Tuple or List")
    return len(data)


def tuple_reversed(data) -> tuple:
    """The items of a tuple in reverse order."""
    _expect("tuple_reversed", data, tuple, "Tuple")
    return data[::-1]


def make_list(*elements) -> list:
    """A list of the arguments."""
    return list(elements)


def make_dict(keys, values) -> dict:
    """The dict of `keys` (a tuple or list of keys) to `values` (as many values)."""
    for value in (keys, values):
        _expect("make_dict", value, (tuple, list), "Tuple or List")
    if len(keys) != len(values):
        raise RuntimeError("make_dict evaluator keys' size is not equal with values' size")
    return dict(zip(keys, values))


def dict_getitem(data, key):
    """`data[key]`; a key the dict lacks is MindSpore's ValueError."""
    _expect("dict_getitem", data, dict, "Dictionary")
    if key not in data:
        raise ArgumentValueError(f"The key {key} does not exist in the dict:{data}")
    return data[key]


def dict_setitem(data, key, value) -> dict:
    """A new dict: `data` with `key` set to `value`."""
    _expect("dict_setitem", data, dict, "Dictionary")
    return {**data, key: value}


def in_dict(key, data) -> bool:
    """Whether `key` is a key of the dict `data`."""
    if not isinstance(data, dict):
        raise DTypeError(f"For 'in_dict', input[1] should be Dictionary, but got "
                         f"{_type_name(data)}.")
    return key in data


def not_in_dict(key, data) -> bool:
    """Whether `key` is not a key of the dict `data`."""
    if not isinstance(data, dict):
        raise DTypeError(f"For 'not_in_dict', input[1] should be Dictionary, but got "
                         f"{_type_name(data)}.")
    return key not in data


def make_slice(*args) -> slice:
    """`slice(start, stop, step)`: MindSpore's make_slice takes all three."""
    if len(args) != 3:
        raise RuntimeError(f"For 'make_slice', the number of input should be 3, but got "
                           f"{len(args)}")
    return slice(*args)


def shape_mul(input_data) -> int:
    """The product of a tuple of ints (a shape's element count; 1 for ())."""
    _expect("shape_mul", input_data, tuple, "Tuple")
    product = 1
    for size in input_data:
        if isinstance(size, bool) or not isinstance(size, int):
            raise RuntimeError(  # noqa: TRY004 (MindSpore's type)
                f"Cast failed, original value: {size}, type: {_type_name(size)}")
        product *= size
    return product


def reduced_shape(shape, axis) -> tuple:
    """`shape` with the sizes along `axis` (an int or a tuple of ints; () for every axis) set
    to 1: the shape of a reduction with keep_dims."""
    _expect("reduced_shape", shape, tuple, "Tuple")
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    rank = len(shape)
    for a in axes:
        if isinstance(a, bool) or not isinstance(a, int) or not -rank <= a < rank:
            raise RuntimeError(f"For primitive[reduced_shape], input_x's rank is {rank}, while "
                               f"the 'axis' value should be in the range [{-rank}, {rank}), "
                               f"but got {a}")
    reduced = {a % rank for a in axes} if axes else set(range(rank))
    return tuple(1 if i in reduced else size for i, size in enumerate(shape))


def broadcast_gradient_args(x_shape, y_shape) -> tuple:
    """(the axes x's gradient sums over, those of y's) when x and y of these shapes were
    broadcast together: the axes of the result where one has size 1 and the other not, or
    both have size 1; ((), ()) for equal shapes."""
    for value in (x_shape, y_shape):
        _expect("BroadcastGradientArgs", value, tuple, "Tuple")
    if tuple(x_shape) == tuple(y_shape):
        return (), ()
    rank = max(len(x_shape), len(y_shape))
    x_full = (1,) * (rank - len(x_shape)) + tuple(x_shape)
    y_full = (1,) * (rank - len(y_shape)) + tuple(y_shape)
    x_axes, y_axes = [], []
    for axis, (x_size, y_size) in enumerate(zip(x_full, y_full)):
        if x_size == y_size:
            if x_size == 1:
                x_axes.append(axis)
                y_axes.append(axis)
        elif x_size == 1:
            x_axes.append(axis)
        elif y_size == 1:
            y_axes.append(axis)
        else:
            raise RuntimeError("Not compatible shape input for BroadcastGradientArgs.")
    return tuple(x_axes), tuple(y_axes)
