"""How distributions and bijectors print: MindSpore 2.10's extend_repr (the parameters by name
when each was given as a number, else the batch shape) and its child names. The expected
strings were printed by MindSpore 2.10."""
import numpy as np
import pytest

import cellgraph as ms
import cellgraph.nn.probability.bijector as msb
import cellgraph.nn.probability.distribution as msd


@pytest.mark.parametrize("make, expected", [
    (lambda: msd.Normal(0.0, 1.0), "Normal(mean = 0.0, standard deviation = 1.0)"),
    (lambda: msd.Normal(), "Normal(mean = None, standard deviation = None)"),
    (lambda: msd.Normal([0.0, 1.0], 2.0), "Normal(batch_shape = (2,))"),
    (lambda: msd.Normal(1, 2), "Normal(mean = 1.0, standard deviation = 2.0)"),
    (lambda: msd.Normal(ms.Tensor(0.0), 1.0), "Normal(batch_shape = ())"),
    (lambda: msd.Uniform(0.0, 1.5), "Uniform(low = 0.0, high = 1.5)"),
    (lambda: msd.Bernoulli(0.5), "Bernoulli(probs = 0.5)"),
    (lambda: msd.Bernoulli([0.2, 0.4]), "Bernoulli(batch_shape = (2,))"),
    (lambda: msd.Categorical([0.2, 0.8]), "Categorical(probs = [0.2 0.8])"),
    (lambda: msd.Categorical([[0.2, 0.8], [0.5, 0.5]]), "Categorical(batch_shape = (2,))"),
    (lambda: msd.Cauchy(0.0, 1.0), "Cauchy(location = 0.0, scale = 1.0)"),
    (lambda: msd.Exponential(0.5), "Exponential(rate = 0.5)"),
    (lambda: msd.Geometric(0.3), "Geometric(probs = 0.3)"),
    (lambda: msd.Logistic(1.0, 2.0), "Logistic(location = 1.0, scale = 2.0)"),
    (lambda: msd.Gamma(np.array([2.0, 3.0], np.float32), np.array([[1.0], [2.0]], np.float32)),
     "Gamma(batch_shape = (2, 2))"),
    (lambda: msb.Exp(), "Exp(exp)"),
    (lambda: msb.PowerTransform(2.0), "PowerTransform(power = 2.0)"),
    (lambda: msb.PowerTransform(1 / 3), "PowerTransform(power = 0.33333334)"),
    (lambda: msb.ScalarAffine(2.0, 0.1), "ScalarAffine(scale = 2.0, shift = 0.1)"),
    (lambda: msb.GumbelCDF(1.0, 2.0), "GumbelCDF(loc = 1.0, scale = 2.0)"),
])
def test_parameters_or_batch_shape(make, expected):
    assert repr(make()) == expected


def test_transformed_distribution_names_its_cells_as_mindspore():
    transformed = msd.TransformedDistribution(msb.Exp(), msd.Normal(0.0, 1.0))
    assert repr(transformed) == ("TransformedDistribution(\n"
                                 "  (_bijector): Exp(exp)\n"
                                 "  (_distribution): Normal(mean = 0.0, standard deviation = 1.0)\n"
                                 ")")
    affine = msd.TransformedDistribution(msb.ScalarAffine(2.0, 1.0), msd.Normal(0.0, 1.0))
    assert type(affine.bijector) is msb.ScalarAffine
    assert type(affine.distribution) is msd.Normal
    np.testing.assert_allclose(affine.mean().asnumpy(), 1.0)
    np.testing.assert_allclose(affine.cdf(ms.Tensor([1.0, 3.0])).asnumpy(),
                               [0.5, 0.8413447], rtol=1e-6)
