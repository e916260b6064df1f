"""Gamma, Beta and Poisson sample (from the gamma and Poisson samplers) and the cdfs of Gamma
and Poisson (the regularized incomplete gamma functions): cdf values recorded from MindSpore
2.10; its CPU build has no sampler kernel for these distributions."""
import numpy as np

import cellgraph as cg
import cellgraph.nn.probability.distribution as msd


def test_gamma_sample_and_cdf():
    gamma = msd.Gamma([2.0, 3.0], [1.0, 2.0], seed=3)
    draws = gamma.sample((20000,))
    assert draws.shape == (20000, 2) and draws.dtype == cg.float32
    np.testing.assert_allclose(draws.asnumpy().mean(0), [2.0, 1.5], rtol=0.03)
    np.testing.assert_allclose(draws.asnumpy().var(0), [2.0, 0.75], rtol=0.08)
    cdf = gamma.cdf(cg.Tensor(np.array([1.0, 2.0], np.float32)))
    np.testing.assert_allclose(cdf.asnumpy(), [0.26424107, 0.7618967], rtol=1e-5)
    assert gamma.sample().shape == (2,)


def test_beta_sample():
    draws = msd.Beta([2.0], [3.0], seed=3).sample((20000,))
    assert draws.shape == (20000, 1)
    values = draws.asnumpy()
    assert ((values > 0) & (values < 1)).all()
    np.testing.assert_allclose(values.mean(), 0.4, rtol=0.03)
    np.testing.assert_allclose(values.var(), 0.04, rtol=0.1)  # ab / ((a+b)^2 (a+b+1))


def test_poisson_sample_and_cdf():
    poisson = msd.Poisson([2.0, 5.0], seed=3)
    draws = poisson.sample((20000,))
    assert draws.shape == (20000, 2) and draws.dtype == cg.float32
    np.testing.assert_allclose(draws.asnumpy().mean(0), [2.0, 5.0], rtol=0.03)
    cdf = poisson.cdf(cg.Tensor(np.array([1.0, 4.0], np.float32)))
    np.testing.assert_allclose(cdf.asnumpy(), [0.40600592, 0.4404937], rtol=1e-5)
    assert poisson.cdf(cg.Tensor(np.array([-1.0, -1.0], np.float32))).asnumpy().tolist() == [0, 0]
    assert poisson.sample().shape == (2,)
