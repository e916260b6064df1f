"""Layers over one math op: MatMul and ReduceLogSumExp."""
from __future__ import annotations

import math

import numpy as np

import cellgraph.ops as P
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as _core
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Tensor

from ..cell import Cell

__all__ = ["CosineSimilarity", "DiGamma", "IGamma", "LBeta", "LGamma", "MatDet", "MatInverse", "MatMul", "Moments", "Range",
           "ReduceLogSumExp"]


class MatMul(Cell):
    """x1 @ x2 with NumPy's broadcasting of the leading axes; `transpose_x1`/`transpose_x2`
    swap the last two axes of an operand of rank >= 2 first (a 1-D operand is a vector)."""

    def __init__(self, transpose_x1=False, transpose_x2=False):
        super().__init__()
        for name, value in (("transpose_x1", transpose_x1), ("transpose_x2", transpose_x2)):
            if not isinstance(value, bool):
                raise DTypeError(f"MatMul: `{name}` must be a bool, got {value!r}")
        self.transpose_x1, self.transpose_x2 = transpose_x1, transpose_x2

    def construct(self, x1, x2):
        if self.transpose_x1 and x1.ndim > 1:
            x1 = x1.swapaxes(-1, -2)
        if self.transpose_x2 and x2.ndim > 1:
            x2 = x2.swapaxes(-1, -2)
        return P.matmul(x1, x2)


class ReduceLogSumExp(Cell):
    """log(sum(exp(x))) over `axis`, computed as max + log(sum(exp(x - max)))."""

    def __init__(self, axis, keep_dims=False):
        super().__init__()
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        top = P.stop_gradient(_core.reduce_max(x, self.axis, True))
        out = P.add(P.log(_core.reduce_sum(P.exp(P.sub(x, top)), self.axis, True)), top)
        return out if self.keep_dims else P.squeeze(out, self._axes(len(x.shape)))

    def _axes(self, ndim: int) -> tuple:
        axes = self.axis if isinstance(self.axis, (tuple, list)) else (self.axis,)
        return tuple(a % ndim for a in axes) if axes else tuple(range(ndim))


def _float16_or_32(op: str, name: str, x) -> None:
    if x.dtype not in (dt.float16, dt.float32):
        raise DTypeError(f"{op}: `{name}` must be float16 or float32, got {x.dtype}")


class Range(Cell):
    """The constant Tensor np.arange(start, limit, delta): float32 when that is a float
    array, else int32."""

    def __init__(self, start, limit=None, delta=1):
        super().__init__()
        if delta == 0:
            raise ArgumentValueError("Range: `delta` can not be zero")
        data = np.arange(start, limit, delta)
        kind = dt.float32 if data.dtype.kind == "f" else dt.int32
        self.result_tensor = Tensor(data, kind)

    def construct(self):
        return self.result_tensor


class CosineSimilarity(Cell):
    """sum(x1 x2) / sqrt(max(sum(x1^2) sum(x2^2), eps^2)) along `dim` (0 where that
    denominator is 0, as MindSpore's DivNoNan)."""

    def __init__(self, dim=1, eps=1e-08):
        super().__init__()
        self.dim, self.eps = dim, eps

    def construct(self, x1, x2):
        for name, value in (("x1", x1), ("x2", x2)):
            if not hasattr(value, "aval"):
                raise DTypeError(f"For 'CosineSimilarity', '{name}' must be a tensor, but got "
                                 f"{type(value)}")
        w12 = P.reduce_sum(P.mul(x1, x2), self.dim)
        w1 = P.reduce_sum(P.mul(x1, x1), self.dim)
        w2 = P.reduce_sum(P.mul(x2, x2), self.dim)
        n12 = P.sqrt(P.maximum(P.mul(w1, w2), self.eps * self.eps))
        zero = P.equal(n12, 0)
        return P.select(zero, P.zeros_like(w12), P.div(w12, P.select(zero, P.ones_like(n12), n12)))

    def extend_repr(self) -> str:
        return f"dim={self.dim}, eps={self.eps}"


class Moments(Cell):
    """(mean, variance) over `axis` (all axes by default), the variance the mean of squared
    differences; float16 inputs are computed in float32 and the results cast back."""

    def __init__(self, axis=None, keep_dims=None):
        super().__init__()
        axis = () if axis is None else axis
        items = axis if isinstance(axis, tuple) else (axis,)
        if any(isinstance(a, bool) or not isinstance(a, int) for a in items):
            raise DTypeError(f"Moments: `axis` must be an int or a tuple of ints, got {axis!r}")
        keep_dims = False if keep_dims is None else keep_dims
        if not isinstance(keep_dims, bool):
            raise DTypeError(f"Moments: `keep_dims` must be a bool, got "
                             f"{type(keep_dims).__name__}")
        self.axis, self.keep_dims = axis, keep_dims

    def construct(self, x):
        _float16_or_32("Moments", "input x", x)
        half = x.dtype == dt.float16
        if half:
            x = P.cast(x, dt.float32)
        mean = P.mean(x, self.axis, keep_dims=True)
        variance = P.mean(P.square(P.sub(x, P.stop_gradient(mean))), self.axis, keep_dims=True)
        if not self.keep_dims:
            axes = self.axis if self.axis != () else tuple(range(len(x.shape)))
            mean, variance = P.squeeze(mean, axes), P.squeeze(variance, axes)
        if half:
            return P.cast(mean, dt.float16), P.cast(variance, dt.float16)
        return mean, variance


class MatDet(Cell):
    """The determinant of each symmetric positive-definite matrix in (..., M, M)."""

    def __init__(self):
        super().__init__()

    def construct(self, a):
        _float16_or_32("MatDet", "input_a", a)
        return P.det(a)


class MatInverse(Cell):
    """The inverse of each symmetric positive-definite matrix in (..., M, M), as MindSpore
    computes it: L^-T L^-1 from the Cholesky factor L (its `matmul` child, transposing the
    first operand)."""

    def __init__(self):
        super().__init__()
        self.matmul = MatMul(transpose_x1=True)

    def construct(self, a):
        _float16_or_32("MatInverse", "input_a", a)
        l_inverse = P.inverse(P.cholesky(a))
        return self.matmul(l_inverse, l_inverse)


class LGamma(Cell):
    """log |Gamma(x)| elementwise."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        _float16_or_32("LGamma", "x", x)
        return P.lgamma(x)


class IGamma(Cell):
    """The regularized lower incomplete gamma function P(a, x), elementwise (a and x
    broadcast), for float32 Tensors."""

    def __init__(self):
        super().__init__()

    def construct(self, a, x):
        for name, value in (("a", a), ("x", x)):
            if value.dtype != dt.float32:
                raise DTypeError(f"For 'IGamma', the '{name}' should be Float32, but got "
                                 f"'{value.dtype}'.")
        return P.igamma(a, x)


_LBETA_MINIMAX = (-0.165322962780713e-02, 0.837308034031215e-03, -0.595202931351870e-03,
                  0.793650666825390e-03, -0.277777777760991e-02, 0.833333333333333e-01)


def _log_gamma_correction(x):
    """lgamma(x) less its Stirling approximation, by the minimax polynomial in 1/x^2 (x >= 8)."""
    inverse = 1.0 / x
    inverse_squared = inverse * inverse
    accum = _LBETA_MINIMAX[0]
    for coeff in _LBETA_MINIMAX[1:]:
        accum = accum * inverse_squared + coeff
    return accum * inverse


class LBeta(Cell):
    """log|Beta(x, y)| = lgamma(x) + lgamma(y) - lgamma(x + y), elementwise with broadcasting.
    Where an argument is 8 or more, the large lgammas are cancelled analytically (Stirling's
    series and its correction), avoiding the catastrophic cancellation of the plain sum."""

    def __init__(self):
        super().__init__()
        self.lgamma = LGamma()

    def construct(self, x, y):
        if x.dtype not in (dt.float16, dt.float32):
            raise DTypeError(f"For 'LBeta', the 'x' should be one of [mindspore.float16, "
                             f"mindspore.float32], but got 'mindspore.{str(x.dtype).lower()}'.")
        if y.dtype != x.dtype:
            raise DTypeError(f"For 'LBeta', the 'y' should be {x.dtype}, but got "
                             f"'mindspore.{str(y.dtype).lower()}'.")
        x_plus_y = x + y
        x = P.broadcast_to(x, x_plus_y.shape)
        y = P.broadcast_to(y, x_plus_y.shape)
        less = P.less(x, y)
        x_min = P.select(less, x, y)
        y_max = P.select(less, y, x)
        corr_x, corr_y = _log_gamma_correction(x_min), _log_gamma_correction(y_max)
        corr_xy = _log_gamma_correction(x_plus_y)
        # both arguments >= 8
        two_large = (0.5 * math.log(2 * math.pi) - 0.5 * P.log(y_max) + corr_x + corr_y - corr_xy
                     + (x_min - 0.5) * P.log(x_min / (x_min + y_max))
                     - y_max * P.log1p(x_min / y_max))
        # x < 8 <= y: lgamma(y) - lgamma(x + y) with the large terms cancelled
        cancelled_stirling = (-1 * (x_min + y_max - 0.5) * P.log1p(x_min / y_max)
                              - x_min * P.log(y_max) + x_min)
        one_large = self.lgamma(x_min) + corr_y - corr_xy + cancelled_stirling
        small = self.lgamma(x_min) + self.lgamma(y_max) - self.lgamma(x_min + y_max)
        return P.select(x_min < 8, P.select(y_max < 8, small, one_large), two_large)


class DiGamma(Cell):
    """The digamma function d/dx log Gamma(x) elementwise."""

    def __init__(self):
        super().__init__()

    def construct(self, x):
        _float16_or_32("DiGamma", "x", x)
        return P.digamma(x)
