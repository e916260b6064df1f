"""cellgraph.nn: Cell and the layers, losses, optimizers and wrappers built on it."""
from . import (
    activation,
    container,
    conv,
    layers,
    learning_rate_schedule,
    loss,
    loss_scale,
    normalization,
    optim,
    wrap,
)
from .activation import *
from .cell import Cell
from .container import *
from .conv import *
from .grad_cells import Jvp, Vjp
from .layers import *
from .learning_rate_schedule import *
from .loss import *
from .loss_scale import *
from .normalization import *
from .optim import *
from .wrap import *

__all__ = ["Cell", "Jvp", "Vjp"] + [
    name for module in (activation, container, conv, layers, learning_rate_schedule, loss, loss_scale,
                        normalization, optim, wrap) for name in module.__all__]

# The metrics live in cellgraph.train (MindSpore 2.x); the 1.x spelling nn.Accuracy reaches
# them on first use, since cellgraph.train imports nn.
_METRIC_NAMES = ("Accuracy", "F1", "Fbeta", "Loss", "MAE", "MSE", "Metric", "Precision",
                 "Recall", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
                 "TopKCategoricalAccuracy", "get_metric_fn", "names", "rearrange_inputs")


def __getattr__(name):
    if name in _METRIC_NAMES:
        from cellgraph.train import metrics

        return getattr(metrics, name)
    raise AttributeError(f"module 'cellgraph.nn' has no attribute {name!r}")
