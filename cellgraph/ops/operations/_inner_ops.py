"""`mindspore.ops.operations._inner_ops`: the internal primitives of MindSpore's that programs
and MindSpore's tests use and that have a counterpart here."""
from __future__ import annotations

import numpy as np

from cellgraph.compiler.effects import update_in_place
from cellgraph.ops.primitive_class import PrimitiveClass
from cellgraph.primitives import dtype as _dtype
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import check_tensor_type, dtype_error
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentError, DTypeError, RunError, ShapeError

from ..function.array_func import is_tensor
from ..function.array_func.attributes import identity
from . import ExtractImagePatches

__all__ = ["AntiQuant", "ClipByNorm", "ConvertToDynamic", "CopyWithSlice", "DynamicBroadcastTo", "ExtractImagePatches",
           "IsInstance", "IsSubClass", "SameTypeShape", "TensorCopySlices", "TopTypeof"]


class CopyWithSlice(PrimitiveClass):
    """`CopyWithSlice()(x, y)`: `x`'s data replaced in place by `y`'s, which must have its
    shape and dtype (else RuntimeError, as MindSpore's); returns `x`."""

    def __call__(self, x, y):
        for value in (x, y):
            if not is_tensor(value):
                raise DTypeError(f"For 'CopyWithSlice', the inputs must be Tensors, got "
                                 f"{type(value).__name__}")
        if tuple(x.shape) != tuple(y.shape):
            raise RunError(f"For 'CopyWithSlice', the shape of the source {tuple(y.shape)} must "
                           f"equal the shape of the destination {tuple(x.shape)}")
        if x.dtype != y.dtype:
            raise RunError(f"For 'CopyWithSlice', the dtype of the source {y.dtype} must equal "
                           f"the dtype of the destination {x.dtype}")
        return update_in_place(x, y)


class ClipByNorm(PrimitiveClass):
    """`ClipByNorm(axis=None)(x, clip_norm)`: `x * clip_norm / max(||x||, clip_norm)` in float32,
    the L2 norm taken over `axis` (all axes for None or ()) with the reduced axes kept.
    `x` and `clip_norm` are float16 or float32 Tensors; `clip_norm` of shape (), all ones,
    or one that broadcasts to `x`'s. The result is float32 of `x`'s shape, as MindSpore's.
    Over part of the axes of a non-square `x`, MindSpore 2.10's CPU kernel sums squares of
    the wrong elements (for x = [[3, 0, 0], [4, 0, 1]], axis=1 it scales the second row by
    1/4, not 1/sqrt(17)); cellgraph takes the norm its documentation defines."""

    def __init__(self, axis=None):
        from cellgraph import _checkparam as validator

        axis = () if axis is None else axis
        validator.check_value_type("axis", axis, [int, tuple, list], "ClipByNorm")
        for i, value in enumerate(axis if isinstance(axis, (tuple, list)) else (axis,)):
            validator.check_value_type(f"axis[{i}]", value, [int], "ClipByNorm")
        self.axis = axis
        self._attrs = {"axis": axis}

    def __call__(self, x, clip_norm):
        x_type, norm_type = abstract_of(x), abstract_of(clip_norm)
        for name, abstract in (("x", x_type), ("clip_norm", norm_type)):
            if abstract.dtype not in (_dtype.float16, _dtype.float32):
                raise dtype_error("ClipByNorm", name, (_dtype.float16, _dtype.float32),
                                  abstract.dtype)
        x_shape, norm_shape = tuple(x_type.shape), tuple(norm_type.shape)
        if all(d == 1 for d in norm_shape):
            clip_norm = F.reshape(clip_norm, ())
        elif _broadcast_shape(x_shape, norm_shape) != x_shape:
            raise ShapeError(f"The shape of `clip_norm` only support `()`, `(1)` or a shape can "
                             f"be broadcast to input `x` shape, but got input `x` shape: "
                             f"{list(x_shape)}, `clip_norm` shape: {list(norm_shape)}")
        axes = tuple(self.axis) if isinstance(self.axis, (tuple, list)) else (self.axis,)
        if any(not -len(x_shape) <= a < len(x_shape) for a in axes):
            raise ShapeError(f"The value in attribute `axis` should be within "
                             f"[{-len(x_shape)}, {len(x_shape)}) range.")
        x32 = F.cast(x, _dtype.float32)
        norm32 = F.cast(clip_norm, _dtype.float32)
        l2 = F.sqrt(F.reduce_sum(F.square(x32), axes, True))
        return F.div(F.mul(x32, norm32), F.maximum(l2, norm32))

    def __repr__(self) -> str:
        return f"Prim[ClipByNorm]<axis={self.axis}>"


def _broadcast_shape(x_shape, norm_shape):
    try:
        return np.broadcast_shapes(x_shape, norm_shape)
    except ValueError:
        raise ShapeError(f"For 'ClipByNorm', input_x.shape and clip_norm.shape need to "
                         f"broadcast, got {list(x_shape)} and {list(norm_shape)}") from None


class SameTypeShape(PrimitiveClass):
    """`SameTypeShape()(input_x, input_y)`: `input_x`, after checking that `input_y` is a
    Tensor of the same dtype (else TypeError) and shape (else ValueError)."""

    def __call__(self, input_x, input_y):
        for name, value in (("x", input_x), ("y", input_y)):
            if not is_tensor(value):
                raise ArgumentError(f"For 'SameTypeShape', the type of '{name}' should be "
                                    f"'Tensor', but got type '{type(value).__name__}'.")
        if input_x.dtype != input_y.dtype:
            raise DTypeError(f"For 'SameTypeShape', the x dtype should be = y dtype: "
                             f"{input_y.dtype}, but got {input_x.dtype}.")
        if tuple(input_x.shape) != tuple(input_y.shape):
            raise ShapeError(f"For 'SameTypeShape', the x shape should be = y shape: "
                             f"{tuple(input_y.shape)}, but got {tuple(input_x.shape)}.")
        return input_x

    def __repr__(self) -> str:
        return "Prim[SameTypeShape]"


class ConvertToDynamic(PrimitiveClass):
    """`ConvertToDynamic(is_dynamic_rank=False)(input)`: `input` unaltered. MindSpore's tests put
    it before an operation to hide the input's shape (or rank) from compilation; cellgraph
    compiles each call for its shapes, so the operation after it runs as it would on any
    input. Checks as MindSpore's: a Tensor of rank > 0."""

    def __init__(self, is_dynamic_rank=False):
        if not isinstance(is_dynamic_rank, bool):
            raise ArgumentError(f"For 'ConvertToDynamic', the type of 'is_dynamic_rank' should "
                                f"be 'bool', but got type '{type(is_dynamic_rank).__name__}'.")
        self.is_dynamic_rank = is_dynamic_rank
        self._attrs = {"is_dynamic_rank": is_dynamic_rank}

    def __call__(self, input):
        if not is_tensor(input):
            raise ArgumentError(f"For 'ConvertToDynamic', the 'input_dtype' should be a Tensor, "
                                f"but got {type(input).__name__}.")
        if not tuple(input.shape):
            raise ShapeError("For 'ConvertToDynamic', 'input_shape rank' should be > 0, but got "
                             "0.")
        return identity(input)

    def __repr__(self) -> str:
        return f"Prim[ConvertToDynamic]<is_dynamic_rank={self.is_dynamic_rank}>"


class DynamicBroadcastTo(PrimitiveClass):
    """`DynamicBroadcastTo()(x, shape)`: `x` broadcast to `shape`, given as a tuple of ints or
    as a 1-D Tensor of them (whose values must be known when the graph is compiled)."""

    def __call__(self, x, shape):
        if hasattr(shape, "aval"):
            shape = tuple(int(d) for d in value_input(shape, "DynamicBroadcastTo",
                                                      "shape").reshape(-1))
        return F.broadcast_to(x, shape)

    def __repr__(self) -> str:
        return "Prim[DynamicBroadcastTo]"


class TopTypeof(PrimitiveClass):
    """`TopTypeof()(x)`: the kind of `x` without its details: `mstype.tensor_type` for any
    Tensor or Parameter, otherwise the type object of the Python value (`mstype.int_`,
    `mstype.tuple_`, `mstype.type_none`, ...)."""

    def __call__(self, x):
        from cellgraph.primitives import dtype as mstype

        if is_tensor(x):
            return mstype.tensor_type
        kinds = ((bool, mstype.bool_), (int, mstype.int_), (float, mstype.float_),
                 (tuple, mstype.tuple_), (list, mstype.list_), (str, mstype.string),
                 (type(None), mstype.type_none))
        for python_type, kind in kinds:
            if isinstance(x, python_type):
                return kind
        raise ArgumentError(f"For 'TopTypeof', expected a Tensor, a number, a tuple, a list, a "
                            f"string or None, got {type(x).__name__}")

    def __repr__(self) -> str:
        return "Prim[TopTypeof]"


class IsSubClass(PrimitiveClass):
    """`IsSubClass()(sub_type, type_)`: whether the type `sub_type` falls under `type_`: the same
    type, or `mstype.number` above any dtype (bool and complex included, as MindSpore's). Both
    must be type objects (TypeError otherwise, naming the argument). cellgraph's `mstype.int_`
    and `mstype.float_` are the dtypes int64 and float32, not MindSpore's abstract Int and
    Float, so `IsSubClass()(int32, int_)` is False here where MindSpore says True."""

    def __call__(self, sub_type, type_):
        from cellgraph.primitives import dtype as mstype

        kinds = (mstype.DType, mstype.TensorType, mstype._ObjectType)
        for name, value in (("sub_type", sub_type), ("type_", type_)):
            if not isinstance(value, kinds):
                raise ArgumentError(f"For 'IsSubClass', the type of '{name}' should be 'Type', "
                                    f"but got type '{type(value).__name__}'.")
        if sub_type == type_:
            return True
        return isinstance(type_, mstype.Number) and isinstance(sub_type, mstype.DType)

    def __repr__(self) -> str:
        return "Prim[IsSubClass]"


class IsInstance(PrimitiveClass):
    """`IsInstance()(x, type_)`: whether the value `x` is of the type object `type_`: a list
    for `mstype.list_`, a tuple for `tuple_`, a str for `string`, a Tensor for `tensor_type`
    (of that dtype for `TensorType(dtype)`), and for a dtype a Python bool, int (not bool) or
    float by its kind. None is of no type here, as in MindSpore."""

    def __call__(self, x, type_):
        from cellgraph.primitives import dtype as mstype

        if isinstance(type_, mstype.TensorType):
            element = type_.element_type()
            return is_tensor(x) and (element is None or abstract_of(x).dtype == element)
        if is_tensor(x):
            return False
        if isinstance(type_, mstype._ObjectType):
            kinds = {mstype.List: list, mstype.Tuple: tuple, mstype.String: str}
            python_type = kinds.get(type(type_))
            return python_type is not None and isinstance(x, python_type)
        if not isinstance(type_, mstype.DType):
            raise ArgumentError(f"For 'IsInstance', the type of 'type_' should be 'Type', but "
                                f"got type '{type(type_).__name__}'.")
        if type_ == mstype.bool_:
            return isinstance(x, bool)
        if isinstance(x, bool):
            return False
        if type_.is_float:
            return isinstance(x, float)
        return type_.is_int and isinstance(x, int)

    def __repr__(self) -> str:
        return "Prim[IsInstance]"


class AntiQuant(PrimitiveClass):
    """`AntiQuant(sqrt_mode=False, dtype=float16)(x, scale, offset)`: MindSpore's Ascend
    dequantization of an int8 `x`. As MindSpore on CPU: the arguments are checked (its
    errors: `x` an int8 Tensor, `scale` and `offset` Tensors), then the call fails with a
    RuntimeError (an UnsupportedError), neither having a CPU kernel for it."""

    def __init__(self, sqrt_mode=False, dtype=_dtype.float16):
        from cellgraph import _checkparam as validator

        self.sqrt_mode = validator.check_value_type("sqrt_mode", sqrt_mode, [bool], "AntiQuant")
        self.dtype = dtype

    def __call__(self, x, scale, offset):
        from cellgraph.primitives import dtype as mstype
        from cellgraph.primitives.errors import UnsupportedError

        check_tensor_type("AntiQuant", "input_x", x, (mstype.int8,))
        for name, value in (("scale", scale), ("offset", offset)):
            if not is_tensor(value):
                kind = {bool: "Bool", int: "Int64", float: "Float32"}.get(type(value),
                                                                           type(value).__name__)
                raise ArgumentError(f"The primitive[AntiQuant]'s input arguments[{name}] must be "
                                    f"all tensor and those type must be same. But got input "
                                    f"argument[{name}]:{kind}")
        raise UnsupportedError("AntiQuant: an Ascend-only kernel (MindSpore on CPU has none "
                               "either)")

    def __repr__(self) -> str:
        return f"Prim[AntiQuant]<sqrt_mode={self.sqrt_mode}>"


class TensorCopySlices(PrimitiveClass):
    """`TensorCopySlices()(x, value, begin, end, strides)`: x with the slice
    x[begin:end] (strides of 1 only, as MindSpore's CPU kernel) replaced by `value`, which has
    the slice's elements (MindSpore copies that many from it without broadcasting)."""

    def __call__(self, x, value, begin, end, strides):
        if any(int(s) != 1 for s in strides):
            raise RunError(f"The element in step only support 1, but got:{tuple(strides)}")
        shape = tuple(abstract_of(x).shape)
        positions = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
        index = tuple(slice(int(b), int(e)) for b, e in zip(begin, end))
        picked = positions[index].reshape(-1, 1)
        if int(np.prod(abstract_of(value).shape)) != picked.shape[0]:
            raise ShapeError(f"For 'TensorCopySlices', `value` of shape "
                             f"{tuple(abstract_of(value).shape)} must have the "
                             f"{picked.shape[0]} elements of the slice {index} of x")
        flat = F.tensor_scatter_update(F.reshape(x, (-1,)), picked,
                                       F.reshape(F.cast(value, abstract_of(x).dtype), (-1,)))
        return F.reshape(flat, shape)
