"""`mindspore.device_context.ascend`: cellgraph has no Ascend backend, so its queries raise
MindSpore's RuntimeError for a machine without one."""
from __future__ import annotations

__all__ = ["device_count", "is_available"]


def device_count() -> int:
    raise RuntimeError("Device Ascend not exist.")


def is_available() -> bool:
    raise RuntimeError("Device Ascend not exist.")
