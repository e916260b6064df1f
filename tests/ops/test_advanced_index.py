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


def test_float_index_is_refused():
    with pytest.raises(TypeError, match="integer index"):
        Tensor(X)[Tensor(I), Tensor(np.array([0.5, 1.0]))]


def test_bool_mask_among_other_items_is_its_positions():
    # MindSpore 2.10 (PyNative) reads a mask in a tuple index as NumPy does: x[0, m] has shape
    # (2, 4, 5) and sum 118.0 here
    mask = np.array([True, False, True])
    out = Tensor(X)[0, Tensor(mask)]
    assert out.shape == (2, 4, 5) and out.asnumpy().sum() == pytest.approx(118.0)

    class Read(nn.Cell):
        def construct(self, x, m):
            return x[0, m], x[1, m, 2:4]

    first, second = Read()(Tensor(X), Tensor(mask))
    np.testing.assert_allclose(first.asnumpy(), X[0, mask])
    np.testing.assert_allclose(second.asnumpy(), X[1, mask, 2:4])


def test_bool_mask_in_a_graph_gives_a_run_time_length():
    # MindSpore 2.10's values, graph mode: x[m] of a (2, 3) mask, x[m, 0] and x[[m, 0]]
    # (a list holding a Tensor is a tuple index), and the gradients of sum(x[m] ** 2)
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    m2 = Tensor(np.array([[True, False, True], [False, False, True]]))
    m1 = Tensor(np.array([True, False]))

    class Read(nn.Cell):
        def construct(self, x, m2, m1):
            return x[m2], x[None, m2], x[m1, 0], x[[m1, 0]], x[m1, 1:], x[:, m2[0]]

    outs = [o.asnumpy().tolist() for o in Read()(x, m2, m1)]
    assert outs == [[0.0, 2.0, 5.0], [[0.0, 2.0, 5.0]], [0.0], [0.0], [[1.0, 2.0]],
                    [[0.0, 2.0], [3.0, 5.0]]]

    class SumSquares(nn.Cell):
        def construct(self, x, m):
            y = x[m]
            return (y * y).sum()

    assert SumSquares()(x, m2).asnumpy() == 29.0
    assert ops.grad(SumSquares())(x, m2).asnumpy().tolist() == [[0, 0, 4], [0, 0, 10]]
    m3 = Tensor(np.array([False, True]))

    class RowsAfterMask(nn.Cell):
        def construct(self, x, m):
            y = x[m, 1:]
            return (y * y).sum()

    assert RowsAfterMask()(x, m3).asnumpy() == 41.0
    assert ops.grad(RowsAfterMask())(x, m3).asnumpy().tolist() == [[0, 0, 0], [0, 8, 10]]


def test_list_index_reading_as_mindspore():
    # MindSpore 2.10: a list of ints and bools is one index array; a list holding anything
    # else (a Tensor, a slice, a nested list) is a tuple index
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert x[[[0, 1], [1, 0]]].asnumpy().tolist() == [1.0, 3.0]
    assert x[[slice(None), 0]].asnumpy().tolist() == [0.0, 3.0]
    assert x[[Tensor(np.array([0, 1])), Tensor(np.array([1, 2]))]].asnumpy().tolist() == [1, 5]
    assert x[[1, 0]].asnumpy().tolist() == [[3, 4, 5], [0, 1, 2]]
    y = x.copy()
    y[[Tensor(np.array([True, False])), 0]] = -1
    assert y.asnumpy().tolist() == [[-1, 1, 2], [3, 4, 5]]

    class Write(nn.Cell):
        def construct(self, x, m):
            x[[m, 0]] = -1
            return x

    out = Write()(x.copy(), Tensor(np.array([True, False])))
    assert out.asnumpy().tolist() == [[-1, 1, 2], [3, 4, 5]]


def test_mask_of_another_shape_is_an_index_error():
    # MindSpore: IndexError "The shape of index (1, 3) does not match the shape of the indexed
    # data (2, 3, 4, 5)"
    with pytest.raises(IndexError, match="does not match"):
        Tensor(X)[Tensor(np.ones((1, 3), np.bool_))]


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
