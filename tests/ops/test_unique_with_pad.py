"""ops.UniqueWithPad / ops.unique_with_pad: distinct elements in order of first appearance,
padded to the input's length, and each element's position among them; eagerly, in a graph and
under vmap. Expected values recorded from MindSpore 2.10 (CPU)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.primitives.errors import DTypeError, ShapeError


@pytest.mark.parametrize("graph", [False, True])
@pytest.mark.parametrize("x, pad, values, positions, idx_dtype", [
    (np.array([5, 1, 5, 3, 1], np.int32), -1, [5, 1, 3, -1, -1], [0, 1, 0, 2, 1], ms.int32),
    (np.array([2.5, -1., 2.5], np.float32), 0.0, [2.5, -1., 0.], [0, 1, 0], ms.int32),
    (np.array([7], np.int64), 0, [7], [0], ms.int64),
])
def test_unique_with_pad_as_mindspore(graph, x, pad, values, positions, idx_dtype):
    def run(t):
        return ops.UniqueWithPad()(t, pad)

    y, idx = (ms.jit(run) if graph else run)(Tensor(x))
    assert y.dtype == Tensor(x).dtype and idx.dtype == idx_dtype
    np.testing.assert_array_equal(y.asnumpy(), values)
    np.testing.assert_array_equal(idx.asnumpy(), positions)


def test_unique_with_pad_under_vmap_and_its_errors():
    x = Tensor(np.array([[1, 2, 5, 2], [3, 3, 1, 0]], np.int32))
    y, idx = ms.vmap(lambda t: ops.unique_with_pad(t, -1))(x)
    np.testing.assert_array_equal(y.asnumpy(), [[1, 2, 5, -1], [3, 1, 0, -1]])
    np.testing.assert_array_equal(idx.asnumpy(), [[0, 1, 2, 1], [0, 0, 1, 2]])
    with pytest.raises(DTypeError, match=r"must be a type of \{Tensor\[Float32\], "
                                         r"Tensor\[Int32\], Tensor\[Int64\]\}, but got "
                                         r"Tensor\[Float64\]"):
        ops.UniqueWithPad()(Tensor(np.array([1., 2.])), 0.0)
    with pytest.raises(ShapeError, match="input_shape_size must be equal to 1, but got 2"):
        ops.UniqueWithPad()(Tensor(np.zeros((2, 3), np.int64)), 9)
