"""cellgraph.train: Model, callbacks, metrics, loss-scale managers and checkpoints."""
from . import callback, loss_scale_manager, metrics  # noqa: F401  (the submodule paths)
from .callback import (
    Callback,
    CheckpointConfig,
    EarlyStopping,
    History,
    LambdaCallback,
    LossMonitor,
    ModelCheckpoint,
    RunContext,
    TimeMonitor,
)
from .data_sink import data_sink
from .loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager
from .metrics import (
    F1,
    MAE,
    MSE,
    Accuracy,
    Fbeta,
    Loss,
    Metric,
    Precision,
    Recall,
    Top1CategoricalAccuracy,
    Top5CategoricalAccuracy,
    TopKCategoricalAccuracy,
    get_metric_fn,
    names,
)
from .model import Model
from .serialization import CheckpointError, load_checkpoint, load_param_into_net, save_checkpoint

__all__ = [
    "F1", "MAE", "MSE", "Accuracy", "Callback", "CheckpointConfig", "CheckpointError",
    "DynamicLossScaleManager", "EarlyStopping", "Fbeta", "FixedLossScaleManager", "History",
    "LambdaCallback", "Loss", "LossMonitor", "LossScaleManager", "Metric", "Model",
    "ModelCheckpoint", "Precision", "Recall", "RunContext", "TimeMonitor",
    "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "TopKCategoricalAccuracy",
    "data_sink", "get_metric_fn", "load_checkpoint", "load_param_into_net", "names",
    "save_checkpoint",
]
