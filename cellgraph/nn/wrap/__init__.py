"""`mindspore.nn.wrap`: the Cells that wrap a network for training: with a loss, one step of
an optimizer, loss scaling, data-parallel gradient reduction."""
from . import cell_wrapper, grad_reducer, loss_scale
from .cell_wrapper import *
from .grad_reducer import *
from .loss_scale import *

__all__ = cell_wrapper.__all__ + grad_reducer.__all__ + loss_scale.__all__
