"""ReLU6 and its gradient as MindSpore 2.10 gives them: 1 on (0, 6], 0 elsewhere, through
ops.relu6, nn.ReLU6 and the ReLU6Grad primitive class alike; GLU on empty tensors."""
import numpy as np
import pytest

from cellgraph import Tensor, nn, ops
from cellgraph.ops.operations import _grad_ops as G

X = np.array([-1.0, 0.0, 3.0, 6.0, 7.0], np.float32)
GRADIENT = [0.0, 0.0, 1.0, 1.0, 0.0]  # MindSpore 2.10, recorded


def test_relu6_values_and_gradient_match_mindspore():
    np.testing.assert_array_equal(ops.relu6(Tensor(X)).asnumpy(), [0, 0, 3, 6, 6])
    for fn in (ops.relu6, nn.ReLU6()):
        grad = ops.grad(lambda a, fn=fn: fn(a).sum())(Tensor(X)).asnumpy()
        np.testing.assert_array_equal(grad, GRADIENT)
    dy = np.arange(1, 6, dtype=np.float32)
    np.testing.assert_array_equal(G.ReLU6Grad()(Tensor(dy), Tensor(X)).asnumpy(),
                                  dy * np.array(GRADIENT, np.float32))
    assert np.isnan(ops.relu6(Tensor(np.array([np.nan], np.float32))).asnumpy()[0])


@pytest.mark.parametrize("shape", [(2, 0, 2, 6), (2, 4, 6, 0)])
def test_glu_of_empty_tensors_as_mindspore(shape):
    """ops.glu halves its axis by slicing: an empty axis, or an empty other axis, gives an
    empty result and gradient of MindSpore 2.10's shapes; values as MindSpore's."""
    for dim in range(4):
        x = Tensor(np.zeros(shape, np.float32))
        out, grad = ops.glu(x, dim), ops.grad(lambda x, dim=dim: ops.glu(x, dim))(x)
        expected = list(shape)
        expected[dim] //= 2
        assert out.shape == tuple(expected) and grad.shape == shape
    x = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) / 10)
    np.testing.assert_allclose(ops.glu(x).asnumpy(), [
        [0.0, 0.05744], [0.25826, 0.33409], [0.58485, 0.67523]], rtol=1e-4)


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
def test_softmax_takes_float_tensors_only(graph):
    """An integer or bool Tensor is MindSpore's TypeError (`dtype=` casts first); float16 and
    float64 keep their dtype."""
    import cellgraph

    def run(fn, *args):
        return (cellgraph.jit(fn) if graph else fn)(*args)

    ints = Tensor(np.array([[1, -2, 3], [0, 4, -1]], np.int32))
    message = ("For primitive[{}], the input argument[x] must be a type of {{BFloat16, Float16, "
               "Float32, Float64}}, but got {}.")
    for fn, op in ((ops.softmax, "Softmax"), (nn.Softmax(), "Softmax"),
                   (ops.log_softmax, "LogSoftmax")):
        with pytest.raises(TypeError) as info:
            run(fn, ints)
        assert str(info.value).startswith(message.format(op, "Int32"))
    with pytest.raises(TypeError, match="but got Bool"):
        run(ops.softmax, Tensor(np.array([True, False])))
    cast_first = ops.softmax(ints, dtype=cellgraph.float32).asnumpy()
    np.testing.assert_allclose(cast_first.sum(-1), [1.0, 1.0], rtol=1e-6)
    for np_dtype in (np.float16, np.float64):
        out = run(ops.softmax, Tensor(np.zeros(2, np_dtype)))
        assert out.asnumpy().dtype == np_dtype and out.asnumpy().tolist() == [0.5, 0.5]
