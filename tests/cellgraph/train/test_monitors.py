"""train.TimeMonitor's per-step time, as MindSpore 2.10 divides the epoch's time."""
import pytest

from cellgraph.train import RunContext, TimeMonitor
from cellgraph.train.callback import _InternalCallbackParam, _monitors


def _epoch(monitor, params, monkeypatch, seconds=2.0):
    clock = iter([10.0, 10.0 + seconds])
    monkeypatch.setattr(_monitors.time, "perf_counter", lambda: next(clock))
    run = RunContext(params)
    monitor.on_train_epoch_begin(run)
    monitor.on_train_epoch_end(run)


def test_the_epoch_s_steps_divide_its_time_before_data_size(monkeypatch, capsys):
    # vit.md's TimeMonitor(125) over an epoch of 4 steps: MindSpore divides by the 4
    _epoch(TimeMonitor(125), _InternalCallbackParam(batch_num=4), monkeypatch)
    assert capsys.readouterr().out == \
        "Train epoch time: 2000.000 ms, per step time: 500.000 ms\n"
    # no steps known: data_size
    _epoch(TimeMonitor(8), _InternalCallbackParam(batch_num=0), monkeypatch)
    assert capsys.readouterr().out == "Train epoch time: 2000.000 ms, per step time: 250.000 ms\n"


def test_neither_steps_nor_data_size_is_mindspore_s_error(monkeypatch):
    with pytest.raises(TypeError, match="The input value must be int, but got 'NoneType'"):
        _epoch(TimeMonitor(), _InternalCallbackParam(batch_num=0), monkeypatch)
    with pytest.raises(ValueError, match="must > 0, but got '0'"):
        _epoch(TimeMonitor(0), _InternalCallbackParam(batch_num=0), monkeypatch)
