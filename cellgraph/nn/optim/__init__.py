"""`mindspore.nn.optim`: the optimizer base and one module per optimizer, as MindSpore lays
them out."""
from . import (
    ada_grad,
    adadelta,
    adafactor,
    adam,
    adamax,
    asgd,
    ftrl,
    lamb,
    lars,
    lazyadam,
    momentum,
    optimizer,
    proximal_ada_grad,
    rmsprop,
    rprop,
    sgd,
)
from .ada_grad import *
from .adadelta import *
from .adafactor import *
from .adam import *
from .adamax import *
from .asgd import *
from .ftrl import *
from .lamb import *
from .lars import *
from .lazyadam import *
from .momentum import *
from .optimizer import *
from .proximal_ada_grad import *
from .rmsprop import *
from .rprop import *
from .sgd import *

__all__ = [name for module in (optimizer, sgd, momentum, adam, rmsprop, ada_grad, adadelta,
                               lamb, adafactor, ftrl, proximal_ada_grad, adamax, lazyadam,
                               rprop, asgd, lars)
           for name in module.__all__]
