"""OnRequestExit (a real signal stops training and saves the weights, which the next run
loads) and DatasetHelper."""
import os
import signal

import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import Model, nn, train
from cellgraph.train.dataset_helper import DatasetHelper


@pytest.fixture(autouse=True)
def _seeded():
    ms.set_seed(0)
    ds.config.set_seed(0)
    previous = signal.getsignal(signal.SIGUSR1)
    yield
    signal.signal(signal.SIGUSR1, previous)


def _data(n=64, batch=8):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]])).astype(np.float32)
    return ds.NumpySlicesDataset((x, y), ["x", "y"], shuffle=False).batch(batch)


class _SignalAt(train.Callback):
    def __init__(self, step):
        self.step, self.steps = step, 0

    def on_train_step_end(self, run_context):
        self.steps += 1
        if self.steps == self.step:
            os.kill(os.getpid(), signal.SIGUSR1)


def test_a_signal_stops_training_and_saves_then_the_next_run_resumes(tmp_path):
    net = nn.Dense(3, 1)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.05))
    with pytest.warns(UserWarning, match="MindIR"):
        on_exit = train.OnRequestExit(file_name="lin", directory=str(tmp_path),
                                      sig=signal.SIGUSR1)
    counter = _SignalAt(3)
    model.train(5, _data(), callbacks=[counter, on_exit])
    assert counter.steps == 3  # stopped after the step that received the signal
    saved = tmp_path / "lin_train.ckpt"
    assert saved.is_file()
    weights = ms.load_checkpoint(str(saved))
    np.testing.assert_allclose(weights["weight"].asnumpy(), net.weight.asnumpy())
    fresh = nn.Dense(3, 1)
    resumed = train.OnRequestExit(save_mindir=False, file_name="lin", directory=str(tmp_path),
                                  sig=signal.SIGUSR1)
    at_start = {}
    seen = train.LambdaCallback(on_train_begin=lambda ctx: at_start.update(
        {p.name: p.asnumpy().copy() for p in ctx.original_args().train_network.get_parameters()}))
    Model(fresh, nn.MSELoss(), nn.SGD(fresh.trainable_params(), 0.01)).train(
        1, _data(), callbacks=[resumed, seen])
    np.testing.assert_allclose(at_start["weight"], net.weight.asnumpy())  # loaded first
    np.testing.assert_allclose(at_start["learning_rate"], 0.05)  # the optimizer's state too
    assert not (tmp_path / "lin_eval.ckpt").exists()


def test_on_request_exit_argument_errors():
    with pytest.raises(TypeError, match="save_ckpt"):
        train.OnRequestExit(save_ckpt=1, save_mindir=False)
    with pytest.raises(ValueError, match="SIGKILL"):
        train.OnRequestExit(save_mindir=False, sig=signal.SIGKILL)


def test_dataset_helper_steps_and_sinks():
    data = _data(n=40, batch=8)  # 5 batches
    plain = DatasetHelper(data, dataset_sink_mode=False)
    firsts = [float(batch[0].asnumpy()[0, 0]) for batch in plain]
    assert len(firsts) == 5 == len(plain) and plain.sink_size() == 1
    sink = DatasetHelper(data, dataset_sink_mode=True, sink_size=3)
    assert sink.sink_size() == 3
    loops = [float(b[0].asnumpy()[0, 0]) for _ in range(3) for b in sink]
    assert loops == (firsts + firsts)[:9]  # sinks run on across epochs
    types, shapes = sink.types_shapes()
    assert shapes == [[8, 3], [8, 1]] and types == [np.float32, np.float32]
    assert DatasetHelper(data).sink_size() == 5
    sink.stop_send()
    with pytest.raises(RuntimeError, match="it was stopped"):
        next(iter(sink))
    sink.continue_send()  # a new iterator, from the start of an epoch
    assert [float(b[0].asnumpy()[0, 0]) for b in sink] == firsts[:3]
    with pytest.raises(ValueError, match="sink_size"):
        DatasetHelper(data, sink_size=0)
    # MindSpore's types: a bool sink mode, an int sink size
    for kwargs in ({"dataset_sink_mode": 1}, {"sink_size": True}, {"sink_size": 1.0}):
        with pytest.raises(TypeError, match=next(iter(kwargs))):
            DatasetHelper(data, **kwargs)


def test_a_config_file_asks_for_the_graceful_exit(tmp_path, monkeypatch):
    config = tmp_path / "graceful_exit.json"
    net = nn.Dense(3, 1)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.05))
    # without MS_ENABLE_GRACEFUL_EXIT=1 the file is not read, as in MindSpore
    config.write_text('{"GracefulExit": 1}')
    on_exit = train.OnRequestExit(save_mindir=False, file_name="g", directory=str(tmp_path),
                                  config_file=str(config))
    steps = train.LambdaCallback(on_train_step_end=lambda ctx: seen.append(1))
    seen = []
    model.train(1, _data(), callbacks=[on_exit, steps])
    assert len(seen) == 8 and not (tmp_path / "g_train.ckpt").exists()

    monkeypatch.setenv("MS_ENABLE_GRACEFUL_EXIT", "1")
    config.write_text('{"GracefulExit": 0}')
    on_exit = train.OnRequestExit(save_mindir=False, file_name="g", directory=str(tmp_path),
                                  config_file=str(config))

    def ask_at_third_step(ctx):
        seen.append(1)
        if len(seen) == 3:
            config.write_text('{"GracefulExit": 1}')

    seen = []
    model.train(2, _data(), callbacks=[train.LambdaCallback(on_train_step_end=ask_at_third_step),
                                       on_exit])
    assert len(seen) == 4  # the file is read as the fourth step begins; that step ends it
    saved = ms.load_checkpoint(str(tmp_path / "g_train.ckpt"))
    assert int(saved["step_num"].asnumpy()) == 4 and int(saved["epoch_num"].asnumpy()) == 1
    np.testing.assert_allclose(saved["weight"].asnumpy(), net.weight.asnumpy())


def test_unsupported_cluster_options_are_refused_by_name():
    with pytest.raises(TypeError, match="remove_redundancy"):  # stand-alone, as MindSpore
        ms.load_param_into_net(nn.Dense(1, 1), {}, remove_redundancy=True)
