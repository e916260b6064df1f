"""The JAX backend's kernels: the shared array-API table (runtime/kernels.py) bound to
`jax.numpy`, and JAX's override table, for the primitives the NumPy-like backends write into
arrays for (runtime/strided_kernels.py; JAX arrays are immutable) and where JAX has the better
kernel.

Overrides (`OVERRIDES`, same names and params as the shared table):
* convolution: `lax.conv_general_dilated`; both gradients are its linear transposes
  (`jax.linear_transpose`, or one `jax.vjp` for the fused `conv2d_grad`), which XLA lowers to
  transposed convolutions, no im2col;
* pooling: the kh*kw strided slices of the padded input, stacked: max and average over them,
  gradients spread back by `lax.pad` with interior zeros and added (no scatter), ties going to the first maximum as in the
  NumPy kernels; a recorded argmax (an index into the padded plane) becomes one-hot masks over
  the window positions;
* scatter: `getitem_grad`, `gather_grad` and the `tensor_scatter` family through `.at[]`.
* `polygamma`: `jax.scipy.special.polygamma` (the shared kernel's shift depends on the data).
`erf`, which the array API lacks, is `jax.scipy.special.erf` in the namespace the table is bound
to.
`uniform_real` and `print` run on the host when called eagerly (the NumPy numbers and text); in
a compiled graph the lowering draws from `jax.random` and prints through an ordered host
callback (runtime/jax_lowering.py).
"""
from __future__ import annotations

import math
from collections.abc import Callable

import jax
import jax.numpy as jnp
from jax import lax

from cellgraph.primitives.core import to_numpy_index

from .kernels import bind_kernels, namespace

OVERRIDES: dict[str, Callable] = {}  # primitive name -> fn(*operands, **params) over jax.numpy


def override(name: str):
    def deco(fn):
        OVERRIDES[name] = fn
        return fn
    return deco


def kernel_table() -> dict[str, Callable]:
    """Every primitive's kernel: the shared table bound to jax.numpy, then the overrides."""
    table = bind_kernels(namespace(jnp, erf=jax.scipy.special.erf))
    table.update(OVERRIDES)
    return table


OVERRIDES["complex"] = lambda real, imag: lax.complex(*jnp.broadcast_arrays(real, imag))


# ----- convolution -----------------------------------------------------------------------------

_NCHW = ("NCHW", "OIHW", "NCHW")


def _conv(x, w, stride, pad, dilation, group):
    return lax.conv_general_dilated(x, w, tuple(stride), ((pad[0], pad[1]), (pad[2], pad[3])),
                                    rhs_dilation=tuple(dilation), feature_group_count=group,
                                    dimension_numbers=_NCHW)


@override("conv2d")
def _conv2d(x, w, stride, pad, dilation, group):
    return _conv(x, w, stride, pad, dilation, group)


@override("conv2d_backprop_input")
def _conv2d_backprop_input(dout, w, x_shape, stride, pad, dilation, group):
    like = jax.ShapeDtypeStruct(tuple(x_shape), dout.dtype)
    transpose = jax.linear_transpose(lambda x: _conv(x, w, stride, pad, dilation, group), like)
    return transpose(dout)[0]


@override("conv2d_backprop_filter")
def _conv2d_backprop_filter(x, dout, w_shape, stride, pad, dilation, group):
    like = jax.ShapeDtypeStruct(tuple(w_shape), dout.dtype)
    transpose = jax.linear_transpose(lambda w: _conv(x, w, stride, pad, dilation, group), like)
    return transpose(dout)[0]


@override("conv2d_grad")
def _conv2d_grad(x, w, dout, stride, pad, dilation, group):
    """Both transposes from one VJP of the convolution: XLA lowers each to a convolution."""
    _, pullback = jax.vjp(lambda x, w: _conv(x, w, stride, pad, dilation, group), x, w)
    return pullback(dout)


# ----- pooling ---------------------------------------------------------------------------------

def _out_hw(hw, kernel, stride, pad) -> tuple[int, int]:
    return tuple((hw[i] + pad[2 * i] + pad[2 * i + 1] - kernel[i]) // stride[i] + 1
                 for i in range(2))


def _pad(x, pad, value=0.0):
    if not any(pad):
        return x
    return jnp.pad(x, ((0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])),
                   constant_values=value)


def _window_slices(hw, kernel, stride, pad) -> list[tuple]:
    """For each (i, j) of the window, in row-major order, the strided (rows, cols) slices of
    the padded input that window position reads for every output."""
    ho, wo = _out_hw(hw, kernel, stride, pad)
    return [(slice(i, i + stride[0] * (ho - 1) + 1, stride[0]),
             slice(j, j + stride[1] * (wo - 1) + 1, stride[1]))
            for i in range(kernel[0]) for j in range(kernel[1])]


def _windows(x, kernel, stride, pad, value):
    """(kh*kw, N, C, Ho, Wo): every window position's values."""
    padded = _pad(x, pad, value)
    return jnp.stack([padded[:, :, r, c] for r, c in _window_slices(x.shape[2:], kernel, stride,
                                                                     pad)])


def _add_windows(parts, x_shape, kernel, stride, pad):
    """The transpose of `_windows`: each position's (N, C, Ho, Wo) part spread back to its
    strided places in the padded plane (`lax.pad`, with stride - 1 zeros between elements), the
    parts added, then cropped. Pads and adds fuse into one elementwise kernel; a strided
    `.at[].add` would be a scatter each."""
    hp, wp = x_shape[2] + pad[0] + pad[1], x_shape[3] + pad[2] + pad[3]
    total = None
    for part, (r, c) in zip(parts, _window_slices(x_shape[2:], kernel, stride, pad)):
        ho, wo = part.shape[2:]
        rows = (r.start, hp - r.start - (stride[0] * (ho - 1) + 1), stride[0] - 1)
        cols = (c.start, wp - c.start - (stride[1] * (wo - 1) + 1), stride[1] - 1)
        spread = lax.pad(part, jnp.zeros((), part.dtype), ((0, 0, 0), (0, 0, 0), rows, cols))
        total = spread if total is None else total + spread
    return total[:, :, pad[0]:pad[0] + x_shape[2], pad[2]:pad[2] + x_shape[3]]


@override("max_pool2d")
def _max_pool2d(x, kernel, stride, pad):
    x = jnp.asarray(x)
    return _windows(x, kernel, stride, pad, -math.inf).max(axis=0)


def _first_max(x, kernel, stride, pad):
    """One-hot masks (kh*kw, N, C, Ho, Wo) of each window's first maximum."""
    win = _windows(x, kernel, stride, pad, -math.inf)
    arg = jnp.argmax(win, axis=0)
    return arg[None] == jnp.arange(win.shape[0]).reshape((-1, 1, 1, 1, 1))


@override("max_pool2d_grad")
def _max_pool2d_grad(x, g, kernel, stride, pad):
    x = jnp.asarray(x)
    g = jnp.asarray(g, x.dtype)
    masks = _first_max(x, kernel, stride, pad)
    return _add_windows(jnp.where(masks, g[None], 0), x.shape, kernel, stride, pad)


@override("max_pool2d_grad_grad")
def _max_pool2d_grad_grad(x, g, kernel, stride, pad):
    x = jnp.asarray(x)
    masks = _first_max(x, kernel, stride, pad)
    return jnp.where(masks, _windows(jnp.asarray(g), kernel, stride, pad, 0.0), 0).sum(axis=0)


def _plane_offsets(kernel, padded_width):
    """(kh*kw, 1, 1, 1, 1): each window position's offset in the padded H*W plane from the
    window's first element."""
    offsets = [i * padded_width + j for i in range(kernel[0]) for j in range(kernel[1])]
    return jnp.asarray(offsets, jnp.int32).reshape((-1, 1, 1, 1, 1))


def _window_origins(out_size, stride, padded_width):
    """(Ho, Wo): each window's first element as an index into the padded H*W plane."""
    rows = jnp.arange(out_size[0], dtype=jnp.int32) * (stride[0] * padded_width)
    return rows[:, None] + jnp.arange(out_size[1], dtype=jnp.int32)[None, :] * stride[1]


@override("max_pool2d_argmax")
def _max_pool2d_argmax(x, kernel, stride, pad):
    x = jnp.asarray(x)
    win = _windows(x, kernel, stride, pad, -math.inf)
    width = x.shape[3] + pad[2] + pad[3]
    offset = jnp.take(_plane_offsets(kernel, width).reshape(-1), jnp.argmax(win, axis=0))
    return win.max(axis=0), offset + _window_origins(win.shape[3:], stride, width)


def _argmax_masks(argmax, kernel, stride, width):
    """One-hot masks (kh*kw, N, C, Ho, Wo) of the window positions `argmax` points at."""
    offset = argmax - _window_origins(argmax.shape[2:], stride, width)
    return offset[None] == _plane_offsets(kernel, width)


@override("max_pool2d_scatter")
def _max_pool2d_scatter(argmax, g, x_shape, kernel, stride, pad):
    masks = _argmax_masks(jnp.asarray(argmax), kernel, stride, x_shape[3] + pad[2] + pad[3])
    return _add_windows(jnp.where(masks, jnp.asarray(g)[None], 0), x_shape, kernel, stride, pad)


@override("max_pool2d_gather")
def _max_pool2d_gather(argmax, h, kernel, stride, pad):
    h = jnp.asarray(h)
    masks = _argmax_masks(jnp.asarray(argmax), kernel, stride, h.shape[3] + pad[2] + pad[3])
    return jnp.where(masks, _windows(h, kernel, stride, pad, 0.0), 0).sum(axis=0)


def _window_counts(hw, kernel, stride, pad, count_include_pad, dtype):
    if count_include_pad:
        return jnp.asarray(kernel[0] * kernel[1], dtype)
    ones = jnp.ones((1, 1) + tuple(hw), dtype)
    return _windows(ones, kernel, stride, pad, 0.0).sum(axis=0)[0, 0]


@override("avg_pool2d")
def _avg_pool2d(x, kernel, stride, pad, count_include_pad):
    x = jnp.asarray(x)
    sums = _windows(x, kernel, stride, pad, 0.0).sum(axis=0)
    return (sums / _window_counts(x.shape[2:], kernel, stride, pad, count_include_pad,
                                  x.dtype)).astype(x.dtype)


@override("avg_pool2d_grad")
def _avg_pool2d_grad(g, x_shape, kernel, stride, pad, count_include_pad):
    g = jnp.asarray(g)
    share = g / _window_counts(x_shape[2:], kernel, stride, pad, count_include_pad, g.dtype)
    return _add_windows([share] * (kernel[0] * kernel[1]), x_shape, kernel, stride, pad)


# ----- scatter ---------------------------------------------------------------------------------

@override("getitem_grad")
def _getitem_grad(g, index, shape):
    g = jnp.asarray(g)
    return jnp.zeros(shape, g.dtype).at[to_numpy_index(index)].set(g)


@override("gather_grad")
def _gather_grad(g, indices, axis, shape):
    g, indices = jnp.asarray(g), jnp.asarray(indices)
    moved_shape = (shape[axis],) + tuple(d for i, d in enumerate(shape) if i != axis)
    rows = jnp.moveaxis(g, tuple(range(axis, axis + indices.ndim)), tuple(range(indices.ndim)))
    moved = jnp.zeros(moved_shape, g.dtype).at[indices.reshape(-1)].add(
        rows.reshape((indices.size,) + moved_shape[1:]))
    return jnp.moveaxis(moved, 0, axis)


# ----- the tensor_scatter family: `.at[]` updates of a copy --------------------------------------

def _coordinates(indices):
    """The last axis of `indices` as a tuple of index arrays, one per leading axis of x."""
    indices = jnp.asarray(indices)
    return tuple(indices[..., k] for k in range(indices.shape[-1]))


def _scatter_with(method: str):
    def scatter(x, indices, updates):
        return getattr(jnp.asarray(x).at[_coordinates(indices)], method)(updates)
    return scatter


for _name, _method in {"tensor_scatter_update": "set", "tensor_scatter_add": "add",
                       "tensor_scatter_max": "max", "tensor_scatter_min": "min",
                       "tensor_scatter_mul": "multiply", "tensor_scatter_div": "divide"}.items():
    OVERRIDES[_name] = _scatter_with(_method)
OVERRIDES["tensor_scatter_sub"] = lambda x, indices, updates: _scatter_with("add")(
    x, indices, -jnp.asarray(updates))


@override("tensor_scatter_elements")
def _tensor_scatter_elements(x, indices, updates, axis=0, reduction="none"):
    """Element (i, j, ...) of `updates` goes to `x` at the same position but for `indices`'s
    value along `axis`."""
    x, indices = jnp.asarray(x), jnp.asarray(indices)
    axis %= x.ndim
    grid = list(jnp.indices(indices.shape, sparse=True))
    grid[axis] = indices
    at = x.at[tuple(grid)]
    return at.add(updates) if reduction == "add" else at.set(updates)


# ----- special functions -------------------------------------------------------------------------

# The shared polygamma shifts x by a count its smallest element decides, which a traced array
# cannot tell: JAX's own.
OVERRIDES["polygamma"] = lambda x, n: jax.scipy.special.polygamma(n, x).astype(x.dtype)
