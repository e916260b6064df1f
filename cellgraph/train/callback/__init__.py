"""cellgraph.train.callback: hooks into Model.train, Model.fit and Model.eval."""
from ._backup_and_restore import BackupAndRestore
from ._callback import Callback, CallbackParams, RunContext
from ._checkpoint import CheckpointConfig, ModelCheckpoint
from ._lr_callbacks import LearningRateScheduler, ReduceLROnPlateau
from ._monitors import EarlyStopping, History, LambdaCallback, LossMonitor, TimeMonitor
from ._on_request_exit import OnRequestExit

# MindSpore's name for the class of `run_context.original_args()`, which its tests import
_InternalCallbackParam = CallbackParams

__all__ = ["BackupAndRestore", "Callback", "CallbackParams", "CheckpointConfig", "EarlyStopping", "History",
           "LambdaCallback", "LearningRateScheduler", "LossMonitor", "ModelCheckpoint",
           "OnRequestExit", "ReduceLROnPlateau", "RunContext", "TimeMonitor"]
