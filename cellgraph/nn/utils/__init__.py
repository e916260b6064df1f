"""`mindspore.nn.utils`."""
from . import init
from .init import *

__all__ = list(init.__all__)
