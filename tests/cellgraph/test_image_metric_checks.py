"""SSIM and PSNR check their arguments and images as MindSpore 2.10 does (exception types and
messages recorded from it) and compute in float32, integer images scaled by their dtype's
largest value."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn


def _img(*shape, dtype=np.float32):
    return Tensor(np.random.default_rng(0).random(shape).astype(dtype))


@pytest.mark.parametrize("make, error, text", [
    (lambda: nn.SSIM(max_val=True), TypeError, "the type of 'max_val' should be one of"),
    (lambda: nn.SSIM(max_val=0), ValueError, "max_val"),
    (lambda: nn.SSIM(filter_size=1.1), TypeError, "the 'filter_size' must be int"),
    (lambda: nn.SSIM(filter_size=0), ValueError, "filter_size"),
    (lambda: nn.SSIM(k1=1), TypeError, "k1"),
    (lambda: nn.PSNR(True), TypeError, "the type of 'max_val' should be one of"),
    (lambda: nn.PSNR(-1), ValueError, "max_val"),
])
def test_arguments(make, error, text):
    with pytest.raises(error) as info:
        make()
    assert text in str(info.value)


@pytest.mark.parametrize("metric, a, b, error, text", [
    (nn.SSIM(), _img(8, 3, 16, 16, dtype=np.float64), _img(8, 3, 8, 8), TypeError,
     ("the 'img1' should be one of [mindspore.float32, mindspore.float16], but got "
      "'mindspore.float64'")),
    (nn.SSIM(), _img(8, 3, 16, 16, 1), _img(8, 3, 16, 16, 1), ValueError,
     "the dimension of 'img1' must be 4d, but got 5"),
    (nn.SSIM(), _img(8, 3, 16, 16), _img(8, 3, 8, 8), ValueError,
     "the x shape should be = y shape"),
    (nn.SSIM(), _img(8, 3, 16, 16), _img(8, 3, 16, 16, dtype=np.float16), TypeError,
     "the x dtype should be = y dtype: Float32, but got Float16"),
    (nn.PSNR(), _img(8, 3, 16), _img(8, 3, 16), ValueError,
     "the dimension of 'img1' must be 4d, but got 3"),
])
def test_images(metric, a, b, error, text):
    with pytest.raises(error) as info:
        metric(a, b)
    assert text in str(info.value)


def test_values_in_float32():
    rng = np.random.RandomState
    x = Tensor(rng(0).random((2, 3, 16, 16)).astype(np.float32))
    y = Tensor(rng(1).random((2, 3, 16, 16)).astype(np.float32))
    # MindSpore 2.10 (graph mode)
    np.testing.assert_allclose(nn.SSIM()(x, y).asnumpy(), [-0.01654322, 0.01045655],
                               rtol=1e-4, atol=1e-6)
    assert nn.SSIM()(x.astype(cg.float16), y.astype(cg.float16)).dtype == cg.float32
    np.testing.assert_allclose(nn.PSNR()(x, y).asnumpy(), [7.548335, 7.806928], rtol=1e-5)
    a = Tensor(np.full((2, 1, 4, 4), 10, np.uint8))
    b = Tensor(np.full((2, 1, 4, 4), 12, np.uint8))
    np.testing.assert_allclose(nn.PSNR(255)(a, b).asnumpy(), [42.1102, 42.1102], rtol=1e-5)
