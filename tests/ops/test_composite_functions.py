"""ops.composite has the functions of ops.function MindSpore's composite module exposes
(tensor_dot, batch_dot, dot, mm, cummin, count_nonzero, sequence_mask, the random ones, ...):
the same functions as ops', and they work inside construct."""
import numpy as np

from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.ops import composite as C

_FROM_OPS = ("batch_dot", "count_nonzero", "cummin", "dot", "gamma", "laplace", "mm", "normal",
             "poisson", "repeat_elements", "repeat_interleave", "sequence_mask", "tensor_dot",
             "uniform", "vecdot")


def test_composite_names_are_the_ops_functions():
    for name in _FROM_OPS:
        assert getattr(C, name) is getattr(ops, name), name
        assert name in C.__all__


class _Cross(nn.Cell):
    """A cross layer as Deep&Cross writes it: C.tensor_dot over the feature axis."""

    def __init__(self, width):
        super().__init__()
        self.weight = Parameter(Tensor(np.arange(width, dtype=np.float32)[:, None] / width))

    def construct(self, x):
        x_l = ops.expand_dims(x, 2)
        return C.tensor_dot(x_l, self.weight, ((1,), (0,))) + C.batch_dot(x, x, 1)[:, None]


def test_composite_tensor_dot_in_a_graph():
    x = np.arange(12, dtype=np.float32).reshape(3, 4) / 10
    weight = np.arange(4, dtype=np.float32) / 4
    out = _Cross(4)(Tensor(x)).asnumpy()
    expected = (x @ weight)[:, None, None] + (x * x).sum(1)[:, None, None]
    np.testing.assert_allclose(out, expected, rtol=1e-6)
    grad = ops.grad(_Cross(4))(Tensor(x)).asnumpy()
    np.testing.assert_allclose(grad, weight[None, :] + 2 * x, rtol=1e-6)
