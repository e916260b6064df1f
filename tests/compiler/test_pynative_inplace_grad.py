"""In-place operations under a gradient in PyNative mode: MindSpore's autograd forbids one on a
leaf that requires grad (a Tensor passed to the differentiated function, whether or not its
gradient is asked for, or a Parameter), naming the in-place primitive, and leaves the
argument unchanged; on a value computed inside it is differentiated through. Graph mode
differentiates through the update of a leaf too. The expected values are MindSpore 2.10's."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn

pytestmark = pytest.mark.usefixtures("pynative_mode")


def f32(*values):
    return Tensor(np.array(values, np.float32))


MESSAGE = "A leaf tensor that requires grad is being used in an inplace operator, {}, which is " \
          "forbidden!"


class InPlace(nn.Cell):
    def __init__(self, update):
        super().__init__()
        self.update = update

    def construct(self, x, y):
        self.update(x, y)
        return x * 2


@pytest.mark.parametrize("update, op", [
    (lambda x, y: x.add_(y), "InplaceAddExt"),
    (lambda x, y: x.add_(2.0), "InplaceAddsExt"),
    (lambda x, y: x.sub_(y), "InplaceSubExt"),
    (lambda x, y: x.mul_(3), "InplaceMuls"),
    (lambda x, y: x.div_(y, rounding_mode="floor"), "InplaceDivMod"),
    (lambda x, y: x.copy_(y), "InplaceCopy"),
    (lambda x, y: x.fill_(y[0]), "InplaceFillTensor"),
    (lambda x, y: x.zero_(), "InplaceZero"),
    (lambda x, y: x.clamp_(0.0, 1.0), "InplaceClampScalar"),
    (lambda x, y: x.exp_(), "InplaceExp"),
    (lambda x, y: x.uniform_(), "InplaceUniform"),
])
def test_an_input_updated_in_place_raises_naming_the_primitive(update, op):
    x, y = f32(1.0, 2.0), f32(3.0, 4.0)
    with pytest.raises(RuntimeError) as info:
        ms.grad(InPlace(update))(x, y)
    assert str(info.value).startswith(MESSAGE.format(op))
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 2.0])  # nothing written back


def test_an_input_whose_gradient_is_not_asked_for_is_a_leaf_too():
    x, y = f32(1.0, 2.0), f32(3.0, 4.0)
    with pytest.raises(RuntimeError, match="InplaceCopy"):
        ms.grad(InPlace(lambda x, y: x.copy_(y)), grad_position=1)(x, y)
    with pytest.raises(RuntimeError, match="InplaceCopy"):
        ms.value_and_grad(InPlace(lambda x, y: x.copy_(y)))(x, y)


def test_a_parameter_updated_in_place_raises():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(f32(1.0, 2.0), name="w")

        def construct(self, x, y):
            self.w.copy_(y)
            return x * self.w

    net = Net()
    with pytest.raises(RuntimeError, match=MESSAGE.format("InplaceCopy")):
        ms.grad(net, grad_position=None, weights=net.trainable_params())(f32(1.0, 1.0),
                                                                         f32(3.0, 4.0))
    np.testing.assert_array_equal(net.w.asnumpy(), [1.0, 2.0])


def test_a_value_computed_inside_is_differentiated_through():
    class Net(nn.Cell):
        def construct(self, x, y):
            z = x * 1
            z.add_(y)
            return z * 2

    x = f32(1.0, 2.0)
    dx, dy = ms.grad(Net(), grad_position=(0, 1))(x, f32(3.0, 4.0))
    np.testing.assert_array_equal(dx.asnumpy(), [2.0, 2.0])
    np.testing.assert_array_equal(dy.asnumpy(), [2.0, 2.0])
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 2.0])


def test_outside_a_gradient_and_in_graph_mode_the_update_happens():
    net = InPlace(lambda x, y: x.copy_(y))
    x = f32(1.0, 2.0)
    np.testing.assert_array_equal(net(x, f32(3.0, 4.0)).asnumpy(), [6.0, 8.0])
    np.testing.assert_array_equal(x.asnumpy(), [3.0, 4.0])
    ms.set_context(mode=ms.GRAPH_MODE)
    x = f32(1.0, 2.0)
    grad = ms.grad(InPlace(lambda x, y: x.copy_(y)))(x, f32(3.0, 4.0))
    np.testing.assert_array_equal(grad.asnumpy(), [0.0, 0.0])
    np.testing.assert_array_equal(x.asnumpy(), [3.0, 4.0])


class JitConstruct(nn.Cell):
    @ms.jit
    def construct(self, x, y):
        x.add_(y)
        return x * 2


def test_a_cell_whose_construct_is_jit_differentiates_through_the_update():
    """A Cell compiled by `@jit` on construct runs as a graph in PyNative mode too, with graph
    mode's autograd: the leaf is updated, and the gradient flows through the update."""
    x, y = f32(1.0, 2.0), f32(3.0, 4.0)
    dx, dy = ms.grad(JitConstruct(), grad_position=(0, 1))(x, y)
    np.testing.assert_array_equal(dx.asnumpy(), [2.0, 2.0])
    np.testing.assert_array_equal(dy.asnumpy(), [2.0, 2.0])
    np.testing.assert_array_equal(x.asnumpy(), [4.0, 6.0])


def test_a_construct_replaced_by_its_jit_differentiates_through_the_update():
    """`net.construct = jit(net.construct)` (the static-graph tutorial's way) as well."""
    net = InPlace(lambda x, y: x.copy_(y))
    net.construct = ms.jit(net.construct)
    x, y = f32(1.0, 2.0), f32(3.0, 4.0)
    dx, dy = ms.grad(net, grad_position=(0, 1))(x, y)
    np.testing.assert_array_equal(dx.asnumpy(), [0.0, 0.0])
    np.testing.assert_array_equal(dy.asnumpy(), [2.0, 2.0])
    np.testing.assert_array_equal(x.asnumpy(), [3.0, 4.0])
    x = Tensor(np.array(2, np.int32))
    out, grad = ms.value_and_grad(InPlaceScalar())(x, Tensor(np.array(3, np.int32)))
    assert int(out) == 5 and int(grad) == 1 and int(x) == 5


class InPlaceScalar(nn.Cell):
    def __init__(self):
        super().__init__()
        self.construct = ms.jit(self.construct)

    def construct(self, x, y):
        x.add_(y)
        return x
