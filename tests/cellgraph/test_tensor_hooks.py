"""Tensor.register_hook / Parameter.register_hook: the hook sees the gradient of that tensor,
what it returns replaces it, handles remove hooks, in GRAPH_MODE and PYNATIVE_MODE. Expected
values are those MindSpore 2.10 CPU gives for the same programs."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, context, nn, ops
from cellgraph.primitives.errors import ShapeError

MODES = [context.GRAPH_MODE, context.PYNATIVE_MODE]


@pytest.fixture(params=MODES, ids=["graph", "pynative"])
def mode(request):
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=context.GRAPH_MODE)


def hook_double(grad):
    return grad * 2


def hook_triple(grad):
    return grad * 3


def hook_with_ctrl_flow(grad):
    if grad[0] < 10000000:
        return hook_double(grad)
    return hook_triple(grad)


def f32(*v):
    return Tensor(np.array(v, np.float32))


class Net0(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight0 = Parameter(f32(1.0, 2.0, 3.0), name="weight0")

    def construct(self, x, y):
        return self.weight0 * x * y


X, Y = (10.0, 11.0, 12.0), (2.0, 3.0, 4.0)
DX, DY, DW = np.array([2.0, 6.0, 12.0]), np.array([10.0, 22.0, 36.0]), np.array([20.0, 33.0, 48.0])


def grads(net, x, y):
    out = ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())(x, y)
    return out[0][0].asnumpy(), out[0][1].asnumpy(), out[1][0].asnumpy()


def test_hook_on_an_input_replaces_its_gradient_and_remove_takes_it_off(mode):
    net, x, y = Net0(), f32(*X), f32(*Y)
    h1 = x.register_hook(hook_double)
    dx, dy, dw = grads(net, x, y)
    np.testing.assert_allclose(dx, DX * 2)
    np.testing.assert_allclose(dy, DY)
    np.testing.assert_allclose(dw, DW)
    h2 = x.register_hook(hook_triple)  # several hooks run in the order they were registered
    np.testing.assert_allclose(grads(net, x, y)[0], DX * 6)
    h1.remove()
    np.testing.assert_allclose(grads(net, x, y)[0], DX * 3)
    h2.remove()
    h2.remove()  # a second remove does nothing, as in MindSpore
    np.testing.assert_allclose(grads(net, x, y)[0], DX)


def test_hook_on_a_parameter_applies_to_the_gradient_with_respect_to_it(mode):
    net, x, y = Net0(), f32(*X), f32(*Y)
    handle = net.weight0.register_hook(lambda grad: grad * 10)
    dx, dy, dw = grads(net, x, y)
    np.testing.assert_allclose(dw, DW * 10)
    np.testing.assert_allclose(dx, DX)
    np.testing.assert_allclose(dy, DY)
    handle.remove()
    np.testing.assert_allclose(grads(net, x, y)[2], DW)


def test_the_hook_sees_the_gradient_and_none_keeps_it(mode, capsys):
    seen = []

    def hook_print(grad):
        print("grad:", grad)

    def record(grad):
        seen.append(grad.asnumpy().copy())

    net, x, y = Net0(), f32(*X), f32(*Y)
    hook = hook_print if mode == context.GRAPH_MODE else record
    net.weight0.register_hook(hook)
    np.testing.assert_allclose(grads(net, x, y)[2], DW)
    if mode == context.GRAPH_MODE:  # compiled into the graph: MindSpore's Print form
        assert "grad:\nTensor(shape=[3], dtype=Float32, value=[ 2.00000000e+01" in \
            capsys.readouterr().out
    else:  # run in Python on the gradient's value
        np.testing.assert_allclose(seen[0], DW)


def test_value_and_grad_and_grad_with_a_hooked_input(mode):
    y = f32(*Y)
    y.register_hook(hook_with_ctrl_flow)
    value, grad = ms.value_and_grad(lambda a: (a * a).sum())(y)
    assert value.asnumpy() == 29.0
    np.testing.assert_allclose(grad.asnumpy(), [8.0, 12.0, 16.0])
    np.testing.assert_allclose(ms.grad(lambda a: (a * a).sum())(y).asnumpy(), [8.0, 12.0, 16.0])


def test_hook_inside_a_function_on_an_intermediate_value(mode):
    def hook_test(x, y):
        z = x * y
        z.register_hook(hook_double)
        z = z * y
        return z

    dx, dy = ms.grad(hook_test, grad_position=(0, 1))(Tensor(1, ms.float32),
                                                     Tensor(2, ms.float32))
    assert (dx.asnumpy(), dy.asnumpy()) == (8.0, 6.0)  # MindSpore's docstring example


class HookPrintNet(nn.Cell):
    def construct(self, x):
        x = x * 2
        x.register_hook(lambda grad: None)
        return x * x


class MultiHookNet(nn.Cell):
    def construct(self, x):
        x = x * 2
        x.register_hook(hook_double)
        x.register_hook(hook_triple)
        return x * x


def test_hooks_inside_construct(mode):
    x = f32(*X)
    np.testing.assert_allclose(ops.GradOperation()(HookPrintNet())(x).asnumpy(), [80, 88, 96])
    if mode == context.GRAPH_MODE:  # one hook per Tensor inside a graph
        with pytest.raises(RuntimeError, match="register multiple hooks for a Tensor"):
            ops.GradOperation()(MultiHookNet())(x)
    else:
        np.testing.assert_allclose(ops.GradOperation()(MultiHookNet())(x).asnumpy(),
                                   [480, 528, 576])


def test_register_hook_inside_a_graph_returns_the_tensor_in_graph_mode():
    ms.set_context(mode=context.GRAPH_MODE)

    class Net(nn.Cell):
        def construct(self, x):
            y = x * 3
            return y.register_hook(hook_double) * 1

    x = f32(1.0, 2.0)
    np.testing.assert_allclose(Net()(x).asnumpy(), [3.0, 6.0])
    np.testing.assert_allclose(ops.grad(Net())(x).asnumpy(), [6.0, 6.0])


def test_register_hook_refuses_what_is_not_a_function():
    with pytest.raises(TypeError, match="Expected a callable hook function, but got int"):
        f32(1.0).register_hook(3)

    @ms.jit
    def jitted(grad):
        return grad

    with pytest.raises(TypeError, match="with '@jit' is not supported"):
        f32(1.0).register_hook(jitted)


def test_a_hook_returning_another_shape_is_an_error():
    ms.set_context(mode=context.PYNATIVE_MODE)
    try:
        x = f32(1.0, 2.0)
        x.register_hook(lambda grad: Tensor(np.zeros(3, np.float32)))
        with pytest.raises(ShapeError, match="register_hook: expected <lambda> to return a "
                                             "gradient of shape \\(2,\\)"):
            ms.grad(lambda a: (a * a).sum())(x)
    finally:
        ms.set_context(mode=context.GRAPH_MODE)


def test_a_parameter_that_takes_no_gradient_refuses_a_hook():
    frozen = Parameter(f32(2.0, 3.0), name="frozen", requires_grad=False)
    with pytest.raises(RuntimeError, match="requires grad is false, which can not register"):
        frozen.register_hook(hook_double)


def test_a_parameter_refuses_a_hook_registered_inside_construct():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight1 = Parameter(f32(1.0, 2.0, 3.0), name="weight1")

        def construct(self, x):
            self.weight1.register_hook(hook_double)
            return x * self.weight1

    net = Net()
    with pytest.raises(ValueError, match="Register hook for Parameter inside graph is not "
                                         "supported"):
        ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())(f32(1.0, 2.0, 3.0))


def test_a_graph_compiled_for_a_hooked_tensor_is_not_reused_for_another():
    net, x, y = Net0(), f32(*X), f32(*Y)
    x.register_hook(hook_double)
    np.testing.assert_allclose(grads(net, x, y)[0], DX * 2)
    np.testing.assert_allclose(grads(net, f32(*X), y)[0], DX)


def test_hooks_lists_the_hooks_and_remove_inside_a_function_takes_one_off():
    ms.set_context(mode=context.PYNATIVE_MODE)
    try:
        x = f32(1.0, 2.0)
        handle = x.register_hook(hook_double)
        assert x.hooks() == [hook_double]

        def fn(a):  # the form of MindSpore's test_tensor_backward_hook_multi_output
            y1, y2 = ops.split(a, 2)
            y1.register_hook(hook_double)
            second = y1.register_hook(hook_triple)
            y2.register_hook(hook_triple)
            assert len(y1.hooks()) == 2 and len(y2.hooks()) == 1
            second.remove()
            assert y1.hooks() == [hook_double]
            return y1 + y2

        z = f32(0.0, 1.0, 2.0, 3.0)
        np.testing.assert_allclose(ms.grad(fn)(z).asnumpy(), [2.0, 2.0, 3.0, 3.0])
        handle.remove()
        assert not x.hooks()
    finally:
        ms.set_context(mode=context.GRAPH_MODE)


class HookAfterUseNet(nn.Cell):
    def construct(self, x):
        y = x * x
        x.register_hook(hook_double)  # acts on the whole gradient of x, the use above included
        return y * x


def test_a_hook_registered_after_a_use_acts_on_the_whole_gradient(mode):
    grad = ops.GradOperation()(HookAfterUseNet())(f32(1.0, 2.0))
    np.testing.assert_allclose(grad.asnumpy(), [6.0, 24.0])  # 2 * 3x^2, as MindSpore gives
