"""cellgraph.dataset.callback: DSCallback, the hooks a map operation calls as its rows pass
(mindspore.dataset.callback), and WaitedDSCallback, which holds the pipeline until the training
step (or epoch) before has ended.

A map's callbacks see the pipeline's epochs (one pass of the iterator, every repeat below
included) and steps (the rows through the map, counted within the epoch and in all): ds_begin
once, before the first epoch; ds_epoch_begin and ds_epoch_end around each epoch; ds_step_begin
and ds_step_end around every `step_size`-th row's operations.
"""
from __future__ import annotations

import threading

from cellgraph.dataset.core.validator_helpers import check_pos_int32
from cellgraph.train import Callback

__all__ = ["DSCallback", "WaitedDSCallback"]


class DSRunContext:
    """What a dataset callback is told: the epoch (from 1), the step within it and in all."""

    def __init__(self):
        self.cur_epoch_num = 0
        self.cur_step_num_in_epoch = 0
        self.cur_step_num = 0


class DSCallback:
    """Base of the dataset callbacks: override ds_begin, ds_epoch_begin, ds_epoch_end,
    ds_step_begin or ds_step_end; the step hooks run every `step_size` rows."""

    def __init__(self, step_size=1):
        check_pos_int32(step_size, "step_size")
        self.step_size = step_size

    def ds_begin(self, ds_run_context):
        """Called before the data pipeline is started."""

    def ds_epoch_begin(self, ds_run_context):
        """Called before a new epoch is started."""

    def ds_epoch_end(self, ds_run_context):
        """Called after an epoch is finished."""

    def ds_step_begin(self, ds_run_context):
        """Called before a step starts."""

    def ds_step_end(self, ds_run_context):
        """Called after a step finishes."""

    def _hooks(self) -> dict:
        """The hooks this callback overrides, by event, as MindSpore builds its runtime object;
        a callback that overrides none is refused."""
        hooks = {name: getattr(self, name) for name in
                 ("ds_begin", "ds_epoch_begin", "ds_epoch_end", "ds_step_begin", "ds_step_end")
                 if getattr(type(self), name) is not getattr(DSCallback, name)}
        if not hooks:
            raise AttributeError("Inheriting Callback class without overriding any methods, "
                                 "check the usage of user defined Callback.")
        return hooks


class WaitedDSCallback(Callback, DSCallback):
    """A dataset callback synchronised with training: from the second step (epoch) on, its
    ds_step_begin (ds_epoch_begin) waits for the training callback's step_end (epoch_end) and
    then calls sync_step_begin (sync_epoch_begin) with both contexts. Give it to the map and to
    Model.train's callbacks."""

    def __init__(self, step_size=1):
        super().__init__()
        check_pos_int32(step_size, "step_size")
        self.step_size = step_size
        self.step_event = threading.Event()
        self.step_run_context = None
        self.epoch_event = threading.Event()
        self.epoch_run_context = None
        self.training_ended = False

    def sync_epoch_begin(self, train_run_context, ds_run_context):
        """Called before a new dataset epoch, after the previous training epoch ended."""

    def sync_step_begin(self, train_run_context, ds_run_context):
        """Called before a new dataset step, after the previous training step ended."""

    def epoch_end(self, run_context):
        self.epoch_run_context = run_context
        self.epoch_event.set()

    def ds_epoch_begin(self, ds_run_context):
        from cellgraph.dataset.core import config

        if ds_run_context.cur_epoch_num > 1:
            if not self.training_ended:
                success = self.epoch_event.wait(timeout=config.get_callback_timeout())
                self.epoch_event.clear()
                if not success:
                    raise RuntimeError(f"ds_epoch_begin timed out after "
                                       f"{config.get_callback_timeout()} second(s).")
            self.sync_epoch_begin(self.epoch_run_context, ds_run_context)

    def step_end(self, run_context):
        self.step_run_context = run_context
        self.step_event.set()

    def ds_step_begin(self, ds_run_context):
        from cellgraph.dataset.core import config

        if ds_run_context.cur_step_num > self.step_size:
            if not self.training_ended:
                success = self.step_event.wait(timeout=config.get_callback_timeout())
                self.step_event.clear()
                if not success:
                    raise RuntimeError(f"ds_step_begin timed out after "
                                       f"{config.get_callback_timeout()} second(s).")
            self.sync_step_begin(self.step_run_context, ds_run_context)

    def end(self, run_context):
        """Training has ended: release the pipeline's waits."""
        self.epoch_end(run_context)
        self.step_end(run_context)
        self.training_ended = True

    def _hooks(self) -> dict:
        hooks = {}
        if type(self).sync_step_begin is not WaitedDSCallback.sync_step_begin:
            hooks["ds_step_begin"] = self.ds_step_begin
        if type(self).sync_epoch_begin is not WaitedDSCallback.sync_epoch_begin:
            hooks["ds_epoch_begin"] = self.ds_epoch_begin
        if not hooks:
            raise AttributeError("Inheriting Callback class without overriding any methods, "
                                 "check the usage of user defined Callback.")
        return hooks


class _MapCallbacks:
    """One pass's state of a map's callbacks: the run context and which epoch is open."""

    def __init__(self, callbacks):
        self.callbacks = [(cb, cb._hooks()) for cb in callbacks]
        self.context = DSRunContext()
        self.begun = False
        self.open_epoch = None

    def _fire(self, event):
        for _, hooks in self.callbacks:
            hook = hooks.get(event)
            if hook is not None:
                _run(hook, self.context)

    def enter(self, epoch: int) -> None:
        """The map's rows are asked for in pass epoch `epoch` (from 0)."""
        if not self.begun:
            self.begun = True
            self._fire("ds_begin")
        if self.open_epoch != epoch:
            self.end_epoch()
            self.open_epoch = epoch
            self.context.cur_epoch_num = epoch + 1
            self.context.cur_step_num_in_epoch = 0
            self._fire("ds_epoch_begin")

    def end_epoch(self) -> None:
        if self.open_epoch is not None:
            self._fire("ds_epoch_end")
            self.open_epoch = None

    def step(self, run, row):
        """`run(row)` as one step, between the step hooks of the callbacks whose turn it is."""
        ctx = self.context
        ctx.cur_step_num_in_epoch += 1
        ctx.cur_step_num += 1
        due = [(cb, hooks) for cb, hooks in self.callbacks
               if (ctx.cur_step_num_in_epoch - 1) % cb.step_size == 0]
        for _, hooks in due:
            if "ds_step_begin" in hooks:
                _run(hooks["ds_step_begin"], ctx)
        out = run(row)
        for _, hooks in due:
            if "ds_step_end" in hooks:
                _run(hooks["ds_step_end"], ctx)
        return out


def _run(hook, context) -> None:
    """A callback hook; its error reaches the user as MindSpore reports an error of user code
    in the pipeline."""
    from cellgraph.dataset.nodes import user_code_error

    try:
        hook(context)
    except Exception as error:
        raise user_code_error(error) from error
