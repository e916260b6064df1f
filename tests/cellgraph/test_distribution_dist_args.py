"""Distribution.get_dist_type / get_dist_args (MindSpore's probability tutorial calls them):
the family's name, and the parameters with those given replacing the constructor's. Expected
values are MindSpore 2.10's."""
import numpy as np
import pytest

import cellgraph as cg
import cellgraph.nn.probability.bijector as msb
import cellgraph.nn.probability.distribution as msd
from cellgraph import Tensor, nn


def _values(args):
    return [None if a is None else (a.shape, a.asnumpy().tolist()) for a in args]


@pytest.mark.parametrize("dist, kind, expected", [
    (lambda: msd.Normal(0.0, 1.0), "Normal", [((), 0.0), ((), 1.0)]),
    (lambda: msd.Uniform(0.0, [1.0, 2.0]), "Uniform", [((), 0.0), ((2,), [1.0, 2.0])]),
    (lambda: msd.Bernoulli(0.5), "Bernoulli", [((), 0.5)]),
    (lambda: msd.Exponential([0.5]), "Exponential", [((1,), [0.5])]),
    (lambda: msd.Gamma([1.0], [2.0]), "Gamma", [((1,), [1.0]), ((1,), [2.0])]),
    (lambda: msd.Beta([1.0], [2.0]), "Beta", [((1,), [1.0]), ((1,), [2.0])]),
    (lambda: msd.Poisson([1.5]), "Poisson", [((1,), [1.5])]),
    (lambda: msd.Geometric(0.5), "Geometric", [((), 0.5)]),
    (lambda: msd.Categorical([0.25, 0.75]), "Categorical", [((2,), [0.25, 0.75])]),
    (lambda: msd.Cauchy(0.0, 1.0), "Cauchy", [((), 0.0), ((), 1.0)]),
    (lambda: msd.Logistic(0.0, 1.0), "Logistic", [((), 0.0), ((), 1.0)]),
    (lambda: msd.LogNormal(0.0, 1.0), "LogNormal", [((), 0.0), ((), 1.0)]),
])
def test_each_family_names_itself_and_gives_its_parameters_as_float32_tensors(dist, kind,
                                                                              expected):
    d = dist()
    assert d.get_dist_type() == kind
    args = d.get_dist_args()
    assert isinstance(args, tuple) and all(a.dtype == cg.float32 for a in args)
    assert _values(args) == expected
    assert d("get_dist_type") == kind and _values(d("get_dist_args")) == expected


def test_given_parameters_replace_the_constructor_s_and_must_be_tensors():
    assert msd.Normal().get_dist_args() == (None, None)
    args = msd.Normal().get_dist_args(Tensor(1.0, cg.float32), Tensor(2.0, cg.float32))
    assert _values(args) == [((), 1.0), ((), 2.0)]
    args = msd.Normal(0.0, 1.0).get_dist_args(sd=Tensor([3.0], cg.float32))
    assert _values(args) == [((), 0.0), ((1,), [3.0])]
    # Bernoulli's and Geometric's keyword is MindSpore's `probs1`
    args = msd.Bernoulli(0.5).get_dist_args(probs1=Tensor(0.25, cg.float32))
    assert _values(args) == [((), 0.25)]
    with pytest.raises(TypeError, match="For mean, input type must be a Tensor or Parameter"):
        msd.Normal(0.0, 1.0).get_dist_args(1.0)
    with pytest.raises(TypeError):
        msd.Normal(0.0, 1.0).get_dist_args(loc=Tensor(1.0, cg.float32))


def test_a_transformed_distribution_has_neither():
    td = msd.TransformedDistribution(msb.Exp(), msd.Normal(0.0, 1.0))
    with pytest.raises(NotImplementedError, match="get_dist_type is not implemented for "
                                                  "transformed_distribution distribution"):
        td.get_dist_type()
    with pytest.raises(NotImplementedError):
        td.get_dist_args()


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.n = msd.Normal(0.0, 1.0)

    def construct(self, s):
        return self.n.get_dist_args(None, s), self.n.get_dist_type()


def test_both_in_graph_mode():
    cg.set_context(mode=cg.GRAPH_MODE)
    try:
        (mean, sd), kind = _Net()(Tensor([2.0, 5.0], cg.float32))
    finally:
        cg.set_context(mode=cg.PYNATIVE_MODE)
    assert kind == "Normal"
    assert mean.shape == () and float(mean.asnumpy()) == 0.0
    np.testing.assert_array_equal(sd.asnumpy(), np.array([2.0, 5.0], np.float32))
