"""The `_ext` functions of MindSpore's `ops.function.array_func`: the array operations with
mint's parameters (`gather_ext(input, dim, index)` is `mint.gather`), which MindSpore's own code
and tests import from here, with `new_ones` and `new_zeros`, which MindSpore keeps here too.
They are this module's names only, not `ops`'s (as in MindSpore)."""
from __future__ import annotations

__all__ = ["arange_ext", "chunk_ext", "full_ext", "full_like_ext", "gather_ext", "index_fill_ext",
           "max_ext", "meshgrid_ext", "min_ext", "new_ones", "new_zeros", "one_hot_ext",
           "ones_like_ext", "repeat_interleave_ext", "scatter_add_ext", "sort_ext", "split_ext",
           "tensor_scatter_elements_ext", "tril_ext", "unbind_ext", "unique_ext",
           "zeros_like_ext"]

import numpy as np

from cellgraph.primitives import dtype as dt
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, RunError


def _mint():
    from cellgraph import mint  # above ops (it loads nn): read when called

    return mint


def _ops():
    from cellgraph import ops

    return ops


def arange_ext(start=0, end=None, step=1, *, dtype=None):
    return _mint().arange(start, end, step, dtype=dtype)


def chunk_ext(input, chunks, dim=0):
    return _mint().chunk(input, chunks, dim)


def full_ext(size, fill_value, *, dtype=None):
    return _mint().full(size, fill_value, dtype=dtype)


def full_like_ext(input, fill_value, *, dtype=None):
    return _mint().full_like(input, fill_value, dtype=dtype)


def gather_ext(input, dim, index):
    return _mint().gather(input, dim, index)


def index_fill_ext(input, dim, index, value):
    return _ops().index_fill(input, dim, index, value)


def max_ext(input, dim=None, keepdim=False):
    return _mint().max(input, dim, keepdim)


def meshgrid_ext(*tensors, indexing=None):
    return _mint().meshgrid(*tensors, indexing=indexing)


def min_ext(input, dim=None, keepdim=False):
    return _mint().min(input, dim, keepdim)


def one_hot_ext(tensor, num_classes):
    from cellgraph.mint.nn import functional

    return functional.one_hot(tensor, num_classes)


def ones_like_ext(input, *, dtype=None):
    return _mint().ones_like(input, dtype=dtype)


def repeat_interleave_ext(input, repeats, dim=None, output_size=None):
    """Each element `repeats` times along `dim` (the flattened input for None): MindSpore's
    RepeatInterleaveInt for an int, else RepeatInterleaveTensor for one count per element (a
    list, tuple or Tensor), with their checks and error types: a negative count or counts
    that match neither the dimension nor one element are RuntimeErrors, a dim out of range a
    ValueError. `output_size`, the length of the result along `dim` (as in PyTorch), is
    checked against the counts: another value is a RuntimeError."""
    shape = abstract_of(input).shape
    size = int(np.prod(shape)) if dim is None else None
    if isinstance(repeats, int) and not isinstance(repeats, bool):
        op = "RepeatInterleaveInt"
        if repeats < 0:
            raise RunError(f"For '{op}', 'repeats' can not be negative.")
        _check_repeat_dim(op, input, dim)
        length = repeats * (size if dim is None else shape[dim])
    else:
        op = "RepeatInterleaveTensor"
        repeats = _repeat_counts(input, repeats, dim)
        along = size if dim is None else shape[dim]
        length = repeats[0] * along if len(repeats) == 1 else sum(repeats)
    if output_size is not None and output_size != length:
        raise RunError(f"For '{op}', 'output_size' must be the length of the result along dim, "
                       f"{length}, but got {output_size}.")
    return _ops().repeat_interleave(input, repeats, dim)


def _check_repeat_dim(op, input, dim):
    rank = abstract_of(input).ndim
    if dim is not None and not -rank <= dim <= rank - 1:
        raise ArgumentValueError(f"For primitive[{op}], the dim must be in [{-rank},{rank - 1}], "
                                 f"but got {dim}.")


def _repeat_counts(input, repeats, dim):
    """RepeatInterleaveTensor's counts as a list, after its checks in its order."""
    op = "RepeatInterleaveTensor"
    if hasattr(repeats, "aval"):
        aval = abstract_of(repeats)
        if aval.ndim > 1:
            raise RunError(f"For '{op}', 'repeats' must be 0-dim or 1-dim tensor.")
        if aval.dtype not in (dt.int32, dt.int64):
            raise DTypeError(f"For '{op}', 'repeats' must be int32 or int64. but got "
                             f"{aval.dtype}")
        counts = value_input(repeats, op, "repeats").reshape(-1).tolist()
    else:
        counts = list(repeats)
    if any(count < 0 for count in counts):
        raise RunError(f"For '{op}', 'repeats' can not be negative.")
    _check_repeat_dim(op, input, dim)
    shape = abstract_of(input).shape
    size = int(np.prod(shape)) if dim is None else shape[dim]
    if counts and len(counts) not in (1, size):
        raise RunError(f"For '{op}', 'repeats' must have the same size as input along dim.")
    return counts


def scatter_add_ext(input, dim, index, src):
    return _mint().scatter_add(input, dim, index, src)


def sort_ext(input, *, dim=-1, descending=False, stable=False):
    return _mint().sort(input, dim=dim, descending=descending, stable=stable)


def split_ext(tensor, split_size, dim=0):
    return _mint().split(tensor, split_size, dim)


def tensor_scatter_elements_ext(data, indices, updates, axis=0, reduce="none"):
    return _ops().tensor_scatter_elements(data, indices, updates, axis, reduce)


def tril_ext(input, diagonal=0):
    return _mint().tril(input, diagonal)


def unbind_ext(input, dim=0):
    return _mint().unbind(input, dim)


def unique_ext(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    return _mint().unique(input, sorted, return_inverse, return_counts, dim)


def zeros_like_ext(input, *, dtype=None):
    return _mint().zeros_like(input, dtype=dtype)


def new_ones(input, size, *, dtype=None):
    """A Tensor of shape `size` (an int or a sequence of ints) filled with ones, in `input`'s
    dtype unless `dtype` is given."""
    return _new_filled("new_ones", input, size, dtype, 1)


def new_zeros(input, size, *, dtype=None):
    """`new_ones` filled with zeros."""
    return _new_filled("new_zeros", input, size, dtype, 0)


def _new_filled(op: str, input, size, dtype, value):
    from cellgraph.compiler.dynamic_sequence import is_runtime_scalar
    from cellgraph.ops.function.array_func.attributes import is_tensor
    from cellgraph.primitives.errors import ArgumentValueError, DTypeError

    if not is_tensor(input):
        raise DTypeError(f"For '{op}', 'input' must be a Tensor, but got "
                         f"{type(input).__name__}.")
    shape = (size,) if isinstance(size, int) and not isinstance(size, bool) else size
    if not isinstance(shape, (tuple, list)) or not all(
            is_runtime_scalar(d) or isinstance(d, int) and not isinstance(d, bool)
            for d in shape):
        raise DTypeError(f"For '{op}', 'size' must be an int or a tuple or list of ints, but "
                         f"got {size!r}.")
    if any(isinstance(d, int) and d < 0 for d in shape):
        raise ArgumentValueError(f"For '{op}', 'size' must not hold negative values, but got "
                                 f"{size!r}.")
    return _ops().full(tuple(shape), value, dtype=dtype or input.dtype)
