"""Model and the callbacks: what each hook sees, stopping, checkpoints, sink mode, data_sink."""
import os
import re
import warnings

import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import Model, Tensor, nn, train
from cellgraph.ops import functional as F
from cellgraph.train import callback


@pytest.fixture(autouse=True)
def _seeded():
    ms.set_seed(0)
    ds.config.set_seed(0)


def _regression(n=64, batch=8):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 3)).astype(np.float32)
    y = (x @ np.array([[1.0], [-2.0], [0.5]]) + 0.3).astype(np.float32)
    return ds.NumpySlicesDataset((x, y), ["x", "y"], shuffle=False).batch(batch)


def _model(**kwargs):
    net = nn.Dense(3, 1)
    opt = nn.SGD(net.trainable_params(), 0.05)
    return net, Model(net, nn.MSELoss(), opt, **kwargs)


class Recorder(callback.Callback):
    """Written with the 1.x hook names, which the 2.x ones call."""

    def __init__(self):
        self.events = []

    def begin(self, run_context):
        self.events.append(("begin", run_context.original_args().epoch_num))

    def epoch_begin(self, run_context):
        self.events.append(("epoch_begin", run_context.original_args().cur_epoch_num))

    def step_end(self, run_context):
        params = run_context.original_args()
        self.events.append(("step_end", params.cur_epoch_num, params.cur_step_num,
                            float(params.net_outputs.asnumpy())))

    def end(self, run_context):
        self.events.append(("end",))


def test_hooks_see_the_run_parameters_in_order():
    _, model = _model()
    recorder = Recorder()
    model.train(2, _regression(16, 8), callbacks=recorder)
    kinds = [e[0] for e in recorder.events]
    assert kinds == ["begin", "epoch_begin", "step_end", "step_end", "epoch_begin", "step_end",
                     "step_end", "end"]
    assert recorder.events[0] == ("begin", 2)
    assert [e[2] for e in recorder.events if e[0] == "step_end"] == [1, 2, 3, 4]
    losses = [e[3] for e in recorder.events if e[0] == "step_end"]
    assert losses[-1] < losses[0]


def test_cb_params_fields():
    seen = {}

    def grab(run_context):
        seen.update(run_context.original_args())

    net, model = _model()
    data = _regression(16, 8)
    model.train(1, data, callbacks=[train.LambdaCallback(on_train_end=grab)])
    assert seen["train_network"] is model.train_network and seen["network"] is net
    assert seen["batch_num"] == 2 and seen["epoch_num"] == 1 and seen["cur_step_num"] == 2
    assert seen["train_dataset"] is data and seen["dataset_sink_mode"] is False
    assert isinstance(seen["optimizer"], nn.SGD) and isinstance(seen["loss_fn"], nn.MSELoss)
    with pytest.raises(AttributeError, match="no field"):
        callback.CallbackParams().not_a_field  # noqa: B018


def test_request_stop_ends_training():
    class StopAtThree(callback.Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 3:
                run_context.request_stop()

    recorder = Recorder()
    _, model = _model()
    model.train(5, _regression(32, 8), callbacks=[StopAtThree(), recorder])
    assert [e[2] for e in recorder.events if e[0] == "step_end"] == [1, 2, 3]


def test_loss_monitor_and_time_monitor_print_as_mindspore(capsys):
    _, model = _model()
    model.train(2, _regression(32, 8), callbacks=[train.LossMonitor(2), train.TimeMonitor()])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(",")[0] for line in lines if "loss is" in line] == [
        "epoch: 1 step: 2", "epoch: 1 step: 4", "epoch: 2 step: 2", "epoch: 2 step: 4"]
    times = [line for line in lines if line.startswith("Train epoch time:")]
    assert len(times) == 2 and re.match(
        r"Train epoch time: \d+\.\d{3} ms, per step time: \d+\.\d{3} ms$", times[0])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the loss overflows on purpose
def test_loss_monitor_stops_on_a_nan_loss():
    net = nn.Dense(3, 1)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 1e30))
    with pytest.raises(ValueError, match="Invalid loss"):
        model.train(3, _regression(32, 8), callbacks=train.LossMonitor())


def test_history_and_fit_with_evaluation(capsys):
    _, model = _model(metrics={"mae": train.MAE(), "loss": train.Loss()})
    data = _regression()
    history = train.History()
    model.fit(3, data, data, callbacks=[history, train.LossMonitor(100)])
    assert history.epoch == {"epoch": [1, 2, 3]}   # as MindSpore keeps it
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert len(history.history["net_output"]) == 3
    assert "Eval result: epoch 3, metrics: {'mae': " in capsys.readouterr().out


def test_early_stopping_with_restored_weights():
    _, model = _model(metrics={"loss": train.Loss()})
    data = _regression()
    # a learning rate so large that the loss soon grows
    model._optimizer.learning_rate.set_data(np.array(1.5, np.float32))
    stopper = train.EarlyStopping(monitor="eval_loss", patience=1, restore_best_weights=True)
    history = train.History()
    model.fit(10, data, data, callbacks=[history, stopper])
    losses = history.history["loss"]
    assert stopper.stopped_epoch == len(losses) < 10
    assert losses[-1] > min(losses)
    assert model.eval(data)["loss"] == pytest.approx(min(losses), rel=1e-5)


def test_model_checkpoint_keeps_the_newest_and_a_fresh_prefix(tmp_path):
    _, model = _model()
    config = train.CheckpointConfig(save_checkpoint_steps=3, keep_checkpoint_max=2,
                                    append_info=["epoch_num", {"lr": 0.05}])
    saver = train.ModelCheckpoint("net", str(tmp_path), config)
    model.train(2, _regression(64, 8), callbacks=saver)
    # steps 3, 6, ..., 15 (epoch 2, step 7), then the last step at the end of training
    assert sorted(os.listdir(tmp_path)) == ["net-2_7.ckpt", "net-2_8.ckpt"]
    assert saver.latest_ckpt_file_name == str(tmp_path / "net-2_8.ckpt")
    params = ms.load_checkpoint(saver.latest_ckpt_file_name)
    assert int(params["epoch_num"].asnumpy()) == 2 and "global_step" in params
    again = train.ModelCheckpoint("net", str(tmp_path), config)
    model.train(1, _regression(24, 8), callbacks=again)
    assert os.path.basename(again.latest_ckpt_file_name) == "net_1-1_3.ckpt"


@pytest.fixture
def sinking_device():
    """A device_target that sinks (MindSpore's CPU does not): Ascend, run here on the CPU."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ms.set_context(device_target="Ascend")
    yield
    ms.set_context(device_target="CPU")


def test_sink_mode_calls_step_hooks_once_per_sink(sinking_device):
    recorder = Recorder()
    _, model = _model()
    model.train(3, _regression(32, 8), callbacks=recorder, dataset_sink_mode=True,
                sink_size=6)
    steps = [e[2] for e in recorder.events if e[0] == "step_end"]
    assert steps == [6, 12, 18]


def test_sink_mode_on_the_cpu_trains_step_by_step():
    """MindSpore 2.10 on the CPU: every step's callbacks, the whole dataset each epoch."""
    recorder = Recorder()
    _, model = _model()
    model.train(3, _regression(32, 8), callbacks=recorder, dataset_sink_mode=True,
                sink_size=6)
    steps = [e[2] for e in recorder.events if e[0] == "step_end"]
    assert steps == list(range(1, 13))


def test_data_sink_runs_several_steps_per_call():
    ms.set_seed(0)
    net = nn.Dense(3, 1)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.SGD(net.trainable_params(), 0.05))
    sink = ms.data_sink(step, _regression(32, 8), sink_size=3)
    losses = [float(sink().asnumpy()) for _ in range(6)]  # 18 steps over 4-batch epochs
    assert losses[-1] < 0.2 * losses[0]
    assert step.optimizer.global_step.asnumpy().item() == 18


def test_eval_with_an_eval_network_and_indexes():
    net = nn.Dense(3, 2)
    x = np.random.default_rng(0).normal(size=(12, 3)).astype(np.float32)
    y = np.argmax(x[:, :2], axis=1).astype(np.int32)
    data = ds.NumpySlicesDataset((x, y), ["x", "y"], shuffle=False).batch(4)
    logits = net(Tensor(x)).asnumpy()
    expected = float((logits.argmax(1) == y).mean())

    class LabelFirst(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def construct(self, x, y):
            return y, self.net(x), x

    model = Model(net, eval_network=LabelFirst(net), eval_indexes=[2, 1, 0],
                  metrics={"acc": train.Accuracy()})
    assert model.eval(data)["acc"] == pytest.approx(expected)
    np.testing.assert_allclose(model.predict(Tensor(x)).asnumpy(), logits, rtol=1e-6)


def test_model_of_a_training_cell():
    net = nn.Dense(3, 1)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.SGD(net.trainable_params(), 0.05))
    model = Model(step)
    before = float(nn.WithLossCell(net, nn.MSELoss())(*next(iter(_regression()))).asnumpy())
    model.train(3, _regression())
    after = float(nn.WithLossCell(net, nn.MSELoss())(*next(iter(_regression()))).asnumpy())
    assert after < 0.5 * before
    assert model.train_network is step


def test_model_argument_errors():
    net = nn.Dense(3, 1)
    with pytest.raises(TypeError, match="Cell"):
        Model(lambda x: x)
    with pytest.raises(ValueError, match="unsupported keyword"):
        Model(net, nn.MSELoss(), nn.SGD(net.trainable_params()), amp_levl="O2")
    with pytest.raises(ValueError, match="metrics"):
        Model(net, nn.MSELoss(), nn.SGD(net.trainable_params())).eval(_regression())
    with pytest.raises(ValueError, match="epoch"):
        Model(net, nn.MSELoss(), nn.SGD(net.trainable_params())).train(0, _regression())


def test_module_paths():
    assert ms.Model is train.Model is ms.train.model.Model
    assert ms.LossMonitor is callback.LossMonitor is train.LossMonitor
    assert ms.FixedLossScaleManager is ms.amp.FixedLossScaleManager
    assert ms.train.loss_scale_manager.DynamicLossScaleManager is ms.DynamicLossScaleManager


def test_an_evaluation_inside_training_returns_to_training_mode():
    net = nn.SequentialCell([nn.Dense(3, 4), nn.BatchNorm1d(4), nn.Dense(4, 1)])
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01),
                  metrics={"loss": train.Loss()})
    data = _regression(16, 8)
    modes = []

    def evaluate(run_context):
        model.eval(data)
        modes.append(net[1].training)

    model.train(2, data, callbacks=train.LambdaCallback(on_train_epoch_end=evaluate))
    assert modes == [True, True]


class _Halve(nn.Cell):
    def construct(self, grads):
        return tuple(F.mul(g, 0.5) for g in grads)


def test_the_training_step_is_built_in_one_overridable_place():

    class HalvedGradients(Model):
        """What a data-parallel Model does: wrap the step's gradients (here: halve them)."""

        def _build_train_network(self):
            step = super()._build_train_network()
            step.grad_reducer = _Halve()  # a Cell in place of the Identity, as MindSpore needs
            return step

    nets = [nn.Dense(3, 1), nn.Dense(3, 1)]
    for p, q in zip(nets[1].get_parameters(), nets[0].get_parameters()):
        p.set_data(q.asnumpy())
    HalvedGradients(nets[0], nn.MSELoss(), nn.SGD(nets[0].trainable_params(), 0.1)).train(
        1, _regression(8, 8))
    Model(nets[1], nn.MSELoss(), nn.SGD(nets[1].trainable_params(), 0.05)).train(
        1, _regression(8, 8))
    np.testing.assert_allclose(nets[0].weight.asnumpy(), nets[1].weight.asnumpy(), rtol=1e-6)


def test_lambda_callback_takes_mindspore_hooks_by_position():
    seen = []
    cb = callback.LambdaCallback(lambda ctx: seen.append("epoch_begin"),
                                 lambda ctx: seen.append("epoch_end"))
    cb.on_train_epoch_begin(None)
    cb.on_train_epoch_end(None)
    assert seen == ["epoch_begin", "epoch_end"]
    with pytest.raises(TypeError):
        callback.LambdaCallback(on_train_epoch=print)


def test_internal_callback_param_is_the_callback_parameters_class():
    from cellgraph.train.callback import _InternalCallbackParam

    params = _InternalCallbackParam()
    params.cur_step_num = 3
    assert params == {"cur_step_num": 3} and params.cur_step_num == 3
    assert _InternalCallbackParam is callback.CallbackParams


def test_dataset_sink_mode_must_be_a_bool():
    _, model = _model()
    for mode in ("True", 1):
        with pytest.raises(TypeError, match="dataset_sink_mode"):
            model.train(1, _regression(16, 8), dataset_sink_mode=mode)


class _OneShot:
    """A dataset whose iterator is itself and is never renewed: it gives its batches once."""

    def __init__(self, batches):
        self._batches = list(batches)
        self._next = 0

    def get_dataset_size(self):
        return len(self._batches)

    def get_batch_size(self):
        return 8

    def create_tuple_iterator(self, num_epochs=-1, do_copy=True):
        return self

    def __iter__(self):
        return self

    def __next__(self):
        if self._next >= len(self._batches):
            raise StopIteration
        self._next += 1
        return self._batches[self._next - 1]


def test_a_sink_ends_where_the_dataset_runs_dry(sinking_device):
    """As in MindSpore, a dataset that gives no more rows ends the sink (the later epochs run
    no steps) instead of failing the run."""
    x = np.ones((8, 3), np.float32)
    data = _OneShot([(Tensor(x), Tensor(x[:, :1]))] * 2)
    recorder = Recorder()
    _, model = _model()
    model.train(3, data, callbacks=recorder, dataset_sink_mode=True)
    assert [e[2] for e in recorder.events if e[0] == "step_end"] == [2, 2, 2]


def test_backup_and_restore(tmp_path):
    backup = str(tmp_path / "backup")
    net, model = _model()
    keep = train.BackupAndRestore(backup, save_freq=2, delete_checkpoint=False)
    assert ms.BackupAndRestore is train.BackupAndRestore is callback.BackupAndRestore
    model.train(2, _regression(16, 8), callbacks=keep)
    saved = {p.name: p.asnumpy().copy() for p in net.trainable_params()}
    assert os.path.isfile(keep.backup_file)
    # a fresh run restores the backup first
    fresh, restored = _model()
    seen = {}

    class Look(callback.Callback):
        def on_train_begin(self, run_context):
            seen.update({p.name: p.asnumpy().copy() for p in fresh.trainable_params()})

    restored.train(1, _regression(16, 8), callbacks=[train.BackupAndRestore(backup), Look()])
    assert all(np.array_equal(seen[k], v) for k, v in saved.items())
    assert not os.path.exists(keep.backup_file)  # delete_checkpoint=True by default
    with pytest.raises(TypeError):
        train.BackupAndRestore(backup, delete_checkpoint=1)
    with pytest.raises((TypeError, ValueError)):
        train.BackupAndRestore(backup, save_freq=0)


class _Entered(callback.Callback):
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, *err):
        self.log.append("exit")

    def on_train_begin(self, run_context):
        self.log.append("begin")


def test_model_enters_its_callbacks_around_a_run():
    """As MindSpore's Model: `with` around the run enters every callback and exits it."""
    log = []
    _, model = _model()
    model.train(1, _regression(16, 8), callbacks=[_Entered(log)])
    assert log == ["enter", "begin", "exit"]
    manager = callback._CallbackManager
    with pytest.raises(TypeError, match="not a Callback or a list of Callback"):
        manager((_Entered(log),))
    with pytest.raises(TypeError, match="must be Callback functions"):
        manager([1])


def test_checkpoint_cb_for_save_op_fills_the_current_network():
    net = nn.Dense(2, 1)
    callback._set_cur_net(net)
    weight = Tensor(np.full((1, 2), 3.0, np.float32))
    assert callback._checkpoint_cb_for_save_op([{"name": "weight", "data": weight}]) is True
    np.testing.assert_array_equal(net.weight.asnumpy(), weight.asnumpy())
    with pytest.warns(UserWarning, match="CUR_NET is None"):
        assert callback._checkpoint_cb_for_save_op([{"name": "weight", "data": weight}]) is False


def test_a_new_checkpoint_prefix_past_existing_files(tmp_path):
    from cellgraph.train.callback._checkpoint import _chg_ckpt_file_name_if_same_exist

    assert _chg_ckpt_file_name_if_same_exist(str(tmp_path), "ckpt") == "ckpt"
    for name in ("ckpt-1_1.ckpt", "ckpt_3-1_1.ckpt", "ckpt_9-1_1.txt", "ckpt_4-1_breakpoint.ckpt"):
        (tmp_path / name).write_text("")
    assert _chg_ckpt_file_name_if_same_exist(str(tmp_path), "ckpt") == "ckpt_4"
    assert _chg_ckpt_file_name_if_same_exist(str(tmp_path), "ckpt", exception=True) == "ckpt_5"


def test_train_fault_tolerance_needs_ascend():
    with pytest.raises(ValueError, match="ckpt_save_fn or ckpt_save_path"):
        train.TrainFaultTolerance()
    with pytest.raises(ValueError, match="only support on Ascend device"):
        train.TrainFaultTolerance(ckpt_save_path="./ckpt")


def test_model_checkpoint_with_callable_names(tmp_path):
    """MindSpore's custom names: a callable prefix names the whole file (PREFIX.ckpt), a callable
    directory is called at each save; a plain directory is made when the callback is."""
    config = train.CheckpointConfig(save_checkpoint_steps=2)
    made = tmp_path / "made_now"
    train.ModelCheckpoint(directory=str(made))
    assert made.is_dir()
    cb_params = callback._InternalCallbackParam(
        train_network=nn.Dense(2, 1), cur_epoch_num=1, cur_step_num=2, batch_num=4,
        epoch_num=1)
    run_context = callback.RunContext(cb_params)
    named = train.ModelCheckpoint(prefix=lambda p: f"{p.cur_step_num}_custom",
                                  directory=lambda p: str(tmp_path / "custom"), config=config)
    named.step_end(run_context)  # the 1.x hook, as MindSpore's ModelCheckpoint defines it
    assert (tmp_path / "custom" / "2_custom.ckpt").is_file()
    with pytest.raises(ValueError, match="must be callable or string that does not contain"):
        train.ModelCheckpoint(prefix="a/b")


def test_on_request_exit_attributes(tmp_path):
    cb = train.OnRequestExit(save_ckpt=False, save_mindir=False, directory=str(tmp_path),
                             config_file="./reset.json")
    assert cb.save_path == str(tmp_path) and cb.is_distributed is False
    assert cb.remote_config_file == "./reset.json"


def test_metrics_need_an_eval_network():
    """MindSpore's Model refuses metrics it cannot evaluate: no loss_fn and no eval_network."""
    with pytest.raises(ValueError, match="If `metrics` is set, `eval_network` must not be None"):
        Model(nn.ReLU(), metrics={"acc"})
    with pytest.raises(TypeError):  # the metrics are checked first
        Model(nn.ReLU(), metrics={"top5": None})
    assert Model(nn.ReLU(), nn.SoftmaxCrossEntropyWithLogits(), metrics={"acc"}).eval_network
    assert Model(nn.ReLU(), eval_network=nn.ReLU(), metrics={"acc"}).eval_network


def test_metrics_are_a_dict_or_a_set():
    """MindSpore's get_metrics: None, a dict or a set; a list, a tuple or a str is a
    TypeError."""
    loss = nn.SoftmaxCrossEntropyWithLogits()
    for bad in (["acc"], ("acc",), (), "acc"):
        with pytest.raises(TypeError, match="must be None, dict or set"):
            Model(nn.ReLU(), loss, metrics=bad)
    assert Model(nn.ReLU(), loss, metrics={"acc"}).eval_network is not None
    Model(nn.ReLU(), loss, metrics=set())
