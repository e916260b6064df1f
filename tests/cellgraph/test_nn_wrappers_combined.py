"""nn.WithGradCell, nn.ParameterUpdate, nn.Conv2dBnAct and nn.DenseBnAct, with values and
parameter names recorded from MindSpore 2.10."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import nn


def _inputs():
    return cg.Tensor(np.ones((4, 3), np.float32)), cg.Tensor(np.zeros((4, 2), np.float32))


def test_with_grad_cell_gives_the_parameters_gradients():
    net = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")
    grads = nn.WithGradCell(net, nn.MSELoss())(*_inputs())
    assert [g.shape for g in grads] == [(2, 3), (2,)]
    np.testing.assert_allclose(grads[0].asnumpy(), np.full((2, 3), 3.0))     # MindSpore's
    scaled = nn.WithGradCell(net, nn.MSELoss(), sens=cg.Tensor(2.0))(*_inputs())
    np.testing.assert_allclose(scaled[0].asnumpy(), np.full((2, 3), 6.0))    # MindSpore's
    with pytest.raises(TypeError):
        nn.WithGradCell(lambda x: x)


def test_parameter_update_assigns_its_input():
    param = cg.Parameter(cg.Tensor(np.zeros(2, np.float32)), name="p")
    out = nn.ParameterUpdate(param)(cg.Tensor(np.ones(2, np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [1, 1])
    np.testing.assert_array_equal(param.asnumpy(), [1, 1])
    with pytest.raises(TypeError):
        nn.ParameterUpdate(cg.Tensor(np.zeros(2, np.float32)))


def test_combined_layers_name_their_parts_as_mindspore():
    conv = nn.Conv2dBnAct(3, 4, 3, has_bn=True, activation="relu")
    assert [p.name for p in conv.get_parameters()] == [             # MindSpore's order
        "conv.weight", "batchnorm.moving_mean", "batchnorm.moving_variance",
        "batchnorm.gamma", "batchnorm.beta"]
    assert conv(cg.Tensor(np.ones((1, 3, 5, 5), np.float32))).shape == (1, 4, 5, 5)
    dense = nn.DenseBnAct(3, 4, has_bn=True, activation="leakyrelu", alpha=0.1)
    assert isinstance(dense.activation, nn.LeakyReLU)
    assert [p.name for p in dense.get_parameters()] == [
        "dense.weight", "dense.bias", "batchnorm.moving_mean", "batchnorm.moving_variance",
        "batchnorm.gamma", "batchnorm.beta"]
    x = cg.Tensor(np.array([[-1.0, 2.0, 0.5], [0.3, -0.2, 1.0]], np.float32))
    plain = nn.DenseBnAct(3, 2, weight_init="ones", activation="relu")
    np.testing.assert_allclose(plain(x).asnumpy(), [[1.5, 1.5], [1.1, 1.1]], rtol=1e-6)
    with pytest.raises(TypeError):
        nn.DenseBnAct(3, 2, has_bn=1)


@pytest.mark.parametrize("reshape_with_axis", [None, 0])
def test_time_distributed_applies_the_layer_per_step(reshape_with_axis):
    x = cg.Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10)
    dense = nn.Dense(4, 2, weight_init="ones", bias_init="zeros")
    out = nn.TimeDistributed(dense, time_axis=1, reshape_with_axis=reshape_with_axis)(x)
    sums = np.arange(24, dtype=np.float32).reshape(2, 3, 4).sum(-1) / 10    # MindSpore's too
    np.testing.assert_allclose(out.asnumpy(), np.repeat(sums[..., None], 2, -1), rtol=1e-6)
    assert nn.TimeDistributed(dense, time_axis=0, reshape_with_axis=1)(x).shape == (2, 3, 2)
    with pytest.raises(ValueError, match="at least 3D"):
        nn.TimeDistributed(dense, time_axis=0)(cg.Tensor(np.ones((2, 4), np.float32)))
