"""ops.operations.random_ops: UniformCandidateSampler (and ops.uniform_candidate_sampler) and
Uniform: shapes, dtypes, seeds, and the expected counts as MindSpore 2.10's CPU kernel gives
them (values recorded from it: 0.75 for 3 of 4 classes drawn with repetition; its errors'
wording)."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from cellgraph.ops import operations as P
from cellgraph.primitives.errors import ArgumentValueError, DTypeError

TRUE = np.array([[1], [3], [4], [6], [3]])


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_shapes_dtypes_and_range(dtype):
    sampled, true_count, sampled_count = P.UniformCandidateSampler(1, 3, False, 4)(
        Tensor(TRUE.astype(dtype)))
    assert sampled.shape == (3,) and sampled.asnumpy().dtype == dtype
    assert true_count.shape == (5, 1) and true_count.dtype == cellgraph.float32
    assert sampled_count.shape == (3,)
    assert np.all((sampled.asnumpy() >= 0) & (sampled.asnumpy() < 4))
    # drawn with repeats allowed: num_sampled tries, so p * num_sampled (MindSpore: 0.75)
    np.testing.assert_array_equal(true_count.asnumpy(), np.full((5, 1), 0.75, np.float32))
    np.testing.assert_array_equal(sampled_count.asnumpy(), np.full(3, 0.75, np.float32))


def test_unique_samples_and_their_expected_count():
    sampler = P.UniformCandidateSampler(2, 5, True, 8, remove_accidental_hits=True)
    for _ in range(20):
        sampled, true_count, _ = sampler(Tensor(np.array([[1, 2], [3, 2]], np.int32)))
        values = sampled.asnumpy().tolist()
        assert len(set(values)) == 5 and not {1, 2, 3} & set(values)
        # p * num_sampled when the first num_sampled tries were distinct, else
        # 1 - (1 - p) ** tries for the number of tries (more than num_sampled) it took
        count = float(true_count.asnumpy()[0, 0])
        tries = np.log1p(-count) / np.log1p(-1 / 8)
        assert count == pytest.approx(5 / 8) or (
            tries >= 6 - 1e-3 and abs(tries - round(tries)) < 1e-3)


def test_instances_with_one_seed_draw_the_same_classes():
    def first_draw():
        return P.UniformCandidateSampler(1, 3, True, 40, seed=7)(Tensor(TRUE))[0]

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.sampler = P.UniformCandidateSampler(1, 3, True, 40, seed=7)

        def construct(self, x):
            return self.sampler(x)[0]

    np.testing.assert_array_equal(first_draw().asnumpy(), first_draw().asnumpy())
    np.testing.assert_array_equal(Net()(Tensor(TRUE)).asnumpy(), Net()(Tensor(TRUE)).asnumpy())
    seeded = ops.uniform_candidate_sampler(Tensor(TRUE), 1, 3, True, 40, seed=3)[0]
    again = ops.uniform_candidate_sampler(Tensor(TRUE), 1, 3, True, 40, seed=3)[0]
    np.testing.assert_array_equal(seeded.asnumpy(), again.asnumpy())


def test_under_vmap_each_member_draws_its_own():
    sampler = P.UniformCandidateSampler(1, 3, True, 4)
    sampled, true_count, sampled_count = ops.vmap(sampler, in_axes=0)(
        Tensor(np.stack([TRUE, TRUE]).astype(np.int32)))
    assert sampled.shape == (2, 3) and true_count.shape == (2, 5, 1)
    assert sampled_count.shape == (2, 3)


@pytest.mark.parametrize("args, error, message", [
    ((1.0, 3, True, 4), TypeError, "the type of 'num_true' should be 'int', but got type 'float'"),
    ((True, 3, True, 4), TypeError, "the type of 'num_true' should be 'int', but got type 'bool'"),
    ((1, 3, 1, 4), TypeError, "the type of 'unique' should be 'bool', but got type 'int'"),
    ((0, 3, True, 4), ValueError, "the value of num_true should be > : 0, but got 0"),
    ((1, 5, True, 4), ValueError,
     "the value of num_sampled should be <= value of range_max: 4, but got 5"),
    ((1, 3, True, 4, -1), ValueError, "the value of seed should be >= : 0, but got -1"),
])
def test_options_as_mindspore_checks_them(args, error, message):
    # MindSpore 2.10's errors, each raised when the class is made
    with pytest.raises(error, match=message):
        P.UniformCandidateSampler(*args)


def test_true_classes_must_be_a_matrix_of_num_true_columns():
    # MindSpore 2.10's errors and words
    with pytest.raises(ValueError, match="the num_true must be equal to 1, but got 2"):
        P.UniformCandidateSampler(2, 3, True, 4)(Tensor(TRUE.astype(np.int32)))
    with pytest.raises(TypeError, match=r"must be a type of \{Tensor\[Int32\], "
                                        r"Tensor\[Int64\]\}, but got Tensor\[Float32\]"):
        P.UniformCandidateSampler(1, 3, True, 4)(Tensor(TRUE.astype(np.float32)))


TRUE_T = Tensor(np.array([[1], [3], [0], [2], [3]], np.int32))


@pytest.mark.parametrize("graph", [False, True])
def test_shapes_dtypes_and_the_expected_count_with_repetition(graph):
    def run(x):
        return ops.UniformCandidateSampler(1, 3, False, 4)(x)

    sampled, true_count, sampled_count = (cellgraph.jit(run) if graph else run)(TRUE_T)
    assert sampled.shape == (3,) and sampled.dtype == cellgraph.int32
    assert true_count.shape == (5, 1) and true_count.dtype == cellgraph.float32
    assert sampled_count.shape == (3,)
    assert set(sampled.asnumpy().tolist()) <= {0, 1, 2, 3}
    np.testing.assert_allclose(true_count.asnumpy(), 0.75)
    np.testing.assert_allclose(sampled_count.asnumpy(), 0.75)
    wide = ops.UniformCandidateSampler(2, 5, False, 100)(Tensor(np.array([[1, 2], [3, 4]],
                                                                        np.int64)))
    assert wide[0].dtype == cellgraph.int64 and wide[1].shape == (2, 2)
    np.testing.assert_allclose(wide[2].asnumpy(), 0.05, rtol=1e-6)


def test_unique_draws_are_distinct_and_count_the_draws_taken():
    p = 1 / 10
    possible = [p * 6] + [-np.expm1(t * np.log1p(-p)) for t in range(7, 400)]
    for seed in range(1, 30):
        sampled, _, count = ops.uniform_candidate_sampler(TRUE_T, 1, 6, True, 10, seed=seed)
        values = sampled.asnumpy().tolist()
        assert len(set(values)) == 6 and all(0 <= v < 10 for v in values)
        assert np.isclose(possible, count.asnumpy()[0], rtol=1e-6).any()


def test_seeded_instances_repeat_and_accidental_hits_are_removed():
    x = Tensor(np.array([[1]], np.int32))
    first = ops.UniformCandidateSampler(1, 3, True, 4, seed=1, remove_accidental_hits=True)(x)
    again = ops.UniformCandidateSampler(1, 3, True, 4, seed=1, remove_accidental_hits=True)(x)
    np.testing.assert_array_equal(first[0].asnumpy(), again[0].asnumpy())
    assert sorted(first[0].asnumpy().tolist()) == [0, 2, 3]  # 1 is a true class


def test_random_ops_uniform_draws_like_x_and_checks_as_mindspore():
    from cellgraph.ops.operations.random_ops import Uniform

    for dtype in (cellgraph.float16, cellgraph.float32, cellgraph.float64):
        y = cellgraph.jit(lambda x: Uniform(minval=1.0, maxval=2.0)(x))(Tensor(np.zeros((3, 4)), dtype))
        assert y.shape == (3, 4) and y.dtype == dtype
        assert ((y.asnumpy() >= 1.0) & (y.asnumpy() < 2.0)).all()
    first = Uniform(seed=3)(Tensor(np.zeros(4), cellgraph.float32)).asnumpy()
    np.testing.assert_array_equal(Uniform(seed=3)(Tensor(np.zeros(4), cellgraph.float32)).asnumpy(),
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


def test_like_draws_take_mindspore_s_dtypes():
    """MindSpore 2.10: rand_like keeps input's dtype, randn_like draws float32 whatever it is
    given, randint_like keeps it; each refuses a dtype of the other kind with ValueError."""
    import cellgraph as ms
    from cellgraph import ops

    half = ms.Tensor(np.ones((2, 2)), ms.float16)
    ints = ms.Tensor(np.ones((2, 2)), ms.int32)
    assert ops.rand_like(half).dtype == ms.float16 and ops.randn_like(half).dtype == ms.float32
    assert ops.randn_like(half, dtype=ms.float64).dtype == ms.float64
    assert ops.randint_like(ints, 0, 3).dtype == ms.int32
    for call, words in ((lambda: ops.rand_like(ints), "'rand_like', the 'dtype' must be a float"),
                        (lambda: ops.randn_like(half, dtype=ms.int32), "'randn_like'"),
                        (lambda: ops.randint_like(half, 0, 3), "must be an int type")):
        with pytest.raises(ValueError, match=words):
            call()


def test_random_gamma_class_draws_gamma_of_each_alpha():
    alpha = Tensor(np.array([0.0, 2.0, -1.0], np.float32))
    draws = P.RandomGamma(seed=3)(Tensor(np.array([4000], np.int32)), alpha).asnumpy()
    assert draws.shape == (4000, 3) and draws.dtype == np.float32
    assert (draws[:, 0] == 0).all() and np.isnan(draws[:, 2]).all()
    assert abs(draws[:, 1].mean() - 2.0) < 0.1 and abs(draws[:, 1].var() - 2.0) < 0.3
    cellgraph.set_seed(1)
    first = P.RandomGamma(seed=3)(Tensor(np.array([5], np.int32)), alpha[1:2]).asnumpy()
    cellgraph.set_seed(1)
    again = P.RandomGamma(seed=3)(Tensor(np.array([5], np.int32)), alpha[1:2]).asnumpy()
    np.testing.assert_array_equal(first, again)
    with pytest.raises(ValueError, match="'seed' must be int and must >= 0"):
        P.RandomGamma(seed=-1)
