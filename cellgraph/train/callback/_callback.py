"""Callback, RunContext and the parameters a training run shows its callbacks.

`Model` calls each hook of every callback in order, with one RunContext whose
`original_args()` is the run's parameters (`cb_params`): train_network, epoch_num, batch_num,
cur_epoch_num, cur_step_num, net_outputs, ... read as attributes. A callback stops training
with `run_context.request_stop()`. The 1.x hook names (begin, epoch_begin, step_end, ...) are
what the 2.x ones call by default, so callbacks written either way work.
"""
from __future__ import annotations

import warnings
from contextlib import ExitStack

import numpy as np

__all__ = ["Callback", "CallbackManager", "CallbackParams", "RunContext"]


def _handle_loss(loss):
    """A step's outputs as MindSpore's callbacks read the loss from them: a tuple or list
    whose first item is a Tensor gives that Tensor; a Tensor gives the mean of its values as a
    float; anything else comes back unchanged."""
    if isinstance(loss, (tuple, list)):
        if loss and hasattr(loss[0], "asnumpy"):
            loss = loss[0]
    elif hasattr(loss, "asnumpy"):
        loss = float(np.mean(loss.asnumpy()))
    return loss


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


class CallbackManager(Callback):
    """Several callbacks called as one, in order (MindSpore's `_CallbackManager`): a Callback,
    a list of Callbacks or None. `with` enters every callback (and exits them, in reverse, on
    the way out), as Model does around a run."""

    def __init__(self, callbacks):
        self._callbacks, self._stack = [], None
        if isinstance(callbacks, Callback):
            self._callbacks.append(callbacks)
        elif isinstance(callbacks, list):
            for cb in callbacks:
                if not isinstance(cb, Callback):
                    raise TypeError("When the 'callbacks' is a list, the elements in "
                                    "'callbacks' must be Callback functions.")
                self._callbacks.append(cb)
        elif callbacks is not None:
            raise TypeError("The 'callbacks' is not a Callback or a list of Callback.")

    @property
    def callbacks(self) -> list:
        return list(self._callbacks)

    def __enter__(self):
        if self._stack is None:
            callbacks, self._stack = [], ExitStack().__enter__()
            for callback in self._callbacks:
                target = self._stack.enter_context(callback)
                if not isinstance(target, Callback):
                    warnings.warn("Please return 'self' or a Callback as the enter target.",
                                  stacklevel=2)
                    callbacks.append(callback)
                else:
                    callbacks.append(target)
            self._callbacks = callbacks
        return self

    def __exit__(self, *err):
        return self._stack.__exit__(*err)


def _forward(hook):
    def call(self, run_context):
        for cb in self._callbacks:
            getattr(cb, hook)(run_context)

    call.__name__, call.__qualname__ = hook, f"CallbackManager.{hook}"
    call.__doc__ = f"Call `{hook}` of every callback, in order."
    return call


for _hook in ("begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end",
              "on_train_begin", "on_train_epoch_begin", "on_train_epoch_end",
              "on_train_step_begin", "on_train_step_end", "on_train_end", "on_eval_begin",
              "on_eval_epoch_begin", "on_eval_epoch_end", "on_eval_step_begin",
              "on_eval_step_end", "on_eval_end"):
    setattr(CallbackManager, _hook, _forward(_hook))
del _hook


# the network `checkpoint_cb_for_save_op` fills (MindSpore's graph-kernel checkpoint hook)
_CUR_NET = None


def set_cur_net(net) -> None:
    """The training network the next `checkpoint_cb_for_save_op` loads parameters into."""
    global _CUR_NET
    _CUR_NET = net


def checkpoint_cb_for_save_op(parameter_list) -> bool:
    """Load `parameter_list` ([{"name": name, "data": Tensor}, ...], emptied on the way) into
    the network `set_cur_net` named, then forget it; False (with a warning) when none is set."""
    from cellgraph.runtime.tensor import Parameter, Tensor
    from cellgraph.train.serialization import load_param_into_net

    if _CUR_NET is None:
        warnings.warn("CUR_NET is None. parameters are not updated.", stacklevel=2)
        return False
    parameters = {}
    while parameter_list:
        item = parameter_list.pop(0)
        value = item["data"].asnumpy()
        parameters[item["name"]] = Parameter(Tensor(value), name=item["name"])
    load_param_into_net(_CUR_NET, parameters, strict_load=True)
    set_cur_net(None)
    return True
