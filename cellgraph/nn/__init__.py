"""cellgraph.nn: Cell and the layers, losses, optimizers and wrappers built on it, laid out as
MindSpore's `mindspore.nn`: `layer/` (one module per kind of layer), `loss/loss.py`, `optim/`
(one module per optimizer), `wrap/`, `grad/`, `learning_rate_schedule.py`, `dynamic_lr.py`."""
from . import (
    dynamic_lr,
    grad,
    layer,
    learning_rate_schedule,
    loss,
    optim,
    probability,  # noqa: F401  (nn.probability)
    sparse,
    utils,
    wrap,
)
from .cell import Cell
from .dynamic_lr import *
from .grad import *
from .graph_cell import GraphCell
from .layer import *
from .learning_rate_schedule import *
from .loss import *
from .optim import *
from .sparse import *
from .utils import *
from .wrap import *

__all__ = ["Cell", "GraphCell"] + [name for module in (dynamic_lr, grad, layer, learning_rate_schedule, loss,
                                          optim, sparse, utils, wrap)
                      for name in module.__all__]

# The metrics live in cellgraph.train (MindSpore 2.x); the 1.x spelling nn.Accuracy reaches
# them on first use, since cellgraph.train imports nn. nn.CosineSimilarity is the metric, as
# MindSpore's (its nn imports the metrics after the layers); the layer is
# nn.layer.CosineSimilarity.
del CosineSimilarity  # noqa: F821  (the layer's, from `from .layer import *`)
_METRIC_NAMES = ("Accuracy", "BleuScore", "ConfusionMatrix", "ConfusionMatrixMetric",
                 "CosineSimilarity", "Dice", "F1", "Fbeta", "HausdorffDistance", "Loss", "MAE",
                 "MSE", "MeanSurfaceDistance", "Metric", "OcclusionSensitivity", "Perplexity",
                 "Precision", "ROC", "Recall", "RootMeanSquareDistance",
                 "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "TopKCategoricalAccuracy",
                 "auc", "get_metric_fn", "names", "rearrange_inputs")


# MindSpore's nn.<Name>Ext classes are mint.nn's <Name> (mint.nn imports nn: read on first use)
_MINT_CLASSES = ("AvgPool1dExt", "AvgPool2dExt", "AvgPool3dExt", "Dropout2dExt", "DropoutExt", "EmbeddingExt", "L1LossExt", "LayerNormExt",
                 "LogSoftmaxExt", "MaxPool2dExt", "PReLUExt")


def __getattr__(name):
    if name == "metrics":  # the module nn.metrics, as MindSpore's nn imports it
        import importlib

        return importlib.import_module("cellgraph.nn.metrics")
    if name in _METRIC_NAMES:
        from cellgraph.train import metrics

        return getattr(metrics, name)
    if name in _MINT_CLASSES:
        from cellgraph.mint import nn as mint_nn

        return getattr(mint_nn, name[:-len("Ext")])
    raise AttributeError(f"module 'cellgraph.nn' has no attribute {name!r}")
