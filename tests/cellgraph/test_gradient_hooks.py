"""InsertGradientOf (a function applied to the gradient flowing back), HookBackward (a Python
hook on the gradient in PyNative mode, refused in graph mode), keyword arguments to gradient functions and the gradient APIs' argument errors."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.testing import check_grads


def f32(*v):
    return Tensor(np.array(v, np.float32))


def halve_and_clip(g):
    return ops.clip_by_value(g * 0.5, -2.0, 2.0)


class ScaledSquare(nn.Cell):
    """z = sin(x)^2 with the gradient reaching sin(x) halved and clipped to [-2, 2]."""

    def __init__(self, fn):
        super().__init__()
        self.hook = ops.InsertGradientOf(fn)

    def construct(self, x):
        s = self.hook(ops.sin(x))
        return s * s * 3.0


def test_insert_gradient_of_rewrites_the_gradient_and_not_the_value():
    x = f32(0.3, 1.2, -0.7)
    net = ScaledSquare(halve_and_clip)
    np.testing.assert_allclose(net(x).asnumpy(), 3 * np.sin(x.asnumpy()) ** 2, rtol=1e-6)
    s = np.sin(x.asnumpy())
    expected = np.clip(6 * s * 0.5, -2, 2) * np.cos(x.asnumpy())
    np.testing.assert_allclose(ops.grad(net)(x).asnumpy(), expected, rtol=1e-5)


def test_insert_gradient_of_with_a_value_preserving_function_keeps_true_derivatives():
    # the function also rewrites the gradients of higher orders that pass through the node (as
    # in MindSpore), so only one that keeps the value gives the derivatives FD sees: orders 1, 2
    def unchanged(g):
        return g * 2.0 - g

    net = ScaledSquare(unchanged)
    check_grads(lambda v: net(v).sum(), (np.array([0.3, 0.9]),), order=2)
    s, c = np.sin([0.3, 0.9]), np.cos([0.3, 0.9])
    second = ops.grad(lambda v: ops.grad(net)(v).sum())(f32(0.3, 0.9))
    np.testing.assert_allclose(second.asnumpy(), 6 * (c * c - s * s), rtol=1e-5)


def test_insert_gradient_of_rejects_a_gradient_of_another_shape():
    net = ScaledSquare(lambda g: g.sum())
    with pytest.raises(ValueError, match="InsertGradientOf: expected <lambda> to return a "
                                         "gradient like the one it was given"):
        ops.grad(net)(f32(1.0, 2.0))


def test_hook_backward_is_left_out_in_graph_mode_as_mindspore_does():
    calls = []

    class Hooked(nn.Cell):
        def __init__(self):
            super().__init__()
            self.hook = ops.HookBackward(lambda g: calls.append(g) or (g[0] * 3,))

        def construct(self, x):
            return self.hook(x * 2) * 5

    with pytest.warns(UserWarning, match="Hook operation does not work in graph mode"):
        grad = ops.grad(Hooked())(f32(1.0, 2.0))
    np.testing.assert_allclose(grad.asnumpy(), [10.0, 10.0])  # MindSpore 2.10's values
    assert calls == []


def test_hook_backward_sees_the_gradient_as_a_tuple_in_pynative_mode(pynative_mode):
    seen = []
    hook = ops.HookBackward(seen.append)

    def f(x, y):
        return hook(x * y) * y

    gx, gy = ops.GradOperation(get_all=True)(f)(f32(1.0, 3.0), f32(2.0, 5.0))
    assert len(seen) == 1 and isinstance(seen[0], tuple)
    np.testing.assert_allclose(seen[0][0].asnumpy(), [2.0, 5.0])  # d(z*y)/dz
    np.testing.assert_allclose(gx.asnumpy(), [4.0, 25.0])  # y * y
    np.testing.assert_allclose(gy.asnumpy(), [4.0, 30.0])  # x*y + y*x


@pytest.mark.parametrize("backend", ["numpy", "torch", "jax"])
def test_hook_backward_replaces_the_gradient_on_every_backend(pynative_mode, backend):
    if backend != "numpy":
        pytest.importorskip(backend)
    hook = ops.HookBackward(lambda g: (g[0] * 3.0,))

    def f(x):
        return ops.reduce_sum(ops.sin(hook(x * x)))

    x = np.array([0.5, -1.0, 2.0], np.float32)
    cellgraph.set_context(backend=backend)
    try:
        g = ops.grad(f)(Tensor(x))
    finally:
        cellgraph.set_context(backend="numpy")
    np.testing.assert_allclose(np.asarray(g.asnumpy()), 3.0 * np.cos(x * x) * 2 * x, rtol=1e-5)


def test_hook_backward_with_a_wrongly_shaped_gradient_names_the_hook(pynative_mode):
    def bad_hook(g):
        return ops.ones((5,), cellgraph.float32)

    hook = ops.HookBackward(bad_hook)
    with pytest.raises(ValueError, match="HookBackward: expected bad_hook to return a gradient "
                                         r"of shape \(2,\) or None, got shape \(5,\)"):
        ops.grad(lambda x: ops.reduce_sum(hook(x) * 2.0))(f32(1.0, 2.0))


def test_keyword_arguments_reach_fn_and_are_not_differentiated():
    def scaled_cube(x, scale=1.0):
        return x * x * x * scale

    x = f32(1.0, 2.0)
    grad_fn = ops.GradOperation(get_all=True)(scaled_cube)
    (g,) = grad_fn(x, scale=2.0)
    np.testing.assert_allclose(g.asnumpy(), 6 * x.asnumpy() ** 2)
    (g,) = grad_fn(x)
    np.testing.assert_allclose(g.asnumpy(), 3 * x.asnumpy() ** 2)

    class UsesKeywords(nn.Cell):
        def construct(self, v):
            return ops.grad(scaled_cube)(v, scale=v)  # scale is held constant

    np.testing.assert_allclose(UsesKeywords()(x).asnumpy(), 3 * x.asnumpy() ** 3)


def test_integer_parameter_gets_its_gradient_through_a_promoting_product():
    class IntWeight(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(np.array([3, 4], np.int64)), name="w")

        def construct(self, x):
            return self.w * x

    net = IntWeight()
    gw = ops.grad(net, None, net.w)(f32(1.5, 2.0))
    assert gw.dtype == cellgraph.int64
    np.testing.assert_array_equal(gw.asnumpy(), [1, 2])  # [1.5, 2.0] cast to the weight's dtype


def test_missing_function_and_bprop_arity_use_mindspore_wording():
    with pytest.raises(TypeError, match="'GradOperation' requires a forward network or function"):
        ops.GradOperation()()

    class TooFew(nn.Cell):
        def construct(self, x, y):
            return x + y

        def bprop(self, dout):
            return dout, dout

    class TooMany(TooFew):
        def bprop(self, x, y, z, out, dout):
            return dout, dout

    with pytest.raises(TypeError, match=r"requires at least 2 params 'out' and 'dout', but got "
                                        r"only 1: TooFew.bprop\(dout\)"):
        ops.GradOperation(get_all=True)(TooFew())(f32(1.0), f32(2.0))
    with pytest.raises(TypeError, match=r"requires the forward inputs as well as the 'out' and "
                                        r"'dout'. Expected 4 params"):
        ops.GradOperation(get_all=True)(TooMany())(f32(1.0), f32(2.0))


def test_a_jit_class_instance_is_not_differentiated():
    @cellgraph.jit_class
    class Scaler:
        def __init__(self):
            self.k = 2.0

        def __call__(self, x):
            return x * self.k

    with pytest.raises(TypeError, match="object with jit_class type 'Scaler'"):
        ops.grad(Scaler())


def test_insert_gradient_of_passes_python_numbers_through():
    """A Python number is a constant: InsertGradientOf returns it, and a graph's gradient with
    respect to number inputs is (), as in MindSpore 2.10."""
    import cellgraph as _cg
    from cellgraph import ops as _ops
    from cellgraph.ops import composite as _C

    stop = _ops.InsertGradientOf(lambda dx: _C.zeros_like(dx))
    grad_all = _C.GradOperation(get_all=True)

    def f(x, y):
        return stop(x) * y

    assert _cg.jit(lambda x, y: grad_all(f)(x, y))(1, 2) == ()
    assert _cg.jit(lambda x, y: f(x, y))(3, 2) == 6
    gx, gy = _cg.jit(lambda x, y: grad_all(f)(x, y))(_cg.Tensor(1.0), _cg.Tensor(2.0))
    assert float(gx.asnumpy()) == 0.0 and float(gy.asnumpy()) == 1.0


@pytest.mark.parametrize("mode", [cellgraph.GRAPH_MODE, cellgraph.PYNATIVE_MODE])
def test_insert_gradient_of_with_a_function_that_assigns_a_parameter(mode):
    """MindSpore 2.10: the assignment runs where the gradient reaches the function, once per
    backward pass, and the function's result is the gradient passed on."""
    cellgraph.set_context(mode=mode)
    total = Parameter(Tensor(np.zeros(2, np.float32)), name="total")

    def accumulate(g):
        ops.assign(total, total + g)
        return g * 2

    hooked = ops.InsertGradientOf(accumulate)

    def loss(x):
        y = hooked(x * 3)
        return (y * y).sum()

    try:
        for step in (1, 2):
            np.testing.assert_allclose(ops.grad(loss)(f32(1.0, 2.0)).asnumpy(), [36.0, 72.0])
            np.testing.assert_allclose(total.asnumpy(), [6.0 * step, 12.0 * step])
    finally:
        cellgraph.set_context(mode=cellgraph.GRAPH_MODE)
