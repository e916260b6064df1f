"""A Cell's own `bprop(self, *inputs, out, dout)` replaces differentiating its construct: inside
GradOperation, with weights, nested in other Cells, at second and third order, and with clear
errors when bprop returns the wrong number, type or shape of gradients."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Parameter, ParameterTuple, Tensor, nn, ops
from cellgraph.compiler.ir import all_graphs
from cellgraph.compiler.pipeline import compile_callable
from cellgraph.testing import check_grads

grad_all = ops.GradOperation(get_all=True)


def ones(*shape):
    return Tensor(np.ones(shape, np.float32))


class MulAdd(nn.Cell):
    """The MindSpore docs' example: the bprop is deliberately not construct's derivative, so the
    result shows which one ran."""

    def construct(self, x, y):
        return 2 * x + y

    def bprop(self, x, y, out, dout):
        return 2 * dout, 2 * y


def test_bprop_replaces_the_derivative_of_construct():
    x, y = Tensor(1, cellgraph.int32), Tensor(2, cellgraph.int32)
    dx, dy = grad_all(MulAdd())(x, y)
    assert (int(dx), int(dy)) == (2, 4)
    assert int(MulAdd()(x, y)) == 4  # the forward pass is construct's


class InlineMulAdd(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mul_add = MulAdd()
        self.param = 2

    def construct(self, x, y):
        return self.mul_add(x, y) + x + self.param * y


def test_custom_cell_inside_another_cell():
    x, y = Tensor(1, cellgraph.int32), Tensor(2, cellgraph.int32)
    dx, dy = grad_all(InlineMulAdd())(x, y)
    assert (int(dx), int(dy)) == (3, 6)


class DoubleTriple(nn.Cell):
    def construct(self, x, y):
        return x * y

    def bprop(self, x, y, out, dout):
        return dout * 2, dout * 3


class GradWrap(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.grad_op = ops.GradOperation(get_all=True)

    def construct(self, x, y):
        return self.grad_op(self.net)(x, y)


def test_inside_grad_operation_in_construct():
    x, y = Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([3.0, 4.0], np.float32))
    dx, dy = GradWrap(DoubleTriple())(x, y)
    np.testing.assert_allclose(dx.asnumpy(), [2, 2])
    np.testing.assert_allclose(dy.asnumpy(), [3, 3])
    dx, dy = ops.GradOperation(get_all=True, sens_param=True)(DoubleTriple())(
        x, y, Tensor(np.array([1.0, 10.0], np.float32)))
    np.testing.assert_allclose(dy.asnumpy(), [3, 30])


class ScaledMatMul(nn.Cell):
    """construct reads a Parameter; bprop speaks only for the inputs."""

    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
        self.z = Parameter(Tensor(np.array([1.0], np.float32)), name="z")

    def construct(self, x, y):
        return self.matmul(x * self.z, y)

    def bprop(self, x, y, out, dout):
        return x + x, y + y


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = ScaledMatMul()

    def construct(self, x, y):
        return self.net(x, y)


def test_with_weights_the_cells_parameters_get_zero_gradients():
    x = Tensor([[0.5, 0.6, 0.4], [1.2, 1.3, 1.1]], cellgraph.float32)
    y = Tensor([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], cellgraph.float32)
    net = Outer()
    grad_op = ops.GradOperation(get_all=True, get_by_list=True)
    (dx, dy), (dz,) = grad_op(net, ParameterTuple(net.trainable_params()))(x, y)
    np.testing.assert_allclose(dx.asnumpy(), 2 * x.asnumpy())
    np.testing.assert_allclose(dy.asnumpy(), 2 * y.asnumpy())
    np.testing.assert_allclose(dz.asnumpy(), [0.0])


class WeightedBprop(nn.Cell):
    """bprop reads a Parameter of its own Cell, and the surrounding net has one too."""

    def __init__(self):
        super().__init__()
        self.k = Parameter(Tensor(np.array([3.0], np.float32)), name="k")

    def construct(self, x):
        return x * self.k

    def bprop(self, x, out, dout):
        return (dout * self.k,)


class WeightedNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = WeightedBprop()
        self.w = Parameter(Tensor(np.array([0.5, 2.0], np.float32)), name="w")

    def construct(self, x):
        return ops.reduce_sum(self.inner(x * self.w))


def test_weights_outside_the_custom_cell_are_differentiated_through_it():
    net = WeightedNet()
    x = Tensor(np.array([1.0, 4.0], np.float32))
    dx, (dw, dk) = cellgraph.grad(net, 0, [net.w, net.inner.k])(x)
    np.testing.assert_allclose(dx.asnumpy(), [1.5, 6.0])    # k * w
    np.testing.assert_allclose(dw.asnumpy(), [3.0, 12.0])   # k * x
    np.testing.assert_allclose(dk.asnumpy(), [0.0])         # bprop does not speak for k


class Cube(nn.Cell):
    """x³ with a hand-written, differentiable bprop."""

    def construct(self, x):
        return x * x * x

    def bprop(self, x, out, dout):
        return (3 * x * x * dout,)


class CubeScaled(nn.Cell):
    """A bprop that is wrong on purpose (4x² instead of 3x²): higher orders must follow it."""

    def construct(self, x):
        return x * x * x

    def bprop(self, x, out, dout):
        return (4 * x * x * dout,)


def test_second_and_third_order_go_through_the_users_bprop():
    x = Tensor(np.array([1.5, -2.0]))
    g1 = cellgraph.grad(Cube())
    g2 = cellgraph.grad(g1)
    g3 = cellgraph.grad(g2)
    np.testing.assert_allclose(g1(x).asnumpy(), 3 * x.asnumpy() ** 2)
    np.testing.assert_allclose(g2(x).asnumpy(), 6 * x.asnumpy())
    np.testing.assert_allclose(g3(x).asnumpy(), [6.0, 6.0])
    wrong = cellgraph.grad(cellgraph.grad(CubeScaled()))(x)
    np.testing.assert_allclose(wrong.asnumpy(), 8 * x.asnumpy())
    check_grads(Cube(), (x,), order=3)


def test_second_order_through_grad_operation_cells():
    class First(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.grad = ops.GradOperation()

        def construct(self, x):
            return self.grad(self.net)(x)

    x = Tensor(np.array([2.0], np.float32))
    np.testing.assert_allclose(First(First(Cube()))(x).asnumpy(), [12.0])


class TwoOutputs(nn.Cell):
    def construct(self, x):
        return x + 1, x + 2

    def bprop(self, x, out, dout):
        return (out[1] * dout[0] + dout[1],)


class UsesFirstOutput(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cell = TwoOutputs()

    def construct(self, x):
        first, _ = self.cell(x)
        return first


def test_outputs_used_only_by_bprop_and_unused_douts():
    x = Tensor(np.array([1.0, 5.0], np.float32))
    (dx,) = grad_all(UsesFirstOutput())(x)
    # the second output is unused: its dout is zero, and out[1] = x + 2 is still computed
    np.testing.assert_allclose(dx.asnumpy(), [3.0, 7.0])


class GradInBprop(nn.Cell):
    """A bprop that itself takes a gradient (of another Cell)."""

    def __init__(self):
        super().__init__()
        self.square = SquareCell()

    def construct(self, x):
        return self.square(x)

    def bprop(self, x, out, dout):
        return (grad_all(self.square)(x)[0] * dout * 10,)


class SquareCell(nn.Cell):
    def construct(self, x):
        return x * x


def test_bprop_that_takes_a_gradient():
    x = Tensor(np.array([1.0, 3.0], np.float32))
    (dx,) = grad_all(GradInBprop())(x)
    np.testing.assert_allclose(dx.asnumpy(), [20.0, 60.0])


def test_undifferentiated_custom_cells_compile_to_construct():
    x, y = ones(2), ones(2)
    graph = compile_callable(InlineMulAdd(), (x, y)).graph
    kinds = {n.callee.name for g in all_graphs(graph) for n in g.nodes}
    assert "custom_vjp" not in kinds and "grad" not in kinds
    np.testing.assert_allclose(InlineMulAdd()(x, y).asnumpy(), [6.0, 6.0])  # 3x + 3y
    parsed = cellgraph.dump_ir(InlineMulAdd(), x, y, stage="parse")
    assert "custom_vjp(" in parsed and "@MulAdd_bprop" in parsed
    optimized = cellgraph.dump_ir(grad_all(InlineMulAdd()), x, y, stage="optimize")
    assert "custom_vjp" not in optimized


def test_keyword_arguments_bind_to_the_inputs():
    class KW(nn.Cell):
        def __init__(self):
            super().__init__()
            self.cell = DoubleTriple()

        def construct(self, x, y):
            return self.cell(y=y, x=x)

    dx, dy = grad_all(KW())(ones(2), ones(2))
    np.testing.assert_allclose(dx.asnumpy(), [2, 2])
    np.testing.assert_allclose(dy.asnumpy(), [3, 3])


# ----- errors ---------------------------------------------------------------------------------

class WrongCount(nn.Cell):
    def construct(self, x, y):
        return 2 * x + y

    def bprop(self, x, y, out, dout):
        return (2 * dout,)


class WrongShape(nn.Cell):
    def __init__(self):
        super().__init__()
        self.ones = Tensor(np.ones([2], np.float32))

    def construct(self, x, y):
        return 2 * x + y

    def bprop(self, x, y, out, dout):
        return dout, self.ones


class WrongType(nn.Cell):
    def construct(self, x, y):
        return 2 * x + y

    def bprop(self, x, y, out, dout):
        return 2 * dout, 2


class WrongDType(nn.Cell):
    def construct(self, x):
        return x * 2

    def bprop(self, x, out, dout):
        return (ops.cast(dout, cellgraph.float64),)


class NotATuple(nn.Cell):
    def construct(self, x, y):
        return x + y

    def bprop(self, x, y, out, dout):
        return dout


@pytest.mark.parametrize("cell, error, message, line", [
    (WrongCount(), ValueError,
     (r"WrongCount.bprop returned 1 gradient \(Tensor f32\[2,2\],\), expected 2 gradients "
     r"\(one per input of construct: \(Tensor f32\[2,2\], Tensor f32\[2,2\]\)\)"),
     "return (2 * dout,)"),
    (WrongShape(), ValueError,
     r"WrongShape.bprop returned a gradient of shape \(2,\) for input 1 of shape \(2, 2\)",
     "return dout, self.ones"),
    (WrongType(), TypeError,
     r"WrongType.bprop returned int 2 as the gradient of input 1, expected a Tensor f32\[2,2\]",
     "return 2 * dout, 2"),
    (NotATuple(), TypeError,
     r"NotATuple.bprop must return a tuple of gradients, got Tensor f32\[2,2\]",
     "return dout"),
], ids=["count", "shape", "type", "not_a_tuple"])
def test_wrong_gradients_name_the_cell_the_values_and_the_line(cell, error, message, line):
    with pytest.raises(error, match=message) as info:
        grad_all(cell)(ones(2, 2), ones(2, 2))
    text = str(info.value)
    assert line in text and "test_custom_bprop.py" in text


def test_wrong_dtype():
    with pytest.raises(TypeError, match=r"WrongDType.bprop returned a gradient of dtype Float64 "
                                        r"for input 0 of dtype Float32"):
        grad_all(WrongDType())(ones(3))


def test_python_number_inputs_take_any_gradient():
    class Scale(nn.Cell):
        def construct(self, x, k):
            return x * k

        def bprop(self, x, k, out, dout):
            return dout * k, 0

    (dx,) = grad_all(Scale())(ones(2), 3.0)
    np.testing.assert_allclose(dx.asnumpy(), [3.0, 3.0])


class Branchy(nn.Cell):
    """A custom Cell inside a Tensor-dependent `if`."""

    def __init__(self):
        super().__init__()
        self.cube = Cube()

    def construct(self, x):
        if ops.reduce_sum(x) > 0:
            y = self.cube(x)
        else:
            y = x * 2.0
        return ops.reduce_sum(y)


def test_custom_cell_inside_a_tensor_if():
    x = Tensor(np.array([0.5, 1.0]))
    assert float(Branchy()(x)) == pytest.approx(1.125)
    np.testing.assert_allclose(cellgraph.grad(Branchy())(x).asnumpy(), [0.75, 3.0])
    np.testing.assert_allclose(cellgraph.grad(cellgraph.grad(Branchy()))(x).asnumpy(), [3, 6])
    np.testing.assert_allclose(cellgraph.grad(Branchy())(-x).asnumpy(), [2.0, 2.0])


class Assigns(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = Parameter(Tensor(np.array([0.0], np.float32)), name="count")

    def construct(self, x):
        ops.assign(self.count, self.count + 1)
        return x * 2

    def bprop(self, x, out, dout):
        return (dout * 2,)


def test_assigning_parameters_in_a_custom_cell_is_refused_clearly():
    with pytest.raises(SyntaxError, match=r"Assigns: a Cell that defines bprop cannot assign "
                                          r"Parameters in construct \(it assigns count\)"):
        Assigns()(ones(2))


def test_gradients_beyond_the_inputs_are_left_unread():
    class Net(nn.Cell):
        def construct(self, x, y):
            return x * y * y

        def bprop(self, x, y, out, dout):
            return x + y, x * y, out, dout  # MindSpore reads the first two

    grads = ops.GradOperation(get_all=True)(Net())(Tensor(np.float32(1.0)),
                                                  Tensor(np.float32(2.0)))
    assert [float(g) for g in grads] == [3.0, 2.0]


def test_a_bprop_returns_a_tuple_even_for_one_input():
    """MindSpore refuses a lone gradient from a Cell's bprop (TypeError: For bprop function,
    output should be a tuple)."""
    import cellgraph as _cg

    class Twice(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return dout * 3

    class Wrapped(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return (dout * 3,)

    grad = _cg.ops.GradOperation(get_all=True)
    with pytest.raises(TypeError, match="For bprop function, output should be a tuple"):
        _cg.jit(lambda t: grad(Twice())(t))(_cg.Tensor([1.0]))
    (g,) = _cg.jit(lambda t: grad(Wrapped())(t))(_cg.Tensor([1.0]))
    assert float(g.asnumpy()[0]) == 3.0
