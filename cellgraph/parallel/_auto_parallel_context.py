"""`mindspore.parallel._auto_parallel_context`: `auto_parallel_context()`, the object behind
`set_auto_parallel_context`, whose setters and getters MindSpore's programs and tests call
one key at a time. Each reads or writes the one context of cellgraph/auto_parallel.py."""
from __future__ import annotations

from cellgraph import auto_parallel as _context


class _AutoParallelContext:
    """One setter and getter per key of the auto-parallel context."""

    def set_device_num(self, device_num):
        _context.set_auto_parallel_context(device_num=device_num)

    def get_device_num(self):
        return _context.get_auto_parallel_context("device_num")

    def get_device_num_is_set(self):
        return _context._state["device_num"] is not None

    def set_global_rank(self, global_rank):
        _context.set_auto_parallel_context(global_rank=global_rank)

    def get_global_rank(self):
        return _context.get_auto_parallel_context("global_rank")

    def set_gradients_mean(self, gradients_mean):
        _context.set_auto_parallel_context(gradients_mean=gradients_mean)

    def get_gradients_mean(self):
        return _context.get_auto_parallel_context("gradients_mean")

    def set_parallel_mode(self, parallel_mode):
        _context.set_auto_parallel_context(parallel_mode=parallel_mode)

    def get_parallel_mode(self):
        return _context.get_auto_parallel_context("parallel_mode")

    def set_pipeline_stages(self, stages):
        _context.set_auto_parallel_context(pipeline_stages=stages)

    def get_pipeline_stages(self):
        return _context.get_auto_parallel_context("pipeline_stages")

    def set_full_batch(self, full_batch):
        _context.set_auto_parallel_context(full_batch=full_batch)

    def get_full_batch(self):
        return _context.get_auto_parallel_context("full_batch")

    def set_enable_parallel_optimizer(self, enable_parallel_optimizer):
        _context.set_auto_parallel_context(enable_parallel_optimizer=enable_parallel_optimizer)

    def get_enable_parallel_optimizer(self):
        return _context.get_auto_parallel_context("enable_parallel_optimizer")

    def set_enable_all_reduce_fusion(self, enable_all_reduce_fusion):
        _context.set_enable_fusion("all_reduce", enable_all_reduce_fusion)

    def get_enable_all_reduce_fusion(self):
        return _context.enable_fusion("all_reduce")

    def set_enable_all_gather_fusion(self, enable_all_gather_fusion):
        _context.set_enable_fusion("all_gather", enable_all_gather_fusion)

    def get_enable_all_gather_fusion(self):
        return _context.enable_fusion("all_gather")

    def set_enable_reduce_scatter_fusion(self, enable_reduce_scatter_fusion):
        _context.set_enable_fusion("reduce_scatter", enable_reduce_scatter_fusion)

    def get_enable_reduce_scatter_fusion(self):
        return _context.enable_fusion("reduce_scatter")

    def set_comm_fusion(self, config):
        _context.set_auto_parallel_context(comm_fusion=config)

    def get_comm_fusion(self):
        return _context.get_auto_parallel_context("comm_fusion")

    def set_all_reduce_fusion_split_indices(self, indices):
        _context.set_auto_parallel_context(all_reduce_fusion_config=indices)

    def get_all_reduce_fusion_split_indices(self):
        return _context.get_auto_parallel_context("all_reduce_fusion_config")

    def set_gradient_fp32_sync(self, gradient_fp32_sync):
        _context.set_auto_parallel_context(gradient_fp32_sync=gradient_fp32_sync)

    def get_gradient_fp32_sync(self):
        return _context.get_auto_parallel_context("gradient_fp32_sync")

    def get_parameter_broadcast_is_set(self):
        return _context._state["parameter_broadcast_is_set"]

    def set_communi_parallel_mode(self, communi_parallel_mode):
        _context.set_auto_parallel_context(communi_parallel_mode=communi_parallel_mode)

    def get_communi_parallel_mode(self):
        return _context.get_auto_parallel_context("communi_parallel_mode")

    def set_optimizer_weight_shard_aggregated_save(self, aggregated_save):
        _context.set_auto_parallel_context(optimizer_weight_shard_aggregated_save=aggregated_save)

    def get_optimizer_weight_shard_aggregated_save(self):
        return _context.get_auto_parallel_context("optimizer_weight_shard_aggregated_save")

    def set_pipeline_config(self, pipeline_config):
        _context.set_auto_parallel_context(pipeline_config=pipeline_config)

    def get_pipeline_interleave(self):
        return _context.get_auto_parallel_context("pipeline_config")["pipeline_interleave"]

    def get_pipeline_scheduler(self):
        return _context.get_auto_parallel_context("pipeline_config")["pipeline_scheduler"]

    def set_parallel_optimizer_config(self, parallel_optimizer_config):
        _context.set_auto_parallel_context(parallel_optimizer_config=parallel_optimizer_config)

    def get_grad_accumulation_shard(self):
        return _context._state["gradient_accumulation_shard"]

    def get_parallel_optimizer_threshold(self):
        return _context._state["parallel_optimizer_threshold"]

    def get_optimizer_weight_shard_size(self):
        return _context._state["optimizer_weight_shard_size"]

    def reset(self):
        _context.reset_auto_parallel_context()


_AUTO_PARALLEL_CONTEXT = _AutoParallelContext()


def auto_parallel_context():
    """The process's auto-parallel context."""
    return _AUTO_PARALLEL_CONTEXT
