"""Normalisation layers: BatchNorm1d/2d/3d, SyncBatchNorm, LayerNorm, GroupNorm and
InstanceNorm1d-3d.

BatchNorm in training normalises with the batch's statistics and updates its running averages
in place (`ops.assign`), inside the compiled graph: MindSpore's convention,
moving = momentum * moving + (1 - momentum) * batch, with the unbiased batch variance. In
evaluation it normalises with the running averages. InstanceNorm is GroupNorm with one group
per channel: instance statistics in training and evaluation alike, as MindSpore's.
"""
from __future__ import annotations

import numbers

import cellgraph.ops as P
from cellgraph.common.assign import assign
from cellgraph.common.initializer import initializer
from cellgraph.compiler.builder import parameter_read_dtype
from cellgraph.primitives import dtype as dt
from cellgraph.primitives import norm_ops
from cellgraph.primitives.core import fmt_shape
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Parameter

from ..cell import Cell
from ._checks import check_input, guarded, params_in_input_dtype, positive_int

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "GroupNorm", "InstanceNorm1d",
           "InstanceNorm2d", "InstanceNorm3d", "LayerNorm", "SyncBatchNorm"]


def _float_in(value, low, high, op: str, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise DTypeError(f"{op}: `{name}` must be a float, got {type(value).__name__}")
    if not low <= value <= high:
        raise ArgumentValueError(f"{op}: `{name}` must be in [{low}, {high}], got {value}")
    return float(value)


class _BatchNorm(Cell):
    op = ""
    ranks: tuple = ()

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, data_format="NCHW", dtype=dt.float32):
        super().__init__()
        self.num_features = positive_int(num_features, self.op, "num_features")
        self.eps = _float_in(eps, 0.0, float("inf"), self.op, "eps")
        if self.eps == 0.0:
            raise ArgumentValueError(f"{self.op}: `eps` must be > 0, got {eps}")
        self.momentum = _float_in(momentum, 0.0, 1.0, self.op, "momentum")
        if data_format != "NCHW":
            raise ArgumentValueError(f"{self.op}: only data_format='NCHW' is supported, got "
                                     f"{data_format!r}")
        if use_batch_statistics not in (None, True, False):
            raise DTypeError(f"{self.op}: `use_batch_statistics` must be None or a bool, got "
                             f"{use_batch_statistics!r}")
        self.use_batch_statistics = use_batch_statistics
        shape = (self.num_features,)
        self.affine = bool(affine)
        # MindSpore's order: the running statistics first, so get_parameters() and the
        # checkpoints list them as MindSpore does and initializers draw in its order; named
        # "mean" and "variance" until the layer is attached ("bn.moving_mean"), as there
        self.moving_mean = Parameter(initializer(moving_mean_init, shape, dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, shape, dtype),
                                         name="variance", requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, shape, dtype), requires_grad=self.affine)
        self.beta = Parameter(initializer(beta_init, shape, dtype), requires_grad=self.affine)
        # MindSpore's two primitives, which programs shard and set attributes on
        # (`bn.bn_train.shard(...)`): their momentum is the batch's weight in the update
        self.bn_train = P.BatchNorm(is_training=True, epsilon=self.eps,
                                    momentum=1.0 - self.momentum, data_format=data_format)
        self.bn_infer = P.BatchNorm(is_training=False, epsilon=self.eps,
                                    data_format=data_format)

    def construct(self, x):
        params = parameter_read_dtype(self.gamma.dtype)
        mixed = x.dtype != params and x.dtype.is_float and params.is_float
        check_input(self.op, x, rank=self.ranks, channels=self.num_features,
                    dtype=None if mixed else self.gamma.dtype)
        use_batch = self.use_batch_statistics
        if use_batch is None:
            use_batch = guarded(self, "training")
        stats = (self.gamma, self.beta, self.moving_mean, self.moving_variance)
        if mixed:
            # as MindSpore: float16 input with float32 parameters (or the other way round) is
            # normalised in the wider dtype and comes out in the input's
            wide = dt.promote(x.dtype, params)
            y, batch_mean, batch_var = norm_ops.batch_norm(
                P.cast(x, wide), *(P.cast(s, wide) for s in stats),
                is_training=bool(use_batch), epsilon=self.eps)
            y = P.cast(y, x.dtype)
            batch_mean, batch_var = P.cast(batch_mean, params), P.cast(batch_var, params)
        elif use_batch:  # the primitive updates the moving statistics in place
            return self.bn_train(x, *stats)[0]
        else:
            return self.bn_infer(x, *stats)[0]
        if use_batch:
            count = x.size // self.num_features
            unbiased = batch_var * (count / max(count - 1, 1))
            assign(self.moving_mean, self.moving_mean * self.momentum
                   + batch_mean * (1 - self.momentum))
            assign(self.moving_variance, self.moving_variance * self.momentum
                   + unbiased * (1 - self.momentum))
        return y

    def extend_repr(self) -> str:
        return f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, " \
               f"gamma={self.gamma}, beta={self.beta}, moving_mean={self.moving_mean}, " \
               f"moving_variance={self.moving_variance}"


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of (N, C) or (N, C, L) inputs over all axes but C."""

    op = "BatchNorm1d"
    ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of (N, C, H, W) inputs over N, H and W."""

    op = "BatchNorm2d"
    ranks = (4,)


class BatchNorm3d(Cell):
    """Batch normalisation of (N, C, D, H, W) inputs over N, D, H and W: as MindSpore's, a
    BatchNorm2d child `bn2d` (whose Parameters are "bn2d.gamma" and so on) normalises the
    input seen as (N, C, D*H, W)."""

    op = "BatchNorm3d"

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, dtype=dt.float32):
        super().__init__()
        self.bn2d = BatchNorm2d(num_features, eps, momentum, affine, gamma_init, beta_init,
                                moving_mean_init, moving_var_init, use_batch_statistics,
                                dtype=dtype)

    def construct(self, x):
        check_input(self.op, x, rank=5, channels=self.bn2d.num_features)
        n, c, d, h, w = x.shape
        return self.bn2d(x.reshape(n, c, d * h, w)).reshape(n, c, d, h, w)


class GroupNorm(Cell):
    """Normalise (N, C, ...) over each group of C / num_groups channels and the remaining
    axes, then scale by gamma and shift by beta (one per channel)."""

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype=dt.float32):
        super().__init__()
        self.num_groups = positive_int(num_groups, "GroupNorm", "num_groups")
        self.num_channels = positive_int(num_channels, "GroupNorm", "num_channels")
        if self.num_channels % self.num_groups:
            raise ArgumentValueError(f"GroupNorm: num_groups={num_groups} must divide "
                                     f"num_channels={num_channels}")
        self.eps = _float_in(eps, 0.0, float("inf"), "GroupNorm", "eps")
        self.affine = bool(affine)
        shape = (self.num_channels,)
        self.gamma = Parameter(initializer(gamma_init, shape, dtype), name="gamma",
                               requires_grad=self.affine)
        self.beta = Parameter(initializer(beta_init, shape, dtype), name="beta",
                              requires_grad=self.affine)

    def construct(self, x):
        check_input("GroupNorm", x, channels=self.num_channels)
        gamma, beta = params_in_input_dtype("GroupNorm", x, self.gamma, self.beta)
        shape = tuple(x.shape)
        grouped = x.reshape(shape[0], self.num_groups, -1)
        mean = grouped.mean(2, True)
        centred = grouped - mean
        var = (centred * centred).mean(2, True)
        normed = (centred / (var + self.eps).sqrt()).reshape(shape)
        per_channel = (self.num_channels,) + (1,) * (len(shape) - 2)
        return normed * gamma.reshape(per_channel) + beta.reshape(per_channel)

    def extend_repr(self) -> str:
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


class LayerNorm(Cell):
    """Normalise over the axes from `begin_norm_axis` on, then scale by gamma and shift by
    beta, both of shape `normalized_shape` (the axes from `begin_params_axis` on)."""

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1,
                 gamma_init="ones", beta_init="zeros", epsilon=1e-7, dtype=dt.float32):
        super().__init__()
        if not isinstance(normalized_shape, (tuple, list)):  # an int too, as in MindSpore
            raise DTypeError(f"For 'LayerNorm', the type of 'normalized_shape' must be tuple[int] "
                             f"or list[int], but got {normalized_shape} and the type is "
                             f"{type(normalized_shape)}.")
        self.normalized_shape = tuple(int(d) for d in normalized_shape)
        self.begin_norm_axis, self.begin_params_axis = begin_norm_axis, begin_params_axis
        self.epsilon = float(epsilon)
        self.gamma = Parameter(initializer(gamma_init, self.normalized_shape, dtype))
        self.beta = Parameter(initializer(beta_init, self.normalized_shape, dtype))
        # MindSpore's attribute: subclasses call it on an input of their own (mindcv's
        # channels-first ConvNextLayerNorm: `y, _, _ = self.layer_norm(x, self.gamma, ...)`)
        self.layer_norm = P.LayerNorm(begin_norm_axis=begin_norm_axis,
                                      begin_params_axis=begin_params_axis,
                                      epsilon=self.epsilon)

    def construct(self, x):
        ndim = len(x.shape)
        norm_axis, params_axis = self.begin_norm_axis, self.begin_params_axis
        if not (-ndim <= norm_axis < ndim and -ndim <= params_axis < ndim):
            raise ShapeError(f"LayerNorm: begin_norm_axis={norm_axis} and begin_params_axis="
                             f"{params_axis} do not fit an input of shape {fmt_shape(x.shape)}")
        if tuple(x.shape[params_axis % ndim:]) != self.normalized_shape:
            raise ShapeError(f"LayerNorm: expected the input's axes from begin_params_axis="
                             f"{params_axis} on to be normalized_shape="
                             f"{self.normalized_shape}, got input shape {fmt_shape(x.shape)}")
        gamma, beta = params_in_input_dtype("LayerNorm", x, self.gamma, self.beta)
        return norm_ops.layer_norm(x, gamma, beta, begin_norm_axis=norm_axis % ndim,
                                   begin_params_axis=params_axis % ndim,
                                   epsilon=self.epsilon)[0]

    def extend_repr(self) -> str:
        # MindSpore 2.10 prints "gamma" and the Parameter with no "=" between them
        return f"normalized_shape={self.normalized_shape}, begin_norm_axis=" \
               f"{self.begin_norm_axis}, begin_params_axis={self.begin_params_axis}, " \
               f"gamma{self.gamma}, beta={self.beta}"


def _sync_group(process_groups, op: str):
    """The communication group SyncBatchNorm reduces over: the world, or the group of
    `process_groups` (lists of world ranks) that holds this process, created on every rank in
    the same order (as collectives need); None when no communication is initialised."""
    from cellgraph.communication import management
    from cellgraph.runtime import distributed

    if not distributed.is_initialized():
        if process_groups is not None:
            raise ArgumentValueError(f"{op}: process_groups need communication initialised "
                                     f"(communication.init()) first")
        return None
    if process_groups is None:
        return management.GlobalComm.WORLD_COMM_GROUP
    rank, mine = management.get_rank(), None
    seen = sorted(r for ranks in process_groups for r in ranks)
    if seen != list(range(management.get_group_size())):
        raise ArgumentValueError(f"{op}: process_groups must split the world's ranks 0 to "
                                 f"{management.get_group_size() - 1} once each, got "
                                 f"{process_groups}")
    for number, ranks in enumerate(process_groups):
        name = f"sync_bn_group{number}"
        management.create_group(name, list(ranks))
        if rank in ranks:
            mine = name
    return mine


class SyncBatchNorm(_BatchNorm):
    """Batch normalisation whose training statistics cover the batches of every process of a
    group: each process all-reduces its per-channel count, sum and sum of squares, so all
    normalise with the same mean and variance (and the gradient flows back through the
    reduction). With no communication initialised it is BatchNorm on the local batch."""

    op = "SyncBatchNorm"
    ranks = (2, 3, 4)

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones",
                 beta_init="zeros", moving_mean_init="zeros", moving_var_init="ones",
                 use_batch_statistics=None, process_groups=None, dtype=dt.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init,
                         moving_mean_init, moving_var_init, use_batch_statistics, dtype=dtype)
        self.group = _sync_group(process_groups, self.op)

    def construct(self, x):
        use_batch = self.use_batch_statistics
        if use_batch is None:
            use_batch = guarded(self, "training")
        if not use_batch or self.group is None:
            return super().construct(x)
        from cellgraph import ops
        from cellgraph.primitives.comm_ops import all_reduce

        check_input(self.op, x, rank=self.ranks, channels=self.num_features,
                    dtype=self.gamma.dtype)
        axes = (0,) + tuple(range(2, len(x.shape)))
        local_count = ops.fill(x.dtype, (1,), x.size // self.num_features)
        total, squares, count = all_reduce(ops.reduce_sum(x, axes),
                                           ops.reduce_sum(x * x, axes), local_count,
                                           op="sum", group=self.group)
        mean = total / count
        var = squares / count - mean * mean
        shape = (1, self.num_features) + (1,) * (len(x.shape) - 2)
        scale = self.gamma * ops.rsqrt(var + self.eps)
        y = (x - mean.reshape(shape)) * scale.reshape(shape) + self.beta.reshape(shape)
        unbiased = var * (count / ops.maximum(count - 1, 1))
        assign(self.moving_mean, self.moving_mean * self.momentum + mean * (1 - self.momentum))
        assign(self.moving_variance, self.moving_variance * self.momentum
               + unbiased * (1 - self.momentum))
        return y


class _InstanceNorm(GroupNorm):
    """Each (example, channel) normalised over its spatial axes, then scaled by gamma and
    shifted by beta per channel."""

    rank = 4

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones",
                 beta_init="zeros", dtype=dt.float32):
        super().__init__(num_features, num_features, eps, affine, gamma_init, beta_init, dtype)
        self.num_features = self.num_channels
        self.momentum = momentum

    def construct(self, x):
        check_input(type(self).__name__, x, rank=self.rank, channels=self.num_features)
        return super().construct(x)

    def extend_repr(self) -> str:
        return f"num_features={self.num_features}, eps={self.eps}, affine={self.affine}"


class InstanceNorm1d(_InstanceNorm):
    rank = 3


class InstanceNorm2d(_InstanceNorm):
    rank = 4


class InstanceNorm3d(_InstanceNorm):
    rank = 5
