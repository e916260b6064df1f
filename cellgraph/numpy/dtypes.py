"""`mindspore.numpy.dtypes`: the dtypes and constants the numpy module exports."""
import numpy as onp

from cellgraph.primitives import dtype as dt

__all__ = [
    "NINF",
    "PINF",
    "bool_",
    "e",
    "float16",
    "float32",
    "float64",
    "float_",
    "inf",
    "int8",
    "int16",
    "int32",
    "int64",
    "int_",
    "nan",
    "pi",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
]

float16, float32, float64 = dt.float16, dt.float32, dt.float64


int8, int16, int32, int64, uint8, bool_ = dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.bool_
uint16, uint32, uint64 = dt.uint16, dt.uint32, dt.uint64
# MindSpore's numpy's defaults for the unsized names: 32-bit
uint, int_, float_ = dt.uint32, dt.int32, dt.float32


pi, e, inf, nan = onp.pi, onp.e, onp.inf, onp.nan
PINF, NINF = onp.inf, -onp.inf
