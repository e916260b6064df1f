"""Data types, as MindSpore names them (`cellgraph.float32`, `mstype.float32`, ...)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class DType:
    """A tensor element type: MindSpore's printed name and the NumPy dtype that stores it."""

    name: str  # "float32"
    label: str  # "Float32", as MindSpore prints it
    np_name: str

    @property
    def np(self) -> np.dtype:
        if self.np_name == "bfloat16":
            return _bfloat16_numpy()
        return np.dtype(self.np_name)

    @property
    def is_float(self) -> bool:
        return self.np_name == "bfloat16" or self.np.kind == "f"

    @property
    def is_int(self) -> bool:
        return self.np.kind in "iu"

    @property
    def is_bool(self) -> bool:
        return self.np.kind == "b"

    @property
    def short(self) -> str:
        """The IR printer's spelling: f32, i64, u8, bool."""
        if self.is_bool:
            return "bool"
        if self.np_name == "bfloat16":
            return "bf16"
        return {"f": "f", "i": "i", "u": "u"}[self.np.kind] + str(self.np.itemsize * 8)

    def __repr__(self) -> str:
        return self.label

    __str__ = __repr__


float16 = DType("float16", "Float16", "float16")
bfloat16 = DType("bfloat16", "BFloat16", "bfloat16")
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

ALL = (float16, bfloat16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32,
       uint64, bool_)
# bfloat16 is left out: NumPy has no bfloat16, and its dtype comes from the optional
# `ml_dtypes` package, imported only when a bfloat16 value is made.
_BY_NP = {d.np: d for d in ALL if d is not bfloat16}


def _bfloat16_numpy() -> np.dtype:
    try:
        import ml_dtypes
    except ImportError:
        raise TypeError("bfloat16 needs the ml_dtypes package (NumPy has no bfloat16): "
                        "pip install ml_dtypes") from None
    return np.dtype(ml_dtypes.bfloat16)

# MindSpore aliases.
half, single, double = float16, float32, float64
float_, int_ = float32, int64


def from_numpy(dt) -> DType:
    """The DType stored as NumPy dtype `dt`; raises TypeError for unsupported ones."""
    try:
        dt = np.dtype(dt)
        return bfloat16 if dt.name == "bfloat16" else _BY_NP[dt]
    except (KeyError, TypeError):
        raise TypeError(f"unsupported tensor dtype {dt}; expected one of "
                        f"{', '.join(d.name for d in ALL)}") from None


def as_dtype(dt) -> DType:
    """Accept a DType, a NumPy dtype or a dtype name."""
    if isinstance(dt, DType):
        return dt
    if isinstance(dt, str) and dt in globals() and isinstance(globals()[dt], DType):
        return globals()[dt]
    return from_numpy(dt)


def promote(a: DType, b: DType) -> DType:
    """NumPy's promotion between two tensor dtypes."""
    return from_numpy(np.promote_types(a.np, b.np))


def to_float(dt: DType) -> DType:
    """The dtype that true division and transcendental functions give for `dt`."""
    return dt if dt.is_float else float32
