"""Names the user chose (Parameters, arguments, functions) never clash with generated ones."""
import numpy as np

import cellgraph as cg
from cellgraph import Parameter, Tensor, nn, ops
from cellgraph.compiler.pipeline import compile_callable


class NamedLikeGenerated(nn.Cell):
    def __init__(self):
        super().__init__()
        self.p0 = Parameter(Tensor(np.float32([2.0, 3.0])), name="p0")

    def construct(self, x):  # the casts' dtypes become module-level constants of the code
        return ops.reduce_sum(ops.exp(ops.cast(x, cg.float64) * ops.cast(self.p0, cg.float64)))


def test_parameter_named_like_a_generated_constant():
    net = NamedLikeGenerated()
    x = Tensor(np.float32([0.5, -0.5]))
    gx, (gp,) = cg.grad(net, 0, weights=net.trainable_params())(x)
    p, xv = np.float64([2.0, 3.0]), x.asnumpy().astype(np.float64)
    np.testing.assert_allclose(gx.asnumpy(), p * np.exp(xv * p), rtol=1e-6)
    np.testing.assert_allclose(gp.asnumpy(), xv * np.exp(xv * p), rtol=1e-6)


def g(x, v1):
    return ops.reduce_sum(ops.maximum(x, v1) * x)


def test_arguments_named_like_temporaries():
    x, v = Tensor(np.float32([1.0, -2.0])), Tensor(np.float32([0.0, 0.0]))
    dx = cg.grad(g)(x, v)
    np.testing.assert_allclose(dx.asnumpy(), [2.0, 0.0])


def _k_mul(x):  # a user function named like a generated kernel
    return x * 3.0


def test_user_names_with_underscores_and_graph_names():
    def construct(construct, _v1, _k_mul):
        return construct * _v1 + _k_mul

    args = tuple(Tensor(np.float32([v])) for v in (2.0, 3.0, 4.0))
    np.testing.assert_allclose(cg.jit(construct)(*args).asnumpy(), [10.0])
    source = compile_callable(construct, args).module.source
    assert "def construct(construct_2, a__v1, a__k_mul)" in source
