"""Data-parallel gradient reduction: `nn.DistributedGradReducer`.

Each process computes the gradients of its share of the global batch; the reducer sums them
across the processes (and divides by their number when `mean`), so every process applies the
same update and the parameters stay identical. The gradients travel in buckets of about 25 MB
(`set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": MB}})`, and
closed before the parameter indices in `all_reduce_fusion_config`): one
`all_reduce` node per bucket, whose kernel packs the bucket into one buffer, so a network with
hundreds of parameters costs a handful of messages, not hundreds:

    %40, %41, %42 = all_reduce(%31, %35, %39) {op='sum', group='hccl_world_group'}
    %43 = div(%40, 2) ...

The buckets are issued last parameters first, the order backward computes their gradients in,
so that in a compiled step each bucket's all-reduce starts while the rest of backward runs
(compiler/comm_schedule.py moves each start up to where its gradients are ready).
"""
from __future__ import annotations

import numbers

import numpy as np

from cellgraph.auto_parallel import bucket_bytes, get_auto_parallel_context
from cellgraph.ops import functional as F
from cellgraph.primitives import dtype as mstype
from cellgraph.primitives.comm_ops import (
    WORLD_COMM_GROUP,
    all_reduce,
    broadcast,
    group_rank_and_size,
)
from cellgraph.primitives.errors import ArgumentValueError, DTypeError
from cellgraph.runtime.tensor import Parameter, Tensor

from ..cell import Cell
from ..layer.basic import Identity

__all__ = ["DistributedGradReducer", "PipelineGradReducer"]


def plan_buckets(params, limit_bytes: int, splits=()) -> tuple:
    """Parameter indices grouped into buckets of one dtype and one fusion group
    (Parameter.comm_fusion; group 0 fuses nothing) and at most `limit_bytes` (a parameter
    larger than that is a bucket of its own), in parameter order; a bucket also closes before
    each index in `splits` (all_reduce_fusion_config)."""
    buckets, open_bucket = [], {}  # (dtype, fusion group) -> (indices, bytes)
    for i, p in enumerate(params):
        if i in splits:
            buckets += [tuple(indices) for indices, _ in open_bucket.values()]
            open_bucket = {}
        nbytes = int(np.prod(p.shape, dtype=np.int64)) * p.dtype.np.itemsize
        group = getattr(p, "comm_fusion", 1)
        indices, size = open_bucket.get((p.dtype, group), ([], 0))
        if indices and (size + nbytes > limit_bytes or group == 0):
            buckets.append(tuple(indices))
            indices, size = [], 0
        open_bucket[(p.dtype, group)] = (indices + [i], size + nbytes)
    buckets += [tuple(indices) for indices, _ in open_bucket.values()]
    return tuple(sorted(buckets))


def _degree(degree, group: str) -> int:
    if degree is None:
        return group_rank_and_size(group)[1]
    if isinstance(degree, bool) or not isinstance(degree, numbers.Integral) or degree <= 0:
        raise ArgumentValueError(f"DistributedGradReducer: `degree` must be a positive int, "
                                 f"got {degree!r}")
    return int(degree)


class DistributedGradReducer(Cell):
    """All-reduce one gradient per parameter across the group (averaged when `mean`; None
    reads the auto-parallel context's gradients_mean), in buckets of about 25 MB."""

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1,
                 group=WORLD_COMM_GROUP):
        super().__init__(auto_prefix=False)
        params = list(parameters)
        if not all(isinstance(p, Parameter) for p in params):
            raise DTypeError("DistributedGradReducer: `parameters` must hold Parameters")
        if mean is None:
            mean = get_auto_parallel_context("gradients_mean")
        if not isinstance(mean, bool):
            raise DTypeError(f"DistributedGradReducer: `mean` must be a bool, got {mean!r}")
        self.mean = mean
        self.group = group
        self.degree = _degree(degree, group)
        self.fusion_type = fusion_type
        self.buckets = plan_buckets(params, bucket_bytes(),
                                    get_auto_parallel_context("all_reduce_fusion_config"))
        self.n_params = len(params)

    def construct(self, grads):
        grads = tuple(grads)
        if len(grads) != self.n_params:
            raise ArgumentValueError(f"DistributedGradReducer: expected {self.n_params} "
                                     f"gradients (one per parameter), got {len(grads)}")
        reduced = list(grads)
        # the last parameters' bucket first: backward computes their gradients first, so the
        # compiler can start each bucket's all-reduce while the rest of backward runs
        for bucket in self.buckets[::-1]:
            sums = all_reduce(*[grads[i] for i in bucket], op="sum", group=self.group)
            for i, total in zip(bucket, sums):
                reduced[i] = F.div(total, self.degree) if self.mean else total
        return tuple(reduced)


class PipelineGradReducer(Cell):
    """The gradient step of a pipeline-parallel network: each gradient is read from the buffer
    the pipeline's micro-batches accumulate it in (`accu_grads`, zero clones of
    `parameters`), divided by `scale_sense` (and the reducer's degree, 1), and the buffer is
    zeroed; with `opt_shard` (None reads enable_parallel_optimizer) the gradient given is
    divided instead. cellgraph runs no pipeline stages (a network compiled with
    pipeline_stages > 1 is refused), so nothing fills the buffers and, as in MindSpore's
    stand-alone runs, the gradients it returns are zeros."""

    def __init__(self, parameters, scale_sense=1.0, opt_shard=None):
        super().__init__(auto_prefix=False)
        self.accu_grads = parameters.clone(prefix="accu_grads", init="zeros")
        self.grad_reducer = Identity()
        self.degree = Tensor(1, mstype.float32)
        self.scale_sense = Parameter(scale_sense, name="scale_sense")
        if opt_shard is None:
            opt_shard = get_auto_parallel_context("enable_parallel_optimizer")
        self.opt_shard = opt_shard

    def construct(self, grads):
        scale = F.reciprocal(self.scale_sense * self.degree)
        sources = self.grad_reducer(grads) if self.opt_shard else \
            self.grad_reducer(self.accu_grads)
        new_grads = ()
        for source, accu in zip(sources, self.accu_grads):
            new_grad = source * scale
            new_grads += (F.depend(new_grad, F.assign(accu, F.zeros_like(accu))),)
        return new_grads


def broadcast_parameters(params, root_rank: int = 0, group: str = WORLD_COMM_GROUP) -> None:
    """Give every rank the root's parameter values (`parameter_broadcast=True`)."""
    params = list(params)
    if not params:
        return
    values = broadcast(*params, root_rank=root_rank, group=group,
                       rank_size=group_rank_and_size(group)[1])
    for p, value in zip(params, values):
        p.set_data(value)


def data_parallel_reducer(weights):
    """The reducer a training cell applies to its gradients: a DistributedGradReducer in
    DATA_PARALLEL mode (after broadcasting the weights from rank 0 when parameter_broadcast is
    set), else an nn.Identity, as MindSpore's training cells hold (their `grad_reducer` child)."""
    if get_auto_parallel_context("parallel_mode") != "data_parallel":
        return Identity()
    if get_auto_parallel_context("parameter_broadcast"):
        broadcast_parameters(weights)
    return DistributedGradReducer(weights, get_auto_parallel_context("gradients_mean"),
                                  get_auto_parallel_context("device_num"))
