"""MindSpore's `ops.function.other_func`, here the compile-time operations of `ops.functional`:
`make_range`, `tuple_len` and the scalar operations (`F.scalar_add`), done on Python values
while the graph is built."""
from __future__ import annotations

import math
import operator

from cellgraph.compiler import dynamic_sequence
from cellgraph.compiler.builder import Tracer
from cellgraph.compiler.dynamic_sequence import RuntimeSequence
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

__all__ = ["make_range", "mixed_precision_cast", "stop_gradient", "switch_layer", "tuple_div",
           "tuple_len", "typeof"]


def stop_gradient(value):
    """`value` with no gradient flowing back through it: a Tensor through the primitive; a
    Python number (or a tuple or list of values, element by element) as it is, as MindSpore's
    ops.stop_gradient returns them."""
    from cellgraph.primitives import array_ops

    if isinstance(value, (bool, int, float, complex)) or value is None:
        return value
    if isinstance(value, (tuple, list)):
        return type(value)(stop_gradient(v) for v in value)
    return array_ops.stop_gradient(value)


def make_range(start=0, stop=None, step=1) -> tuple:
    """A tuple of ints like Python's range (`F.make_range(5)` is (0, 1, 2, 3, 4)), made when
    the graph is built."""
    if stop is None:
        start, stop = 0, start
    for name, value in (("start", start), ("stop", stop), ("step", step)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise DTypeError(f"make_range: `{name}` must be an int, got "
                             f"{type(value).__name__} {value!r}")
    if step == 0:
        raise ValueError("make_range: `step` must not be 0")
    return tuple(range(start, stop, step))


def mixed_precision_cast(dst_dtype, x):
    """MindSpore's `F.mixed_precision_cast`: each float Tensor of `x` (a Tensor, or
    tuples and lists of them, nested; a list comes back as a tuple) cast to `dst_dtype`. Other
    values, integer Tensors and a dict's values are left as they are, as MindSpore's."""
    from cellgraph.compiler.builder import is_tensor_like
    from cellgraph.primitives import functional as F

    if is_tensor_like(x):
        return F.cast(x, dst_dtype) if x.dtype.is_float else x
    if isinstance(x, (tuple, list)):
        return tuple(mixed_precision_cast(dst_dtype, item) for item in x)
    return x


def switch_layer(index, layers):
    """MindSpore's `F.switch_layer(index, layers)`: the item of the tuple `layers` (Cells or
    functions) that the int32 scalar Tensor `index` picks, to be called. In a graph the pick
    happens at run time (only the chosen item runs; an index past the end takes the last);
    run eagerly, `index` is read and the item returned."""
    from cellgraph.compiler.builder import Tracer
    from cellgraph.compiler.choice import index_sequence

    if not isinstance(layers, (tuple, list)) or not layers:
        raise TypeError(f"For 'switch_layer', 'layers' must be a non-empty tuple of Cells or "
                        f"functions, got {type(layers).__name__}")
    if isinstance(index, Tracer):
        return index_sequence(layers, index)
    return layers[int(index)]


def tuple_len(data) -> int:
    return len(data)


def is_sequence_value_unknown(x) -> bool:
    """`F.is_sequence_value_unknown(seq)` (MindSpore's IsShapeUnKnown): whether an element of
    the tuple or list is known only when the graph runs (a dynamic-length sequence's are)."""
    if isinstance(x, RuntimeSequence):
        return True
    return isinstance(x, (tuple, list)) and any(isinstance(e, Tracer) for e in x)


def is_sequence_shape_unknown(x) -> bool:
    """`F.is_sequence_shape_unknown(seq)` (MindSpore's IsDimUnKnown): whether the length of the
    tuple or list is known only when the graph runs (a dynamic-length sequence)."""
    return isinstance(x, RuntimeSequence)


def is_dynamic_sequence_element_unknown(x) -> bool:
    """`F.is_dynamic_sequence_element_unknown(seq)`: whether a dynamic-length sequence's
    element type is not known yet (an empty `mutable([], True)`)."""
    if not isinstance(x, RuntimeSequence):
        raise DTypeError(f"For 'is_dynamic_sequence_element_unknown', the input should be "
                         f"variable length sequence, but got {type(x).__name__}.")
    return x.element is None


def isconstant(x) -> bool:
    """`F.isconstant(x)`: whether `x` is known when the graph is compiled: a Python value or a
    constant Tensor, not a value computed when the graph runs (a Tensor input, a variable
    scalar, a dynamic-length sequence, or a sequence holding one)."""
    return dynamic_sequence.isconstant(x)


def _scalar_op(name: str, op, arity: int):
    """`F.<name>` under MindSpore's parameters: `(x, y)`, or `(x)` for a unary operation."""
    if arity == 1:
        def scalar(x):
            return op(x)
    else:
        def scalar(x, y):
            return op(x, y)
    scalar.__name__ = scalar.__qualname__ = name
    scalar.__doc__ = f"`F.{name}`: Python's {op.__name__} on scalars, done when the graph is built."
    return scalar


def _scalar_uadd(x):
    """`F.scalar_uadd(x)`: `+x` of a scalar, a number or one known only at run time."""
    return x if isinstance(x, Tracer) else operator.pos(x)


def _scalar_log(x):
    """`F.scalar_log(x)`: the natural logarithm of a scalar, a float (MindSpore's ScalarLog),
    of a number when the graph is built, of a variable scalar when it runs."""
    if isinstance(x, Tracer):
        from cellgraph.primitives import dtype as dt
        from cellgraph.primitives import functional as F

        return dynamic_sequence.variable_scalar(F.log(F.cast(x, dt.float32)))
    if x <= 0:
        raise ArgumentValueError("math domain error")
    return math.log(x)


def _scalar_extreme(name: str, pick, select):
    def extreme(x, y):
        if isinstance(x, Tracer) or isinstance(y, Tracer):
            from cellgraph.primitives import functional as F

            return dynamic_sequence.variable_scalar(select(F, x, y))
        return pick(x, y)

    extreme.__name__ = extreme.__qualname__ = name
    extreme.__doc__ = f"`F.{name}(x, y)`: the {pick.__name__} of two scalars."
    return extreme


def typeof(*args):
    """`F.typeof(x)`: the type of a graph value: `TensorType(dtype)` for a Tensor, the dtype of
    a Python number (int64, float32, bool, as a graph holds them), `tuple_`, `list_`, `string`
    or `type_none` for the others."""
    from cellgraph.compiler.builder import is_tensor_like
    from cellgraph.primitives import dtype as dt

    if len(args) != 1:
        raise RuntimeError(f"The Typeof operator must requires 1 argument, but the size of "
                           f"arguments is {len(args)}.")
    (x,) = args
    if is_tensor_like(x):
        return dt.TensorType(x.dtype)
    if isinstance(x, Tracer):  # a variable scalar
        return x.aval.dtype
    for kind, found in ((bool, dt.bool_), (int, dt.int64), (float, dt.float32),
                        (tuple, dt.tuple_), (list, dt.list_), (str, dt.string)):
        if isinstance(x, kind):
            return found
    if x is None:
        return dt.type_none
    raise DTypeError(f"For 'typeof', the input should be a Tensor, a number, a tuple, a list, "
                     f"a string or None, but got {type(x).__name__}.")


def tuple_div(x, y) -> tuple:
    """`F.tuple_div(x, y)`: the element-wise quotient of two tuples of ints of one length, each
    dividing exactly (a shape by a split count), computed when the graph is built; anything else
    is refused with MindSpore's RuntimeError."""
    if len(x) != len(y):
        raise RuntimeError(f"The size of inputs of 'tuple_div' operator must be the same, but "
                           f"the size of divisor tuple is {len(y)}, the size of dividend tuple "
                           f"is {len(x)}.")
    out = []
    for dividend, divisor in zip(x, y):
        for value in (dividend, divisor):
            if isinstance(value, bool) or not isinstance(value, int):
                text = f"{value:g}" if isinstance(value, float) else repr(value)
                raise RuntimeError(  # noqa: TRY004 (MindSpore's type)
                    f"The data type of inputs of 'tuple_div' operator should be an int64 "
                    f"number, but got a {_scalar_type_name(value)} number {text}.")
        if divisor == 0:
            raise RuntimeError("The divisor value should not be 0!")
        if dividend % divisor != 0:
            raise RuntimeError(f"The inputs of 'tuple_div' operator should be divisible, but "
                               f"they are not divisible now, the dividend is {dividend}, the "
                               f"divisor is {divisor}.")
        out.append(dividend // divisor)
    return tuple(out)


def _scalar_type_name(value) -> str:
    """MindSpore's name for the type of a Python scalar in a graph."""
    if isinstance(value, bool):
        return "Bool"
    return "Int64" if isinstance(value, int) else "Float32" if isinstance(
        value, float) else type(value).__name__


def _nonzero_divisor(op):
    """`op` on two scalars, with MindSpore's ValueError for a zero divisor."""
    def divide(x, y):
        if not isinstance(y, Tracer) and y == 0:
            raise ArgumentValueError("The divisor could not be zero. But the divisor is zero "
                                     "now.")
        return op(x, y)

    divide.__name__ = op.__name__
    return divide


def mod(x, y):
    """Python's `x % y`, with MindSpore's ValueError for a zero divisor."""
    if not isinstance(y, Tracer) and y == 0:
        raise ArgumentValueError("Cannot perform modulo operation on zero.")
    return operator.mod(x, y)


def _bool_op(name: str, op):
    """`F.<name>(x, y)` of two Python bools, MindSpore's RuntimeError for anything else."""
    word = {"bool_and": "BoolAnd", "bool_or": "BoolOr", "bool_eq": "BoolEq"}[name]

    def boolean(x, y):
        if not (isinstance(x, bool) and isinstance(y, bool)):
            raise RuntimeError(  # noqa: TRY004 (MindSpore's type)
                f"The inputs of {word} operator should be two booleans, but got param0: "
                f"{_bool_text(x)}, param1: {_bool_text(y)}.")
        return op(x, y)

    boolean.__name__ = boolean.__qualname__ = name
    boolean.__doc__ = f"`F.{name}(x, y)`: Python's {op.__name__} of two bools."
    return boolean


def _bool_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def bool_not(x) -> bool:
    """`F.bool_not(x)`: `not x` of a Python bool."""
    if not isinstance(x, bool):
        raise RuntimeError(  # noqa: TRY004 (MindSpore's type)
            f"Cast failed, original value: {x}, type: {_scalar_type_name(x)}Imm")
    return not x


# F.scalar_add(2, 3) and friends: arithmetic on Python numbers, done when the graph is built.
# MindSpore names their parameters (x, y); scalar_ne and the bool operations take *args there.
SCALAR_OPS = {
    **{name: _scalar_op(name, op, 2) for name, op in (
        ("scalar_add", operator.add), ("scalar_sub", operator.sub),
        ("scalar_mul", operator.mul), ("scalar_div", _nonzero_divisor(operator.truediv)),
        ("scalar_floordiv", _nonzero_divisor(operator.floordiv)),
        ("scalar_mod", mod),
        ("scalar_pow", operator.pow), ("scalar_lt", operator.lt), ("scalar_gt", operator.gt),
        ("scalar_le", operator.le), ("scalar_ge", operator.ge), ("scalar_eq", operator.eq))},
    "scalar_usub": _scalar_op("scalar_usub", operator.neg, 1),
    "scalar_uadd": _scalar_uadd, "scalar_log": _scalar_log,
    "scalar_max": _scalar_extreme("scalar_max", max, lambda F, x, y: F.maximum(x, y)),
    "scalar_min": _scalar_extreme("scalar_min", min, lambda F, x, y: F.minimum(x, y)),
    "scalar_ne": operator.ne, "bool_not": bool_not,
    **{name: _bool_op(name, op) for name, op in (
        ("bool_and", operator.and_), ("bool_or", operator.or_), ("bool_eq", operator.eq))}}


_CASTS = {"Int64": int, "Float64": float, "Bool": bool}


def scalar_cast(input_x, input_y):
    """A Python scalar as `input_y` (int64, float64 or bool), as Python's int(), float() and
    bool() convert it; done when the graph is built."""
    target = dt.as_dtype(input_y)
    convert = _CASTS.get(str(target))
    if convert is None:
        raise ArgumentValueError(f"For 'ScalarCast', the supported type is in the list: "
                                 f"[mindspore.int64, mindspore.float64, mindspore.bool], but got "
                                 f"{target}")
    return convert(input_x)


SCALAR_OPS["scalar_cast"] = scalar_cast


def _string_operands(x, y):
    for value in (x, y):
        if not isinstance(value, str):
            raise RuntimeError(  # noqa: TRY004 (MindSpore's type)
                f"The expected is String, not {_scalar_type_name(value)}")


def string_eq(x, y) -> bool:
    """`F.string_eq(x, y)`: whether two strings are equal."""
    _string_operands(x, y)
    return x == y


def string_concat(x, y) -> str:
    """`F.string_concat(x, y)`: two strings joined."""
    _string_operands(x, y)
    return x + y


def _is_operand(y):
    if y is not None and not isinstance(y, (bool, int, str, dt.DType, dt.TensorType,
                                            dt._ObjectType, type)):
        raise RuntimeError(f"For syntax like 'a is b', b supports Int, Bool, String, None and "
                           f"Type, but got {y}")


def is_(x, y) -> bool:
    """`F.is_(x, y)` (`x is y` in a graph): None, a bool, an int, a string or a type `y`; an
    int or a string is the same one when it is equal and of one kind."""
    _is_operand(y)
    return x is y or (type(x) is type(y) and isinstance(x, (int, str, dt.DType, dt.TensorType,
                                                            dt._ObjectType)) and x == y)


def is_not(x, y) -> bool:
    """`F.is_not(x, y)` (`x is not y` in a graph)."""
    return not is_(x, y)


def hastype(x, type_) -> bool:
    """`F.hastype(x, t)`: whether the graph type of `x` (`F.typeof(x)`) is the type `t` or
    falls under it: `tensor_type` takes every Tensor, `number` every scalar, and a Tensor's
    element type is not the Tensor's type."""
    if not isinstance(type_, (dt.DType, dt.TensorType, dt._ObjectType)):
        raise DTypeError(f"For 'hastype', input[1] should be Type, but got "
                         f"{'TypeType' if isinstance(type_, type) else type(type_).__name__}.")
    found = typeof(x)
    if isinstance(type_, dt.Number):
        return isinstance(found, dt.DType)
    if isinstance(type_, dt.TensorType) and type_.element_type() is None:
        return isinstance(found, dt.TensorType)
    return found == type_


def scalar_to_array(input_x):
    """A 0-d Tensor holding the number `input_x`, of the dtype a Tensor made from it has
    (MindSpore's deprecated ScalarToArray, which its CPU build cannot run; scalar_to_tensor
    is the one to use)."""
    from cellgraph.runtime.tensor import Tensor

    if isinstance(input_x, Tracer) or not isinstance(input_x, (bool, int, float)):
        raise DTypeError(f"For 'ScalarToArray', the input should be a constant bool, int or "
                         f"float, but got {type(input_x).__name__}.")
    return Tensor(input_x)


def array_to_scalar(x):
    """The Python number a 0-d Tensor holds (a variable scalar inside a graph, where the value
    is known only when it runs); MindSpore's CPU build has no kernel for it."""
    from cellgraph.compiler.builder import is_tensor_like

    if not is_tensor_like(x) or tuple(x.shape) != ():
        raise DTypeError(f"For 'array_to_scalar', the input should be a 0-d Tensor, but got "
                         f"{type(x).__name__}"
                         f"{' of shape ' + str(tuple(x.shape)) if is_tensor_like(x) else ''}.")
    if isinstance(x, Tracer):
        return dynamic_sequence.variable_scalar(x)
    return x.asnumpy().item()


# the other operations on graph values F alone has
VALUE_OPS = {"string_eq": string_eq, "string_concat": string_concat, "is_": is_,
             "is_not": is_not, "hastype": hastype, "scalar_to_array": scalar_to_array,
             "array_to_scalar": array_to_scalar}
