"""Elementwise arithmetic, transcendental functions, comparisons and matmul.

Each primitive is one declaration: its type rule and its bprop, written with the functional ops
below so that the gradient graph is made of ordinary primitives and can be differentiated again.
"""
from __future__ import annotations

from . import dtype as dt
from .batching import broadcasting_rule, insert_ones, move_axis, ndim, same_shape_rule, to_front
from .core import (
    FLOAT,
    SAME,
    Primitive,
    Promote,
    TensorType,
    abstract_of,
    broadcast_shapes,
    fmt_shape,
    prims,
    result_dtype,
)
from .errors import DTypeError, ShapeError

# ----- type rules ------------------------------------------------------------------------------

def same_type(x: TensorType) -> TensorType:
    return x.strong()


def float_type(x: TensorType) -> TensorType:
    return TensorType(x.shape, dt.to_float(x.dtype))


def bool_type(x: TensorType) -> TensorType:
    return TensorType(x.shape, dt.bool_)


def arith_type(x: TensorType, y: TensorType) -> TensorType:
    return TensorType(broadcast_shapes(x.shape, y.shape), result_dtype(x, y),
                      weak=x.weak and y.weak)


def div_type(x: TensorType, y: TensorType) -> TensorType:
    out = arith_type(x, y)
    return TensorType(out.shape, dt.to_float(out.dtype), out.weak)


def compare_type(x: TensorType, y: TensorType) -> TensorType:
    return TensorType(broadcast_shapes(x.shape, y.shape), dt.bool_)


def real_operands(rule):
    """`rule` for an operation on ordered values: complex operands have no order (NumPy's
    lexicographic one is not MindSpore's), so they are refused."""
    def checked(*avals, **params):
        if any(a.dtype.is_complex for a in avals):
            raise DTypeError(f"expected real operands, got "
                             f"{', '.join(str(a.dtype) for a in avals)}")
        return rule(*avals, **params)
    checked.__wrapped__ = rule  # its signature is the rule's (Primitive.operand_counts)
    return checked


def select_type(cond: TensorType, x: TensorType, y: TensorType) -> TensorType:
    out = arith_type(x, y)
    return TensorType(broadcast_shapes(cond.shape, out.shape), out.dtype)


def _vector(shape: tuple) -> str:
    """A shape as MindSpore's messages print it: `[const vector]{2, 3}`."""
    return "[const vector]{" + ", ".join(str(d) for d in shape) + "}"


def matmul_type(x: TensorType, y: TensorType, transpose_a=False, transpose_b=False):
    if x.ndim < 2 or y.ndim < 2:
        raise ShapeError(f"expected tensors of rank >= 2, got shapes {fmt_shape(x.shape)} "
                         f"and {fmt_shape(y.shape)}")
    if x.dtype != y.dtype and not (x.weak or y.weak):
        raise DTypeError(f"expected operands of one dtype, got {x.dtype} and {y.dtype}")
    m, k1 = (x.shape[-1], x.shape[-2]) if transpose_a else x.shape[-2:]
    k2, n = (y.shape[-1], y.shape[-2]) if transpose_b else y.shape[-2:]
    if k1 is not None and k2 is not None and k1 != k2:  # MindSpore's words (rank 2: MatMul)
        if x.ndim == y.ndim == 2:
            flags = "".join(f", {name}=True" for name, on in (("transpose_a", transpose_a),
                                                               ("transpose_b", transpose_b)) if on)
            raise ShapeError(f"For 'MatMul' the input dimensions must be equal, but got "
                             f"'x1_col': {k1} and 'x2_row': {k2} (shapes {fmt_shape(x.shape)} "
                             f"and {fmt_shape(y.shape)}{flags}).")
        raise ShapeError(f"For BatchMatMul, the row of the input 'y' should be same as the col "
                         f"of the input 'x', with x shape {_vector(x.shape)}(transpose_a="
                         f"{int(transpose_a)}), y shape {_vector(y.shape)}(transpose_b="
                         f"{int(transpose_b)})")
    batch = broadcast_shapes(x.shape[:-2], y.shape[:-2])
    return TensorType(batch + (m, n), result_dtype(x, y))


# ----- declarations ----------------------------------------------------------------------------
# Elementwise primitives are MindSpore's functional ops themselves (`public`): `ops.exp`,
# `ops.Exp()`, and `Tensor.exp` where MindSpore has the method.

def _elementwise(name, rule, label=None, promote=None, array_api=None, method=True,
                 ops_module="math_ops", **kw):
    return Primitive(name, rule, label=label, promote=promote, array_api=array_api or name,
                     ops_module=ops_module, public=True, method=method, **kw)


def _float_math(name, label=None, array_api=None, **kw):
    return _elementwise(name, float_type, label, FLOAT, array_api, **kw)


neg = _elementwise("neg", same_type, array_api="negative", operands=("input",),
                   spellings=("ops.negative", "mint", "mint.negative"))
square = _elementwise("square", same_type, operands=("input",), spellings=("mint",))
sqrt = _float_math("sqrt", operands=("x",), spellings=("mint(input)",))
rsqrt = Primitive("rsqrt", float_type, promote=FLOAT, public=True, method=True, operands=("input",),
                  spellings=("mint",), ops_module="math_ops")
reciprocal = Primitive("reciprocal", float_type, promote=FLOAT, public=True, method=True,
                       operands=("input",), spellings=("mint",), ops_module="math_ops")
exp = _float_math("exp", operands=("input",), spellings=("mint",))
log = _float_math("log", operands=("input",), spellings=("mint",))
sin = _float_math("sin", operands=("input",), spellings=("mint",))
cos = _float_math("cos", operands=("input",), spellings=("mint",))
tan = _float_math("tan", operands=("input",), spellings=("mint",))
sinh = _float_math("sinh", operands=("input",), spellings=("mint",))
cosh = _float_math("cosh", operands=("input",), spellings=("mint",))
tanh = _float_math("tanh", operands=("input",), spellings=("mint", "mint.nn.functional"))
asin = _float_math("asin", operands=("input",),
                   spellings=("ops.arcsin(x)", "mint.arcsin(x)", "mint"))
acos = _float_math("acos", label="ACos", aliases=("Acos",), operands=("input",),
                   spellings=("ops.arccos", "mint", "mint.arccos"))
atan = _float_math("atan", operands=("input",), spellings=("ops.arctan", "mint.arctan", "mint"))
asinh = _float_math("asinh", operands=("input",), spellings=("ops.arcsinh", "mint.arcsinh", "mint"))
acosh = _float_math("acosh", operands=("input",), spellings=("ops.arccosh", "mint", "mint.arccosh"))
atanh = _float_math("atanh", operands=("input",), spellings=("ops.arctanh", "mint.arctanh", "mint"))
abs_ = _elementwise("abs", lambda x: TensorType(x.shape, dt.real_of(x.dtype)), complex_bprop=True,
                    operands=("input",), spellings=("ops.absolute", "mint"))
# its kernel (runtime/kernels.py) gives 0 for a NaN, as MindSpore's Sign
sign = Primitive("sign", same_type, ops_module="math_ops", public=True, method=True,
                 nondifferentiable=True, operands=("input",), spellings=("mint",))

add = _elementwise("add", arith_type, promote=SAME, aliases=("TensorAdd",),
                   operands=("input", "other"))  # its 1.x name
# its kernel (runtime/kernels.py) subtracts bools as MindSpore does, by exclusive or
sub = Primitive("sub", arith_type, promote=SAME, ops_module="math_ops", public=True, method=True,
                operands=("input", "other"), spellings=("ops.subtract",))
# MindSpore 2.10's Mul and Div rank a 0-d tensor below a tensor with dimensions of its kind
mul = _elementwise("mul", arith_type, promote=Promote(zero_dim_weak=True), array_api="multiply",
                   operands=("input", "other"), spellings=("ops.multiply",))
div = _elementwise("div", div_type, promote=Promote(to_float=True, zero_dim_weak=True),
                   array_api="divide", aliases=("RealDiv",),
                   operands=("input", "other"),
                   spellings=("ops.divide", "ops.realdiv", "ops.true_divide(dividend, divisor)"))
# its kernel (runtime/kernels.py) gives MindSpore's values for integers to negative powers
pow_ = Primitive("pow", arith_type, promote=SAME, ops_module="math_ops", public=True,
                 method=True, operands=("input", "exponent"))
atan2 = _elementwise("atan2", div_type, promote=FLOAT, operands=("input", "other"),
                     spellings=("mint.arctan2", "mint"))


def _numeric_type(x: TensorType) -> TensorType:
    if x.dtype.is_bool:
        raise DTypeError(f"expected a numeric Tensor, got {x.dtype}")
    return x.strong()


# +input, a numeric Tensor's values unchanged: ops.positive, ops.functional.positive,
# Tensor.positive and mindspore.numpy.positive(a, dtype=None); MindSpore has no class for it. A
# bool Tensor is refused, as the array API's positive refuses it (MindSpore 2.10 returns it).
positive = _elementwise("positive", _numeric_type, operands=("input",), spellings=("numpy(a)",),
                        primitive_class=False)


def _float_pair_type(x: TensorType, y: TensorType) -> TensorType:
    if x.dtype != y.dtype and not (x.weak or y.weak):  # MindSpore casts neither
        raise DTypeError(f"For primitive[NextAfter], the input type must be same, but got "
                         f"{x.dtype} and {y.dtype}.")
    if not (x.dtype.is_float and y.dtype.is_float):
        raise DTypeError(f"NextAfter: x1 and x2 must be float32 or float64 Tensors, got "
                         f"{x.dtype} and {y.dtype}")
    return arith_type(x, y)


# the next representable value after x1 towards x2: ops.nextafter, ops.NextAfter (filed in
# ops.operations.math_ops), Tensor.nextafter
nextafter = _elementwise("nextafter", _float_pair_type, label="NextAfter", promote=None,
                         operands=("input", "other"))
maximum = _elementwise("maximum", real_operands(arith_type), promote=SAME,
                       operands=("input", "other"), spellings=("mint",))
minimum = _elementwise("minimum", real_operands(arith_type), promote=SAME,
                       operands=("input", "other"), spellings=("mint",))
select = _elementwise("select", select_type, promote=Promote(first=1), array_api="where",
                      method=False, operands=("condition", "input", "other"),
                      spellings=("ops.where", "mint.where"), ops_module="array_ops")


_ordered_compare_type = real_operands(compare_type)


def _compare(name, label=None, promote=SAME, rule=_ordered_compare_type, **kw):
    return _elementwise(name, rule, label, promote, nondifferentiable=True, **kw)


equal = _compare("equal", rule=compare_type, operands=("input", "other"),
                 spellings=("ops.eq", "mint.eq"))
not_equal = _compare("not_equal", rule=compare_type, operands=("input", "other"),
                     spellings=("ops.ne", "mint.ne", "mint"))
less = _compare("less", operands=("input", "other"), spellings=("ops.lt", "mint", "mint.lt"))
less_equal = _compare("less_equal", operands=("input", "other"),
                      spellings=("ops.le", "mint.le", "mint"))
greater = _compare("greater", operands=("input", "other"), spellings=("ops.gt", "mint", "mint.gt"))
greater_equal = _compare("greater_equal", operands=("input", "other"),
                         spellings=("ops.ge", "mint.ge", "mint"))
def bool_scalar_operands(label: str, names: tuple, rule):
    """`rule` for an operation whose Python scalar operands must be bools (MindSpore's
    LogicalAnd takes `True`, not `1` or `1.0`: a TypeError naming the call)."""
    def checked(*avals, **params):
        if any(a.weak and not a.dtype.is_bool for a in avals):
            given = ", ".join(f"{n}={'Tensor' if not a.weak else a.dtype.np.kind}"
                              for n, a in zip(names, avals))
            given = given.replace("=i", "=int").replace("=f", "=float").replace("=c", "=complex")
            raise DTypeError(f'Failed calling {label} with "{label}()({given})".')
        return rule(*avals, **params)
    checked.__wrapped__ = rule
    return checked


logical_and = _compare("logical_and", promote=None, operands=("input", "other"),
                       spellings=("mint",),
                       rule=bool_scalar_operands("LogicalAnd", ("x", "y"), compare_type))
logical_or = _compare("logical_or", promote=None, operands=("input", "other"), spellings=("mint",),
                      rule=bool_scalar_operands("LogicalOr", ("x", "y"), compare_type))
logical_not = _elementwise("logical_not", bool_type, nondifferentiable=True, operands=("input",),
                           spellings=("mint",))

matmul = Primitive("matmul", matmul_type, label="MatMul")


def _matmul_variant(types, params) -> str | None:
    """"2d": two matrices of one dtype, float32 or float64 (BLAS's own case, which needs no
    broadcasting, batching or promotion)."""
    a, b = types
    if len(a.shape) == 2 == len(b.shape) and a.dtype == b.dtype and \
            a.dtype.name in ("float32", "float64"):
        return "2d"
    return None


matmul.kernel_variant = _matmul_variant


# ----- gradient helpers ------------------------------------------------------------------------

def sum_to(g, shape):
    """Sum `g` down to `shape`: the adjoint of broadcasting a `shape` tensor to g's shape."""
    gshape = abstract_of(g).shape
    shape = tuple(shape)
    if gshape == shape:
        return g
    lead = len(gshape) - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, d in enumerate(shape) if d == 1 and gshape[i + lead] != 1)
    if axes:
        g = prims.reduce_sum(g, axis=axes, keep_dims=True)
    return prims.reshape(g, shape=shape) if abstract_of(g).shape != shape else g


def add_terms(total, term):
    """Accumulate gradient terms, None standing for zero."""
    if term is None:
        return total
    return term if total is None else add(total, term)


def grad_like(g, x):
    """`g` reduced to the shape of input `x` (which took part in a broadcast)."""
    return sum_to(g, abstract_of(x).shape)


def _cast_like(mask, x):
    return prims.cast(mask, dtype=result_dtype(abstract_of(x)))


# ----- bprop rules (with ops, so they differentiate again) -------------------------------------

neg.def_bprop(lambda x, out, dout: (neg(dout),))
square.def_bprop(lambda x, out, dout: (mul(dout, mul(x, 2)),))
sqrt.def_bprop(lambda x, out, dout: (div(mul(dout, 0.5), out),))
rsqrt.def_bprop(lambda x, out, dout: (mul(dout, mul(-0.5, mul(out, mul(out, out)))),))
reciprocal.def_bprop(lambda x, out, dout: (neg(mul(dout, mul(out, out))),))
exp.def_bprop(lambda x, out, dout: (mul(dout, out),))
log.def_bprop(lambda x, out, dout: (div(dout, x),))
sin.def_bprop(lambda x, out, dout: (mul(dout, cos(x)),))
cos.def_bprop(lambda x, out, dout: (neg(mul(dout, sin(x))),))
tan.def_bprop(lambda x, out, dout: (mul(dout, add(1, mul(out, out))),))
sinh.def_bprop(lambda x, out, dout: (mul(dout, cosh(x)),))
cosh.def_bprop(lambda x, out, dout: (mul(dout, sinh(x)),))
tanh.def_bprop(lambda x, out, dout: (mul(dout, sub(1, mul(out, out))),))
asin.def_bprop(lambda x, out, dout: (mul(dout, rsqrt(sub(1, mul(x, x)))),))
acos.def_bprop(lambda x, out, dout: (neg(mul(dout, rsqrt(sub(1, mul(x, x))))),))
atan.def_bprop(lambda x, out, dout: (div(dout, add(1, mul(x, x))),))
asinh.def_bprop(lambda x, out, dout: (mul(dout, rsqrt(add(mul(x, x), 1))),))
acosh.def_bprop(lambda x, out, dout: (mul(dout, rsqrt(sub(mul(x, x), 1))),))
atanh.def_bprop(lambda x, out, dout: (div(dout, sub(1, mul(x, x))),))


@abs_.def_bprop
def _abs_bprop(x, out, dout):
    if not abstract_of(x).dtype.is_complex:
        return (mul(dout, sign(x)),)
    # |z| = sqrt(x² + y²): dL/dx + i dL/dy = g z / |z|, taken as 0 at z = 0 (as sign(0) = 0)
    scale = div(dout, select(equal(out, 0), 1, out))
    return (mul(prims.cast(scale, dtype=abstract_of(x).dtype), x),)

add.def_bprop(lambda x, y, out, dout: (grad_like(dout, x), grad_like(dout, y)))
sub.def_bprop(lambda x, y, out, dout: (grad_like(dout, x), grad_like(neg(dout), y)))
mul.def_bprop(lambda x, y, out, dout: (grad_like(mul(dout, y), x), grad_like(mul(dout, x), y)))
div.def_bprop(lambda x, y, out, dout: (grad_like(div(dout, y), x),
                                       grad_like(neg(mul(dout, div(out, y))), y)))


positive.def_bprop(lambda x, out, dout: (dout,))
# as MindSpore's: the step is below any perturbation, so d/dx1 is 1 and d/dx2 is 0
nextafter.def_bprop(lambda x, y, out, dout: (grad_like(dout, x), None))


@atan2.def_bprop
def _atan2_bprop(y, x, out, dout):
    scale = div(dout, add(mul(x, x), mul(y, y)))  # d atan2(y, x) = (x dy - y dx) / (x² + y²)
    return grad_like(mul(scale, x), y), grad_like(neg(mul(scale, y)), x)


@pow_.def_bprop
def _pow_bprop(x, y, out, dout):
    dx = mul(dout, mul(y, pow_(x, sub(y, 1))))
    # d/dy x**y = x**y log x; define it as 0 where x <= 0 (the limit at x = 0 for y > 0), and
    # at 0 only for a complex x, whose log is defined elsewhere.
    if abstract_of(x).dtype.is_complex:
        safe_x = select(equal(x, 0), 1, x)
    else:
        safe_x = select(greater(x, 0), x, 1)
    dy = mul(dout, mul(out, log(safe_x)))
    return grad_like(dx, x), grad_like(dy, y)


def extremum_grads(x, y, dout, x_wins, y_wins):
    """MindSpore's gradients of maximum / minimum: dout to the operand that wins strictly,
    half of it to each at a tie (an integer dout halved toward zero), and all of it to both
    where either is NaN."""
    dtype = abstract_of(dout).dtype
    if dtype.is_inexact:
        nan = logical_or(not_equal(x, x), not_equal(y, y))
        x_wins, y_wins = logical_or(x_wins, nan), logical_or(y_wins, nan)
        half = mul(dout, 0.5)
    else:
        half = prims.cast(mul(prims.cast(dout, dtype=dt.float64), 0.5), dtype=dtype)
    zero = prims.zeros_like(dout)
    at_tie = select(equal(x, y), half, zero)
    return (grad_like(add(select(x_wins, dout, zero), at_tie), x),
            grad_like(add(select(y_wins, dout, zero), at_tie), y))


@maximum.def_bprop
def _maximum_bprop(x, y, out, dout):
    return extremum_grads(x, y, dout, greater(x, y), less(x, y))


@minimum.def_bprop
def _minimum_bprop(x, y, out, dout):
    return extremum_grads(x, y, dout, less(x, y), greater(x, y))


@select.def_bprop
def _select_bprop(cond, x, y, out, dout):
    zero = mul(dout, 0)
    return None, grad_like(select(cond, dout, zero), x), grad_like(select(cond, zero, dout), y)


def _stacked_rows_grad(x, y, dout, transpose_b):
    """The gradient of a matrix `y` multiplying every matrix of a stack `x` (..., M, K), as
    one product over all of x's rows, or None where the shapes are not known. The per-matrix
    products summed over the stack give the same numbers but hold the whole stack of (K, N)
    products at once: a recurrent layer's weights over 500 steps made a gigabyte of them."""
    x_shape, d_shape = abstract_of(x).shape, abstract_of(dout).shape
    if len(x_shape) <= 2 or len(abstract_of(y).shape) != 2 or None in x_shape or \
            None in d_shape:
        return None
    count = 1
    for size in x_shape[:-1]:
        count *= size
    rows = prims.reshape(x, shape=(count, x_shape[-1]))
    grads = prims.reshape(dout, shape=(count, d_shape[-1]))
    return matmul(grads, rows, transpose_a=True) if transpose_b else \
        matmul(rows, grads, transpose_a=True)


@matmul.def_bprop
def _matmul_bprop(x, y, out, dout, transpose_a=False, transpose_b=False):
    stacked = None if transpose_a else _stacked_rows_grad(x, y, dout, transpose_b)
    if stacked is not None:
        dx = matmul(dout, y) if transpose_b else matmul(dout, y, transpose_b=True)
        return grad_like(dx, x), stacked
    if not transpose_a and not transpose_b:
        dx, dy = matmul(dout, y, transpose_b=True), matmul(x, dout, transpose_a=True)
    elif not transpose_a and transpose_b:
        dx, dy = matmul(dout, y), matmul(dout, x, transpose_a=True)
    elif transpose_a and not transpose_b:
        dx, dy = matmul(y, dout, transpose_b=True), matmul(x, dout)
    else:
        dx = matmul(y, dout, transpose_a=True, transpose_b=True)
        dy = matmul(dout, x, transpose_a=True, transpose_b=True)
    return grad_like(dx, x), grad_like(dy, y)


# ----- batching rules (vmap) -------------------------------------------------------------------

for _prim in (neg, square, sqrt, rsqrt, reciprocal, exp, log, sin, cos, tan, sinh, cosh, tanh,
              asin, acos, atan, asinh, acosh, atanh, abs_, sign, logical_not, positive):
    _prim.def_batch(same_shape_rule(_prim))
for _prim in (add, sub, mul, div, pow_, atan2, nextafter, maximum, minimum, select, equal,
              not_equal, less, less_equal, greater, greater_equal, logical_and, logical_or):
    _prim.def_batch(broadcasting_rule(_prim))


def _mm(x, y, transpose_a, transpose_b):
    flags = {k: True for k, v in (("transpose_a", transpose_a), ("transpose_b", transpose_b)) if v}
    return matmul(x, y, **flags)


@matmul.def_batch
def _matmul_batch(args, dims, transpose_a=False, transpose_b=False):
    """Matrix examples against one shared matrix become a single larger product (one GEMM);
    anything else is a batched matmul over a leading batch axis."""
    reshape = prims.reshape
    (x, y), (dx, dy) = args, dims
    rank_x, rank_y = ndim(x) - (dx is not None), ndim(y) - (dy is not None)
    if rank_x == 2 and rank_y == 2 and dy is None:  # stack x's examples into the rows
        if transpose_a:  # each example is (k, m): lay them out as (k, B*m)
            xs = move_axis(x, dx, 1)
            k, size, m = abstract_of(xs).shape
            rows = _mm(reshape(xs, shape=(k, size * m)), y, True, transpose_b)
        else:
            xs = to_front(x, dx)
            size, m, k = abstract_of(xs).shape
            rows = _mm(reshape(xs, shape=(size * m, k)), y, False, transpose_b)
        return reshape(rows, shape=(size, m, abstract_of(rows).shape[1])), 0
    if rank_x == 2 and rank_y == 2 and dx is None:  # stack y's examples into the columns
        if transpose_b:  # each example is (n, k): lay them out as (B*n, k)
            ys = to_front(y, dy)
            size, n, k = abstract_of(ys).shape
            cols = _mm(x, reshape(ys, shape=(size * n, k)), transpose_a, True)
        else:
            ys = move_axis(y, dy, 1)
            k, size, n = abstract_of(ys).shape
            cols = _mm(x, reshape(ys, shape=(k, size * n)), transpose_a, False)
        return reshape(cols, shape=(abstract_of(cols).shape[0], size, n)), 1
    rank = max(rank_x, rank_y)
    xs = x if dx is None else insert_ones(to_front(x, dx), 1, rank - rank_x)
    ys = y if dy is None else insert_ones(to_front(y, dy), 1, rank - rank_y)
    return _mm(xs, ys, transpose_a, transpose_b), 0
