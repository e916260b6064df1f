"""cellgraph.train: Model, callbacks, metrics, loss-scale managers and checkpoints."""
from . import amp, callback, dataset_helper, loss_scale_manager, metrics, summary  # noqa: F401  (the submodule paths)
from .callback import (
    Callback,
    CheckpointConfig,
    EarlyStopping,
    History,
    LambdaCallback,
    LearningRateScheduler,
    LossMonitor,
    ModelCheckpoint,
    OnRequestExit,
    ReduceLROnPlateau,
    RunContext,
    TimeMonitor,
)
from .data_sink import data_sink
from .dataset_helper import DatasetHelper
from .loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager
from .metrics import (
    F1,
    MAE,
    MSE,
    Accuracy,
    ConfusionMatrix,
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
from .resume import latest_checkpoint, resume_checkpoint, resume_state
from .safetensors import ckpt_to_safetensors, safetensors_to_ckpt
from .serialization import CheckpointError, load_checkpoint, load_param_into_net, save_checkpoint
from .summary import SummaryCollector, SummaryRecord

__all__ = [
    "F1",
    "MAE",
    "MSE",
    "Accuracy",
    "Callback",
    "CheckpointConfig",
    "CheckpointError",
    "ConfusionMatrix",
    "DatasetHelper",
    "DynamicLossScaleManager",
    "EarlyStopping",
    "Fbeta",
    "FixedLossScaleManager",
    "History",
    "LambdaCallback",
    "LearningRateScheduler",
    "Loss",
    "LossMonitor",
    "LossScaleManager",
    "Metric",
    "Model",
    "ModelCheckpoint",
    "OnRequestExit",
    "Precision",
    "Recall",
    "ReduceLROnPlateau",
    "RunContext",
    "SummaryCollector",
    "SummaryRecord",
    "TimeMonitor",
    "Top1CategoricalAccuracy",
    "Top5CategoricalAccuracy",
    "TopKCategoricalAccuracy",
    "ckpt_to_safetensors",
    "data_sink",
    "get_metric_fn",
    "latest_checkpoint",
    "load_checkpoint",
    "load_param_into_net",
    "names",
    "resume_checkpoint",
    "resume_state",
    "safetensors_to_ckpt",
    "save_checkpoint",
]
