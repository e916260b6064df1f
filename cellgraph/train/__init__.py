"""cellgraph.train: Model, callbacks, metrics, loss-scale managers and checkpoints."""
from . import amp, callback, dataset_helper, loss_scale_manager, metrics, summary  # noqa: F401  (the submodule paths)
from .async_save import async_ckpt_thread_status
from .callback import (
    BackupAndRestore,
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
    TrainFaultTolerance,
)
from .data_sink import data_sink
from .dataset_helper import DatasetHelper
from .loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager
from .metrics import (
    F1,
    MAE,
    MSE,
    ROC,
    Accuracy,
    BleuScore,
    ConfusionMatrix,
    ConfusionMatrixMetric,
    CosineSimilarity,
    Dice,
    Fbeta,
    HausdorffDistance,
    Loss,
    MeanSurfaceDistance,
    Metric,
    OcclusionSensitivity,
    Perplexity,
    Precision,
    Recall,
    RootMeanSquareDistance,
    Top1CategoricalAccuracy,
    Top5CategoricalAccuracy,
    TopKCategoricalAccuracy,
    auc,
    get_metric_fn,
    names,
    rearrange_inputs,
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
    "ROC",
    "Accuracy",
    "BackupAndRestore",
    "BleuScore",
    "Callback",
    "CheckpointConfig",
    "CheckpointError",
    "ConfusionMatrix",
    "ConfusionMatrixMetric",
    "CosineSimilarity",
    "DatasetHelper",
    "Dice",
    "DynamicLossScaleManager",
    "EarlyStopping",
    "Fbeta",
    "FixedLossScaleManager",
    "HausdorffDistance",
    "History",
    "LambdaCallback",
    "LearningRateScheduler",
    "Loss",
    "LossMonitor",
    "LossScaleManager",
    "MeanSurfaceDistance",
    "Metric",
    "Model",
    "ModelCheckpoint",
    "OcclusionSensitivity",
    "OnRequestExit",
    "Perplexity",
    "Precision",
    "Recall",
    "ReduceLROnPlateau",
    "RootMeanSquareDistance",
    "RunContext",
    "SummaryCollector",
    "SummaryRecord",
    "TimeMonitor",
    "Top1CategoricalAccuracy",
    "Top5CategoricalAccuracy",
    "TopKCategoricalAccuracy",
    "TrainFaultTolerance",
    "async_ckpt_thread_status",
    "auc",
    "ckpt_to_safetensors",
    "data_sink",
    "get_metric_fn",
    "latest_checkpoint",
    "load_checkpoint",
    "load_param_into_net",
    "names",
    "rearrange_inputs",
    "resume_checkpoint",
    "resume_state",
    "safetensors_to_ckpt",
    "save_checkpoint",
]

# MindSpore's train also has the model files' export and load and the distributed and mixed
# precision helpers, defined elsewhere here (read when first used: they import train)
from cellgraph._lazy import lazy_names as _lazy_names

__getattr__, __dir__ = _lazy_names(globals(), {
    "export": ("cellgraph.device", "export"), "load": ("cellgraph.device", "load"),
    "load_distributed_checkpoint": ("cellgraph.train.distributed_checkpoint",
                                    "load_distributed_checkpoint"),
    "build_train_network": ("cellgraph.amp.build", "build_train_network")})
