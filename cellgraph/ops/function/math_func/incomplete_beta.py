"""The regularized incomplete beta function I_x(a, b) (MindSpore's Betainc) as a composition:
the continued fraction of Numerical Recipes' betacf to a fixed depth, its convergents as a tree
of 2x2 matrix products (a few dozen vector operations), on whichever of (a, b, x) and
(b, a, 1 - x) it converges fast for (x < (a + 1) / (a + b + 2)), in float64. Being ops throughout, it differentiates in a, b and x
to any order; MindSpore's gradient is the derivative in x and zeros for a and b, which is wrong
for those two."""
from __future__ import annotations

import numpy as np

from cellgraph.ops.function.array_func.attributes import _tensor
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.check_convert import check_tensor_types_same
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError
from cellgraph.primitives.gamma_ops import lgamma

_PAIRS = 128  # continued-fraction term pairs (a power of two): float64-exact for a + b in the
# hundreds


def _terms(a, b, x):
    """(..., 2 * _PAIRS) continued-fraction coefficients d_1, d_2, ...: d_2m+1 = -(a + m)
    (a + b + m) x / ((a + 2m)(a + 2m + 1)), d_2m = m (b - m) x / ((a + 2m - 1)(a + 2m)), and a
    final 0 (which leaves the value as it is)."""
    a, b, x = (F.expand_dims(v, -1) for v in (a, b, x))
    m = np.arange(_PAIRS, dtype=np.float64)
    odd = F.div(F.mul(F.neg(F.mul(F.add(a, m), F.add(F.add(a, b), m))), x),
                F.mul(F.add(a, 2.0 * m), F.add(a, 2.0 * m + 1.0)))
    n = m[1:]
    even = F.div(F.mul(F.mul(F.sub(b, n), n), x), F.mul(F.add(a, 2.0 * n - 1.0),
                                                           F.add(a, 2.0 * n)))
    even = F.concat((even, F.zeros_like(F.getitem(odd, (Ellipsis, slice(0, 1))))), -1)
    pairs = F.stack((odd, even), -1)                                   # (..., _PAIRS, 2)
    shape = tuple(abstract_of(pairs).shape)
    return F.reshape(pairs, shape[:-2] + (2 * _PAIRS,))


def _fraction(d):
    """1 + d_1 / (1 + d_2 / (1 + ...)): the convergents' recurrence as the product of the
    matrices [[1, 1], [d_k, 0]], multiplied pairwise in a tree (each level rescaled by its
    largest entry, which the ratio ignores), the value A / B of the product's first column."""
    p00, p01, p10, p11 = F.ones_like(d), F.ones_like(d), d, F.zeros_like(d)
    while abstract_of(p00).shape[-1] > 1:
        left = [F.getitem(p, (Ellipsis, slice(0, None, 2))) for p in (p00, p01, p10, p11)]
        right = [F.getitem(p, (Ellipsis, slice(1, None, 2))) for p in (p00, p01, p10, p11)]
        (l00, l01, l10, l11), (r00, r01, r10, r11) = left, right
        p00 = F.add(F.mul(l00, r00), F.mul(l01, r10))
        p01 = F.add(F.mul(l00, r01), F.mul(l01, r11))
        p10 = F.add(F.mul(l10, r00), F.mul(l11, r10))
        p11 = F.add(F.mul(l10, r01), F.mul(l11, r11))
        scale = F.maximum(F.maximum(F.abs(p00), F.abs(p01)), F.maximum(F.abs(p10), F.abs(p11)))
        p00, p01, p10, p11 = (F.div(p, scale) for p in (p00, p01, p10, p11))
    return F.squeeze(F.div(F.add(p00, p10), p00), -1)


def _continued_fraction(a, b, x):
    """I_x(a, b) where x < (a + 1) / (a + b + 2): x^a (1 - x)^b / (a B(a, b)) / (1 + d1 / (1 +
    d2 / (1 + ...)))."""
    tail = _fraction(_terms(a, b, x))
    log_beta = F.sub(F.add(lgamma(a), lgamma(b)), lgamma(F.add(a, b)))
    log_front = F.sub(F.add(F.mul(a, F.log(x)), F.mul(b, F.log1p(F.neg(x)))), log_beta)
    return F.div(F.exp(log_front), F.mul(a, tail))


def betainc(a, b, x):
    """I_x(a, b) of float32 or float64 Tensors of one shape: 0 at x = 0, 1 at x = 1, NaN
    outside a, b > 0 and 0 <= x <= 1."""
    op = "Betainc"
    types = [_tensor(v, op, name) for v, name in ((a, "a"), (b, "b"), (x, "x"))]
    check_tensor_types_same(op, {name: t.dtype for name, t in zip("abx", types)},
                            (dt.float32, dt.float64))
    for value, name in zip(types[1:], "bx"):
        if tuple(value.shape) != tuple(types[0].shape):
            raise ArgumentValueError(f"For '{op}, shape of {name} {tuple(value.shape)} are not "
                                     f"consistent with the shape a {tuple(types[0].shape)} .")
    dtype = types[0].dtype
    a, b, x = (F.cast(v, dt.float64) for v in (a, b, x))
    inside = F.logical_and(F.greater(x, 0.0), F.less(x, 1.0))
    safe_x = F.select(inside, x, F.fill(dt.float64, tuple(types[0].shape), 0.5))
    direct = F.less(safe_x, F.div(F.add(a, 1.0), F.add(F.add(a, b), 2.0)))
    near = _continued_fraction(a, b, safe_x)
    far = F.sub(1.0, _continued_fraction(b, a, F.sub(1.0, safe_x)))
    value = F.select(direct, near, far)
    value = F.select(inside, value, F.select(F.less_equal(x, 0.0), F.zeros_like(x),
                                             F.ones_like(x)))
    valid = F.logical_and(F.logical_and(F.greater(a, 0.0), F.greater(b, 0.0)),
                          F.logical_and(F.greater_equal(x, 0.0), F.less_equal(x, 1.0)))
    value = F.select(valid, value, F.fill(dt.float64, tuple(types[0].shape), float("nan")))
    return F.cast(value, dtype)
