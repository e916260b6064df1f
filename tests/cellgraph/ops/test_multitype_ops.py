"""ops.composite.multitype_ops and ops._utils, the internal modules MindSpore's tests import:
MindSpore 2.10's values for the same calls."""
import numpy as np

from cellgraph import Tensor, jit
from cellgraph.ops._utils.utils import generate_shape_index, get_1d_shape
from cellgraph.ops.composite.multitype_ops.zeros_like_impl import zeros_like


def test_generate_shape_index_and_get_1d_shape():
    assert generate_shape_index((3, 2, 3), (2,), 1) == (1, 0, 2)
    assert generate_shape_index((3, 2, 3), (2,), 0) == (0, 1, 2)
    assert generate_shape_index((4, 2, 5, 3), (2, 5), 1) == (1, 2, 0, 3)
    assert generate_shape_index((4, 2, 5, 3), (2, 5), -2) == (1, 2, 0, 3)
    assert generate_shape_index((4, 2, 5, 3), (4, 2), 1, 1) == (0, 1, 2, 3)
    assert get_1d_shape((2, 3, 4)) == (24,)


def test_zeros_like_over_values_in_a_graph():
    @jit
    def f(x):
        return zeros_like((1, 2.5, True, x)), zeros_like(3), zeros_like([1, 2.0])

    nested, number, items = f(Tensor(np.ones(2, np.float32)))
    assert nested[:3] == (0, 0.0, 0) and number == 0 and items == [0, 0.0]
    np.testing.assert_array_equal(nested[3].asnumpy(), np.zeros(2, np.float32))
