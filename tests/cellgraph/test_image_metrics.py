"""nn.SSIM and nn.PSNR against NumPy references written from their definitions."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn


def ssim_ref(a, b, size=11, sigma=1.5, k1=0.01, k2=0.03, max_val=1.0):
    x = np.arange(size) - (size - 1) / 2
    g = np.exp(-x ** 2 / (2 * sigma ** 2))
    w = np.outer(g, g) / g.sum() ** 2
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    out = []
    for img1, img2 in zip(a, b):
        values = []
        for ch in range(img1.shape[0]):
            for i in range(img1.shape[1] - size + 1):
                for j in range(img1.shape[2] - size + 1):
                    p, q = img1[ch, i:i + size, j:j + size], img2[ch, i:i + size, j:j + size]
                    mp, mq = (w * p).sum(), (w * q).sum()
                    vp, vq = (w * p * p).sum() - mp ** 2, (w * q * q).sum() - mq ** 2
                    cov = (w * p * q).sum() - mp * mq
                    values.append((2 * mp * mq + c1) * (2 * cov + c2)
                                  / ((mp ** 2 + mq ** 2 + c1) * (vp + vq + c2)))
        out.append(np.mean(values))
    return np.array(out)


def test_ssim_and_psnr():
    rng = np.random.default_rng(0)
    # SSIM takes float32 or float16 images and computes in float32, as MindSpore's
    a = rng.uniform(size=(2, 2, 13, 14)).astype(np.float32)
    b = np.clip(a + 0.1 * rng.standard_normal(a.shape), 0, 1).astype(np.float32)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    np.testing.assert_allclose(nn.SSIM()(Tensor(a), Tensor(b)).asnumpy(), ssim_ref(a64, b64),
                               rtol=1e-4)
    got = ms.jit(lambda x, y: nn.SSIM(max_val=2.0, filter_size=5)(x, y))(Tensor(a), Tensor(b))
    np.testing.assert_allclose(got.asnumpy(), ssim_ref(a64, b64, 5, max_val=2.0), rtol=1e-4)
    np.testing.assert_allclose(nn.SSIM()(Tensor(a), Tensor(a)).asnumpy(), 1.0, rtol=1e-5)
    psnr = [10 * np.log10(1 / np.mean((x - y) ** 2)) for x, y in zip(a64, b64)]
    np.testing.assert_allclose(nn.PSNR()(Tensor(a), Tensor(b)).asnumpy(), psnr, rtol=1e-5)
    with pytest.raises(ValueError, match="SSIM"):
        nn.SSIM()(Tensor(a[:, :, :8, :8]), Tensor(b[:, :, :8, :8]))
