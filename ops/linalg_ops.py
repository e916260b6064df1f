"""Linear algebra on stacks of matrices (the last two axes; the leading ones are a batch):
inverse, determinant, Cholesky factor, linear solve.

The gradients are the classical matrix-calculus ones written with matmul, inverse and
elementwise ops, so they differentiate again:
    d inv(A)   = -inv(A)^T dY inv(A)^T
    d det(A)   = dy det(A) inv(A)^T
    d solve    : dB = solve(A^T, dX), dA = -dB X^T
    d cholesky : with P = L^T dL and Phi(P) its lower triangle with a halved diagonal,
                 S = L^-T Phi(P) L^-1 and dA = (S + S^T) / 2.
The Cholesky kernel factors the symmetric part (A + A^T) / 2, so that this symmetric gradient
is the derivative of the function computed (a symmetric input is unchanged by it).
"""
from __future__ import annotations

import numpy as np

from .array_ops import reshape, transpose
from .batching import batch_size, batched_front
from .core import Primitive, TensorType, abstract_of, fmt_shape
from .derive import export, export_class
from .errors import DTypeError, ShapeError
from .math_ops import add, matmul, mul, neg


def _square_stack(a: TensorType, what: str = "input") -> TensorType:
    if not a.dtype.is_float:
        raise DTypeError(f"expected a float {what}, got {a.dtype}")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ShapeError(f"expected square matrices (shape [..., N, N]) as {what}, got "
                         f"{fmt_shape(a.shape)}")
    return a.strong()


def _det_type(a: TensorType) -> TensorType:
    return TensorType(_square_stack(a).shape[:-2], a.dtype)


def _solve_type(a: TensorType, b: TensorType, adjoint=False) -> TensorType:
    _square_stack(a, "matrix")
    if b.dtype != a.dtype:
        raise DTypeError(f"expected rhs of the matrix's dtype {a.dtype}, got {b.dtype}")
    if b.ndim != a.ndim or b.shape[:-2] != a.shape[:-2] or b.shape[-2] != a.shape[-1]:
        raise ShapeError(f"expected rhs of shape {fmt_shape(a.shape[:-1])} + [K] for matrix "
                         f"of shape {fmt_shape(a.shape)}, got {fmt_shape(b.shape)}")
    return b.strong()


def _cholesky_type(a: TensorType, upper=False) -> TensorType:
    return _square_stack(a)


def _inverse_type(a: TensorType, adjoint=False) -> TensorType:
    return _square_stack(a)


matrix_inverse = Primitive("matrix_inverse", _inverse_type, params={"adjoint": False})
matrix_determinant = Primitive("matrix_determinant", _det_type, public=True)
cholesky_p = Primitive("cholesky", _cholesky_type, params={"upper": False})
matrix_solve = Primitive("matrix_solve", _solve_type, params={"adjoint": False}, public=True)


def _mT(x):
    n = abstract_of(x).ndim
    perm = tuple(range(n - 2)) + (n - 1, n - 2)
    return transpose(x, perm=perm)


def _inverse_bprop(a, out, dout, adjoint):
    # Y = inv(A) (or inv(A)^T): dA = -Y^T dY Y^T, transposed again for the adjoint
    grad = neg(matmul(matmul(out, dout, transpose_a=True), out, transpose_b=True))
    return (_mT(grad) if adjoint else grad,)


def _det_bprop(a, out, dout):
    scale = mul(dout, out)
    shape = abstract_of(scale).shape + (1, 1)
    return (mul(reshape(scale, shape=shape), _mT(matrix_inverse(a))),)


def _solve_bprop(a, b, out, dout, adjoint):
    db = matrix_solve(a, dout, adjoint=not adjoint)
    da = neg(matmul(out, db, transpose_b=True) if adjoint else matmul(db, out, transpose_b=True))
    return da, db


def _cholesky_bprop(a, out, dout, upper):
    lower, dlower = (_mT(out), _mT(dout)) if upper else (out, dout)
    n = abstract_of(a).shape[-1]
    phi_mask = np.tril(np.ones((n, n)), -1) + 0.5 * np.eye(n)
    phi = mul(matmul(lower, dlower, transpose_a=True), phi_mask.astype(abstract_of(a).dtype.np))
    inv_lower = matrix_inverse(lower)
    s = matmul(matmul(inv_lower, phi, transpose_a=True), inv_lower)
    return (mul(add(s, _mT(s)), 0.5),)


matrix_inverse.def_bprop(_inverse_bprop)
matrix_determinant.def_bprop(_det_bprop)
matrix_solve.def_bprop(_solve_bprop)
cholesky_p.def_bprop(_cholesky_bprop)


def _stack_rule(prim):
    """Leading axes are already a batch of matrices: put the vmap axis in front of them."""
    def rule(args, dims, **params):
        size = batch_size(args, dims)
        return prim(*[batched_front(x, d, size) for x, d in zip(args, dims)], **params), 0
    return rule


for _prim in (matrix_inverse, matrix_determinant, cholesky_p, matrix_solve):
    _prim.def_batch(_stack_rule(_prim))


# ----- MindSpore's names ------------------------------------------------------------------------

def _static_bool(value, what: str, op: str) -> bool:
    if not isinstance(value, bool):
        raise DTypeError(f"{op}: expected a bool `{what}`, got {type(value).__name__} {value!r}")
    return value


def inverse(input):
    """The inverse of each square matrix in `input`."""
    return matrix_inverse(input)


def matrix_inverse_(x, adjoint=False):
    return matrix_inverse(x, adjoint=_static_bool(adjoint, "adjoint", "MatrixInverse"))


def det(input):
    """The determinant of each square matrix in `input`."""
    return matrix_determinant(input)


def cholesky(input_x, upper=False):
    """The Cholesky factor of each symmetric positive-definite matrix: lower triangular L with
    A = L L^T, or with `upper=True` U = L^T."""
    return cholesky_p(input_x, upper=_static_bool(upper, "upper", "Cholesky"))


export(inverse, method=True)
export(det, method=True)
export(cholesky, method=True)
export_class("MatrixInverse", matrix_inverse_, {"adjoint": False})
export_class("Cholesky", cholesky, {"upper": False})

__all__ = ["cholesky", "det", "inverse", "matrix_determinant", "matrix_inverse",
           "matrix_solve"]
