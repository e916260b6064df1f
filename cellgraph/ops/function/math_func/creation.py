"""Tensors of numbers made when the graph is built: `linspace`, `range`, `tril_indices`,
`triu_indices`, `cartesian_prod`, `combinations`."""
from __future__ import annotations

import itertools
import math
import numbers

import numpy as np

from cellgraph.ops.function.array_func.attributes import _const, _tensor, is_tensor
from cellgraph.ops.function.array_func.creation import arange, meshgrid
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import check_tensor_types_same
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.primitives.exports import export

__all__ = ["cartesian_prod", "combinations", "linspace", "tril_indices", "triu_indices"]


def linspace(start, end, steps):
    """`ops.linspace` and the `LinSpace` primitive: `steps` values from start to end inclusive,
    computed in the graph as MindSpore's kernel does, start + i * step with
    step = (end - start) / (steps - 1) in the inputs' dtype (float32 or float64, both the same;
    a Python number is a float32 Tensor). start and end are 0-D; `steps` (an int, or a Tensor
    holding one) must be known when the graph is built and be positive. One step gives [start]."""
    start = start if is_tensor(start) else _const(np.asarray(start, np.float32), dt.float32)
    end = end if is_tensor(end) else _const(np.asarray(end, np.float32), dt.float32)
    dtype = check_tensor_types_same("LinSpace", {"start type": abstract_of(start).dtype,
                                                 "stop type": abstract_of(end).dtype},
                                    (dt.float32, dt.float64))
    for what, value in (("start", start), ("stop", end)):
        if abstract_of(value).ndim != 0:
            raise ArgumentValueError(f"For primitive[LinSpace], the rank of '{what}' must be "
                                     f"equal to 0, but got {abstract_of(value).ndim}.")
    num = int(value_input(steps, "LinSpace", "num").reshape(-1)[0])
    if num <= 0:
        raise ArgumentValueError(f"For primitive[LinSpace], the num must be greater than 0, but "
                                 f"got {num}.")
    if num == 1:
        return F.reshape(start, (1,))
    step = F.div(F.sub(end, start), _const(np.asarray(num - 1, dtype.np), dtype))
    return F.add(start, F.mul(step, _const(np.arange(num, dtype=dtype.np), dtype)))


def _triangle_indices(row, col, offset, dtype, lower: bool):
    rows, cols = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return _const(np.stack([rows, cols]).astype(dt.as_dtype(dtype).np), dt.as_dtype(dtype))


def tril_indices(row, col, offset=0, *, dtype=dt.int64):
    """(2, N): the row and column indices of the lower triangle (below diagonal `offset`)."""
    return _triangle_indices(row, col, offset, dtype, True)


def triu_indices(row, col, offset=0, *, dtype=dt.int64):
    """(2, N): the row and column indices of the upper triangle."""
    return _triangle_indices(row, col, offset, dtype, False)


def cartesian_prod(*inputs):
    """(N, len(inputs)): every combination of one element from each 1-D input."""
    grids = meshgrid(*inputs, indexing="ij")
    return F.stack([F.reshape(g, (-1,)) for g in grids], 1)


def combinations(input, r=2, with_replacement=False):
    """(N, r): the length-r combinations of the elements of the 1-D `input`."""

    n = _tensor(input, "combinations").shape[0]
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = np.array(list(pick(range(n), r)), np.int64).reshape(-1, r)
    return F.reshape(F.gather(input, _const(rows.reshape(-1), dt.int64), 0), rows.shape)


def _range(start, limit, delta, maxlen=1000000):
    """[start, limit) by delta in the inputs' dtype, at most `maxlen` values."""
    values = [value_input(v, "Range", name).reshape(-1)[0].item() if is_tensor(v) else v
              for v, name in ((start, "start"), (limit, "limit"), (delta, "delta"))]
    dtype = abstract_of(start).dtype if is_tensor(start) else None
    out = arange(*values, dtype=dtype)
    if abstract_of(out).shape[0] > maxlen:
        raise ArgumentValueError(f"Range: {abstract_of(out).shape[0]} values exceed `maxlen` "
                                 f"{maxlen}")
    return out


def range_(start, end, step, maxlen=1000000):
    """`ops.range`: [start, end) by `step` (Tensors or numbers), in the dtype of `start` when it
    is a Tensor, else int64 for ints and float32 otherwise. `maxlen` (a positive int) is the
    memory MindSpore reserves for a dynamic output; its functional range does not cut the
    output to it (the Range primitive, ops.Range(maxlen), does)."""
    if isinstance(maxlen, bool) or not isinstance(maxlen, numbers.Integral):
        raise DTypeError(f"Range: `maxlen` must be an int, got {type(maxlen).__name__} "
                         f"{maxlen!r}")
    if maxlen <= 0:
        raise ArgumentValueError(f"For primitive[Range], the maxlen must be greater than 0, but "
                                 f"got {maxlen}.")
    return _range(start, end, step, maxlen=math.inf)


export(range_, name="range")
