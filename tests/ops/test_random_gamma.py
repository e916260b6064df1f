"""ops.random_gamma and ops.gamma: shapes and dtypes as MindSpore 2.10's, draws with the Gamma
distribution's moments, seeded draws repeatable after set_seed, 0 and NaN for a zero and a
negative concentration (MindSpore's), and its checks."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops
from cellgraph.common import dtype as mstype


def test_random_gamma_shape_dtype_and_moments():
    alpha = Tensor(np.array([0.5, 2.0, 9.0]), mstype.float32)
    draws = ops.random_gamma(Tensor(np.array([20000]), mstype.int32), alpha, seed=5)
    assert draws.shape == (20000, 3) and draws.dtype == mstype.float32
    values = draws.asnumpy()
    np.testing.assert_allclose(values.mean(0), [0.5, 2.0, 9.0], rtol=0.05)
    np.testing.assert_allclose(values.var(0), [0.5, 2.0, 9.0], rtol=0.1)
    wide = ops.random_gamma(Tensor(np.array([2, 3]), mstype.int64),
                            Tensor(np.array([1.0]), mstype.float64), seed=3)
    assert wide.shape == (2, 3, 1) and wide.dtype == mstype.float64
    compiled = cellgraph.jit(lambda a: ops.random_gamma(Tensor(np.array([4]), mstype.int32), a,
                                                        3))
    assert compiled(Tensor(np.array([1.0, 2.0]), mstype.float16)).shape == (4, 2)


def test_zero_and_negative_concentrations():
    out = ops.random_gamma(Tensor(np.array([2]), mstype.int32),
                           Tensor(np.array([-1.0, 0.0, 1.0]), mstype.float32), seed=3).asnumpy()
    assert np.isnan(out[:, 0]).all() and (out[:, 1] == 0).all() and (out[:, 2] > 0).all()


def test_seeded_draws_repeat_after_set_seed():
    def draw():
        cellgraph.set_seed(11)
        return ops.random_gamma(Tensor(np.array([5]), mstype.int32),
                                Tensor(np.array([2.0]), mstype.float32), seed=2).asnumpy()

    np.testing.assert_array_equal(draw(), draw())


def test_gamma_with_rate():
    draws = ops.gamma((20000, 3), Tensor(np.array([1.0, 2.0, 3.0], np.float32)),
                      Tensor(np.array([2.0], np.float32)), seed=5)
    assert draws.shape == (20000, 3) and draws.dtype == mstype.float32
    values = draws.asnumpy()
    np.testing.assert_allclose(values.mean(0), [0.5, 1.0, 1.5], rtol=0.05)
    np.testing.assert_allclose(values.var(0), [0.25, 0.5, 0.75], rtol=0.1)


@pytest.mark.parametrize("shape, alpha, message", [
    ((2, 3), Tensor(np.array([1.0], np.float32)), "only support tensor"),
    (Tensor(np.array([2.0]), mstype.float32), Tensor(np.array([1.0], np.float32)), "int32"),
    (Tensor(np.array([2]), mstype.int32), Tensor(np.array([1]), mstype.int32), "float"),
])
def test_random_gamma_checks(shape, alpha, message):
    with pytest.raises(TypeError, match=message):
        ops.random_gamma(shape, alpha)


def test_poisson_broadcasts_the_shape_with_the_means():
    counts = ops.poisson((20000, 2), Tensor(np.array([1.0, 4.0], np.float32)), seed=4)
    assert counts.shape == (20000, 2) and counts.dtype == mstype.float32
    np.testing.assert_allclose(counts.asnumpy().mean(0), [1.0, 4.0], rtol=0.05)
    with pytest.raises(TypeError, match="mean"):
        ops.poisson((2,), 1.0)


def test_choice_with_mask():
    x = Tensor(np.array([[True, False, True], [False, True, False]]))
    index, mask = ops.choice_with_mask(x, 5, seed=1)
    assert index.dtype == mstype.int32 and index.shape == (5, 2)
    assert mask.asnumpy().tolist() == [True, True, True, False, False]
    chosen = {tuple(row) for row in index.asnumpy()[:3].tolist()}
    assert chosen == {(0, 0), (0, 2), (1, 1)}  # every True element once, in random order
    assert index.asnumpy()[3:].tolist() == [[0, 0], [0, 0]]
    index, mask = ops.choice_with_mask(x, 2, seed=1)
    assert mask.asnumpy().tolist() == [True, True] and index.shape == (2, 2)
    compiled = cellgraph.jit(lambda v: ops.choice_with_mask(v, 4))
    assert compiled(x)[1].asnumpy().tolist() == [True, True, True, False]
    with pytest.raises(TypeError, match="bool Tensor"):
        ops.choice_with_mask(Tensor(np.array([1.0], np.float32)))
