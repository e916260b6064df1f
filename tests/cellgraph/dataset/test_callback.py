"""dataset.callback: the DSCallback hooks a map calls, in MindSpore's order and with its run
context, and WaitedDSCallback's waits on training."""
import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset.callback import DSCallback, WaitedDSCallback


class Recorder(DSCallback):
    def __init__(self, events, step_size=1, name="cb"):
        super().__init__(step_size)
        self.events, self.name = events, name

    def _log(self, event, ctx):
        self.events.append((self.name, event, ctx.cur_epoch_num, ctx.cur_step_num_in_epoch,
                            ctx.cur_step_num))

    def ds_begin(self, ctx):
        self._log("begin", ctx)

    def ds_epoch_begin(self, ctx):
        self._log("epoch_begin", ctx)

    def ds_epoch_end(self, ctx):
        self._log("epoch_end", ctx)

    def ds_step_begin(self, ctx):
        self._log("step_begin", ctx)

    def ds_step_end(self, ctx):
        self._log("step_end", ctx)


def _run(data, epochs):
    it = data.create_tuple_iterator(num_epochs=epochs)
    for _ in range(epochs):
        for _ in it:
            pass


def test_events_and_context_follow_mindspore():
    events = []
    data = ds.NumpySlicesDataset([1, 2, 3], shuffle=False)
    data = data.map(operations=(lambda x: x), callbacks=Recorder(events, step_size=2))
    _run(data, 2)
    assert events == [
        ("cb", "begin", 0, 0, 0),
        ("cb", "epoch_begin", 1, 0, 0),
        ("cb", "step_begin", 1, 1, 1), ("cb", "step_end", 1, 1, 1),
        ("cb", "step_begin", 1, 3, 3), ("cb", "step_end", 1, 3, 3),
        ("cb", "epoch_end", 1, 3, 3),
        ("cb", "epoch_begin", 2, 0, 3),
        ("cb", "step_begin", 2, 1, 4), ("cb", "step_end", 2, 1, 4),
        ("cb", "step_begin", 2, 3, 6), ("cb", "step_end", 2, 3, 6),
        ("cb", "epoch_end", 2, 3, 6),
    ]


def test_an_epoch_spans_the_repeats_below_it():
    events = []
    data = ds.NumpySlicesDataset([1, 2], shuffle=False)
    data = data.map(operations=(lambda x: x), callbacks=Recorder(events)).repeat(2)
    _run(data, 1)
    kinds = [e[1] for e in events]
    assert kinds.count("epoch_begin") == 1 and kinds.count("epoch_end") == 1
    assert events[-1] == ("cb", "epoch_end", 1, 4, 4)


def test_getters_run_no_callback():
    events = []
    data = ds.NumpySlicesDataset([1, 2, 3, 4], shuffle=False)
    data = data.map(operations=(lambda x: x), callbacks=[Recorder(events)])
    assert data.get_dataset_size() == 4
    assert data.output_shapes() == [[]]
    assert events == []


def test_errors_match_mindspore():
    class Nothing(DSCallback):
        pass

    def data():  # a node feeds one pipeline only
        return ds.NumpySlicesDataset([1, 2], shuffle=False)

    with pytest.raises(AttributeError, match="Inheriting Callback class without overriding any "
                                             "methods"):
        _run(data().map(operations=(lambda x: x), callbacks=Nothing()), 1)
    with pytest.raises(TypeError, match=r"Argument callbacks with value 1 is not of type"):
        data().map(operations=(lambda x: x), callbacks=1)
    with pytest.raises(ValueError, match=r"Input step_size is not within the required interval"):
        Recorder([], step_size=0)

    class Boom(DSCallback):
        def ds_step_begin(self, ctx):
            raise ValueError("boom")

    with pytest.raises(RuntimeError, match="ValueError: boom"):
        _run(data().map(operations=(lambda x: x), callbacks=Boom()), 1)


def test_waited_callback_waits_for_the_training_step():
    seen = []

    class Waited(WaitedDSCallback):
        def sync_step_begin(self, train_run_context, ds_run_context):
            seen.append((train_run_context, ds_run_context.cur_step_num))

    cb = Waited()
    data = ds.NumpySlicesDataset(np.arange(3), shuffle=False)
    data = data.map(operations=(lambda x: x), callbacks=cb)
    it = data.create_tuple_iterator(num_epochs=1)
    next(it)  # the first step does not wait
    cb.step_end("step 1 done")
    next(it)
    cb.end("trained")  # training ended: nothing waits any more
    list(it)
    assert seen == [("step 1 done", 2), ("trained", 3)]


def test_dataset_top_level_names_are_the_same_objects():
    """MindSpore's dataset package re-exports the callbacks, the debug hook and these
    configuration names; they are the very objects of their home modules."""
    from cellgraph.dataset import callback, config, debug

    assert ds.DSCallback is callback.DSCallback
    assert ds.WaitedDSCallback is callback.WaitedDSCallback
    assert ds.DebugHook is debug.DebugHook
    for name in ("ErrorSamplesMode", "get_enable_watchdog", "get_error_samples_mode",
                 "get_multiprocessing_start_method", "get_multiprocessing_timeout_interval",
                 "get_video_backend", "set_video_backend"):
        assert getattr(ds, name) is getattr(config, name)
    assert {"DSCallback", "WaitedDSCallback"} <= set(ds.__all__)
    # MindSpore 2.10's defaults
    assert ds.get_error_samples_mode() is ds.ErrorSamplesMode.RETURN
    assert ds.get_enable_watchdog() is True
    assert ds.get_multiprocessing_start_method() == "fork"


def test_model_train_drives_a_waited_callback_as_in_mindspore():
    """A step-size-2 DSCallback and WaitedDSCallback on a map under Model.train (two epochs of
    three batches of two rows). MindSpore 2.10 gives these events (the interleaving of a
    step's end with the next step's begin varies between its runs; each callback's own order
    and the training step numbers do not)."""
    from cellgraph import nn
    from cellgraph.train import Model

    events = []

    class Rec(DSCallback):
        def ds_begin(self, c):
            events.append(f"begin_{c.cur_epoch_num}_{c.cur_step_num}")

        def ds_epoch_begin(self, c):
            events.append(f"eb_{c.cur_epoch_num}_{c.cur_step_num}")

        def ds_epoch_end(self, c):
            events.append(f"ee_{c.cur_epoch_num}_{c.cur_step_num}")

        def ds_step_begin(self, c):
            events.append(f"sb_{c.cur_epoch_num}_{c.cur_step_num_in_epoch}_{c.cur_step_num}")

        def ds_step_end(self, c):
            events.append(f"se_{c.cur_epoch_num}_{c.cur_step_num_in_epoch}_{c.cur_step_num}")

    class Waited(WaitedDSCallback):
        def sync_epoch_begin(self, train_context, c):
            events.append(f"W_eb_{c.cur_epoch_num}_{c.cur_step_num}")

        def sync_step_begin(self, train_context, c):
            step = train_context.original_args().cur_step_num
            events.append(f"W_sb_{c.cur_epoch_num}_{c.cur_step_num}_{step}")

    x = np.arange(24, dtype=np.float32).reshape(6, 4) / 10
    y = np.arange(6, dtype=np.float32).reshape(6, 1)
    waited = Waited(2)
    data = ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False)
    data = data.map(lambda a: a, input_columns="x", callbacks=[Rec(2), waited]).batch(2)
    net = nn.Dense(4, 1)
    Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01)).train(
        2, data, callbacks=[waited], dataset_sink_mode=False)
    assert [e for e in events if e.startswith("W_")] == [
        "W_sb_1_3_1", "W_sb_1_5_2", "W_eb_2_6", "W_sb_2_7_3", "W_sb_2_9_4", "W_sb_2_11_5"]
    assert [e for e in events if not e.startswith(("W_", "se_"))] == [
        "begin_0_0", "eb_1_0", "sb_1_1_1", "sb_1_3_3", "sb_1_5_5", "ee_1_6", "eb_2_6",
        "sb_2_1_7", "sb_2_3_9", "sb_2_5_11", "ee_2_12"]
    assert [e for e in events if e.startswith("se_")] == [
        "se_1_1_1", "se_1_3_3", "se_1_5_5", "se_2_1_7", "se_2_3_9", "se_2_5_11"]
