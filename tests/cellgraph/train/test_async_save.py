"""save_checkpoint's asynchronous writes (a thread or forked process named asyn_save_ckpt, as
MindSpore's), ModelCheckpoint's waits, and async_ckpt_thread_status."""
from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn
from cellgraph.train import async_save


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), name="w")

    def construct(self, x):
        return x @ self.w


@pytest.mark.parametrize("mode", [True, "thread", "process"])
def test_async_save_writes_the_values_of_the_call(tmp_path, mode):
    if mode == "process" and sys.platform.startswith("win"):
        pytest.skip("no fork")
    net = Net()
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(net, path, async_save=mode)
    net.w.set_data(Tensor(np.zeros((2, 3), np.float32)))  # after the call: not in the file
    async_save.wait_async_save(mode)
    loaded = ms.load_checkpoint(path)
    np.testing.assert_array_equal(loaded["w"].asnumpy(), np.arange(6).reshape(2, 3))


def test_thread_status_sees_the_writing_thread(tmp_path, monkeypatch, caplog):
    started, release = threading.Event(), threading.Event()

    def slow_write(*args):
        started.set()
        release.wait(10)

    monkeypatch.setattr("cellgraph.train.serialization._write_ckpt", slow_write)
    assert ms.async_ckpt_thread_status() is False
    assert "'mindspore.async_ckpt_thread_status' is deprecated from version 2.5" in caplog.text
    ms.save_checkpoint(Net(), str(tmp_path / "a.ckpt"), async_save=True)
    started.wait(10)
    assert ms.train.async_ckpt_thread_status() is True
    release.set()
    async_save.wait_thread_save()
    assert ms.async_ckpt_thread_status() is False


def test_async_save_checks_as_mindspore(tmp_path):
    with pytest.raises(TypeError, match="the parameter 'async_save' must be bool or str, but got "
                                        "<class 'int'>"):
        ms.save_checkpoint(Net(), str(tmp_path / "a.ckpt"), async_save=1)
    with pytest.raises(ValueError, match="the argument 'async_save' can only be 'process' or "
                                         "'thread',but got threads"):
        ms.save_checkpoint(Net(), str(tmp_path / "a.ckpt"), async_save="threads")
    with pytest.raises(ValueError, match="can only be 'process' or 'thread'"):
        ms.train.CheckpointConfig(async_save="threads")


def test_model_checkpoint_saves_asynchronously(tmp_path):
    from cellgraph.train import CheckpointConfig, ModelCheckpoint, callback

    net = Net()
    config = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=2, async_save=True)
    saver = ModelCheckpoint(prefix="net", directory=str(tmp_path), config=config)
    params = callback._InternalCallbackParam(train_network=net, cur_epoch_num=1, batch_num=3,
                                             epoch_num=1, cur_step_num=0)
    run = callback.RunContext(params)
    for step in (1, 2, 3):
        params.cur_step_num = step
        saver.step_end(run)
    saver.end(run)
    assert not ms.async_ckpt_thread_status()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["net-1_2.ckpt", "net-1_3.ckpt"]
    np.testing.assert_array_equal(ms.load_checkpoint(str(tmp_path / "net-1_3.ckpt"))["w"]
                                  .asnumpy(), net.w.asnumpy())
