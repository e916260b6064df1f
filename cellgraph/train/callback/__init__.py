"""cellgraph.train.callback: hooks into Model.train, Model.fit and Model.eval."""
from ._backup_and_restore import BackupAndRestore
from ._callback import Callback, CallbackManager, CallbackParams, RunContext
from ._callback import checkpoint_cb_for_save_op as _checkpoint_cb_for_save_op  # noqa: F401
from ._callback import set_cur_net as _set_cur_net  # noqa: F401
from ._checkpoint import CheckpointConfig, ModelCheckpoint
from ._checkpoint import CheckpointManager as _CheckpointManager  # noqa: F401
from ._flops_collector import FlopsUtilizationCollector
from ._lr_callbacks import LearningRateScheduler, ReduceLROnPlateau
from ._monitors import EarlyStopping, History, LambdaCallback, LossMonitor, TimeMonitor
from ._on_request_exit import OnRequestExit
from ._train_fault_tolerance import TrainFaultTolerance

# MindSpore's name for the class of `run_context.original_args()`, which its tests import
_InternalCallbackParam = CallbackParams
_CallbackManager = CallbackManager

__all__ = ["BackupAndRestore", "Callback", "CallbackParams", "CheckpointConfig", "EarlyStopping",
           "FlopsUtilizationCollector", "History", "LambdaCallback", "LearningRateScheduler", "LossMonitor", "ModelCheckpoint",
           "OnRequestExit", "ReduceLROnPlateau", "RunContext", "TimeMonitor",
           "TrainFaultTolerance"]
