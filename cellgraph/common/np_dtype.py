"""`mindspore.common.np_dtype`: NumPy dtypes NumPy itself lacks (`np_dtype.bfloat16`, for
`np.array(values, dtype=np_dtype.bfloat16)`), from the optional ml_dtypes package, imported
when a name is first read."""
from __future__ import annotations

from cellgraph.primitives.dtype import ML_DTYPES, ml_dtypes_numpy


def __getattr__(name: str):
    if name not in ML_DTYPES:
        raise AttributeError(f"module 'cellgraph.common.np_dtype' has no attribute {name!r}")
    try:
        return ml_dtypes_numpy(name).type
    except TypeError as e:  # no ml_dtypes: the name is not available here
        raise AttributeError(e.args[0]) from None
