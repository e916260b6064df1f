"""`mindspore.common.tensor`: Tensor, and `tensor(data, dtype)`, which makes one."""
from cellgraph.runtime.tensor import Tensor, tensor

__all__ = ["Tensor", "tensor"]
