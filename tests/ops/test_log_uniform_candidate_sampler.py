"""ops.log_uniform_candidate_sampler and ops.LogUniformCandidateSampler: classes from the
log-uniform distribution, the expected counts by MindSpore 2.10's rule (recorded values), its
checks."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops
from cellgraph.common import dtype as mstype

TRUE = Tensor(np.array([[1, 7], [0, 4], [3, 3]]), mstype.int64)


def test_expected_counts_are_mindsporess_without_repeats():
    sampled, true_expected, sampled_expected = ops.log_uniform_candidate_sampler(
        TRUE, 2, 5, False, 10, seed=1)
    assert sampled.shape == (5,) and sampled.dtype == mstype.int64
    # MindSpore's values for these true classes (p(c) * num_sampled)
    np.testing.assert_allclose(true_expected.asnumpy(), [[0.8454604, 0.2455967],
                                                         [1.4453242, 0.38017],
                                                         [0.46529043, 0.46529043]], rtol=1e-6)
    p = np.log((sampled.asnumpy() + 2.0) / (sampled.asnumpy() + 1.0)) / np.log(11.0)
    np.testing.assert_allclose(sampled_expected.asnumpy(), p * 5, rtol=1e-6)


def test_unique_draws_and_class_frequencies():
    sampled, _, _ = ops.log_uniform_candidate_sampler(TRUE, 2, 8, True, 8, seed=3)
    assert sorted(sampled.asnumpy().tolist()) == list(range(8))
    cellgraph.set_seed(0)
    draws = np.concatenate([ops.log_uniform_candidate_sampler(TRUE, 2, 5, False, 10)[0].asnumpy()
                            for _ in range(2000)])
    frequency = np.bincount(draws, minlength=10) / draws.size
    expected = np.log((np.arange(10) + 2.0) / (np.arange(10) + 1.0)) / np.log(11.0)
    np.testing.assert_allclose(frequency, expected, atol=0.01)


def test_class_and_graph_forms():
    first = ops.LogUniformCandidateSampler(2, 5, True, 10, 1)(TRUE)[0].asnumpy()
    again = ops.LogUniformCandidateSampler(2, 5, True, 10, 1)(TRUE)[0].asnumpy()
    np.testing.assert_array_equal(first, again)  # two instances, one seed: the same classes
    compiled = cellgraph.jit(lambda t: ops.log_uniform_candidate_sampler(t, 2, 5, True, 10))
    assert compiled(TRUE)[0].shape == (5,)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"num_true": 1.0}, TypeError, "'num_true' should be 'int'"),
    ({"unique": 1}, TypeError, "'unique' should be 'bool'"),
    ({"num_sampled": 0}, ValueError, "'num_sampled' must be >= 1"),
    ({"num_sampled": 6, "range_max": 5}, ValueError, "'range_max' must be >= 'num_sampled'"),
    ({"seed": -1}, ValueError, "'seed' must be >= 0"),
])
def test_checks(kwargs, error, message):
    with pytest.raises(error, match=message):
        ops.log_uniform_candidate_sampler(TRUE, **{"num_true": 2, **kwargs})
