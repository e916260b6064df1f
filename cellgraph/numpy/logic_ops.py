"""`mindspore.numpy.logic_ops`: comparisons, logical functions and element tests (equal,
logical_and, isnan, isclose, isin, ...)."""
from __future__ import annotations

import cellgraph.ops as P
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as dt

from .array_creations import asarray
from .utils import _binary, _cast, _dtype, _unary

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
