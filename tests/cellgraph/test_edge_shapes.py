"""Empty and 0-d inputs at the layers and ops where they once crashed inside a kernel: each gives
MindSpore 2.10's result (an empty batch through Conv2d and BatchNorm, with gradients) or a typed
error naming the operation (MindSpore raises for these too)."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from cellgraph.primitives.errors import ShapeError


@pytest.fixture(params=[cellgraph.PYNATIVE_MODE, cellgraph.GRAPH_MODE], ids=["eager", "graph"])
def mode(request):
    before = cellgraph.get_context("mode")
    cellgraph.set_context(mode=request.param)
    yield request.param
    cellgraph.set_context(mode=before)


def test_conv2d_on_an_empty_batch_gives_empty_results_and_zero_weight_gradients(mode):
    conv = nn.Conv2d(3, 4, 3, has_bias=True)
    x = Tensor(np.zeros((0, 3, 8, 8), np.float32))
    assert conv(x).shape == (0, 4, 8, 8)  # MindSpore: (0, 4, 8, 8)
    dx, (dw, db) = cellgraph.grad(conv, grad_position=0, weights=conv.trainable_params())(x)
    assert dx.shape == (0, 3, 8, 8)
    np.testing.assert_array_equal(dw.asnumpy(), np.zeros((4, 3, 3, 3), np.float32))
    np.testing.assert_array_equal(db.asnumpy(), np.zeros(4, np.float32))
    valid = nn.Conv2d(3, 2, 3, stride=2, pad_mode="valid")
    assert valid(x).shape == (0, 2, 3, 3)


def test_batch_norm_training_on_an_empty_batch(mode):
    # MindSpore: the empty result, and the moving statistics left as they were
    bn = nn.BatchNorm2d(3, moving_mean_init="ones", moving_var_init="zeros")
    x = Tensor(np.zeros((0, 3, 4, 4), np.float32))
    assert bn(x).shape == (0, 3, 4, 4)
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), np.ones(3, np.float32))
    np.testing.assert_array_equal(bn.moving_variance.asnumpy(), np.zeros(3, np.float32))
    dx, (dgamma, dbeta) = cellgraph.grad(bn, grad_position=0, weights=bn.trainable_params())(x)
    assert dx.shape == (0, 3, 4, 4)
    np.testing.assert_array_equal(dgamma.asnumpy(), np.zeros(3, np.float32))
    np.testing.assert_array_equal(dbeta.asnumpy(), np.zeros(3, np.float32))
    assert nn.BatchNorm1d(3)(Tensor(np.zeros((0, 3), np.float32))).shape == (0, 3)


@pytest.mark.parametrize("fn", [ops.softmax, ops.log_softmax, lambda x: nn.Softmax()(x)])
def test_softmax_of_a_0d_tensor_is_a_shape_error(mode, fn):
    # MindSpore: ValueError "For primitive[Softmax], the axis must be in [0,0), but got -1."
    with pytest.raises(ShapeError, match="Softmax: expected a tensor of rank >= 1, got a 0-d"):
        fn(Tensor(np.float32(1.0)))


@pytest.mark.parametrize("layer", [nn.LSTM, nn.GRU, nn.RNN])
def test_recurrent_layers_refuse_an_empty_sequence(mode, layer):
    # MindSpore: RuntimeError from LSTM's kernel, ValueError from GRU's Stack
    net = layer(4, 5, batch_first=True)
    with pytest.raises(ShapeError, match=f"{layer.__name__}: the input's sequence length is 0"):
        net(Tensor(np.zeros((2, 0, 4), np.float32)))
    out, _ = net(Tensor(np.zeros((0, 3, 4), np.float32)))  # an empty batch runs
    assert out.shape == (0, 3, 5)


@pytest.mark.parametrize("make", [lambda s: ops.zeros(s), lambda s: ops.ones(s),
                                  lambda s: ops.full(s, 1.0), lambda s: ops.fill(
                                      cellgraph.float32, s, 1.0)])
def test_negative_dimensions_are_value_errors(mode, make):
    # MindSpore: ValueError "the 0th dimension of input shape must be greater than or equal to
    # 0, but got -1"
    with pytest.raises(ValueError, match=r"the 0th dimension of the shape must be an int >= 0, "
                                         r"got -1 in shape \(-1, 3\)"):
        make((-1, 3))


def test_stack_and_concat_of_nothing(mode):
    for fn, name in ((ops.stack, "Stack"), (ops.concat, "Concat")):
        with pytest.raises(ShapeError, match=f"{name}: expected at least one tensor, got none"):
            fn([])
