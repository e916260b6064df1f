"""cellgraph.nn: Cell and the layers, losses, optimizers and wrappers built on it."""
import sys

from . import (
    activation,
    basic,
    container,
    conv,
    conv_nd,
    dynamic_lr,
    image_layers,
    image_metrics,
    layers,
    learning_rate_schedule,
    loss,
    loss_scale,
    normalization,
    optim,
    optim_adaptive,
    probability,  # noqa: F401  (nn.probability)
    rnn,
    transformer,
    utils,  # noqa: F401  (nn.utils)
    wrap,
)
from .activation import *
from .basic import *
from .cell import Cell
from .container import *
from .conv import *
from .conv_nd import *
from .dynamic_lr import *
from .grad_cells import ForwardValueAndGrad, Jvp, Vjp
from .grad_reducer import DistributedGradReducer
from .image_layers import *
from .image_metrics import *
from .layers import *
from .learning_rate_schedule import *
from .loss import *
from .loss_scale import *
from .normalization import *
from .optim import *
from .optim_adaptive import *
from .rnn import *
from .transformer import *
from .wrap import *

__all__ = ["Cell", "DistributedGradReducer", "ForwardValueAndGrad", "Jvp", "Vjp"] + [
    name for module in (activation, basic, container, conv, conv_nd, dynamic_lr, image_layers,
                        image_metrics, layers, learning_rate_schedule, loss, loss_scale, normalization, optim,
                        optim_adaptive, rnn, transformer, wrap)
    for name in module.__all__]

# The metrics live in cellgraph.train (MindSpore 2.x); the 1.x spelling nn.Accuracy reaches
# them on first use, since cellgraph.train imports nn.
_METRIC_NAMES = ("Accuracy", "ConfusionMatrix", "F1", "Fbeta", "Loss", "MAE", "MSE", "Metric", "Precision",
                 "Recall", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
                 "TopKCategoricalAccuracy", "get_metric_fn", "names", "rearrange_inputs")


def __getattr__(name):
    if name in _METRIC_NAMES:
        from cellgraph.train import metrics

        return getattr(metrics, name)
    raise AttributeError(f"module 'cellgraph.nn' has no attribute {name!r}")


from . import module_paths as _module_paths

_module_paths.mount(sys.modules[__name__])
