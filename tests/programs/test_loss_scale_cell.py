"""The 1.x loss-scale training cell used directly: TrainOneStepWithLossScaleCell with a
DynamicLossScaleUpdateCell or a fixed scale Tensor, its (loss, overflow, scale) outputs, the
update skipped on overflow and the scale moving as the update cell's rules say."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn


def make_train_cell(scale_sense):
    ms.set_seed(0)
    net = nn.Dense(4, 1)
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)
    train = nn.TrainOneStepWithLossScaleCell(loss_net, opt, scale_sense=scale_sense)
    train.set_train()
    return net, train


def data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(16, 4)).astype(np.float32)
    y = (x @ np.array([[1.0], [2.0], [-1.0], [0.5]], np.float32)).astype(np.float32)
    return Tensor(x), Tensor(y)


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # the inf batch
def test_dynamic_scale_grows_then_halves_on_overflow():
    manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2 ** 10, scale_factor=2,
                                            scale_window=3)
    net, train = make_train_cell(manager)
    x, y = data()
    scales, losses = [], []
    for _ in range(6):
        loss, overflow, scale = train(x, y)
        assert not bool(overflow.asnumpy())
        losses.append(float(loss.asnumpy()))
        scales.append(float(scale.asnumpy()))
    assert losses[-1] < losses[0]
    # the scale doubles after every 3 overflow-free steps
    assert scales[0] == 1024.0 and max(scales) <= 4096.0
    assert float(train.scale_sense.asnumpy()) == 4096.0
    assert manager.get_loss_scale() == 2 ** 10  # the initial value, as in MindSpore

    weights = net.weight.asnumpy().copy()
    bad = Tensor(np.full((16, 4), np.inf, np.float32))
    loss, overflow, scale = train(bad, y)
    assert bool(overflow.asnumpy())
    np.testing.assert_array_equal(net.weight.asnumpy(), weights)  # the update was skipped
    assert float(train.scale_sense.asnumpy()) == 2048.0  # halved


def test_fixed_scale_tensor_matches_unscaled_training():
    _, scaled = make_train_cell(Tensor(np.array([128.0], np.float32)))
    ms.set_seed(0)
    net = nn.Dense(4, 1)
    plain = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                nn.Momentum(net.trainable_params(), 0.01, 0.9))
    x, y = data(1)
    for _ in range(3):
        loss_scaled, overflow, scale = scaled(x, y)
        loss_plain = plain(x, y)
        np.testing.assert_allclose(loss_scaled.asnumpy(), loss_plain.asnumpy(), rtol=1e-5)
        assert scale.asnumpy().tolist() == [128.0] and not bool(overflow.asnumpy())


def test_dynamic_update_cell_follows_mindspores_rule_and_state():
    """MindSpore 2.10's scales for this run of overflow flags (scale_window 3), and its state
    Parameters, which its checkpoints of loss-scaled training carry."""
    manager = nn.DynamicLossScaleUpdateCell(16.0, 2, 3)
    scale = ms.Parameter(Tensor(np.array(16.0, np.float32)), name="s")
    seen = []
    for flag in [0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0]:
        manager(scale, Tensor(bool(flag)))
        seen.append(float(scale.asnumpy()))
    assert seen == [16, 16, 32, 16, 16, 16, 32, 32, 16, 8, 8, 8, 16]
    assert [p.name for p in manager.get_parameters()] == [
        "current_iterator_step", "last_overflow_iterator_step"]
    assert int(manager.cur_iter.asnumpy()) == 14 and int(manager.last_overflow_iter.asnumpy()) == 13
