"""`mindspore.train.BackupAndRestore`: a callback that saves the training network's parameters
to `backup_dir/backup.ckpt` at the end of every `save_freq` epochs, loads them back into the
network when a run begins and the file is there (a run restarted after a failure resumes from
the last backup), and deletes the file when training ends (unless `delete_checkpoint=False`)."""
from __future__ import annotations

import os
import stat

from cellgraph import _checkparam as validator

from .._utils import _make_directory
from ._callback import Callback

__all__ = ["BackupAndRestore"]


class BackupAndRestore(Callback):
    """Back up the parameters every `save_freq` epochs ("epoch": each one) and restore them at
    the start of a run."""

    def __init__(self, backup_dir, save_freq="epoch", delete_checkpoint=True):
        super().__init__()
        self.backup_file = os.path.join(_make_directory(backup_dir), "backup.ckpt")
        self.save_freq = 1 if save_freq == "epoch" else validator.check_positive_int(save_freq)
        self.delete_checkpoint = validator.check_bool(delete_checkpoint)

    def on_train_begin(self, run_context):
        from cellgraph.train.serialization import load_checkpoint

        if os.path.exists(self.backup_file):
            load_checkpoint(self.backup_file, net=run_context.original_args().train_network)

    def on_train_epoch_end(self, run_context):
        from cellgraph.train.serialization import save_checkpoint

        cb_params = run_context.original_args()
        if cb_params.cur_epoch_num % self.save_freq == 0:
            save_checkpoint(cb_params.train_network, self.backup_file)

    def on_train_end(self, run_context):
        if self.delete_checkpoint and os.path.exists(self.backup_file):
            os.chmod(self.backup_file, stat.S_IWRITE | stat.S_IREAD)
            os.remove(self.backup_file)
