"""Elementwise rounding, integer division and bitwise operations, and the logarithms and erfc
that have no primitive of their own elsewhere.

Rounding, floor division and bitwise results are piecewise constant in their inputs, so they
carry no gradient (as `sign`); floor_mod's is that of x - floor(x / y) * y.
"""
from __future__ import annotations

import math

from . import dtype as dt
from .array_ops import cast
from .batching import broadcasting_rule, same_shape_rule
from .core import FLOAT, SAME, Primitive, TensorType, abstract_of
from .errors import DTypeError
from .exports import export, export_class
from .math_ops import arith_type, div, exp, float_type, grad_like, mul, neg, reciprocal

_LN2, _LN10 = math.log(2), math.log(10)


def _numeric_type(x: TensorType, **params) -> TensorType:
    if x.dtype.is_bool:
        raise DTypeError(f"expected a numeric tensor, got {x.dtype}")
    return x.strong()


def _float_unary_type(x: TensorType) -> TensorType:
    if x.dtype.is_bool:
        raise DTypeError(f"expected a float or integer tensor, got {x.dtype}")
    return float_type(x)


def _numeric_arith_type(x: TensorType, y: TensorType) -> TensorType:
    # a bool operand beside a number is that number's type (MindSpore's implicit conversion)
    if x.dtype.is_bool and y.dtype.is_bool:
        raise DTypeError(f"expected numeric tensors, got {x.dtype} and {y.dtype}")
    return arith_type(x, y)


def _bitwise_type(x: TensorType, y: TensorType) -> TensorType:
    if x.dtype.is_float or y.dtype.is_float:
        raise DTypeError(f"expected integer or bool tensors, got {x.dtype} and {y.dtype}")
    return arith_type(x, y)


def _shift_type(x: TensorType, y: TensorType) -> TensorType:
    if not (x.dtype.is_int and y.dtype.is_int):
        raise DTypeError(f"expected integer tensors, got {x.dtype} and {y.dtype}")
    return arith_type(x, y)


def _elementwise(name, rule, label=None, promote=None, array_api=None, **kw):
    return Primitive(name, rule, label=label, promote=promote, array_api=array_api, public=True,
                     method=True, **kw)


floor = _elementwise("floor", _numeric_type, array_api="floor", nondifferentiable=True,
                     operands=("input",), spellings=("mint",), ops_module="math_ops")
ceil = _elementwise("ceil", _numeric_type, array_api="ceil", nondifferentiable=True,
                    operands=("input",), spellings=("mint",), ops_module="math_ops")
trunc = _elementwise("trunc", _numeric_type, array_api="trunc", nondifferentiable=True,
                     operands=("input",), spellings=("mint.fix", "mint"), ops_module="math_ops")
round_ = _elementwise("round", _numeric_type, params={"decimals": 0}, nondifferentiable=True,
                      operands=("input",), ops_module="math_ops")
log2 = _elementwise("log2", _float_unary_type, promote=FLOAT, array_api="log2", operands=("input",),
                    spellings=("numpy(x)", "mint"))
log10 = _elementwise("log10", _float_unary_type, promote=FLOAT, array_api="log10",
                     operands=("input",), spellings=("numpy(x)", "mint"))
erfc = _elementwise("erfc", _float_unary_type, promote=FLOAT, operands=("input",),
                    spellings=("mint",), ops_module="math_ops")
# kernels in runtime/kernels.py: an integer divided by 0 gives MindSpore's values
floor_div = _elementwise("floor_div", _numeric_arith_type, promote=SAME, nondifferentiable=True,
                         operands=("x", "y"), ops_module="math_ops")
floor_mod = _elementwise("floor_mod", _numeric_arith_type, promote=SAME, operands=("x", "y"),
                         ops_module="math_ops")
bitwise_and = _elementwise("bitwise_and", _bitwise_type, promote=SAME, array_api="bitwise_and",
                           nondifferentiable=True, operands=("input", "other"),
                           spellings=("numpy(x1, x2)", "mint"), ops_module="math_ops")
bitwise_or = _elementwise("bitwise_or", _bitwise_type, promote=SAME, array_api="bitwise_or",
                          nondifferentiable=True, operands=("input", "other"),
                          spellings=("numpy(x1, x2)", "mint"), ops_module="math_ops")
bitwise_xor = _elementwise("bitwise_xor", _bitwise_type, promote=SAME, array_api="bitwise_xor",
                           nondifferentiable=True, operands=("input", "other"),
                           spellings=("numpy(x1, x2)", "mint"), ops_module="math_ops")
bitwise_invert = _elementwise("bitwise_invert", lambda x: _bitwise_type(x, x), label="Invert",
                              array_api="bitwise_invert", nondifferentiable=True,
                              ops_module="math_ops")
bitwise_left_shift = _elementwise("bitwise_left_shift", _shift_type, label="LeftShift",
                                  promote=SAME, array_api="bitwise_left_shift",
                                  nondifferentiable=True, operands=("input", "other"))
bitwise_right_shift = _elementwise("bitwise_right_shift", _shift_type, label="RightShift",
                                   promote=SAME, array_api="bitwise_right_shift",
                                   nondifferentiable=True, operands=("input", "other"))

log2.def_bprop(lambda x, out, dout: (div(dout, mul(x, _LN2)),))
log10.def_bprop(lambda x, out, dout: (div(dout, mul(x, _LN10)),))
erfc.def_bprop(lambda x, out, dout: (
    mul(dout, mul(exp(neg(mul(x, x))), -2 / math.sqrt(math.pi))),))


@floor_mod.def_bprop
def _floor_mod_bprop(x, y, out, dout):
    # x mod y = x - floor(x / y) * y, with floor(x / y) piecewise constant
    quotient = floor(div(x, y))
    return grad_like(dout, x), grad_like(neg(mul(dout, quotient)), y)


for _prim in (floor, ceil, trunc, round_, log2, log10, erfc, bitwise_invert):
    _prim.def_batch(same_shape_rule(_prim))
for _prim in (floor_div, floor_mod, bitwise_and, bitwise_or, bitwise_xor, bitwise_left_shift,
              bitwise_right_shift):
    _prim.def_batch(broadcasting_rule(_prim))

def inv(x):
    """MindSpore's `ops.inv`: the elementwise reciprocal 1 / x (`ops.inverse` is the matrix
    inverse). An integer x keeps its dtype, as MindSpore's kernel does: 1 / x rounded toward
    zero (0 but for 1 and -1), and 1 / 0 the dtype's smallest value."""
    dtype = abstract_of(x).dtype
    if dtype.is_int:
        return cast(reciprocal(cast(x, dtype=dt.float64)), dtype=dtype)
    return reciprocal(x)


def invert(x):
    """MindSpore's `ops.invert`: the bitwise NOT of an integer x (the Invert
    primitive)."""
    return bitwise_invert(x)


export(inv)
export(invert)
export_class("Inv", inv, ops_module="math_ops")

__all__ = [
    "bitwise_and",
    "bitwise_invert",
    "bitwise_left_shift",
    "bitwise_or",
    "bitwise_right_shift",
    "bitwise_xor",
    "ceil",
    "erfc",
    "floor",
    "floor_div",
    "floor_mod",
    "inv",
    "invert",
    "log2",
    "log10",
    "round_",
    "trunc",
]
