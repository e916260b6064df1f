"""OpenCV's colour kernels that MindSpore's C++ colour transforms call (cv::cvtColor's grey and
full-range HSV, cv::filter2D's sharpness smoothing, cv::addWeighted), reproduced in NumPy with
OpenCV's arithmetic: its fixed-point 8-bit conversions, and the float32 loops as its AVX2 build
runs them (fused multiply-adds in whole vectors, the scalar loop for the rest of a row)."""
from __future__ import annotations

import numpy as np

# OpenCV's 8-bit colour conversions, which MindSpore's C++ adjustments run through: integer
# grey (fixed point, 14 bits) and HSV over the full byte range (hue 0..255)
_HSV_SHIFT = 12


def cv_gray_14bit(array: np.ndarray) -> np.ndarray:
    """Grey levels with 14-bit fixed-point weights (the conversion PhotoTour reads its sheets
    with)."""
    r, g, b = (array[..., i].astype(np.int64) for i in range(3))
    return ((r * 4899 + g * 9617 + b * 1868 + 8192) >> 14).astype(np.uint8)


_GREY_WEIGHTS = (np.float32(0.299), np.float32(0.587), np.float32(0.114))
_LANES = 8  # the float lanes of OpenCV's AVX2 loop


def _fma(a, b, c) -> np.ndarray:
    """fmaf(a, b, c): exact in double, rounded once to float32."""
    return (a.astype(np.float64) * np.float64(b) + c.astype(np.float64)).astype(np.float32)


def _cv_float_gray(array: np.ndarray) -> np.ndarray:
    """cv::cvtColor(RGB2GRAY) of a float32 image, row by row as OpenCV runs it: the columns
    in whole vectors of 8 as fma(b, wb, fma(g, wg, r * wr)), the rest as its scalar loop,
    fma(b, wb, fma(r, wr, g * wg))."""
    wr, wg, wb = _GREY_WEIGHTS
    r, g, b = array[..., 0], array[..., 1], array[..., 2]
    whole = array.shape[1] - array.shape[1] % _LANES
    grey = _fma(b, wb, _fma(g, wg, r * wr))
    grey[:, whole:] = _fma(b[:, whole:], wb, _fma(r[:, whole:], wr, g[:, whole:] * wg))
    return grey


def cv_rgb_to_gray(array: np.ndarray) -> np.ndarray:
    """cv::cvtColor(RGB2GRAY): of a uint8 image with 15-bit fixed-point weights, rounded; of
    a float image in float32."""
    if array.dtype != np.uint8:
        return _cv_float_gray(array.astype(np.float32)).astype(array.dtype)
    r, g, b = (array[..., i].astype(np.int64) for i in range(3))
    return ((r * 9798 + g * 19235 + b * 3735 + 16384) >> 15).astype(np.uint8)


def cv_sharpness(image: np.ndarray, factor) -> np.ndarray:
    """MindSpore's C++ AdjustSharpness: cv::filter2D by [[1, 1, 1], [1, 5, 1], [1, 1, 1]] / 13
    in float32 (rounded back to uint8), the border rows and columns kept from the image, then
    cv::addWeighted(image, factor, smoothed, 1 - factor)."""
    taps = np.full((3, 3), np.float32(1.0 / 13.0), np.float32)
    taps[1, 1] = np.float32(5.0 / 13.0)
    data = image.astype(np.float32)
    height, width = image.shape[:2]
    smooth = np.zeros_like(data)
    for dy in range(3):
        for dx in range(3):
            window = data[dy:height - 2 + dy, dx:width - 2 + dx].astype(np.float64)
            # OpenCV's vector loop: one fused multiply-add per tap (exact in double here)
            smooth[1:-1, 1:-1] = (np.float64(taps[dy, dx]) * window
                                  + smooth[1:-1, 1:-1]).astype(np.float32)
    if image.dtype == np.uint8:
        smoothed = np.clip(np.rint(smooth), 0, 255).astype(np.uint8)
    else:
        smoothed = smooth.astype(image.dtype)
    smoothed[[0, -1]], smoothed[:, [0, -1]] = image[[0, -1]], image[:, [0, -1]]
    return cv_add_weighted(image, factor, smoothed, 1.0 - float(np.float32(factor)))


def cv_add_weighted(first: np.ndarray, alpha, second, beta) -> np.ndarray:
    """cv::addWeighted(first, alpha, second, beta, 0): of uint8 images in float32, as OpenCV's
    vector loop computes it, fma(first, alpha, second * beta), then rounded half to even; of
    float images in double."""
    alpha, beta = np.float32(alpha), np.float32(beta)
    if first.dtype != np.uint8:  # float images: summed in double
        out = (first.astype(np.float64) * np.float64(alpha)
               + np.asarray(second, np.float64) * np.float64(beta))
        return out.astype(first.dtype)
    scaled = (np.asarray(second).astype(np.float32) * beta).astype(np.float64)
    out = (first.astype(np.float64) * np.float64(alpha) + scaled).astype(np.float32)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def cv_rgb_to_hsv_full(array: np.ndarray) -> np.ndarray:
    r, g, b = (array[..., i].astype(np.int64) for i in range(3))
    v = np.maximum(np.maximum(r, g), b)
    diff = v - np.minimum(np.minimum(r, g), b)
    index = np.arange(256)
    with np.errstate(divide="ignore"):
        sdiv = np.where(index > 0, np.rint((255 << _HSV_SHIFT) / np.maximum(index, 1)), 0)
        hdiv = np.where(index > 0, np.rint((256 << _HSV_SHIFT) / (6.0 * np.maximum(index, 1))),
                        0)
    sdiv, hdiv = sdiv.astype(np.int64), hdiv.astype(np.int64)
    half = 1 << (_HSV_SHIFT - 1)
    s = (diff * sdiv[v] + half) >> _HSV_SHIFT
    h = np.where(v == r, g - b, np.where(v == g, b - r + 2 * diff, r - g + 4 * diff))
    h = (h * hdiv[diff] + half) >> _HSV_SHIFT
    h = np.where(h < 0, h + 256, h)
    return np.stack([np.clip(h, 0, 255), s, v], -1).astype(np.uint8)


_SECTORS = np.array([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])


_HSV_LANES = 32  # the pixels a vector of OpenCV's AVX2 8-bit HSV -> RGB loop holds


def cv_hsv_full_to_rgb(hsv: np.ndarray) -> np.ndarray:
    """cv::cvtColor(HSV2RGB_FULL) of a uint8 image, row by row as OpenCV runs it: hue times
    6 / 255 in float32; the columns in whole vectors of 32 with fused multiply-adds and the
    result truncated, the rest of a row by its scalar loop, rounded."""
    whole = hsv.shape[1] - hsv.shape[1] % _HSV_LANES
    out = np.empty(hsv.shape, np.uint8)
    out[:, :whole] = _hsv_to_rgb_levels(hsv[:, :whole], vector=True)
    out[:, whole:] = _hsv_to_rgb_levels(hsv[:, whole:], vector=False)
    return out


def _hsv_to_rgb_levels(hsv: np.ndarray, vector: bool) -> np.ndarray:
    one = np.float32(1)
    h = hsv[..., 0].astype(np.float32) * (np.float32(6) / np.float32(255))
    s = hsv[..., 1].astype(np.float32) * np.float32(1 / 255)
    v = hsv[..., 2].astype(np.float32) * np.float32(1 / 255)
    sector = np.floor(h).astype(np.int64)
    h = h - sector.astype(np.float32)
    sector = sector % 6  # a hue of 255 comes to 6: sector 0
    if vector:  # 1 - s * x contracted to one fused multiply-add
        falling = _fma(-s, h, np.ones_like(h))
        rising = _fma(-s, one - h, np.ones_like(h))
    else:
        falling, rising = one - s * h, one - s * (one - h)
    tab = np.stack([v, v * (one - s), v * falling, v * rising], -1)
    bgr = np.take_along_axis(tab, _SECTORS[sector], -1)
    if not vector:
        bgr = np.where((s == 0)[..., None], v[..., None], bgr)
    levels = bgr[..., ::-1] * np.float32(255)
    levels = np.trunc(levels) if vector else np.rint(levels)
    return np.clip(levels, 0, 255).astype(np.uint8)
