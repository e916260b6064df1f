"""`mindspore.scipy.linalg`: `eigh`, `inv`, `det` and `cholesky` of one square matrix, with
MindSpore's argument checks: `a` a 2-D square Tensor of int32, int64, float32 or float64
(integers computed in float64), flags of type bool. MindSpore's `lu`, `lu_factor`,
`cho_factor`, `cho_solve`, `solve_triangular`, `lstsq` and `block_diag` are not provided.

Eigenvectors are LAPACK's: where an eigenvalue repeats, or for the sign of a column, they may
differ from MindSpore's (Eigen's) by a rotation within the eigenspace or a factor of -1."""
from __future__ import annotations

from cellgraph.common import dtype as mstype
from cellgraph.compiler.builder import Tracer
from cellgraph.ops import functional as F
from cellgraph.primitives import linalg_ops
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Tensor

__all__ = ["cholesky", "det", "eigh", "inv"]

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
