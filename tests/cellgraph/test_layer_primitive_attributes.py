"""The primitives MindSpore's activation layers hold as attributes (`nn.ReLU().relu`, ...):
subclasses call them inside their own construct. Expected values recorded from MindSpore 2.10."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn

X = np.array([[-1.0, 0.5, 2.0]], np.float32)
WANT = {
    "relu": [0.0, 0.5, 2.0],
    "relu6": [0.0, 0.5, 2.0],
    "sigmoid": [0.26894, 0.62246, 0.8808],
    "tanh": [-0.76159, 0.46212, 0.96403],
    "softmax": [0.03911, 0.17529, 0.7856],
    "log_softmax": [-3.24131, -1.74131, -0.24131],
}
LAYERS = {"relu": nn.ReLU, "relu6": nn.ReLU6, "sigmoid": nn.Sigmoid, "tanh": nn.Tanh,
          "softmax": nn.Softmax, "log_softmax": nn.LogSoftmax}


@pytest.mark.parametrize("attr", sorted(WANT))
def test_subclass_construct_calls_the_layers_primitive(attr):
    class Twice(LAYERS[attr]):
        def construct(self, x):
            return getattr(self, attr)(x) * 2

    out = Twice()(Tensor(X)).asnumpy()
    np.testing.assert_allclose(out, 2 * np.array([WANT[attr]]), rtol=1e-4, atol=1e-5)
