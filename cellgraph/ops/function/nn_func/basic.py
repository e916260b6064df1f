"""The functions of nn's basic layers and metrics: `dense`, `pairwise_distance`, `intopk`."""
from __future__ import annotations

import numbers

from cellgraph.ops.function.array_func.attributes import _tensor
from cellgraph.ops.function.array_func.indexing import _int_operand, gather_elements
from cellgraph.ops.function.math_func.elementwise import isfinite
from cellgraph.ops.function.nn_func.normalization import _lp_norm
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import DTypeError, ShapeError

__all__ = ["dense", "intopk", "pairwise_distance"]


def dense(input, weight, bias=None):
    """input @ weight^T + bias: `weight` (out, in) or (in,) (then the last axis is summed away),
    `bias` broadcast over the output's last axis."""
    x, w = _tensor(input, "dense"), _tensor(weight, "dense", "weight")
    if w.ndim not in (1, 2):
        raise ShapeError(f"dense: `weight` must be 1-D or 2-D, got shape {w.shape}")
    if x.ndim == 0 or x.shape[-1] != w.shape[-1]:
        raise ShapeError(f"dense: the last dimension of `input` {x.shape} must equal the input "
                         f"features of `weight` {w.shape}")
    out = F.matmul(input, weight if w.ndim == 1 else A.transpose(weight, perm=(1, 0)))
    return out if bias is None else M.add(out, bias)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of x1 - x2 + eps along the last axis."""
    diff = M.add(M.sub(x1, x2), eps)
    return _lp_norm(diff, -1, p, keepdim, 0.0)


def intopk(x1, x2, k):
    """For each row i, whether x1[i, x2[i]] is among the row's k largest values; ties at the
    boundary count as in (fewer than k values are strictly greater), a non-finite target or an
    out-of-range label does not."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise DTypeError(f"intopk: expected an int `k`, got {k!r}")
    t1, t2 = abstract_of(x1), abstract_of(_int_operand(x2, "x2", "intopk"))
    if t1.ndim != 2 or t2.shape != t1.shape[:1]:
        raise ShapeError(f"intopk: expected x1 of shape (N, C) and x2 of shape (N,), got "
                         f"{t1.shape} and {t2.shape}")
    labels = F.cast(x2, dt.int64)
    valid = (labels >= 0) & (labels < t1.shape[1])
    safe = F.select(valid, labels, F.zeros_like(labels))
    target = gather_elements(x1, 1, F.reshape(safe, (-1, 1)))
    greater = F.reduce_sum(F.cast(x1 > target, dt.int32), 1)
    finite = F.reshape(isfinite(target), (-1,))
    return (greater < int(k)) & finite & valid
