"""The log-gamma function and its derivatives (digamma, polygamma of any order) and the inverse
error function.

Each derivative is the next function of the family (lgamma' = digamma = polygamma(0),
polygamma(n)' = polygamma(n + 1), erfinv' = sqrt(pi) / 2 * exp(erfinv^2)), so the gradients
differentiate again to any order. The kernels (runtime/kernels.py) are written with the array
API alone, so every backend computes them the same way without SciPy.
"""
from __future__ import annotations

import math
import numbers

from .batching import same_shape_rule
from .core import FLOAT, Primitive, TensorType
from .errors import ArgumentValueError, DTypeError
from .exports import export, export_class
from .math_ops import exp, mul
from .special_ops import _float_unary_type

_SQRT_PI_2 = math.sqrt(math.pi) / 2


def _polygamma_type(x: TensorType, n: int) -> TensorType:
    if n < 0:
        raise ArgumentValueError(f"expected an order n >= 0, got {n}")
    return _float_unary_type(x)


lgamma = Primitive("lgamma", _float_unary_type, promote=FLOAT, public=True, method=True,
                   operands=("input",), ops_module="math_ops")
digamma = Primitive("digamma", _float_unary_type, promote=FLOAT, public=True, method=True,
                    operands=("input",), ops_module="math_ops")
polygamma_p = Primitive("polygamma", _polygamma_type, promote=FLOAT)
erfinv = Primitive("erfinv", _float_unary_type, promote=FLOAT, public=True, method=True,
                   operands=("input",), spellings=("mint",), ops_module="math_ops")

lgamma.def_bprop(lambda x, out, dout: (mul(dout, digamma(x)),))
digamma.def_bprop(lambda x, out, dout: (mul(dout, polygamma_p(x, n=1)),))
polygamma_p.def_bprop(lambda x, out, dout, n: (mul(dout, polygamma_p(x, n=n + 1)),))
erfinv.def_bprop(lambda x, out, dout: (mul(dout, mul(exp(mul(out, out)), _SQRT_PI_2)),))

for _prim in (lgamma, digamma, polygamma_p, erfinv):
    _prim.def_batch(same_shape_rule(_prim))


def polygamma(n, input):
    """The n-th derivative of digamma at `input` (n = 0: digamma itself)."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise DTypeError(f"Polygamma: expected an int order n, got {type(n).__name__} {n!r}")
    return digamma(input) if n == 0 else polygamma_p(input, n=int(n))


export(polygamma)
export_class("Polygamma", polygamma, ops_module="math_ops")

__all__ = ["digamma", "erfinv", "lgamma", "polygamma"]
