"""Data types, as MindSpore names them (`cellgraph.float32`, `mstype.float32`, ...)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .errors import DTypeError


@dataclass(frozen=True)
class DType:
    """A tensor element type: MindSpore's printed name and the NumPy dtype that stores it."""

    name: str  # "float32"
    label: str  # "Float32", as MindSpore prints it
    np_name: str

    @cached_property  # asked on every operation: computed once per dtype
    def np(self) -> np.dtype:
        if self.np_name in ML_DTYPES:
            return ml_dtypes_numpy(self.np_name)
        return np.dtype(self.np_name)

    @cached_property
    def is_float(self) -> bool:
        return self.np_name in ML_DTYPES or self.np.kind == "f"

    @cached_property
    def is_complex(self) -> bool:
        return self.np_name.startswith("complex")

    @cached_property
    def is_inexact(self) -> bool:
        """Real floating or complex: the dtypes a gradient flows through unchanged."""
        return self.is_float or self.is_complex

    @cached_property
    def is_int(self) -> bool:
        return self.np.kind in "iu"

    @cached_property
    def is_bool(self) -> bool:
        return self.np.kind == "b"

    @cached_property
    def short(self) -> str:
        """The IR printer's spelling: f32, i64, u8, bool."""
        if self.is_bool:
            return "bool"
        if self.np_name in ML_DTYPES:
            return ML_DTYPES[self.np_name]
        return {"f": "f", "i": "i", "u": "u", "c": "c"}[self.np.kind] + str(self.np.itemsize * 8)

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        """The name it is reached by, as MindSpore's: `cellgraph.float32`, `cellgraph.bool`."""
        return f"cellgraph.{self.name.rstrip('_')}"


float16 = DType("float16", "Float16", "float16")
bfloat16 = DType("bfloat16", "BFloat16", "bfloat16")
# 8-bit floats (4 exponent bits and 3 mantissa bits, finite only; 5 and 2), for storage and
# casts, as MindSpore has them for quantised weights.
float8_e4m3fn = DType("float8_e4m3fn", "Float8E4M3FN", "float8_e4m3fn")
float8_e5m2 = DType("float8_e5m2", "Float8E5M2", "float8_e5m2")
float32 = DType("float32", "Float32", "float32")
float64 = DType("float64", "Float64", "float64")
int8 = DType("int8", "Int8", "int8")
int16 = DType("int16", "Int16", "int16")
int32 = DType("int32", "Int32", "int32")
int64 = DType("int64", "Int64", "int64")
uint8 = DType("uint8", "UInt8", "uint8")
uint16 = DType("uint16", "UInt16", "uint16")
uint32 = DType("uint32", "UInt32", "uint32")  # MnistDataset's and Cifar10Dataset's labels
uint64 = DType("uint64", "UInt64", "uint64")
bool_ = DType("bool_", "Bool", "bool")
complex64 = DType("complex64", "Complex64", "complex64")
complex128 = DType("complex128", "Complex128", "complex128")

ALL = (float16, bfloat16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32,
       uint64, bool_, complex64, complex128)
# The dtypes NumPy lacks, stored as the types of the optional `ml_dtypes` package (imported
# only when such a value is made), with the IR printer's spelling. They are left out of
# _BY_NP, which would import it.
ML_DTYPES = {"bfloat16": "bf16", "float8_e4m3fn": "f8e4m3", "float8_e5m2": "f8e5m2"}
_BY_NAME = {d.name: d for d in (bfloat16, float8_e4m3fn, float8_e5m2)}
_BY_NP = {d.np: d for d in ALL if d.np_name not in ML_DTYPES}


def ml_dtypes_numpy(name: str) -> np.dtype:
    """NumPy's dtype for `name` from ml_dtypes, or TypeError saying how to get it."""
    try:
        import ml_dtypes
    except ImportError:
        raise TypeError(f"{name} needs the ml_dtypes package (NumPy has no {name}): "
                        f"pip install ml_dtypes") from None
    return np.dtype(getattr(ml_dtypes, name))

def finfo(dtype: DType):
    """The limits of a float or complex dtype (max, min, eps, tiny, nmant): NumPy's `finfo`,
    which knows no bfloat16 or float8s, and ml_dtypes' for those."""
    if dtype.np_name in ML_DTYPES:
        import ml_dtypes  # dtype.np imported it (or said how to get it)

        return ml_dtypes.finfo(dtype.np)
    return np.finfo(dtype.np)


# MindSpore aliases.
half, single, double = float16, float32, float64
float_, int_ = float32, int64
cfloat, cdouble = complex64, complex128


def from_numpy(dt) -> DType:
    """The DType stored as NumPy dtype `dt`; raises TypeError for unsupported ones."""
    try:
        dt = np.dtype(dt)
        return _BY_NAME[dt.name] if dt.name in _BY_NAME else _BY_NP[dt]
    except (KeyError, TypeError, ValueError):  # ValueError: an array-like NumPy reads
        raise DTypeError(f"unsupported tensor dtype {dt}; expected one of "
                        f"{', '.join(d.name for d in ALL)}") from None


def as_dtype(dt) -> DType:
    """Accept a DType, a NumPy dtype or a dtype name."""
    if isinstance(dt, DType):
        return dt
    if isinstance(dt, str) and dt in globals() and isinstance(globals()[dt], DType):
        return globals()[dt]
    return from_numpy(dt)


def kind_rank(d: DType) -> int:
    """The order of kinds in promotion: bool < integers < real floats < complex."""
    return 3 if d.is_complex else 2 if d.is_float else 1 if d.is_int else 0


def promote(a: DType, b: DType) -> DType:
    """MindSpore's promotion between two tensor dtypes: the higher kind wins (bool < integers <
    floats < complex), so an integer tensor with a float tensor gives that float dtype (int32
    with float32 is float32, where NumPy would widen to float64); a real float with a complex
    dtype gives the complex dtype wide enough for both (float64 with complex64 is complex128);
    within a kind, NumPy's rule."""
    low, high = sorted((a, b), key=kind_rank)
    if kind_rank(high) == 3 and low.is_float:
        return complex_of(low) if low.np.itemsize * 2 > high.np.itemsize else high
    if kind_rank(low) != kind_rank(high) and kind_rank(high) >= 2:
        return high
    if {a.name, b.name} == {"float16", "bfloat16"}:  # no common NumPy type: MindSpore's float32
        return float32
    return from_numpy(np.promote_types(a.np, b.np))


def to_float(dt: DType) -> DType:
    """The dtype that true division and transcendental functions give for `dt` (complex
    dtypes stay complex)."""
    return dt if dt.is_inexact else float32


def real_of(dt: DType) -> DType:
    """The real dtype of a complex dtype's parts (complex64 -> float32); real dtypes stay."""
    return {"complex64": float32, "complex128": float64}.get(dt.name, dt)


def complex_of(dt: DType) -> DType:
    """The complex dtype whose parts are `dt` (float64 -> complex128, else complex64)."""
    if dt.is_complex:
        return dt
    return complex128 if dt is float64 else complex64


class TensorType:
    """`mstype.TensorType(element_type)`: the type of a Tensor of `element_type`;
    `mstype.tensor_type` is the type of any Tensor (what `TopTypeof` gives for one)."""

    def __init__(self, element_type=None):
        self._element = None if element_type is None else as_dtype(element_type)

    def element_type(self):
        return self._element

    def __eq__(self, other) -> bool:
        return isinstance(other, TensorType) and other._element == self._element

    def __hash__(self) -> int:
        return hash(("TensorType", self._element))

    def __repr__(self) -> str:
        if self._element is None:
            return "cellgraph.tensor"
        return f"Tensor[{str(self._element).capitalize()}]"


class _ObjectType:
    """The type of a non-Tensor graph value (a tuple, a list, a string, None), compared by
    kind."""

    _name = ""

    def __eq__(self, other) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))

    def __repr__(self) -> str:
        return f"cellgraph.{self._name}"


class Tuple(_ObjectType):
    _name = "tuple_"


class List(_ObjectType):
    _name = "list_"


class String(_ObjectType):
    _name = "string_"


class TypeNone(_ObjectType):
    _name = "type_none"


class Number(_ObjectType):
    """`mstype.number`: the type every numeric scalar and dtype falls under (what a
    MultitypeFuncGraph overload registered for it matches: any Python number)."""

    _name = "number"


tensor_type, tuple_, list_, string, type_none = (TensorType(), Tuple(), List(), String(),
                                                 TypeNone())
number = Number()
