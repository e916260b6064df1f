"""`mindspore.nn.layer`: the layers, one module per kind as MindSpore lays them out."""
from . import (
    activation,
    basic,
    channel_shuffle,
    combined,
    container,
    conv,
    dense,
    embedding,
    image,
    math,
    normalization,
    padding,
    pooling,
    rnn_cells,
    rnns,
    timedistributed,
    transformer,
)
from .activation import *
from .basic import *
from .channel_shuffle import *
from .combined import *
from .container import *
from .conv import *
from .dense import *
from .embedding import *
from .image import *
from .math import *
from .normalization import *
from .padding import *
from .pooling import *
from .rnn_cells import *
from .rnns import *
from .timedistributed import *
from .transformer import *

__all__ = [name for module in (activation, basic, channel_shuffle, combined, container, conv,
                               dense, embedding, image, math, normalization, padding, pooling,
                               rnn_cells, rnns, timedistributed, transformer)
           for name in module.__all__]
