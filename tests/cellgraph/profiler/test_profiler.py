"""The profiler times every kernel a Cell runs, per step and schedule, and writes readable
statistics and traces; stopping restores the backend."""
from __future__ import annotations

import csv
import json
import os

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn
from cellgraph.profiler import (
    ProfilerAction,
    ProfilerActivity,
    mstx,
    profile,
    schedule,
    tensorboard_trace_handler,
)
from cellgraph.runtime import backend as rb


def mlp_and_input():
    net = nn.SequentialCell(nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 2))
    return net, Tensor(np.ones((3, 4), np.float32))


def test_every_kernel_is_counted_and_the_files_are_written(tmp_path):
    net, x = mlp_and_input()
    expected = net(x).asnumpy()
    prof = ms.Profiler(output_path=str(tmp_path))
    assert rb.get_backend().name == "numpy+profiler"
    for _ in range(3):
        np.testing.assert_allclose(net(x).asnumpy(), expected, rtol=1e-6)
    prof.stop()
    assert rb.get_backend().name == "numpy"
    counts = {s.op_type: s.count for s in prof.op_statistics()}
    assert counts["matmul"] == 6 and counts["relu"] == 3  # two Dense layers, three calls
    stats = prof.op_statistics()
    assert sum(s.ratio_percent for s in stats) == pytest.approx(100.0)
    assert json.loads(prof.op_analyse("relu"))["relu"]["count"] == 3
    assert "matmul" in prof.table()
    prof.analyse()
    with open(tmp_path / "profiler" / "op_statistic.csv") as f:
        rows = {r["op_type"]: r for r in csv.DictReader(f)}
    assert int(rows["matmul"]["count"]) == 6
    trace = json.loads((tmp_path / "profiler" / "trace_view.json").read_text())
    assert len(trace["traceEvents"]) == len(prof.events)
    net(x)
    assert len(prof.events) == sum(counts.values())  # nothing recorded after stop


def test_pynative_ops_are_timed_too():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    try:
        with profile() as prof:
            a = Tensor(np.arange(4, dtype=np.float32))
            (a * a + a).asnumpy()
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)
    assert {s.op_type: s.count for s in prof.op_statistics()} == {"mul": 1, "add": 1}


def test_schedule_actions():
    plan = schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1)
    actions = [plan(step) for step in range(7)]
    assert actions == [ProfilerAction.NONE, ProfilerAction.NONE, ProfilerAction.WARM_UP,
                       ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE,
                       ProfilerAction.NONE, ProfilerAction.NONE]


def test_scheduled_cycles_go_to_the_trace_handler(tmp_path):
    net, x = mlp_and_input()
    handled = []
    write = tensorboard_trace_handler(str(tmp_path), worker_name="w")

    def on_ready(prof):
        handled.append(sorted({e.step for e in prof.events}))
        write(prof)

    with profile(schedule=schedule(wait=1, active=2, repeat=2), on_trace_ready=on_ready) as p:
        for _ in range(6):
            net(x)
            mstx.mark("step")
            p.step()
    assert handled == [[1, 2], [4, 5]]
    trace = json.loads((tmp_path / "w_2" / "trace_view.json").read_text())
    assert sum(e["cat"] == "mstx" for e in trace["traceEvents"]) == 2  # steps 1 and 2


def test_mstx_range_and_unsupported_counters():
    with pytest.warns(UserWarning, match="NPU"):
        prof = ms.Profiler(activities=[ProfilerActivity.CPU, ProfilerActivity.NPU])
    range_id = mstx.range_start("block")
    Tensor(np.ones(2, np.float32)) + 1
    mstx.range_end(range_id)
    prof.stop()
    assert [m[0] for m in prof.recording.markers] == ["block"]
    assert prof.recording.markers[0][2] > 0
    with pytest.raises(ValueError, match="no open range"):
        mstx.range_end(range_id)


def test_analyse_replaces_planted_symlinks_and_keeps_worker_names_inside(tmp_path):
    from cellgraph.profiler import tensorboard_trace_handler
    from cellgraph.safe_io import UnsafePathError

    net, x = mlp_and_input()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / "out" / "profiler").mkdir(parents=True)
    for name in ("op_statistic.csv", "kernel_details.csv", "trace_view.json"):
        (tmp_path / "out" / "profiler" / name).symlink_to(victim)
    prof = ms.Profiler(output_path=str(tmp_path / "out"))
    net(x)
    prof.stop()
    prof.analyse()
    assert victim.read_text() == "precious"
    assert not (tmp_path / "out" / "profiler" / "trace_view.json").is_symlink()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "out2").mkdir()
    (tmp_path / "out2" / "profiler").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(UnsafePathError, match="leads outside"):
        prof.analyse(offline_path=str(tmp_path / "out2"))
    assert os.listdir(tmp_path / "elsewhere") == []
    with pytest.raises(UnsafePathError, match="leads outside"):
        tensorboard_trace_handler(str(tmp_path / "tb"), worker_name="../../escaped")(prof)


def test_offline_analyse_logs_and_returns_as_mindspore_does(tmp_path, caplog):
    from cellgraph.profiler.profiler import analyse

    with caplog.at_level("ERROR", logger="cellgraph"):
        assert analyse(str(tmp_path / "missing")) is None
        assert analyse(str(tmp_path)) is None
        (tmp_path / "host_1_ascend_ms").mkdir()
        assert analyse(str(tmp_path)) is None
    messages = [r.getMessage() for r in caplog.records]
    assert "No such file or directory" in messages[0]
    assert "Expected a *_ascend_ms_* directory" in messages[1]
    assert "cannot parse the Ascend raw profiling data" in messages[2]
