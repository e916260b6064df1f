"""mint.nn.AdaptiveMaxPool1d / AdaptiveAvgPool3d and their functionals (PyTorch's values:
MindSpore 2.10's CPU build has no kernel for them), and nn's *Ext pooling and dropout names."""
import numpy as np
import pytest

from cellgraph import Tensor, mint, nn

X = (np.arange(2 * 3 * 7, dtype=np.float32).reshape(2, 3, 7)
     * np.array([1, -1, 1, 1, -1, 1, 1], np.float32))


def test_adaptive_max_pool1d():
    values, indices = mint.nn.AdaptiveMaxPool1d(3, True)(Tensor(X))
    np.testing.assert_array_equal(values.asnumpy()[1], [[23, 24, 27], [30, 31, 34],
                                                        [37, 38, 41]])
    np.testing.assert_array_equal(indices.asnumpy()[1], [[2, 3, 6]] * 3)
    np.testing.assert_array_equal(mint.nn.functional.adaptive_max_pool1d(Tensor(X), 4)
                                  .asnumpy()[0], [[0, 3, 5, 6], [7, 10, 12, 13], [14, 17, 19, 20]])
    with pytest.raises(ValueError, match="2-D or 3-D"):
        mint.nn.functional.adaptive_max_pool1d(Tensor(X[None]), 2)


def test_adaptive_avg_pool3d_matches_torch():
    torch = pytest.importorskip("torch")
    y = np.random.default_rng(0).standard_normal((1, 2, 4, 5, 6)).astype(np.float32)
    ours = mint.nn.AdaptiveAvgPool3d((2, 3, 4))(Tensor(y)).asnumpy()
    ref = torch.nn.AdaptiveAvgPool3d((2, 3, 4))(torch.from_numpy(y)).numpy()
    np.testing.assert_allclose(ours, ref, rtol=1e-5, atol=1e-6)


def test_ext_layers_are_minting_layers():
    assert nn.AvgPool1dExt is mint.nn.AvgPool1d and nn.AvgPool3dExt is mint.nn.AvgPool3d
    assert nn.Dropout2dExt is mint.nn.Dropout2d
    assert nn.AvgPool1dExt(2)(Tensor(X)).shape == (2, 3, 3)
