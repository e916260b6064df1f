"""The dtype an elementwise kernel must produce, computed on values: the rule of
`cellgraph.ops.core.result_dtype` for backends whose own promotion differs from NumPy's."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

F32, F64, I64, BOOL = np.dtype("float32"), np.dtype("float64"), np.dtype("int64"), np.dtype(bool)


def result_dtype(args, dtype_of: Callable, float_with_int=F32) -> np.dtype:
    """Arrays (their NumPy dtype read by `dtype_of`) are strong and promote as NumPy does;
    Python scalars are weak; an integer or bool array with a Python float gives
    `float_with_int`."""
    strong, weak = None, ""
    for a in args:
        if type(a) is bool:
            weak += "b"
        elif type(a) is int:
            weak += "i"
        elif type(a) is float:  # not np.float64: a 0-d NumPy result is strong
            weak += "f"
        else:
            d = dtype_of(a)
            strong = d if strong is None or strong == d else np.promote_types(strong, d)
    if strong is None:
        return F32 if "f" in weak else I64 if "i" in weak else BOOL
    if strong.kind in "biu" and "f" in weak:
        return float_with_int
    if strong.kind == "b" and "i" in weak:
        return I64
    return strong
