"""The 1.x gradient idioms: GradOperation(get_all=True) wrapped in a GradNetWrtX cell,
gradients with respect to ParameterTuple weights, sens_param, and a second derivative by
nesting GradOperation; all checked against finite differences."""
import numpy as np

from cellgraph import Parameter, ParameterTuple, Tensor, nn, ops
from cellgraph import dtype as mstype
from cellgraph.testing import check_grads


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
        self.scale = Parameter(Tensor(np.array([2.0], np.float32)), name='scale')

    def construct(self, x, y):
        return self.matmul(x, y) * self.scale


class GradNetWrtX(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.params = ParameterTuple(net.trainable_params())
        self.grad_op = ops.GradOperation(get_all=True, get_by_list=True)

    def construct(self, x, y):
        gradient_function = self.grad_op(self.net, self.params)
        return gradient_function(x, y)


class GradWithSens(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.grad_op = ops.GradOperation(sens_param=True)

    def construct(self, x, y, sens):
        return self.grad_op(self.net)(x, y, sens)


class SinTimesX(nn.Cell):
    def construct(self, x):
        return ops.sin(x) * x


class SecondGrad(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.grad = ops.GradOperation()
        self.first = GradFirst(net)

    def construct(self, x):
        return self.grad(self.first)(x)


class GradFirst(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.grad = ops.GradOperation()

    def construct(self, x):
        return self.grad(self.net)(x)


X = np.array([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], np.float32)
Y = np.array([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], np.float32)


def test_grad_wrt_inputs_and_weights():
    (dx, dy), (dscale,) = GradNetWrtX(Net())(Tensor(X), Tensor(Y))
    np.testing.assert_allclose(dx.asnumpy(), 2 * np.ones((2, 3)) @ Y.T, rtol=1e-6)
    np.testing.assert_allclose(dy.asnumpy(), 2 * X.T @ np.ones((2, 3)), rtol=1e-6)
    np.testing.assert_allclose(dscale.asnumpy(), [(X @ Y).sum()], rtol=1e-6)
    check_grads(lambda x, y: Net()(x, y), (Tensor(X, mstype.float64), Tensor(Y, mstype.float64)),
                order=1)


def test_sens_param_weights_the_output():
    sens = np.arange(6, dtype=np.float32).reshape(2, 3)
    dx = GradWithSens(Net())(Tensor(X), Tensor(Y), Tensor(sens))
    np.testing.assert_allclose(dx.asnumpy(), 2 * sens @ Y.T, rtol=1e-6)


def test_nested_grad_operation_gives_second_derivative():
    x = Tensor(np.array([1.0, -2.0, 0.5], np.float32))
    xn = x.asnumpy()
    np.testing.assert_allclose(SecondGrad(SinTimesX())(x).asnumpy(),
                               2 * np.cos(xn) - xn * np.sin(xn), rtol=1e-5)
    np.testing.assert_allclose(GradFirst(SinTimesX())(x).asnumpy(),
                               np.sin(xn) + xn * np.cos(xn), rtol=1e-5)
