"""build_train_network at levels "O2" and "O3" leaves the network's own outputs in float16, as
MindSpore's: the loss cell it adds casts them (and the label) to float32, so the network a
user then calls for prediction returns float16, and a network given without a loss function
trains to a float16 loss."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, amp, nn


def _net():
    return nn.SequentialCell([nn.Dense(4, 3, weight_init="ones", bias_init="zeros"),
                              nn.BatchNorm1d(3), nn.ReLU(),
                              nn.Dense(3, 2, weight_init="ones", bias_init="zeros")])


_X = Tensor(np.arange(8, dtype=np.float32).reshape(2, 4) / 8)


@pytest.mark.parametrize("level", ["O2", "O3"])
def test_float16_levels_leave_the_network_output_float16(level):
    net = _net()
    step = amp.build_train_network(
        net, nn.Momentum(net.trainable_params(), 0.1, 0.9),
        nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), level=level,
        loss_scale_manager=None)
    loss = step(_X, Tensor(np.array([0, 1], np.int32)))
    assert loss.dtype == ms.float32
    np.testing.assert_allclose(loss.asnumpy(), 0.6931472, rtol=1e-6)
    net.set_train(False)
    out = net(_X)
    assert out.dtype == ms.float16  # MindSpore's numbers after the step
    np.testing.assert_allclose(out.asnumpy(), [[1.6044921875, 1.6865234375],
                                               [7.18359375, 7.55078125]], rtol=1e-3)


def test_a_network_without_loss_function_trains_to_its_own_dtype():
    net = _net()
    with_loss = nn.WithLossCell(net, nn.MSELoss())
    step = amp.build_train_network(with_loss, nn.Momentum(net.trainable_params(), 0.1, 0.9),
                                   level="O3")
    assert step(_X, Tensor(np.ones((2, 2), np.float32))).dtype == ms.float16
