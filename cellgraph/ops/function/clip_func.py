"""MindSpore's `ops.function.clip_func`: clipping by norm, as a composition of existing
operations."""
from __future__ import annotations

import numpy as np

from cellgraph.ops.function._fallback import functional_fallback
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives.core import abstract_of, running_eagerly

__all__ = ["clip_by_norm"]


def clip_by_norm(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """A Tensor, or each of a tuple of Tensors, scaled by max_norm / (total norm + 1e-6) when
    that is below one; the total norm is over all of them together."""
    tensors = tuple(x) if isinstance(x, (tuple, list)) else (x,)
    p = float(norm_type)
    if p == float("inf"):
        total = F.reduce_max(F.stack([F.reduce_max(M.abs_(t)) for t in tensors]))
    else:
        powered = [F.reduce_sum(M.abs_(t) ** p) for t in tensors]
        total = F.reduce_sum(F.stack(powered)) ** (1.0 / p)
    if error_if_nonfinite and running_eagerly() and not np.isfinite(total.asnumpy()):
        raise RuntimeError(f"clip_by_norm: the total norm {total.asnumpy()} is not finite")
    coef = M.minimum(M.div(max_norm, M.add(total, 1e-6)), 1.0)
    clipped = tuple(M.mul(t, F.cast(coef, abstract_of(t).dtype)) for t in tensors)
    return clipped if isinstance(x, (tuple, list)) else clipped[0]


# the functional operations defined elsewhere (the primitives, the other modules)
__getattr__, __dir__ = functional_fallback(globals())
