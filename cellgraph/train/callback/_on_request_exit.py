"""OnRequestExit: stop training (or evaluation) cleanly when the process receives a signal,
saving the network's weights first, so a job a scheduler pre-empts can resume later."""
from __future__ import annotations

import json
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

    With the environment variable MS_ENABLE_GRACEFUL_EXIT=1, a JSON `config_file` holding
    `{"GracefulExit": 1}` asks for the same exit, as MindSpore's graceful exit does: it is read
    as each step begins; after that step the training network is saved to
    `FILE_NAME_train.ckpt` with epoch_num, step_num, batch_num and global_step, and training
    stops.

    MindIR export is not available in cellgraph, so `save_mindir=True` warns once and saves
    only the checkpoint."""

    def __init__(self, save_ckpt=True, save_mindir=True, file_name="Net", directory="./",
                 config_file=None, sig=signal.SIGTERM):
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
        self.remote_config_file = config_file
        self.save_path = directory
        self.is_distributed = _group_size() > 1
        self.key = "GracefulExit"
        self.use_graceful = os.environ.get("MS_ENABLE_GRACEFUL_EXIT") == "1"
        self.need_do_step_end = self.stop_train = False

    def _check_config_info(self) -> bool:
        """Whether the config file asks for the exit (an unreadable file does not: it warns)."""
        if self.remote_config_file is None or not os.path.exists(self.remote_config_file):
            return False
        with open(self.remote_config_file, encoding="utf-8") as f:
            try:
                config_info = json.load(f)
            except json.JSONDecodeError as e:
                warnings.warn(f"Parse json file failed: {e}, please check json file: "
                              f"{self.remote_config_file}", stacklevel=2)
                return False
        return isinstance(config_info, dict) and config_info.get(self.key) == 1

    def on_train_step_begin(self, run_context):
        if self.use_graceful and not self.stop_train and (self._check_config_info() or
                                                            self.exit):
            self.need_do_step_end = True

    def _graceful_step_end(self, run_context) -> None:
        if self.stop_train or not self.need_do_step_end:
            return
        params = run_context.original_args()
        if self.save_ckpt:
            append = {"epoch_num": params.cur_epoch_num, "step_num": params.cur_step_num,
                      "batch_num": params.batch_num}
            manager = getattr(params, "loss_scale_mananger", None)
            if manager is not None:
                append["loss_scale"] = manager.get_loss_scale()
            optimizer = getattr(params, "optimizer", None)
            if optimizer is not None and hasattr(optimizer, "global_step"):
                append["global_step"] = int(optimizer.global_step.asnumpy().reshape(-1)[0])
            # the optimizer's global_step is a parameter of the network already: saved once
            names = {p.name for p in params.train_network.get_parameters()}
            append = {k: v for k, v in append.items() if k not in names}
            save_checkpoint(params.train_network, self.train_file_path, append_dict=append)
        run_context.request_stop()
        self.stop_train = True

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
        self._graceful_step_end(run_context)
        self._stop_if_asked(run_context)

    def on_train_epoch_end(self, run_context):
        self._graceful_step_end(run_context)
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


def _group_size() -> int:
    """The ranks of the job (1 stand-alone), as MindSpore's `get_group_size` counts them."""
    from cellgraph.primitives.comm_ops import WORLD_COMM_GROUP
    from cellgraph.runtime import distributed

    if not distributed.is_initialized():
        return 1
    return distributed.group_rank_and_size(WORLD_COMM_GROUP)[1]
