"""Checkpoint and callback idioms from training scripts: an EvalCallBack that runs model.eval
at epoch ends and keeps the best checkpoint, cb_params fields, LambdaCallback, ModelCheckpoint
with append_info, save_checkpoint with append_dict and the list-of-dicts form,
load_checkpoint(net=...), filter_prefix and choice_func."""
import os

import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph import Tensor, nn
from cellgraph.train import (
    Callback,
    CheckpointConfig,
    LambdaCallback,
    Model,
    ModelCheckpoint,
)


class EvalCallBack(Callback):
    def __init__(self, model, eval_dataset, ckpt_path, eval_per_epoch=1):
        super().__init__()
        self.model = model
        self.eval_dataset = eval_dataset
        self.eval_per_epoch = eval_per_epoch
        self.ckpt_path = ckpt_path
        self.best_acc = 0.0
        self.accuracies = []
        self.seen = []

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        cur_epoch = cb_params.cur_epoch_num
        self.seen.append((cur_epoch, cb_params.cur_step_num, cb_params.batch_num,
                          cb_params.epoch_num))
        if cur_epoch % self.eval_per_epoch == 0:
            acc = self.model.eval(self.eval_dataset, dataset_sink_mode=False)["acc"]
            self.accuracies.append(acc)
            if acc > self.best_acc:
                self.best_acc = acc
                ms.save_checkpoint(cb_params.train_network, self.ckpt_path,
                                   append_dict={"epoch": cur_epoch, "acc": float(acc)})


def dataset(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, size=n).astype(np.int32)
    x = (rng.normal(size=(n, 3)) + 1.5 * y[:, None]).astype(np.float32)
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(10)


def test_eval_callback_keeps_the_best_checkpoint(tmp_path):
    ms.set_seed(0)
    net = nn.Dense(3, 2)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.SGD(net.trainable_params(), 0.1), metrics={"acc"})
    best = str(tmp_path / "best.ckpt")
    evaluator = EvalCallBack(model, dataset(40, 1), best)
    lines = []
    printer = LambdaCallback(on_train_epoch_end=lambda ctx: lines.append(
        ctx.original_args().cur_epoch_num))
    config = CheckpointConfig(save_checkpoint_steps=6, keep_checkpoint_max=3,
                              append_info=["epoch_num", "step_num"])
    saver = ModelCheckpoint(prefix="net", directory=str(tmp_path), config=config)
    model.train(4, dataset(60, 0), callbacks=[evaluator, printer, saver],
                dataset_sink_mode=False)
    assert lines == [1, 2, 3, 4]
    assert evaluator.seen == [(1, 6, 6, 4), (2, 12, 6, 4), (3, 18, 6, 4), (4, 24, 6, 4)]
    assert evaluator.best_acc == max(evaluator.accuracies) > evaluator.accuracies[0]
    saved = ms.load_checkpoint(best)
    assert int(saved["epoch"].asnumpy()) == 1 + evaluator.accuracies.index(evaluator.best_acc)
    np.testing.assert_allclose(float(saved["acc"].asnumpy()), evaluator.best_acc, rtol=1e-6)
    listed = sorted(f for f in os.listdir(tmp_path) if f.startswith("net"))
    assert [f for f in listed if f.endswith(".ckpt")] == ["net-2_6.ckpt", "net-3_6.ckpt",
                                                         "net-4_6.ckpt"]
    last = ms.load_checkpoint(str(tmp_path / "net-4_6.ckpt"))
    assert int(last["epoch_num"].asnumpy()) == 4 and int(last["step_num"].asnumpy()) == 24


@pytest.mark.filterwarnings("ignore:load_param_into_net")  # the extra "note" entry
def test_save_forms_and_load_filters(tmp_path):
    net = nn.SequentialCell(nn.Dense(2, 3), nn.ReLU(), nn.Dense(3, 1))
    path = str(tmp_path / "manual.ckpt")
    items = [{"name": name, "data": param} for name, param in net.parameters_and_names()]
    items.append({"name": "note", "data": Tensor(np.array([7.0], np.float32))})
    ms.save_checkpoint(items, path)
    everything = ms.load_checkpoint(path)
    assert sorted(everything) == ["0.bias", "0.weight", "2.bias", "2.weight", "note"]
    without_head = ms.load_checkpoint(path, filter_prefix="2.")
    assert sorted(without_head) == ["0.bias", "0.weight", "note"]
    weights_only = ms.load_checkpoint(path, choice_func=lambda name: name.endswith("weight"))
    assert sorted(weights_only) == ["0.weight", "2.weight"]

    other = nn.SequentialCell(nn.Dense(2, 3), nn.ReLU(), nn.Dense(3, 1))
    ms.load_checkpoint(path, net=other)
    x = Tensor(np.array([[1.0, -1.0]], np.float32))
    np.testing.assert_array_equal(other(x).asnumpy(), net(x).asnumpy())


def test_model_checkpoint_in_safetensors_format(tmp_path):
    ms.set_seed(0)
    net = nn.Dense(3, 2)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.SGD(net.trainable_params(), 0.1))
    config = CheckpointConfig(save_checkpoint_steps=6, keep_checkpoint_max=1,
                              format="safetensors")
    saver = ModelCheckpoint(prefix="net", directory=str(tmp_path), config=config)
    model.train(1, dataset(60, 0), callbacks=[saver], dataset_sink_mode=False)
    assert sorted(os.listdir(tmp_path)) == ["net-1_6.safetensors"]
    saved = ms.load_checkpoint(str(tmp_path / "net-1_6.safetensors"), format="safetensors")
    np.testing.assert_array_equal(saved["weight"].asnumpy(), net.weight.asnumpy())
    with pytest.raises(ValueError, match="format"):
        CheckpointConfig(format="npz")
    with pytest.raises(NotImplementedError, match="remove_redundancy"):
        CheckpointConfig(remove_redundancy=True)
