"""ops.adaptive_avg_pool3d, adaptive_max_pool3d, affine_grid, col2im, laplace, randint_like,
fills, accumulate_n and dense_to_sparse_coo/csr: values recorded from MindSpore 2.10 CPU (its
CPU build has no kernel for fills and accumulate_n: their definitions)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, ops

X5 = np.arange(2 * 3 * 4 * 5 * 6, dtype=np.float32).reshape(2, 3, 4, 5, 6)
THETA = np.array([[[0.8, 0.5, 0.0], [-0.5, 0.8, 0.0]]], np.float32)


def test_adaptive_pools_3d_match_mindspore():
    avg = ops.adaptive_avg_pool3d(Tensor(X5), (2, 3, 4))
    assert avg.shape == (2, 3, 2, 3, 4)
    np.testing.assert_allclose(avg.asnumpy()[0, 0], [
        [[18.5, 19.5, 21.5, 22.5], [27.5, 28.5, 30.5, 31.5], [36.5, 37.5, 39.5, 40.5]],
        [[78.5, 79.5, 81.5, 82.5], [87.5, 88.5, 90.5, 91.5], [96.5, 97.5, 99.5, 100.5]]])
    top = ops.adaptive_max_pool3d(Tensor(X5), (3, 2, 4))
    assert top.shape == (2, 3, 3, 2, 4)
    np.testing.assert_array_equal(top.asnumpy()[1, 2], [
        [[643, 644, 646, 647], [655, 656, 658, 659]],
        [[673, 674, 676, 677], [685, 686, 688, 689]],
        [[703, 704, 706, 707], [715, 716, 718, 719]]])
    values, indices = ops.adaptive_max_pool3d(Tensor(X5), 1, return_indices=True)
    np.testing.assert_array_equal(values.asnumpy().reshape(2, 3), X5.reshape(2, 3, -1).max(-1))
    np.testing.assert_array_equal(indices.asnumpy().reshape(-1), [119] * 6)
    with pytest.raises(ValueError, match="4-D or 5-D"):
        ops.adaptive_max_pool3d(Tensor(X5[0, 0]), 2)


def test_affine_grid_matches_mindspore():
    grid = ops.affine_grid(Tensor(THETA), (1, 1, 2, 3), False)
    np.testing.assert_allclose(grid.asnumpy().round(4), [[
        [[-0.7833, -0.0667], [-0.25, -0.4], [0.2833, -0.7333]],
        [[-0.2833, 0.7333], [0.25, 0.4], [0.7833, 0.0667]]]], atol=1e-4)
    aligned = ops.affine_grid(Tensor(THETA), (1, 1, 2, 3), True)
    np.testing.assert_allclose(aligned.asnumpy(), [[
        [[-1.3, -0.3], [-0.5, -0.8], [0.3, -1.3]],
        [[-0.3, 1.3], [0.5, 0.8], [1.3, 0.3]]]], atol=1e-6)


def test_affine_grid_3d_and_its_gradient():
    torch = pytest.importorskip("torch")
    theta = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)
    for align in (False, True):
        ours = ops.affine_grid(Tensor(theta), (2, 1, 2, 3, 4), align).asnumpy()
        ref = torch.nn.functional.affine_grid(torch.from_numpy(theta), [2, 1, 2, 3, 4],
                                              align_corners=align).numpy()
        np.testing.assert_allclose(ours, ref, atol=1e-6)
    grad = cg.grad(lambda t: ops.affine_grid(t, (1, 1, 2, 3), True).sum())(Tensor(THETA))
    # d sum / d theta[i, j] = sum over the grid's points of the base coordinate j
    np.testing.assert_allclose(grad.asnumpy(), [[[0.0, 0.0, 6.0], [0.0, 0.0, 6.0]]], atol=1e-6)


def test_col2im_matches_mindspore():
    cols = Tensor(np.arange(1 * 2 * 4 * 9, dtype=np.float32).reshape(1, 2, 4, 9))
    image = ops.col2im(cols, Tensor(np.array([4, 4], np.int32)), [2, 2], [1, 1], [0, 0], [1, 1])
    assert image.shape == (1, 2, 4, 4)
    np.testing.assert_array_equal(image.asnumpy()[0, 1], [[36, 82, 84, 47], [93, 206, 210, 115],
                                                          [99, 218, 222, 121],
                                                          [60, 130, 132, 71]])


def test_random_forms():
    def draw():
        cg.set_seed(3)
        return ops.laplace((2, 3), Tensor(np.array(1.0, np.float32)),
                           Tensor(np.array([1.0, 2.0, 3.0], np.float32)), seed=5).asnumpy()

    draws = draw()
    assert draws.shape == (2, 3) and draws.dtype == np.float32
    np.testing.assert_array_equal(draws, draw())  # the same seeds, the same numbers
    ints = ops.randint_like(Tensor(np.zeros((200,), np.int32)), 2, 5, seed=1)
    assert ints.dtype == cg.int32 and set(ints.asnumpy().tolist()) == {2, 3, 4}
    with pytest.raises(TypeError, match="mean"):
        ops.laplace((2,), 1.0, Tensor(np.array(1.0, np.float32)))


def test_fills_accumulate_n_and_dense_to_sparse():
    np.testing.assert_array_equal(ops.fills(Tensor(np.zeros(2, np.float32)), 3.0).asnumpy(),
                                  [3, 3])
    total = ops.accumulate_n([Tensor(np.ones(2, np.float32))] * 3)
    np.testing.assert_array_equal(total.asnumpy(), [3, 3])
    dense = Tensor(np.array([[0, 2.0], [3.0, 0]], np.float32))
    assert ops.dense_to_sparse_coo(dense).indices.asnumpy().tolist() == [[0, 1], [1, 0]]
    assert ops.dense_to_sparse_csr(dense).indptr.asnumpy().tolist() == [0, 1, 2]
