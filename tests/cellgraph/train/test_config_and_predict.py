"""CheckpointConfig's settled policy and Model.predict's backend, as MindSpore has them."""
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
