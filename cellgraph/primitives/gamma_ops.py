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

from . import dtype as dt
from .array_ops import broadcast_to
from .batching import batch_size, broadcasting_rule, same_shape_rule, to_front
from .check_convert import check_tensor_types_same
from .core import FLOAT, Primitive, TensorType, abstract_of, broadcast_shapes, value_input
from .errors import ArgumentValueError, DTypeError
from .exports import export, export_class
from .math_ops import add, exp, grad_like, log, mul, neg, sub
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


# ----- the regularized incomplete gamma functions -----------------------------------------------
# P(a, x) = gamma(a, x) / Gamma(a) (igamma) and Q = 1 - P (igammac), MindSpore's Igamma and
# Igammac; igamma_da(order=k) is d^k P / da^k (k = 1: MindSpore's IgammaGradA), whose own
# derivatives are igamma_da(order=k + 1) in a and the k-th a-derivative of the density in x, so
# every order is available. The kernels (runtime/kernels.py) sum the power series where
# x < a + 1 and evaluate the continued fraction of Q elsewhere, in float64, the derivatives in
# a carried along as truncated Taylor series.

def _igamma_type(a: TensorType, x: TensorType) -> TensorType:
    check_tensor_types_same("Igamma", {"a": a.dtype, "x": x.dtype}, (dt.float32, dt.float64))
    return TensorType(broadcast_shapes(a.shape, x.shape), a.dtype)


igamma = Primitive("igamma", _igamma_type, label="Igamma", public=True, method=True,
                   operands=("input", "other"), ops_module="math_ops")
igammac = Primitive("igammac", _igamma_type, label="Igammac", public=True, method=True,
                    operands=("input", "other"), ops_module="math_ops")


def _igamma_da_type(a: TensorType, x: TensorType, order: int) -> TensorType:
    if order < 1:
        raise ArgumentValueError(f"expected an order >= 1, got {order}")
    return _igamma_type(a, x)


# d^order P(a, x) / da^order; order 1 is MindSpore's IgammaGradA
igamma_da = Primitive("igamma_da", _igamma_da_type, label="IgammaGradA", params={"order": 1})


def _density_da(a, x, order: int):
    """d^order/da^order of dP/dx = exp(D), D = (a - 1) log x - x - lgamma(a): the derivatives of
    exp(D) from D' = log x - digamma(a), D^(j) = -polygamma(j - 1, a), by the recurrence
    (e^D)^(n) = sum_j C(n - 1, j) D^(j + 1) (e^D)^(n - 1 - j)."""
    d = [sub(sub(mul(sub(a, 1.0), log(x)), x), lgamma(a)), sub(log(x), digamma(a))]
    d += [neg(polygamma_p(a, n=j - 1)) for j in range(2, order + 1)]
    out = [exp(d[0])]
    for n in range(1, order + 1):
        total = None
        for j in range(n):
            term = mul(d[j + 1], out[n - 1 - j])
            term = term if math.comb(n - 1, j) == 1 else mul(term, float(math.comb(n - 1, j)))
            total = term if total is None else add(total, term)
        out.append(total)
    return out[order]


@igamma.def_bprop
def _igamma_bprop(a, x, out, dout):
    return (grad_like(mul(dout, igamma_da(a, x, order=1)), a),
            grad_like(mul(dout, _density_da(a, x, 0)), x))


@igammac.def_bprop
def _igammac_bprop(a, x, out, dout):
    return (grad_like(neg(mul(dout, igamma_da(a, x, order=1))), a),
            grad_like(neg(mul(dout, _density_da(a, x, 0))), x))


@igamma_da.def_bprop
def _igamma_da_bprop(a, x, out, dout, order):
    return (grad_like(mul(dout, igamma_da(a, x, order=order + 1)), a),
            grad_like(mul(dout, _density_da(a, x, order)), x))



def _zeta_type(x: TensorType, q: TensorType) -> TensorType:
    check_tensor_types_same("Zeta", {"q": q.dtype, "x": x.dtype}, (dt.float32, dt.float64))
    if x.shape != q.shape:
        raise ArgumentValueError(f"ZetaShape of x{x.shape} are not consistent with the shape "
                                 f"q{q.shape}".replace(",)", ")"))
    return x


# The Hurwitz zeta function zeta(x, q) = sum_k (q + k)^-x and zeta_dx, its order-th derivative
# in x. The derivative in q is -x zeta(x + 1, q). MindSpore's gradient in x is zero, which is
# wrong; here it is the derivative, -sum_k log(q + k) (q + k)^-x (the README lists it).
zeta = Primitive("zeta", _zeta_type, public=True, operands=("input", "other"),
                 ops_module="math_ops")


def _zeta_dx_type(x: TensorType, q: TensorType, order: int) -> TensorType:
    if order < 1:
        raise ArgumentValueError(f"expected an order >= 1, got {order}")
    return _zeta_type(x, q)


zeta_dx = Primitive("zeta_dx", _zeta_dx_type, params={"order": 1})


def _zeta_of_order(x, q, order: int):
    return zeta(x, q) if order == 0 else zeta_dx(x, q, order=order)


def _zeta_dq(x, q, order: int):
    """d/dq of d^order/dx^order zeta(x, q) = d^order/dx^order (-x zeta(x + 1, q)) =
    -(x zeta^(order)(x + 1, q) + order zeta^(order - 1)(x + 1, q))."""
    shifted = add(x, 1.0)
    out = mul(x, _zeta_of_order(shifted, q, order))
    if order:
        out = add(out, mul(_zeta_of_order(shifted, q, order - 1), float(order)))
    return neg(out)


@zeta.def_bprop
def _zeta_bprop(x, q, out, dout):
    return mul(dout, zeta_dx(x, q, order=1)), mul(dout, _zeta_dq(x, q, 0))


@zeta_dx.def_bprop
def _zeta_dx_bprop(x, q, out, dout, order):
    return mul(dout, zeta_dx(x, q, order=order + 1)), mul(dout, _zeta_dq(x, q, order))


for _prim in (igamma, igammac, igamma_da):
    _prim.def_batch(broadcasting_rule(_prim))


def _one_shape_rule(prim):
    """zeta takes operands of one shape: the batch axes go to the front, and an unbatched
    operand is repeated along it."""
    def rule(args, dims, **params):
        size = batch_size(args, dims)
        operands = [to_front(x, d) if d is not None else
                    broadcast_to(x, shape=(size,) + tuple(abstract_of(x).shape))
                    for x, d in zip(args, dims)]
        return prim(*operands, **params), 0
    return rule


for _prim in (zeta, zeta_dx):
    _prim.def_batch(_one_shape_rule(_prim))


def igamma_grad_a(a, x):
    """dP(a, x)/da: MindSpore's IgammaGradA."""
    return igamma_da(a, x, order=1)


def polygamma(n, input):
    """The n-th derivative of digamma at `input` (n = 0: digamma itself). `n` is an int, or a
    0-d integer Tensor as MindSpore's Polygamma takes it (its value known when compiling)."""
    if hasattr(n, "aval") and abstract_of(n).dtype.is_int and abstract_of(n).ndim == 0:
        n = int(value_input(n, "Polygamma", "n"))
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise DTypeError(f"Polygamma: expected an int order n, got {type(n).__name__} {n!r}")
    return digamma(input) if n == 0 else polygamma_p(input, n=int(n))


export(polygamma)
export_class("Polygamma", polygamma, ops_module="math_ops")

__all__ = ["digamma", "erfinv", "igamma", "igamma_grad_a", "igammac", "lgamma", "polygamma", "zeta",
           "zeta_dx"]
