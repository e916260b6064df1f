"""Image layers: PixelShuffle and PixelUnshuffle, and image quality as layers: SSIM (structural
similarity) and PSNR (peak signal-to-noise ratio) between two batches of (N, C, H, W) images,
one value per image."""
from __future__ import annotations

import numbers

import numpy as np

import cellgraph.ops as P
from cellgraph import _checkparam as validator
from cellgraph.primitives import dtype as dt
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.runtime.tensor import Tensor

from ..cell import Cell
from .activation import ReLU
from .container import CellList
from .conv import Conv2d
from .pooling import AvgPool2d

__all__ = ["LRN", "MSSSIM", "PSNR", "SSIM", "CentralCrop", "ImageGradients", "PixelShuffle",
           "PixelUnshuffle"]


class ImageGradients(Cell):
    """(dy, dx) of (N, C, H, W) images: the differences to the next row and to the next
    column, 0 in the last row (dy) and last column (dx)."""

    def __init__(self):
        super().__init__()

    def construct(self, images):
        if len(images.shape) != 4:
            raise ShapeError(f"For 'ImageGradients', the dimension of 'images' must be 4, but got "
                             f"{len(images.shape)}.")
        dy = P.concat((images[:, :, 1:, :] - images[:, :, :-1, :],
                       P.zeros_like(images[:, :, :1, :])), 2)
        dx = P.concat((images[:, :, :, 1:] - images[:, :, :, :-1],
                       P.zeros_like(images[:, :, :, :1])), 3)
        return dy, dx


class LRN(Cell):
    """Local response normalisation across channels (ops.lrn): x / (bias + alpha * sum of x^2
    over the `depth_radius` neighbouring channels on each side) ^ beta."""

    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,
                 norm_region="ACROSS_CHANNELS"):
        super().__init__()
        validator.check_value_type("depth_radius", depth_radius, [int], "LRN")
        for name, value in (("bias", bias), ("alpha", alpha), ("beta", beta)):
            validator.check_value_type(name, value, [float], "LRN")
        if norm_region != "ACROSS_CHANNELS":
            raise ArgumentValueError(f"For 'LRN', 'norm_region' must be 'ACROSS_CHANNELS', but "
                                     f"got {norm_region!r}.")
        self.depth_radius, self.bias, self.alpha, self.beta = depth_radius, bias, alpha, beta
        self.norm_region = norm_region

    def construct(self, input_x):
        return P.lrn(input_x, self.depth_radius, self.bias, self.alpha, self.beta,
                     self.norm_region)


class PixelShuffle(Cell):
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r)."""

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = _factor(upscale_factor, "PixelShuffle", "upscale_factor")

    def construct(self, input):
        return P.pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(Cell):
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W)."""

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = _factor(downscale_factor, "PixelUnshuffle", "downscale_factor")

    def construct(self, input):
        return P.pixel_unshuffle(input, self.downscale_factor)


def _factor(value, op: str, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ArgumentValueError(f"{op}: `{name}` must be a positive int, got {value!r}")
    return int(value)


def _check_4d(op: str, label: str, img) -> None:
    if len(img.shape) != 4:
        raise ShapeError(f"For '{op}', the dimension of '{label}' must be 4d, but got "
                         f"{len(img.shape)}.")


def _same_type_shape(img1, img2) -> None:
    """MindSpore's SameTypeShape: one dtype (TypeError), then one shape (ValueError)."""
    if img1.dtype != img2.dtype:
        raise DTypeError(f"For 'SameTypeShape', the x dtype should be = y dtype: {img1.dtype}, "
                         f"but got {img2.dtype}.")
    if tuple(img1.shape) != tuple(img2.shape):
        raise ShapeError(f"For 'SameTypeShape', the x shape should be = y shape: "
                         f"{tuple(img1.shape)}, but got {tuple(img2.shape)}.")


def _as_float32(img1, img2, max_val):
    """The images and max_val in float32, integer images (and max_val) divided by their
    dtype's largest value, as MindSpore's image metrics compute."""
    dtype_max = float(np.iinfo(img1.dtype.np).max) if img1.dtype.is_int and \
        img1.dtype != dt.bool_ else 1.0
    max_val = float(np.float32(max_val))
    img1, img2 = P.cast(img1, dt.float32), P.cast(img2, dt.float32)
    if dtype_max > 1.0:
        scale = 1.0 / dtype_max
        max_val, img1, img2 = max_val * scale, img1 * scale, img2 * scale
    return img1, img2, max_val


def _check_max_val(max_val, op: str):
    validator.check_value_type("max_val", max_val, [int, float], op)
    validator.check_number("max_val", max_val, 0.0, validator.GT, op)
    return max_val


class SSIM(Cell):
    """Mean over channels and positions of the SSIM map
    ((2 mu1 mu2 + c1)(2 cov + c2)) / ((mu1^2 + mu2^2 + c1)(var1 + var2 + c2)), the local
    statistics Gaussian-weighted over `filter_size` windows that fit in the image
    (c1 = (k1 max_val)^2, c2 = (k2 max_val)^2)."""

    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        name = "SSIM"
        self.max_val = _check_max_val(max_val, name)
        self.filter_size = validator.check_int(filter_size, 1, validator.GE, "filter_size", name)
        self.filter_sigma = validator.check_positive_float(filter_sigma, "filter_sigma", name)
        self.k1 = validator.check_value_type("k1", k1, [float], name)
        self.k2 = validator.check_value_type("k2", k2, [float], name)
        self.conv = _window_conv(filter_size, self.filter_sigma)

    def _blur(self, x):
        """The Gaussian window over each channel (MindSpore's conv, channel by channel)."""
        channels = x.shape[1]
        kernel = P.tile(P.cast(self.conv.weight, x.dtype), (channels, 1, 1, 1))
        return P.conv2d(x, kernel, groups=channels)

    def construct(self, img1, img2):
        if str(img1.dtype) not in ("Float32", "Float16"):
            raise DTypeError(f"For 'SSIM', the 'img1' should be one of [mindspore.float32, "
                             f"mindspore.float16], but got 'mindspore.{img1.dtype.name}'.")
        _check_4d("SSIM", "img1", img1)
        for axis in (2, 3):
            if img1.shape[axis] < self.filter_size:
                raise ArgumentValueError(f"For 'SSIM', the 'img1 shape[{axis}]' should be >= "
                                         f"'filter_size' = {self.filter_size}, but got "
                                         f"{img1.shape[axis]}.")
        _same_type_shape(img1, img2)
        img1, img2, max_val = _as_float32(img1, img2, self.max_val)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        mu1, mu2 = self._blur(img1), self._blur(img2)
        var1 = self._blur(img1 * img1) - mu1 * mu1
        var2 = self._blur(img2 * img2) - mu2 * mu2
        cov = self._blur(img1 * img2) - mu1 * mu2
        ssim_map = ((2 * mu1 * mu2 + c1) * (2 * cov + c2)) / \
            ((mu1 * mu1 + mu2 * mu2 + c1) * (var1 + var2 + c2))
        return P.reduce_mean(ssim_map, (1, 2, 3))


def _mindspore_window(size: int, sigma: float) -> np.ndarray:
    """MindSpore's MSSSIM window: a float32 2-D Gaussian over offsets -size//2+1 .. size//2
    (not centred for an even size), normalised, as (1, 1, size, size)."""
    offsets = np.arange(-size // 2 + 1, size // 2 + 1, dtype=np.float32)
    squares = (offsets[:, None] ** 2 + offsets[None, :] ** 2).astype(np.float32)
    g = np.exp(-squares / np.float32(2 * sigma ** 2))
    return (g / np.sum(g))[None, None].astype(np.float32)


def _window_conv(size: int, sigma: float) -> Conv2d:
    """MindSpore's fixed Gaussian filter: a 1-to-1 channel valid Conv2d holding the window as
    its weight, not trained (so `conv.weight` is in the layer's tree and checkpoints)."""
    conv = Conv2d(1, 1, size, weight_init=Tensor(_mindspore_window(size, sigma)),
                  pad_mode="valid")
    conv.weight.requires_grad = False
    return conv


_MSSSIM_DTYPES = ("Float64", "Float32", "Float16", "UInt8")


class MSSSIM(Cell):
    """Multi-scale SSIM, as MindSpore computes it: at each of len(power_factors) scales (each
    half the size of the one before, by 2x2 average pooling) the per-channel SSIM and contrast
    structure over valid `filter_size` Gaussian windows; the product of the contrast structures
    of the first scales and the SSIM of the last, each to its power factor, averaged over
    channels. Integer images are scaled by their dtype's maximum."""

    def __init__(self, max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
                 filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__()
        name = "MSSSIM"
        validator.check_value_type("max_val", max_val, [int, float], name)
        validator.check_number("max_val", max_val, 0.0, validator.GT, name)
        self.max_val = max_val
        validator.check_value_type("power_factors", power_factors, [tuple, list], name)
        self.filter_size = validator.check_int(filter_size, 1, validator.GE, "filter_size", name)
        self.filter_sigma = validator.check_positive_float(filter_sigma, "filter_sigma", name)
        self.k1 = validator.check_value_type("k1", k1, [float], name)
        self.k2 = validator.check_value_type("k2", k2, [float], name)
        self.power_factors = tuple(power_factors)
        self.level = len(self.power_factors)
        self.multi_convs_list = CellList([_window_conv(filter_size, self.filter_sigma)
                                          for _ in range(self.level)])
        self.avg_pool = AvgPool2d(kernel_size=2, stride=2)
        self.relu = ReLU()

    def construct(self, img1, img2):
        for label, img in (("img1", img1), ("img2", img2)):
            if len(img.shape) != 4:
                raise ShapeError(f"For 'MSSSIM', the dimension of '{label}' must be 4, but got "
                                 f"{len(img.shape)}.")
            if str(img.dtype) not in _MSSSIM_DTYPES:
                raise DTypeError(f"For 'MSSSIM', the dtype of '{label}' must be one of "
                                 f"[Float64, Float32, Float16, UInt8], but got {img.dtype}.")
        if img1.dtype != img2.dtype:
            raise DTypeError(f"For 'SameTypeShape', the dtype of 'input_x' and 'input_y' must be "
                             f"the same, but got {img1.dtype} and {img2.dtype}.")
        if tuple(img1.shape) != tuple(img2.shape):
            raise ShapeError(f"For 'SameTypeShape', the shape of 'input_x' and 'input_y' must be "
                             f"the same, but got {tuple(img1.shape)} and {tuple(img2.shape)}.")
        dtype_max = 255.0 if str(img1.dtype) == "UInt8" else 1.0
        max_val = float(np.float32(self.max_val / dtype_max if dtype_max > 1.0
                                   else self.max_val))
        img1, img2 = P.cast(img1, dt.float32), P.cast(img2, dt.float32)
        if dtype_max > 1.0:
            img1, img2 = img1 * (1.0 / dtype_max), img2 * (1.0 / dtype_max)
        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        factors = []
        sim = None
        for conv in self.multi_convs_list:
            sim, cs = self._ssim_and_cs(c1, c2, img1, img2, conv.weight)
            factors.append(self.relu(cs))
            img1 = self.avg_pool(img1)
            img2 = self.avg_pool(img2)
        stacked = P.stack(factors[:-1] + [self.relu(sim)], -1)
        weights = P.cast(np.asarray(self.power_factors, np.float32), dt.float32)
        return P.reduce_mean(P.reduce_prod(P.pow(stacked, weights), -1), -1)

    @staticmethod
    def _ssim_and_cs(c1, c2, img1, img2, window):
        """Per channel (N, C): the mean SSIM and contrast structure over valid windows."""
        channels = img1.shape[1]
        kernel = P.tile(window, (channels, 1, 1, 1))

        def blur(x):
            return P.conv2d(x, kernel, groups=channels)

        mu1, mu2 = blur(img1), blur(img2)
        mu1_sq, mu2_sq, mu1_mu2 = mu1 * mu1, mu2 * mu2, mu1 * mu2
        sigma1_sq = blur(img1 * img1) - mu1_sq
        sigma2_sq = blur(img2 * img2) - mu2_sq
        sigma12 = blur(img1 * img2) - mu1_mu2
        v1, v2 = 2 * sigma12 + c2, sigma1_sq + sigma2_sq + c2
        ssim = ((2 * mu1_mu2 + c1) * v1) / ((mu1_sq + mu2_sq + c1) * v2)
        return P.reduce_mean(ssim, (2, 3)), P.reduce_mean(v1 / v2, (2, 3))


class PSNR(Cell):
    """10 log10(max_val^2 / MSE) per image."""

    def __init__(self, max_val=1.0):
        super().__init__()
        self.max_val = _check_max_val(max_val, "PSNR")

    def construct(self, img1, img2):
        _check_4d("PSNR", "img1", img1)
        _check_4d("PSNR", "img2", img2)
        _same_type_shape(img1, img2)
        img1, img2, max_val = _as_float32(img1, img2, self.max_val)
        mse = P.reduce_mean(P.square(img1 - img2), (1, 2, 3))
        return 10 * P.log(max_val ** 2 / mse) / np.log(10.0)


class CentralCrop(Cell):
    """The central `central_fraction` of the last two axes of (C, H, W) or (N, C, H, W): rows
    from int((H - H * fraction) / 2), as many left out at the end (columns alike)."""

    def __init__(self, central_fraction):
        super().__init__()
        if not isinstance(central_fraction, float):
            raise DTypeError(f"CentralCrop: `central_fraction` must be a float, got "
                             f"{type(central_fraction).__name__}")
        if not 0.0 < central_fraction <= 1.0:
            raise ArgumentValueError(f"CentralCrop: `central_fraction` must be in (0, 1], got "
                                     f"{central_fraction}")
        self.central_fraction = central_fraction

    def construct(self, image):
        shape = tuple(image.shape)
        if len(shape) not in (3, 4):
            raise ArgumentValueError(f"CentralCrop image must be 3d or 4d, but got shape {shape}")
        if self.central_fraction == 1.0:
            return image
        h, w = shape[-2:]
        top = int((float(h) - float(h * self.central_fraction)) / 2)
        left = int((float(w) - float(w * self.central_fraction)) / 2)
        begin = (0,) * (len(shape) - 2) + (top, left)
        size = shape[:-2] + (h - 2 * top, w - 2 * left)
        return P.slice(image, begin, size)
