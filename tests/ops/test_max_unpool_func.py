"""ops.max_unpool1d/2d/3d: MindSpore 2.10's values and error types for the same calls
(recorded below)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

X2 = np.array([[[6., 8.], [14., 16.]]], np.float32)
I2 = np.array([[[5, 7], [13, 15]]], np.int64)
X1 = np.array([[2., 4., 6., 8.]], np.float32)
I1 = np.array([[1, 3, 5, 7]], np.int64)
X3 = np.arange(8, dtype=np.float32).reshape(1, 1, 2, 2, 2)
I3 = (np.arange(8) * 2).reshape(1, 1, 2, 2, 2).astype(np.int64)
UNPOOLED2 = [0, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 0, 0, 14, 0, 16]

CASES = [
    ("max_unpool2d", X2, I2, 2, {"stride": 2, "padding": 0}, (1, 4, 4), UNPOOLED2),
    ("max_unpool2d", X2, I2, 2, {"output_size": (1, 5, 5)}, (1, 5, 5), UNPOOLED2 + [0] * 9),
    ("max_unpool2d", X2, I2, 2, {"stride": 0}, (1, 4, 4), UNPOOLED2),
    ("max_unpool1d", X1, I1, 2, {}, (1, 8), [0, 2, 0, 4, 0, 6, 0, 8]),
    ("max_unpool1d", X1, I1, 2, {"output_size": (9,)}, (1, 9), [0, 2, 0, 4, 0, 6, 0, 8, 0]),
    ("max_unpool3d", X3, I3, 2, {}, (1, 1, 4, 4, 4), [v for i in range(8) for v in (i, 0)]
     + [0] * 48),
]


@pytest.mark.parametrize("name,x,indices,kernel,kwargs,shape,values", CASES)
def test_values_as_mindspore(name, x, indices, kernel, kwargs, shape, values):
    out = getattr(ops, name)(Tensor(x), Tensor(indices), kernel, **kwargs).asnumpy()
    assert out.shape == shape and out.ravel().tolist() == values


@pytest.mark.parametrize("name,x,indices,kernel,kwargs", [
    ("max_unpool2d", X2, I2, 2, {"output_size": [4, 4]}),
    ("max_unpool2d", X2, I2, (2, 2, 2), {}),
    ("max_unpool2d", X2, I2, 0, {}),
    ("max_unpool1d", X1, I1, 2, {"padding": -1}),
])
def test_invalid_arguments_raise_value_error(name, x, indices, kernel, kwargs):
    with pytest.raises(ValueError):
        getattr(ops, name)(Tensor(x), Tensor(indices), kernel, **kwargs)


def test_in_a_graph_as_the_layer():
    class Net(nn.Cell):
        def construct(self, x, indices):
            return ops.max_unpool2d(x, indices, 2, stride=2)

    ms.set_context(mode=ms.GRAPH_MODE)
    out = Net()(Tensor(X2), Tensor(I2)).asnumpy()
    layer = nn.MaxUnpool2d(2, 2)(Tensor(X2), Tensor(I2)).asnumpy()
    assert out.ravel().tolist() == UNPOOLED2 and (out == layer).all()
