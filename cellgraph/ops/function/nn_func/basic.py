"""The functions of nn's basic layers and metrics: `dense`, `dropout`, `pairwise_distance`,
`pdist`, `intopk`."""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.common.seed import _get_graph_seed
from cellgraph.compiler.builder import current_builder
from cellgraph.ops.function.array_func.attributes import _tensor, is_tensor
from cellgraph.ops.function.array_func.indexing import _int_operand, gather_elements
from cellgraph.ops.function.math_func.elementwise import isfinite
from cellgraph.ops.function.math_func.linalg import _p_distance
from cellgraph.ops.function.nn_func.normalization import _lp_norm
from cellgraph.primitives import array_ops as A
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import functional as F
from cellgraph.primitives import math_ops as M
from cellgraph.primitives import nn_functional as NF
from cellgraph.primitives.check_convert import check_tensor_dtype, tensor_dtype_error
from cellgraph.primitives.core import abstract_of
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.primitives.random_ops import draw_uniform, rand, rand_like
from cellgraph.runtime.rng import MinstdStream

__all__ = ["bidense", "channel_shuffle", "dense", "dropout", "dropout1d", "dropout2d", "dropout3d", "intopk",
           "is_floating_point", "pairwise_distance", "pdist"]


def channel_shuffle(x, groups):
    """The channels (axis 1) split into `groups` groups and interleaved: channel g * (C / groups)
    + i goes to i * groups + g."""
    if isinstance(groups, bool) or not isinstance(groups, int):
        raise DTypeError(f"ChannelShuffle: `groups` must be an int, got {type(groups).__name__}")
    if groups < 1:
        raise ArgumentValueError(f"ChannelShuffle: `groups` must be larger than 0, got {groups}")
    shape = tuple(_tensor(x, "ChannelShuffle", "x").shape)
    if len(shape) < 2:
        raise ArgumentValueError(f"ChannelShuffle: the input must have at least 2 dimensions "
                                 f"(N, C, ...), got shape {shape}")
    n, c = shape[0], shape[1]
    if c % groups:
        raise ArgumentValueError(f"ChannelShuffle: the channels ({c}) must be divisible by "
                                 f"`groups` ({groups})")
    out = F.reshape(x, (n, groups, c // groups, -1))
    return F.reshape(F.transpose(out, (0, 2, 1, 3)), shape)


def is_floating_point(input):
    """Whether `input`'s dtype is a real float type (float16, bfloat16, float32, float64; not
    complex), a Python bool known when the graph is built. A non-Tensor has no dtype
    (AttributeError, as MindSpore's)."""
    return input.dtype.is_float


def seeded_dropout(x, keep_prob: float, seed0: int, seed1: int, streams: dict):
    """(output, mask) of MindSpore's Dropout primitive with the seed pair (seed0, seed1): the
    mask (0/1, x's dtype) a float32 draw below float32(keep_prob). With a pair, the draws are
    MindSpore's CPU kernel's (runtime/rng.MinstdStream) carried on from run to run: as
    MindSpore keeps one kernel per node of a compiled graph, and one per primitive and input
    shape when it runs eagerly, each call in a graph being built gets a generator of its own,
    and eager calls the one `streams` keeps for the input's shape and dtype. With (0, 0) the
    draws come from the global generator."""
    if not 0 < keep_prob <= 1:
        raise ArgumentValueError(f"Dropout: `keep_prob` must be in (0, 1], got {keep_prob}")
    aval = abstract_of(x)
    if not seed0 and not seed1:
        drawn = rand_like(x, dtype=dt.float32)
    else:
        if current_builder() is not None:
            stream = MinstdStream(seed0, seed1)
        else:
            stream = streams.setdefault((aval.shape, aval.dtype), MinstdStream(seed0, seed1))
        drawn = draw_uniform(aval.shape, dt.float32, stream)
    mask = A.cast(M.less(drawn, np.float32(keep_prob)), dtype=aval.dtype)
    return NF.dropout_masked(x, 1.0 - keep_prob, mask=mask), mask


def dropout(input, p=0.5, training=True, seed=None):
    """Zero elements with probability `p` and scale the rest by 1 / (1 - p) when `training`.
    As MindSpore's, each call takes the next seed pair for dropout (`_get_graph_seed(seed,
    ...)`; in a graph, when it is compiled) for a Dropout of its own: after `set_seed`, or with
    `seed`, the masks are MindSpore's; with neither they come from the global generator."""
    if not isinstance(training, bool):
        raise DTypeError(f"For 'dropout', the 'training' must be a bool, but got "
                         f"{type(training).__name__}.")
    if not training:
        return input
    _tensor(input, "dropout")
    if isinstance(p, bool) or not isinstance(p, float):
        raise DTypeError(f"For 'dropout', `p` must be a float, got {type(p).__name__} {p!r}")
    seed0, seed1 = _get_graph_seed(seed, "dropout")
    return seeded_dropout(input, 1.0 - p, seed0, seed1, {})[0]


def channel_dropout(x, keep_prob, op: str, rank: int):
    """(output, mask) of MindSpore's Dropout2D/Dropout3D: whole channels (axis 1) kept with
    probability `keep_prob` and scaled by 1 / keep_prob (an integer input stays integer); the
    mask (bool, x's shape) says which elements were kept. With keep_prob 0 every channel is
    dropped (zeros)."""
    aval = _tensor(x, op, "x")
    if aval.dtype == dt.bool_ or aval.dtype.is_complex:
        raise tensor_dtype_error(op, "x", (dt.bfloat16, dt.float16, dt.float32, dt.float64,
                                           dt.int8, dt.int16, dt.int32, dt.int64), aval.dtype)
    if aval.ndim != rank:
        raise ShapeError(f"For primitive[{op}], the rank of input  must be equal to {rank} , but "
                         f"got {aval.ndim}.")
    if not 0 <= keep_prob <= 1:
        raise ArgumentValueError(f"For '{op}', the 'keep_prob' must be in range of [0.0, 1.0], "
                                 f"but got {keep_prob} with type '{type(keep_prob).__name__}'.")
    keep = M.less(rand(tuple(aval.shape[:2]) + (1,) * (rank - 2)), keep_prob)
    mask = F.broadcast_to(keep, tuple(aval.shape))
    kept = M.mul(x, A.cast(mask, dtype=aval.dtype))
    if not keep_prob:
        return kept, mask
    if aval.dtype.is_float:
        return M.div(kept, keep_prob), mask
    return A.cast(M.mul(A.cast(kept, dtype=dt.float32), 1.0 / keep_prob), dtype=aval.dtype), mask


def _check_training(training, op: str):
    if not isinstance(training, bool):
        raise DTypeError(f"For '{op}', the 'training' must be a bool, but got "
                         f"{type(training).__name__}.")


def dropout1d(input, p=0.5, training=True):
    """Zero whole channels of (N, C, L) or (C, L) with probability `p` and scale the rest by
    1 / (1 - p) when `training`; `p` must be a float."""
    if isinstance(p, bool) or not isinstance(p, float):
        raise DTypeError(f"For dropout1d, 'p' must be float, but got type {type(p)}.")
    if not 0 <= p <= 1:
        raise ArgumentValueError(f"For dropout1d, the 'p' must be a number in range [0, 1], but "
                                 f"got {p}.")
    if not is_tensor(input) or isinstance(input, np.ndarray):
        raise DTypeError(f"For dropout1d, 'input' must be Tensor, but got type {type(input)}.")
    _check_training(training, "dropout1d")
    if not training:
        return input
    shape = tuple(input.shape)
    if len(shape) not in (2, 3):
        raise ArgumentValueError(f"For dropout1d, input shape should be 2D or 3D, but got "
                                 f"{len(shape)}.")
    batched = shape if len(shape) == 3 else (1,) + shape
    out, _ = channel_dropout(F.reshape(input, batched + (1,)), 1.0 - p, "Dropout2D", 4)
    return F.reshape(out, shape)


def dropout2d(input, p=0.5, training=True):
    """Zero whole channels of (N, C, H, W) with probability `p` and scale the rest by
    1 / (1 - p) when `training`."""
    _check_training(training, "dropout2d")
    if not training:
        return input
    return channel_dropout(input, 1.0 - p, "Dropout2D", 4)[0]


def dropout3d(input, p=0.5, training=True):
    """Zero whole channels of (N, C, D, H, W) with probability `p` and scale the rest by
    1 / (1 - p) when `training`."""
    _check_training(training, "dropout3d")
    if not training:
        return input
    return channel_dropout(input, 1.0 - p, "Dropout3D", 5)[0]


def dense(input, weight, bias=None):
    """input @ weight^T + bias: `weight` (out, in) or (in,) (then the last axis is summed away),
    `bias` broadcast over the output's last axis."""
    x, w = _tensor(input, "dense"), _tensor(weight, "dense", "weight")
    if w.ndim not in (1, 2):
        raise ShapeError(f"dense: `weight` must be 1-D or 2-D, got shape {w.shape}")
    if x.ndim == 0 or x.shape[-1] != w.shape[-1]:
        raise ShapeError(f"dense: the last dimension of `input` {x.shape} must equal the input "
                         f"features of `weight` {w.shape}")
    out = F.matmul(input, weight if w.ndim == 1 else A.transpose(weight, perm=(1, 0)))
    return out if bias is None else M.add(out, bias)


def bidense(input1, input2, weight, bias=None):
    """The bilinear map out[..., o] = sum_ij input1[..., i] weight[o, i, j] input2[..., j]
    (+ bias[o]), in MindSpore's order of operations: input1 against weight, then input2."""
    x1 = _tensor(input1, "bidense", "input1")
    x2 = _tensor(input2, "bidense", "input2")
    w = _tensor(weight, "bidense", "weight")
    if x1.shape[:-1] != x2.shape[:-1]:
        raise ArgumentValueError(f"For 'bidense', the dimensions but the last of 'input1' "
                                 f"{x1.shape} and 'input2' {x2.shape} must be the same")
    if w.ndim != 3 or (w.shape[1], w.shape[2]) != (x1.shape[-1], x2.shape[-1]):
        raise ShapeError(f"For 'bidense', 'weight' must have shape (out, {x1.shape[-1]}, "
                         f"{x2.shape[-1]}), got {w.shape}")
    flat1 = F.reshape(input1, (-1, x1.shape[-1]))
    flat2 = F.reshape(input2, (-1, x2.shape[-1]))
    rows = abstract_of(flat1).shape[0]
    out = F.matmul(flat1, F.reshape(A.transpose(weight, perm=(1, 2, 0)), (x1.shape[-1], -1)))
    out = F.reshape(out, (rows, x2.shape[-1], w.shape[0]))
    out = M.mul(A.transpose(out, perm=(2, 0, 1)), flat2)
    out = A.transpose(F.reduce_sum(out, 2), perm=(1, 0))          # (rows, out)
    if bias is not None:
        b = _tensor(bias, "bidense", "bias")
        if x1.dtype != b.dtype or x2.dtype != b.dtype:
            raise DTypeError(f"For 'bidense', the dtype of 'bias', 'input1' and 'input2' must be "
                             f"the same, but got {b.dtype}, {x1.dtype} and {x2.dtype}.")
        out = M.add(F.cast(out, b.dtype), bias)
    return out if x1.ndim == 2 else F.reshape(out, x1.shape[:-1] + (-1,))


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of x1 - x2 + eps along the last axis."""
    diff = M.add(M.sub(x1, x2), eps)
    return _lp_norm(diff, -1, p, keepdim, 0.0)


def pdist(input, p=2.0):
    """The p-norm distances between the rows of a matrix (N, M), pair (i, j) for i < j in row
    order: N * (N - 1) / 2 of them, as MindSpore's Pdist."""
    aval = _tensor(input, "Pdist", "x")
    if not isinstance(p, float):
        raise DTypeError(f"For 'Pdist', the type of 'p' should be 'float', but got type "
                         f"'{type(p).__name__}'.")
    if p < 0:
        raise ArgumentValueError(f"Pdist p must be a non-negative value, but got `{p}`.")
    check_tensor_dtype("Pdist", "x", aval.dtype, (dt.float16, dt.float32, dt.float64))
    if aval.ndim != 2:
        raise ShapeError(f"For primitive[Pdist], the x dim must be equal to 2, but got "
                         f"{aval.ndim}.")
    first, second = np.triu_indices(aval.shape[0], k=1)
    diff = A.gather(input, first.astype(np.int64), axis=0) - \
        A.gather(input, second.astype(np.int64), axis=0)
    return _p_distance(diff, p)


def intopk(x1, x2, k):
    """For each row i, whether x1[i, x2[i]] is among the row's k largest values; ties at the
    boundary count as in (fewer than k values are strictly greater), a non-finite target or an
    out-of-range label does not."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise DTypeError(f"intopk: expected an int `k`, got {k!r}")
    t1, t2 = abstract_of(x1), abstract_of(_int_operand(x2, "x2", "intopk"))
    if t1.ndim != 2 or t2.shape != t1.shape[:1]:
        raise ShapeError(f"intopk: expected x1 of shape (N, C) and x2 of shape (N,), got "
                         f"{t1.shape} and {t2.shape}")
    labels = F.cast(x2, dt.int64)
    valid = (labels >= 0) & (labels < t1.shape[1])
    safe = F.select(valid, labels, F.zeros_like(labels))
    target = gather_elements(x1, 1, F.reshape(safe, (-1, 1)))
    greater = F.reduce_sum(F.cast(x1 > target, dt.int32), 1)
    finite = F.reshape(isfinite(target), (-1,))
    return (greater < int(k)) & finite & valid
