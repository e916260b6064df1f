"""More of mint: the top-level functions (clip, bitwise_not, dstack, hstack, item, vdot,
index_add, triangular_solve, conv2d, ...), mint.nn.functional's (avg_pool1d/3d, conv3d,
dropout2d, threshold, upsample and the in-place activations) and mint.nn's layers made of them,
against NumPy and PyTorch's definitions."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, mint
from cellgraph.mint.nn import functional as F

X = np.array([[1.0, -2.0], [3.0, 4.0]], np.float32)
IMG = np.arange(16.0, dtype=np.float32).reshape(1, 1, 4, 4)


def test_top_level_functions():
    x = Tensor(X)
    np.testing.assert_array_equal(mint.clip(x, 0, 1).asnumpy(), np.clip(X, 0, 1))
    np.testing.assert_array_equal(mint.bitwise_not(Tensor(np.array([1, 2]))).asnumpy(), [-2, -3])
    assert mint.item(Tensor([3.0])) == 3.0
    assert float(mint.vdot(Tensor([1.0, 2.0]), Tensor([3.0, 4.0])).asnumpy()) == 11.0
    out = mint.index_add(x, 0, Tensor(np.array([1, 1])), Tensor(np.ones((2, 2), np.float32)),
                         alpha=2)
    np.testing.assert_array_equal(out.asnumpy(), [[1, -2], [7, 8]])
    solution, _ = mint.triangular_solve(Tensor(np.array([[2.0], [5.0]], np.float32)),
                                        Tensor(np.array([[2.0, 9.0], [1.0, 4.0]], np.float32)),
                                        upper=False)
    np.testing.assert_allclose(solution.asnumpy(), [[1.0], [1.0]])
    assert mint.dstack([x, x]).shape == (2, 2, 2) and mint.hstack([x, x]).shape == (2, 4)
    np.testing.assert_array_equal(mint.take(x, Tensor(np.array([0, 3]))).asnumpy(), [1, 4])
    weight = Tensor(np.ones((1, 1, 2, 2), np.float32))
    np.testing.assert_allclose(mint.conv2d(Tensor(IMG), weight).asnumpy()[0, 0, 0],
                               [10.0, 14.0, 18.0])


def test_functional():
    x = Tensor(IMG)
    assert F.avg_pool1d(Tensor(np.arange(8.0, dtype=np.float32).reshape(1, 1, 8)), 2).shape == \
        (1, 1, 4)
    assert F.avg_pool3d(Tensor(np.ones((1, 1, 4, 4, 4), np.float32)), 2).shape == (1, 1, 2, 2, 2)
    values, indices = F.adaptive_max_pool2d(x, 2, True)
    np.testing.assert_array_equal(values.asnumpy().ravel(), [5, 7, 13, 15])
    assert indices.shape == (1, 1, 2, 2)
    volume, kernel = Tensor(np.ones((1, 1, 3, 3, 3), np.float32)), \
        Tensor(np.ones((1, 1, 2, 2, 2), np.float32))
    assert F.conv3d(volume, kernel, padding=1).shape == (1, 1, 4, 4, 4)
    assert F.conv3d(volume, kernel, padding="same").shape == (1, 1, 3, 3, 3)
    np.testing.assert_array_equal(F.dropout2d(x, 0.5, False).asnumpy(), IMG)
    assert float(F.threshold(x, 5.0, 0.0).sum().asnumpy()) == 105.0
    assert F.flatten(x).shape == (16,) and F.upsample(x, scale_factor=2.0).shape == (1, 1, 8, 8)
    with pytest.raises(RuntimeError, match="inplace=True is not supported"):
        F.threshold(x, 5.0, 0.0, inplace=True)


def test_in_place_activations_write_their_input():
    y = Tensor(np.array([-1.0, 2.0], np.float32))
    assert F.relu_(y) is y
    np.testing.assert_array_equal(y.asnumpy(), [0.0, 2.0])
    F.hardtanh_(y, -0.5, 0.5)
    np.testing.assert_array_equal(y.asnumpy(), [0.0, 0.5])
    F.threshold_(y, 0.2, 9.0)
    np.testing.assert_array_equal(y.asnumpy(), [9.0, 0.5])


def test_layers():
    x = Tensor(IMG)
    assert float(mint.nn.Threshold(5.0, 0.0)(x).sum().asnumpy()) == 105.0
    assert repr(mint.nn.Threshold(5.0, 0.0)) == "Threshold(threshold=5.0, value=0.0)"
    np.testing.assert_allclose(mint.nn.SoftMarginLoss()(x, x).asnumpy(),
                               np.mean(np.log1p(np.exp(-IMG * IMG))), rtol=1e-6)
    np.testing.assert_allclose(mint.nn.UpsamplingBilinear2d(size=(3, 3))(x).asnumpy()[0, 0, 0],
                               [0.0, 1.5, 3.0])
    assert mint.nn.UpsamplingNearest2d(scale_factor=2.0)(x).shape == (1, 1, 8, 8)
    assert mint.nn.AvgPool3d(2)(Tensor(np.ones((1, 1, 4, 4, 4), np.float32))).shape == \
        (1, 1, 2, 2, 2)
    loss = mint.nn.CosineEmbeddingLoss()(Tensor(np.ones((2, 3), np.float32)),
                                         Tensor(np.ones((2, 3), np.float32)),
                                         Tensor(np.array([1, -1])))
    np.testing.assert_allclose(loss.asnumpy(), 0.5, rtol=1e-6)


def test_train_has_export_load_and_the_helpers_defined_elsewhere():
    import cellgraph
    from cellgraph import train

    assert train.export is cellgraph.export and train.load is cellgraph.load
    assert train.load_distributed_checkpoint is cellgraph.load_distributed_checkpoint
    assert train.build_train_network is cellgraph.build_train_network


def test_dataset_has_its_configuration_functions_at_the_top():
    from cellgraph import dataset

    before = dataset.get_seed()
    try:
        dataset.set_seed(7)
        assert dataset.get_seed() == dataset.config.get_seed() == 7
    finally:
        dataset.set_seed(before)
    assert dataset.get_num_parallel_workers() == dataset.config.get_num_parallel_workers()
