"""Linear algebra on stacks of matrices (the last two axes; the leading ones are a batch):
inverse, determinant, Cholesky factor, linear solve, singular value, QR and symmetric
eigenvalue decompositions.

The gradients are the classical matrix-calculus ones written with matmul, inverse and
elementwise ops, so they differentiate again:
    d inv(A)   = -inv(A)^T dY inv(A)^T
    d det(A)   = dy det(A) inv(A)^T
    d solve    : dB = solve(A^T, dX), dA = -dB X^T
    d cholesky : with P = L^T dL and Phi(P) its lower triangle with a halved diagonal,
                 S = L^-T Phi(P) L^-1 and dA = (S + S^T) / 2.
    d eigh     : G = V (diag(dw) + F o (V^T dV)) V^T with F_ij = 1 / (w_j - w_i) off the
                 diagonal; the input's one triangle stands for both, so dA is that triangle
                 of G + G^T with G's diagonal.
The Cholesky kernel factors the symmetric part (A + A^T) / 2, so that this symmetric gradient
is the derivative of the function computed (a symmetric input is unchanged by it).
"""
from __future__ import annotations

import numpy as np

from . import dtype as dt
from .array_ops import cast, expand_dims, reduce_sum, reshape, transpose, zeros_like
from .batching import batch_size, batched_front
from .check_convert import check_tensor_dtype
from .complex_ops import conj_, real_part
from .core import Primitive, TensorType, abstract_of, fmt_shape
from .errors import ArgumentValueError, CompileError, DTypeError, ShapeError
from .exports import export, export_class
from .math_ops import add, div, log, matmul, mul, neg, select, sub


def _check_dtype(a: TensorType, what: str = "input") -> None:
    """LAPACK's real types: float32 and float64 (no half-precision routines)."""
    if a.dtype not in (dt.float32, dt.float64):
        raise DTypeError(f"expected a float32 or float64 {what}, got {a.dtype}")


def _square_stack(a: TensorType, what: str = "input") -> TensorType:
    _check_dtype(a, what)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ShapeError(f"expected square matrices (shape [..., N, N]) as {what}, got "
                         f"{fmt_shape(a.shape)}")
    return a.strong()


def _det_type(a: TensorType) -> TensorType:
    if a.dtype in (dt.complex64, dt.complex128):  # LAPACK's complex LU: complex determinants
        if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
            raise ShapeError(f"expected square matrices (shape [..., N, N]) as input, got "
                             f"{fmt_shape(a.shape)}")
        return TensorType(a.shape[:-2], a.dtype)
    return TensorType(_square_stack(a).shape[:-2], a.dtype)


def _solve_type(a: TensorType, b: TensorType, adjoint=False) -> TensorType:
    if a.dtype not in (dt.complex64, dt.complex128):  # complex systems solve as well
        _check_dtype(a, "matrix")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ShapeError(f"expected square matrices (shape [..., N, N]) as matrix, got "
                         f"{fmt_shape(a.shape)}")
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
matrix_determinant = Primitive("matrix_determinant", _det_type, public=True, method=True,
                               operands=("input",), ops_module="math_ops")
cholesky_p = Primitive("cholesky", _cholesky_type, params={"upper": False})
# `adjoint` solves with the conjugate transpose; the rule follows the complex convention itself
matrix_solve = Primitive("matrix_solve", _solve_type, params={"adjoint": False}, public=True,
                         ops_module="math_ops", complex_bprop=True)


def _mT(x):
    n = abstract_of(x).ndim
    perm = tuple(range(n - 2)) + (n - 1, n - 2)
    return transpose(x, perm=perm)


def _inverse_bprop(a, out, dout, adjoint):
    # Y = inv(A) (or inv(A)^T): dA = -Y^T dY Y^T, transposed again for the adjoint
    grad = neg(matmul(matmul(out, dout, transpose_a=True), out, transpose_b=True))
    return (_mT(grad) if adjoint else grad,)


def _det_bprop(a, out, dout):
    """d det A = det A tr(A^-1 dA): dout det(A) A^-T (a holomorphic formula, which the
    autodiff conjugates for complex A; their inverse is a solve against the identity)."""
    aval = abstract_of(a)
    if aval.dtype.is_complex:
        eye = np.broadcast_to(np.eye(aval.shape[-1], dtype=aval.dtype.np), aval.shape)
        inverse = matrix_solve(a, eye)
    else:
        inverse = matrix_inverse(a)
    scale = mul(dout, out)
    shape = abstract_of(scale).shape + (1, 1)
    return (mul(reshape(scale, shape=shape), _mT(inverse)),)


def _solve_bprop(a, b, out, dout, adjoint):
    # X = solve(A, B): dB = solve(A^H, dX), dA = -dB X^H; X = solve(A^H, B): dB = solve(A, dX),
    # dA = -X dB^H (^H the transpose for real dtypes)
    db = matrix_solve(a, dout, adjoint=not adjoint)
    if abstract_of(out).dtype.is_complex:
        da = matmul(out, conj_(db), transpose_b=True) if adjoint else \
            matmul(db, conj_(out), transpose_b=True)
    else:
        da = matmul(out, db, transpose_b=True) if adjoint else matmul(db, out, transpose_b=True)
    return neg(da), db


def _cholesky_bprop(a, out, dout, upper):
    lower, dlower = (_mT(out), _mT(dout)) if upper else (out, dout)
    n = abstract_of(a).shape[-1]
    phi_mask = np.tril(np.ones((n, n)), -1) + 0.5 * np.eye(n)
    phi = mul(matmul(lower, dlower, transpose_a=True), phi_mask.astype(abstract_of(a).dtype.np))
    inv_lower = matrix_inverse(lower)
    s = matmul(matmul(inv_lower, phi, transpose_a=True), inv_lower)
    return (mul(add(s, _mT(s)), 0.5),)


def _svd_type(a: TensorType, full_matrices=False):
    _check_dtype(a)
    if a.ndim < 2:
        raise ShapeError(f"expected matrices (shape [..., M, N]), got {fmt_shape(a.shape)}")
    *batch, m, n = a.shape
    k = min(m, n)
    cols_u, rows_v = (m, n) if full_matrices else (k, k)
    batch = tuple(batch)
    return (TensorType(batch + (k,), a.dtype), TensorType(batch + (m, cols_u), a.dtype),
            TensorType(batch + (n, rows_v), a.dtype))


svd_p = Primitive("svd", _svd_type, label="Svd", params={"full_matrices": False},
                  multiple_results=True)


def _svd_bprop(a, out, dout, full_matrices):
    """The SVD's adjoint (distinct singular values). With full_matrices and a non-square input
    the extra singular vectors enter as MindSpore's (TensorFlow's) rule has them, for inputs
    whose sides differ by one (MindSpore's error beyond that)."""
    s, u, v = out
    *_, m, n = abstract_of(a).shape
    ds, du, dv = (d if d is not None else zeros_like(x) for d, x in zip(dout, out))
    if not full_matrices or m == n:
        return (_reduced_svd_grad(s, u, v, ds, du, dv, m, n),)
    if abs(m - n) > 1:
        raise CompileError("For 'Svd' gradient, not support for abs(m - n) > 1 with "
                           "full_matrices is True.")
    wide = m < n  # work on the wide matrix (A^T when A is tall)
    if not wide:
        u, v, du, dv, m, n = v, u, dv, du, n, m
    v1, dv1 = _columns(v, 0, m), _columns(dv, 0, m)
    v2, dv2 = _columns(v, m, n), _columns(dv, m, n)
    grad = _reduced_svd_grad(s, u, v1, ds, du, dv1, m, n)
    s_col = expand_dims(s, axis=_new_axis(s, -1))
    extra = matmul(div(matmul(v1, dv2, transpose_a=True), s_col), v2, transpose_b=True)
    grad = sub(grad, matmul(u, extra))
    return (grad if wide else _mT(grad),)


def _columns(x, start: int, stop: int):
    """x[..., start:stop]."""
    from .array_ops import Slice, getitem

    rank = abstract_of(x).ndim
    return getitem(x, index=(Slice(None, None, None),) * (rank - 1) + (Slice(start, stop, None),))


def _reduced_svd_grad(s, u, v, ds, du, dv, m, n):
    """The reduced real SVD's adjoint (u m x k, v n x k): with E_ij = s_j^2 - s_i^2,
    dA = U [skew(U^T dU)/E S + S skew(V^T dV)/E + diag(ds)] V^T
         + (I - U U^T) dU S^-1 V^T + U S^-1 dV^T (I - V V^T)."""
    k = min(m, n)
    eye = np.eye(k, dtype=abstract_of(u).dtype.np)
    s2 = mul(s, s)
    gaps = _gaps(s2, eye)  # s_j^2 - s_i^2 off the diagonal, 1 on it (skew parts vanish there)
    s_row, s_col = expand_dims(s, axis=_new_axis(s, -2)), expand_dims(s, axis=_new_axis(s, -1))
    utdu, vtdv = matmul(u, du, transpose_a=True), matmul(v, dv, transpose_a=True)
    inner = add(add(mul(div(sub(utdu, _mT(utdu)), gaps), s_row),
                    mul(s_col, div(sub(vtdv, _mT(vtdv)), gaps))),
                mul(expand_dims(ds, axis=_new_axis(ds, -1)), eye))
    grad = matmul(matmul(u, inner), v, transpose_b=True)
    if m > k:
        grad = add(grad, matmul(div(sub(du, matmul(u, utdu)), s_row), v, transpose_b=True))
    if n > k:
        grad = add(grad, matmul(u, _mT(div(sub(dv, matmul(v, vtdv)), s_row))))
    return grad


def _qr_type(a: TensorType, mode="reduced"):
    _check_dtype(a)
    if a.ndim < 2:
        raise ShapeError(f"expected matrices (shape [..., M, N]), got {fmt_shape(a.shape)}")
    if mode not in ("reduced", "complete"):
        raise ArgumentValueError(f"expected mode 'reduced' or 'complete', got {mode!r}")
    *batch, m, n = a.shape
    k = m if mode == "complete" else min(m, n)
    batch = tuple(batch)
    return TensorType(batch + (m, k), a.dtype), TensorType(batch + (k, n), a.dtype)


qr_p = Primitive("qr", _qr_type, label="Qr", params={"mode": "reduced"}, multiple_results=True)


def _qr_bprop(a, out, dout, mode):
    """A = QR with M rows >= N columns (reduced): with M_ = R dR^T - dQ^T Q and copyltu(M_) its
    lower triangle mirrored upward, dA = (dQ + Q copyltu(M_)) R^-T."""
    q, r = out
    *_, m, n = abstract_of(a).shape
    if m < n:
        raise CompileError(f"Qr: the gradient is defined here for inputs with rows >= columns, "
                           f"got shape {fmt_shape(abstract_of(a).shape)}")
    if mode == "complete" and m != n:
        raise CompileError("Qr: the gradient of mode='complete' for a non-square input is not "
                           "defined (the extra columns of Q are arbitrary); use mode='reduced'")
    dq = dout[0] if dout[0] is not None else zeros_like(q)
    dr = dout[1] if dout[1] is not None else zeros_like(r)
    middle = sub(matmul(r, dr, transpose_b=True), matmul(dq, q, transpose_a=True))
    lower = np.tril(np.ones((n, n)), -1).astype(abstract_of(a).dtype.np)
    mirrored = add(mul(middle, add(lower, np.eye(n, dtype=lower.dtype))),
                   _mT(mul(middle, lower)))
    return (matmul(add(dq, matmul(q, mirrored)), _mT(matrix_inverse(r))),)


def _geqrf_type(a: TensorType):
    if a.dtype not in (dt.float16, dt.float32, dt.float64):
        raise DTypeError(f"Geqrf: expected a float16, float32 or float64 input, got {a.dtype}")
    if a.ndim < 2:
        raise ArgumentValueError(f"the rank of a must be greater than or "
                                 f"equal to 2, but got {a.ndim}.")
    *batch, m, n = a.shape
    return a.strong(), TensorType(tuple(batch) + (min(m, n),), a.dtype)


def _eig_type(a: TensorType, compute_v=True):
    """Complex eigenvalues (*, N) and eigenvectors (*, N, N) of float or complex matrices;
    without `compute_v` the second result is a 0-d placeholder, as MindSpore's."""
    complex_of = {dt.float32: dt.complex64, dt.float64: dt.complex128,
                  dt.complex64: dt.complex64, dt.complex128: dt.complex128}
    check_tensor_dtype("Eig", "x", a.dtype, complex_of)
    if a.ndim < 2:
        raise ArgumentValueError(f"For Eig, x should be at lease 2, but got a {a.ndim}-D "
                                 f"Tensor.")
    if a.shape[-1] != a.shape[-2]:
        raise ArgumentValueError(f"For Eig, x should be square(squares), but got "
                                 f"{a.shape[-2]} × {a.shape[-1]} matrix(matrices).")
    out = complex_of[a.dtype]
    vectors = TensorType(a.shape, out) if compute_v else TensorType((), out)
    return TensorType(a.shape[:-1], out), vectors


# LAPACK's general eigensolver (geev). MindSpore defines no gradient for it; this one has the
# adjoint of the decomposition with unit eigenvectors, in the complex convention itself.
eig_p = Primitive("eig", _eig_type, label="Eig", params={"compute_v": True},
                  multiple_results=True, complex_bprop=True)


def _eig_bprop(a, out, dout, compute_v):
    """The adjoint of A = V diag(w) V^-1 with unit eigenvectors (distinct eigenvalues):
    G = diag(dw) + (V^H dV - V^H V Re(diag(V^H dV))) / conj(w_j - w_i) off the diagonal, and
    dA = V^-H G V^H (its real part for a real A). The eigenvectors' phases are arbitrary, so
    only functions that do not depend on them have a gradient: Im(diag(V^H dV)) = 0."""
    dw, dv = dout
    w, v = out if compute_v else eig_p(a, compute_v=True)
    aval, vval = abstract_of(a), abstract_of(v)
    n = aval.shape[-1]
    eye = np.eye(n, dtype=vval.dtype.np)
    vh = conj_(_mT(v))
    grad = zeros_like(v)
    if compute_v and dv is not None:
        vhdv = matmul(vh, dv)
        diagonal = cast(real_part(reduce_sum(mul(vhdv, eye), axis=(-2,))), dtype=vval.dtype)
        projected = sub(vhdv, mul(matmul(vh, v), expand_dims(diagonal, axis=_new_axis(w, -2))))
        gaps = _gaps(conj_(w), eye)  # conj(w_j - w_i) off the diagonal, 1 on it
        grad = mul(div(projected, gaps), (1 - eye).astype(eye.dtype))
    if dw is not None:
        grad = add(grad, mul(expand_dims(dw, axis=_new_axis(dw, -1)), eye))
    grad = matrix_solve(vh, matmul(grad, vh))
    return (real_part(grad) if aval.dtype in (dt.float32, dt.float64) else grad,)


# LAPACK's geqrf: R on and above the diagonal, the Householder vectors (their leading 1
# implied) below it, and their scales tau; no gradient in MindSpore either
geqrf = Primitive("geqrf", _geqrf_type, label="Geqrf", public=True, method=True,
                  multiple_results=True, nondifferentiable=True, operands=("input",))


def _eigh_type(a: TensorType, lower=True):
    a = _square_stack(a)
    return TensorType(a.shape[:-1], a.dtype), a


eigh_p = Primitive("eigh", _eigh_type, label="Eigh", params={"lower": True},
                   multiple_results=True)


def _triangle_mask(n: int, lower: bool, dtype) -> np.ndarray:
    """1 on and below (lower) or on and above the diagonal of an n x n matrix, 0 elsewhere."""
    mask = np.tril(np.ones((n, n))) if lower else np.triu(np.ones((n, n)))
    return mask.astype(dtype.np)


def _eigh_bprop(a, out, dout, lower):
    """The symmetric eigendecomposition's adjoint (distinct eigenvalues); the kernel reads one
    triangle of the input, so each entry off the diagonal there carries G_ij + G_ji."""
    w, v = out
    dw, dv = (d if d is not None else zeros_like(x) for d, x in zip(dout, out))
    dtype = abstract_of(a).dtype
    n = abstract_of(a).shape[-1]
    eye = np.eye(n, dtype=dtype.np)
    gaps = _gaps(w, eye)  # w_j - w_i off the diagonal, 1 on it (where F is 0)
    inner = add(mul(div(matmul(v, dv, transpose_a=True), gaps), (1 - eye).astype(dtype.np)),
                mul(expand_dims(dw, axis=_new_axis(dw, -1)), eye))
    grad = matmul(matmul(v, inner), v, transpose_b=True)
    strict = _triangle_mask(n, lower, dtype) - eye
    return (add(mul(add(grad, _mT(grad)), strict), mul(grad, eye)),)


def _gaps(values, eye):
    """values_j - values_i at (i, j) of each stack's matrix, plus `eye` (1 on the diagonal,
    where the eigen- and singular-vector adjoints divide by nothing)."""
    return add(sub(expand_dims(values, axis=_new_axis(values, -2)),
                   expand_dims(values, axis=_new_axis(values, -1))), eye)


def _new_axis(x, axis: int) -> int:
    """Where `expand_dims` puts a new axis that is `axis` from the end of the result."""
    return abstract_of(x).ndim + 1 + axis


matrix_inverse.def_bprop(_inverse_bprop)
svd_p.def_bprop(_svd_bprop)
qr_p.def_bprop(_qr_bprop)
eigh_p.def_bprop(_eigh_bprop)
eig_p.def_bprop(_eig_bprop)
matrix_determinant.def_bprop(_det_bprop)
matrix_solve.def_bprop(_solve_bprop)
cholesky_p.def_bprop(_cholesky_bprop)


def _stack_rule(prim):
    """Leading axes are already a batch of matrices: put the vmap axis in front of them."""
    def rule(args, dims, **params):
        size = batch_size(args, dims)
        out = prim(*[batched_front(x, d, size) for x, d in zip(args, dims)], **params)
        return out, (0,) * len(out) if prim.multiple_results else 0
    return rule


for _prim in (matrix_inverse, matrix_determinant, cholesky_p, matrix_solve, svd_p, qr_p,
              eigh_p, geqrf, eig_p):
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


def logdet(input):
    """The natural log of each square matrix's determinant (NaN where it is negative)."""
    return log(matrix_determinant(input))


def cholesky(input_x, upper=False):
    """The Cholesky factor of each symmetric positive-definite matrix: lower triangular L with
    A = L L^T, or with `upper=True` U = L^T."""
    return cholesky_p(input_x, upper=_static_bool(upper, "upper", "Cholesky"))


def cholesky_solve(input, input2, upper=False):
    """The solution X of A X = input where A = L L^T (or U^T U with `upper=True`) and `input2`
    is the factor; only its lower (upper) triangle is read, as MindSpore's kernel does."""
    upper = _static_bool(upper, "upper", "CholeskySolve")
    for name, x in (("input", input), ("input2", input2)):
        dtype = abstract_of(x).dtype
        if dtype not in (dt.float32, dt.float64):
            raise DTypeError(f"CholeskySolve: expected a float32 or float64 tensor {name}, got "
                             f"{dtype}")
    n = abstract_of(input2).shape[-1]
    keep = np.triu(np.ones((n, n), bool)) if upper else np.tril(np.ones((n, n), bool))
    factor = select(keep, input2, zeros_like(input2))
    gram = matmul(_mT(factor), factor) if upper else matmul(factor, _mT(factor))
    return matrix_solve(gram, input)


def cholesky_inverse(input_x, upper=False):
    """The inverse of A = U U^T (U^T U with `upper=True`) from its Cholesky factor U, read
    whole, as MindSpore's kernel reads it."""
    aval = abstract_of(input_x)
    if aval.dtype not in (dt.float32, dt.float64):
        raise DTypeError(f"CholeskyInverse: expected a float32 or float64 input_x, got "
                         f"{aval.dtype}")
    if aval.ndim < 2 or aval.shape[-1] != aval.shape[-2]:
        raise ArgumentValueError(f"For CholeskyInverse, input x must be batch squares, but got "
                                 f"batch {' x '.join(str(d) for d in aval.shape[-2:])} "
                                 f"matrices.")
    gram = matmul(_mT(input_x), input_x) if upper else matmul(input_x, _mT(input_x))
    return matrix_inverse(gram)


def svd(input, full_matrices=False, compute_uv=True):
    """The singular value decomposition input = U diag(S) V^T of each matrix: (S descending,
    U, V), or S alone with `compute_uv=False`."""
    s, u, v = svd_p(input, full_matrices=_static_bool(full_matrices, "full_matrices", "Svd"))
    return (s, u, v) if _static_bool(compute_uv, "compute_uv", "Svd") else s


def _svd_class(a, full_matrices=False, compute_uv=True):
    return svd(a, full_matrices, compute_uv)


def qr(input, mode="reduced"):
    """The QR decomposition input = Q R of each matrix: (Q with orthonormal columns, R upper
    triangular); `mode` "reduced" (K = min(M, N) columns of Q) or "complete" (Q square)."""
    return qr_p(input, mode=mode)


def eigh(a, lower=True):
    """The eigenvalues (ascending) and eigenvectors (columns) of each real symmetric matrix in
    `a`, read from its lower triangle (`lower=True`) or its upper one."""
    return eigh_p(a, lower=_static_bool(lower, "lower", "Eigh"))


def eig(A):
    """The eigenvalues and eigenvectors (unit columns) of each square matrix in `A`, complex
    (LAPACK's geev: each eigenvector's largest component is real; MindSpore's CPU kernel may
    give an eigenvector of a complex eigenvalue times another unit phase)."""
    return eig_p(A, compute_v=True)


def eigvals(A):
    """The eigenvalues of each square matrix in `A`, complex."""
    return eig_p(A, compute_v=False)[0]


def _eig_class(x, compute_v=False):
    return eig_p(x, compute_v=_static_bool(compute_v, "compute_v", "Eig"))


def _qr_class(x, full_matrices=False):
    return qr(x, "complete" if _static_bool(full_matrices, "full_matrices", "Qr") else "reduced")


export(svd, method=True)
export(qr, method=True)
export_class("Qr", _qr_class, {"full_matrices": False}, ops_module="math_ops")
export_class("Svd", _svd_class, {"full_matrices": False, "compute_uv": True}, ops_module="math_ops")
export(eig)
export(eigvals, method=True)
export_class("Eig", _eig_class, {"compute_v": False}, ops_module="math_ops")
export(inverse, method=True)
export(det, method=True)
export(logdet, method=True)
export(cholesky, method=True)
export(cholesky_solve, method=True)
export_class("CholeskySolve", cholesky_solve, {"upper": False}, ops_module="math_ops")
export_class("MatrixInverse", matrix_inverse_, {"adjoint": False}, ops_module="math_ops")
export(cholesky_inverse)
export_class("CholeskyInverse", cholesky_inverse, {"upper": False}, ops_module="math_ops")
export_class("Cholesky", cholesky, {"upper": False}, ops_module="math_ops")

__all__ = [
    "cholesky",
    "cholesky_inverse",
    "cholesky_solve",
    "det",
    "eig",
    "eigh",
    "eigvals",
    "geqrf",
    "inverse",
    "logdet",
    "matrix_determinant",
    "matrix_inverse",
    "matrix_solve",
    "qr",
    "svd",
]
