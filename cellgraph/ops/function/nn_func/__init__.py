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
    resize,
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
from .resize import *
from .window_pool import *

__all__: list[str] = []
for _module in (activation, attention, basic, conv, image, loss, margin_loss, normalization,
                pooling, resize, window_pool):
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
    "conv2d flatten gather"))


def softmax_ext(input, dim=None, dtype=None):
    """mint's softmax; without `dim`, torch's implicit one (0 for ranks 0, 1 and 3, else 1),
    as MindSpore's softmax_ext picks it."""
    from cellgraph import mint

    return mint.softmax(input, _implicit_dim(input) if dim is None else dim, dtype=dtype)


def log_softmax_ext(input, dim=None, *, dtype=None):
    """mint's log_softmax, `dim` chosen as in softmax_ext."""
    from cellgraph import mint

    return mint.log_softmax(input, _implicit_dim(input) if dim is None else dim, dtype=dtype)


def _implicit_dim(input) -> int:
    return 0 if len(input.shape) in (0, 1, 3) else 1
