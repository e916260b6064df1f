"""`mindspore.device_context.gpu`: CUDA devices, through the torch_cuda or CuPy runtime
(`cellgraph.hal`)."""
from ._device import queries

device_count, is_available = queries("GPU", "Device_target GPU not exist.")

__all__ = ["device_count", "is_available"]
