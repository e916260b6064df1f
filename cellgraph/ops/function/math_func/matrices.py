"""Functions of square matrices and of LU factors: `slogdet` (`log_matrix_determinant`),
`matrix_power`, `matrix_exp`, `matrix_norm`, `cond`, `lu_unpack`, `lu_solve`, and
`diagonal_scatter`, `vander`, `logspace`, as compositions of the core's operations (so they
differentiate and batch through them).

`matrix_exp` scales the matrix by 2^-s until its 1-norm is at most 5.37 (Higham's bound for
the [13/13] Padé approximant), evaluates the approximant and squares the result s times; s is
computed in the graph, so the squarings run up to a fixed 40 times, each kept only while it is
due (a 1-norm up to 5.9e12; beyond that every entry of the exponential overflows anyway).
MindSpore 2.10's CPU build has no MatrixExp kernel."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.ops.function.array_func.attributes import _const, _tensor, is_tensor
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError

__all__ = ["cond", "diagonal_scatter", "log_matrix_determinant", "logspace", "lu_solve",
           "lu_unpack", "matrix_exp", "matrix_norm", "matrix_power", "orgqr", "slogdet",
           "vander"]


def _ops():
    from cellgraph import ops

    return ops


def _square(op: str, x):
    aval = _tensor(x, op, "input")
    if aval.ndim < 2 or aval.shape[-1] != aval.shape[-2]:
        raise ShapeError(f"For '{op}', the input must be a square matrix or a batch of them, "
                         f"but got shape {tuple(aval.shape)}.")
    return aval


def _eye_like(aval):
    n = aval.shape[-1]
    return F.broadcast_to(_const(np.eye(n, dtype=aval.dtype.np), aval.dtype), tuple(aval.shape))


def slogdet(input):
    """(sign, log |det|) of each square matrix: the sign is 0 and the logarithm -inf for a
    singular one; for complex matrices the sign is det / |det|."""
    _square("slogdet", input)
    det = _ops().det(input)
    magnitude = F.abs(det)
    zero = F.equal(magnitude, 0)
    safe = F.select(zero, F.add(F.zeros_like(magnitude), 1), magnitude)
    sign = F.select(zero, F.zeros_like(det), F.div(det, F.cast(safe, abstract_of(det).dtype)))
    return sign, F.select(zero, F.add(F.zeros_like(magnitude), float("-inf")), F.log(safe))


def log_matrix_determinant(input):
    """`slogdet`, under MindSpore's older name."""
    return slogdet(input)


def matrix_power(input, n):
    """The matrix to the integer power n by repeated squaring (its inverse's for n < 0, the
    identity for 0)."""
    aval = _square("MatrixPower", input)
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise DTypeError(f"For 'MatrixPower', the 'n' must be an int, but got "
                         f"{type(n).__name__}.")
    if n < 0:
        if not aval.dtype.is_float:
            raise DTypeError(f"For 'MatrixPower', n < 0 needs a float input, but got "
                             f"{aval.dtype}.")
        input, n = _ops().inverse(input), -n
    out, base = None, input
    while n:
        if n & 1:
            out = base if out is None else F.matmul(out, base)
        n >>= 1
        if n:
            base = F.matmul(base, base)
    return _eye_like(aval) if out is None else out


# the [13/13] Pade coefficients of exp and the 1-norm below which they are accurate to the
# unit roundoff of float64 (Higham, "The scaling and squaring method for the matrix
# exponential revisited", 2005)
_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
           129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0,
           40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152
_MAX_SQUARINGS = 40


def matrix_exp(input):
    """exp of each square matrix (float or complex), by scaling and squaring with the [13/13]
    Padé approximant."""
    aval = _square("matrix_exp", input)
    if not (aval.dtype.is_float or aval.dtype.is_complex):
        raise DTypeError(f"For 'matrix_exp', the input must be a float or complex Tensor, but "
                         f"got {aval.dtype}.")
    ops = _ops()
    norm = F.reduce_max(F.reduce_sum(F.abs(input), -2, True), -1, True)  # 1-norm, (..., 1, 1)
    ratio = F.maximum(F.div(norm, _THETA13), 1.0)  # no scaling below the bound (nor log 0)
    steps = ops.ceil(F.div(F.log(ratio), float(np.log(2.0))))
    steps = F.minimum(steps, float(_MAX_SQUARINGS))
    scale = F.pow(F.add(F.zeros_like(steps), 2.0), F.neg(steps))
    a = F.mul(input, F.cast(scale, aval.dtype))
    eye = _eye_like(aval)
    b = _PADE13
    a2 = F.matmul(a, a)
    a4 = F.matmul(a2, a2)
    a6 = F.matmul(a4, a2)
    u = F.matmul(a, F.add(F.matmul(a6, a6 * b[13] + a4 * b[11] + a2 * b[9]),
                          a6 * b[7] + a4 * b[5] + a2 * b[3] + eye * b[1]))
    v = F.add(F.matmul(a6, a6 * b[12] + a4 * b[10] + a2 * b[8]),
              a6 * b[6] + a4 * b[4] + a2 * b[2] + eye * b[0])
    out = F.matrix_solve(F.sub(v, u), F.add(v, u))
    for i in range(_MAX_SQUARINGS):
        out = F.select(F.broadcast_to(F.greater(steps, float(i)), tuple(aval.shape)),
                       F.matmul(out, out), out)
    return out


def matrix_norm(A, ord="fro", axis=(-2, -1), keepdims=False, *, dtype=None):
    """The matrix norm over the two axes `axis`: 'fro', 'nuc', 1, -1, 2, -2, inf or -inf."""
    if ord not in ("fro", "nuc", 1, -1, 2, -2, float("inf"), float("-inf")):
        raise ArgumentValueError(f"For 'matrix_norm', the ord must be one of 'fro', 'nuc', 1, "
                                 f"-1, 2, -2, inf, -inf, but got {ord!r}.")
    if not isinstance(axis, (tuple, list)) or len(axis) != 2:
        raise ArgumentValueError(f"For 'matrix_norm', the axis must be a pair of ints, but got "
                                 f"{axis!r}.")
    return _ops().norm(A, ord, tuple(axis), keepdims, dtype=dtype)


def cond(A, p=None):
    """The condition number of each matrix in the norm `p` (the 2-norm, the ratio of the
    extreme singular values, by default): norm(A) * norm(A^-1)."""
    aval = _tensor(A, "cond", "A")
    if aval.ndim < 2:
        raise ShapeError(f"For 'cond', the input must have at least 2 dimensions, but got "
                         f"{aval.ndim}.")
    ops = _ops()
    if p in (None, 2, -2):
        singular = ops.svd(A, compute_uv=False)
        big, small = F.reduce_max(singular, -1), F.reduce_min(singular, -1)
        return F.div(big, small) if p != -2 else F.div(small, big)
    return F.mul(matrix_norm(A, p), matrix_norm(ops.inverse(A), p))


def _permutations(pivots, n: int):
    """The row order the LAPACK `pivots` (1-based: row i swapped with row pivots[i], in turn)
    give, as (..., n) int64 indices: order[i] is the original row that ends at row i."""
    ops = _ops()
    lead = tuple(abstract_of(pivots).shape[:-1])
    rows = _const(np.arange(n, dtype=np.int64), dt.int64)
    order = F.broadcast_to(rows, lead + (n,))
    for i in range(abstract_of(pivots).shape[-1]):
        j = F.sub(F.cast(pivots[..., i:i + 1], dt.int64), 1)     # (..., 1)
        at_i = order[..., i:i + 1]
        at_j = ops.gather_elements(order, -1, j)
        order = F.select(F.equal(rows, i), F.broadcast_to(at_j, lead + (n,)),
                         F.select(F.equal(F.broadcast_to(rows, lead + (n,)), j),
                                  F.broadcast_to(at_i, lead + (n,)), order))
    return order


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """(P, L, U) of a packed LU factorisation: A = P L U, L unit lower triangular (m, k), U
    upper triangular (k, n), k = min(m, n); P the permutation the pivots give. A part not
    unpacked is None."""
    aval = _tensor(LU_data, "lu_unpack", "LU_data")
    if aval.ndim < 2:
        raise ShapeError(f"For 'lu_unpack', the LU_data must have at least 2 dimensions, but "
                         f"got {aval.ndim}.")
    if not _tensor(LU_pivots, "lu_unpack", "LU_pivots").dtype.is_int:
        raise DTypeError("For 'lu_unpack', the LU_pivots must be an integer Tensor.")
    ops = _ops()
    m, n = aval.shape[-2:]
    k = min(m, n)
    lower = upper = perm = None
    if unpack_data:
        eye = _const(np.eye(m, k, dtype=aval.dtype.np), aval.dtype)
        lower = F.add(ops.tril(LU_data[..., :, :k], -1), eye)
        upper = ops.triu(LU_data[..., :k, :])
    if unpack_pivots:
        order = _permutations(LU_pivots, m)
        # P[order[i], i] = 1: row i of P^T A is row order[i] of A
        rows = _const(np.arange(m, dtype=np.int64), dt.int64)
        perm = F.cast(F.equal(F.expand_dims(order, -2), F.expand_dims(rows, -1)), aval.dtype)
    return perm, lower, upper


def lu_solve(b, LU_data, LU_pivots):
    """x with A x = b, A given by its packed LU factorisation and pivots."""
    for name, value in (("b", b), ("LU_data", LU_data), ("LU_pivots", LU_pivots)):
        if not is_tensor(value):
            raise DTypeError(f"For 'lu_solve', the {name} must be a Tensor, but got "
                             f"{type(value).__name__}.")
    perm, lower, upper = lu_unpack(LU_data, LU_pivots)
    ops = _ops()
    permuted = F.matmul(ops.swapaxes(perm, -1, -2), b)  # P^T b
    return F.matrix_solve(upper, F.matrix_solve(lower, permuted))


def orgqr(input, input2):
    """The first n columns of Q = H_1 ... H_k, H_i = I - tau_i v_i v_i^T, from the Householder
    vectors below the diagonal of `input` (*, m, n) (v_i is 1 at row i) and the scalars
    `input2` (*, k) of a QR factorisation (LAPACK's geqrf layout)."""
    a, tau = _tensor(input, "Orgqr", "input"), _tensor(input2, "Orgqr", "input2")
    if a.ndim < 2 or tau.ndim != a.ndim - 1 or tuple(tau.shape[:-1]) != tuple(a.shape[:-2]):
        raise ShapeError(f"For 'Orgqr', expected input (*, m, n) and input2 (*, k), but got "
                         f"shapes {list(a.shape)} and {list(tau.shape)}.")
    m, n = a.shape[-2:]
    k = tau.shape[-1]
    if not m >= n >= k:
        raise ShapeError(f"For 'Orgqr', expected m >= n >= k, but got m={m}, n={n}, k={k}.")
    lead = tuple(a.shape[:-2])
    q = _const(np.eye(m, dtype=a.dtype.np), a.dtype)
    for i in range(k):
        below = np.zeros(m, a.dtype.np)
        below[i + 1:] = 1
        unit = np.zeros(m, a.dtype.np)
        unit[i] = 1
        column = F.getitem(input, (Ellipsis, slice(None), i))
        v = F.add(F.mul(column, _const(below, a.dtype)), _const(unit, a.dtype))
        t = F.reshape(F.getitem(input2, (Ellipsis, i)), lead + (1, 1))
        outer = F.mul(F.reshape(v, lead + (m, 1)), F.reshape(v, lead + (1, m)))
        q = F.sub(q, F.mul(t, F.matmul(q, outer)))  # Q H_i = Q - tau Q v v^T
    return F.getitem(q, (Ellipsis, slice(None), slice(0, n)))


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """input with `src` written on its diagonal `offset` of the axes dim1 and dim2 (src has
    that diagonal's shape: the other axes, then the diagonal's length)."""
    aval = _tensor(input, "diagonal_scatter", "input")
    ops = _ops()
    want = tuple(abstract_of(ops.diagonal(input, offset, dim1, dim2)).shape)
    if tuple(abstract_of(src).shape) != want:
        raise ShapeError(f"For 'diagonal_scatter', the src must have the diagonal's shape "
                         f"{want}, but got {tuple(abstract_of(src).shape)}.")
    axes = (dim1 % aval.ndim, dim2 % aval.ndim)
    moved = ops.moveaxis(input, axes, (-2, -1))
    rows, cols = abstract_of(moved).shape[-2:]
    # at (r, r + offset) the diagonal's element r - max(0, -offset); elsewhere any index
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    on = (c - r == offset)
    picks = np.where(on, r - max(0, -offset), 0).astype(np.int64)
    spread = F.reshape(ops.gather(F.cast(src, aval.dtype), _const(picks.ravel(), dt.int64), -1)
                       if want[-1] else F.zeros_like(moved), tuple(abstract_of(moved).shape))
    out = F.select(F.broadcast_to(_const(on, dt.bool_), tuple(abstract_of(moved).shape)),
                   spread, moved)
    return ops.moveaxis(out, (-2, -1), axes)


def vander(x, N=None):
    """The Vandermonde matrix of the 1-D x: column j is x ** (N - 1 - j)."""
    if not is_tensor(x):
        raise DTypeError(f"For vander, x must be Tensor, but got {type(x)}")
    aval = abstract_of(x)
    if aval.ndim != 1:
        raise ArgumentValueError(f"For vander, x must be 1-D, but got dimension = {aval.ndim}")
    N = aval.shape[0] if N is None else N
    if isinstance(N, bool) or not isinstance(N, int):
        raise DTypeError(f"For vander, N must be an integer but got {type(N)}.")
    if N <= 0:
        raise ArgumentValueError(f"For vander, N must be greater than 0, but got {N}.")
    powers = _const(np.arange(N - 1, -1, -1).astype(aval.dtype.np), aval.dtype)
    return F.pow(F.expand_dims(x, 1), F.expand_dims(powers, 0))


def logspace(start, end, steps, base=10, *, dtype=dt.float32):
    """`steps` points base ** t, t evenly spaced from start to end."""
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise ArgumentValueError(f"For 'LogSpace', the 'steps' must be a non-negative int, but "
                                 f"got {steps!r}.")
    if isinstance(base, bool) or not isinstance(base, int) or base < 0:
        raise ArgumentValueError(f"For 'LogSpace', the 'base' must be a non-negative int, but "
                                 f"got {base!r}.")
    dtype = dt.as_dtype(dtype)
    exponents = _ops().linspace(F.cast(start, dt.float32) if is_tensor(start) else float(start),
                                F.cast(end, dt.float32) if is_tensor(end) else float(end),
                                steps)
    return F.cast(F.pow(float(base), F.cast(exponents, dt.float64)), dtype)
