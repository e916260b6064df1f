"""Dataset.sync_wait / sync_update: the pipeline waits for the training loop, which feeds the
augmentation its state (MindSpore's augmentation tutorial); numbers recorded from MindSpore
2.10 running the same program."""
import threading
import time

import numpy as np
import pytest

from cellgraph import dataset as ds

# (epoch, batch) as MindSpore 2.10 gives them: one batch passes, then each sync_update lets the
# next through with the loss it sets; a new iterator starts with one free batch again
RECORDED = [(0, [1, 2]), (0, [13, 14]), (0, [25, 26]), (0, [37, 38]), (0, [49, 50]),
            (0, [61, 62]), (1, [61, 62]), (1, [73, 74]), (1, [85, 86]), (1, [97, 98]),
            (1, [109, 110]), (1, [121, 122])]


class Augment:
    def __init__(self):
        self.loss = 0

    def preprocess(self, value):
        return value + self.loss

    def update(self, data):
        self.loss = data["loss"]


def _pipeline(aug):
    data = ds.NumpySlicesDataset(np.arange(1, 13), ["data"], shuffle=False)
    data = data.sync_wait(condition_name="policy", callback=aug.update)
    return data.map(operations=[aug.preprocess], input_columns=["data"]).batch(2)


def test_training_loop_feeds_the_pipeline_as_in_mindspore():
    aug = Augment()
    data = _pipeline(aug)
    seen, count = [], 0
    for epoch in range(2):
        for row in data.create_tuple_iterator(num_epochs=1, output_numpy=True):
            seen.append((epoch, row[0].tolist()))
            count += 1
            data.sync_update(condition_name="policy", data={"loss": count * 10})
    assert seen == RECORDED


def test_errors_as_in_mindspore():
    data = _pipeline(Augment())
    with pytest.raises(RuntimeError, match="Condition name is already in use"):
        data.sync_wait("policy")
    with pytest.raises(RuntimeError, match="Condition name not found"):
        data.sync_update("other")
    with pytest.raises(RuntimeError, match="batch size can only be positive integer"):
        data.sync_update("policy", num_batch=0)
    with pytest.raises(ValueError, match="num_batch need to be greater than 0."):
        ds.NumpySlicesDataset([1, 2], ["x"]).sync_wait("c", num_batch=0)
    with pytest.raises(TypeError, match=r"is not of type \[<class 'int'>\]"):
        ds.NumpySlicesDataset([1, 2], ["x"]).sync_wait("c", num_batch="123")
    with pytest.raises(RuntimeError, match="No shuffle after sync operators."):
        data.shuffle(4)


def test_sync_wait_refused_in_independent_mode(monkeypatch):
    monkeypatch.setenv("MS_INDEPENDENT_DATASET", "True")
    with pytest.raises(RuntimeError, match="Dataset sync wait is not supported in Dataset "
                                           "Independent mode"):
        ds.NumpySlicesDataset([1, 2], ["x"]).sync_wait("c")


def test_independent_mode_refuses_mindspores_list(monkeypatch):
    """MindSpore 2.10 with MS_INDEPENDENT_DATASET=True: a cache (of a source or a map),
    sync_update, map callbacks and offload, AutoTune and auto offload are refused."""
    from cellgraph.dataset.callback import DSCallback

    data = ds.NumpySlicesDataset([1, 2], ["x"])
    monkeypatch.setenv("MS_INDEPENDENT_DATASET", "True")
    cache = ds.DatasetCache(session_id=1, size=0)
    refused = [
        ("Dataset Cache", lambda: ds.MnistDataset(".", cache=cache)),
        ("Dataset Cache", lambda: data.map(lambda x: x, cache=cache)),
        ("Dataset Callbacks", lambda: data.map(lambda x: x, callbacks=DSCallback())),
        ("Dataset Offload", lambda: data.map(lambda x: x, offload=True)),
        ("Dataset sync update", lambda: data.sync_update("c")),
        ("Dataset AutoTune", lambda: ds.config.set_enable_autotune(True)),
        ("Dataset Offload", lambda: ds.config.set_auto_offload(True)),
    ]
    for feature, call in refused:
        with pytest.raises(RuntimeError, match=f"{feature} is not supported in Dataset "
                                               f"Independent mode."):
            call()
    data.map(lambda x: x, offload=False)  # only what is turned on is refused
    ds.config.set_auto_offload(False)


def test_a_stopped_iterator_ends_its_blocked_worker():
    before = threading.active_count()
    data = _pipeline(Augment())
    it = data.create_tuple_iterator(num_epochs=1, output_numpy=True)
    next(it)  # the worker now waits in sync_wait for an update that never comes
    it.stop()
    deadline = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert threading.active_count() <= before
