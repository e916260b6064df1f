"""SummaryRecord writes add_value's values and the summary operations' (run inside compiled
networks) under their steps; read_summary reads them back; SummaryCollector records the loss."""
from __future__ import annotations

import os

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.train.summary import read_summary


class Summarised(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scalar, self.tensor = ops.ScalarSummary(), ops.TensorSummary()
        self.image, self.histogram = ops.ImageSummary(), ops.HistogramSummary()

    def construct(self, x):
        y = x * 2
        self.scalar("total", y.sum())
        self.tensor("y", y)
        self.image("picture", y.reshape((1, 1, 2, 3)))
        self.histogram("spread", y)
        return y


def test_summary_ops_in_a_graph_are_written_per_step(tmp_path):
    net = Summarised()
    with ms.SummaryRecord(str(tmp_path)) as record:
        for step in (1, 2):
            x = np.arange(6, dtype=np.float32) * step
            net(Tensor(x))
            record.add_value("scalar", "lr", Tensor(np.float32(0.5 / step)))
            record.record(step)
    entries = read_summary(record.path)
    by_key = {(e["step"], e["tag"]): e for e in entries}
    assert len(entries) == 10
    assert by_key[(2, "total")]["value"] == pytest.approx(60.0)
    assert by_key[(1, "lr")]["value"] == pytest.approx(0.5)
    np.testing.assert_array_equal(by_key[(2, "y")]["value"], np.arange(6) * 4.0)
    assert by_key[(1, "picture")]["value"].shape == (1, 1, 2, 3)
    histogram = by_key[(1, "spread")]
    assert sum(histogram["counts"]) == 6 and histogram["max"] == 10.0 and histogram["min"] == 0


def test_checks(tmp_path):
    record = ms.SummaryRecord(str(tmp_path))
    with pytest.raises(ValueError, match="MindInsight"):
        record.add_value("graph", "g", None)
    with pytest.raises(ValueError, match="not to hold a valid image"):
        ops.ImageSummary()("img", Tensor(np.ones((2, 2), np.float32)))
    record.add_value("scalar", "bad", Tensor(np.ones(3, np.float32)))
    with pytest.raises(ValueError, match="one value"):
        record.record(0)
    record.close()
    with pytest.raises(RuntimeError, match="closed"):
        record.record(1)


def test_summary_collector_records_the_loss(tmp_path):
    from cellgraph.dataset import NumpySlicesDataset

    ms.set_seed(0)
    net = nn.Dense(3, 1)
    x = np.random.default_rng(0).standard_normal((8, 3)).astype(np.float32)
    data = NumpySlicesDataset((x, x[:, :1]), ["x", "y"], shuffle=False).batch(2)
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    history = ms.History()
    collector = ms.SummaryCollector(str(tmp_path), collect_freq=2)
    model.train(1, data, callbacks=[collector, history])
    entries = read_summary(collector.record.path)
    # as MindSpore's: the first step, then every collect_freq steps, and the epoch's end
    # (its step again, as in MindSpore); the loss, and histograms of the optimizer's first five
    # parameters (the inputs are no images: a warning, and no more tries)
    losses = [e for e in entries if e["plugin"] == "scalar"]
    assert [e["step"] for e in losses] == [1, 2, 4, 4]
    assert all(e["tag"] == "loss/auto" and np.isfinite(e["value"]) for e in losses)
    histograms = [(e["step"], e["tag"]) for e in entries if e["plugin"] == "histogram"]
    assert histograms == [(s, t) for s in (1, 2, 4, 4) for t in ("weight/auto", "bias/auto")]


def test_summary_ops_run_on_the_host_from_another_backend(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("array_api_compat")
    from cellgraph.runtime import backend as rb

    previous = rb.get_backend().name
    rb.set_backend("torch")
    try:
        net = Summarised()
        with ms.SummaryRecord(str(tmp_path)) as record:
            net(Tensor(np.arange(6, dtype=np.float32)))
            record.record(3)
    finally:
        rb.set_backend(previous)
    by_tag = {e["tag"]: e for e in read_summary(record.path)}
    assert by_tag["total"]["value"] == pytest.approx(30.0) and by_tag["total"]["step"] == 3


def test_summary_file_refuses_planted_symlinks_and_escaping_names(tmp_path, monkeypatch):
    import socket

    from cellgraph.safe_io import UnsafePathError
    from cellgraph.train.summary import record as record_module

    monkeypatch.setattr(record_module.time, "time", lambda: 1234)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    logs = tmp_path / "logs"
    logs.mkdir()
    name = f"events.summary.1234.{socket.gethostname()}_MS.jsonl"
    (logs / name).symlink_to(victim)
    with pytest.raises(UnsafePathError, match="symbolic link"):
        ms.SummaryRecord(str(logs))
    assert victim.read_text() == "precious"
    with pytest.raises(ValueError, match="illegal"):  # MindSpore's check of the characters
        ms.SummaryRecord(str(logs), file_prefix="../../escaped")
    with ms.SummaryRecord(str(logs), file_prefix="ok") as record:
        record.add_value("scalar", "loss", Tensor(np.array(1.0, np.float32)))
        record.record(1)
    assert os.path.dirname(record.path) == str(logs)


def test_summary_record_module_caches_values_by_mindspore_names(tmp_path):
    """MindSpore's tests put values under "TAG[:TYPE]" with `_cache_summary_tensor_data` for
    the next record, and read a network's summary values back with
    `_record_summary_tensor_data` then `_get_summary_tensor_data`."""
    from cellgraph.train.summary.summary_record import (
        SummaryRecord,
        _cache_summary_tensor_data,
        _get_summary_tensor_data,
        _record_summary_tensor_data,
    )

    with SummaryRecord(str(tmp_path), file_suffix="_MS_HISTOGRAM") as record:
        assert _cache_summary_tensor_data(
            [{"name": "test_data[:Histogram]", "data": Tensor([[1, 2, 3], [4, 5, 6]])}])
        record.record(step=1)
    (entry,) = read_summary(record.path)
    assert (entry["step"], entry["plugin"], entry["tag"]) == (1, "histogram", "test_data")
    assert entry["count"] == 6
    assert _get_summary_tensor_data() == {}  # the record took them

    Summarised()(Tensor(np.arange(6, dtype=np.float32)))
    _record_summary_tensor_data()
    data = _get_summary_tensor_data()
    assert sorted(data) == ["picture[:Image]", "spread[:Histogram]", "total[:Scalar]",
                            "y[:Tensor]"]
    np.testing.assert_array_equal(data["y[:Tensor]"].asnumpy(), np.arange(6) * 2.0)
    assert data["total[:Scalar]"].asnumpy() == 30


def test_a_cached_name_without_a_type_is_skipped_with_a_warning(tmp_path):
    from cellgraph.train.summary.summary_record import SummaryRecord, _cache_summary_tensor_data

    with SummaryRecord(str(tmp_path)) as record:
        _cache_summary_tensor_data([{"name": "loss", "data": Tensor(np.float32(1))}])
        with pytest.warns(UserWarning, match="expected 'TAG\\[:TYPE\\]'"):
            record.record(1)
    assert read_summary(record.path) == []
