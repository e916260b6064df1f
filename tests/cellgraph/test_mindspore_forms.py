"""Forms real MindSpore code passes, with MindSpore 2.10's results (recorded from it)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops


class AddTuple(nn.Cell):
    def construct(self, x):
        return x + (1.5, 2, 3), (1, 2, 3) - x


@pytest.mark.parametrize("graph", [False, True])
def test_a_tuple_or_list_added_to_a_tensor_takes_its_dtype(graph):
    x = Tensor(np.ones(3, np.float32))
    added, taken = AddTuple()(x) if graph else (x + (1.5, 2, 3), (1, 2, 3) - x)
    np.testing.assert_array_equal(added.asnumpy(), [2.5, 3, 4])
    np.testing.assert_array_equal(taken.asnumpy(), [0, 1, 2])
    xi = Tensor(np.ones(3, np.int32))
    assert (xi + (1.5, 2.0, 3.0)).dtype == ms.int32  # MindSpore: the Tensor's dtype
    np.testing.assert_array_equal((x + [[1, 2, 3], [4, 5, 6]]).asnumpy(), [[2, 3, 4], [5, 6, 7]])
    with pytest.raises(TypeError):  # as in MindSpore: `*` takes no sequence
        x * [2, 2, 2]
    seven = Tensor(np.full((2, 3), 7.0, np.float32))  # `//` takes one, both ways
    np.testing.assert_array_equal((seven // (2, 3, 4)).asnumpy(), [[3, 2, 1]] * 2)
    np.testing.assert_array_equal(((20, 30, 40) // seven).asnumpy(), [[2, 4, 5]] * 2)
    floored = Tensor([7, 8, 9]) // (2, 3, 4)
    assert floored.dtype == ms.int64 and floored.asnumpy().tolist() == [3, 2, 2]


class SplitsPlusTensor(nn.Cell):
    def __init__(self):
        super().__init__()
        self.split = ops.Split()

    def construct(self, x, y, z):
        return self.split(x) + self.split(y) + z, (y[0], y[0], x[0]) - z


def test_a_tuple_of_tensors_added_to_a_tensor_is_their_stack():
    # MindSpore 2.10: the tuple becomes the Tensor its items stack into, then broadcasts
    x = Tensor(np.ones((1, 3), np.float32))
    y = Tensor(np.full((1, 3), 2.0, np.float32))
    z = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    added, taken = SplitsPlusTensor()(x, y, z)
    np.testing.assert_array_equal(added.asnumpy(), [[[2.0, 3, 4]], [[3.0, 4, 5]]])
    np.testing.assert_array_equal(taken.asnumpy(), [[1.0, 0, -1], [1, 0, -1], [0, -1, -2]])


def test_one_grad_position_in_a_tuple_gives_a_bare_gradient():
    x = Tensor(np.array([1.0, 2.0], np.float32))
    g = ms.grad(lambda a, b: (a * b).sum(), grad_position=(0,))(x, x)
    assert isinstance(g, Tensor)
    np.testing.assert_array_equal(g.asnumpy(), [1, 2])
    _, g = ms.value_and_grad(lambda a, b: (a * b).sum(), grad_position=(1,))(x, x)
    assert isinstance(g, Tensor)


def test_a_sens_of_shape_1_for_a_scalar_output():
    x = Tensor(np.array([1.0, 2.0], np.float32))
    g = ops.GradOperation(sens_param=True)(lambda a: (a * a).sum())(
        x, Tensor(np.array([1.0], np.float32)))
    np.testing.assert_array_equal(g.asnumpy(), [2, 4])
    with pytest.raises(ms.CellgraphError, match="sens 0 has shape"):  # other shapes: refused
        ops.GradOperation(sens_param=True)(lambda a: (a * a).sum())(
            x, Tensor(np.array([1.0, 1.0], np.float32)))


def test_tensor_compared_with_a_non_value_and_bad_operand_message():
    """MindSpore 2.10: `Tensor == "zero"` (or None, a list, any object) is False and `!=` True;
    `Tensor + "ok"` is a TypeError in its words."""
    import numpy as _np
    import pytest as _pytest

    import cellgraph as _cg

    x = _cg.Tensor(_np.ones((2, 3), _np.float32))
    for other in ("zero", None, [1, 1, 1], (1,), object()):
        assert (x == other) is False and (x != other) is True
    assert (x == 1.0).asnumpy().all() and not (x != _np.ones(3)).asnumpy().any()
    with _pytest.raises(TypeError) as info:
        x + "ok"
    text = str(info.value)
    assert 'Failed calling Add with "Add()(input=Tensor, other=string)"' in text
    assert '"Add()(input=<Number, Tensor>, other=<Number, Tensor>)"' in text


class ReturnsArrays(nn.Cell):
    def construct(self, x):
        a = np.array([1, 2, 3])
        return a, np.ones((2,)) * 2 + 1, x + Tensor(a), np.sum(a)


def test_numpy_arrays_a_construct_returns_come_back_as_arrays():
    """MindSpore 2.10's graphs give back a NumPy array made in construct as that array
    (a value computed from it with Tensors is a Tensor); inside a graph it is a constant."""
    ms.set_context(mode=ms.GRAPH_MODE)
    a, b, c, total = ReturnsArrays()(Tensor([1, 1, 1]))
    assert type(a) is np.ndarray and a.tolist() == [1, 2, 3]
    assert type(b) is np.ndarray and b.tolist() == [3.0, 3.0]
    assert isinstance(c, Tensor) and c.asnumpy().tolist() == [2, 3, 4]
    assert total == 6
    grad = ms.grad(lambda x: (x * Tensor(np.array([2.0]))).sum())(Tensor([1.0]))
    assert isinstance(grad, Tensor) and grad.asnumpy().tolist() == [2.0]
