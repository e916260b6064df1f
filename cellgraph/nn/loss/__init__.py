"""`mindspore.nn.loss`: the loss Cells."""
from . import loss
from .loss import *

__all__ = list(loss.__all__)
