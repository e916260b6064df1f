"""MindSpore's `ops.function.nn_func`: the neural-network functional operations that are
compositions of the core's operations (no kernel and no rule of their own: their gradients and
batching come from the operations they are made of), one module a topic, as MindSpore files its
nn layers: `activation`, `basic` (dense, distances), `conv`, `pooling`, `normalization`,
`image` (resizing, sampling), `attention` and `loss`. The nn functional operations that are
primitives, and the others of `ops.functional`, are reached here too."""
from cellgraph.ops.function import _functional_namespace
from cellgraph.ops.function._fallback import functional_fallback as _functional_fallback

from . import (
    activation,
    attention,
    basic,
    conv,
    image,
    loss,
    margin_loss,
    normalization,
    pooling,
    window_pool,
)
from .activation import *
from .attention import *
from .basic import *
from .conv import *
from .image import *
from .loss import *
from .margin_loss import *
from .normalization import *
from .pooling import *
from .window_pool import *

__all__: list[str] = []
for _module in (activation, attention, basic, conv, image, loss, margin_loss, normalization,
                pooling, window_pool):
    __all__ += _module.__all__


# the functional operations defined elsewhere (the primitives, the other modules)
__getattr__, __dir__ = _functional_fallback(globals(), functional=_functional_namespace)


# mint's functions under the `_ext` names MindSpore's own code calls them by
from cellgraph.ops.function._mint_ext import ext_functions as _ext_functions

globals().update(_ext_functions(
    "cellgraph.mint.nn.functional",
    "avg_pool2d avg_pool3d batch_norm cross_entropy dropout2d dropout glu interpolate "
    "kl_div l1_loss logsigmoid max_pool2d nll_loss pad"))
globals().update(_ext_functions(
    "cellgraph.mint",
    "conv2d flatten gather log_softmax softmax"))
