"""OpenCV 4.5's image warps (cv::warpAffine, cv::warpPerspective, cv::getRotationMatrix2D and
cv::getPerspectiveTransform), which MindSpore's C++ kernels call, reproduced in NumPy.

OpenCV maps each output pixel back into the input in fixed point: the source position is
rounded to 1/32 of a pixel (INTER_TAB_SIZE), its whole part picks the neighbours and its
fraction one of 32 x 32 precomputed weight tables. For uint8 images the weights are integers
summing to 2**15 and the sum is rounded by (s + 2**14) >> 15; for float images they are floats
summed in float32. Neighbours outside the image take the border value, so pixels near the edge
blend with it. INTER_AREA warps as INTER_LINEAR, as OpenCV does.
"""
from __future__ import annotations

import math
from enum import Enum

import numpy as np

_TAB_BITS = 5
_TAB = 1 << _TAB_BITS  # INTER_TAB_SIZE
_COEF_BITS = 15
_COEF_SCALE = 1 << _COEF_BITS  # INTER_REMAP_COEF_SCALE
_AB_BITS = 10  # warpAffine's fixed-point position bits
_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1


class CvInter(Enum):
    """The OpenCV interpolations a warp takes."""

    NEAREST = 0
    LINEAR = 1
    CUBIC = 2


def _round_int(values) -> np.ndarray:
    """saturate_cast<int>(double): rounded half to even, clamped to int32."""
    return np.clip(np.rint(values), _INT_MIN, _INT_MAX).astype(np.int64)


def _linear_taps(x: np.float32) -> list:
    return [np.float32(1) - x, x]


def _cubic_taps(x: np.float32) -> list:
    a = np.float32(-0.75)
    one = np.float32(1)
    x1 = x + one
    c0 = ((a * x1 - np.float32(5) * a) * x1 + np.float32(8) * a) * x1 - np.float32(4) * a
    c1 = ((a + np.float32(2)) * x - (a + np.float32(3))) * x * x + one
    y = one - x
    c2 = ((a + np.float32(2)) * y - (a + np.float32(3))) * y * y + one
    return [c0, c1, c2, one - c0 - c1 - c2]


def _weight_tables(taps_of) -> tuple[np.ndarray, np.ndarray]:
    """The float and the fixed-point 2-D tables, (32 * 32, k, k) each, indexed by
    (fy * 32 + fx), as initInterTab2D builds them."""
    taps = [taps_of(np.float32(i) / np.float32(_TAB)) for i in range(_TAB)]
    ksize = len(taps[0])
    ftab = np.zeros((_TAB * _TAB, ksize, ksize), np.float32)
    itab = np.zeros((_TAB * _TAB, ksize, ksize), np.int64)
    half = ksize // 2
    for i in range(_TAB):
        for j in range(_TAB):
            cell = ftab[i * _TAB + j]
            for k1 in range(ksize):
                for k2 in range(ksize):
                    cell[k1, k2] = np.float32(taps[i][k1] * taps[j][k2])
            fixed = np.clip(np.rint(cell.astype(np.float64) * _COEF_SCALE), -32768, 32767)
            fixed = fixed.astype(np.int64)
            diff = int(fixed.sum()) - _COEF_SCALE
            if diff:  # put the rounding error on the largest (or smallest) central weight
                lo = hi = (half, half)
                for k1 in range(half, min(half + 2, ksize)):
                    for k2 in range(half, min(half + 2, ksize)):
                        if fixed[k1, k2] < fixed[lo]:
                            lo = (k1, k2)
                        elif fixed[k1, k2] > fixed[hi]:
                            hi = (k1, k2)
                fixed[hi if diff < 0 else lo] -= diff
            itab[i * _TAB + j] = fixed
    return ftab, itab


_TABLES: dict = {}


def _tables(inter: CvInter):
    if inter not in _TABLES:
        _TABLES[inter] = _weight_tables(_linear_taps if inter is CvInter.LINEAR
                                        else _cubic_taps)
    return _TABLES[inter]


def _border(fill, channels: int | None) -> np.ndarray:
    """The border pixel: a number for every channel, or values per channel as a cv::Scalar
    holds them (channels past the given values are 0)."""
    fill = np.asarray(fill, np.float64)
    if channels is None:
        return fill.reshape(-1)[:1].reshape(())
    if fill.ndim:
        fill = np.concatenate([fill.reshape(-1), np.zeros(max(0, channels - fill.size))])
        return fill[:channels]
    return np.broadcast_to(fill, (channels,))


def _gather(image: np.ndarray, rows, cols, border) -> np.ndarray:
    height, width = image.shape[:2]
    inside = (rows >= 0) & (rows < height) & (cols >= 0) & (cols < width)
    picked = image[np.clip(rows, 0, height - 1), np.clip(cols, 0, width - 1)]
    if image.ndim == 3:
        inside = inside[..., None]
    return np.where(inside, picked, border.astype(image.dtype))


def remap(image: np.ndarray, xs: np.ndarray, ys: np.ndarray, inter: CvInter,
          fill) -> np.ndarray:
    """Sample `image` at the fixed-point positions (xs, ys): whole pixels for NEAREST, 1/32
    pixels otherwise (cv::remap's map1/map2 pair), with a constant border `fill`."""
    channels = image.shape[2] if image.ndim == 3 else None
    border = _border(fill, channels)
    if image.dtype == np.uint8:
        border = np.clip(np.rint(border), 0, 255)
    if inter is CvInter.NEAREST:
        return _gather(image, ys, xs, border)
    ftab, itab = _tables(inter)
    ksize = ftab.shape[1]
    offset = (ksize - 1) // 2
    sx, sy = (xs >> _TAB_BITS) - offset, (ys >> _TAB_BITS) - offset
    cell = (ys & (_TAB - 1)) * _TAB + (xs & (_TAB - 1))
    fixed = image.dtype == np.uint8
    weights = itab[cell] if fixed else ftab[cell]
    total = None
    for k1 in range(ksize):
        row = None
        for k2 in range(ksize):
            weight = weights[..., k1, k2]
            if channels is not None:
                weight = weight[..., None]
            value = _gather(image, sy + k1, sx + k2, border)
            term = value.astype(np.int64) * weight if fixed else \
                value.astype(np.float32) * weight
            # float sums run as OpenCV's: the bilinear four in a row, the bicubic by rows
            if ksize == 2:
                total = term if total is None else total + term
            else:
                row = term if row is None else row + term
        if row is not None:
            total = row if total is None else total + row
    if fixed:
        return np.clip((total + (1 << (_COEF_BITS - 1))) >> _COEF_BITS, 0, 255).astype(np.uint8)
    if image.dtype.kind in "iu":
        info = np.iinfo(image.dtype)
        return np.clip(np.rint(total), info.min, info.max).astype(image.dtype)
    return total.astype(image.dtype)


def warp_affine(image: np.ndarray, matrix, out_hw: tuple[int, int], inter: CvInter,
                fill=0) -> np.ndarray:
    """cv::warpAffine(image, matrix (2x3, input -> output), size, inter, BORDER_CONSTANT,
    fill)."""
    m = [float(v) for v in np.asarray(matrix, np.float64).reshape(6)]
    det = m[0] * m[4] - m[1] * m[3]
    det = 1.0 / det if det != 0 else 0.0
    a11, a22 = m[4] * det, m[0] * det
    m[0], m[1], m[3], m[4] = a11, m[1] * -det, m[3] * -det, a22
    b1 = -m[0] * m[2] - m[1] * m[5]
    b2 = -m[3] * m[2] - m[4] * m[5]
    m[2], m[5] = b1, b2
    height, width = out_hw
    scale = 1 << _AB_BITS
    cols, rows = np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64)
    adelta = _round_int(m[0] * cols * scale)
    bdelta = _round_int(m[3] * cols * scale)
    round_delta = scale // 2 if inter is CvInter.NEAREST else scale // _TAB // 2
    x0 = _round_int((m[1] * rows + m[2]) * scale) + round_delta
    y0 = _round_int((m[4] * rows + m[5]) * scale) + round_delta
    shift = _AB_BITS if inter is CvInter.NEAREST else _AB_BITS - _TAB_BITS
    xs = (x0[:, None] + adelta[None, :]) >> shift
    ys = (y0[:, None] + bdelta[None, :]) >> shift
    return remap(image, xs, ys, inter, fill)


def _invert3(m: list) -> list:
    """cv::invert of a 3x3 double matrix (its closed form for n <= 3)."""
    def at(r, c):
        return m[r * 3 + c]

    det = (at(0, 0) * (at(1, 1) * at(2, 2) - at(1, 2) * at(2, 1))
           - at(0, 1) * (at(1, 0) * at(2, 2) - at(1, 2) * at(2, 0))
           + at(0, 2) * (at(1, 0) * at(2, 1) - at(1, 1) * at(2, 0)))
    if det == 0:
        return [0.0] * 9
    d = 1.0 / det
    return [(at(1, 1) * at(2, 2) - at(1, 2) * at(2, 1)) * d,
            (at(0, 2) * at(2, 1) - at(0, 1) * at(2, 2)) * d,
            (at(0, 1) * at(1, 2) - at(0, 2) * at(1, 1)) * d,
            (at(1, 2) * at(2, 0) - at(1, 0) * at(2, 2)) * d,
            (at(0, 0) * at(2, 2) - at(0, 2) * at(2, 0)) * d,
            (at(0, 2) * at(1, 0) - at(0, 0) * at(1, 2)) * d,
            (at(1, 0) * at(2, 1) - at(1, 1) * at(2, 0)) * d,
            (at(0, 1) * at(2, 0) - at(0, 0) * at(2, 1)) * d,
            (at(0, 0) * at(1, 1) - at(0, 1) * at(1, 0)) * d]


def warp_perspective(image: np.ndarray, matrix, out_hw: tuple[int, int], inter: CvInter,
                     fill=0) -> np.ndarray:
    """cv::warpPerspective(image, matrix (3x3, input -> output), size, inter,
    BORDER_CONSTANT, fill). Positions are computed per 64-wide block from its left edge, as
    OpenCV computes them, so that the doubles round as OpenCV's do."""
    m = _invert3([float(v) for v in np.asarray(matrix, np.float64).reshape(9)])
    height, width = out_hw
    block_h = min(16, height)
    block_w = min(1024 // block_h, width)
    cols = np.arange(width)
    left = (cols // block_w * block_w).astype(np.float64)[None, :]
    step = (cols % block_w).astype(np.float64)[None, :]
    rows = np.arange(height, dtype=np.float64)[:, None]
    x0 = m[0] * left + m[1] * rows + m[2]
    y0 = m[3] * left + m[4] * rows + m[5]
    w0 = m[6] * left + m[7] * rows + m[8]
    w = w0 + m[6] * step
    scale = 1.0 if inter is CvInter.NEAREST else float(_TAB)
    with np.errstate(divide="ignore"):
        w = np.where(w != 0, scale / np.where(w != 0, w, 1.0), 0.0)
    fx = np.clip((x0 + m[0] * step) * w, _INT_MIN, _INT_MAX)
    fy = np.clip((y0 + m[3] * step) * w, _INT_MIN, _INT_MAX)
    return remap(image, _round_int(fx), _round_int(fy), inter, fill)


def rotation_matrix(center, degrees: float, scale: float = 1.0) -> np.ndarray:
    """cv::getRotationMatrix2D: turn `degrees` counter-clockwise about `center` (x, y)."""
    cx, cy = (float(np.float32(c)) for c in center)
    angle = degrees * math.pi / 180
    alpha, beta = math.cos(angle) * scale, math.sin(angle) * scale
    return np.array([[alpha, beta, (1 - alpha) * cx - beta * cy],
                     [-beta, alpha, beta * cx + (1 - alpha) * cy]])


def _lu_solve(a: list, b: list) -> list:
    """OpenCV's LU solve (partial pivoting, rows eliminated by -1 / pivot), in doubles."""
    n = len(a)
    for i in range(n):
        k = max(range(i, n), key=lambda r: (abs(a[r][i]), -r))
        if abs(a[k][i]) < 2.220446049250313e-16 * 10:
            raise ValueError("getPerspectiveTransform: the points are degenerate")
        if k != i:
            a[i], a[k], b[i], b[k] = a[k], a[i], b[k], b[i]
        d = -1.0 / a[i][i]
        for j in range(i + 1, n):
            alpha = a[j][i] * d
            for c in range(i + 1, n):
                a[j][c] += alpha * a[i][c]
            b[j] += alpha * b[i]
    for i in range(n - 1, -1, -1):
        s = b[i]
        for k in range(i + 1, n):
            s -= a[i][k] * b[k]
        b[i] = s / a[i][i]
    return b


def perspective_matrix(src, dst) -> np.ndarray:
    """cv::getPerspectiveTransform(src, dst) for four (x, y) point pairs (float points)."""
    a = [[0.0] * 8 for _ in range(8)]
    b = [0.0] * 8
    for i in range(4):
        sx, sy = (float(np.float32(v)) for v in src[i])
        dx, dy = (float(np.float32(v)) for v in dst[i])
        a[i][0] = a[i + 4][3] = sx
        a[i][1] = a[i + 4][4] = sy
        a[i][2] = a[i + 4][5] = 1.0
        a[i][6] = float(np.float32(-sx) * np.float32(dx))
        a[i][7] = float(np.float32(-sy) * np.float32(dx))
        a[i + 4][6] = float(np.float32(-sx) * np.float32(dy))
        a[i + 4][7] = float(np.float32(-sy) * np.float32(dy))
        b[i], b[i + 4] = dx, dy
    return np.array(_lu_solve(a, b) + [1.0]).reshape(3, 3)


def affine_matrix(height: int, width: int, degrees, translation, scale, shear) -> np.ndarray:
    """MindSpore's GetAffineMatrix, in its float32 arithmetic: a turn of `degrees`, a zoom
    `scale` and shears (x, y) in degrees about the image centre ((W - 1) / 2, (H - 1) / 2),
    then a shift of `translation` pixels (x, y): T * C * R(a) * S(s) * SHy * SHx * C^-1."""
    f32 = np.float32

    def radians(value) -> np.float32:
        return f32(math.pi * float(f32(value)) / 180.0)

    def cos(value) -> np.float32:  # cosf, sinf, tanf: the float overloads
        return f32(math.cos(float(value)))

    def sin(value) -> np.float32:
        return f32(math.sin(float(value)))

    angle, shear_x, shear_y = radians(degrees), radians(shear[0]), radians(-f32(shear[1]))
    scale, tan_x, cos_y = f32(scale), f32(math.tan(float(shear_x))), cos(shear_y)
    turned = f32(angle + shear_y)
    m0 = scale * cos(turned) / cos_y
    m1 = scale * (-cos(turned) * tan_x / cos_y - sin(angle))
    m3 = scale * sin(turned) / cos_y
    m4 = scale * (-sin(turned) * tan_x / cos_y + cos(angle))
    cx, cy = f32(width - 1) / f32(2), f32(height - 1) / f32(2)
    tx, ty = f32(translation[0]), f32(translation[1])
    m2 = (f32(1) - m0) * cx - m1 * cy + tx
    m5 = (f32(1) - m4) * cy - m3 * cx + ty
    return np.array([[m0, m1, m2], [m3, m4, m5]], np.float32)
