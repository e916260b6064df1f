"""Cauchy, Logistic, LogNormal, Exponential, Gamma, Beta, Poisson, Geometric and Categorical:
their densities and statistics against MindSpore 2.10's (recorded in
tests/data/distributions_mindspore.json from the same calls), their construction checks
(MindSpore's error types and messages), samples against their moments, and use in a graph."""
import json
from pathlib import Path

import numpy as np
import pytest

import cellgraph as ms
import cellgraph.nn.probability.distribution as msd
from cellgraph import Tensor, dtype, nn

RECORDED = json.loads((Path(__file__).parent.parent / "data" /
                       "distributions_mindspore.json").read_text())

V = Tensor(np.array([0.25, 0.5, 2.0], np.float32))
VI = Tensor(np.array([0., 1., 3.], np.float32))
SPECS = {
    "Cauchy": (lambda: msd.Cauchy(0.5, 2.0), V, ("Cauchy", Tensor([1.0]), Tensor([3.0]))),
    "Logistic": (lambda: msd.Logistic(0.5, 2.0), V, None),
    "LogNormal": (lambda: msd.LogNormal(0.5, 2.0), V,
                  ("LogNormal", Tensor([1.0]), Tensor([3.0]))),
    "Exponential": (lambda: msd.Exponential([0.5, 2.0, 1.5]), V,
                    ("Exponential", Tensor([1.0]))),
    "Gamma": (lambda: msd.Gamma([0.5, 2.0, 3.0], [1.5, 2.0, 0.5]), V,
              ("Gamma", Tensor([1.0]), Tensor([3.0]))),
    "Beta": (lambda: msd.Beta([0.5, 2.0, 3.0], [1.5, 2.0, 0.5]),
             Tensor(np.array([0.25, 0.5, 0.75], np.float32)),
             ("Beta", Tensor([1.0]), Tensor([3.0]))),
    "Poisson": (lambda: msd.Poisson([0.5, 2.0, 3.5]),
                Tensor(np.array([[0.], [1.], [3.5], [-1.]], np.float32)), None),
    "Geometric": (lambda: msd.Geometric([0.25, 0.5, 0.75]), VI, ("Geometric", Tensor([0.5]))),
    "Categorical": (lambda: msd.Categorical([0.25, 0.5, 0.25]), VI,
                    ("Categorical", Tensor([0.5, 0.25, 0.25]))),
}
VALUE_METHODS = {"prob", "log_prob", "cdf", "log_cdf", "survival_function", "log_survival"}


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_values_as_mindspore(key):
    name, method = key.split(".")
    make, value, kl_args = SPECS[name]
    dist = make()
    if method in VALUE_METHODS:
        out = getattr(dist, method)(value)
    elif method in ("kl_loss", "cross_entropy"):
        out = getattr(dist, method)(*kl_args)
    else:
        out = getattr(dist, method)()
    expected = np.asarray(RECORDED[key], np.float64)
    got = out.asnumpy()
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5, equal_nan=True)


@pytest.mark.parametrize("call, error, message", [
    (lambda: msd.Gamma(3., [4.]), TypeError, "Input concentration can't be scalar"),
    (lambda: msd.Gamma([3.], -4.), TypeError, "Input rate can't be scalar"),
    (lambda: msd.Gamma([0.], [1.]), ValueError, "concentration must be greater than zero."),
    (lambda: msd.Gamma([1.], [1.], dtype=dtype.int32), TypeError, "'dtype'"),
    (lambda: msd.Gamma([[2.], [1.]], [[2.], [3.], [4.]]), ValueError, "broadcast"),
    (lambda: msd.Beta(3., [4.]), TypeError, "Input concentration1 can't be scalar"),
    (lambda: msd.Beta(2., 3.), TypeError, "Input concentration0 can't be scalar"),
    (lambda: msd.Beta([1.], [-1.]), ValueError, "concentration0 must be greater than zero."),
    (lambda: msd.Poisson(0.1), TypeError, "Input rate can't be scalar"),
    (lambda: msd.Poisson([0.]), ValueError, "rate must be greater than zero."),
    (lambda: msd.Poisson([0.1], dtype=dtype.bool_), TypeError, "'dtype'"),
    (lambda: msd.Categorical([1.0]), ValueError, "Probabilities must be less than one"),
    (lambda: msd.Categorical([0.0]), ValueError, "Probabilities must be greater than zero"),
    (lambda: msd.Categorical([[0.1, 0.2], [0.4, 0.6]]), ValueError, "should sum to one"),
    (lambda: msd.Categorical(0.2), ValueError, "must have rank >= 1."),
    (lambda: msd.Exponential([-1.]), ValueError, "rate must be greater than zero."),
    (lambda: msd.Geometric([1.1]), ValueError, "Probabilities must be less than one"),
    (lambda: msd.Geometric([0.5], dtype=dtype.bool_), TypeError, "'dtype'"),
    (lambda: msd.Logistic(0., 0.), ValueError, "scale must be greater than zero."),
    (lambda: msd.LogNormal(0., -1.), ValueError, "Standard deviation must be greater than zero."),
    (lambda: msd.Cauchy(0., 0.), ValueError, "scale must be greater than zero."),
    (lambda: msd.Cauchy(0., 1., seed="seed"), TypeError, "For 'Cauchy', the 'seed' must be int"),
    (lambda: msd.Cauchy(0., 1., name=1.0), TypeError, "the type of 'name' should be 'str'"),
    (lambda: msd.Cauchy(0., 1., dtype=dtype.int32), TypeError, "'dtype'"),
])
def test_construction_checks(call, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
        call()


def test_constructed_without_parameters_and_undefined_statistics():
    for cls in (msd.Cauchy, msd.Logistic, msd.LogNormal, msd.Exponential, msd.Gamma, msd.Beta,
                msd.Poisson, msd.Geometric, msd.Categorical):
        assert isinstance(cls(), msd.Distribution)
    cauchy = msd.Cauchy(3.0, 4.0)
    for method in ("mean", "var", "sd"):
        with pytest.raises(ValueError, match="is undefined for Cauchy distribution"):
            getattr(cauchy, method)()


def test_cross_entropy_takes_the_other_parameters_then_optionally_its_own():
    cauchy, bare = msd.Cauchy(3.0, 4.0), msd.Cauchy()
    mu, s = Tensor([0.0]), Tensor([1.0])
    own = cauchy.cross_entropy("Cauchy", mu, s).asnumpy()
    np.testing.assert_allclose(own, (cauchy.entropy() + cauchy.kl_loss("Cauchy", mu, s))
                               .asnumpy(), rtol=1e-6)
    given = bare.cross_entropy("Cauchy", mu, s, Tensor([3.0]), Tensor([4.0])).asnumpy()
    np.testing.assert_allclose(given, own, rtol=1e-6)


def test_samples_against_moments():
    ms.set_seed(1)
    cat = msd.Categorical([[0.2, 0.8], [0.9, 0.1]]).sample((4000,)).asnumpy()
    assert cat.shape == (4000, 2) and cat.dtype == np.int32
    np.testing.assert_allclose(cat.mean(0), [0.8, 0.1], atol=0.03)
    np.testing.assert_allclose(msd.Geometric([0.5]).sample((4000,)).asnumpy().mean(), 1.0,
                               atol=0.1)
    np.testing.assert_allclose(np.median(msd.Cauchy(1.0, 2.0).sample((4001,)).asnumpy()), 1.0,
                               atol=0.2)
    np.testing.assert_allclose(msd.Logistic(1., 2.).sample((4000,)).asnumpy().var(),
                               np.pi ** 2 / 3 * 4, rtol=0.1)
    np.testing.assert_allclose(msd.Exponential([2.0]).sample((4000,)).asnumpy().mean(), 0.5,
                               atol=0.03)
    np.testing.assert_allclose(msd.LogNormal(0., 0.5).sample((4000,)).asnumpy().mean(),
                               np.exp(0.125), atol=0.03)
    for dist in (msd.Gamma([1.0], [1.0]), msd.Beta([1.0], [1.0]), msd.Poisson([1.0])):
        assert dist.sample((2,)).shape == (2, 1)  # (their moments: test_distribution_gamma_*)


class _Graph(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cauchy, self.bare = msd.Cauchy(3.0, 4.0), msd.Cauchy()
        self.gamma, self.cat = msd.Gamma([2.0], [1.0]), msd.Categorical([0.3, 0.7])

    def construct(self, value, mu, s):
        out = self.cauchy("prob", value) + self.bare("prob", value, mu, s)
        out = out + self.gamma.log_prob(value) + self.gamma.kl_loss("Gamma", mu + 1.0, s)
        return out + self.cat.prob(value)


def test_in_a_graph_as_called_directly():
    value, mu, s = Tensor([0.5, 1.0]), Tensor([0.0]), Tensor([1.0])
    net = _Graph()
    eager = (net.cauchy.prob(value) + net.bare.prob(value, mu, s) + net.gamma.log_prob(value) +
             net.gamma.kl_loss("Gamma", mu + 1.0, s) + net.cat.prob(value)).asnumpy()
    np.testing.assert_allclose(net(value, mu, s).asnumpy(), eager, rtol=1e-5)
