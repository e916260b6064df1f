"""ops.uniform_candidate_sampler and ops.UniformCandidateSampler: MindSpore 2.10's shapes,
dtypes, expected counts, option errors and seeded repeatability (its numbers are its own)."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops
from cellgraph.ops import operations as P

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
        # 1 - (1 - p) ** tries for some number of tries >= num_sampled
        count = float(true_count.asnumpy()[0, 0])
        tries = np.log1p(-count) / np.log1p(-1 / 8)
        assert tries >= 5 - 1e-3 and abs(tries - round(tries)) < 1e-3


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
    with pytest.raises(ValueError, match="'num_true' columns"):
        P.UniformCandidateSampler(2, 3, True, 4)(Tensor(TRUE.astype(np.int32)))
    with pytest.raises(TypeError, match="int32 or int64"):
        P.UniformCandidateSampler(1, 3, True, 4)(Tensor(TRUE.astype(np.float32)))
