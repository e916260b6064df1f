"""ops.Padding / ops.padding: the last axis (of length 1) extended with zeros to pad_dim_size,
for every dtype, batched by vmap; MindSpore 2.10's values and errors."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.ops import functional as F


class Net(nn.Cell):
    def __init__(self, pad_dim_size):
        super().__init__()
        self.padding = ops.Padding(pad_dim_size)

    def construct(self, x):
        return self.padding(x)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
@pytest.mark.parametrize("dtype", [np.bool_, np.uint32, np.float16, np.complex64])
@pytest.mark.parametrize("pad_dim_size", [1, 4])
def test_padding_matches_np_pad(mode, dtype, pad_dim_size):
    ms.set_context(mode=mode)
    try:
        x = (np.arange(1, 9).reshape(2, 4, 1) * 3).astype(dtype)
        out = Net(pad_dim_size)(Tensor(x)).asnumpy()
        np.testing.assert_array_equal(out, np.pad(x, ((0, 0), (0, 0), (0, pad_dim_size - 1))))
        assert out.dtype == dtype
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)


def test_padding_functional_and_vmap():
    x = Tensor(np.array([[1.5], [2.0]], np.float32))
    np.testing.assert_array_equal(ops.padding(x, 3).asnumpy(), [[1.5, 0, 0], [2.0, 0, 0]])
    xs = Tensor(np.arange(8, dtype=np.float32).reshape(2, 4, 1))
    out = F.vmap(Net(4), 0, 1)(xs).asnumpy()
    assert out.shape == (4, 2, 4)
    np.testing.assert_array_equal(out[:, :, 0], np.arange(8).reshape(2, 4).T)
    assert not out[:, :, 1:].any()


@pytest.mark.parametrize("size, x, error, message", [
    # MindSpore 2.10's messages
    (0, np.ones((2, 1)), ValueError, "the 'pad_dim_size' must be int and must > 0, but got '0'"),
    (2.0, np.ones((2, 1)), TypeError, "the type of 'pad_dim_size' should be 'int'"),
    (2, np.ones((2, 2)), ValueError, "the last dimension of 'x' must be 1, but got: 2"),
    (2, np.ones((2,)), ValueError, "the x rank must be greater than or equal to 2, but got 1"),
])
def test_padding_checks(size, x, error, message):
    with pytest.raises(error, match=message):
        ops.padding(Tensor(x.astype(np.float32)), size)
