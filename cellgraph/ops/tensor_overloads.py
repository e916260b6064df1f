"""The Tensor methods MindSpore dispatches in C++ among several overloads, each taking every
calling MindSpore lists for it (primitives/method_overloads.py, recorded from MindSpore).

MindSpore picks the first overload, in its order, whose parameters take the call's positional
and keyword arguments and whose parameter types (`<int>`, `<Tensor>`, `<number,None>`, ...) the
values have; so `x.gather(1, index)` is the `(dim, index)` form (gather_elements) and
`x.gather(indices, 0)` the `(input_indices, axis)` form, `x.max(0)` gives values and indices and
`x.max(axis=0)` the values. Here each overload is a function with MindSpore's parameter names,
kinds and defaults for that form, in MindSpore's order; `install` puts one method per name on the
core's TensorMethods (over what the core or the compositions gave it: the form they had is one of
the overloads, usually the last). A call no overload takes raises MindSpore's TypeError listing
the valid callings."""
from __future__ import annotations

import inspect
import numbers

import numpy as np

from cellgraph.compiler.builder import current_builder
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as _core
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.primitives.method_overloads import OVERLOADS
from cellgraph.primitives.overload_errors import fits_tag, overload_message
from cellgraph.primitives.tensor_methods import TensorMethods


def _tensor(data):
    from cellgraph.runtime.tensor import Tensor

    return Tensor(data)


def _ops():
    from cellgraph import ops

    return ops


def _mint():
    from cellgraph import mint

    return mint


# ------------------------------------------------------------------ matching a calling
def _calling_parameters(calling: str) -> list:
    """[(name, {type tags})] of a recorded calling `Tensor.f(a=<int,Tensor>, *, b=<bool>)`."""
    inner = calling[calling.index("(") + 1:calling.rindex(")")]
    out, depth, current = [], 0, ""
    for char in inner + ",":
        if char == "<":
            depth += 1
        elif char == ">":
            depth -= 1
        if char == "," and depth == 0:
            item = current.strip()
            current = ""
            if item and item != "*":
                name, _, tags = item.partition("=")
                out.append((name, set(tags.strip("<>").split(","))))
            continue
        current += char
    return out


def _is_tensor(value) -> bool:
    return isinstance(value, TensorMethods)


class _Form:
    """One overload: its function (MindSpore's parameters for the form) and the types each
    parameter takes (the union over the recorded callings with those parameter names)."""

    def __init__(self, fn, tags: dict):
        self.fn, self.tags = fn, tags
        self.signature = inspect.signature(fn)

    def bind(self, self_tensor, args, kwargs):
        try:
            bound = self.signature.bind(self_tensor, *args, **kwargs)
        except TypeError:
            return None
        for name, value in list(bound.arguments.items())[1:]:
            tags = self.tags.get(name)
            if tags is not None and not any(fits_tag(value, t) for t in tags):
                return None
        return bound


# the callings MindSpore 2.10 lists (in PyNative's error for a keyword no form takes) for methods
# whose graph-mode error lists none, so method_overloads.py has no entry for them
PYNATIVE_CALLINGS = {
    "cumsum": ("Tensor.cumsum(dim=<int>, *, dtype=<None,mstype>)",
               "Tensor.cumsum(axis=<None,int>, dtype=<None,mstype>)"),
    "take": ("Tensor.take(index=<Tensor>)",
             "Tensor.take(indices=<Tensor>, axis=<None,int>, mode=<str>)"),
}


def callings(name: str) -> tuple:
    """MindSpore's callings of the Tensor method `name`."""
    return OVERLOADS.get(name) or PYNATIVE_CALLINGS[name]


def _forms(name: str, functions) -> list:
    """The forms of method `name`, matched by parameter names to MindSpore's callings."""
    recorded = {}
    for calling in callings(name):
        params = _calling_parameters(calling)
        key = tuple(p for p, _ in params)
        merged = recorded.setdefault(key, {})
        for p, tags in params:
            merged.setdefault(p, set()).update(tags)
    forms = []
    for fn in functions:
        key = tuple(list(inspect.signature(fn).parameters)[1:])
        if key not in recorded:
            raise ValueError(f"Tensor.{name}: {fn.__name__}{key} is none of MindSpore's callings")
        forms.append(_Form(fn, recorded[key]))
    return forms


# MindSpore's graph mode tries some forms in another order than PyNative: `x.max(0, False)` in
# construct is the reduction over axis 0 (values only), `x.max(dim=0)` the (values, indices) form
GRAPH_ORDER = {"max": (0, 2, 1), "min": (0, 2, 1)}


def _method(name: str, functions):
    forms = _forms(name, functions)
    graph_forms = [forms[i] for i in GRAPH_ORDER[name]] if name in GRAPH_ORDER else forms

    def method(self, *args, **kwargs):
        for form in graph_forms if current_builder() is not None else forms:
            bound = form.bind(self, args, kwargs)
            if bound is not None:
                return form.fn(*bound.args, **bound.kwargs)
        raise DTypeError(overload_message(name, callings(name), args, kwargs))

    method.__name__ = method.__qualname__ = name
    method.__doc__ = (f"`Tensor.{name}` in each of MindSpore's forms:\n\n    " +
                      "\n    ".join(callings(name)))
    method.forms = tuple(form.fn for form in forms)
    return method


# ------------------------------------------------------------------ the forms
def add_alpha(self, other, *, alpha=1):
    return _mint().add(self, other, alpha=alpha)


def _as_operand(self, other):
    """A list or tuple operand of the `<any>` forms: a Tensor of self's dtype (MindSpore converts
    it)."""
    if isinstance(other, (list, tuple)):
        return _ops().cast(_ops().stack([_as_operand(self, o) for o in other]) if any(
            _is_tensor(o) for o in other) else _tensor(other), self.dtype)
    return other


def add_y(self, other):
    return _PREVIOUS["add"](self, _as_operand(self, other))


def sub_alpha(self, other, *, alpha=1):
    return _mint().sub(self, other, alpha=alpha)


def sub_y(self, y):
    return _PREVIOUS["sub"](self, _as_operand(self, y))


def div_other(self, other):
    return _PREVIOUS["div"](self, other)


def div_rounding(self, other, *, rounding_mode=None):
    return _mint().div(self, other, rounding_mode=rounding_mode)


def remainder_other(self, other):
    return _PREVIOUS["remainder"](self, other)


def remainder_divisor(self, divisor):
    return _PREVIOUS["remainder"](self, divisor)


def expand_as_other(self, other):
    return _PREVIOUS["expand_as"](self, other)


def expand_as_x(self, x):
    return _PREVIOUS["expand_as"](self, x)


def gather_dim(self, dim, index):
    return _ops().gather_elements(self, dim, index)


def gather_indices(self, input_indices, axis, batch_dims=0):
    return _PREVIOUS["gather"](self, input_indices, axis, batch_dims)


def scatter_add_dim(self, dim, index, src):
    return _PREVIOUS["scatter_add"](self, dim, index, src)


def scatter_add_indices(self, indices, updates):
    return _ops().tensor_scatter_add(self, indices, updates)


def index_add_dim(self, dim, index, source, *, alpha=1):
    """ops.index_add with source scaled by alpha (a number), into self as MindSpore's does."""
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise DTypeError(f"For 'index_add', the type of 'alpha' should be 'int' or 'float', "
                         f"but got '{type(alpha).__name__}'.")
    return _ops().index_add(self, index, source * alpha, dim)


def index_add_indices(self, indices, y, axis, use_lock=True, check_index_bound=True):
    return _ops().index_add(self, indices, y, axis, use_lock, check_index_bound)


def sort_dim(self, dim=-1, descending=False, stable=False):
    # the sort is stable either way; the indices are int32, as MindSpore's method gives
    return _ops().sort(self, dim, descending)


def sort_axis(self, axis=-1, descending=False):
    return _ops().sort(self, axis, descending)


def argsort_dim(self, dim=-1, descending=False, stable=False):
    return _ops().argsort(self, dim, descending)


def argsort_axis(self, axis=-1, descending=False):
    return _ops().argsort(self, axis, descending)


def _reduce_max_min(name):
    def whole(self):
        return _PREVIOUS[name](self)

    def by_dim(self, dim, keepdim=False):
        return getattr(_mint(), name)(self, dim, keepdim)

    def by_axis(self, axis=None, keepdims=False, *, initial=None, where=None,
                return_indices=False):
        if initial is None and where is None and not return_indices:
            return _PREVIOUS[name](self, axis, keepdims)
        values, indices = getattr(_ops(), name)(self, axis, keepdims, initial=initial,
                                                where=where)
        return (values, indices) if return_indices else values

    return whole, by_dim, by_axis


def median_whole(self):
    return _PREVIOUS["median"](self)


def median_dim(self, dim, keepdim=False):
    return _mint().median(self, dim, keepdim)


def median_axis(self, axis=-1, keepdims=False):
    return _PREVIOUS["median"](self, axis, keepdims)


def all_axis(self, axis=None, keep_dims=False):
    return _PREVIOUS["all"](self, axis, keep_dims)


def all_dim(self, dim=None, keepdim=False):
    return _PREVIOUS["all"](self, dim, keepdim)


def any_whole(self):
    return _PREVIOUS["any"](self)


def any_dim(self, dim, keepdim=False):
    return _PREVIOUS["any"](self, dim, keepdim)


def any_axis(self, axis=None, keep_dims=False):
    return _PREVIOUS["any"](self, axis, keep_dims)


def mean_dim(self, dim=None, keepdim=False, *, dtype=None):
    return _mint().mean(self, dim, keepdim, dtype=dtype)


def mean_axis(self, axis=None, keep_dims=False):
    return _PREVIOUS["mean"](self, axis, keep_dims)


def sum_dim(self, dim=None, keepdim=False, *, dtype=None):
    return _PREVIOUS["sum"](self, dim, keepdims=keepdim, dtype=dtype)


def sum_axis(self, axis=None, dtype=None, keepdims=False, initial=None):
    return _PREVIOUS["sum"](self, axis, keepdims=keepdims, dtype=dtype, initial=initial)


def nansum_dim(self, dim=None, keepdim=False, *, dtype=None):
    return _PREVIOUS["nansum"](self, dim, keepdim, dtype=dtype)


def nansum_axis(self, axis=None, keepdims=False, *, dtype=None):
    return _PREVIOUS["nansum"](self, axis, keepdims, dtype=dtype)


def prod_dim(self, dim=None, keepdim=False, dtype=None):
    return _PREVIOUS["prod"](self, dim, keepdim, dtype)


def logsumexp_dim(self, dim, keepdim=False):
    return _PREVIOUS["logsumexp"](self, dim, keepdim)


def var_axis(self, axis=None, ddof=0, keepdims=False):
    return _PREVIOUS["var"](self, axis, ddof, keepdims)


def var_dim(self, dim=None, correction=1, keepdim=False):
    return _mint().var(self, dim, correction=correction, keepdim=keepdim)


def chunk_dim(self, chunks, dim=0):
    return _PREVIOUS["chunk"](self, chunks, dim)


def chunk_axis(self, chunks, axis=0):
    return _PREVIOUS["chunk"](self, chunks, axis)


def split_size(self, split_size, dim=0):
    return _PREVIOUS["split"](self, split_size, dim)


def split_axis(self, split_size_or_sections, axis=0):
    return _PREVIOUS["split"](self, split_size_or_sections, axis)


def flatten_dims(self, start_dim=0, end_dim=-1):
    return _mint().flatten(self, start_dim, end_dim)


def flatten_order(self, order="C", *, start_dim=0, end_dim=-1):
    return _ops().flatten(self, order, start_dim=start_dim, end_dim=end_dim)


def index_select_dim(self, dim, index):
    return _PREVIOUS["index_select"](self, dim, index)


def index_select_axis(self, axis, index):
    return _PREVIOUS["index_select"](self, axis, index)


def narrow_dim(self, dim, start, length):
    return _PREVIOUS["narrow"](self, dim, start, length)


def narrow_axis(self, axis, start, length):
    return _PREVIOUS["narrow"](self, axis, start, length)


def isclose_other(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _PREVIOUS["isclose"](self, other, rtol, atol, equal_nan)


def isclose_x2(self, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _PREVIOUS["isclose"](self, x2, rtol, atol, equal_nan)


def logical_and_y(self, y):
    return _PREVIOUS["logical_and"](self, y)


def logical_and_other(self, other):
    return _PREVIOUS["logical_and"](self, other)


def logical_or_y(self, y):
    return _PREVIOUS["logical_or"](self, y)


def logical_or_other(self, other):
    return _PREVIOUS["logical_or"](self, other)


def matmul_other(self, other):
    return _PREVIOUS["matmul"](self, other)


def matmul_tensor2(self, tensor2):
    return _PREVIOUS["matmul"](self, tensor2)


def unsqueeze_axis(self, axis):
    return _PREVIOUS["unsqueeze"](self, axis)


def unsqueeze_dim(self, dim):
    return _PREVIOUS["unsqueeze"](self, dim)


def tile_dims(self, dims):
    return _PREVIOUS["tile"](self, dims)


def tile_reps(self, reps):
    return _PREVIOUS["tile"](self, reps)


def where_other(self, condition, other):
    return _PREVIOUS["where"](self, condition, other)


def where_y(self, condition, y):
    return _PREVIOUS["where"](self, condition, y)


_REDUCTIONS = {"none": "none", "add": "add", "multiply": "mul"}


def scatter_tensor(self, dim, index, src, reduce="none"):
    if not _is_tensor(src):
        src = _ops().full_like(index, src, dtype=self.dtype)
    if reduce not in _REDUCTIONS:
        raise ValueError(f"For 'Tensor.scatter', 'reduce' must be one of {list(_REDUCTIONS)[1:]}"
                         f", but got {reduce!r}.")
    return _ops().tensor_scatter_elements(self, index, src, axis=dim,
                                          reduction=_REDUCTIONS[reduce])


def scatter_axis(self, axis, index, src):
    return _PREVIOUS["scatter"](self, axis, index, src)


def repeat_interleave_dim(self, repeats, dim=None):
    return _PREVIOUS["repeat_interleave"](self, repeats, dim)


def repeat_interleave_output_size(self, repeats, dim=None, *, output_size=None):
    return _mint().repeat_interleave(self, repeats, dim, output_size=output_size)


def select_dim(self, dim, index):
    return _mint().select(self, dim, index)


def select_condition(self, condition, y):
    """`condition ? self : y`; a number `y` needs `self` of its kind's dtype (int32 for an
    int, float32 for a float), as MindSpore's method checks."""
    if not _is_tensor(condition):
        raise DTypeError(f"For 'Tensor.select', the argument 'condition' should be Tensor, but "
                         f"got {type(condition)}.")
    if not _is_tensor(y) and not isinstance(y, (int, float)):
        raise DTypeError(f"For 'Tensor.select', the argument 'y' should be Tensor, int or float,"
                         f" but got {type(y)}.")
    for kind, wanted in ((int, "int32"), (float, "float32")):
        if isinstance(y, kind) and self.dtype != dt.as_dtype(wanted):
            raise DTypeError(f"For 'Tensor.select', if the argument 'y' is {kind.__name__}, "
                             f"then the tensor type should be {wanted} but got {self.dtype}")
    return _ops().select(condition, self, y)


def dot_other(self, other):
    return _ops().dot(self, other)


def arctan2_other(self, other):
    return _ops().atan2(self, other)


def addcdiv_value(self, tensor1, tensor2, *, value=1):
    return _mint().addcdiv(self, tensor1, tensor2, value=value)


def addcdiv_tensor(self, tensor1, tensor2, value):
    return _mint().addcdiv(self, tensor1, tensor2, value=value)


# Tensor.cumsum runs bool and integers narrower than int32 in int32, as MindSpore's does
_CUMSUM_IN_INT32 = frozenset({dt.bool_, dt.int8, dt.int16, dt.uint8})


def cumsum_dim(self, dim, *, dtype=None):
    return cumsum_axis(self, dim, dtype)


def cumsum_axis(self, axis=None, dtype=None):
    """The running sum along `axis` (of the flattened Tensor for None), in int32 for bool and
    narrower integers, cast to `dtype` afterwards when it is another dtype."""
    x = self.astype(dt.int32) if self.dtype in _CUMSUM_IN_INT32 else self
    if axis is None:
        x, axis = _ops().reshape(x, (-1,)), 0
    out = _PREVIOUS["cumsum"](x, axis)
    return out.astype(dtype) if dtype is not None and dtype != self.dtype else out


def take_index(self, index):
    return _PREVIOUS["take"](self, index)


def take_axis(self, indices, axis=None, mode="clip"):
    from cellgraph import numpy as mnp

    return mnp.take(self, indices, axis, mode=mode)


_MAX = _reduce_max_min("max")
_MIN = _reduce_max_min("min")

FORMS = {
    "add": (add_alpha, add_y),
    "sub": (sub_alpha, sub_y),
    "div": (div_other, div_rounding),
    "divide": (div_other, div_rounding),
    "remainder": (remainder_other, remainder_divisor),
    "expand_as": (expand_as_other, expand_as_x),
    "gather": (gather_dim, gather_indices),
    "scatter_add": (scatter_add_dim, scatter_add_indices),
    "index_add": (index_add_dim, index_add_indices),
    "sort": (sort_dim, sort_axis),
    "argsort": (argsort_dim, argsort_axis),
    "max": _MAX,
    "min": _MIN,
    "median": (median_whole, median_dim, median_axis),
    "all": (all_axis, all_dim),
    "any": (any_whole, any_dim, any_axis),
    "mean": (mean_dim, mean_axis),
    "sum": (sum_dim, sum_axis),
    "nansum": (nansum_dim, nansum_axis),
    "prod": (prod_dim,),
    "logsumexp": (logsumexp_dim,),
    "var": (var_axis, var_dim),
    "chunk": (chunk_dim, chunk_axis),
    "split": (split_size, split_axis),
    "flatten": (flatten_dims, flatten_order),
    "index_select": (index_select_dim, index_select_axis),
    "narrow": (narrow_dim, narrow_axis),
    "isclose": (isclose_other, isclose_x2),
    "logical_and": (logical_and_y, logical_and_other),
    "logical_or": (logical_or_y, logical_or_other),
    "matmul": (matmul_other, matmul_tensor2),
    "unsqueeze": (unsqueeze_axis, unsqueeze_dim),
    "tile": (tile_dims, tile_reps),
    "where": (where_other, where_y),
    "scatter": (scatter_tensor, scatter_axis),
    "repeat_interleave": (repeat_interleave_dim, repeat_interleave_output_size),
    "select": (select_dim, select_condition),
    "dot": (dot_other,),
    "arctan2": (arctan2_other,),
    "addcdiv": (addcdiv_value, addcdiv_tensor),
    "cumsum": (cumsum_dim, cumsum_axis),
    "take": (take_index, take_axis),
}



def round(self, decimals=0):
    """`Tensor.round(decimals=0)`: the method takes `decimals` by position too (the functional
    op by keyword only)."""
    return _ops().round(self, decimals=decimals)


def byte(self):
    """The Tensor as uint8."""
    return self.astype(dt.uint8)


def logaddexp2(self, other):
    """log2(2**self + 2**other)."""
    return _mint().logaddexp2(self, other)


def adjoint(self):
    """The conjugate transpose of the last two axes."""
    return _ops().conj(_ops().swapaxes(self, -2, -1))


def _conj_transpose(self):
    return _ops().conj(_ops().swapaxes(self, -2, -1)) if self.ndim >= 2 else self


def is_complex(self):
    return self.dtype.is_complex


def is_signed(self):
    return self.dtype.is_inexact or (self.dtype.is_int and self.dtype.np.kind == "i")


def type_method(self, dtype=None):
    """The dtype's name (`'Float32'`) without `dtype`; the Tensor cast to `dtype` with it."""
    if dtype is None:
        return str(self.dtype)
    return self.astype(dtype)


type_method.__name__ = type_method.__qualname__ = "type"


def msort(self):
    """The Tensor sorted along its first axis."""
    return _ops().sort(self, 0)[0]


def fmax(self, other):
    """The larger of the two where both are numbers; the number where one is NaN."""
    return _nan_ignoring(self, other, _ops().maximum)


def fmin(self, other):
    """The smaller of the two where both are numbers; the number where one is NaN."""
    return _nan_ignoring(self, other, _ops().minimum)


def _nan_ignoring(x, y, pick):
    ops = _ops()
    out = pick(x, y)
    if not (out.dtype.is_inexact):
        return out
    x, y = ops.broadcast_to(x.astype(out.dtype), out.shape), ops.broadcast_to(
        y.astype(out.dtype) if _is_tensor(y) else ops.full_like(out, y), out.shape)
    return ops.select(ops.isnan(x), y, ops.select(ops.isnan(y), x, out))


def copysign(self, other):
    """|self| with the sign of other (a float result)."""
    ops = _ops()
    magnitude = ops.abs(self if self.dtype.is_inexact else self.astype(dt.float32))
    sign_from = other if _is_tensor(other) else _tensor(float(other))
    return ops.select(ops.signbit(sign_from), -magnitude, magnitude)


def ldexp(self, other):
    """self * 2 ** other."""
    ops = _ops()
    scale = ops.pow(_tensor(2.0), other.astype(dt.float32) if _is_tensor(other) else other)
    return ops.mul(self, scale)


def nanmean(self, axis=None, keepdims=False, *, dtype=None):
    """The mean of the elements that are not NaN."""
    ops = _ops()
    if not self.dtype.is_inexact:
        raise DTypeError(f"For 'nanmean', input should be floating point dtype, but got "
                         f"{type(self)}.")
    numbers = ops.logical_not(ops.isnan(self))
    total = ops.nansum(self, axis, keepdims)
    count = _core.reduce_sum(numbers.astype(self.dtype), () if axis is None else axis, keepdims)
    out = total / count
    return out if dtype is None else out.astype(dtype)


def ndimension(self):
    return self.ndim


def reshape_as(self, other):
    return _ops().reshape(self, tuple(other.shape))


def sum_to_size(self, *size):
    """The sum of self over the axes that broadcasting `size` to self's shape would expand."""
    size = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    lead = self.ndim - len(size)
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(size)
                                      if n == 1 and self.shape[lead + i] != 1)
    if not axes:
        return self
    return _ops().reshape(self.sum(axes, keepdims=True), size)  # in int64 for integers


def trace(self, offset=0, axis1=0, axis2=1, dtype=None):
    """The sum along a diagonal (int64 for integer and bool input, as MindSpore's)."""
    out = _ops().diagonal(self, offset, axis1, axis2)
    if dtype is None and (self.dtype.is_int or self.dtype.is_bool):
        dtype = dt.int64
    out = out.astype(dtype) if dtype is not None else out
    return _ops().reduce_sum(out, -1)


def diagonal(self, offset=0, axis1=0, axis2=1):
    return _ops().diagonal(self, offset, axis1, axis2)


def diagflat(self, offset=0):
    """A square matrix with the flattened Tensor on diagonal `offset` and zeros elsewhere (the
    values written in place, so a NaN or an infinity stays where it is)."""
    ops = _ops()
    values = ops.reshape(self, (-1,))
    count = values.shape[0]
    size = count + abs(offset)
    steps = np.arange(count)
    indices = np.stack([steps + max(-offset, 0), steps + max(offset, 0)], axis=1)
    return ops.tensor_scatter_update(ops.zeros((size, size), self.dtype),
                                     _tensor(indices.astype(np.int64)), values)


def float_power(self, other):
    return _ops().float_power(self, other)


def multiply(self, value):
    return _ops().mul(self, value)


def aminmax(self, *, axis=0, keepdims=False):
    return _ops().aminmax(self, axis=axis, keepdims=keepdims)


def sinc(self):
    return _mint().sinc(self)


def gcd(self, other):
    """The greatest common divisor, elementwise, of two integer Tensors (0 for two zeros):
    Euclid's algorithm, run for as many steps as the dtype's values can need."""
    ops = _ops()
    a, b = ops.broadcast_to(ops.abs(self), _out_shape(self, other)), ops.abs(other)
    b = ops.broadcast_to(b.astype(a.dtype), a.shape)
    zero = ops.zeros_like(a)
    # consecutive Fibonacci numbers are the slowest pair: 46 steps fit int32, 92 int64
    for _ in range(92 if a.dtype.np.itemsize > 4 else 46):
        nonzero = b != zero
        a, b = ops.select(nonzero, b, a), ops.select(nonzero, ops.remainder(
            a, ops.select(nonzero, b, ops.ones_like(b))), zero)
    return a


def lcm(self, other):
    """The least common multiple, elementwise, of two integer Tensors (0 where either is 0)."""
    ops = _ops()
    divisor = gcd(self, other)
    safe = ops.select(divisor == ops.zeros_like(divisor), ops.ones_like(divisor), divisor)
    return ops.abs(ops.mul(ops.floor_divide(self, safe), other.astype(divisor.dtype)))


def _out_shape(x, y) -> tuple:
    return tuple(np.broadcast_shapes(tuple(x.shape), tuple(y.shape)))


def cauchy(self, median=0.0, sigma=1.0):
    """A Tensor of self's shape and dtype drawn from the Cauchy distribution:
    median + sigma * tan(pi * (u - 1/2)) for u uniform in [0, 1)."""
    ops = _ops()
    u = ops.uniform(tuple(self.shape), _tensor(0.0), _tensor(1.0))
    return (median + sigma * ops.tan(np.pi * (u - 0.5))).astype(self.dtype)


def log_normal(self, mean=1.0, std=2.0):
    """A Tensor of self's shape and dtype drawn from the log-normal distribution:
    exp(mean + std * z) for z standard normal."""
    ops = _ops()
    z = ops.standard_normal(tuple(self.shape))
    return ops.exp(mean + std * z).astype(self.dtype)


def fill_diagonal(self, fill_value, wrap=False):
    """self with `fill_value` on its main diagonal (NumPy's fill_diagonal: every axis has the
    same index; a tall matrix restarts the diagonal every ncols + 1 rows when `wrap`)."""
    ops = _ops()
    mask = np.zeros(tuple(self.shape), bool)
    np.fill_diagonal(mask, True, wrap=wrap)
    return ops.select(_tensor(mask), ops.full_like(self, fill_value), self)


def fill(self, value):
    """A Tensor of self's shape and dtype holding `value` everywhere."""
    return _ops().full_like(self, value)


def new_full(self, size, fill_value, *, dtype=None):
    """A Tensor of shape `size` holding `fill_value`, in self's dtype by default."""
    return _ops().full(tuple(size), fill_value, dtype=dtype or self.dtype)


def new_empty(self, size, *, dtype=None, device=None):
    """A Tensor of shape `size` (an int, or a tuple or list of ints) whose values are left
    unspecified (zeros here), in self's dtype by default, on `device`: the CPU ("CPU" or "cpu",
    in PyNative) or where set_device put the program (None). MindSpore's errors: Ascend ("npu")
    is not available here, and other names are no device of its."""
    def is_int(value):
        return isinstance(value, int) and not isinstance(value, bool)

    if isinstance(size, (tuple, list)):
        if not all(is_int(d) for d in size):
            raise DTypeError(f"new_empty(): argument 'size' (position 1) must be tuple of int "
                             f"but found type of {type(size).__name__} at pos "
                             f"{next(i for i, d in enumerate(size) if not is_int(d))}.")
        shape = tuple(size)
    elif is_int(size):
        shape = (size,)
    else:
        raise DTypeError(f"new_empty(): argument 'size' (position 1) must be tuple of int, not "
                         f"{type(size).__name__}.")
    if dtype is not None and not isinstance(dtype, dt.DType):
        raise DTypeError(f"new_empty(): argument 'dtype' must be mstype but got "
                         f"{type(dtype).__name__}.")
    if device is not None:
        if not isinstance(device, str):
            raise DTypeError(f"new_empty(): argument 'device' must be string but got "
                             f"{type(device).__name__}.")
        if device in ("Ascend", "npu"):
            raise RuntimeError(f"new_empty: device {device!r} (Ascend) is not available: "
                               f"cellgraph runs on the CPU or a GPU backend")
        if device not in ("CPU", "cpu"):
            raise ArgumentValueError(f"Failed to convert the value \"{device}\" of input "
                                     f"'device' of 'new_empty' to enum.")
        if current_builder() is not None:
            raise RuntimeError("NewEmpty kbk mode support ['Ascend', 'npu'] for device")
    return _ops().zeros(shape, dtype or self.dtype)


def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether every element is close to other's: |self - other| <= atol + rtol |other|."""
    return _ops().isclose(self, other, rtol, atol, equal_nan).all()


def argmax_with_value(self, axis=0, keep_dims=False):
    """(the largest values along `axis`, their indices); with axis None the largest of all and
    index 0, as ops.max gives it."""
    if axis is None:
        return _ops().max(self)
    index, values = _ops().ArgMaxWithValue(axis, keep_dims)(self)
    return values, index


def argmin_with_value(self, axis=0, keep_dims=False):
    """(the smallest values along `axis`, their indices); axis None as in argmax_with_value."""
    if axis is None:
        return _ops().min(self)
    index, values = _ops().ArgMinWithValue(axis, keep_dims)(self)
    return values, index


def stride(self, dim=None):
    """The steps, in elements, between neighbours along each axis of the (contiguous) Tensor:
    a list, or along `dim` an int."""
    shape = tuple(self.shape)
    steps = [int(np.prod(shape[i + 1:], dtype=np.int64)) for i in range(len(shape))]
    return steps if dim is None else steps[dim]


def storage_offset(self):
    """0: a Tensor's elements start its storage (cellgraph keeps no views into others)."""
    return 0


def resize(self, *new_shape):
    """The elements, read flat, cut or padded with zeros to `new_shape` (ndarray.resize)."""
    shape = tuple(new_shape[0]) if len(new_shape) == 1 and isinstance(
        new_shape[0], (tuple, list)) else tuple(new_shape)
    ops = _ops()
    count, size = int(np.prod(shape, dtype=np.int64)), int(np.prod(self.shape, dtype=np.int64))
    flat = ops.reshape(self, (-1,))
    if count <= size:
        return ops.reshape(flat[:count], shape)
    return ops.reshape(ops.concat((flat, ops.zeros((count - size,), self.dtype))), shape)


def index_put(self, indices, values, accumulate=False):
    """self with `values` written (added, with `accumulate`) at the positions the tuple of
    index Tensors `indices` picks, one Tensor per leading axis."""
    ops = _ops()
    positions = ops.stack([ops.cast(i, dt.int64) for i in indices], -1)
    values = ops.broadcast_to(values.astype(self.dtype), tuple(positions.shape[:-1])
                              + tuple(self.shape[len(indices):]))
    scatter = ops.tensor_scatter_add if accumulate else ops.tensor_scatter_update
    return scatter(self, positions, values)


def choose(self, choices, mode="clip"):
    """choices[self[i]][i] for each position (NumPy's choose); indices out of range are
    clipped (mode 'clip') or wrapped ('wrap'); 'raise' leaves them to the gather, which
    raises."""
    ops = _ops()
    choices = [c if hasattr(c, "aval") else _tensor(c) for c in choices]  # lists, numbers
    stacked = ops.stack([ops.broadcast_to(c, tuple(self.shape)) for c in choices], 0)
    n = len(choices)
    index = self.astype(dt.int64)
    if mode == "clip":
        index = ops.clamp(index, 0, n - 1)
    elif mode == "wrap":
        index = ops.remainder(index, n)
    elif mode != "raise":
        raise ArgumentValueError(f"For 'choose', 'mode' must be 'raise', 'wrap' or 'clip', but "
                                 f"got {mode!r}.")
    return ops.gather_elements(stacked, 0, ops.expand_dims(index, 0))[0]


def bitwise_not(self):
    """~self, elementwise (logical not for bool)."""
    return _ops().invert(self)


def uniform(self, from_=0.0, to=1.0, generator=None):
    """A Tensor of self's shape and dtype drawn from U[from_, to)."""
    draws = _mint().rand(*tuple(self.shape), generator=generator)
    return (draws * (to - from_) + from_).astype(self.dtype)


def bernoulli(self, *, generator=None):
    """0/1 draws, 1 with the probability in each element of self."""
    return _mint().bernoulli(self, generator=generator)


def swapaxes(self, axis0, axis1):
    """self with two axes swapped (MindSpore's checks of the axes)."""
    return _ops().swapaxes(self, axis0, axis1)


# MindSpore's augmented assignments: a new Tensor each, as MindSpore's (the left one unchanged)
def __iadd__(self, other, alpha=1):
    return self + other if alpha == 1 else _mint().add(self, other, alpha=alpha)


def __isub__(self, other, alpha=1):
    return self - other if alpha == 1 else _mint().sub(self, other, alpha=alpha)


def __imul__(self, other):
    return self * other


def __itruediv__(self, other):
    return self / other


def __ifloordiv__(self, other):
    return self // other


def __imod__(self, other):
    return self % other


def value(self):
    """The Tensor itself (MindSpore's accessor of a Tensor's value)."""
    return self


def _scatter_along(self, axis, positions, src):
    """self with src written at `positions` (a NumPy index array) along `axis`."""
    ops = _ops()
    moved = ops.moveaxis(self, axis, 0)
    updates = ops.moveaxis(src.astype(self.dtype), axis, 0)
    out = ops.tensor_scatter_update(moved, _tensor(positions.reshape(-1, 1).astype(np.int64)),
                                    updates)
    return ops.moveaxis(out, 0, axis)


def slice_scatter(self, src, axis=0, start=None, end=None, step=1):
    """self with `src` written into the slice start:end:step along `axis`."""
    _check_scatter_operands("slice_scatter", self, src)
    axis = axis + self.ndim if axis < 0 else axis
    positions = np.arange(self.shape[axis])[slice(start, end, step)]
    want = tuple(self.shape[:axis]) + (len(positions),) + tuple(self.shape[axis + 1:])
    if tuple(src.shape) != want:
        raise ArgumentValueError(f"For slice_scatter, src shape should be equal to the slice "
                                 f"size,but got src shape {tuple(src.shape)} and slice shape "
                                 f"{want}")
    return _scatter_along(self, axis, positions, src)


def select_scatter(self, src, axis, index):
    """self with `src` written at `index` along `axis` (src has self's shape without it): as
    MindSpore's, the slice index:index + 1 scattered with src given that axis back."""
    _check_scatter_operands("select_scatter", self, src)
    axis = axis + self.ndim if axis < 0 else axis
    index = index + self.shape[axis] if index < 0 else index
    return slice_scatter(self, _ops().expand_dims(src, axis), axis, index, index + 1)


def _check_scatter_operands(op: str, input, src) -> None:
    for name, value in (("input", input), ("src", src)):
        if not _is_tensor(value):
            raise DTypeError(f"For {op}, {name} must be a Tensor, but got {type(value)}.")


def cov(self, *, correction=1, fweights=None, aweights=None):
    """The covariance of the variables in self's rows (a 1-D Tensor is one variable), each
    column one observation, weighted by the integer `fweights` and the `aweights` (torch.cov's
    and NumPy's definition)."""
    ops = _ops()
    x = self if self.ndim == 2 else ops.reshape(self, (1, -1))
    x = x if x.dtype.is_inexact else x.astype(dt.float32)
    observations = x.shape[1]
    w = None
    if fweights is not None:
        w = fweights.astype(x.dtype)
    if aweights is not None:
        w = aweights.astype(x.dtype) if w is None else w * aweights.astype(x.dtype)
    if w is None:
        mean = ops.mean(x, 1, True)
        factor = observations - correction
        centred = x - mean
        out = ops.matmul(centred, ops.conj(centred).T) / factor
    else:
        w_sum = ops.reduce_sum(w)
        mean = _core.reduce_sum(x * w, 1, True) / w_sum
        if correction == 0:
            factor = w_sum
        elif aweights is None:
            factor = w_sum - correction
        else:
            factor = w_sum - correction * ops.reduce_sum(w * aweights.astype(x.dtype)) / w_sum
        centred = x - mean
        out = ops.matmul(centred * w, ops.conj(centred).T) / factor
    return ops.reshape(out, ()) if self.ndim < 2 else out


def subtract(self, other, *, alpha=1):
    """self - alpha * other."""
    return _mint().sub(self, other, alpha=alpha)


def unfold(self, kernel_size, dilation=1, padding=0, stride=1):
    return _ops().unfold(self, kernel_size, dilation, padding, stride)


def index_copy(self, dim, index, tensor):
    """self with slice `index[i]` along `dim` replaced by slice i of `tensor` (a later
    repeated index wins)."""
    ops = _ops()
    rank = len(self.shape)
    axis = dim + rank if -rank <= dim < 0 else dim
    if not 0 <= axis < max(rank, 1):
        raise ArgumentValueError(f"For 'index_copy', 'dim' must be in [{-rank}, {rank}), but "
                                 f"got {dim}.")
    if rank == 0:
        return ops.reshape(tensor, ()).astype(self.dtype)
    order = (axis,) + tuple(i for i in range(rank) if i != axis)
    inverse = tuple(int(i) for i in np.argsort(order))
    moved = ops.transpose(self, order)
    expected = tuple(int(np.prod(index.shape)) if i == axis else self.shape[i]
                     for i in range(rank))
    if tuple(tensor.shape) != expected:
        raise ArgumentValueError(f"For 'index_copy', 'tensor' must have shape {expected} (the "
                                 f"input's, with len(index) along dim), but got "
                                 f"{tuple(tensor.shape)}.")
    rows = ops.transpose(tensor.astype(self.dtype), order)
    positions = ops.expand_dims(ops.cast(ops.reshape(index, (-1,)), dt.int64), -1)
    return ops.transpose(ops.tensor_scatter_update(moved, positions, rows), inverse)


def kthvalue(self, k, dim=-1, keepdim=False):
    """(the k-th smallest values along `dim`, their indices)."""
    return _mint().kthvalue(self, k, dim, keepdim)


def searchsorted(self, v, side="left", sorter=None):
    """Where each value of `v` would go in self (sorted along its last axis) to keep it
    sorted: the first such place (`side` "left") or the last ("right")."""
    return _ops().searchsorted(self, v, side=side, sorter=sorter)


def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct values (with the inverse indices and counts when asked)."""
    return _mint().unique(self, sorted, return_inverse, return_counts, dim)


def triangular_solve(self, A, upper=True, transpose=False, unitriangular=False):
    """(X, A) with A X = self for a triangular `A` (MindSpore's parameter names)."""
    return _mint().triangular_solve(self, A, upper, transpose, unitriangular)


def fills(self, value):
    """A Tensor of self's shape and dtype holding the number (or 0-d Tensor) `value`."""
    if not isinstance(value, (numbers.Number, TensorMethods)) or (
            isinstance(value, TensorMethods) and len(value.shape) != 0):
        raise DTypeError(f"For 'fills', 'value' must be a number or a 0-d Tensor, but got "
                         f"{type(value).__name__}.")
    return _ops().full_like(self, value)


def bfloat16(self):
    """self cast to bfloat16."""
    return self.astype(dt.bfloat16)


def random_categorical(self, num_sample, seed=0, dtype=dt.int64):
    """`num_sample` draws per row of the logits self."""
    return _ops().random_categorical(self, num_sample, seed, dtype)


def to_coo(self):
    """The non-zero elements of self (a 2-D Tensor) as a COOTensor."""
    from cellgraph.sparse import COOTensor

    _check_sparse_source(self, "to_coo")
    positions = np.argwhere(self.asnumpy() != 0)
    indices = _tensor(positions.astype(np.int64))
    values = _ops().gather_nd(self, indices) if len(positions) else _ops().zeros((0,),
                                                                                  self.dtype)
    return COOTensor(indices, values, tuple(self.shape))


def to_csr(self):
    """The non-zero elements of self (a 2-D Tensor) as a CSRTensor."""
    from cellgraph.sparse import CSRTensor

    _check_sparse_source(self, "to_csr")
    dense = self.asnumpy()
    rows, cols = np.nonzero(dense)
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=dense.shape[0]))])
    return CSRTensor(_tensor(indptr.astype(np.int64)), _tensor(cols.astype(np.int64)),
                     _tensor(dense[rows, cols]), tuple(dense.shape))


def _check_sparse_source(self, name):
    if current_builder() is not None:
        from cellgraph.primitives.errors import UnsupportedError

        raise UnsupportedError(f"Tensor.{name}: the number of non-zero elements sets the "
                               f"sparse tensor's shape, known only when the graph runs; "
                               f"convert outside construct")
    if len(self.shape) != 2:
        raise ArgumentValueError(f"For '{name}', the input must be a 2-D Tensor, but got "
                                 f"{len(self.shape)}-D.")


# methods with one form whose parameters differ from the functional op's of the same name, or
# that no other module gives
SINGLE = (round, byte, logaddexp2, adjoint, is_complex, is_signed, type_method, msort, fmax, fmin,
          copysign, ldexp, nanmean, ndimension, reshape_as, sum_to_size, trace, diagonal, diagflat,
          float_power, multiply, aminmax, sinc, subtract, unfold, gcd, lcm, cauchy, log_normal,
          fill_diagonal, slice_scatter, select_scatter, cov, fill, new_full, new_empty, allclose,
          argmax_with_value, argmin_with_value, stride, storage_offset, resize, index_put,
          choose, bitwise_not, uniform, bernoulli, value, swapaxes, __iadd__, __isub__,
          __imul__, __itruediv__, __ifloordiv__, __imod__, index_copy, kthvalue, searchsorted,
          unique, triangular_solve, fills, bfloat16, random_categorical, to_coo, to_csr)
# properties: `x.H` (the conjugate transpose of a matrix) and `x.mH` (of the last two axes)
PROPERTIES = {"H": _conj_transpose, "mH": _conj_transpose}

_PREVIOUS: dict = {}


def install(methods: type) -> None:
    """Put on `methods` one method per name of FORMS, keeping the one it had (some forms call
    it)."""
    for name, functions in FORMS.items():
        if name in vars(methods) and name not in _PREVIOUS:
            _PREVIOUS[name] = vars(methods)[name]
        setattr(methods, name, _method(name, functions))
    for fn in SINGLE:
        setattr(methods, fn.__name__, fn)
    for name, fn in PROPERTIES.items():
        setattr(methods, name, property(fn))
