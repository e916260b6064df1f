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


# F.scalar_add(2, 3) and friends: arithmetic on Python numbers, done when the graph is built.
# MindSpore names their parameters (x, y); scalar_ne and the bool operations take *args there.
SCALAR_OPS = {
    **{name: _scalar_op(name, op, 2) for name, op in (
        ("scalar_add", operator.add), ("scalar_sub", operator.sub),
        ("scalar_mul", operator.mul), ("scalar_div", operator.truediv),
        ("scalar_floordiv", operator.floordiv), ("scalar_mod", operator.mod),
        ("scalar_pow", operator.pow), ("scalar_lt", operator.lt), ("scalar_gt", operator.gt),
        ("scalar_le", operator.le), ("scalar_ge", operator.ge), ("scalar_eq", operator.eq))},
    "scalar_usub": _scalar_op("scalar_usub", operator.neg, 1),
    "scalar_uadd": _scalar_uadd, "scalar_log": _scalar_log,
    "scalar_max": _scalar_extreme("scalar_max", max, lambda F, x, y: F.maximum(x, y)),
    "scalar_min": _scalar_extreme("scalar_min", min, lambda F, x, y: F.minimum(x, y)),
    "scalar_ne": operator.ne, "bool_not": operator.not_, "bool_and": operator.and_,
    "bool_or": operator.or_}


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
