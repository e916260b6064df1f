"""The functional API (`ops.exp(x)`, `ops.matmul(a, b)`, ...): argument checking and
normalisation in front of the primitives, so that nodes carry canonical parameters."""
from __future__ import annotations

import numbers

import numpy as np

from . import array_ops as A
from . import dtype as dt
from . import dynamic_ops as D
from . import math_ops as M
from . import nn_ops as N
from . import runtime_slice as RS
from .advanced_index import advanced_getitem
from .array_ops import Slice
from .check_convert import dtype_error
from .core import (
    abstract_of,
    is_value,
    normalize_axes,
    normalize_axis,
    running_eagerly,
    static_values,
    value_input,
)
from .errors import DTypeError, IndexValueError, ShapeError, ShapeRunError

# Elementwise primitives are functional ops themselves: `exp`, `add`, ... and their other
# spellings (`arcsin`, `negative`, ...) join this module from their declarations
# (exports.install).


def _check_value(x, op: str, what: str = "x"):
    if not is_value(x):
        raise DTypeError(f"{op}: expected a Tensor for `{what}`, got {type(x).__name__} "
                         f"{x!r:.60}")


def matmul(input, other):
    """NumPy-style matrix product: 1-D operands are vectors, leading dims broadcast."""
    _check_value(input, "matmul", "input")
    _check_value(other, "matmul", "other")
    x1, x2 = input, other
    a, b = abstract_of(x1), abstract_of(x2)
    if a.ndim == 0 or b.ndim == 0:
        raise ShapeError(f"MatMul: expected tensors of rank >= 1, got shapes {a.shape} and {b.shape}")
    inner1, inner2 = a.shape[-1], b.shape[-2] if b.ndim > 1 else b.shape[0]
    if None not in (inner1, inner2) and inner1 != inner2:  # MindSpore's MatMulExt: RuntimeError
        raise ShapeRunError(f"For 'MatMulExt' op, shape1[-1] must be equal to shape2[-2], but "
                            f"got {inner1} and {inner2} (shapes {a.shape} and {b.shape}).")
    x1 = A.expand_dims(x1, axis=0) if a.ndim == 1 else x1
    x2 = A.expand_dims(x2, axis=1) if b.ndim == 1 else x2
    out = M.matmul(x1, x2)
    if b.ndim == 1:
        out = A.squeeze(out, axis=(abstract_of(out).ndim - 1,))
    if a.ndim == 1:
        out = A.squeeze(out, axis=(abstract_of(out).ndim - 2,))
    return out


def mm(input, mat2):
    """The rank-2 MatMul primitive (two Tensors: a number is a TypeError, as MindSpore's)."""
    for name, value in (("input", input), ("mat2", mat2)):
        if isinstance(value, numbers.Number):
            raise DTypeError(f"For 'mm', the '{name}' must be a Tensor, but got "
                             f"{type(value).__name__} {value!r}.")
    return M.matmul(input, mat2)


def batch_matmul(x, y, transpose_a=False, transpose_b=False):
    """The MatMul primitive with its transpose flags."""
    params = {k: v for k, v in (("transpose_a", transpose_a), ("transpose_b", transpose_b)) if v}
    return M.matmul(x, y, **params)


def _axes(x, axis):
    if hasattr(axis, "aval"):  # a Tensor of axes: a value input
        axis = tuple(int(a) for a in value_input(axis, "Reduce", "axis").reshape(-1))
    return normalize_axes(axis, abstract_of(x).ndim) if axis not in (None, ()) else ()


def reduce_sum(x, axis=(), keep_dims=False):
    return A.reduce_sum(x, axis=_axes(x, axis), keep_dims=bool(keep_dims))


def reduce_mean(x, axis=(), keep_dims=False):
    return A.reduce_mean(x, axis=_axes(x, axis), keep_dims=bool(keep_dims))


def reduce_max(x, axis=(), keep_dims=False):
    return A.reduce_max(x, axis=_axes(x, axis), keep_dims=bool(keep_dims))


def reduce_min(x, axis=(), keep_dims=False):
    return A.reduce_min(x, axis=_axes(x, axis), keep_dims=bool(keep_dims))


# SumExt's and ProdExt's rule: bool and integers narrower than int64 accumulate in int64
WIDENED_TO_INT64 = frozenset({dt.bool_, dt.uint8, dt.int8, dt.int16, dt.int32})


def accumulator_dtype(input, dtype):
    """The dtype a sum or product of `input` is taken in: `dtype`, or int64 for bool and the
    narrower integers (MindSpore's SumExt and ProdExt, as torch's)."""
    if dtype is None and abstract_of(input).dtype in WIDENED_TO_INT64:
        return dt.int64
    return dtype


def sum(input, dim=None, keepdim=False, *, dtype=None):
    if isinstance(input, numbers.Number):  # MindSpore's sum takes Tensors only
        raise DTypeError(f"For 'sum', the input must be a Tensor, but got "
                         f"{type(input).__name__} {input!r}.")
    if not isinstance(keepdim, (bool, np.bool_)):
        raise DTypeError(f"For 'sum', the type of 'keepdim' must be bool, but got "
                         f"{type(keepdim).__name__} {keepdim!r}.")
    dtype = accumulator_dtype(input, dtype)
    if dtype is not None:
        input = cast(input, dtype)
    return reduce_sum(input, dim, keepdim)


def mean(x, axis=None, keep_dims=False):
    return reduce_mean(x, axis, keep_dims)


def _masked_extreme(op, input, axis, keepdims, initial, where, largest):
    """amax/amin with MindSpore's `initial` (a bound the result never passes) and `where` (the
    elements compared; the others count as `initial`, which a mask then needs)."""
    if where is not None and not (isinstance(where, bool) and where):
        if initial is None:
            raise ValueError("initial value must be provided for where masks")
        input = M.select(where, input, fill(abstract_of(input).dtype, abstract_of(input).shape,
                                             initial))
    out = op(input, axis, keepdims)
    if initial is not None:
        out = (M.maximum if largest else M.minimum)(out, cast(initial, abstract_of(out).dtype)
                                                    if is_value(initial) else
                                                    fill(abstract_of(out).dtype, (), initial))
    return out


def amax(input, axis=None, keepdims=False, *, initial=None, where=None):
    if initial is None and where is None:
        return reduce_max(input, axis, keepdims)
    return _masked_extreme(reduce_max, input, axis, keepdims, initial, where, True)


def amin(input, axis=None, keepdims=False, *, initial=None, where=None):
    if initial is None and where is None:
        return reduce_min(input, axis, keepdims)
    return _masked_extreme(reduce_min, input, axis, keepdims, initial, where, False)


def reshape(input, shape):
    x = input
    if hasattr(shape, "aval"):  # a 1-D Tensor of sizes: a value input
        known = static_values(shape)
        if known is None:  # computed in the graph: the sizes are read when it runs
            return D.reshape_to(x, shape)
        shape = tuple(int(s) for s in known.reshape(-1))
    dims = shape if isinstance(shape, (tuple, list)) else (shape,)
    if any(hasattr(d, "aval") and static_values(d) is None for d in dims):
        # sizes computed in the graph (`ops.shape` of a dynamic size): read when it runs
        return D.reshape_to(x, stack([cast(d, dt.int64) if hasattr(d, "aval") else
                                      np.asarray(-1 if d is None else d, np.int64)
                                      for d in dims]))
    if any(isinstance(d, (float, np.floating)) for d in dims):  # never truncated to an int
        kinds = ", ".join(type(d).__name__ if isinstance(d, (float, np.floating)) else "int"
                          for d in dims)
        seq = "Tuple" if isinstance(shape, tuple) else "List"
        raise DTypeError(f'Failed calling Reshape with "Reshape()(input=Tensor, '
                         f'shape={seq}<{kinds}>)".\nThe valid calling should be: \n'
                         f'"Reshape()(input=<Tensor>, shape=<list of int, Tensor, tuple of int>)".')
    # a dim known only at run time (None, from another value's shape) is the one -1
    shape = tuple(-1 if s is None else int(s) for s in dims)
    size = abstract_of(x).size
    if shape.count(-1) == 1 and size is not None:
        known = int(np.prod([s for s in shape if s != -1]))
        if known == 0 or size % known:
            raise ShapeError(f"Reshape: cannot reshape a tensor of shape {abstract_of(x).shape} "
                             f"into {shape}")
        shape = tuple(size // known if s == -1 else s for s in shape)
    if shape == abstract_of(x).shape and not hasattr(x, "_alias"):
        return x  # in a graph, the value itself; outside, a new Tensor over the elements
    return A.reshape(x, shape=shape)


# MindSpore's words for the types of Python values in its calling errors
_TYPE_WORDS = {str: "string", type(None): "None"}


def transpose(input, dims):
    if hasattr(dims, "aval"):  # MindSpore takes a tuple or list of ints only
        raise DTypeError('Failed calling Transpose with "Transpose()(input=Tensor, dims=Tensor)".'
                         '\nThe valid calling should be: \n"Transpose()(input=<Tensor>, '
                         'dims=<list of int, tuple of int>)".')
    if any(isinstance(p, bool) or not isinstance(p, (int, np.integer)) and
           not hasattr(p, "aval") for p in dims):  # (a graph's value input reads as an int)
        kinds = ", ".join(_TYPE_WORDS.get(type(p), type(p).__name__) for p in dims)
        tuple_word = "Tuple" if running_eagerly() else "tuple"
        raise DTypeError(f'Failed calling Transpose with "Transpose()(input=Tensor, '
                         f'dims={tuple_word}<{kinds}>)".')
    rank = abstract_of(input).ndim
    dims = tuple(int(p) for p in dims)
    if len(dims) != rank:  # MindSpore's Transpose checks, in its order and words
        raise ShapeError(f"For 'Transpose', size of perm should equal to rank of x, but got "
                         f"{len(dims)} and {rank}!")
    for p in dims:
        if not -max(rank, 1) <= p < max(rank, 1):
            raise ShapeError(f"For primitive[Transpose], the perm value must be in "
                             f"[{-rank},{rank}), but got {p}.")
    perm = tuple(normalize_axis(p, rank) for p in dims)
    for p in perm:
        if perm.count(p) > 1:
            raise ShapeError(f"For 'Transpose', perms should all be unique dim, but{p} is not "
                             f"unique!")
    return A.transpose(input, perm=perm)


def broadcast_to(input, shape):
    x = input
    xt = abstract_of(x)
    if hasattr(shape, "aval"):  # a Tensor of sizes: a value input
        shape = value_input(shape, "BroadcastTo", "shape").reshape(-1).tolist()
    shape = tuple(int(s) for s in shape)
    lead = len(shape) - xt.ndim
    for i, s in enumerate(shape):
        if s == -1 and i < lead or s < -1:  # -1 keeps an axis x has; a new one needs a size
            raise ShapeError(f"BroadcastTo: cannot broadcast shape {tuple(xt.shape)} to "
                             f"{shape}: dimension {i} is {s}")
    shape = tuple(xt.shape[i - lead] if s == -1 else s for i, s in enumerate(shape))
    return A.broadcast_to(x, shape=shape)


def expand_dims(input_x, axis):
    rank = abstract_of(input_x).ndim + 1
    if hasattr(axis, "aval") and static_values(axis) is None:  # computed in the graph
        return _expand_dims_at(input_x, axis, rank)
    return A.expand_dims(input_x, axis=normalize_axis(int(axis), rank))


def _expand_dims_at(x, axis, rank: int):
    """`x` with a size-1 axis inserted at `axis`, an integer known only when the graph runs
    (a scalar a Tensor `if` chose): a reshape to a shape computed in the graph, each size read
    when it runs (the new one 1, the others x's, shifted past `axis`)."""
    from .check_ops import checked_value

    axis_type = abstract_of(axis)
    if axis_type.shape not in ((), (1,)) or not axis_type.dtype.is_int:
        raise DTypeError(f"For 'ExpandDims', the 'axis' must be an int, got a Tensor "
                         f"{axis_type}")
    axis = checked_value(cast(reshape(axis, ()), dt.int64), low=-rank, high=rank,
                         what="axis", op="ExpandDims", error="value")
    axis = M.add(axis, M.mul(cast(M.less(axis, np.int64(0)), dt.int64), np.int64(rank)))
    positions = np.arange(rank, dtype=np.int64)
    sizes = concat([D.shape_of(x), np.ones(1, np.int64)])  # (the last entry is never read)
    source = M.sub(positions, cast(M.greater(positions, axis), dt.int64))
    shape = M.select(M.equal(positions, axis), np.ones(rank, np.int64),
                     gather(sizes, source, 0))
    return D.reshape_to(x, shape)


def squeeze(input, axis=None):
    """`input` without its size-1 axes, or those of `axis`; an axis of `axis` whose size is
    not 1 stays (MindSpore 2.10, as PyTorch)."""
    if axis is None or axis == ():
        return A.squeeze(input, axis=())
    shape = abstract_of(input).shape
    axes = tuple(a for a in normalize_axes(axis, len(shape)) if shape[a] in (1, None))
    if axes or None in shape:
        return A.squeeze(input, axis=axes) if axes else input
    return A.reshape(input, shape=shape)  # a new tensor (a view) of the same shape


def cast(input, dtype):
    if not isinstance(dtype, dt.DType):  # MindSpore takes no names, NumPy or Python types here
        raise DTypeError(f"For 'Cast', the input 'dtype' should be mindspore dtype, but got "
                         f"{dtype}.")
    if abstract_of(input).dtype == dtype and hasattr(input, "aval"):
        return input
    return A.cast(input, dtype=dtype)


def _some_tensors(op: str, tensors) -> tuple:
    if op == "Concat" and hasattr(tensors, "aval"):  # a Tensor is not a sequence of them
        raise DTypeError('Failed calling Concat with "Concat(axis=int)(tensors=Tensor)".'
                         '\nThe valid calling should be: \n"Concat(axis=<int>)(tensors=<list '
                         'of tensor, tuple of Tensor>)".')
    tensors = tuple(tensors)
    if not tensors:  # MindSpore: "the stack element num must be greater than or equal to 1"
        raise ShapeError(f"{op}: expected at least one tensor, got none")
    return tensors


def _runtime_stack(tensors):
    """The stacked elements (n, *shape) of a dynamic-length sequence whose items are not known
    while the graph is built (its length is known when it runs), else None."""
    sequence = getattr(tensors, "runtime_sequence", None)
    if sequence is None or sequence.items is not None:
        return None
    if sequence.data is None or sequence.element.kind != "tensor":
        raise ShapeError("expected a sequence of Tensors, got an empty one or one of numbers")
    return sequence.data


def _axis_first(stacked, axis: int):
    """`stacked` (n, *shape) with its first axis moved to `axis`."""
    order = list(range(1, abstract_of(stacked).ndim))
    return A.transpose(stacked, perm=tuple(order[:axis] + [0] + order[axis:]))


def concat(tensors, axis=0):
    stacked = _runtime_stack(tensors)
    if stacked is not None:  # the n stacked elements, their first axis merged into `axis`
        shape = abstract_of(stacked).shape[1:]
        if not shape:
            raise ShapeError("Concat: expected tensors of rank >= 1, got a 0-d tensor")
        axis = normalize_axis(axis, len(shape))
        return A.reshape(_axis_first(stacked, axis),
                         shape=(*shape[:axis], -1, *shape[axis + 1:]))
    tensors = _some_tensors("Concat", tensors)
    if any(abstract_of(t).ndim == 0 for t in tensors):  # MindSpore: ValueError too
        raise ShapeError("Concat: expected tensors of rank >= 1, got a 0-d tensor")
    return A.concat(*tensors, axis=normalize_axis(axis, abstract_of(tensors[0]).ndim))


cat = concat


def stack(tensors, axis=0):
    stacked = _runtime_stack(tensors)
    if stacked is not None:
        return _axis_first(stacked, normalize_axis(axis, abstract_of(stacked).ndim))
    if hasattr(tensors, "aval"):  # MindSpore stacks a lone Tensor as a sequence of one
        tensors = (tensors,)
    tensors = _some_tensors("Stack", tensors)
    dtypes = [getattr(t, "aval", None) and t.aval.dtype for t in tensors]
    for i, dtype in enumerate(dtypes):  # MindSpore's Stack casts nothing: one dtype or TypeError
        if dtype is not None and dtypes[0] is not None and dtype != dtypes[0]:
            raise DTypeError(f"For 'Stack', all inputs must have the same data type, but "
                             f"input[{i}] data type = {dtype} and input[0] data type = "
                             f"{dtypes[0]}.")
    return A.stack(*tensors, axis=normalize_axis(axis, abstract_of(tensors[0]).ndim + 1))


def fill(type, shape, value):
    """`shape` filled with `value`; a 0-d Tensor or a scalar known only when the graph runs
    (a `mutable` number) is broadcast."""
    return _fill(type, shape, value, "Fill")


def _fill(type, shape, value, op: str):
    if hasattr(shape, "aval"):  # a Tensor of sizes: a value input
        aval = shape.aval
        if aval.ndim > 1 or not (aval.dtype.is_int or aval.dtype.is_bool):
            raise DTypeError(f"For {op}, the 0'th input is a Tensor whose shape is "
                             f"{list(aval.shape)} and dtype is [{aval.dtype}], which can not be "
                             f"converted to tuple of int.")
        known = static_values(shape)
        if known is None and isinstance(value, (bool, int, float)):
            # computed in the graph: the sizes are read when it runs (one size: a 0-d one)
            sizes = A.reshape(shape, shape=(1,)) if aval.ndim == 0 else shape
            return D.fill_to(sizes, dtype=dt.as_dtype(type), value=value)
        shape = tuple(int(s) for s in value_input(shape, "Fill", "shape").reshape(-1))
    if isinstance(shape, numbers.Integral):
        shape = (shape,)
    elif any(hasattr(s, "aval") for s in shape):  # sizes known only when the graph runs
        known = _known_sizes(shape)
        if known is None and isinstance(value, (bool, int, float)):
            sizes = A.stack(*(A.cast(s, dtype=dt.int64) if hasattr(s, "aval") else
                              np.asarray(s, np.int64) for s in shape), axis=0)
            return D.fill_to(sizes, dtype=dt.as_dtype(type), value=value)
        shape = known if known is not None else shape
    shape = tuple(int(s) for s in shape)
    if hasattr(value, "aval") and tuple(value.aval.shape) == ():
        return A.broadcast_to(A.cast(value, dtype=dt.as_dtype(type)), shape=shape)
    return A.fill(dtype=dt.as_dtype(type), shape=shape, value=value)


def _known_sizes(shape) -> tuple | None:
    """The sizes as ints where each is known while the graph is built (a variable scalar
    passed to it reads as its value, specialising the graph), else None."""
    try:
        return tuple(int(s) for s in shape)
    except TypeError:
        return None


def full(size, fill_value, *, dtype=None):
    """A Tensor of `size` filled with `fill_value`, in `dtype`: int64 by default whatever the
    value, as MindSpore's ops.full (its own example fills int64 ones from 1.2)."""
    if not isinstance(size, (list, tuple)):
        raise DTypeError(f"For 'ops.full', 'size' must be a tuple or list of ints, but got "
                         f"{type(size)}.")
    if dtype is not None and not isinstance(dtype, dt.DType):
        raise DTypeError(f"For 'ops.full', 'dtype' must be mindspore.type, but got {dtype}.")
    return _fill(dt.int64 if dtype is None else dtype, size, fill_value, "FillV2")


def zeros(size, dtype=None):
    return _fill(dtype or dt.float32, size, 0, "Zeros")


def ones(shape, dtype=None):
    return _fill(dtype or dt.float32, shape, 1, "Ones")


where = M.select


_SOFTMAX_DTYPES = (dt.bfloat16, dt.float16, dt.float32, dt.float64)


def _float_input(op: str, x):
    """`x`, a Tensor of a float dtype, or MindSpore's TypeError for Softmax's input."""
    _check_value(x, op, "x")
    dtype = abstract_of(x).dtype
    if dtype not in _SOFTMAX_DTYPES:
        raise dtype_error(op, "x", _SOFTMAX_DTYPES, dtype)
    return x


def softmax(input, axis=-1, *, dtype=None):
    """Softmax along `axis` of a float Tensor (`dtype` casts it first); an integer or bool
    Tensor is MindSpore's TypeError."""
    if dtype is not None:
        input = cast(input, dtype)
    input = _float_input("Softmax", input)
    return N.softmax(input, axis=normalize_axis(axis, abstract_of(input).ndim))


def log_softmax(logits, axis=-1):
    logits = _float_input("LogSoftmax", logits)
    return N.log_softmax(logits, axis=normalize_axis(axis, abstract_of(logits).ndim))


def clamp_min(x, value):
    return M.maximum(x, value)


def getitem(x, index):
    """`x[index]`: static int/slice/None/Ellipsis items, or one integer Tensor index (gather).
    A Python `True` is NumPy's 0-d boolean index: a new axis of size 1 (None) alone, an
    advanced index with the others; `False` (an empty selection) is refused, as in MindSpore.
    A tuple inside the index tuple is a sequence index, as a list is (NumPy's and MindSpore's
    reading)."""
    _check_value(x, "getitem")
    index = list_index_as_tuple(index)
    items = (tuple(list(item) if isinstance(item, tuple) else item for item in index)
             if isinstance(index, tuple) else (index,))
    static, tensors, runtime = [], [], []
    for pos, item in enumerate(items):
        if isinstance(item, bool):
            if not item:
                raise IndexValueError("GetItem: when tensor is indexed by a bool object, the "
                                      "value only support 'True'.")
            static.append(True)
        elif isinstance(item, slice):
            bounds = [RS.slice_bound(b) for b in (item.start, item.stop, item.step)]
            if RS.is_runtime(slice(*bounds)):
                runtime.append(pos)
                static.append(slice(*bounds))
            else:
                static.append(Slice(*bounds))
        elif item is None or item is Ellipsis:
            static.append(item)
        elif isinstance(item, numbers.Integral) and not isinstance(item, bool):
            static.append(int(item))
        elif isinstance(item, float):
            raise IndexValueError(f"GetItem: Number index of tensor must be int or bool, but got "
                                  f"{item}.")
        elif isinstance(item, list) and not any(v is True or v is np.True_ for v in item) and \
                all(isinstance(v, (bool, np.bool_)) for v in item) and (
                    not item or running_eagerly()):
            # (MindSpore's PyNative reads a list of bools as the positions of its Trues: none
            # is the empty list; its graphs select nothing)
            raise IndexValueError("GetItem: When tensor is indexed by list, the list can't be "
                                  "empty.")
        elif is_value(item) and running_eagerly() and abstract_of(item).ndim == 0 and \
                abstract_of(item).dtype.is_int:
            # MindSpore's PyNative reads a 0-d integer Tensor as the int it holds: x[Tensor(1)]
            # is the view x[1], which writes its base
            static.append(int(item))
        elif isinstance(item, list) and any(hasattr(v, "aval") for v in item):
            tensors.append(pos)  # numbers known only at run time (a `mutable` list)
            static.append(_int_list_tensor(item))
        elif isinstance(item, (list, np.ndarray)) or is_value(item):
            tensors.append(pos)
            static.append(item)
        else:
            raise DTypeError(f"GetItem: unsupported index {item!r} of type {type(item).__name__}")
    if runtime:
        x, static = RS.apply_runtime_slices(x, static, runtime)
    if not tensors:
        return A.getitem(x, index=tuple(None if it is True else it for it in static))
    return _gather_index(x, static, tensors)


def list_index_as_tuple(index):
    """MindSpore's reading of a list index: a list of ints and bools is one index array, a
    list holding anything else (a Tensor, a slice, a nested list) is a tuple of indices
    (`x[[mask, 0]]` is `x[mask, 0]`, `x[[[0, 1], [1, 0]]]` is `x[[0, 1], [1, 0]]`). Numbers
    known only at run time (a `mutable` list's) count as ints."""
    if isinstance(index, list) and any(
            not isinstance(item, (int, np.integer, np.bool_))
            and getattr(item, "python_type", None) not in (int, bool) for item in index):
        return tuple(index)
    return index


def mask_positions(mask) -> tuple:
    """A boolean mask as NumPy reads it inside a tuple index: the positions of its True
    elements, one integer index per axis it spans (arrays where the mask is known now, else
    Tensors whose length only the run knows)."""
    known = np.asarray(mask) if isinstance(mask, (list, np.ndarray)) or hasattr(
        mask, "_data") else static_values(mask)  # (a mask the graph builds from constants)
    if known is not None:
        return tuple(axis.astype(np.int64) for axis in np.nonzero(np.asarray(known)))
    coords = D.nonzero_p(mask)
    whole = Slice(None, None, None)
    return tuple(A.getitem(coords, index=(whole, axis))
                 for axis in range(abstract_of(mask).ndim))
def _int_list_tensor(items: list):
    """A list index holding numbers known only at run time, as one int64 Tensor."""
    for v in items:
        dtype = abstract_of(v).dtype if hasattr(v, "aval") else None
        if isinstance(v, (bool, float)) or dtype is not None and not dtype.is_int:
            raise IndexValueError(f"GetItem: a list index holding values known only at run "
                                  f"time must hold ints, got {v}")
    parts = [A.reshape(A.cast(v, dtype=dt.int64), shape=()) if hasattr(v, "aval") else
             A.cast(np.asarray(v, np.int64), dtype=dt.int64) for v in items]
    return A.stack(*parts, axis=0)


def _gather_index(x, items, tensor_positions):
    full = Slice(None, None, None)
    pos = tensor_positions[0]
    rest = [it for i, it in enumerate(items) if i != pos]
    if len(tensor_positions) > 1 or any(it != full for it in rest):
        expanded = []
        for i, item in enumerate(items):
            expanded.extend(mask_positions(item) if i in tensor_positions and _is_bool_index(
                item) else (item,))
        return advanced_getitem(x, expanded)
    index = items[pos]
    if isinstance(index, (list, np.ndarray)):
        index = np.asarray(index)
    it = abstract_of(index)
    if it.dtype.is_bool:
        return _masked_read(x, index, pos)
    if not it.dtype.is_int:
        raise DTypeError(f"GetItem: expected an integer index tensor, got {it.dtype}")
    return A.gather(x, index, axis=pos)


def _is_bool_index(item) -> bool:
    if isinstance(item, (list, np.ndarray)):
        return np.asarray(item).dtype == np.bool_
    return abstract_of(item).dtype.is_bool


def _masked_read(x, mask, pos: int):
    """`x[mask]` (or `x[:, mask]`): the entries where a boolean mask covering the axes from
    `pos` on is True, in row-major order. The result's length is the mask's count: a size
    known only at run time where the mask is computed in (or passed to) a graph."""
    mask_shape = tuple(abstract_of(mask).shape) if is_value(mask) else np.shape(mask)
    shape = abstract_of(x).shape
    covered = tuple(shape[pos:pos + len(mask_shape)])
    if covered != mask_shape:
        raise IndexValueError(f"GetItem: the boolean mask of shape {mask_shape} does not "
                              f"match the indexed axes of shape {covered}")
    merged = reshape(x, shape[:pos] + (-1,) + shape[pos + len(mask_shape):])
    if isinstance(mask, np.ndarray) or running_eagerly():
        return A.gather(merged, np.flatnonzero(np.asarray(mask)).astype(np.int64), axis=pos)
    flat = D.nonzero_p(reshape(mask, (-1,)))
    return A.gather(merged, A.getitem(flat, index=(Slice(None, None, None), 0)), axis=pos)


def gather(input_params, input_indices, axis, batch_dims=0):
    """Slices of `input_params` along `axis` at `input_indices`; the first `batch_dims` axes of
    both are batch axes, each batch element gathering with its own indices."""
    ndim = abstract_of(input_params).ndim
    if isinstance(axis, int) and not isinstance(axis, bool) and not -ndim <= axis < ndim:
        raise ShapeError(f"For primitive[Gather], the axis must be in [{-ndim},{ndim}], but "
                         f"got {axis}.")  # MindSpore's words
    axis = normalize_axis(axis, ndim)
    if batch_dims == 0:
        return A.gather(input_params, input_indices, axis=axis)
    return _batched_gather(input_params, input_indices, axis, batch_dims)


def _batched_gather(params, indices, axis: int, batch_dims: int):
    """gather with batch axes: the batch axes and `axis` of params become one axis of
    B * A rows (batch b's rows from b * A), the indices shifted by b * A, one gather, and the
    batch axes moved back in front."""
    shape, index_shape = abstract_of(params).shape, abstract_of(indices).shape
    index_rank = len(index_shape)
    if batch_dims < 0:
        batch_dims += index_rank
    if not 0 <= batch_dims <= min(axis, index_rank) or None in shape[:axis + 1]:
        raise ShapeError(f"For 'Gather', 'batch_dims' must be in [0, min(axis {axis}, indices "
                         f"rank {index_rank})] with known sizes, but got {batch_dims}.")
    if tuple(shape[:batch_dims]) != tuple(index_shape[:batch_dims]):
        raise ShapeError(f"For 'Gather', the first {batch_dims} axes of params {tuple(shape)} "
                         f"and indices {tuple(index_shape)} must be equal.")
    batch = int(np.prod(shape[:batch_dims]))
    pre, rows = tuple(shape[batch_dims:axis]), int(shape[axis])
    order = tuple(range(batch_dims, axis)) + tuple(range(batch_dims)) + tuple(range(axis, len(shape)))
    moved = reshape(transpose(params, order), pre + (batch * rows,) + tuple(shape[axis + 1:]))
    offsets = (np.arange(batch) * rows).reshape((batch,) + (1,) * (index_rank - batch_dims))
    flat_indices = reshape(indices, (batch,) + tuple(index_shape[batch_dims:]))
    shifted = M.add(flat_indices, A.cast(offsets, dtype=abstract_of(indices).dtype))
    out = A.gather(moved, shifted, axis=len(pre))  # (pre, B, I..., post)
    out_rank = len(pre) + 1 + (index_rank - batch_dims) + len(shape) - axis - 1
    front = (len(pre),) + tuple(range(len(pre))) + tuple(range(len(pre) + 1, out_rank))
    out = transpose(out, front)
    return reshape(out, tuple(shape[:batch_dims]) + tuple(abstract_of(out).shape[1:]))



__all__ = [n for n, v in list(globals().items()) if not n.startswith("_") and callable(v)
           and not isinstance(v, type) and n not in {
               "abstract_of", "is_value", "normalize_axes", "normalize_axis"}]
