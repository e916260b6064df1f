"""`mindspore.nn.grad`: the Jvp and Vjp Cells."""
from . import cell_grad
from .cell_grad import *

__all__ = list(cell_grad.__all__)
