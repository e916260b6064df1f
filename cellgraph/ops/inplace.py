"""In-place operations: the Tensor methods whose names end in `_` (`x.add_(y)`, `x.zero_()`),
MindSpore's in-place primitive classes (`InplaceAddExt` and the others of
`ops.auto_generate.gen_ops_prim`, `ops.InplaceIndexAdd`).

Each computes its input's new value with the functional ops, in the input's dtype and shape,
and writes it into the input (`compiler.effects.update_in_place`): eagerly the Tensor's data
changes; inside a graph the input is rebound, so every later read of it, through any name or
container holding it, sees the new value, and a Tensor passed to the graph is written back after
the run, as MindSpore does. Each returns its input.
"""
from __future__ import annotations

from cellgraph.compiler.effects import update_in_place
from cellgraph.primitives import functional as F
from cellgraph.primitives.floor_division import floor_divide

from .function.array_func.indexing import index_fill, masked_fill, masked_scatter
from .function.inplace_func import (  # noqa: F401  (the in-place functions of ops)
    OPS_FUNCTIONS,
    bernoulli_,
    by_operand,
    clamp_,
    erfinv_,
    exponential_,
    inplace_sigmoid,
    normal_,
    put_,
    random_,
    sigmoid_,
    tanh_,
    uniform_,
    zero_,
)
from .function.math_func.elementwise import index_added, remainder
from .function.math_func.linalg import addmm
from .primitive_class import PrimitiveClass, function_class


def _scaled(other, alpha):
    return other if isinstance(alpha, (int, float)) and alpha == 1 else F.mul(other, alpha)


# ----- the in-place functions (the methods are these with `self` first) ------------------------

def add_(input, other, *, alpha=1):
    """`input += alpha * other`, in place."""
    return update_in_place(input, F.add(input, _scaled(other, alpha)),
                           by_operand(other, "InplaceAddExt", "InplaceAddsExt"))


def sub_(input, other, *, alpha=1):
    """`input -= alpha * other`, in place."""
    return update_in_place(input, F.sub(input, _scaled(other, alpha)),
                           by_operand(other, "InplaceSubExt", "InplaceSubScalar"))


def mul_(input, other):
    return update_in_place(input, F.mul(input, other), by_operand(other, "InplaceMul", "InplaceMuls"))


def div_(input, other, *, rounding_mode=None):
    from cellgraph import mint  # above ops (it loads nn): read when called

    op = ("InplaceDiv", "InplaceDivs") if rounding_mode is None else ("InplaceDivMod",
                                                                      "InplaceDivMods")
    return update_in_place(input, mint.div(input, other, rounding_mode=rounding_mode),
                           by_operand(other, *op))


def floor_divide_(input, other):
    return update_in_place(input, floor_divide(input, other),
                           by_operand(other, "InplaceFloorDivide", "InplaceFloorDivides"))


def remainder_(input, other):
    return update_in_place(input, remainder(input, other),
                           by_operand(other, "InplaceRemainderTensorTensor",
                                     "InplaceRemainderTensorScalar"))


def copy_(input, src, non_blocking=False):
    """`input`'s data replaced by `src`'s (cast to its dtype, broadcast to its shape)."""
    return update_in_place(input, src, "InplaceCopy")


def fill_(input, value):
    return update_in_place(input, value, by_operand(value, "InplaceFillTensor",
                                                   "InplaceFillScalar"))


def masked_fill_(input, mask, value):
    return update_in_place(input, masked_fill(input, mask, value),
                           by_operand(value, "InplaceMaskedFillTensor", "InplaceMaskedFillScalar"))


def masked_scatter_(input, mask, source):
    return update_in_place(input, masked_scatter(input, mask, source), "InplaceMaskedScatter")


def index_fill_(input, dim, index, value):
    return update_in_place(input, index_fill(input, dim, index, value),
                           by_operand(value, "InplaceIndexFillTensor", "InplaceIndexFillScalar"))


def scatter_(input, dim, index, src):
    return update_in_place(input, F.scatter(input, dim, index, src),
                           by_operand(src, "InplaceScatterSrc", "InplaceScatterValue"))


def scatter_add_(input, dim, index, src):
    from cellgraph.common.apply_ops import scatter_add  # the Parameter updates sit above ops

    return update_in_place(input, scatter_add(input, dim, index, src), "InplaceScatterAdd")


def addmm_(input, mat1, mat2, *, beta=1, alpha=1):
    return update_in_place(input, addmm(input, mat1, mat2, beta=beta, alpha=alpha),
                           "InplaceAddmm")


def index_add_(input, dim, index, source, *, alpha=1):
    """`input[..., index[i], ...] += alpha * source[..., i, ...]` along `dim`, in place; repeated
    indices add up."""
    return update_in_place(input, index_added(input, dim, index, _scaled(source, alpha)),
                           "InplaceIndexAddExt")


def index_copy_(input, dim, index, tensor):
    """`input[..., index[i], ...] = tensor[..., i, ...]` along `dim`, in place."""
    from .tensor_overloads import index_copy  # (the functional form, with the methods)

    return update_in_place(input, index_copy(input, dim, index, tensor), "InplaceIndexCopy")


def index_put_(input, indices, values, accumulate=False):
    """`input[indices] = values` (`+=` with `accumulate`), in place."""
    from .tensor_overloads import index_put

    return update_in_place(input, index_put(input, indices, values, accumulate),
                           "InplaceIndexPut")


def fill_diagonal_(input, fill_value, wrap=False):
    """`fill_value` on the main diagonal of `input`, in place."""
    from .tensor_overloads import fill_diagonal

    return update_in_place(input, fill_diagonal(input, fill_value, wrap), "InplaceFillDiagonal")


def _unary(name: str, op: str):
    def method(input):
        return update_in_place(input, getattr(F, name)(input), op)

    method.__name__ = method.__qualname__ = name + "_"
    method.__doc__ = f"`input = ops.{name}(input)`, in place."
    return method


exp_, log_, floor_, sign_, relu_ = (
    _unary(n, op) for n, op in (("exp", "InplaceExp"), ("log", "InplaceLog"),
                                ("floor", "InplaceFloor"), ("sign", "InplaceSign"),
                                ("relu", "InplaceReLU")))


METHODS = (add_, sub_, mul_, div_, floor_divide_, remainder_, copy_, fill_, zero_, clamp_,
           masked_fill_, masked_scatter_, index_fill_, scatter_, scatter_add_, addmm_,
           index_add_, exp_, log_, floor_, sigmoid_, tanh_, sign_, erfinv_, normal_, uniform_,
           exponential_, random_, bernoulli_, put_, index_copy_, index_put_, fill_diagonal_)




# ----- MindSpore's in-place primitive classes --------------------------------------------------

def _index_add_ext(input, dim, index, source, alpha=1):
    return index_add_(input, dim, index, source, alpha=alpha)


def _add_ext(input, other, alpha=1):
    return add_(input, other, alpha=alpha)


def _sub_ext(input, other, alpha=1):
    return sub_(input, other, alpha=alpha)


def _div_mod(input, other, rounding_mode=None):
    return div_(input, other, rounding_mode=rounding_mode)


def _addmm(input, mat1, mat2, beta=1, alpha=1):
    return addmm_(input, mat1, mat2, beta=beta, alpha=alpha)


def _scatter_value(input, dim, index, value):
    """`value` written into input at `index` along `dim`, in place."""
    return scatter_(input, dim, index, F.fill(input.dtype, tuple(index.shape), value))


def _functional():
    from cellgraph.mint.nn import functional  # above ops (it loads nn): read when called

    return functional


def _elu(input, alpha=1.0):
    return update_in_place(input, _functional().elu(input, alpha), "InplaceElu")


def _hardtanh(input, min_val=-1, max_val=1):
    return update_in_place(input, _functional().hardtanh(input, min_val, max_val),
                           "InplaceHardtanh")


def _silu(input):
    return update_in_place(input, _functional().silu(input), "InplaceSiLU")


def _threshold(input, threshold, value):
    return update_in_place(input, _functional().threshold(input, threshold, value),
                           "InplaceThreshold")


# gen_ops_prim's classes without attributes: `InplaceAddExt()(input, other, alpha=1)`
GEN_OPS_CLASSES = {
    name: function_class(name, fn, f"`InplaceXxx()(input, ...)`: {fn.__name__} in place")
    for name, fn in {
        "InplaceAddExt": _add_ext, "InplaceAddsExt": _add_ext, "InplaceSubExt": _sub_ext,
        "InplaceSubScalar": _sub_ext, "InplaceMul": mul_, "InplaceMuls": mul_,
        "InplaceDiv": div_, "InplaceDivs": div_, "InplaceDivMod": _div_mod,
        "InplaceDivMods": _div_mod, "InplaceFloorDivide": floor_divide_,
        "InplaceFloorDivides": floor_divide_, "InplaceRemainderTensorTensor": remainder_,
        "InplaceRemainderTensorScalar": remainder_, "InplaceCopy": copy_,
        "InplaceZero": zero_, "InplaceFillScalar": fill_, "InplaceFillTensor": fill_,
        "InplaceClampScalar": clamp_, "InplaceClampTensor": clamp_,
        "InplaceMaskedFillScalar": masked_fill_, "InplaceMaskedFillTensor": masked_fill_,
        "InplaceMaskedScatter": masked_scatter_, "InplaceIndexAddExt": _index_add_ext,
        "InplaceExp": exp_, "InplaceLog": log_, "InplaceFloor": floor_,
        "InplaceSigmoid": sigmoid_, "InplaceTanh": tanh_, "InplaceSign": sign_,
        "InplaceErfinv": erfinv_, "InplaceReLU": relu_, "InplaceScatterAdd": scatter_add_,
        "InplaceScatterSrc": scatter_, "InplaceAddmm": _addmm,
        "InplaceFillDiagonal": fill_diagonal_, "InplaceIndexPut": index_put_,
        "InplaceIndexCopy": index_copy_, "InplaceIndexFillScalar": index_fill_,
        "InplaceIndexFillTensor": index_fill_, "InplacePut": put_,
        "InplaceScatterValue": _scatter_value, "InplaceElu": _elu, "InplaceHardtanh": _hardtanh,
        "InplaceSiLU": _silu, "InplaceThreshold": _threshold,
    }.items()}


class InplaceIndexAdd(PrimitiveClass):
    """`ops.InplaceIndexAdd(axis)(var, indices, updates)`: `var[..., indices[i], ...] +=
    updates[..., i, ...]` along `axis`, in place; returns `var`."""

    def __init__(self, axis):
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"For 'InplaceIndexAdd', the 'axis' must be int, but got "
                            f"{type(axis).__name__}")
        self.axis = axis
        self._attrs = {}

    def __call__(self, var, indices, updates):
        return update_in_place(var, index_added(var, self.axis, indices, updates))


def install(methods: type) -> None:
    """Give `methods` (the core's TensorMethods) the in-place methods it lacks."""
    for fn in METHODS:
        if not hasattr(methods, fn.__name__):
            setattr(methods, fn.__name__, fn)
