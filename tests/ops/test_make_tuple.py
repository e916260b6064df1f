"""ops.make_tuple: MindSpore 2.10's results for the same calls (recorded below): in a graph the
elements as given, eagerly Python numbers as 0-d Tensors."""
import numpy as np

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class Net(nn.Cell):
    def construct(self, x):
        return ops.make_tuple(x, 2, (3,), 1.5)


def test_in_a_graph_the_elements_as_given():
    ms.set_context(mode=ms.GRAPH_MODE)
    out = Net()(Tensor([1.0]))
    assert out[1:] == (2, (3,), 1.5) and out[0].asnumpy().tolist() == [1.0]


def test_eagerly_numbers_become_tensors():
    assert ops.make_tuple() == ()
    x, value, count = ops.make_tuple(Tensor([1.0]), 2.5, 2)
    assert x.asnumpy().tolist() == [1.0]
    assert value.dtype == ms.float32 and value.shape == () and float(value) == 2.5
    assert count.dtype == ms.int64 and int(count) == 2
    assert ops.functional.make_tuple is ops.make_tuple
    np.testing.assert_array_equal(ops.make_tuple(Tensor(np.ones((2, 3))))[0].asnumpy(),
                                  np.ones((2, 3)))
