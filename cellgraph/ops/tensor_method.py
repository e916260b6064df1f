"""MindSpore's `ops.tensor_method`: the Tensor attributes and methods MindSpore programs use
that follow from the type alone or are compositions of functional ops. `install` adds them to
the core's TensorMethods (the base of eager Tensors and graph tracers) where it has no member
of the same name; `install_functional_methods` the methods that are the functional op of the
same name."""
from __future__ import annotations

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives import exports
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import value_input
from cellgraph.primitives.errors import (
    ArgumentError,
    ArgumentValueError,
    DTypeError,
    RunError,
)
from cellgraph.primitives.nn_functional import split, tile

from . import functional
from .function.array_func.indexing import (
    gather_elements,
    index_select,
    inplace_update,
    masked_fill,
    reverse_sequence,
)
from .function.array_func.matrix import diag
from .function.array_func.shape import (
    chunk,
    expand,
    flip,
    repeat_interleave,
    roll,
    slice_along,
    swapaxes,
    unbind,
)
from .function.math_func.elementwise import isclose, isfinite, isnan
from .function.math_func.linalg import outer
from .function.math_func.reduction import logsumexp, norm
from .function.nn_func.conv import fold
from .primitive_class import from_core


class TensorExtras:
    """Members over `aval`; inside a graph the attributes are compile-time constants."""

    # -- products and comparisons whose method takes its arguments otherwise than ops' ------
    def addr(self, vec1, vec2, beta=1, alpha=1):
        """ops.addr(self, vec1, vec2, beta=beta, alpha=alpha)."""
        from cellgraph.ops.function.math_func.linalg import addr

        return addr(self, vec1, vec2, beta=beta, alpha=alpha)

    def reverse_sequence(self, seq_lengths, seq_dim=0, batch_dim=0):
        """ops.reverse_sequence(self, seq_lengths, seq_dim, batch_dim); the method's seq_dim
        defaults to 0, as MindSpore's."""
        return reverse_sequence(self, seq_lengths, seq_dim, batch_dim)

    def approximate_equal(self, other, tolerance=1e-05):
        """ops.approximate_equal(self, other, tolerance)."""
        from cellgraph.ops.function.math_func.elementwise import approximate_equal

        return approximate_equal(self, other, tolerance)

    # -- layout -----------------------------------------------------------------------------
    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return self.aval.dtype.np.itemsize

    @property
    def nbytes(self) -> int:
        """Bytes of the whole tensor."""
        return self.aval.size * self.aval.dtype.np.itemsize

    @property
    def strides(self) -> tuple:
        """Bytes to step along each axis of the row-major layout, as NumPy counts them."""
        step, out = self.aval.dtype.np.itemsize, []
        for size in reversed(self.aval.shape):
            out.append(step)
            step *= size
        return tuple(reversed(out))

    def is_contiguous(self) -> bool:
        return True  # every backend keeps its arrays row-major

    def contiguous(self):
        return self

    def element_size(self) -> int:
        return self.itemsize

    def nelement(self) -> int:
        return self.aval.size

    def is_floating_point(self) -> bool:
        return self.aval.dtype.is_float

    @property
    def mT(self):
        return swapaxes(self, -1, -2)

    # -- gradients ------------------------------------------------------------------------------
    def register_hook(self, hook):
        """`hook(grad) -> new gradient or None`, called on this Tensor's gradient in the backward
        pass; returns a handle whose `remove()` removes it (cellgraph/tensor_hooks.py)."""
        from cellgraph.tensor_hooks import register_hook

        return register_hook(self, hook)

    def hooks(self) -> list:
        """The hook functions registered on this Tensor, in order."""
        from cellgraph.compiler.builder import Tracer
        from cellgraph.tensor_hooks import graph_hooks, hooks_of

        return graph_hooks(self) if isinstance(self, Tracer) else list(hooks_of(self))

    # -- dtype conversions --------------------------------------------------------------------
    def to(self, dtype):
        return self._to(dtype)

    def long(self):
        return self._to(dt.int64)

    def double(self):
        return self._to(dt.float64)

    def bool(self):
        return self._to(dt.bool_)

    def short(self):
        return self._to(dt.int16)

    def type_as(self, other):
        return F.cast(self, other.dtype)

    # -- arithmetic by name -------------------------------------------------------------------
    def true_divide(self, other):
        return F.div(self, other)

    def exp2(self):
        return F.pow(2.0, self)

    def lerp(self, end, weight):
        return F.add(self, F.mul(weight, F.sub(end, self)))

    def outer(self, vec2):
        return outer(self, vec2)

    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        return F.add(F.mul(self, beta), F.mul(F.matmul(mat1, mat2), alpha))

    def amax(self, axis=None, keepdims=False, *, initial=None, where=None):
        return F.amax(self, axis, keepdims, initial=initial, where=where)

    def amin(self, axis=None, keepdims=False, *, initial=None, where=None):
        return F.amin(self, axis, keepdims, initial=initial, where=where)

    def norm(self, ord=None, dim=None, keepdim=False, *, dtype=None):
        return norm(self, ord, dim, keepdim, dtype=dtype)

    def logsumexp(self, axis, keepdims=False):
        return logsumexp(self, axis, keepdims)

    # -- comparisons by name ------------------------------------------------------------------

    def ne(self, other):
        return F.not_equal(self, other)

    def ge(self, other):
        return F.greater_equal(self, other)

    def gt(self, other):
        return F.greater(self, other)

    def le(self, other):
        return F.less_equal(self, other)

    def lt(self, other):
        return F.less(self, other)

    def isnan(self):
        return isnan(self)

    def isfinite(self):
        return isfinite(self)

    def where(self, condition, y):
        return F.select(condition, self, y)

    def masked_fill(self, mask, value):
        return masked_fill(self, mask, value)

    # -- shape ------------------------------------------------------------------------------
    def ravel(self):
        return F.reshape(self, (-1,))

    def view_as(self, other):
        return F.reshape(self, tuple(other.shape))

    def fold(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        return fold(self, output_size, kernel_size, dilation, padding, stride)

    def inplace_update(self, v, indices):
        return inplace_update(self, v, indices)

    def expand_as(self, other):
        return F.broadcast_to(self, tuple(other.shape))

    def expand(self, *size):
        if len(size) == 1 and hasattr(size[0], "aval"):  # the shape as an integer Tensor
            return expand(self, size[0])
        size = size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
        return F.broadcast_to(self, tuple(size))

    def flip(self, dims):
        return flip(self, dims)

    def roll(self, shifts, dims=None):
        return roll(self, shifts, dims)

    def chunk(self, chunks, axis=0):
        return chunk(self, chunks, axis)

    def split(self, split_size_or_sections, axis=0):
        return split(self, split_size_or_sections, axis)

    def unbind(self, dim=0):
        return unbind(self, dim)

    def narrow(self, axis, start, length):
        """`length` elements from `start` along `axis`; MindSpore's checks: the axis in range,
        0 <= start < size, 1 <= length <= size - start."""
        from cellgraph._checkparam import INC_BOTH, INC_LEFT, check_int_range

        ndim = self.aval.ndim
        if isinstance(axis, bool) or not isinstance(axis, int) or not -ndim <= axis < ndim:
            raise ArgumentValueError(f"The 'axis' must be in the range of [{-ndim}, {ndim}), "
                                     f"but got {axis}.")
        size = self.aval.shape[axis]
        check_int_range(start, 0, size, INC_LEFT)
        check_int_range(length, 1, size - start, INC_BOTH)
        return slice_along(self, axis, start, length)

    def repeat(self, *repeats, **kwargs):
        """MindSpore 2.10's `Tensor.repeat(*repeats)` (not NumPy's repeat: that is
        `repeat_interleave`)."""
        return tensor_repeat(self, *repeats, **kwargs)

    def tril(self, diagonal=0):
        return self * _triangle_mask(self, diagonal, lower=True)

    def triu(self, diagonal=0):
        return self * _triangle_mask(self, diagonal, lower=False)

    # -- picking ----------------------------------------------------------------------------
    def gather(self, input_indices, axis, batch_dims=0):
        return F.gather(self, input_indices, axis, batch_dims)

    def gather_elements(self, dim, index):
        return gather_elements(self, dim, index)

    def scatter(self, axis, index, src):
        return F.scatter(self, axis, index, src)

    def scatter_add(self, dim, index, src):
        """self with src added at index along dim (repeated indices add up)."""
        return F.tensor_scatter_elements(self, index, src, axis=dim, reduction="add")

    # MindSpore's (deprecated since 2.9) spellings of tensor_scatter_<op>(self, indices, updates)
    def scatter_sub(self, indices, updates):
        return F.tensor_scatter_sub(self, indices, updates)

    def scatter_mul(self, indices, updates):
        return F.tensor_scatter_mul(self, indices, updates)

    def scatter_div(self, indices, updates):
        return F.tensor_scatter_div(self, indices, updates)

    def scatter_max(self, indices, updates):
        return F.tensor_scatter_max(self, indices, updates)

    def scatter_min(self, indices, updates):
        return F.tensor_scatter_min(self, indices, updates)

    def repeat_interleave(self, repeats, dim=None):
        return repeat_interleave(self, repeats, dim)

    def log_softmax(self, axis=-1):
        return F.log_softmax(self, axis)

    def isclose(self, x2, rtol=1e-05, atol=1e-08, equal_nan=False):
        return isclose(self, x2, rtol, atol, equal_nan)

    def diag(self):
        return diag(self)

    def ptp(self, axis=None, keepdims=False):
        """The range of the values, max - min, along `axis` (over all of them when None)."""
        return F.sub(F.reduce_max(self, axis, keepdims), F.reduce_min(self, axis, keepdims))

    def index_select(self, axis, index):
        return index_select(self, axis, index)

    # -- new tensors like this one ------------------------------------------------------------
    def new_zeros(self, size, dtype=None):
        return F.zeros(size, dtype or self.aval.dtype)

    def new_ones(self, size, dtype=None):
        return F.ones(size, dtype or self.aval.dtype)


def tensor_repeat(input, *repeats, **kwargs):
    """`input` copied repeats[i] times along axis i (PyTorch's `repeat`, MindSpore 2.10's
    Tensor.repeat): the counts given one by one, as one tuple or list, or as `repeats=`; more
    counts than axes add leading axes, fewer are refused."""
    if "repeats" in kwargs:
        if repeats:
            raise ArgumentError("repeat() got multiple values for argument 'repeats'.")
        repeats = kwargs.pop("repeats")
        if not isinstance(repeats, (tuple, list)):
            raise DTypeError(f"repeat(): argument 'repeats' must be tuple of int but got "
                             f"{type(repeats).__name__}.")
    elif len(repeats) == 1 and isinstance(repeats[0], (tuple, list)):
        repeats = repeats[0]
    for key in kwargs:
        raise ArgumentError(f"repeat() got an unexpected keyword argument '{key}'.")
    counts = []
    for pos, count in enumerate(repeats):
        if hasattr(count, "aval") and count.aval.ndim == 0 and count.aval.dtype.is_int:
            count = value_input(count, "repeat", "repeats").item()
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)):
            raise DTypeError(f"repeat(): argument 'repeats' (position 1) must be tuple of int "
                             f"but found type of {type(count).__name__} at pos {pos}.")
        counts.append(int(count))
    shape = tuple(input.aval.shape)
    if len(counts) < len(shape):
        raise ArgumentValueError(
            f"For repeat, number of items of repeats can not be smaller than the number of "
            f"dimensions of self tensor, but got repeats with {len(counts)} items and rank of "
            f"self Tensor is {len(shape)}.")
    lead = len(counts) - len(shape)
    for dim, count in enumerate(counts):
        size = count * (shape[dim - lead] if dim >= lead else 1)
        if size < 0:
            raise RunError(f"For Repeat, output size of all dimensions should be no smaller "
                           f"than 0, but got {size} at dim {dim} .")
    return tile(F.reshape(input, (1,) * lead + shape), tuple(counts))


def _triangle_mask(x, k: int, lower: bool):
    from cellgraph.primitives import array_ops as A

    rows, cols = x.aval.shape[-2:]
    keep = np.tril(np.ones((rows, cols)), k) if lower else np.triu(np.ones((rows, cols)), k)
    return A.cast(keep, dtype=x.aval.dtype)


# MindSpore's Tensor methods that are the functional op of the same name applied to the Tensor
# as its first argument, with the op's other parameters (`x.hypot(y)` is `ops.hypot(x, y)`)
FUNCTIONAL_METHODS = (
    "absolute", "addbmm", "addcmul", "addmv", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh",
    "argwhere", "baddbmm", "bmm", "count_nonzero", "cross", "cumprod", "deg2rad", "diff",
    "divide", "eq", "fliplr", "flipud", "floor_divide", "fmod", "frac", "hardshrink",
    "ger", "heaviside", "histc", "hypot", "index_fill", "inner", "inv", "isinf", "isneginf", "isposinf",
    "isreal", "logaddexp", "logcumsumexp", "logical_xor", "logit", "lstsq", "masked_scatter",
    "mm", "moveaxis", "movedim", "multinomial", "mvlgamma", "nan_to_num", "nansum", "negative",
    "rad2deg", "remainder", "sgn", "signbit",
    "subtract", "swapdims", "t", "take", "tensor_split", "top_k", "unsorted_segment_max",
    "unsorted_segment_min", "unsorted_segment_prod", "xlogy",
    # the functional ops added with MindSpore's ops names
    "cholesky_inverse", "diagonal_scatter", "dsplit", "hsplit", "i0", "invert",
    "log_matrix_determinant", "lu_solve", "matrix_power", "nanmedian", "orgqr",
    "nanquantile", "quantile", "renorm", "reverse", "rot90", "slogdet", "soft_shrink",
    "unique_consecutive", "unique_with_pad", "vsplit", "xdivy",
)


def _functional_method(name: str):
    """`Tensor.name(...)`: `ops.name(self, ...)`, showing the op's signature after its first
    parameter."""
    import inspect

    def method(self, *args, **kwargs):
        return getattr(functional, name)(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"`ops.{name}(self, ...)`."
    try:
        parameters = list(inspect.signature(getattr(functional, name)).parameters.values())
        if parameters and parameters[0].kind in (inspect.Parameter.POSITIONAL_ONLY,
                                                 inspect.Parameter.POSITIONAL_OR_KEYWORD):
            method.__signature__ = inspect.Signature(
                [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
                 *parameters[1:]])
    except (TypeError, ValueError):
        pass
    return method


def install(methods: type) -> None:
    """Give `methods` (the core's TensorMethods) each member it lacks."""
    for name, value in vars(TensorExtras).items():
        if not name.startswith("__") and not hasattr(methods, name):
            setattr(methods, name, value)


def install_functional_methods(methods: type) -> None:
    """The FUNCTIONAL_METHODS `methods` lacks, once `ops` has its functions."""
    for name in FUNCTIONAL_METHODS:
        if not hasattr(methods, name):
            setattr(methods, name, _functional_method(name))


def install_registered(methods: type) -> None:
    """The compositions' wrappers registered with `method=True` as Tensor methods on
    `methods` (TensorMethods, Tensor's base, which the core fills from the declarations): a
    wrapper takes the place of a method the core derived."""
    replaced = set()
    for kind, name, value, method in sorted(exports.EXPORTS, key=from_core):
        if kind != "function" or not method:
            continue
        if name in exports.INSTALLED_METHODS and name not in replaced:
            replaced.add(name)
            setattr(methods, name, value)
        else:
            exports.add_method(methods, name, value)
