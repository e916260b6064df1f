"""Products and matrices: `bmm`, `outer`, `tensor_dot`, `batch_dot`, `inner`, `kron`,
`block_diag`, `diag_embed`, `addmm`/`baddbmm`, `cdist`, `cosine_similarity`, `cross`,
`trace`, `pinv` (from the SVD, or the eigendecomposition of a symmetric matrix), and `einsum` from transpose, reshape, sum and batched matmul: one operand sums the
letters missing from the output, then transposes; two split their letters into batch,
contracted, left-only and right-only, and one matmul gives (batch, left, right); more operands
contract left to right; a letter repeated within one operand first takes that diagonal."""
from __future__ import annotations

import functools
import numbers

import numpy as np

from cellgraph.ops.function.array_func.attributes import _ndim, _shape, _tensor, is_tensor
from cellgraph.ops.function.array_func.creation import eye
from cellgraph.ops.function.array_func.matrix import _matrix_shape, diagonal
from cellgraph.ops.function.array_func.padding import pad
from cellgraph.ops.function.array_func.shape import movedim
from cellgraph.ops.function.math_func.einsum import einsum
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import linalg_ops as L
from cellgraph.primitives import math_ops as M
from cellgraph.primitives.check_convert import check_tensor_dtype, check_tensor_types_same
from cellgraph.primitives.core import abstract_of, normalize_axis
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, RunError, ShapeError

__all__ = [
    "addbmm",
    "addmm",
    "addmv",
    "addr",
    "baddbmm",
    "batch_dot",
    "block_diag",
    "bmm",
    "cdist",
    "cosine_similarity",
    "cross",
    "diag_embed",
    "dot",
    "einsum",
    "ger",
    "inner",
    "kron",
    "lstsq",
    "matrix_solve",
    "outer",
    "pinv",
    "renorm",
    "tensor_dot",
    "trace",
]


def bmm(input_x, mat2):
    """Batched matrix product."""
    return F.matmul(input_x, mat2)


def outer(input, vec2):
    return F.mul(F.reshape(input, (-1, 1)), F.reshape(vec2, (1, -1)))


def tensor_dot(x1, x2, axes):
    """Contract `axes` of x1 with `axes` of x2 (an int n: the last n of x1, first n of x2)."""
    n1, n2 = _ndim(x1), _ndim(x2)
    if isinstance(axes, numbers.Integral):
        axes = (tuple(range(n1 - axes, n1)), tuple(range(axes)))
    a1 = tuple(normalize_axis(a, n1) for a in np.atleast_1d(axes[0]))
    a2 = tuple(normalize_axis(a, n2) for a in np.atleast_1d(axes[1]))
    free1 = tuple(a for a in range(n1) if a not in a1)
    free2 = tuple(a for a in range(n2) if a not in a2)
    s1, s2 = _shape(x1), _shape(x2)
    left = F.reshape(F.transpose(x1, free1 + a1), (-1, int(np.prod([s1[a] for a in a1]))))
    right = F.reshape(F.transpose(x2, a2 + free2), (int(np.prod([s2[a] for a in a2])), -1))
    return F.reshape(F.matmul(left, right), tuple(s1[a] for a in free1) +
                     tuple(s2[a] for a in free2))


def trace(input):
    _matrix_shape(input, "trace")
    return diagonal(input, 0, -2, -1).sum(axis=-1)


def cdist(x1, x2, p=2.0):
    """p-norm distances between the rows of x1 (B?, P, M) and x2 (B?, R, M): (B?, P, R). The
    gradient at a zero distance is zero."""
    if abstract_of(x1).ndim not in (2, 3) or abstract_of(x1).ndim != abstract_of(x2).ndim:
        raise ShapeError(f"cdist: expected two Tensors of rank 2 or 3, got shapes "
                         f"{abstract_of(x1).shape} and {abstract_of(x2).shape}")
    p = float(p)
    if p < 0:
        raise ArgumentValueError(f"cdist: `p` must be non-negative, got {p}")
    return _p_distance(F.expand_dims(x1, -2) - F.expand_dims(x2, -3), p)


def _p_distance(diff, p: float):
    """The p-norm of `diff` along its last axis (p = 0 counts the non-zeros, p = inf takes the
    largest magnitude); the gradient at a zero distance is zero."""
    if p == 0:
        return (diff != 0).astype(abstract_of(diff).dtype).sum(axis=-1)
    if p == float("inf"):
        return M.abs_(diff).max(axis=-1)
    powered = diff * diff if p == 2 else M.abs_(diff) ** p
    total = powered.sum(axis=-1)
    if p == 1:
        return total
    positive = total > 0
    return M.select(positive, M.select(positive, total, A.ones_like(total)) ** (1.0 / p),
                    A.zeros_like(total))


def pinv(x, *, atol=None, rtol=None, hermitian=False):
    """The Moore-Penrose pseudo-inverse of each matrix of x (*, M, N) -> (*, N, M), as
    MindSpore computes it: singular values (or |eigenvalues| with `hermitian`) at most
    max(atol, rtol * the largest) count as zero; by default atol = 0 and rtol = max(M, N) * eps
    of x's dtype, and a given atol alone makes rtol 0. atol and rtol may be Tensors, one value
    per matrix of the batch."""
    if not is_tensor(x):
        raise DTypeError("The input x must be tensor")
    aval = abstract_of(x)
    if aval.ndim == 0:
        raise DTypeError("For pinv, the 0-D input is not supported")
    if aval.ndim < 2:
        raise ShapeError(f"input x should have 2 or more dimensions, but got {aval.ndim}.")
    if aval.dtype not in (dt.float32, dt.float64):
        raise DTypeError(f"For 'pinv', the 'x' should be one of [mindspore.float32, "
                         f"mindspore.float64], but got 'mindspore.{aval.dtype.name}'.")
    if not isinstance(hermitian, bool):
        raise DTypeError(f"For 'pinv', the type of 'hermitian' should be 'bool', but got type "
                         f"'{type(hermitian).__name__}'.")
    if atol is None:
        atol = 0.0
        if rtol is None:
            rtol = max(aval.shape) * float(dt.finfo(aval.dtype).eps)
    elif rtol is None:
        rtol = 0.0
    atol, rtol = (F.expand_dims(t, -1) if is_tensor(t) else float(t) for t in (atol, rtol))
    if hermitian:
        values, vectors = L.eigh(x)
        magnitude = M.abs_(values)
        largest, left, right = magnitude.max(axis=-1, keepdims=True), vectors, vectors
    else:
        values, left, right = L.svd(x)
        magnitude, largest = values, values[..., :1]
    keep = magnitude > M.maximum(atol, rtol * largest)
    safe = M.select(keep, values, A.ones_like(values))
    inverted = M.select(keep, 1.0 / safe, A.zeros_like(values))
    return F.matmul(right * F.expand_dims(inverted, -2), F.transpose(left, _swap_last(aval.ndim)))


_RENORM_TYPES = (dt.float16, dt.float32, dt.float64, dt.complex64, dt.complex128)


def renorm(input, p, axis, maxnorm):
    """Each slice of `input` along `axis` whose p-norm (over the other axes) exceeds `maxnorm`
    scaled down to norm `maxnorm` (maxnorm / norm, maxnorm held as a float32 as MindSpore's
    attribute is); the other slices as they are."""
    if isinstance(p, bool) or not isinstance(p, numbers.Integral):
        raise DTypeError(f"For 'Renorm', the type of 'p' should be 'int', but got type "
                         f"'{type(p).__name__}'.")
    if p <= 0:
        raise ArgumentValueError(f"Renorm op don't support non-positive-norm, but got{p}")
    if not isinstance(maxnorm, float):
        raise DTypeError(f"For 'Renorm', the type of 'maxnorm' should be 'float', but got type "
                         f"'{type(maxnorm).__name__}'.")
    aval = _tensor(input, "Renorm", "x")
    check_tensor_dtype("Renorm", "x", aval.dtype, _RENORM_TYPES)
    if aval.ndim == 0:
        raise RunError("The Renorm input shape is zero.")
    if not -aval.ndim <= axis < aval.ndim:
        raise RunError(f"For 'Renorm, the attribute 'dim' must be in range [{-aval.ndim}, "
                       f"{aval.ndim}), but got {axis}")
    if maxnorm < 0:
        raise RunError(f"For 'Renorm', the attribute 'maxnorm' must be non-negative, but got "
                       f"{maxnorm:g}")
    axis = normalize_axis(axis, aval.ndim)
    others = tuple(a for a in range(aval.ndim) if a != axis)
    magnitude = M.abs_(input)
    powered = magnitude if p == 1 else magnitude ** p
    norm = F.reduce_sum(powered, others, True)
    if p != 1:
        norm = norm ** (1.0 / p)
    limit = float(np.float32(maxnorm))
    over = norm > limit
    scale = M.select(over, limit / M.select(over, norm, A.ones_like(norm)), A.ones_like(norm))
    return input * F.cast(scale, aval.dtype)


def _swap_last(ndim: int) -> tuple:
    return tuple(range(ndim - 2)) + (ndim - 1, ndim - 2)


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    dot = (x1 * x2).sum(axis=dim)
    norms = M.sqrt((x1 * x1).sum(axis=dim)) * M.sqrt((x2 * x2).sum(axis=dim))
    return dot / M.maximum(norms, eps)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    return beta * input + alpha * F.matmul(mat1, mat2)


def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    return beta * input + alpha * F.matmul(batch1, batch2)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """beta * input + alpha * the sum over the batch of batch1[i] @ batch2[i]."""
    return beta * input + alpha * F.matmul(batch1, batch2).sum(axis=0)


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """beta * input + alpha * (mat @ vec), for a matrix and a vector."""
    if len(mat.shape) != 2 or len(vec.shape) != 1:
        raise ShapeError(f"addmv: expected a matrix and a vector, got shapes {mat.shape} and "
                         f"{vec.shape}")
    return beta * input + alpha * F.matmul(mat, vec)


def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """beta * x + alpha * the outer product of vec1 and vec2."""
    if len(vec1.shape) != 1 or len(vec2.shape) != 1:
        raise ShapeError(f"addr: expected two vectors, got shapes {vec1.shape} and "
                         f"{vec2.shape}")
    return beta * x + alpha * F.reshape(vec1, (-1, 1)) * F.reshape(vec2, (1, -1))


def inner(input, other):
    """Sum over the last axes of both: shape input.shape[:-1] + other.shape[:-1]; a scalar
    operand multiplies."""
    a, b = _tensor(input, "inner"), _tensor(other, "inner", "other")
    if a.ndim == 0 or b.ndim == 0:
        return M.mul(input, other)
    if a.shape[-1] != b.shape[-1]:
        raise ShapeError(f"inner: the last dimensions of {a.shape} and {b.shape} must match")
    rows = F.reshape(input, (-1, a.shape[-1]))
    cols = F.reshape(other, (-1, b.shape[-1]))
    out = F.matmul(rows, A.transpose(cols, perm=(1, 0)))
    return F.reshape(out, tuple(a.shape[:-1]) + tuple(b.shape[:-1]))


def block_diag(*inputs):
    """The matrices (0-D and 1-D ones as one row) along the diagonal of one zero matrix, in
    their common dtype."""
    if not inputs:
        raise ArgumentValueError("block_diag: expected at least one Tensor")
    types = [_tensor(x, "block_diag", f"inputs[{i}]") for i, x in enumerate(inputs)]
    if any(t.ndim > 2 for t in types):
        raise ShapeError(f"block_diag: expected Tensors of at most 2 dimensions, got shapes "
                         f"{[t.shape for t in types]}")
    dtype = functools.reduce(dt.promote, [t.dtype for t in types])
    mats = [F.reshape(F.cast(x, dtype), (1, -1) if t.ndim < 2 else t.shape)
            for x, t in zip(inputs, types)]
    widths = [abstract_of(m).shape[1] for m in mats]
    total, rows, left = sum(widths), [], 0
    for m, width in zip(mats, widths):
        height = abstract_of(m).shape[0]
        parts = [F.zeros((height, left), dtype), m, F.zeros((height, total - left - width), dtype)]
        rows.append(F.concat(parts, axis=1))
        left += width
    return F.concat(rows, axis=0)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor whose diagonal `offset` in the plane of dims (dim1, dim2) holds the last axis
    of `input`, zeros elsewhere."""
    x = _tensor(input, "diag_embed")
    if x.ndim == 0:
        raise ShapeError("diag_embed: expected a Tensor of at least 1 dimension")
    n_out = x.ndim + 1
    d1, d2 = normalize_axis(dim1, n_out), normalize_axis(dim2, n_out)
    if d1 == d2:
        raise ArgumentValueError(f"diag_embed: dim1 and dim2 must differ, got {dim1}, {dim2}")
    m, k = x.shape[-1], abs(int(offset))
    square = M.mul(F.expand_dims(input, -1), F.cast(eye(m, m), x.dtype))  # (..., m, m)
    # (left, right, top, bottom) of the last two axes: the diagonal k columns right or down
    out = pad(square, (k, 0, 0, k) if offset >= 0 else (0, k, k, 0)) if k else square
    if (d1, d2) != (n_out - 2, n_out - 1):
        out = movedim(out, (n_out - 2, n_out - 1), (d1, d2))
    return out


def kron(input, other):
    """The Kronecker product: every element of `input` times the whole of `other`."""
    a, b = _tensor(input, "kron"), _tensor(other, "kron", "other")
    n = max(a.ndim, b.ndim)
    sa, sb = (1,) * (n - a.ndim) + tuple(a.shape), (1,) * (n - b.ndim) + tuple(b.shape)
    x = F.reshape(input, tuple(d for s in sa for d in (s, 1)))
    y = F.reshape(other, tuple(d for s in sb for d in (1, s)))
    return F.reshape(M.mul(x, y), tuple(p * q for p, q in zip(sa, sb)))


def cross(input, other, dim=None):
    """The cross product of 3-vectors along `dim` (the first axis of size 3 when None)."""
    shape = _tensor(input, "cross").shape
    if dim is None:
        dim = next((i for i, s in enumerate(shape) if s == 3), None)
        if dim is None:
            raise ShapeError(f"cross: no dimension of size 3 in shape {shape}")
    dim = normalize_axis(dim, len(shape))
    if shape[dim] != 3:
        raise ShapeError(f"cross: dimension {dim} of shape {shape} must have size 3")
    lead = (slice(None),) * dim
    a = [input[lead + (slice(i, i + 1),)] for i in range(3)]
    b = [other[lead + (slice(i, i + 1),)] for i in range(3)]
    parts = [M.sub(M.mul(a[1], b[2]), M.mul(a[2], b[1])),
             M.sub(M.mul(a[2], b[0]), M.mul(a[0], b[2])),
             M.sub(M.mul(a[0], b[1]), M.mul(a[1], b[0]))]
    return F.concat(parts, dim)


def _batch_dot_axes(axes, n1: int, n2: int) -> tuple:
    """MindSpore's rule: None contracts the last axis of x1 with the last axis of a matrix x2 or
    the second-to-last of a higher-rank one; an int n contracts axis n of both."""
    if axes is None:
        return n1 - 1, n2 - 1 if n2 == 2 else n2 - 2
    if isinstance(axes, numbers.Integral):
        if axes == 0:
            raise ArgumentValueError("batch_dot: `axes` must not be 0 (the batch axis)")
        axes = (axes, axes)
    if not isinstance(axes, (tuple, list)) or len(axes) != 2:
        raise ArgumentValueError(f"batch_dot: `axes` must be None, an int or a pair of ints, "
                                 f"got {axes!r}")
    a1, a2 = (normalize_axis(a, n) for a, n in zip(axes, (n1, n2)))
    if a1 == 0 or a2 == 0:
        raise ArgumentValueError(f"batch_dot: `axes` {tuple(axes)} must not name the batch axis")
    return a1, a2


def batch_dot(x1, x2, axes=None):
    """Per example b, x1[b] and x2[b] contracted over one axis each: with x1 (B, d1, K, d2) and
    x2 (B, d3, K, d4) the result is (B, d1, d2, d3, d4), and (B, 1) when nothing is left."""
    t1, t2 = abstract_of(x1), abstract_of(x2)
    if t1.dtype != t2.dtype or not t1.dtype.is_float:
        raise DTypeError(f"batch_dot: expected two float Tensors of one dtype, got {t1.dtype} "
                         f"and {t2.dtype}")
    if t1.ndim < 2 or t2.ndim < 2:
        raise ShapeError(f"batch_dot: expected Tensors of rank >= 2, got shapes {t1.shape} and "
                         f"{t2.shape}")
    if t1.shape[0] != t2.shape[0]:
        raise ShapeError(f"batch_dot: the batch sizes differ: {t1.shape} and {t2.shape}")
    a1, a2 = _batch_dot_axes(axes, t1.ndim, t2.ndim)
    if t1.shape[a1] != t2.shape[a2]:
        raise ShapeError(f"batch_dot: axis {a1} of {t1.shape} and axis {a2} of {t2.shape} "
                         f"must have one size")
    free1 = [d for d in range(1, t1.ndim) if d != a1]
    free2 = [d for d in range(1, t2.ndim) if d != a2]
    batch, k = t1.shape[0], t1.shape[a1]
    left = F.reshape(F.transpose(x1, (0, *free1, a1)), (batch, -1, k))
    right = F.reshape(F.transpose(x2, (0, a2, *free2)), (batch, k, -1))
    out_shape = (batch, *(t1.shape[d] for d in free1), *(t2.shape[d] for d in free2))
    return F.reshape(F.matmul(left, right), out_shape if len(out_shape) > 1 else (batch, 1))


def ger(input, vec2):
    """The outer product of two vectors."""
    if len(input.shape) != 1 or len(vec2.shape) != 1:
        raise ShapeError(f"For 'Ger', the inputs must be 1-D, got shapes {input.shape} and "
                         f"{vec2.shape}")
    return F.reshape(input, (-1, 1)) * F.reshape(vec2, (1, -1))


def dot(input, other):
    """NumPy's dot of two Tensors of rank 2 or more: the last axis of `input` against the
    second-to-last of `other`; shape input.shape[:-1] + other.shape[:-2] + other.shape[-1:]."""
    a, b = tuple(input.shape), tuple(other.shape)
    if len(a) < 2 or len(b) < 2 or a[-1] != b[-2]:
        raise ShapeError(f"For 'dot', the inputs must have rank 2 or more and input's last "
                         f"dimension must equal other's second-to-last, got {a} and {b}")
    moved = F.transpose(other, (len(b) - 2,) + tuple(i for i in range(len(b)) if i != len(b) - 2))
    product = F.matmul(F.reshape(input, (-1, a[-1])), F.reshape(moved, (b[-2], -1)))
    return F.reshape(product, a[:-1] + b[:-2] + b[-1:])


def lstsq(input, A):
    """The least-squares solution X (n, k) of input @ X = A for an (m, n) `input` and an (m, k)
    or (m,) `A`, through the normal equations as MindSpore's CPU Lstsq: (input^T input)^-1
    input^T A when m >= n, else the minimum-norm input^T (input input^T)^-1 A. float16 is
    solved in float32."""
    x, a = abstract_of(input), abstract_of(A)
    check_tensor_types_same("Lstsq", {"x": x.dtype, "a": a.dtype},
                            (dt.float16, dt.float32, dt.float64))
    if x.ndim != 2:
        raise ShapeError(f"For 'Lstsq', the dimension of x must be equal to 2, but got x_dim: "
                         f"{x.ndim}.")
    if a.ndim not in (1, 2):
        raise ShapeError(f"For 'Lstsq', the dimension of 'a' must be equal to 2 or 1, but got "
                         f"a_dim: {a.ndim}.")
    if x.shape[0] != a.shape[0]:
        raise ShapeError(f"For 'Lstsq', the length of x_dim[0] must be equal to the length of "
                         f"a_dims[0]. But got x_dim[0]: {x.shape[0]},  a_dims[0]: "
                         f"{a.shape[0]}.")
    if x.dtype == dt.float16:
        return F.cast(lstsq(F.cast(input, dt.float32), F.cast(A, dt.float32)), dt.float16)
    rhs = F.reshape(A, (a.shape[0], 1)) if a.ndim == 1 else A
    m, n = x.shape
    if m >= n:
        gram = M.matmul(input, input, transpose_a=True)
        return L.matrix_solve(gram, M.matmul(input, rhs, transpose_a=True))
    gram = M.matmul(input, input, transpose_b=True)
    return M.matmul(input, L.matrix_solve(gram, rhs), transpose_a=True)


def matrix_solve(matrix, rhs, adjoint=False):
    """X with matrix @ X = rhs (adjoint: matrix's conjugate transpose @ X = rhs), for square
    matrices and their batches."""
    return F.matrix_solve(matrix, rhs, adjoint=adjoint)
