"""OnRequestExit: stop training (or evaluation) cleanly when the process receives a signal,
saving the network's weights first, so a job a scheduler pre-empts can resume later."""
from __future__ import annotations

import os
import signal
import warnings

from cellgraph.train.serialization import load_checkpoint, save_checkpoint

from ._callback import Callback

__all__ = ["OnRequestExit"]


class OnRequestExit(Callback):
    """On signal `sig`: stop after the current step, then save the training network to
    `directory/FILE_NAME_train.ckpt` (the evaluation network to `..._eval.ckpt`). When such a
    file exists as training (evaluation) begins, its weights are loaded first.

    MindIR export is not available in cellgraph, so `save_mindir=True` warns once and saves
    only the checkpoint."""

    def __init__(self, save_ckpt=True, save_mindir=True, file_name="Net", directory="./",
                 config_file=None, sig=signal.SIGTERM):
        if config_file is not None:
            raise NotImplementedError("OnRequestExit: `config_file` (the exit settings of a "
                                      "cluster job) is not supported")
        for name, value, kind in (("save_ckpt", save_ckpt, bool),
                                  ("save_mindir", save_mindir, bool),
                                  ("file_name", file_name, str), ("directory", directory, str),
                                  ("sig", sig, int)):
            if not isinstance(value, kind):
                raise TypeError(f"OnRequestExit: `{name}` must be a {kind.__name__}, got "
                                 f"{value!r}")
        if hasattr(signal, "SIGKILL") and sig == signal.SIGKILL:
            raise ValueError("OnRequestExit: SIGKILL cannot be caught; choose another signal")
        self.save_ckpt, self.save_mindir, self.sig = save_ckpt, save_mindir, sig
        if save_mindir:
            warnings.warn("OnRequestExit: cellgraph cannot write MindIR; on exit only the "
                          "checkpoint is saved", stacklevel=2)
        if save_ckpt:
            os.makedirs(os.path.abspath(directory), exist_ok=True)
        self.train_file_path = os.path.abspath(os.path.join(directory, f"{file_name}_train"))
        self.eval_file_path = os.path.abspath(os.path.join(directory, f"{file_name}_eval"))
        self.exit = False

    def _handle_signal(self, signum, frame):
        self.exit = True

    def _listen(self):
        signal.signal(self.sig, self._handle_signal)

    def _resume(self, network, *paths):
        if not self.save_ckpt:
            return
        for path in paths:
            if os.path.isfile(f"{path}.ckpt"):
                load_checkpoint(f"{path}.ckpt", net=network)
                return

    def _stop_if_asked(self, run_context):
        if self.exit:
            run_context.request_stop()

    def _save(self, network, path):
        if self.exit and self.save_ckpt:
            save_checkpoint(network, f"{path}.ckpt")

    def on_train_begin(self, run_context):
        self._listen()
        self._resume(run_context.original_args().train_network, self.train_file_path)

    def on_train_step_end(self, run_context):
        self._stop_if_asked(run_context)

    def on_train_epoch_end(self, run_context):
        self._stop_if_asked(run_context)

    def on_train_end(self, run_context):
        self._save(run_context.original_args().train_network, self.train_file_path)

    def on_eval_begin(self, run_context):
        self._listen()
        self._resume(run_context.original_args().eval_network, self.eval_file_path,
                     self.train_file_path)

    def on_eval_step_end(self, run_context):
        self._stop_if_asked(run_context)

    def on_eval_end(self, run_context):
        self._save(run_context.original_args().eval_network, self.eval_file_path)
