"""Callback, RunContext and the parameters a training run shows its callbacks.

`Model` calls each hook of every callback in order, with one RunContext whose
`original_args()` is the run's parameters (`cb_params`): train_network, epoch_num, batch_num,
cur_epoch_num, cur_step_num, net_outputs, ... read as attributes. A callback stops training
with `run_context.request_stop()`. The 1.x hook names (begin, epoch_begin, step_end, ...) are
what the 2.x ones call by default, so callbacks written either way work.
"""
from __future__ import annotations

__all__ = ["Callback", "CallbackParams", "RunContext"]


class CallbackParams(dict):
    """The run's parameters: a dict whose keys read and write as attributes."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"cb_params has no field {name!r}; it has "
                                 f"{', '.join(sorted(self))}") from None

    def __setattr__(self, name, value):
        self[name] = value


class RunContext:
    """What a callback is given: the run's parameters and a way to stop it."""

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError(f"RunContext: `original_args` must be a dict, got "
                            f"{type(original_args).__name__}")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        return self._original_args

    def request_stop(self):
        """Stop after the current step."""
        self._stop_requested = True

    def get_stop_requested(self) -> bool:
        return self._stop_requested


class Callback:
    """Base class: override the hooks you need."""

    def __enter__(self):
        return self

    def __exit__(self, *err):
        return None

    # 1.x names
    def begin(self, run_context):
        """Before training."""

    def epoch_begin(self, run_context):
        """Before each epoch."""

    def epoch_end(self, run_context):
        """After each epoch."""

    def step_begin(self, run_context):
        """Before each step."""

    def step_end(self, run_context):
        """After each step."""

    def end(self, run_context):
        """After training."""

    # 2.x names
    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    def on_eval_begin(self, run_context):
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        self.step_end(run_context)

    def on_eval_end(self, run_context):
        self.end(run_context)


class CallbackList:
    """Several callbacks called as one, in order."""

    def __init__(self, callbacks):
        if callbacks is None:
            callbacks = []
        elif isinstance(callbacks, Callback):
            callbacks = [callbacks]
        callbacks = list(callbacks)
        for cb in callbacks:
            if not isinstance(cb, Callback):
                raise TypeError(f"callbacks: expected Callback objects, got "
                                f"{type(cb).__name__}")
        self.callbacks = callbacks

    def __getattr__(self, hook):
        if not hook.startswith("on_"):
            raise AttributeError(hook)

        def call(run_context):
            for cb in self.callbacks:
                getattr(cb, hook)(run_context)
        return call
