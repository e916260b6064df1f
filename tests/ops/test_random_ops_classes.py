"""ops.operations.random_ops: UniformCandidateSampler (and ops.uniform_candidate_sampler) and
Uniform: shapes, dtypes, seeds, and the expected counts as MindSpore 2.10's CPU kernel gives
them (values recorded from it: 0.75 for 3 of 4 classes drawn with repetition; its errors'
wording)."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError

TRUE = Tensor(np.array([[1], [3], [0], [2], [3]], np.int32))


@pytest.mark.parametrize("graph", [False, True])
def test_shapes_dtypes_and_the_expected_count_with_repetition(graph):
    def run(x):
        return ops.UniformCandidateSampler(1, 3, False, 4)(x)

    sampled, true_count, sampled_count = (ms.jit(run) if graph else run)(TRUE)
    assert sampled.shape == (3,) and sampled.dtype == ms.int32
    assert true_count.shape == (5, 1) and true_count.dtype == ms.float32
    assert sampled_count.shape == (3,)
    assert set(sampled.asnumpy().tolist()) <= {0, 1, 2, 3}
    np.testing.assert_allclose(true_count.asnumpy(), 0.75)
    np.testing.assert_allclose(sampled_count.asnumpy(), 0.75)
    wide = ops.UniformCandidateSampler(2, 5, False, 100)(Tensor(np.array([[1, 2], [3, 4]],
                                                                        np.int64)))
    assert wide[0].dtype == ms.int64 and wide[1].shape == (2, 2)
    np.testing.assert_allclose(wide[2].asnumpy(), 0.05, rtol=1e-6)


def test_unique_draws_are_distinct_and_count_the_draws_taken():
    p = 1 / 10
    possible = [p * 6] + [-np.expm1(t * np.log1p(-p)) for t in range(7, 400)]
    for seed in range(1, 30):
        sampled, _, count = ops.uniform_candidate_sampler(TRUE, 1, 6, True, 10, seed=seed)
        values = sampled.asnumpy().tolist()
        assert len(set(values)) == 6 and all(0 <= v < 10 for v in values)
        assert np.isclose(possible, count.asnumpy()[0], rtol=1e-6).any()


def test_seeded_instances_repeat_and_accidental_hits_are_removed():
    x = Tensor(np.array([[1]], np.int32))
    first = ops.UniformCandidateSampler(1, 3, True, 4, seed=1, remove_accidental_hits=True)(x)
    again = ops.UniformCandidateSampler(1, 3, True, 4, seed=1, remove_accidental_hits=True)(x)
    np.testing.assert_array_equal(first[0].asnumpy(), again[0].asnumpy())
    assert sorted(first[0].asnumpy().tolist()) == [0, 2, 3]  # 1 is a true class


def test_errors_as_mindspore():
    with pytest.raises(ArgumentValueError, match="num_sampled should be <= value of range_max: "
                                                 "4, but got 5"):
        ops.UniformCandidateSampler(1, 5, True, 4)
    with pytest.raises(ShapeError, match="the num_true must be equal to 1, but got 2"):
        ops.UniformCandidateSampler(2, 3, True, 4)(Tensor(np.array([[1]], np.int32)))
    with pytest.raises(DTypeError, match=r"must be a type of \{Tensor\[Int32\], "
                                         r"Tensor\[Int64\]\}, but got Tensor\[Float32\]"):
        ops.UniformCandidateSampler(1, 3, True, 4)(Tensor(np.array([[1.]], np.float32)))


def test_random_ops_uniform_draws_like_x_and_checks_as_mindspore():
    from cellgraph.ops.operations.random_ops import Uniform

    for dtype in (ms.float16, ms.float32, ms.float64):
        y = ms.jit(lambda x: Uniform(minval=1.0, maxval=2.0)(x))(Tensor(np.zeros((3, 4)), dtype))
        assert y.shape == (3, 4) and y.dtype == dtype
        assert ((y.asnumpy() >= 1.0) & (y.asnumpy() < 2.0)).all()
    first = Uniform(seed=3)(Tensor(np.zeros(4), ms.float32)).asnumpy()
    np.testing.assert_array_equal(Uniform(seed=3)(Tensor(np.zeros(4), ms.float32)).asnumpy(),
                                  first)
    # MindSpore 2.10's errors
    with pytest.raises(ArgumentValueError, match="'minval' should be <= maxval: 1.0, but got "
                                                 "2.0"):
        Uniform(minval=2.0, maxval=1.0)
    with pytest.raises(DTypeError, match="'minval' must be float, but got 'int'"):
        Uniform(minval=1, maxval=2.0)
    with pytest.raises(DTypeError, match=r"argument\[x\] must be a type of \{Tensor\[Float16\], "
                                         r"Tensor\[Float32\], Tensor\[Float64\]\}, but got "
                                         r"Tensor\[Int32\]"):
        Uniform()(Tensor(np.zeros((2, 3), np.int32)))
