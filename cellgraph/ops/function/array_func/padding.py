"""Padding in every mode MindSpore has: `ops.pad(mode=)`. Constant padding is the `pad`
primitive. The other modes read the input at positions NumPy's `np.pad` computes from the axis
size when the graph is built (reflect: mirrored without the edge, edge/replicate: the border
repeated, circular: wrapped round), so each padded axis is one `gather` of the input and its
gradient is gather's (a scatter-add onto the source positions)."""
from __future__ import annotations

import numpy as np

from cellgraph.primitives import array_ops as A
from cellgraph.primitives import functional as F
from cellgraph.primitives.core import abstract_of, value_input
from cellgraph.primitives.errors import ArgumentError, ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.nn_functional import _ints, pad_pairs

__all__ = ["pad", "padding"]


# MindSpore's mode name -> np.pad's, for the modes that read the input.
INDEX_MODES = {"reflect": "reflect", "replicate": "edge", "edge": "edge", "circular": "wrap",
               "symmetric": "symmetric"}


def pad_axis_by_index(x, axis: int, before: int, after: int, mode: str, op: str = "Pad"):
    """Pad (or, for negative amounts, crop) one axis in a mode of INDEX_MODES: one gather."""
    size = abstract_of(x).shape[axis]
    if size is None:
        raise ShapeError(f"{op}: mode {mode!r} needs axis {axis} of static size")
    limit = size - 1 if mode == "reflect" else size
    if max(before, after) > limit:
        raise ArgumentValueError(f"{op}: padding ({before}, {after}) of axis {axis} must be at "
                                 f"most {limit} for an axis of size {size} in mode {mode!r}")
    return A.gather(x, pad_index(size, before, after, mode).astype(np.int64), axis=axis)


def pad_index(size: int, before: int, after: int, mode: str) -> np.ndarray:
    """The input positions an axis of `size` padded by (before, after) reads. A negative amount
    crops: reflect and edge pad the whole axis, then crop; circular wraps round what is left
    after cropping, as MindSpore's PadV3 does."""
    if mode == "circular":
        start, stop = max(-before, 0), size - max(-after, 0)
        kept = stop - start
        if kept <= 0:
            raise ArgumentValueError(f"Pad: padding ({before}, {after}) crops away every "
                                     f"element of an axis of size {size}")
        return start + np.arange(-max(before, 0), kept + max(after, 0)) % kept
    index = np.pad(np.arange(size), (max(before, 0), max(after, 0)), INDEX_MODES[mode])
    return index[max(-before, 0):len(index) - max(-after, 0)]


def pad_pairs_mode(x, pairs, mode: str, value=0, op: str = "Pad"):
    """Pad axis i by pairs[i] = (before, after) in `mode`."""
    if mode == "constant":
        return pad_pairs(x, tuple(pairs), value)
    for axis, (before, after) in enumerate(pairs):
        if before or after:
            x = pad_axis_by_index(x, axis, before, after, mode, op)
    return x


def _pairs_from_last(flat: tuple, ndim: int, op: str) -> list:
    """(left, right, top, bottom, ...): pairs from the last axis backwards -> one per axis."""
    if len(flat) % 2 or len(flat) // 2 > ndim:
        raise ShapeError(f"{op}: padding {flat} must hold one (before, after) pair per axis, for "
                         f"at most the {ndim} axes of the input")
    pairs = [(0, 0)] * ndim
    for i in range(len(flat) // 2):
        pairs[ndim - 1 - i] = (flat[2 * i], flat[2 * i + 1])
    return pairs


def paddings_pairs(paddings, contiguous: bool, ndim: int, op: str) -> list:
    """PadV3's `paddings` (a tuple or a Tensor read when the graph is built), pairs from the
    last axis backwards: contiguous (begin0, end0, begin1, end1, ...), otherwise (begin0,
    begin1, ..., end0, end1, ...) -> one (before, after) pair per axis."""
    flat = _ints(_host_ints(paddings), op, "paddings")
    if not contiguous:
        half = len(flat) // 2
        flat = tuple(v for pair in zip(flat[:half], flat[half:]) for v in pair)
    return _pairs_from_last(flat, ndim, op)


def _check_tensor(x, op: str, name: str):
    if not hasattr(x, "aval"):
        raise DTypeError(f"{op}: `{name}` must be a Tensor, got {type(x).__name__}")


def pad(input_x, padding, mode="constant", value=None):
    """Pad the last len(padding) // 2 axes; `padding` pairs run from the last axis backwards,
    as in (left, right, top, bottom). Modes: "constant" (with `value`, default 0), "reflect",
    "replicate", "circular". Negative amounts crop."""
    _check_tensor(input_x, "Pad", "input_x")
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise ArgumentValueError(f"Pad: mode must be 'constant', 'reflect', 'replicate' or "
                                 f"'circular', got {mode!r}")
    if mode != "constant" and value is not None:
        raise ArgumentValueError(f"Pad: `value` applies to mode 'constant' only, got "
                                 f"value={value!r} with mode={mode!r}")
    flat = _ints(_host_ints(padding), "Pad", "padding")
    pairs = _pairs_from_last(flat, abstract_of(input_x).ndim, "Pad")
    return pad_pairs_mode(input_x, pairs, mode, 0 if value is None else value)


def _host_ints(value):
    """Paddings given as a Tensor (a constant) -> a tuple of ints."""
    if hasattr(value, "aval"):
        return tuple(int(v) for v in value_input(value, "PadV3", "paddings").reshape(-1))
    return value


def _pad_with_tensor(x, pairs, value):
    """Constant padding by a Tensor value (computed in the graph, so not a kernel param): the
    zero-padded input plus `value` where the padding is, which also differentiates in
    `value`."""
    if not hasattr(value, "aval") or abstract_of(value).shape not in ((), (1,)):
        raise ArgumentError(f"PadV3: `constant_value` must be a number or a one-element "
                            f"Tensor, got {value!r:.80}")
    inside = pad_pairs(A.ones_like(x), tuple(pairs), 0)
    value = F.cast(F.reshape(value, ()), abstract_of(x).dtype)
    return F.add(pad_pairs(x, tuple(pairs), 0), F.mul(F.sub(1, inside), value))


def padding(x, pad_dim_size=8):
    """`ops.padding(x, pad_dim_size=8)`: the last axis of `x` (of length 1) extended to
    `pad_dim_size` with zeros after its element (MindSpore's Padding)."""
    if not isinstance(pad_dim_size, int) or isinstance(pad_dim_size, bool):
        raise ArgumentError(f"For 'Padding', the type of 'pad_dim_size' should be 'int', but got "
                            f"type '{type(pad_dim_size).__name__}'.")
    if pad_dim_size <= 0:
        raise ArgumentValueError(f"For 'Padding', the 'pad_dim_size' must be int and must > 0, "
                                 f"but got '{pad_dim_size}' with type 'int'.")
    _check_tensor(x, "Padding", "x")
    shape = tuple(abstract_of(x).shape)
    if len(shape) < 2:
        raise ShapeError(f"For primitive[Padding], the x rank must be greater than or equal to 2, "
                         f"but got {len(shape)}.")
    if shape[-1] != 1:
        raise ShapeError(f"For 'Padding', the last dimension of 'x' must be 1, but got: "
                         f"{shape[-1]}.")
    if pad_dim_size == 1:
        return x  # (ops.identity)
    zeros = F.zeros(shape[:-1] + (pad_dim_size - 1,), abstract_of(x).dtype)
    return F.concat((x, zeros), -1)
