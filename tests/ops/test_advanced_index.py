"""`x[index]` with several integer Tensor items, or one mixed with ints, slices, None and
Ellipsis: NumPy's advanced indexing (result dims in place when the advanced items are adjacent,
first when they are not), eager and in a graph, differentiable."""
import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from cellgraph.testing import check_grads

X = np.arange(2 * 3 * 4 * 5, dtype=np.float64).reshape(2, 3, 4, 5) / 10.0
I = np.array([[0, 1], [1, 1]], np.int64)
J = np.array([3, -1], np.int64)

CASES = {
    "two tensors": lambda x, i, j: x[0, i, j],
    "adjacent after a slice": lambda x, i, j: x[:, i, j],
    "separated by a slice": lambda x, i, j: x[i, :, j],
    "int and tensor apart": lambda x, i, j: x[1, :, j],
    "ellipsis and none": lambda x, i, j: x[..., None, i, 1:4],
    "stepped slice before": lambda x, i, j: x[:, ::2, i, j],
    # a Python True is NumPy's 0-d boolean index (MindSpore follows NumPy): a new axis alone,
    # an advanced index [0] on a new axis among the others
    "true alone": lambda x, i, j: x[True],
    "true with a tensor": lambda x, i, j: x[True, 1, :, J],
    "true, int and none": lambda x, i, j: x[..., True, 3, 0:2, None],
}


@pytest.mark.parametrize("name", list(CASES))
def test_matches_numpy_eager_and_in_graph(name):
    index = CASES[name]

    class Read(nn.Cell):
        def construct(self, x, i, j):
            return index(x, i, j)

    expected = index(X, I, J)
    args = (Tensor(X), Tensor(I), Tensor(J))
    np.testing.assert_allclose(index(*args).asnumpy(), expected)
    np.testing.assert_allclose(Read()(*args).asnumpy(), expected)


def test_gradient_adds_repeated_entries():
    i, j = Tensor(np.array([0, 0, 2])), Tensor(np.array([1, 1, 3]))
    check_grads(lambda x: (x[1, i, j] ** 2).sum(), (Tensor(X),), order=2)
    grad = ops.grad(lambda x: x[1, i, j].sum())(Tensor(X)).asnumpy()
    assert grad[1, 0, 1, :].tolist() == [2.0] * 5 and grad.sum() == 15.0


def test_false_index_is_refused_as_in_mindspore():
    class Read(nn.Cell):
        def construct(self, x):
            return x[False]

    with pytest.raises(IndexError, match="only support 'True'"):
        Read()(Tensor(X))
    # MindSpore raises IndexError for a float number, an empty list and an int out of range
    with pytest.raises(IndexError, match="must be int or bool, but got 3.4"):
        Tensor(X)[3.4]
    with pytest.raises(IndexError, match="list can't be empty"):
        Tensor(X)[[]]
    # a list of bools names the positions of its Trues: all False is the empty list outside
    # a graph; a graph selects nothing
    with pytest.raises(IndexError, match="list can't be empty"):
        Tensor(X)[[False, False]]

    class ReadFalses(nn.Cell):
        def construct(self, x):
            return x[[False, False]]

    assert ReadFalses()(Tensor(X)).shape == (0, 3, 4, 5)
    assert Tensor(X)[[True, False]].shape == (1, 3, 4, 5)
    with pytest.raises(IndexError, match="out of bounds"):
        Tensor(X)[2]


def test_float_index_is_refused_and_a_mask_mixes_as_numpy():
    with pytest.raises(TypeError, match="integer index"):
        Tensor(X)[Tensor(I), Tensor(np.array([0.5, 1.0]))]
    # a mask beside an int reads as NumPy reads it (MindSpore 2.10 does too, in both modes)
    mask = np.array([True, False, True])
    np.testing.assert_array_equal(Tensor(X)[0, Tensor(mask)].asnumpy(), X[0, mask])


def test_a_known_mask_with_other_tensor_indices_reads_as_numpy():
    """A boolean mask whose values are known when the graph is built, among other Tensor
    indices, stands for the positions of its True elements (NumPy's reading, which MindSpore's
    own tests check against)."""
    from cellgraph import context
    from cellgraph import dtype as mstype

    class Net(nn.Cell):
        def construct(self, x):
            picked = x[Tensor(np.ones(4, np.int64)), :, Tensor(np.ones((2, 2), bool))]
            return picked[picked.min().astype(mstype.int64) % 4, 0:1] * 1.0

    x = np.arange(3 * 5 * 2 * 2).reshape(3, 5, 2, 2).astype(np.float32)
    picked = x[np.ones(4, np.int64), :, np.ones((2, 2), bool)]
    expected = picked[int(picked.min()) % 4, 0:1]
    context.set_context(mode=context.GRAPH_MODE)
    try:
        np.testing.assert_array_equal(Net()(Tensor(x)).asnumpy(), expected)
        grad = ops.GradOperation()(Net())(Tensor(x)).asnumpy()
    finally:
        context.set_context(mode=context.PYNATIVE_MODE)
    assert grad.sum() == 1 and grad[1, 0].sum() == 1
