"""MindSpore's argument checks of an operation's inputs, with its wording (the twin of its
`CheckAndConvertUtils`): one place builds each message, so every operation says it alike."""
from __future__ import annotations

from .dtype import DType
from .errors import DTypeError, SourceLoc


def _tensor_type_name(dtype) -> str:
    """`Tensor[Float32]` for a dtype (or its label); a name already spelled so is kept."""
    text = str(dtype)
    return text if text.startswith(("Tensor[", "Ref[")) else f"Tensor[{text}]"


def tensor_dtype_error(op: str, name: str, allowed, got, loc: SourceLoc | None = None
                       ) -> DTypeError:
    """MindSpore's TypeError for input `name` of primitive `op` whose dtype is not one of
    `allowed`: "For primitive[Abs], the input argument[x] must be a type of {Tensor[Float16],
    Tensor[Float32]}, but got Tensor[Int32]." The allowed types are listed in the order of
    their names, as MindSpore's set of names keeps them. `got` is the dtype passed (a DType,
    shown `Tensor[...]`) or MindSpore's spelling of what was passed (`int`, `Ref[...]`)."""
    listed = ", ".join(sorted({_tensor_type_name(d) for d in allowed}))
    shown = _tensor_type_name(got) if isinstance(got, DType) else str(got)
    return DTypeError(f"For primitive[{op}], the input argument[{name}] must be a type of "
                      f"{{{listed}}}, but got {shown}.", loc)


def check_tensor_dtype(op: str, name: str, dtype: DType, allowed,
                       loc: SourceLoc | None = None) -> DType:
    """`dtype` when it is one of `allowed` (DTypes or their labels), else MindSpore's
    TypeError (`tensor_dtype_error`)."""
    if dtype not in allowed and str(dtype) not in allowed:
        raise tensor_dtype_error(op, name, allowed, dtype, loc)
    return dtype
