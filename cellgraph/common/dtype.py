"""`mindspore.common.dtype` (imported as `mstype`): the dtype objects and conversions to and
from NumPy and Python types."""
from __future__ import annotations

import numpy as np

from cellgraph.primitives import dtype as _dtype_module
from cellgraph.primitives.dtype import (  # noqa: F401  (mstype's type objects)
    DType,
    List,
    Number,
    String,
    TensorType,
    Tuple,
    TypeNone,
    as_dtype,
    from_numpy,
    list_,
    number,
    string,
    tensor_type,
    tuple_,
    type_none,
)

# Every DType the ops layer defines (float32, int64, bool_, ...) and its aliases (half, float_).
_DTYPES = {name: value for name, value in vars(_dtype_module).items()
           if isinstance(value, DType)}
globals().update(_DTYPES)
__all__ = sorted(_DTYPES)  # noqa: PLE0605  (the dtypes ops.dtype defines, whatever they are)

Type = DType
# By name: a dtype's NumPy storage may need an optional package (bfloat16 needs ml_dtypes).
number_type = tuple(d for d in _dtype_module.ALL if d.name != "bool_")
int_type = tuple(d for d in _dtype_module.ALL if d.name.startswith("int"))
uint_type = tuple(d for d in _dtype_module.ALL if d.name.startswith("uint"))
float_type = tuple(d for d in _dtype_module.ALL if "float" in d.name)
complex_type = tuple(d for d in _dtype_module.ALL if d.is_complex)
all_types = tuple(_dtype_module.ALL)

# MindSpore's types of Python's types (a Python float is a float64 here; a graph holds it as
# float32, which is another question)
_PY_TYPES = {bool: _dtype_module.bool_, int: _dtype_module.int64, float: _dtype_module.float64,
             complex: _dtype_module.complex128, list: list_, tuple: tuple_, str: string,
             type(None): type_none}
_OBJECT_PY_TYPES = {list_: list, tuple_: tuple, string: str, type_none: type(None)}


def dtype_to_nptype(type_) -> type:
    """The NumPy scalar type that stores `type_` (`mstype.float32` -> `numpy.float32`)."""
    return as_dtype(type_).np.type


def dtype_to_pytype(type_) -> type:
    """The Python type a value of `type_` reads as: bool, int, float or complex for a scalar
    dtype; list, tuple, str or NoneType for those types."""
    if type_ in _OBJECT_PY_TYPES:
        return _OBJECT_PY_TYPES[type_]
    d = as_dtype(type_)
    return bool if d.is_bool else int if d.is_int else complex if d.is_complex else float


def pytype_to_dtype(obj) -> DType:
    """The dtype for a Python or NumPy type (`int` -> int64, `np.float16` -> float16)."""
    if isinstance(obj, DType):
        return obj
    if obj in _PY_TYPES:
        return _PY_TYPES[obj]
    if isinstance(obj, type) and not issubclass(obj, np.generic):  # MindSpore's error
        raise NotImplementedError(f"The python type {obj} cannot be converted to MindSpore "
                                  f"type.")
    return from_numpy(obj)


def get_py_obj_dtype(obj) -> DType:
    """The type of a value (a Tensor's dtype, or its Python type's) or of a Python type."""
    if hasattr(obj, "dtype") and isinstance(obj.dtype, DType):
        return obj.dtype
    return pytype_to_dtype(obj if isinstance(obj, type) else type(obj))

