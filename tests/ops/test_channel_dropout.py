"""ops.dropout1d, dropout2d and dropout3d: whole channels dropped, their argument checks and
error types as MindSpore 2.10's (its outcomes for the same calls recorded below)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import nn, ops

X3 = np.ones((2, 3, 4), np.float32)
X4 = np.ones((2, 3, 2, 2), np.float32)

# (function, input, args) -> the exception MindSpore raises, or the set of values it gives
CASES = [
    ("dropout2d", X3, (0.5,), ValueError),
    ("dropout2d", X4, (1,), {0.0}),
    ("dropout2d", X4, (1.0,), {0.0}),
    ("dropout2d", X4, (0.0,), {1.0}),
    ("dropout2d", X4, (1.5,), ValueError),
    ("dropout2d", X4, (0.5, False), {1.0}),
    ("dropout2d", X3, (0.5, False), {1.0}),
    ("dropout2d", X4, (0.5, 1), TypeError),
    ("dropout2d", X4.astype(np.bool_), (0.5,), TypeError),
    ("dropout1d", X4, (0.5,), ValueError),
    ("dropout1d", X3, (1,), TypeError),
    ("dropout1d", X3, (1.0,), {0.0}),
    ("dropout3d", X4, (0.5,), ValueError),
]


@pytest.mark.parametrize("name,data,args,expected", CASES)
def test_outcomes_as_mindspore(name, data, args, expected):
    fn = getattr(ops, name)
    if isinstance(expected, type):
        with pytest.raises(expected):
            fn(ms.Tensor(data), *args)
    else:
        assert set(np.unique(fn(ms.Tensor(data), *args).asnumpy()).tolist()) == expected


def test_dropout1d_refuses_a_numpy_array():
    with pytest.raises(TypeError, match="'input' must be Tensor"):
        ops.dropout1d(np.ones((2, 3), np.float32), 0.5)


@pytest.mark.parametrize("name,shape", [("dropout1d", (4, 6, 5)), ("dropout1d", (6, 5)),
                                        ("dropout2d", (4, 6, 3, 2)),
                                        ("dropout3d", (4, 6, 2, 2, 2))])
def test_whole_channels_kept_or_dropped_and_scaled(name, shape):
    out = getattr(ops, name)(ms.Tensor(np.ones(shape, np.float32)), 0.5).asnumpy()
    channels = out.reshape(int(np.prod(shape[:-1 if name == "dropout1d" else 2])), -1)
    for row in channels:
        assert set(np.unique(row).tolist()) <= {0.0, 2.0} and len(np.unique(row)) == 1


def test_integer_input_stays_integer():
    # MindSpore: int32 ones, p=0.5 -> int32 values in {0, 2}
    out = ops.dropout2d(ms.Tensor(np.ones((2, 3, 2, 2), np.int32)), 0.5)
    assert out.dtype == ms.int32 and set(np.unique(out.asnumpy()).tolist()) <= {0, 2}


def test_in_a_graph():
    class Net(nn.Cell):
        def construct(self, x):
            return ops.dropout1d(x, 1.0), ops.dropout2d(x.expand_dims(-1), 0.0)

    ms.set_context(mode=ms.GRAPH_MODE)
    a, b = Net()(ms.Tensor(X3))
    assert not a.asnumpy().any() and b.shape == (2, 3, 4, 1) and b.asnumpy().all()
