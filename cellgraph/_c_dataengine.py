"""`mindspore._c_dataengine`: the data engine's value classes that programs and tests call
directly. `DataType` is a column type by name (an unknown name is the type "unknown", as in
MindSpore), `TensorShape` a shape whose unknown dimensions are -1, and `Tensor` one NumPy
array as the engine holds it: a contiguous array is held without a copy, so `as_array()` and
`numpy.array(tensor, copy=False)` see the caller's memory; NumPy unicode arrays are the type
"string" and NumPy bytes arrays the type "bytes"."""
from __future__ import annotations

import numpy as np

__all__ = ["DataType", "Tensor", "TensorShape"]

_NAMES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "string", "bytes", "python")


class DataType:
    """A column type named as MindSpore's data engine names it."""

    def __init__(self, type_name: str):
        if not isinstance(type_name, str):
            raise TypeError("__init__(): incompatible constructor arguments. The following "
                            "argument types are supported:\n    1. cellgraph._c_dataengine."
                            f"DataType(arg0: str)\n\nInvoked with: {type_name!r}")
        self._name = type_name if type_name in _NAMES else "unknown"

    def is_python(self) -> bool:
        return self._name == "python"

    def __eq__(self, other):
        return isinstance(other, DataType) and other._name == self._name

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self._name)

    def __str__(self):
        return self._name


class TensorShape:
    """A shape; -1 marks a dimension not known yet, written `*`."""

    def __init__(self, shape):
        self._dims = [int(d) for d in shape]

    def as_list(self) -> list:
        return list(self._dims)

    def is_known(self) -> bool:
        return all(d >= 0 for d in self._dims)

    def __eq__(self, other):
        return isinstance(other, TensorShape) and other._dims == self._dims

    def __hash__(self):
        return hash(tuple(self._dims))

    def __str__(self):
        return "<" + ",".join("*" if d < 0 else str(d) for d in self._dims) + ">"


def _type_name(dtype: np.dtype) -> str:
    if dtype.kind == "U":
        return "string"
    if dtype.kind == "S":
        return "bytes"
    if dtype.kind == "O":
        return "python"
    return dtype.name if dtype.name in _NAMES else "unknown"


class Tensor:
    """One NumPy array held by the data engine."""

    def __init__(self, array):
        if not isinstance(array, np.ndarray):
            raise TypeError("__init__(): incompatible constructor arguments. The following "
                            "argument types are supported:\n    1. cellgraph._c_dataengine."
                            f"Tensor(arg0: numpy.ndarray)\n\nInvoked with: {array!r}")
        self._array = array if array.flags.c_contiguous else array.copy(order="C")

    def type(self) -> DataType:
        return DataType(_type_name(self._array.dtype))

    def shape(self) -> TensorShape:
        return TensorShape(self._array.shape)

    def as_array(self) -> np.ndarray:
        return self._array

    def __array__(self, dtype=None, copy=None):
        if dtype is not None and np.dtype(dtype) != self._array.dtype:
            return self._array.astype(dtype)
        return self._array.copy() if copy else self._array

    def __str__(self):
        return f"Tensor (shape: {self.shape()}, Type: {self.type()})"
