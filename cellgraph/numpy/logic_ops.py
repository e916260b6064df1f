"""`mindspore.numpy.logic_ops`: comparisons, logical functions and element tests (equal,
logical_and, isnan, isclose, isin, ...)."""
from __future__ import annotations

import cellgraph.ops as P
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as dt

from .array_creations import asarray
from .utils import _binary, _bool_arg, _cast, _dtype, _unary, take_tensors_only

__all__ = [
    "equal", "greater", "greater_equal", "isclose", "isfinite", "isin", "isinf", "isnan", "less",
    "less_equal", "logical_and", "logical_not", "logical_or", "logical_xor", "not_equal",
]

equal, not_equal = _binary(F.equal, "equal"), _binary(F.not_equal, "not_equal")


less, less_equal = _binary(F.less, "less"), _binary(F.less_equal, "less_equal")


greater, greater_equal = _binary(F.greater, "greater"), _binary(F.greater_equal, "greater_equal")


logical_and, logical_or = _binary(F.logical_and, "logical_and"), _binary(F.logical_or,
                                                                          "logical_or")


def logical_not(a, dtype=None):
    return _cast(F.logical_not(asarray(a)), _dtype(dtype, "logical_not"))


def logical_xor(x1, x2, dtype=None):
    a, b = asarray(x1), asarray(x2)
    return _cast(F.not_equal(F.cast(a, dt.bool_), F.cast(b, dt.bool_)),
                 _dtype(dtype, "logical_xor"))


def isnan(x, dtype=None):
    return _cast(P.isnan(asarray(x)), _dtype(dtype, "isnan"))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return P.isclose(asarray(a), asarray(b), rtol, atol, equal_nan)


isfinite, isinf = _unary(P.isfinite, "isfinite"), _unary(P.isinf, "isinf")


def isin(element, test_elements, invert=False):
    """Whether each element occurs in test_elements (element's shape)."""
    element, tests = asarray(element), F.reshape(asarray(test_elements), (-1,))
    found = P.any(F.equal(F.expand_dims(element, -1), tests), -1)
    return F.logical_not(found) if invert else found


# ----- more of NumPy's logic functions ----------------------------------------------------------

__all__ += ["array_equal", "array_equiv", "in1d", "isneginf", "isposinf", "isscalar",
            "setdiff1d", "signbit", "sometrue"]


def array_equal(a1, a2, equal_nan=False):
    """Whether the two arrays have one shape and equal elements (NaNs equal with
    `equal_nan`): a bool Tensor."""
    a1, a2 = asarray(a1), asarray(a2)
    if tuple(a1.shape) != tuple(a2.shape):
        return asarray(False)
    same = F.equal(a1, a2)
    if equal_nan and a1.dtype.is_float:
        same = P.logical_or(same, P.logical_and(P.isnan(a1), P.isnan(a2)))
    return P.all(same)


def array_equiv(a1, a2):
    """Whether the two arrays broadcast together and are equal everywhere: a bool Tensor."""
    from cellgraph.primitives.core import broadcast_shapes
    from cellgraph.primitives.errors import ShapeError

    a1, a2 = asarray(a1), asarray(a2)
    try:
        broadcast_shapes(tuple(a1.shape), tuple(a2.shape))
    except ShapeError:
        return asarray(False)
    return P.all(F.equal(a1, a2))


def in1d(ar1, ar2, invert=False):
    """For each element of the flattened ar1, whether it is in ar2."""
    return isin(F.reshape(asarray(ar1), (-1,)), ar2, invert)


def isneginf(x):
    """Where x is -inf."""
    x = asarray(x)
    return P.logical_and(P.isinf(x), P.signbit(x))


def isposinf(x):
    """Where x is +inf."""
    x = asarray(x)
    return P.logical_and(P.isinf(x), P.logical_not(P.signbit(x)))


def isscalar(element):
    """Whether `element` is a Python or NumPy scalar (a Tensor is not)."""
    import numbers

    import numpy as onp

    return isinstance(element, (numbers.Number, str, bytes, onp.generic))


def setdiff1d(ar1, ar2, assume_unique=False):
    """The sorted unique values of ar1 that are not in ar2."""
    from .array_ops import unique

    values = F.reshape(asarray(ar1), (-1,)) if assume_unique else unique(asarray(ar1))
    keep = isin(values, ar2, invert=True)
    return P.masked_select(values, keep)


signbit = _unary(P.signbit, "signbit")


def sometrue(a, axis=None, keepdims=False):
    """Whether any element along `axis` is true (`any`)."""
    _bool_arg(keepdims, "sometrue", "keepdims")
    return P.any(F.cast(asarray(a), dt.bool_), axis, keepdims)


take_tensors_only(globals())
