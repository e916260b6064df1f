"""gen_ops_prim's arithmetic, reduction, comparison and linear-algebra classes, over mint's
functions: each call takes MindSpore's call arguments, in its order and with its defaults
(`AddExt()(input, other, alpha=1)`); the `...Scalar` and `...Tensor` forms are the two kinds of
`other` MindSpore dispatches to."""
import numpy as np

from cellgraph import ops
from cellgraph.ops.primitive_class import define_class
from cellgraph.primitives import dtype as mstype
from cellgraph.primitives.errors import ArgumentValueError
from cellgraph.primitives.exports import REQUIRED

from ._mint_lookup import mint

MODULE = "cellgraph.ops.auto_generate.gen_ops_prim"


def _add(input, other, alpha=1):
    return mint().add(input, other, alpha=alpha)


def _sub(input, other, alpha=1):
    return mint().sub(input, other, alpha=alpha)


def _mul(input, other):
    return mint().mul(input, other)


def _div(input, other):
    return mint().div(input, other)


def _div_mod(input, other, rounding_mode=None):
    return mint().div(input, other, rounding_mode=rounding_mode)


def _addcdiv(input, tensor1, tensor2, value=1):
    return mint().addcdiv(input, tensor1, tensor2, value=value)


def _addcmul(input, tensor1, tensor2, value=1):
    return mint().addcmul(input, tensor1, tensor2, value=value)


def _addmm(input, mat1, mat2, beta=1, alpha=1):
    return mint().addmm(input, mat1, mat2, beta=beta, alpha=alpha)


def _addbmm(input, batch1, batch2, beta=1, alpha=1):
    return mint().addbmm(input, batch1, batch2, beta=beta, alpha=alpha)


def _baddbmm(input, batch1, batch2, beta=1, alpha=1):
    return mint().baddbmm(input, batch1, batch2, beta=beta, alpha=alpha)


def _addmv(input, mat, vec, beta=1, alpha=1):
    return mint().addmv(input, mat, vec, beta=beta, alpha=alpha)


def _mm(input, mat2):
    return mint().mm(input, mat2)


def _mv(input, vec):
    return mint().mv(input, vec)


def _dot(input, other):
    return mint().dot(input, other)


def _outer(input, vec2):
    return mint().outer(input, vec2)


def _vdot(input, other):
    return mint().vdot(input, other)


def _unary(name: str):
    """`Name()(input)`: mint's function `name` of one tensor."""
    def call(input):
        return getattr(mint(), name)(input)

    call.__name__ = call.__qualname__ = name
    return call


def _binary(name: str):
    """`Name()(input, other)`: mint's function `name` of two operands."""
    def call(input, other):
        return getattr(mint(), name)(input, other)

    call.__name__ = call.__qualname__ = name
    return call


def _bool_not(x):
    """`not x`, as a 0-d bool Tensor (of a Python bool, or of a bool Tensor's elements)."""
    if isinstance(x, (bool, int)):
        return ops.Tensor(not x)
    return ops.logical_not(x)


def _equal(input, other):
    """Whether the two have one shape and equal elements, as a 0-d bool Tensor."""
    if tuple(input.shape) != tuple(other.shape):
        return ops.Tensor(False)
    return ops.all(ops.equal(input, other))


def _argmax(input, dim=None, keepdim=False):
    return mint().argmax(input, dim, keepdim)


def _argmin(input, dim=None, keepdim=False):
    return mint().argmin(input, dim, keepdim)


def _argsort(input, dim=-1, descending=False, stable=False):
    return mint().argsort(input, dim, descending, stable)


def _sort(input, dim=-1, descending=False, stable=False):
    return mint().sort(input, dim=dim, descending=descending, stable=stable)


def _topk(input, k, dim=-1, largest=True, sorted=True):
    return mint().topk(input, k, dim, largest, sorted)


def _any_dim(input, dim, keepdim=False):
    return mint().any(input, dim, keepdim)


def _clamp(input, min=None, max=None):
    return mint().clamp(input, min, max)


def _count_nonzero(input, dim=None):
    return mint().count_nonzero(input, dim)


def _cumsum(input, dim, dtype=None):
    return mint().cumsum(input, dim, dtype)


def _cummin(input, dim):
    return mint().cummin(input, dim)


def _lerp(input, end, weight):
    return mint().lerp(input, end, weight)


def _logsumexp(input, dim, keepdim=False):
    return mint().logsumexp(input, dim, keepdim)


def _nansum(input, dim=None, keepdim=False, dtype=None):
    return mint().nansum(input, dim, keepdim, dtype=dtype)


def _prod(input, dim=None, keepdim=False, dtype=None):
    return mint().prod(input, dim, keepdim, dtype=dtype)


def _norm(input, p=2.0, dim=None, keepdim=False, dtype=None):
    return mint().norm(input, p, dim, keepdim, dtype=dtype)


def _vector_norm(x, ord=2, dim=None, keepdim=False, dtype=None):
    return mint().linalg.vector_norm(x, ord, dim, keepdim, dtype=dtype)


def _moments(name: str):
    """Std, Var, StdMean, VarMean: mint's `name` with the correction by position."""
    def call(input, dim=None, correction=1, keepdim=False):
        return getattr(mint(), name)(input, dim, correction=correction, keepdim=keepdim)

    call.__name__ = call.__qualname__ = name
    return call


def _median(input):
    return mint().median(input)


def _median_dim(input, dim=-1, keepdim=False):
    return mint().median(input, dim, keepdim)


def _kthvalue(input, k, dim=-1, keepdim=False):
    return mint().kthvalue(input, k, dim, keepdim)


def _histc(input, bins=100, min=0, max=0):
    return mint().histc(input, bins, min, max)


def _bincount(input, weights=None, minlength=0):
    return mint().bincount(input, weights, minlength)


def _linspace(start, end, steps, dtype=None):
    return mint().linspace(start, end, steps, dtype=dtype)


def _arange(start, end, step, dtype=None):
    return mint().arange(start, end, step, dtype=dtype)


def _take(input, index):
    return mint().take(input, index)


def _diag(input, diagonal=0):
    return mint().diag(input, diagonal)


def _tril(input, diagonal=0):
    return mint().tril(input, diagonal)


def _trace_v2(input, offset=0, axis1=1, axis2=0, dtype=None):
    """The sums of the diagonals at `offset` of the planes (axis1, axis2); integers sum as
    int64 (NumPy's trace)."""
    out = ops.diagonal(input, offset, axis1, axis2).sum(-1)
    if dtype is None and (input.dtype.is_int or input.dtype.is_bool):
        dtype = mstype.int64
    return out if dtype is None else ops.cast(out, dtype)


def _solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False):
    """x with op(a) x = b, a's `lower` or upper triangle read (its diagonal as ones when
    `unit_diagonal`), op(a) being a, its transpose (trans 1, "T") or its conjugate transpose
    (trans 2, "C"); b a vector or a matrix of columns (SciPy's solve_triangular)."""
    trans = {"N": 0, "T": 1, "C": 2}.get(trans, trans)
    if trans not in (0, 1, 2):
        raise ArgumentValueError(f"For 'SolveTriangular', 'trans' must be 0, 1, 2, 'N', 'T' or "
                                 f"'C', but got {trans!r}")
    if len(a.shape) < 2 or a.shape[-1] != a.shape[-2]:
        raise ArgumentValueError(f"For 'SolveTriangular', the last two dimensions of `a` should "
                                 f"be the same, but got shape of {tuple(a.shape)}.")
    triangle = ops.tril(a) if lower else ops.triu(a)
    if unit_diagonal:
        eye = ops.eye(a.shape[-1], a.shape[-1], a.dtype)
        triangle = triangle * (1 - eye) + eye
    if trans:
        triangle = ops.swapaxes(triangle, -1, -2)
        triangle = ops.conj(triangle) if trans == 2 and a.dtype.is_complex else triangle
    vector = len(b.shape) == len(a.shape) - 1
    out = ops.matrix_solve(triangle, ops.expand_dims(b, -1) if vector else b)
    return out.squeeze(-1) if vector else out


_LSTSQ_DRIVERS = (None, "gels", "gelsy", "gelsd", "gelss")


def _lstsq(A, B, driver=None):
    """(solution, residuals, rank, singular_values) of the least-squares problem A X = B, as
    torch.linalg.lstsq gives them on a CPU: the minimum-norm solution; the residuals' squared
    sums per column when A is tall, of full rank and the driver is not gelsy (else empty); the
    rank (empty for gels); the singular values for gelsd and gelss (else empty)."""
    if driver not in _LSTSQ_DRIVERS:
        raise ArgumentValueError(f"For 'LstsqV2', 'driver' must be one of "
                                 f"{_LSTSQ_DRIVERS[1:]}, but got {driver!r}")
    driver = driver or "gelsy"
    m, n = A.shape[-2], A.shape[-1]
    vector = len(B.shape) == len(A.shape) - 1
    rhs = ops.expand_dims(B, -1) if vector else B
    solution = ops.matmul(ops.pinv(A), rhs)
    values = ops.svd(A, compute_uv=False)
    rank = (values > values.max(-1, keepdims=True) * (_EPS[A.dtype] * max(m, n))).sum(-1)
    empty = ops.zeros((0,), A.dtype)
    residuals = empty
    if m > n and driver != "gelsy" and _full_rank(rank, n):
        residuals = ops.square(ops.matmul(A, solution) - rhs).sum(-2)
    solution = solution.squeeze(-1) if vector else solution
    return (solution, residuals,
            ops.zeros((0,), mstype.int64) if driver == "gels" else ops.cast(rank, mstype.int64),
            values if driver in ("gelsd", "gelss") else empty)


def _full_rank(rank, n: int) -> bool:
    """Whether every matrix has rank n; inside a graph, where the rank is known only when it
    runs, assumed (the residuals' shape must be known when compiling)."""
    from cellgraph.compiler.builder import current_builder

    return current_builder() is not None or bool((rank == n).all())


_EPS = {mstype.float32: float(np.finfo(np.float32).eps),
        mstype.float64: float(np.finfo(np.float64).eps),
        mstype.complex64: float(np.finfo(np.float32).eps),
        mstype.complex128: float(np.finfo(np.float64).eps)}


def _pow(input, exponent):
    return mint().pow(input, exponent)


def _real(input):
    return ops.real(input)


def _imag(input):
    return ops.imag(input)


def _correlate(a, v, pad_mode="valid"):
    """The cross-correlation of two 1-D tensors (numpy.correlate), in float32 for integers."""
    from cellgraph import numpy as mnp  # the numpy interface sits above ops

    if a.dtype.is_int or a.dtype.is_bool:
        a, v = ops.cast(a, mstype.float32), ops.cast(v, mstype.float32)
    return mnp.correlate(a, v, pad_mode)


def _scalar_cast(input_x, input_y):
    """The number `input_x` as a 0-d Tensor of dtype `input_y` (a float made an integer is
    truncated)."""
    return ops.cast(ops.Tensor(input_x), input_y)


def _einsum(equation, operands):
    return mint().einsum(equation, *operands)


def _qr(A, mode="reduced"):
    return ops.qr(A, mode)


def _triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """(x, A): x with op(A) x = b, A's upper or lower triangle read (torch's
    triangular_solve), and A itself."""
    return _solve_triangular(A, b, 1 if transpose else 0, not upper, unitriangular), A


def _roll(input, shifts, dims=None):
    return mint().roll(input, shifts, dims)


_TABLE = {
    "AddExt": _add, "AddScalar": _add, "SubExt": _sub, "SubScalar": _sub,
    "Muls": _mul, "Divs": _div, "DivMod": _div_mod, "DivMods": _div_mod,
    "AddcdivExt": _addcdiv, "AddcmulExt": _addcmul,
    "Addmm": _addmm, "Addbmm": _addbmm, "Baddbmm": _baddbmm, "Addmv": _addmv,
    "Mm": _mm, "Mv": _mv, "Dot": _dot, "Outer": _outer, "Vdot": _vdot,
    "AcosExt": _unary("acos"), "AcoshExt": _unary("acosh"), "AsinExt": _unary("asin"),
    "AsinhExt": _unary("asinh"), "AtanExt": _unary("atan"), "Atan2Ext": _binary("atan2"),
    "Exp2": _unary("exp2"), "Frac": _unary("frac"), "Sinc": _unary("sinc"),
    "IsNegInf": _unary("isneginf"), "BitwiseNot": _unary("bitwise_not"),
    "BoolNot": _bool_not, "Any": _unary("any"), "Max": _unary("max"),
    "Min": _unary("min"), "TraceExt": _unary("trace"), "MatrixInverseExt": _unary("inverse"),
    "BitwiseAndScalar": _binary("bitwise_and"), "BitwiseAndTensor": _binary("bitwise_and"),
    "BitwiseOrScalar": _binary("bitwise_or"), "BitwiseOrTensor": _binary("bitwise_or"),
    "BitwiseXorScalar": _binary("bitwise_xor"), "BitwiseXorTensor": _binary("bitwise_xor"),
    "EqualExt": _equal, "EqScalar": _binary("eq"),
    "GreaterEqualScalar": _binary("ge"), "LessScalar": _binary("lt"),
    "FloorDivScalar": _binary("floor_divide"), "FmodScalar": _binary("fmod"),
    "FmodTensor": _binary("fmod"), "RemainderScalarTensor": _binary("remainder"),
    "RemainderTensorScalar": _binary("remainder"), "RemainderTensorTensor": _binary("remainder"),
    "LogAddExp": _binary("logaddexp"), "LogAddExp2": _binary("logaddexp2"),
    "XLogYScalarOther": _binary("xlogy"), "XLogYScalarSelf": _binary("xlogy"),
    "ArgMaxExt": _argmax, "ArgMinExt": _argmin, "ArgSort": _argsort, "SortExt": _sort,
    "TopkExt": _topk, "AnyExt": _any_dim, "ClampScalar": _clamp, "ClampTensor": _clamp,
    "CountNonZero": _count_nonzero, "CumsumExt": _cumsum, "CumminExt": _cummin,
    "LerpScalar": _lerp, "LogSumExp": _logsumexp, "Nansum": _nansum, "ProdExt": _prod,
    "Norm": _norm, "LinalgVectorNorm": _vector_norm,
    "Std": _moments("std"), "Var": _moments("var"), "StdMean": _moments("std_mean"),
    "VarMean": _moments("var_mean"), "MedianExt": _median, "MedianDim": _median_dim,
    "Kthvalue": _kthvalue, "HistcExt": _histc, "BincountExt": _bincount,
    "LinSpaceExt": _linspace, "Arange": _arange, "Take": _take, "DiagExt": _diag,
    "TrilExt": _tril, "TraceV2": _trace_v2, "SolveTriangular": _solve_triangular,
    "LstsqV2": _lstsq, "PowScalarTensor": _pow, "PowTensorScalar": _pow, "RealView": _real,
    "ImagView": _imag, "ScalarCast": _scalar_cast, "EinsumExt": _einsum, "LinalgQr": _qr,
    "TriangularSolve": _triangular_solve,
}
# classes whose constructor takes some of the arguments: name -> (function, init defaults)
_CONFIGURED = {"Roll": (_roll, {"shifts": REQUIRED, "dims": None}),
               "Correlate": (_correlate, {"pad_mode": "valid"})}

CLASSES = {name: define_class(name, fn, None, MODULE) for name, fn in _TABLE.items()}
CLASSES.update({name: define_class(name, fn, init, MODULE)
                for name, (fn, init) in _CONFIGURED.items()})
