"""The functional forms of operations cellgraph first wrote as Tensor methods
(`ops.tensor_overloads`), as mint functions or under another name: MindSpore's `ops` has each
of them too, under the parameter names given here, computing what the original computes."""
from __future__ import annotations

import math

from cellgraph.ops import tensor_overloads as _methods
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import DTypeError

__all__ = ["addcdiv", "adjoint", "arctan2", "copysign", "diagflat", "expand_as", "floordiv",
           "floormod", "fmax", "fmin", "gcd", "i0", "is_complex", "lcm", "ldexp", "logaddexp2", "msort",
           "mv", "nanmean", "numel", "ravel", "select_scatter", "sinc", "slice_scatter",
           "truncate_div", "truncate_mod", "type_as", "view_as", "xdivy"]


def _ops():
    from cellgraph import ops

    return ops


def _mint():
    from cellgraph import mint

    return mint


def _checked(op: str, input):
    if not hasattr(input, "aval") and not hasattr(input, "_data"):
        raise DTypeError(f"For '{op}', the input must be a Tensor, but got "
                         f"{type(input).__name__}.")
    return abstract_of(input)


def addcdiv(input, tensor1, tensor2, value=1):
    """input + value * tensor1 / tensor2."""
    return _mint().addcdiv(input, tensor1, tensor2, value=value)


def adjoint(x):
    """The conjugate transpose of the last two axes."""
    return _methods.adjoint(x)


def arctan2(input, other):
    """The angle of the point (other, input), elementwise."""
    return _ops().atan2(input, other)


def copysign(x, other):
    """|x| with the sign of `other` (a float result)."""
    return _methods.copysign(x, other)


def diagflat(input, offset=0):
    """A square matrix with the flattened input on diagonal `offset`."""
    return _methods.diagflat(input, offset)


def expand_as(input, other):
    """input broadcast to other's shape."""
    return _mint().expand_as(input, other)


def floordiv(input, other):
    """floor(input / other), elementwise."""
    return _ops().floor_divide(input, other)


def floormod(x, y):
    """x - floor(x / y) * y, elementwise."""
    return _ops().floor_mod(x, y)


def fmax(input, other):
    """The larger of the two where both are numbers; the number where one is NaN."""
    return _methods.fmax(input, other)


def fmin(input, other):
    """The smaller of the two where both are numbers; the number where one is NaN."""
    return _methods.fmin(input, other)


def gcd(input, other):
    """The greatest common divisor of two integer Tensors, elementwise."""
    return _methods.gcd(input, other)


def lcm(input, other):
    """The least common multiple of two integer Tensors, elementwise."""
    return _methods.lcm(input, other)


def i0(input):
    """The modified Bessel function of the first kind of order 0 (`bessel_i0`)."""
    return _ops().bessel_i0(input)


def is_complex(input):
    """Whether the Tensor's dtype is complex (a Python bool)."""
    return _checked("is_complex", input).dtype.is_complex


def ldexp(x, other):
    """x * 2 ** other."""
    return _methods.ldexp(x, other)


def logaddexp2(input, other):
    """log2(2 ** input + 2 ** other)."""
    return _methods.logaddexp2(input, other)


def msort(input):
    """The Tensor sorted along its first axis."""
    return _methods.msort(input)


def mv(mat, vec):
    """The product of the matrix `mat` and the vector `vec`."""
    return _mint().mv(mat, vec)


def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """The mean of the elements that are not NaN."""
    return _methods.nanmean(input, axis, keepdims, dtype=dtype)


def numel(input):
    """The number of elements (a Python int)."""
    return math.prod(_checked("numel", input).shape)


def ravel(input):
    """The Tensor flattened to one axis."""
    _checked("ravel", input)
    return F.reshape(input, (-1,))


def select_scatter(input, src, axis, index):
    """input with `src` written at `index` along `axis`."""
    return _methods.select_scatter(input, src, axis, index)


def sinc(input):
    """sin(pi x) / (pi x), 1 at 0."""
    return _mint().sinc(input)


def slice_scatter(input, src, axis=0, start=None, end=None, step=1):
    """input with `src` written into the slice start:end:step along `axis`."""
    return _methods.slice_scatter(input, src, axis, start, end, step)


def truncate_div(x, y):
    """x / y rounded toward zero."""
    return _ops().TruncateDiv()(x, y)


def truncate_mod(x, y):
    """The remainder of the division rounded toward zero (the sign of x)."""
    return _ops().TruncateMod()(x, y)


def type_as(input, other):
    """input cast to other's dtype."""
    return F.cast(input, _checked("type_as", other).dtype)


def view_as(input, other):
    """input reshaped to other's shape."""
    return F.reshape(input, tuple(_checked("view_as", other).shape))


def xdivy(x, y):
    """x / y, 0 where x is 0."""
    return _ops().Xdivy()(x, y)
