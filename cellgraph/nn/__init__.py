"""cellgraph.nn: Cell and the layers, losses, optimizers and wrappers built on it."""
from . import (
    activation,
    container,
    conv,
    layers,
    learning_rate_schedule,
    loss,
    normalization,
    optim,
    wrap,
)
from .activation import *
from .cell import Cell
from .container import *
from .conv import *
from .grad_cells import Jvp, Vjp
from .grad_reducer import DistributedGradReducer
from .layers import *
from .learning_rate_schedule import *
from .loss import *
from .normalization import *
from .optim import *
from .wrap import *

__all__ = ["Cell", "DistributedGradReducer", "Jvp", "Vjp"] + [
    name for module in (activation, container, conv, layers, learning_rate_schedule, loss,
                        normalization, optim, wrap) for name in module.__all__]
