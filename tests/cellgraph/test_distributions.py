"""nn.probability.distribution: densities, statistics and KL against closed forms, samples
against their moments, gradients through log_prob, and use inside a graph."""
import math

import numpy as np

import cellgraph as ms
import cellgraph.nn.probability.distribution as msd
from cellgraph import Tensor, nn
from cellgraph.testing import check_grads


def t32(v):
    return Tensor(np.asarray(v, np.float32))


def test_normal():
    normal = msd.Normal(1.0, 2.0)
    x = np.array([-1.0, 0.5, 3.0])
    ref = np.exp(-0.5 * ((x - 1) / 2) ** 2) / (2 * math.sqrt(2 * math.pi))
    np.testing.assert_allclose(normal.prob(t32(x)).asnumpy(), ref, rtol=1e-5)
    cdf = np.array([0.5 * (1 + math.erf((v - 1) / (2 * math.sqrt(2)))) for v in x])
    np.testing.assert_allclose(normal.cdf(t32(x)).asnumpy(), cdf, rtol=1e-5)
    np.testing.assert_allclose(normal.entropy().asnumpy(), 0.5 * math.log(2 * math.pi * math.e
                                                                         * 4), rtol=1e-6)
    kl = normal.kl_loss("Normal", t32(0.0), t32(1.0)).asnumpy()
    np.testing.assert_allclose(kl, 0.5 * (4 + 1 - 1) - math.log(2), rtol=1e-6)
    ms.set_seed(0)
    draws = normal.sample((20000,)).asnumpy()
    assert abs(draws.mean() - 1) < 0.05 and abs(draws.std() - 2) < 0.05
    normal64 = msd.Normal(dtype=ms.float64)
    check_grads(normal64.log_prob, (x, np.array(0.3), np.array(1.5)), order=2)


def test_uniform_and_bernoulli():
    uniform = msd.Uniform(0.0, 4.0)
    np.testing.assert_allclose(uniform.prob(t32([-1.0, 1.0, 5.0])).asnumpy(), [0, 0.25, 0])
    np.testing.assert_allclose(uniform.cdf(t32([1.0])).asnumpy(), [0.25])
    np.testing.assert_allclose(uniform.var().asnumpy(), 16 / 12, rtol=1e-6)
    samples = uniform.sample((10000,)).asnumpy()
    assert samples.min() >= 0 and samples.max() < 4 and abs(samples.mean() - 2) < 0.05
    bern = msd.Bernoulli(0.3)
    np.testing.assert_allclose(bern.prob(Tensor(np.array([0, 1]))).asnumpy(), [0.7, 0.3],
                               rtol=1e-6)
    np.testing.assert_allclose(bern.entropy().asnumpy(), -(0.3 * math.log(0.3)
                                                           + 0.7 * math.log(0.7)), rtol=1e-6)
    assert abs(bern.sample((10000,)).asnumpy().mean() - 0.3) < 0.02
    assert bern.sample((2,)).dtype == ms.int32


def test_distribution_inside_a_graph():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.normal = msd.Normal()

        def construct(self, value, mean, sd):
            return self.normal("log_prob", value, mean, sd)

    out = Net()(t32([0.0, 1.0]), t32(0.0), t32(2.0)).asnumpy()
    np.testing.assert_allclose(out, -0.5 * (np.array([0, 1]) / 2) ** 2 - math.log(2)
                               - 0.5 * math.log(2 * math.pi), rtol=1e-5)


def test_distribution_arguments_checked_as_mindspore():
    """MindSpore's construction checks: float dtypes for continuous distributions (int, uint or
    float for Bernoulli), a str name, a non-negative int seed, sd > 0, low < high, 0 < p < 1,
    parameters that broadcast; lists of numbers are taken as parameters."""
    import pytest

    from cellgraph.nn.probability import bijector as msb

    for make in (lambda: msd.Normal(0.0, 1.0, dtype=ms.int32),
                 lambda: msd.Uniform(0.0, 1.0, dtype=ms.int32),
                 lambda: msd.Bernoulli([0.1], dtype=ms.bool_),
                 lambda: msd.Normal(0.0, 1.0, name=1.0), lambda: msd.Normal(0.0, 1.0, seed="s"),
                 lambda: msb.Exp(name=0.1)):
        with pytest.raises(TypeError):
            make()
    for make in (lambda: msd.Normal(0.0, 0.0), lambda: msd.Uniform(1.0, 0.0),
                 lambda: msd.Bernoulli([-0.1]), lambda: msd.Bernoulli([1.0]),
                 lambda: msd.Normal([[2.0], [1.0]], [[2.0], [3.0], [4.0]])):
        with pytest.raises(ValueError):
            make()
    uniform = msd.Uniform([0.0, 1.0], [1.0, 3.0])
    assert uniform.mean().asnumpy().tolist() == [0.5, 2.0]


def test_distribution_parameters_are_read_as_properties():
    # MindSpore 2.10's values for the same constructions (Normal exposes none)
    cases = [(msd.Bernoulli(0.2), "probs", 0.2), (msd.Cauchy(0.0, 1.0), "scale", 1.0),
             (msd.Gamma([1.0], [2.0]), "rate", [2.0]),
             (msd.Beta([1.0], [2.0]), "concentration0", [2.0]),
             (msd.LogNormal(0.0, 1.0), "loc", 0.0), (msd.Uniform(0.0, 2.0), "high", 2.0),
             (msd.Poisson([2.0]), "rate", [2.0]), (msd.Categorical([0.5, 0.5]), "probs", [0.5, 0.5]),
             (msd.Geometric(0.5), "probs", 0.5), (msd.Exponential(3.0), "rate", 3.0),
             (msd.Logistic(1.0, 2.0), "loc", 1.0)]
    for dist, name, expected in cases:
        value = getattr(dist, name)
        assert value.dtype == ms.float32
        np.testing.assert_allclose(value.asnumpy(), expected)
    assert msd.Bernoulli().probs is None

    class Shifted(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dist = msd.Bernoulli(0.3)

        def construct(self, x):
            return self.dist.probs + x

    ms.set_context(mode=ms.GRAPH_MODE)
    np.testing.assert_allclose(Shifted()(ms.Tensor(1.0)).asnumpy(), 1.3, rtol=1e-6)
