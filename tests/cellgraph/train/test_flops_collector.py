"""FlopsUtilizationCollector: the compiled training step's flops (matrix products and
convolutions, forward and backward) as MindSpore 2.10 counts them: 6400 for its example's
Dense(10, 5) on batches of 32, 79488 for the small convolutional network below (recorded from
MindSpore), then the step times and MFU/HFU."""
import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import nn
from cellgraph.train import FlopsUtilizationCollector, Model


@pytest.fixture()
def graph_mode():
    mode = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=mode)


def _train(net, x, y, callback, epochs=2, batch=32):
    data = ds.NumpySlicesDataset(data={"x": x, "y": y}, shuffle=False).batch(batch)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss, nn.Momentum(net.trainable_params(), 0.01, 0.9))
    model.train(epochs, data, callbacks=[callback])


def test_mindspore_example(graph_mode, capsys):
    rng = np.random.default_rng(0)
    x = rng.random((64, 10), dtype=np.float32)
    y = rng.integers(0, 5, (64,)).astype(np.int32)
    _train(nn.Dense(10, 5), x, y, FlopsUtilizationCollector(2, computility=10e6))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("Full model flops is 6400.000000000001, Full hardware flops is "
                        "6400.000000000001, Shard model flops is 6400.0, Shard hardware flops "
                        "is 6400.0.")
    # every step but each data_size-th prints its time: steps 1 and 3 of 4
    assert len(lines) == 3
    assert all(line.startswith("Train per step time: ") and " mfu:" in line and " hfu:" in line
               for line in lines[1:])


def test_convolution_flops(graph_mode, capsys):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 4, 3, pad_mode="valid", has_bias=False)
            self.flat = nn.Flatten()
            self.fc = nn.Dense(4 * 6 * 6, 5)

        def construct(self, x):
            return self.fc(self.flat(self.conv(x)))

    rng = np.random.default_rng(0)
    x = rng.random((8, 3, 8, 8), dtype=np.float32)
    y = rng.integers(0, 5, (8,)).astype(np.int32)
    _train(Net(), x, y, FlopsUtilizationCollector(2, computility=1e9, full_flops=False),
           epochs=1, batch=4)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Shard model flops is 79488.0, Shard hardware flops is 79488.0."


def test_pynative_is_refused():
    mode = ms.get_context("mode")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    try:
        x = np.ones((4, 10), np.float32)
        with pytest.raises(ValueError, match="FlopsUtilizationCollector now only support graph "
                                             "mode."):
            _train(nn.Dense(10, 5), x, np.zeros(4, np.int32), FlopsUtilizationCollector(1),
                   epochs=1, batch=4)
    finally:
        ms.set_context(mode=mode)


def test_argument_checks():
    with pytest.raises(TypeError):
        FlopsUtilizationCollector(2, full_flops=1)
    with pytest.raises(ValueError, match="must be int and must > 0"):
        FlopsUtilizationCollector(0)


def test_ma_collector_files(graph_mode, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MA_LOG_DIR", str(tmp_path))
    x = np.ones((8, 10), np.float32)
    _train(nn.Dense(10, 5), x, np.zeros(8, np.int32),
           FlopsUtilizationCollector(2, enable_ma_collector=True), epochs=1, batch=4)
    assert capsys.readouterr().out == ""  # computility 1 with the collector: quiet
    flops = (tmp_path / "flops_rank_0.txt").read_text().splitlines()
    assert flops[0].startswith('flops{type="model_flops", rank_id="0"} 800.0 ')
    assert (tmp_path / "time_step_rank_0.txt").read_text().startswith(
        'time_monitor{type="per_step_time", rank_id="0"} ')
