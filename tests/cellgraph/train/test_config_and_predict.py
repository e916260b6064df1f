"""CheckpointConfig's settled policy and Model.predict's backend, as MindSpore has them."""
import os

import numpy as np
import pytest

from cellgraph import Tensor, nn
from cellgraph.train import CheckpointConfig, Model


def test_checkpoint_config_settles_its_policy_as_mindspore():
    config = CheckpointConfig()
    assert config.get_checkpoint_policy() == {
        "save_checkpoint_steps": 1, "save_checkpoint_seconds": None, "keep_checkpoint_max": 5,
        "keep_checkpoint_per_n_minutes": None, "saved_network": None}
    by_time = CheckpointConfig(save_checkpoint_steps=0, save_checkpoint_seconds=30,
                               keep_checkpoint_max=0, keep_checkpoint_per_n_minutes=2)
    assert (by_time.save_checkpoint_seconds, by_time.keep_checkpoint_per_n_minutes,
            by_time.keep_checkpoint_max) == (30, 2, 0)
    assert CheckpointConfig(keep_checkpoint_max=0).keep_checkpoint_max == 1
    for name in ("save_checkpoint_steps", "save_checkpoint_seconds", "keep_checkpoint_max",
                 "keep_checkpoint_per_n_minutes"):
        with pytest.raises(TypeError, match=name):
            CheckpointConfig(**{name: "abc"})
        with pytest.raises(ValueError, match=name):
            CheckpointConfig(**{name: -1})


def test_predict_takes_mindspores_backends():
    model = Model(nn.Dense(2, 1))
    x = Tensor(np.ones((1, 2), np.float32))
    expected = model.predict(x).asnumpy()
    with pytest.warns(UserWarning, match="Lite is not available"):
        np.testing.assert_array_equal(model.predict(x, backend="lite").asnumpy(), expected)
    for backend in ("gpu", 0):
        with pytest.raises(ValueError, match="`backend` should be 'lite' or None"):
            model.predict(x, backend=backend)


def test_checkpoint_config_without_steps_or_seconds_saves_nothing(tmp_path):
    # MindSpore 2.10: accepted while keep_checkpoint_max or its minutes are set; training then
    # writes no checkpoint, not even the last one; all four unset is a ValueError
    import cellgraph.dataset as ds
    from cellgraph.train import ModelCheckpoint

    for config in (CheckpointConfig(save_checkpoint_steps=0),
                   CheckpointConfig(save_checkpoint_steps=None, keep_checkpoint_max=3)):
        net = nn.Dense(3, 2, weight_init="ones")
        data = ds.NumpySlicesDataset({"x": np.ones((4, 3), np.float32),
                                      "y": np.zeros(4, np.int32)}, shuffle=False).batch(2)
        model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                      nn.SGD(net.trainable_params(), 0.1))
        model.train(2, data, callbacks=[ModelCheckpoint("n", str(tmp_path), config)],
                    dataset_sink_mode=False)
        assert os.listdir(tmp_path) == []
    with pytest.raises(ValueError, match="can't be all None or 0"):
        CheckpointConfig(save_checkpoint_steps=0, keep_checkpoint_max=0)


def test_loss_scale_managers_keep_the_scale_as_given():
    from cellgraph.train.loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager

    # MindSpore 2.10: an int scale comes back an int
    assert FixedLossScaleManager(128).get_loss_scale() == 128
    assert type(FixedLossScaleManager(128).get_loss_scale()) is int
    assert type(DynamicLossScaleManager(2 ** 10, 2, 100).get_loss_scale()) is int
    assert type(DynamicLossScaleManager().get_loss_scale()) is int
    assert type(FixedLossScaleManager().get_loss_scale()) is float
