"""mindspore.numpy as a NumPy replacement inside a training program: building features with
mnp.linspace / meshgrid / stack, least squares with mnp functions, and mnp calls inside a
Cell's construct that is differentiated."""
import numpy as np

import cellgraph as ms
import cellgraph.numpy as mnp
from cellgraph import Tensor, nn


def test_numpy_functions_match_numpy():
    x = mnp.linspace(-1.0, 1.0, 5)
    y = mnp.arange(3, dtype=mnp.float32)
    gx, gy = mnp.meshgrid(x, y)
    assert gx.shape == (3, 5)
    np.testing.assert_allclose(gx.asnumpy(), np.meshgrid(np.linspace(-1, 1, 5), np.arange(3))[0],
                               rtol=1e-6)
    features = mnp.stack([gx.ravel(), gy.ravel(), mnp.ones(15)], axis=1)
    assert features.shape == (15, 3)
    np.testing.assert_allclose(mnp.mean(features, axis=0).asnumpy(), [0.0, 1.0, 1.0],
                               atol=1e-6)
    z = mnp.where(gx > 0, gx, mnp.zeros_like(gx))
    np.testing.assert_allclose(z.asnumpy(), np.maximum(gx.asnumpy(), 0))
    np.testing.assert_allclose(mnp.dot(features.T, features).asnumpy(),
                               features.asnumpy().T @ features.asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(mnp.concatenate((x, x))[4:6].asnumpy(), [1.0, -1.0])
    np.testing.assert_allclose(mnp.exp(mnp.log(y + 1)).asnumpy(), [1, 2, 3], rtol=1e-6)
    np.testing.assert_allclose(mnp.clip(x, -0.5, 0.5).asnumpy(), np.clip(x.asnumpy(), -0.5, 0.5))
    np.testing.assert_allclose(mnp.std(x).asnumpy(), np.std(x.asnumpy()), rtol=1e-6)
    assert int(mnp.argmax(mnp.array([1, 5, 2])).asnumpy()) == 1


class Polynomial(nn.Cell):
    def __init__(self, degree):
        super().__init__()
        self.coef = ms.Parameter(Tensor(np.zeros(degree + 1, np.float32)), name="coef")
        self.powers = mnp.arange(degree + 1, dtype=mnp.float32)

    def construct(self, x):
        basis = mnp.power(mnp.expand_dims(x, -1), self.powers)
        return mnp.matmul(basis, self.coef)


def test_fit_polynomial_with_numpy_inside_construct():
    x = mnp.linspace(-1.0, 1.0, 40)
    y = 1.0 - 2.0 * x + 0.5 * x ** 3
    model = Polynomial(3)
    optimizer = nn.Adam(model.trainable_params(), learning_rate=0.05)

    def loss_fn(inputs, targets):
        return mnp.mean(mnp.square(model(inputs) - targets))

    grad_fn = ms.value_and_grad(loss_fn, None, optimizer.parameters)
    for _ in range(400):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
    assert float(loss.asnumpy()) < 1e-3
    np.testing.assert_allclose(model.coef.asnumpy(), [1.0, -2.0, 0.0, 0.5], atol=0.05)
    # the gradient of the loss at the solution is (nearly) zero
    _, grads = grad_fn(x, y)
    assert np.abs(grads[0].asnumpy()).max() < 0.05
