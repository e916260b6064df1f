"""`mindspore.device_context`: per-device queries and settings (`cpu`, `gpu`, `ascend`), over
`cellgraph.hal`. Asking a device this machine does not have raises MindSpore's RuntimeError."""
from . import ascend, cpu, gpu

__all__ = ["ascend", "cpu", "gpu"]
