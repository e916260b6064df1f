"""cellgraph.nn: Cell and the layers, losses, optimizers and wrappers built on it."""
import sys

from . import (
    dynamic_lr,
    layer,
    learning_rate_schedule,
    loss,
    loss_scale,
    optim,
    optim_adaptive,
    probability,  # noqa: F401  (nn.probability)
    utils,  # noqa: F401  (nn.utils)
    wrap,
)
from .cell import Cell
from .dynamic_lr import *
from .grad_cells import ForwardValueAndGrad, Jvp, Vjp
from .grad_reducer import DistributedGradReducer
from .layer import *
from .learning_rate_schedule import *
from .loss import *
from .loss_scale import *
from .optim import *
from .optim_adaptive import *
from .wrap import *

__all__ = ["Cell", "DistributedGradReducer", "ForwardValueAndGrad", "Jvp", "Vjp"] + [
    name for module in (dynamic_lr, layer, learning_rate_schedule, loss, loss_scale, optim,
                        optim_adaptive, wrap)
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
