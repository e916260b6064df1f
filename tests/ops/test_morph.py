"""`ops.Morph(fn, infer_shape, infer_dtype, bprop_fn=None)`: `fn` applied inside the graph and
differentiated as the code it is, or through `bprop_fn`; refused outside a graph. Expected
gradients are MindSpore 2.10's (its Morph example)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops


@pytest.fixture(autouse=True)
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)


def same(*args):
    return args[0]


DEFAULT_SCALE = Tensor(2.0, ms.float32)


def mul_by(factor):
    def inner(x, scale=DEFAULT_SCALE):
        return factor * x * scale
    return inner


class MorphNet(nn.Cell):
    def __init__(self, morph):
        super().__init__()
        self.weight0 = Parameter(Tensor(np.array([1.0, 2.0, 3.0], np.float32)), name="weight0")
        self.weight1 = Parameter(Tensor(np.array([4.0, 5.0, 6.0], np.float32)), name="weight1")
        self.morph = morph

    def construct(self, x):
        return self.morph(x * self.weight0, scale=Tensor(0.5, ms.float32)) * self.weight1


def test_morph_is_differentiated_through_fn():
    net = MorphNet(ops.Morph(mul_by(100), same, same))
    grads = ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())(
        Tensor(np.array([7.0, 8.0, 9.0], np.float32)))
    np.testing.assert_allclose(grads[0][0].asnumpy(), [200.0, 500.0, 900.0])
    np.testing.assert_allclose(grads[1][0].asnumpy(), [1400.0, 2000.0, 2700.0])
    np.testing.assert_allclose(grads[1][1].asnumpy(), [350.0, 800.0, 1350.0])


def test_morph_with_a_bprop_uses_it():
    def double(x):
        return x * 2

    def bprop(x, out, dout):
        return (dout * 10,)

    morph = ops.Morph(double, same, same, bprop_fn=bprop)

    @ms.jit
    def f(x):
        return morph(x)

    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(f(x).asnumpy(), [2.0, 4.0])
    np.testing.assert_allclose(ms.grad(f)(x).asnumpy(), [10.0, 10.0])


def test_morph_checks_infer_shape_and_refuses_eager_calls():
    morph = ops.Morph(lambda x: x.sum(), same, same)

    @ms.jit
    def f(x):
        return morph(x)

    with pytest.raises(ValueError, match="infer_shape gives"):
        f(Tensor(np.ones(3, np.float32)))
    with pytest.raises(RuntimeError, match="Morph is only supported in GRAPH_MODE"):
        morph(Tensor(np.ones(3, np.float32)))
    with pytest.raises(ValueError, match="only support positional or keyword parameters"):
        ops.Morph(mul_by(2), same, same, bprop_fn=lambda *a: a)
