"""The Bessel functions of order 0 and 1 (MindSpore's BesselJ0 ... BesselK1e): J and Y, the
modified I and K, and the exponentially scaled i0e = exp(-|x|) i0, i1e, k0e = exp(x) k0, k1e.

Each derivative is written with the family itself (j0' = -j1, j1' = j0 - j1 / x, with the
limit 1/2 at x = 0 for the odd ones), so the gradients differentiate again. The kernels are in
runtime/bessel_kernels.py. As MindSpore, they take float16, float32 and float64 only.
"""
from __future__ import annotations

from .batching import same_shape_rule
from .core import Primitive, TensorType
from .errors import DTypeError
from .math_ops import add, div, equal, mul, neg, select, sign, sub


def _bessel_type(x: TensorType) -> TensorType:
    if not x.dtype.is_float:
        raise DTypeError(f"expected a float16, float32 or float64 tensor x, got {x.dtype}")
    return x


def _bessel(name: str) -> Primitive:
    return Primitive(name, _bessel_type, public=True, operands=("x",), ops_module="math_ops")


bessel_j0, bessel_j1 = _bessel("bessel_j0"), _bessel("bessel_j1")
bessel_y0, bessel_y1 = _bessel("bessel_y0"), _bessel("bessel_y1")
bessel_i0, bessel_i1 = _bessel("bessel_i0"), _bessel("bessel_i1")
bessel_i0e, bessel_i1e = _bessel("bessel_i0e"), _bessel("bessel_i1e")
bessel_k0, bessel_k1 = _bessel("bessel_k0"), _bessel("bessel_k1")
bessel_k0e, bessel_k1e = _bessel("bessel_k0e"), _bessel("bessel_k1e")


def _over_x(value, x):
    """value / x, with the limit of an odd function's f(x)/x ratio term handled by the caller:
    x = 0 divides 1 instead, so no inf or nan reaches the select that replaces it."""
    zero = equal(x, 0)
    return div(value, select(zero, 1, x)), zero


def _odd_slope(even, odd, x):
    """even(x) - odd(x) / x, and 1/2 at x = 0 (the slope of j1 and i1 there)."""
    ratio, zero = _over_x(odd, x)
    return select(zero, 0.5, sub(even, ratio))


bessel_j0.def_bprop(lambda x, out, dout: (mul(dout, neg(bessel_j1(x))),))
bessel_j1.def_bprop(lambda x, out, dout: (mul(dout, _odd_slope(bessel_j0(x), out, x)),))
bessel_y0.def_bprop(lambda x, out, dout: (mul(dout, neg(bessel_y1(x))),))
bessel_y1.def_bprop(lambda x, out, dout: (mul(dout, sub(bessel_y0(x), div(out, x))),))
bessel_i0.def_bprop(lambda x, out, dout: (mul(dout, bessel_i1(x)),))
bessel_i1.def_bprop(lambda x, out, dout: (mul(dout, _odd_slope(bessel_i0(x), out, x)),))
bessel_i0e.def_bprop(lambda x, out, dout: (
    mul(dout, sub(bessel_i1e(x), mul(sign(x), out))),))
bessel_k0.def_bprop(lambda x, out, dout: (mul(dout, neg(bessel_k1(x))),))
bessel_k1.def_bprop(lambda x, out, dout: (
    mul(dout, neg(add(bessel_k0(x), div(out, x)))),))
bessel_k0e.def_bprop(lambda x, out, dout: (mul(dout, sub(out, bessel_k1e(x))),))
bessel_k1e.def_bprop(lambda x, out, dout: (
    mul(dout, sub(mul(out, sub(1, div(1, x))), bessel_k0e(x))),))


@bessel_i1e.def_bprop
def _i1e_bprop(x, out, dout):
    """i0e(x) - i1e(x) (sign(x) + 1/x), and 1/2 at x = 0."""
    ratio, zero = _over_x(out, x)
    slope = sub(bessel_i0e(x), add(mul(out, sign(x)), ratio))
    return (mul(dout, select(zero, 0.5, slope)),)


BESSEL = (bessel_j0, bessel_j1, bessel_y0, bessel_y1, bessel_i0, bessel_i1, bessel_i0e,
          bessel_i1e, bessel_k0, bessel_k1, bessel_k0e, bessel_k1e)
for _prim in BESSEL:
    _prim.def_batch(same_shape_rule(_prim))

__all__ = [p.name for p in BESSEL]
