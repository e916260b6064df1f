"""`mindspore.device_context.cpu`: the host. `op_tuning.threads_num` is `threads_num`."""
from .._device import queries
from . import op_tuning  # noqa: F401 - MindSpore's path to threads_num
from .op_tuning import threads_num

device_count, is_available = queries("CPU", "Device CPU not exist.")

__all__ = ["device_count", "is_available", "threads_num"]
