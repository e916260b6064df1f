"""MindSpore's argument checks of an operation's inputs, with its wording (the twin of its
`CheckAndConvertUtils`): one place builds each message, so every operation says it alike."""
from __future__ import annotations

import numpy as np

from .core import abstract_of
from .dtype import DType
from .errors import DTypeError, SourceLoc

# MindSpore's names of the Python scalars it takes in place of a Tensor
_SCALAR_TYPE_NAMES = {bool: "Bool", int: "Int64", float: "Float32", str: "String",
                      type(None): "None"}


def _tensor_type_name(dtype) -> str:
    """`Tensor[Float32]` for a dtype (or its label); a name already spelled so is kept."""
    text = str(dtype)
    return text if text.startswith("Tensor[") else f"Tensor[{text}]"


def tensor_dtype_error(op: str, name: str, allowed, got, loc: SourceLoc | None = None
                       ) -> DTypeError:
    """MindSpore's TypeError for input `name` of primitive `op` whose dtype is not one of
    `allowed`: "For primitive[Abs], the input argument[x] must be a type of {Tensor[Float16],
    Tensor[Float32]}, but got Tensor[Int32]." The allowed types are listed in the order of
    their names, as MindSpore's set of names keeps them. `got` is the dtype passed (a DType,
    shown `Tensor[...]`) or MindSpore's name of what was passed (`Ref[Tensor[Int32]]`)."""
    listed = ", ".join(sorted({_tensor_type_name(d) for d in allowed}))
    shown = _tensor_type_name(got) if isinstance(got, DType) else str(got)
    return DTypeError(f"For primitive[{op}], the input argument[{name}] must be a type of "
                      f"{{{listed}}}, but got {shown}.", loc)


def dtype_error(op: str, name: str, allowed, got, more_info: str = "",
                loc: SourceLoc | None = None) -> DTypeError:
    """MindSpore's TypeError where it checks a type itself, not a Tensor's (its CheckTypeValid):
    "For primitive[RandomPoisson], the input argument[shape] must be a type of {Int32, Int64},
    but got Tuple[Int64*2].", the allowed names in their order; `more_info` follows the
    argument ("in rfft mode"); `got` a dtype or MindSpore's name of what was passed."""
    listed = ", ".join(sorted({str(d) for d in allowed}))
    where = f" {more_info}" if more_info else ""
    return DTypeError(f"For primitive[{op}], the input argument[{name}]{where} must be a type of "
                      f"{{{listed}}}, but got {got}.", loc)


def value_type_name(value) -> str:
    """MindSpore's name of the type of a value passed to an operation: `Int64` for an int,
    `Float32` for a float, `Tensor[Float32]`, `Tuple[Int64*2]` (one type repeated),
    `List[Float32,Int64]`, `External` for a NumPy array; else the Python type's name."""
    if hasattr(value, "aval"):  # a Tensor or a graph value
        return f"Tensor[{value.aval.dtype}]"
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, (tuple, list)):
        names = [value_type_name(v) for v in value]
        inner = f"{names[0]}*{len(names)}" if len(names) > 1 and len(set(names)) == 1 else \
            ",".join(names)
        return f"{'Tuple' if isinstance(value, tuple) else 'List'}[{inner}]"
    if isinstance(value, np.ndarray):
        return "External"
    return _SCALAR_TYPE_NAMES.get(type(value), type(value).__name__)


def not_tensor_error(op: str, name: str, value, loc: SourceLoc | None = None) -> DTypeError:
    """MindSpore's TypeError for input `name` of primitive `op` given a value that is not a
    Tensor: "For Primitive[Abs], the type of input argument[x] must be Tensor but got Int64."."""
    return DTypeError(f"For Primitive[{op}], the type of input argument[{name}] must be Tensor "
                      f"but got {value_type_name(value)}.", loc)


def element_dtype_error(op: str, name: str, allowed, got: str,
                        loc: SourceLoc | None = None) -> DTypeError:
    """The TypeError of MindSpore's Python validator (`check_tensor_dtype_valid`), which the
    primitives it checks in Python raise when a graph is compiled: "For 'SGD', the element of
    'gradient' must be one of Tensor[Float16], Tensor[Float32], but got Tensor[Int32].The
    supported data types depend on ...", the allowed types in the order given."""
    listed = ", ".join(_tensor_type_name(d) for d in allowed)
    return DTypeError(f"For '{op}', the element of '{name}' must be "
                      f"{'one of ' if len(allowed) > 1 else ''}{listed}, but got {got}.The "
                      f"supported data types depend on the hardware that executes the operator, "
                      f"for more details, please refer to the MindSpore official website to get "
                      f"more information about the data type.", loc)


def check_tensor_dtype(op: str, name: str, dtype: DType, allowed,
                       loc: SourceLoc | None = None) -> DType:
    """`dtype` when it is one of `allowed` (DTypes or their labels), else MindSpore's
    TypeError (`tensor_dtype_error`)."""
    if dtype not in allowed and str(dtype) not in allowed:
        raise tensor_dtype_error(op, name, allowed, dtype, loc)
    return dtype


def check_tensor_type(op: str, name: str, value, allowed, loc: SourceLoc | None = None) -> DType:
    """The dtype of `value` when it is a Tensor (or an array) of one of `allowed`, else
    MindSpore's TypeError: `not_tensor_error` for what is not a Tensor, `tensor_dtype_error`
    for a Tensor of another dtype (MindSpore's CheckTensorTypeValid)."""
    if not (hasattr(value, "aval") or isinstance(value, np.ndarray)):
        raise not_tensor_error(op, name, value, loc)
    return check_tensor_dtype(op, name, abstract_of(value).dtype, allowed, loc)


def types_not_same_error(op: str, named: dict, loc: SourceLoc | None = None) -> DTypeError:
    """MindSpore's TypeError for operands of primitive `op` that must share one dtype: "For
    primitive[Igamma], the input type must be same.\\nname:[a]:Tensor[Float32].\\nname:[x]:
    Tensor[Float64].", one line an operand of `named` ({name: dtype}) in the order of the
    names, as MindSpore's map of them keeps them."""
    lines = "".join(f"\nname:[{name}]:{_tensor_type_name(named[name])}." for name in sorted(named))
    return DTypeError(f"For primitive[{op}], the input type must be same.{lines}", loc)


def check_types_same(op: str, named: dict, loc: SourceLoc | None = None) -> DType:
    """The one dtype of the operands `named` ({name: dtype}), else `types_not_same_error`."""
    if len(set(named.values())) > 1:
        raise types_not_same_error(op, named, loc)
    return next(iter(named.values()))


def check_tensor_types_same(op: str, named: dict, allowed, loc: SourceLoc | None = None
                            ) -> DType:
    """MindSpore's CheckTensorTypeSame: the operands `named` ({name: dtype}) share one dtype
    (`check_types_same`), which is one of `allowed` (checked as the first name's)."""
    dtype = check_types_same(op, named, loc)
    return check_tensor_dtype(op, min(named), dtype, allowed, loc)
