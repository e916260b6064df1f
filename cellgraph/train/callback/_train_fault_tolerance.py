"""`mindspore.train.TrainFaultTolerance`: MindSpore's callback for MindIO's training fault
tolerance (saving and restoring the optimizer's state across a failed Ascend device). MindIO
runs only on Ascend devices in graph mode, which cellgraph never runs on: after MindSpore's
argument check, making one raises MindSpore's ValueError for any other device."""
from __future__ import annotations

from ._callback import Callback

__all__ = ["TrainFaultTolerance"]


class TrainFaultTolerance(Callback):
    """MindIO training fault tolerance (Ascend only; see the module's docstring)."""

    def __init__(self, ckpt_save_path=None, **kwargs):
        from cellgraph import context

        super().__init__()
        if kwargs.get("ckpt_save_fn") is None and ckpt_save_path is None:
            raise ValueError("TrainFaultTolerance construct need to set ckpt_save_fn or "
                             "ckpt_save_path!")
        device_target, mode = context.get_context("device_target"), context.get_context("mode")
        raise ValueError(f"MindIO adataper only support on Ascend device with GRAPH Mode!"
                         f"device:{device_target}, run mode: {mode}")
