"""LossMonitor, TimeMonitor, History, LambdaCallback and EarlyStopping."""
from __future__ import annotations

import numbers
import time

import numpy as np

from cellgraph._checkparam import check_positive_int

from ._callback import Callback

__all__ = ["EarlyStopping", "History", "LambdaCallback", "LossMonitor", "TimeMonitor"]


def loss_value(net_outputs) -> float | None:
    """The loss among a step's outputs (the first of a tuple), as a float."""
    loss = net_outputs
    if isinstance(loss, (tuple, list)) and loss:
        loss = loss[0]
    if hasattr(loss, "asnumpy"):
        return float(np.mean(loss.asnumpy()))
    if isinstance(loss, (numbers.Number, np.ndarray)):
        return float(np.mean(loss))
    return None


def monitored_value(cb_params, monitor: str) -> float | None:
    """"loss" (the last step's), or an evaluation result of Model.fit ("eval_loss" and
    "eval_acc" also find "loss" and "acc"); None when there is none yet."""
    if monitor == "loss":
        return loss_value(cb_params.get("net_outputs"))
    results = cb_params.get("eval_results") or {}
    for key in (monitor, monitor.removeprefix("eval_")):
        if key in results:
            return float(np.mean(results[key]))
    return None


def _step_in_epoch(cb_params) -> int:
    return (cb_params.cur_step_num - 1) % cb_params.batch_num + 1


def _non_negative_int(value, op: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(f"{op}: `{name}` must be an int >= 0, got {value!r}")
    return int(value)


class LossMonitor(Callback):
    """Prints `epoch: 1 step: 125, loss is 0.3052` every `per_print_times` steps (0: never),
    and the evaluation results after an epoch of `Model.fit`. A nan or inf loss stops the run
    with a ValueError."""

    def __init__(self, per_print_times=1):
        self._per_print_times = _non_negative_int(per_print_times, "LossMonitor",
                                                  "per_print_times")
        self._last_print_time = 0

    def on_train_begin(self, run_context):
        self._last_print_time = 0

    def on_train_step_end(self, run_context):
        cb_params = run_context.original_args()
        loss = loss_value(cb_params.net_outputs)
        step = _step_in_epoch(cb_params)
        if loss is not None and not np.isfinite(loss):
            raise ValueError(f"epoch: {cb_params.cur_epoch_num} step: {step}. Invalid loss "
                             f"{loss}, terminating training.")
        if self._per_print_times and \
                cb_params.cur_step_num - self._last_print_time >= self._per_print_times:
            self._last_print_time = cb_params.cur_step_num
            print(f"epoch: {cb_params.cur_epoch_num} step: {step}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            print(f"Eval result: epoch {cb_params.cur_epoch_num}, metrics: {metrics}",
                  flush=True)


class TimeMonitor(Callback):
    """Prints each epoch's time and the time per step:
    `Train epoch time: 1234.567 ms, per step time: 9.877 ms`; with `data_time`, also the
    time per step spent between steps fetching data: ` (data time: 1.234 ms)`."""

    def __init__(self, data_size=None, data_time=False):
        self.data_size = None if data_size is None else _non_negative_int(
            data_size, "TimeMonitor", "data_size")
        if not isinstance(data_time, bool):
            raise TypeError(f"TimeMonitor: `data_time` must be a bool, got {data_time!r}")
        self.data_time = data_time
        self.epoch_time = 0.0
        self._data_seconds = self._data_start = 0.0

    def on_train_epoch_begin(self, run_context):
        self.epoch_time = self._data_start = time.perf_counter()
        self._data_seconds = 0.0

    def on_train_step_begin(self, run_context):
        if self.data_time:
            self._data_seconds += time.perf_counter() - self._data_start

    def on_train_step_end(self, run_context):
        if self.data_time:
            self._data_start = time.perf_counter()

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        elapsed = (time.perf_counter() - self.epoch_time) * 1000
        # as MindSpore: the epoch's steps (batch_num) where the run knows them, else data_size
        batch_num = cb_params.get("batch_num")
        steps = batch_num if isinstance(batch_num, int) and batch_num > 0 else self.data_size
        check_positive_int(steps)
        data = f" (data time: {self._data_seconds * 1000 / steps:5.3f} ms)" \
            if self.data_time else ""
        print(f"Train epoch time: {elapsed:5.3f} ms, per step time: "
              f"{elapsed / steps:5.3f} ms{data}", flush=True)


class History(Callback):
    """Records each epoch's number (`epoch`, {"epoch": [1, 2, ...]} as MindSpore keeps it) and
    its last output (`history["net_output"]`: the mean of the first output Tensor, a NumPy
    scalar of its dtype) with the evaluation results."""

    def __init__(self):
        self.epoch = None
        self.history = {}

    def on_train_begin(self, run_context):
        self.epoch = {"epoch": []}

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        if self.epoch is None:  # epoch_end without a begin (a callback driven by hand)
            self.epoch = {"epoch": []}
        self.epoch["epoch"].append(cb_params.get("cur_epoch_num", 1))
        output = cb_params.get("net_outputs")
        if isinstance(output, (tuple, list)) and output and hasattr(output[0], "asnumpy"):
            output = output[0]
        if hasattr(output, "asnumpy"):
            output = np.mean(output.asnumpy())
        self.history.setdefault("net_output", []).append(output)
        for name, value in (cb_params.get("eval_results") or {}).items():
            self.history.setdefault(name, []).append(value)


class LambdaCallback(Callback):
    """A callback from functions: LambdaCallback(on_train_epoch_end=lambda ctx: ...)."""

    def __init__(self, on_train_epoch_begin=None, on_train_epoch_end=None,
                 on_train_step_begin=None, on_train_step_end=None, on_train_begin=None,
                 on_train_end=None, on_eval_epoch_begin=None, on_eval_epoch_end=None,
                 on_eval_step_begin=None, on_eval_step_end=None, on_eval_begin=None,
                 on_eval_end=None):
        hooks = dict(locals())
        del hooks["self"]
        for name, fn in hooks.items():
            if fn is not None:
                setattr(self, name, fn)


class EarlyStopping(Callback):
    """Stops training when `monitor` (an evaluation result of Model.fit, or "loss") has not
    improved by `min_delta` for `patience` epochs; optionally restores the best weights."""

    def __init__(self, monitor="eval_loss", min_delta=0, patience=0, verbose=False,
                 mode="auto", baseline=None, restore_best_weights=False):
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"EarlyStopping: `mode` must be 'auto', 'min' or 'max', got "
                             f"{mode!r}")
        self.monitor, self.patience = monitor, _non_negative_int(patience, "EarlyStopping",
                                                                 "patience")
        self.min_delta, self.verbose, self.baseline = abs(float(min_delta)), verbose, baseline
        self.restore_best_weights = bool(restore_best_weights)
        higher_better = mode == "max" or (mode == "auto" and "acc" in monitor)
        self.sign = 1.0 if higher_better else -1.0
        self.wait = self.stopped_epoch = 0
        self.best = None
        self.best_weights = None

    def on_train_begin(self, run_context):
        self.wait = self.stopped_epoch = 0
        self.best = None if self.baseline is None else float(self.baseline)
        self.best_weights = None

    def _value(self, cb_params):
        return monitored_value(cb_params, self.monitor)

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        value = self._value(cb_params)
        if value is None:
            return
        if self.best is None or self.sign * (value - self.best) > self.min_delta:
            self.best, self.wait = value, 0
            if self.restore_best_weights:
                self.best_weights = {p.name: p.asnumpy().copy()
                                     for p in cb_params.train_network.get_parameters()}
            return
        self.wait += 1
        if self.wait >= self.patience:
            self.stopped_epoch = cb_params.cur_epoch_num
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights is not None:
                for p in cb_params.train_network.get_parameters():
                    if p.name in self.best_weights:
                        p.set_data(self.best_weights[p.name])

    def on_train_end(self, run_context):
        if self.stopped_epoch and self.verbose:
            print(f"Epoch {self.stopped_epoch}: early stopping", flush=True)
