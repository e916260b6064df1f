"""DynamicProfilerMonitor: the steps named in profiler_config.json are recorded, the file is
re-read while training, and the results land in rank{r}_start{a}_stop{b}/profiler/."""
from __future__ import annotations

import csv
import json
import os

import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn
from cellgraph.profiler import DynamicProfilerMonitor
from cellgraph.runtime import backend as rb


def _write_config(folder, **config):
    path = os.path.join(folder, "profiler_config.json")
    with open(path, "w") as f:
        json.dump(config, f)
    stat = os.stat(path)  # a new mtime even within the clock's resolution
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))


def _matmul_count(folder) -> int:
    with open(os.path.join(folder, "profiler", "op_statistic.csv")) as f:
        rows = {row["op_type"]: row for row in csv.DictReader(f)}
    return int(rows["matmul"]["count"])


def test_hand_written_loop_records_the_configured_steps(tmp_path):
    cfg = tmp_path / "cfg"
    net = nn.Dense(4, 2)
    x = Tensor(np.ones((3, 4), np.float32))
    monitor = DynamicProfilerMonitor(str(cfg), str(tmp_path / "out"), poll_interval=0)
    assert json.loads((cfg / "profiler_config.json").read_text())["start_step"] == -1
    net(x)
    monitor.step()  # step 1: nothing configured yet
    _write_config(str(cfg), start_step=3, stop_step=4)
    for _ in range(5):  # steps 2..6
        net(x)
        monitor.step()
    assert monitor.results == [os.path.join(str(tmp_path / "out"), "rank0_start3_stop4")]
    assert _matmul_count(monitor.results[0]) == 2  # steps 3 and 4 only, one matmul each
    assert rb.get_backend().name == "numpy"  # the profiler stopped


def test_model_train_callback(tmp_path):
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    _write_config(str(cfg), start_step=2, stop_step=2)

    def rows():
        for _ in range(4):
            yield np.ones((2, 2), np.float32), np.ones((2, 2), np.float32)

    data = ms.dataset.GeneratorDataset(rows, ["x", "y"])
    net = nn.Dense(2, 2)
    model = ms.train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01))
    monitor = DynamicProfilerMonitor(str(cfg), str(tmp_path / "out"), poll_interval=0)
    model.train(1, data, callbacks=[monitor])
    assert monitor.steps_done == 4
    assert len(monitor.results) == 1 and monitor.results[0].endswith("rank0_start2_stop2")
    assert os.path.isfile(os.path.join(monitor.results[0], "profiler", "op_statistic.csv"))
