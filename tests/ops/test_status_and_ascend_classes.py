"""ops.FloatStatus (MindSpore's GPU overflow flag, computed here on every backend), the Ascend-only
ops.DynamicRNN (its constructor's checks, then MindSpore's CPU RuntimeError), and reductions of
empty bool Tensors (all: True; any: False, where MindSpore 2.10 says True)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, ops


@pytest.mark.parametrize("values, dtype, flag", [([1.0, np.inf], np.float32, 1.0),
                                                 ([1.0, 2.0], np.float16, 0.0),
                                                 ([np.nan], np.float64, 1.0),
                                                 ([], np.float32, 0.0)])
def test_float_status(values, dtype, flag):
    out = ops.FloatStatus()(Tensor(np.array(values, dtype)))
    assert out.shape == (1,) and out.dtype == Tensor(np.zeros(1, dtype)).dtype
    assert out.asnumpy().tolist() == [flag]

    @cg.jit
    def in_graph(x):
        return ops.FloatStatus()(x)

    assert in_graph(Tensor(np.array(values, dtype))).asnumpy().tolist() == [flag]


def test_float_status_refuses_integers():
    with pytest.raises(TypeError, match="FloatStatus"):
        ops.FloatStatus()(Tensor(np.array([1, 2], np.int32)))


def test_dynamic_rnn_checks_then_fails_on_cpu_as_mindspore():
    with pytest.raises(ValueError, match="'time_major' should be = the supported value: True"):
        ops.DynamicRNN(time_major=False)
    with pytest.raises(ValueError, match="'cell_type' must be str and must be in"):
        ops.DynamicRNN(cell_type="GRU")
    with pytest.raises(TypeError, match="forget_bias"):
        ops.DynamicRNN(forget_bias=1)
    x = Tensor(np.ones((2, 16, 64), np.float16))
    with pytest.raises(RuntimeError, match=r"Unsupported op \[DynamicRNN\] on CPU"):
        ops.DynamicRNN()(x, x, x, None, x, x)


def test_reductions_of_empty_bools():
    empty = Tensor(np.ones((0,), np.bool_))
    assert empty.all().asnumpy() and not empty.any().asnumpy()
    assert ops.all(Tensor(np.ones((2, 0), np.float32)), axis=1).asnumpy().tolist() == [True, True]
    assert ops.any(Tensor(np.ones((2, 0), np.float32)), axis=1).asnumpy().tolist() == [False,
                                                                                     False]
