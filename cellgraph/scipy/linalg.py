"""`mindspore.scipy.linalg`: `eigh`, `inv`, `det`, `cholesky`, `cho_factor` and `cho_solve` of
one square matrix, with MindSpore's argument checks: `a` a 2-D square Tensor of int32, int64,
float32 or float64 (integers computed in float64), flags of type bool; `solve_triangular` and
`block_diag`. MindSpore's `lu`, `lu_factor` and `lstsq` are not provided.

Eigenvectors are LAPACK's: where an eigenvalue repeats, or for the sign of a column, they may
differ from MindSpore's (Eigen's) by a rotation within the eigenspace or a factor of -1."""
from __future__ import annotations

from cellgraph.common import dtype as mstype
from cellgraph.compiler.builder import Tracer
from cellgraph.ops import functional as F
from cellgraph.ops.auto_generate.math_classes import _solve_triangular
from cellgraph.primitives import linalg_ops
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Tensor

__all__ = ["block_diag", "cho_factor", "cho_solve", "cholesky", "det", "eigh", "inv",
           "solve_triangular"]

_DTYPES = (mstype.int32, mstype.int64, mstype.float32, mstype.float64)


def _flag(func_name: str, value, name: str, kind=bool) -> None:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise DTypeError(f"For '{func_name}', the type of '{name}' should be {kind.__name__}, "
                         f"but got '{value}' with type {type(value).__name__}.")


def _square_matrix(func_name: str, a):
    """`a` checked as MindSpore's scipy checks it, integers cast to float64."""
    if not isinstance(a, (Tensor, Tracer)):
        raise DTypeError(f"For '{func_name}', the type of 'a' should be Tensor, but got "
                         f"'{a}' with type {type(a).__name__}.")
    if a.dtype not in _DTYPES:
        names = ", ".join(f"cellgraph.{d.name}" for d in _DTYPES)
        raise DTypeError(f"For '{func_name}', the data type of 'a' should be one of [{names}], "
                         f"but got {a.dtype}.")
    shape = tuple(a.shape)
    if len(shape) != 2:
        raise ShapeError(f"For '{func_name}', the dimension of 'a' should be 2, but got "
                         f"{len(shape)}.")
    if shape[0] != shape[1]:
        raise ShapeError(f"For '{func_name}', the matrix 'a' should be a square matrix like "
                         f"(N, N), but got {shape}.")
    return F.cast(a, mstype.float64) if a.dtype in (mstype.int32, mstype.int64) else a


def eigh(a, b=None, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False,
         turbo=True, eigvals=None, type=1, check_finite=True):
    """The eigenvalues `w` (ascending) and, unless `eigvals_only`, the eigenvectors `v` (the
    columns) of the real symmetric matrix `a`, read from its lower triangle (`lower=True`) or
    its upper one. The generalized problem (`b`) and a subset of eigenvalues (`eigvals`) are
    refused, as in MindSpore; `overwrite_*`, `turbo` and `check_finite` choose nothing here."""
    for name, value in (("lower", lower), ("eigvals_only", eigvals_only),
                        ("overwrite_a", overwrite_a), ("overwrite_b", overwrite_b),
                        ("turbo", turbo)):
        _flag("eigh", value, name)
    _flag("eigh", type, "type", int)
    _flag("eigh", check_finite, "check_finite")
    a = _square_matrix("eigh", a)
    for name, value in (("b", b), ("eigvals", eigvals)):
        if value is not None:
            raise ArgumentValueError(f"For 'eigh', '{name}' is not supported, it should be "
                                     f"None, but got {value}.")
    w, v = linalg_ops.eigh(a, lower=lower)
    return w if eigvals_only else (w, v)


def inv(a, overwrite_a=False, check_finite=True):
    """The inverse of the square matrix `a`."""
    _flag("inv", overwrite_a, "overwrite_a")
    _flag("inv", check_finite, "check_finite")
    return linalg_ops.inverse(_square_matrix("inv", a))


def det(a, overwrite_a=False, check_finite=True):
    """The determinant of the square matrix `a`: for 2 x 2 and 3 x 3 matrices the sum of
    products of the entries (as MindSpore computes them), else from the LU factorisation."""
    _flag("det", overwrite_a, "overwrite_a")
    _flag("det", check_finite, "check_finite")
    a = _square_matrix("det", a)
    n = a.shape[-1]
    if n == 2:
        return a[0, 0] * a[1, 1] - a[0, 1] * a[1, 0]
    if n == 3:
        return (a[0, 0] * a[1, 1] * a[2, 2] + a[0, 1] * a[1, 2] * a[2, 0]
                + a[0, 2] * a[1, 0] * a[2, 1] - a[0, 2] * a[1, 1] * a[2, 0]
                - a[0, 0] * a[1, 2] * a[2, 1] - a[0, 1] * a[1, 0] * a[2, 2])
    return linalg_ops.det(a)


def cholesky(a, lower=False, overwrite_a=False, check_finite=True):
    """The Cholesky factor of the symmetric positive-definite matrix `a`: upper triangular U
    with a = U^T U, or with `lower=True` lower triangular L with a = L L^T."""
    for name, value in (("lower", lower), ("overwrite_a", overwrite_a),
                        ("check_finite", check_finite)):
        _flag("cholesky", value, name)
    return linalg_ops.cholesky(_square_matrix("cholesky", a), upper=not lower)


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
    """(c, lower): the Cholesky factor of the symmetric positive-definite `a` in c's lower
    triangle (`lower=True`, a = L L^T) or its upper one (a = U^T U), zeros elsewhere, for
    `cho_solve`."""
    for name, value in (("overwrite_a", overwrite_a), ("check_finite", check_finite),
                        ("lower", lower)):
        _flag("cho_factor", value, name)
    return linalg_ops.cholesky(_square_matrix("cho_factor", a), upper=not lower), lower


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
    """x with a x = b, from `cho_factor`'s (c, lower) of a: two triangular solves."""
    c, lower = c_and_lower
    for name, value in (("overwrite_b", overwrite_b), ("check_finite", check_finite),
                        ("lower", lower)):
        _flag("cho_solve", value, name)
    c = _square_matrix("cho_solve", c)
    b = F.cast(b, c.dtype) if b.dtype in (mstype.int32, mstype.int64) else b
    _check_rhs("cho_solve", c, b)
    first, second = (0, 1) if lower else (1, 0)
    return _solve_triangular(c, _solve_triangular(c, b, first, lower), second, lower)


def _check_rhs(func_name: str, a, b) -> None:
    if tuple(b.shape)[:1] != tuple(a.shape)[-1:] or len(b.shape) not in (1, 2):
        raise ShapeError(f"For '{func_name}', the last two dimensions of `a` and `b` should be "
                         f"matched, but got shape of {tuple(a.shape)} and {tuple(b.shape)}.")


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False,
                     debug=None, check_finite=True):
    """x with op(a) x = b, reading a's lower or upper triangle (ones on the diagonal with
    `unit_diagonal`); op(a) is a (trans 0 or 'N'), its transpose (1, 'T') or its conjugate
    transpose (2, 'C'); b a vector or a matrix of columns."""
    if isinstance(trans, str):
        if trans not in ("N", "T", "C"):
            raise ArgumentValueError("For SolveTriangular, Augment[trans] must be one of "
                                     "[1, 2, 3,'N', 'T', 'C'].")
        trans = "NTC".index(trans)
    if trans not in (0, 1, 2):
        raise RuntimeError(f"For 'SolveTriangular', 'trans' must be in [0, 1, 2, 'N', 'T', "
                           f"'C'], but got [{trans}].")
    if len(a.shape) == 2:
        _check_rhs("SolveTriangular", a, b)
    return _solve_triangular(a, b, trans, lower, unit_diagonal)


def block_diag(*arrs):
    """The Tensors (at most 2-D; a vector is one row) on the diagonal of one matrix, zeros
    elsewhere; with none, a (1, 0) float32 Tensor."""
    from cellgraph import numpy as mnp

    if not arrs:
        return mnp.zeros((1, 0))
    if any(len(a.shape) > 2 for a in arrs):
        raise ArgumentValueError("Arguments to mindspore.scipy.linalg.block_diag must have at "
                                 "most 2 dimensions.")
    accum = mnp.atleast_2d(arrs[0])
    for arr in arrs[1:]:
        arr = mnp.atleast_2d(arr)
        width = accum.shape[-1]
        accum = mnp.concatenate([mnp.pad(accum, ((0, 0), (0, arr.shape[-1]))),
                                 mnp.pad(arr, ((0, 0), (width, 0)))], axis=0)
    return accum
