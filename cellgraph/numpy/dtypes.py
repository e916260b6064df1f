"""`mindspore.numpy.dtypes`: the dtypes and constants the numpy module exports."""
import numpy as onp

from cellgraph.primitives import dtype as dt

__all__ = [
    "bool_",
    "e",
    "float16",
    "float32",
    "float64",
    "inf",
    "int8",
    "int16",
    "int32",
    "int64",
    "nan",
    "pi",
    "uint8",
]

float16, float32, float64 = dt.float16, dt.float32, dt.float64


int8, int16, int32, int64, uint8, bool_ = dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.bool_


pi, e, inf, nan = onp.pi, onp.e, onp.inf, onp.nan
