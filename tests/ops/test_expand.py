"""`ops.expand` / `ops.Expand` / `Tensor.expand` with the shape as an integer Tensor: the shapes
and errors MindSpore 2.10 gives (recorded from it), eagerly and in a graph."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.ops import functional as F

X = np.array([[1], [2], [3]], np.float32)


@pytest.mark.parametrize("size, shape", [([3, 4], (3, 4)), ([2, 3, -1], (2, 3, 1))])
@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.int64])
def test_shapes_as_mindspore(size, shape, dtype):
    size = Tensor(np.array(size, dtype))
    for out in (F.expand(Tensor(X), size), ops.Expand()(Tensor(X), size), Tensor(X).expand(size)):
        assert out.shape == shape and out.dtype == ms.float32
        np.testing.assert_array_equal(out.asnumpy(), np.broadcast_to(X, shape))


def test_in_a_graph_with_a_constant_size():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.size = Tensor(np.array([3, 4], np.int32))

        def construct(self, x):
            return ops.expand(x, self.size), x.expand(self.size)

    for out in Net()(Tensor(X)):
        np.testing.assert_array_equal(out.asnumpy(), np.broadcast_to(X, (3, 4)))


@pytest.mark.parametrize("size, error, message", [
    ((3, 4), TypeError, (r"For Primitive\[Expand\], the type of input argument\[shape\] must be "
                        r"Tensor but got Tuple\[Int64\*2\]\.")),
    ([3, 4], TypeError, r"must be Tensor but got List\[Int64\*2\]\."),
    (Tensor(np.array([3.0, 4.0], np.float32)), TypeError,
     (r"For primitive\[Expand\], the input argument\[shape\] must be a type of \{Tensor\[Int16\], "
     r"Tensor\[Int32\], Tensor\[Int64\]\}, but got Tensor\[Float32\]\.")),
    (Tensor(np.array([4, 4], np.int32)), ValueError,
     (r"For Expand, the expanded size of the tensor \(4\) must be equal to the existing size "
     r"\(3\) which is not 1 at dim \(0\)\.")),
    (Tensor(np.array([2], np.int32)), ValueError,
     (r"For Expand, the size of shape provided \(1\) must be greater than or equal to the size "
     r"of tensor x's shape \(2\)\.")),
])
def test_errors_as_mindspore(size, error, message):
    with pytest.raises(error, match=message):
        F.expand(Tensor(X), size)


def test_tensor_method_still_takes_ints():
    assert Tensor(X).expand(3, 4).shape == (3, 4)
    assert Tensor(X).expand((3, 4)).shape == (3, 4)
