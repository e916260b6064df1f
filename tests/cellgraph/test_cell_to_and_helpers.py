"""Cell.to (MindSpore's dtype conversion of the float Parameters, the compiled graph following),
check_names, parameters_broadcast_dict, cast_inputs, run_construct, update_cell_prefix,
set_broadcast_flag and the extra-state hooks of the base class."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Parameter, Tensor, nn


def test_to_casts_float_parameters_and_the_graph_follows():
    net = nn.Dense(3, 2)
    assert net(Tensor(np.ones((1, 3), np.float32))).dtype == cg.float32
    assert net.to(cg.float16) is net
    assert net.weight.dtype == cg.float16 and net.bias.dtype == cg.float16
    assert net(Tensor(np.ones((1, 3), np.float16))).dtype == cg.float16
    net.to("CPU", dtype=cg.float64)
    assert net.weight.dtype == cg.float64
    net.to(Tensor(np.ones(1, np.float32)))
    assert net.weight.dtype == cg.float32
    with pytest.raises(TypeError, match="floating point or complex"):
        net.to(cg.int32)
    with pytest.raises(ValueError, match="must be one of"):
        net.to("TPU")


def test_to_leaves_integer_parameters():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.steps = Parameter(Tensor(np.array([1], np.int32)), name="steps")
            self.w = Parameter(Tensor(np.ones(2, np.float32)), name="w")

    net = Net().to(cg.float16)
    assert net.steps.dtype == cg.int32 and net.w.dtype == cg.float16


def test_helpers():
    net = nn.Dense(3, 2)
    assert set(net.parameters_broadcast_dict()) == {"weight", "bias"}
    assert net.check_names() is None
    out = net.cast_inputs((Tensor(np.ones(2)), 1), cg.float16)
    assert out[0].dtype == cg.float16 and out[1] == 1
    assert net.run_construct((Tensor(np.ones((1, 3), np.float32)),), {}).shape == (1, 2)
    seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
    seq.update_cell_prefix()
    assert seq.set_broadcast_flag() is seq and seq[0].get_flags()["broadcast_flag"] is True
    with pytest.raises(RuntimeError, match="get_extra_state"):
        net.get_extra_state()


def test_check_names_finds_duplicates():
    class Twice(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = Parameter(Tensor(np.ones(1, np.float32)), name="same")
            self.b = Parameter(Tensor(np.ones(1, np.float32)), name="same")

    with pytest.raises(ValueError, match="its name 'same' already exists"):
        Twice().check_names()
