"""A tuple or list on either side of a Tensor's `*`, `/` and `%` in a graph is a Tensor of the
Tensor's dtype (MindSpore's multitype_ops: `x[..., None] * (1, 4, 16)`, as MindFlow's
multi-resolution input does); PyNative mode refuses it with MindSpore's TypeError, and `**`
refuses it in both modes."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn

X = np.array([[0.5, 2.0]], np.float32)


class Arithmetic(nn.Cell):
    def __init__(self, op, other):
        super().__init__()
        self.op, self.other = op, other

    def construct(self, x):
        y = x[..., None]
        if self.op == "mul":
            return y * self.other, self.other * y
        if self.op == "div":
            return y / self.other, self.other / (y + 1)
        if self.op == "mod":
            return y % self.other, self.other % (y + 1)
        return y ** self.other, y


def _mode(mode):
    saved = ms.get_context("mode")
    ms.set_context(mode=mode)
    yield
    ms.set_context(mode=saved)


@pytest.fixture
def graph_mode():
    yield from _mode(ms.GRAPH_MODE)


@pytest.mark.parametrize("op, other, expected", [
    ("mul", (1, 4, 16), (X[..., None] * [1, 4, 16], [1, 4, 16] * X[..., None])),
    ("mul", [0.5, 1.5, 2.5], (X[..., None] * [0.5, 1.5, 2.5], [0.5, 1.5, 2.5] * X[..., None])),
    ("div", (1, 4, 16), (X[..., None] / [1, 4, 16], [1, 4, 16] / (X[..., None] + 1))),
    ("mod", (1.5, 4, 3), (np.array([[[0.5, 0.5, 0.5]], [[0.5, 2.0, 2.0]]]).reshape(1, 2, 3),
                          np.array([0.0, 1.0, 0.0, 1.5, 1.0, 0.0]).reshape(1, 2, 3))),
])
def test_graph_takes_a_sequence_as_a_tensor_of_the_tensor_s_dtype(graph_mode, op, other,
                                                                  expected):
    first, second = Arithmetic(op, other)(Tensor(X))
    assert first.dtype == ms.float32 and second.dtype == ms.float32
    np.testing.assert_allclose(first.asnumpy(), np.asarray(expected[0], np.float32), rtol=1e-6)
    np.testing.assert_allclose(second.asnumpy(), np.asarray(expected[1], np.float32), rtol=1e-6)


def test_graph_sequence_takes_the_tensor_s_integer_dtype(graph_mode):
    # MindSpore casts the sequence to the Tensor's dtype: 2.5 becomes 2 for an int32 Tensor
    first, _ = Arithmetic("mul", (1, 2.5, 3))(Tensor(np.array([[1, 2]], np.int32)))
    assert first.dtype == ms.int32
    np.testing.assert_array_equal(first.asnumpy(), [[[1, 2, 3], [2, 4, 6]]])


def test_graph_nested_sequence_and_sequence_of_tensors(graph_mode):
    class Nested(nn.Cell):
        def construct(self, x):
            return x * ((1, 2), (3, 4)), x * (x, x)

    nested, stacked = Nested()(Tensor(X))
    np.testing.assert_allclose(nested.asnumpy(), [[0.5, 4.0], [1.5, 8.0]])
    np.testing.assert_allclose(stacked.asnumpy(), [[[0.25, 4.0]], [[0.25, 4.0]]])


def test_pow_refuses_a_sequence_in_a_graph(graph_mode):
    with pytest.raises(TypeError):
        Arithmetic("pow", (1, 2, 3))(Tensor(X))


@pytest.mark.parametrize("op", ["mul", "div", "mod"])
def test_pynative_refuses_a_sequence(pynative_mode, op):
    with pytest.raises(TypeError):
        Arithmetic(op, (1, 4, 16))(Tensor(X))
