"""The 2.x functional differentiation API as scripts combine it: grad/value_and_grad with
grad_position tuples, weights and has_aux (their return structures), stop_gradient inside,
jvp/vjp, jacrev/jacfwd and a Hessian for a Newton step, all checked numerically."""
import numpy as np

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn, ops


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([1.5, -0.5], np.float32)), name="w")

    def construct(self, x, y):
        z = x * self.w
        return (z * z).sum() + (y * z).sum(), z


def test_grad_return_structures():
    net = Scale()
    x = Tensor(np.array([1.0, 2.0], np.float32))
    y = Tensor(np.array([0.5, -1.0], np.float32))
    w = net.w.asnumpy()
    (gx, gy), (gw,) = ms.grad(net, grad_position=(0, 1), weights=net.trainable_params(),
                              has_aux=True)(x, y)[0]
    xn, yn = x.asnumpy(), y.asnumpy()
    np.testing.assert_allclose(gx.asnumpy(), 2 * xn * w ** 2 + yn * w, rtol=1e-6)
    np.testing.assert_allclose(gy.asnumpy(), xn * w, rtol=1e-6)
    np.testing.assert_allclose(gw.asnumpy(), 2 * w * xn ** 2 + yn * xn, rtol=1e-6)

    (loss, z), grads = ms.value_and_grad(net, grad_position=None, weights=net.w,
                                         has_aux=True)(x, y)
    np.testing.assert_allclose(z.asnumpy(), xn * w, rtol=1e-6)
    np.testing.assert_allclose(loss.asnumpy(), ((xn * w) ** 2).sum() + (yn * xn * w).sum(),
                               rtol=1e-6)
    np.testing.assert_allclose(grads.asnumpy(), gw.asnumpy(), rtol=1e-6)

    gx_only, aux = ops.grad(net, 0, None, has_aux=True)(x, y)
    np.testing.assert_allclose(gx_only.asnumpy(), gx.asnumpy(), rtol=1e-6)
    (aux_z,) = aux  # the outputs after the first, as a tuple
    np.testing.assert_allclose(aux_z.asnumpy(), z.asnumpy(), rtol=1e-6)


def test_stop_gradient_blocks_a_path():
    def f(x):
        y = x * x
        return y + ops.stop_gradient(y) * x

    x = Tensor(np.array([3.0], np.float32))
    # d/dx [x^2 + c * x] with c = x^2 held constant: 2x + x^2
    np.testing.assert_allclose(ms.grad(f)(x).asnumpy(), [15.0])


def rosenbrock(p):
    x, y = p[0], p[1]
    return (1 - x) ** 2 + 100 * (y - x * x) ** 2


def test_jvp_vjp_and_jacobians():
    p = Tensor(np.array([0.5, -0.3], np.float64))
    v = Tensor(np.array([1.0, 2.0], np.float64))
    out, tangent = ms.jvp(rosenbrock, p, v)
    g = ms.grad(rosenbrock)(p).asnumpy()
    np.testing.assert_allclose(tangent.asnumpy(), g @ v.asnumpy(), rtol=1e-10)
    out2, vjp_fn = ms.vjp(rosenbrock, p)
    np.testing.assert_allclose(out2.asnumpy(), out.asnumpy())
    (cotangent,) = vjp_fn(Tensor(np.array(2.0, np.float64)))
    np.testing.assert_allclose(cotangent.asnumpy(), 2 * g, rtol=1e-10)

    def field(q):
        return ops.stack([q[0] * q[1], ops.sin(q[0]) + q[1] ** 2])

    expected = np.array([[-0.3, 0.5], [np.cos(0.5), -0.6]])
    np.testing.assert_allclose(ms.jacrev(field)(p).asnumpy(), expected, rtol=1e-10)
    np.testing.assert_allclose(ms.jacfwd(field)(p).asnumpy(), expected, rtol=1e-10)


def test_newton_iterations_with_the_hessian():
    p = Tensor(np.array([-1.2, 1.0], np.float64))
    hess_fn = ms.jacfwd(ms.jacrev(rosenbrock))
    grad_fn = ms.grad(rosenbrock)
    for _ in range(20):
        step = np.linalg.solve(hess_fn(p).asnumpy(), grad_fn(p).asnumpy())
        p = Tensor(p.asnumpy() - step)
    np.testing.assert_allclose(p.asnumpy(), [1.0, 1.0], atol=1e-8)
    h = ms.hessian(rosenbrock)(Tensor(np.array([1.0, 1.0], np.float64)))
    np.testing.assert_allclose(h.asnumpy(), [[802.0, -400.0], [-400.0, 200.0]], rtol=1e-10)
