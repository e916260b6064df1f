"""Operators and methods shared by eager Tensors and graph tracers, written with functional ops.

Both kinds of value expose `aval`; everything here dispatches through `bind`, so the same
`x * y` runs a kernel eagerly or emits a node while a graph is being built.
"""
from __future__ import annotations

import numpy as np

from . import array_ops as A
from . import dtype as dt
from . import floor_division
from . import functional as F
from . import math_ops as _math
from . import nn_functional as NF
from . import rounding_ops as _bitwise
from .core import abstract_of, is_value, normalize_axes, running_eagerly
from .errors import ArgumentError, DTypeError


def _seq(o, tensor):
    """A tuple or list of numbers added to, subtracted from or floor-divided with a Tensor is
    a Tensor of that Tensor's dtype, as in MindSpore (`x + (1, 2, 3)`; in PyNative mode `*`,
    `/`, `%` and `**` refuse sequences, in a graph only `**`: GraphSequenceArithmetic); a tuple
    or list of Tensors is the Tensor they stack into (MindSpore's sequence to Tensor conversion:
    `ops.Split()(x) + y`); anything else is left for the operation to take or refuse."""
    if not isinstance(o, (tuple, list)):
        return o
    if o and all(hasattr(item, "aval") for item in o):
        return F.stack(list(o), 0)
    arr = np.asarray(o)
    if arr.dtype.kind not in "biuf":
        return o
    return arr.astype(tensor.aval.dtype.np)


def _flat_args(args):
    """`t.reshape(2, 3)` and `t.reshape((2, 3))` both mean shape (2, 3)."""
    return tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else args


def _check_implicit_shape(name: str, sizes: tuple) -> None:
    """`t.reshape(2, 3)`: sizes given one by one must be ints (MindSpore's TypeError, in its
    graph-mode and PyNative words); one tuple, list or Tensor is the shape itself."""
    if len(sizes) == 1 and (isinstance(sizes[0], (tuple, list)) or hasattr(sizes[0], "aval")):
        return
    for i, size in enumerate(sizes):
        if isinstance(size, (int, np.integer)) or hasattr(size, "aval"):
            continue
        kind = {str: "string"}.get(type(size), type(size).__name__)
        if running_eagerly():
            raise DTypeError(f"{name}(): argument 'shape'(position 0) should be tuple of int, "
                             f"but unpack failed at pos {i} (got {kind}).")
        raise DTypeError(f"{name}(): argument 'shape' (position {i + 1}) must be tuple of int, "
                         f"not {kind}.")


def _count(shape, axis) -> int:
    count = 1
    for a in normalize_axes(axis, len(shape)):
        count *= shape[a]
    return count


class GraphSequenceArithmetic:
    """A graph's `*`, `/` and `%` with a tuple or list on either side of a Tensor: MindSpore's
    graph mode (multitype_ops mul_impl, div_impl, mod_impl: sequence_to_tensor) takes it as a
    Tensor of the Tensor's dtype (`x * (1, 4, 16)`), where PyNative mode refuses it. A base of
    the graph's values (the compiler's Tracer), before TensorMethods."""

    __slots__ = ()

    def __mul__(self, o): return F.mul(self, _seq(o, self))
    def __rmul__(self, o): return F.mul(_seq(o, self), self)
    def __truediv__(self, o): return F.div(self, _seq(o, self))
    def __rtruediv__(self, o): return F.div(_seq(o, self), self)
    def __mod__(self, o): return floor_division.floor_mod(self, _seq(o, self))
    def __rmod__(self, o): return floor_division.floor_mod(_seq(o, self), self)


class TensorMethods:
    __slots__ = ()
    __hash__ = object.__hash__
    __array_priority__ = 1000  # so that numpy_array * tensor calls our __rmul__

    @property
    def shape(self) -> tuple:
        return self.aval.shape

    @property
    def dtype(self):
        return self.aval.dtype

    @property
    def ndim(self) -> int:
        return self.aval.ndim

    @property
    def size(self) -> int:
        return self.aval.size

    def dim(self) -> int:
        return self.aval.ndim

    def copy(self):
        """`Tensor.copy()` in a graph: the value itself, as a graph never changes a value in
        place (an item assignment makes a new value); a Tensor outside one copies its data."""
        return self

    def __len__(self) -> int:
        if not self.aval.shape:
            raise DTypeError("Not support len of a 0-D tensor.")  # MindSpore's words
        return self.aval.shape[0]

    def __add__(self, o): return F.add(self, _seq(o, self))
    def __radd__(self, o): return F.add(_seq(o, self), self)
    def __sub__(self, o): return F.sub(self, _seq(o, self))
    def __rsub__(self, o): return F.sub(_seq(o, self), self)
    def __mul__(self, o): return F.mul(self, o)
    def __rmul__(self, o): return F.mul(o, self)
    def __truediv__(self, o): return F.div(self, o)
    def __floordiv__(self, o): return floor_division.floor_div(self, _seq(o, self))
    def __rfloordiv__(self, o): return floor_division.floor_div(_seq(o, self), self)
    def __mod__(self, o): return floor_division.floor_mod(self, o)
    def __rmod__(self, o): return floor_division.floor_mod(o, self)
    def __rtruediv__(self, o): return F.div(o, self)
    def __pow__(self, o): return F.pow(self, o)
    def __rpow__(self, o): return F.pow(o, self)
    def __matmul__(self, o): return F.matmul(self, o)
    def __rmatmul__(self, o): return F.matmul(o, self)
    def __neg__(self): return F.neg(self)
    def __pos__(self): return self
    def __abs__(self): return F.abs(self)
    def __invert__(self): return _math.logical_not(self)  # MindSpore's `~`, for every dtype
    def __and__(self, o): return _bitwise.bitwise_and(self, o)
    def __rand__(self, o): return _bitwise.bitwise_and(o, self)
    def __or__(self, o): return _bitwise.bitwise_or(self, o)
    def __ror__(self, o): return _bitwise.bitwise_or(o, self)
    def __xor__(self, o): return _bitwise.bitwise_xor(self, o)
    def __rxor__(self, o): return _bitwise.bitwise_xor(o, self)
    def __lshift__(self, o): return _bitwise.bitwise_left_shift(self, o)
    def __rlshift__(self, o): return _bitwise.bitwise_left_shift(o, self)
    def __rshift__(self, o): return _bitwise.bitwise_right_shift(self, o)
    def __rrshift__(self, o): return _bitwise.bitwise_right_shift(o, self)
    def __lt__(self, o): return F.less(self, o)
    def __le__(self, o): return F.less_equal(self, o)
    def __gt__(self, o): return F.greater(self, o)
    def __ge__(self, o): return F.greater_equal(self, o)
    # Against what is not a Tensor, an array or a number (a str, None, a list, any object), ==
    # and != are Python's identity comparisons, False and True, as MindSpore's
    def __eq__(self, o): return F.equal(self, o) if is_value(o) else NotImplemented
    def __ne__(self, o): return F.not_equal(self, o) if is_value(o) else NotImplemented
    def __getitem__(self, index): return F.getitem(self, index)

    def sum(self, axis=None, keepdims=False, dtype=None, initial=None, *, dim=None,
            keepdim=None):
        """1.x/NumPy's (axis, keepdims) or 2.x's (dim, keepdim) spelling."""
        axis = dim if dim is not None else axis
        keepdims = keepdim if keepdim is not None else keepdims
        # SumExt's: bool and narrower integers sum in int64, or in `dtype` when given
        out = F.sum(self, axis, bool(keepdims), dtype=dtype)
        if initial is not None:
            out = out + initial
        return F.cast(out, dtype) if dtype == dt.bool_ else out

    def mean(self, axis=None, keep_dims=False):
        return F.reduce_mean(self, axis, keep_dims)

    def max(self, axis=None, keepdims=False):
        return F.reduce_max(self, axis, keepdims)

    def min(self, axis=None, keepdims=False):
        return F.reduce_min(self, axis, keepdims)

    def reshape(self, *shape):
        _check_implicit_shape("reshape", shape)
        return F.reshape(self, _flat_args(shape))

    def view(self, *shape, dtype=None):
        """`self` in another shape (given as ints, one tuple or list) or, given a dtype (alone
        or as `dtype=`), its bytes read as that dtype (MindSpore's ViewDtype)."""
        if len(shape) == 1 and isinstance(shape[0], dt.DType) and dtype is None:
            shape, dtype = (), shape[0]
        if dtype is not None:
            if shape:
                raise ArgumentError(f'Failed calling view with "view({len(shape)} sizes, '
                                    f'dtype={dtype})": give a shape or a dtype.')
            return A.view_dtype(self, dtype=dt.as_dtype(dtype))
        if not shape:
            raise ArgumentError('Failed calling view with "view()".')
        return F.reshape(self, _flat_args(shape))

    def flatten(self):
        return F.reshape(self, (-1,))

    def transpose(self, *axes):
        """The axes permuted: given one by one, as a tuple or list; none (or None) reverses
        them."""
        if len(axes) > 1 and not running_eagerly():
            for i, axis in enumerate(axes):  # MindSpore's graph-mode words
                if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
                    kind = {str: "string"}.get(type(axis), type(axis).__name__)
                    raise DTypeError(f"transpose(): argument 'axes' (position {i + 1}) must be "
                                     f"tuple of int, not {kind}.")
        axes = () if axes == (None,) else _flat_args(axes)
        return F.transpose(self, axes or tuple(reversed(range(self.ndim))))

    @property
    def T(self):
        """The axes reversed; a Tensor of rank 0 or 1 is itself, as MindSpore's."""
        return self if abstract_of(self).ndim <= 1 else self.transpose()

    def squeeze(self, axis=None):
        return F.squeeze(self, axis)

    def expand_dims(self, axis):
        return F.expand_dims(self, axis)

    def unsqueeze(self, dim):
        return F.expand_dims(self, dim)

    def astype(self, dtype, copy=True):
        """This tensor in `dtype`: a new tensor, or with copy=False itself when it has that
        dtype already."""
        if not copy and abstract_of(self).dtype == dt.as_dtype(dtype):
            return self
        return self._to(dtype)

    def _to(self, dtype):
        """MindSpore's `to(dtype)`: this tensor cast to `dtype`; one that has the dtype already
        is, outside graphs, a new Tensor over the same elements (writes to one show in the
        other), in a graph the value itself."""
        dtype = dt.as_dtype(dtype)  # unlike ops.cast, astype takes names and NumPy types
        if abstract_of(self).dtype == dtype and hasattr(self, "_alias"):
            return self._alias()
        return F.cast(self, dtype)

    def broadcast_to(self, shape):
        return F.broadcast_to(self, shape)

    def softmax(self, axis, dtype=None):
        return F.softmax(self, axis, dtype=dtype)

    def qr(self, some=True):
        """(Q, R) of each matrix: Q with min(M, N) columns when `some`, else square."""
        from .linalg_ops import qr

        return qr(self, "reduced" if some else "complete")

    def argmax(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        return NF.argmax(self, dim if dim is not None else axis,
                         keepdim if keepdim is not None else keepdims)

    def argmin(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        from .sort_ops import argmin_  # int32, as MindSpore's Tensor.argmin

        return argmin_(self, dim if dim is not None else axis,
                       keepdim if keepdim is not None else keepdims)

    def clip(self, min=None, max=None, *, xmin=None, xmax=None):
        """MindSpore 2.x's clip(min, max); 1.x code passes xmin/xmax."""
        low = xmin if min is None else min
        high = xmax if max is None else max
        return NF.clamp(self, low, high)

    clamp = clip

    def all(self, axis=None, keep_dims=False):
        return F.reduce_min(F.cast(self, dt.bool_), axis, keep_dims)

    def any(self, axis=None, keep_dims=False):
        return F.reduce_max(F.cast(self, dt.bool_), axis, keep_dims)

    def permute(self, *dims):
        return F.transpose(self, _flat_args(dims))

    def swapaxes(self, axis0, axis1):
        perm = list(range(self.ndim))
        perm[axis0], perm[axis1] = perm[axis1], perm[axis0]
        return F.transpose(self, tuple(perm))

    def float(self):
        return self._to("float32")

    def half(self):
        return self._to("float16")

    def int(self):
        return self._to("int32")

    def numel(self) -> int:
        return self.aval.size

    def matmul(self, other):
        return F.matmul(self, other)

    def var(self, axis=None, ddof=0, keepdims=False):
        centred = self - F.reduce_mean(self, axis, True)
        count = self.aval.size if axis is None else _count(self.aval.shape, axis)
        return F.reduce_sum(centred * centred, axis, keepdims) / (count - ddof)

    def std(self, axis=None, ddof=0, keepdims=False):
        return F.sqrt(self.var(axis, ddof, keepdims))

    def cumsum(self, axis=0):
        return NF.cumsum(self, axis)

    def prod(self, axis=None, keep_dims=False, dtype=None):
        return NF.prod(self, axis, keep_dims, dtype)

    def tile(self, multiples):
        return NF.tile(self, multiples)

    def normalized_axes(self, axis) -> tuple:
        return normalize_axes(axis, self.ndim)
