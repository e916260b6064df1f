"""Image transforms (mindspore.dataset.vision) on NumPy HWC arrays and Pillow images.

Geometric transforms keep their input's kind: a Pillow image stays one (Pillow does the
resampling), a NumPy array stays one (resampled here, so no Pillow is needed). Decoding needs
Pillow (the `vision` extra). Rescale, Normalize and HWC2CHW give NumPy arrays.
"""
from __future__ import annotations

import io
import numbers
import random
from enum import Enum, IntEnum

import numpy as np

from cellgraph.dataset import _std_shuffle as std
from cellgraph.dataset.core.validator_helpers import (
    FLOAT_MAX_INTEGER,
    check_value,
    shape_mismatch,
    type_check,
)
from cellgraph.dataset.transforms.transforms import CppRandomOperation, TensorOperation
from cellgraph.dataset.transforms.transforms import RandomOperation as _RandomOp

__all__ = [
    "HWC2CHW",
    "Border",
    "CenterCrop",
    "Decode",
    "Inter",
    "Normalize",
    "NormalizePad",
    "RandomCrop",
    "RandomHorizontalFlip",
    "Rescale",
    "Resize",
    "ToTensor",
]


class Inter(IntEnum):
    """Interpolation modes, with MindSpore's values and aliases (LINEAR is BILINEAR, CUBIC is
    BICUBIC)."""

    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = 2
    LINEAR = 2  # an alias of BILINEAR, as in MindSpore
    BICUBIC = 3
    CUBIC = 3  # an alias of BICUBIC
    AREA = 4
    PILCUBIC = 5


class Border(str, Enum):
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


def _pil():
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("this image transform needs Pillow: pip install 'cellgraph[vision]' "
                          "(or pip install Pillow)") from None
    return Image


def _is_pil(image) -> bool:
    return type(image).__module__.startswith("PIL.")


def _image_array(image, op: str) -> np.ndarray:
    array = np.asarray(image)
    if array.ndim not in (2, 3):
        raise RuntimeError(f"{op}: expected an image of shape <H, W> or <H, W, C>, got shape "
                           f"{array.shape}")
    return array


def check_prob(prob) -> float:
    """MindSpore's check of a transform's probability: a float or int (not a bool) in [0, 1]."""
    type_check(prob, (float, int), "prob")
    if not 0 <= prob <= 1:
        raise ValueError("Input prob is not within the required interval of [0.0, 1.0].")
    return float(prob)


def _size_pair(size, op: str) -> tuple[int, int]:
    """MindSpore's check of a crop's `size` (an int, or (height, width)), as a pair."""
    type_check(size, (int, list, tuple), "size")
    if isinstance(size, int):
        check_value(size, (1, FLOAT_MAX_INTEGER))
        return int(size), int(size)
    if len(size) != 2:
        raise TypeError("Size should be a single integer or a list/tuple (h, w) of length 2.")
    for index, value in enumerate(size):
        type_check(value, (int,), f"size[{index}]")
        check_value(value, (1, FLOAT_MAX_INTEGER))
    return int(size[0]), int(size[1])


def _check_inter(value, name: str) -> None:
    """An interpolation mode must be an Inter (MindSpore's words, which its tests match)."""
    if not isinstance(value, Inter):
        raise TypeError(f"Argument {name} with value {value} is not of type [<enum 'Inter'>], "
                        f"but got {type(value)}.")


class Decode(TensorOperation):
    """Encoded image bytes (JPEG, PNG, ...) -> an RGB image, HWC uint8 (a Pillow image with
    `to_pil`)."""

    @property
    def python_implementation(self) -> bool:
        return self.to_pil  # as MindSpore: a Pillow result is its Python path

    def __init__(self, to_pil=False):
        self.to_pil = bool(to_pil)

    def __call__(self, data):
        if isinstance(data, np.ndarray) and data.dtype.kind == "S":
            if data.size != 1:  # MindDataset gives a bytes column as a 1-element bytes array
                raise TypeError(f"Decode: expected one encoded image, got a bytes array of "
                                f"shape {data.shape}")
            raw = data.tobytes()
        elif isinstance(data, bytes):
            raw = data
        else:
            data = np.asarray(data)
            if data.ndim != 1:  # MindSpore's (C++) Decode takes only the 1-D encoded bytes
                raise RuntimeError(f"Decode: invalid input shape, only support 1D input, got "
                                   f"rank: {data.ndim}")
            raw = bytes(data.astype(np.uint8))
        try:
            image = _pil().open(io.BytesIO(raw)).convert("RGB")
        except OSError as e:
            raise RuntimeError(f"Decode: the data is not an image Pillow can read: {e}") from None
        return image if self.to_pil else np.asarray(image)


_PIL_FILTERS = {Inter.NEAREST: 0, Inter.LINEAR: 2, Inter.CUBIC: 3, Inter.PILCUBIC: 3,
                Inter.AREA: 4, Inter.ANTIALIAS: 1}


def _linear_axis(out_len: int, in_len: int):
    """Source positions for half-pixel-centred linear resampling along one axis."""
    pos = np.clip((np.arange(out_len) + 0.5) * in_len / out_len - 0.5, 0, in_len - 1)
    low = np.floor(pos).astype(np.int64)
    high = np.minimum(low + 1, in_len - 1)
    return low, high, (pos - low).astype(np.float32)


_COEF_SCALE = 2048  # OpenCV's INTER_RESIZE_COEF_SCALE: the weights' fixed point


def _cv_linear_taps(out_len: int, in_len: int, clamp_weights: bool = True):
    """OpenCV's source index and fixed-point weights (w0, w1) per output position of its
    INTER_LINEAR resize: positions (d + 0.5) * in / out - 0.5 in float, clamped to the edges,
    each weight rounded on its own. Across (columns) a position beyond an edge takes the edge
    pixel whole; down (rows, `clamp_weights=False`) OpenCV clamps the two rows' indices only,
    so an edge row is blended with itself by the unclamped weights."""
    scale = 1.0 / (out_len / in_len)
    pos = ((np.arange(out_len) + 0.5) * scale - 0.5).astype(np.float32)
    low = np.floor(pos).astype(np.int64)
    frac = pos - low.astype(np.float32)
    if not clamp_weights:
        w0 = np.rint((np.float32(1) - frac) * np.float32(_COEF_SCALE)).astype(np.int64)
        w1 = np.rint(frac * np.float32(_COEF_SCALE)).astype(np.int64)
        return np.clip(low, 0, in_len - 1), np.clip(low + 1, 0, in_len - 1), w0, w1
    frac[low < 0] = 0
    low[low < 0] = 0
    edge = low >= in_len - 1
    frac[edge] = 0
    low[edge] = in_len - 1
    w0 = np.rint((np.float32(1) - frac) * np.float32(_COEF_SCALE)).astype(np.int64)
    w1 = np.rint(frac * np.float32(_COEF_SCALE)).astype(np.int64)
    return low, np.minimum(low + 1, in_len - 1), w0, w1


def _cv_linear_u8(image: np.ndarray, height: int, width: int) -> np.ndarray:
    """OpenCV's INTER_LINEAR resize of a uint8 image, bit for bit as MindSpore's build gives
    it: integer horizontal taps, then the vertical blend rounded as its SIMD code rounds it,
    ((S0 >> 4) * b0 >> 16) + ((S1 >> 4) * b1 >> 16), then + 2 >> 2."""
    in_h, in_w = image.shape[:2]
    src = image.reshape(in_h, in_w, -1).astype(np.int64)
    left, right, a0, a1 = _cv_linear_taps(width, in_w)
    rows = src[:, left] * a0[None, :, None] + src[:, right] * a1[None, :, None]
    top, bottom, b0, b1 = _cv_linear_taps(height, in_h, clamp_weights=False)
    s0, s1 = rows[top] >> 4, rows[bottom] >> 4
    b0, b1 = b0[:, None, None], b1[:, None, None]
    out = (((s0 * b0) >> 16) + ((s1 * b1) >> 16) + 2) >> 2
    return np.clip(out, 0, 255).astype(np.uint8).reshape((height, width) + image.shape[2:])


def resize_array(image: np.ndarray, height: int, width: int, interpolation: Inter):
    in_h, in_w = image.shape[:2]
    if interpolation is Inter.LINEAR and image.dtype == np.uint8 and image.ndim in (2, 3):
        if in_w == 2 * width and in_h == 2 * height:  # OpenCV halves by INTER_AREA: 2x2 means
            blocks = image.astype(np.int32).reshape(height, 2, width, 2, *image.shape[2:])
            return ((blocks.sum(axis=(1, 3)) + 2) >> 2).astype(np.uint8)
        return _cv_linear_u8(image, height, width)
    if interpolation is Inter.NEAREST:  # OpenCV's: source index floor(dst / (out / in))
        rows = np.minimum(np.floor(np.arange(height) * (1.0 / (height / in_h))).astype(np.int64),
                          in_h - 1)
        cols = np.minimum(np.floor(np.arange(width) * (1.0 / (width / in_w))).astype(np.int64),
                          in_w - 1)
        return image[rows][:, cols]
    if interpolation is not Inter.LINEAR and image.dtype == np.uint8:
        pil = _pil().fromarray(image)
        return np.asarray(pil.resize((width, height), _PIL_FILTERS[interpolation]))
    if interpolation is not Inter.LINEAR:  # other dtypes: each channel as a float32 image
        planes = image.reshape(in_h, in_w, -1).astype(np.float32)
        out = np.stack([np.asarray(_pil().fromarray(planes[..., c], mode="F").resize(
            (width, height), _PIL_FILTERS[interpolation])) for c in range(planes.shape[2])], -1)
        out = out.reshape((height, width) + image.shape[2:])
        if image.dtype.kind in "iu":
            info = np.iinfo(image.dtype)
            out = np.clip(np.rint(out), info.min, info.max)
        return out.astype(image.dtype)
    top, bottom, wy = _linear_axis(height, in_h)
    left, right, wx = _linear_axis(width, in_w)
    data = image.astype(np.float32)
    wy = wy.reshape((-1, 1) + (1,) * (image.ndim - 2))
    rows = data[top] * (1 - wy) + data[bottom] * wy
    wx = wx.reshape((1, -1) + (1,) * (image.ndim - 2))
    out = rows[:, left] * (1 - wx) + rows[:, right] * wx
    if image.dtype.kind in "iu":
        info = np.iinfo(image.dtype)
        out = np.clip(np.rint(out), info.min, info.max)
    return out.astype(image.dtype)


class Resize(TensorOperation):
    """To `size`: (height, width), or an int for the shorter side (the aspect kept)."""

    @property
    def python_implementation(self) -> bool:
        return self.interpolation is Inter.ANTIALIAS  # MindSpore runs it on Pillow

    def __init__(self, size, interpolation=Inter.LINEAR):
        if interpolation is None:  # MindSpore's check, before the others
            raise KeyError("Interpolation should not be None")
        type_check(size, (int, list, tuple), "size")  # MindSpore's checks and words
        if isinstance(size, int):
            check_value(size, (1, FLOAT_MAX_INTEGER))
            self.size = int(size)
        else:
            if len(size) != 2:
                raise TypeError("Size should be a single integer or a list/tuple (h, w) of "
                                "length 2.")
            for index, value in enumerate(size):
                type_check(value, (int,), f"size at dim {index}")
                check_value(value, (1, 2 ** 31 - 1), f"size at dim {index}")
            self.size = (int(size[0]), int(size[1]))
        _check_inter(interpolation, "interpolation")
        self.interpolation = interpolation

    def _target(self, height: int, width: int) -> tuple[int, int]:
        if isinstance(self.size, tuple):
            return self.size
        if height <= width:
            return self.size, int(self.size * width / height)
        return int(self.size * height / width), self.size

    def __call__(self, image):
        if _is_pil(image):
            height, width = self._target(image.height, image.width)
            return image.resize((width, height), _PIL_FILTERS[self.interpolation])
        array = _image_array(image, "Resize")
        height, width = self._target(*array.shape[:2])
        return resize_array(array, height, width, self.interpolation)


def _h_axis(array) -> int:
    """The axis of the height: 0 in an <H, W> or <H, W, C> image, else the third from last (a
    batch or video <..., H, W, C>, which MindSpore's ops take image by image)."""
    return 0 if array.ndim <= 3 else array.ndim - 3


def _crop(image, top: int, left: int, height: int, width: int):
    if _is_pil(image):
        return image.crop((left, top, left + width, top + height))
    lead = (slice(None),) * _h_axis(np.asarray(image))
    # a new array, as MindSpore's ops give (users hash its buffer)
    return np.ascontiguousarray(image[(*lead, slice(top, top + height), slice(left, left + width))])


def _hw(image) -> tuple[int, int]:
    if _is_pil(image):
        return image.height, image.width
    array = np.asarray(image)
    axis = _h_axis(array)
    return array.shape[axis:axis + 2]


class CenterCrop(TensorOperation):
    """The central `size` region (padded with zeros first where the image is smaller)."""

    def __init__(self, size):
        self.size = _size_pair(size, "CenterCrop")

    def __call__(self, image):
        height, width = self.size
        in_h, in_w = _hw(image)
        if height - in_h >= 3 * in_h or width - in_w >= 3 * in_w:
            raise RuntimeError(f"CenterCrop: Padding size cannot be more than 3 times of the "
                               f"original image size, got top padding: {max(height - in_h, 0)}, "
                               f"left padding: {max(width - in_w, 0)}, while the original image "
                               f"size: {in_h}, {in_w}")
        # MindSpore's: the larger half of an odd padding on the top (left), the offsets of the
        # crop rounded down
        dh, dw = max(0, height - in_h), max(0, width - in_w)
        if dh or dw:
            image = _pad(image, ((dw + 1) // 2, (dh + 1) // 2, dw // 2, dh // 2), 0,
                         Border.CONSTANT)
        in_h, in_w = _hw(image)
        return _crop(image, (in_h - height) // 2, (in_w - width) // 2, height, width)


def _pad(image, pad: tuple, fill, mode: Border):
    """Pad (left, top, right, bottom) pixels."""
    left, top, right, bottom = pad
    was_pil = _is_pil(image)
    array = np.asarray(image)
    axis = _h_axis(array)
    widths = [(0, 0)] * axis + [(top, bottom), (left, right)] + [(0, 0)] * (array.ndim - 2 - axis)
    if mode is Border.CONSTANT:
        if not np.isscalar(fill) and (array.ndim == 2 or array.shape[-1] == 1):
            fill = fill[0]  # as OpenCV's border: a one-channel image takes the first value
        out = np.pad(array, widths, constant_values=fill if np.isscalar(fill) else 0)
        if not np.isscalar(fill) and array.ndim == 3:
            mask = np.ones(out.shape[:2], bool)
            mask[top:top + array.shape[0], left:left + array.shape[1]] = False
            out[mask] = np.asarray(fill, array.dtype)[:array.shape[-1]]
    else:
        out = np.pad(array, widths, mode=mode.value)
    return _pil().fromarray(out) if was_pil else out


def _pad_to(image, height, width, fill, mode):
    """RandomCrop's `pad_if_needed` in MindSpore (both implementations): the rows (columns)
    missing from `height` (`width`) added on both sides."""
    in_h, in_w = _hw(image)
    grow_h, grow_w = max(0, height - in_h), max(0, width - in_w)
    if not grow_h and not grow_w:
        return image
    return _pad(image, (grow_w, grow_h, grow_w, grow_h), fill, mode)


def _padding(padding) -> tuple | None:
    """MindSpore's check of a crop's `padding` (an int, or 2 or 4 ints, each in [0, INT32_MAX]),
    as (left, top, right, bottom)."""
    if padding is None:
        return None
    type_check(padding, (tuple, list, numbers.Number), "padding")
    if isinstance(padding, numbers.Number):
        type_check(padding, (int,), "padding")
        check_value(padding, (0, 2**31 - 1), "padding")
        return (int(padding),) * 4
    if len(padding) not in (2, 4):
        raise ValueError("The size of the padding list or tuple should be 2 or 4.")
    for i, value in enumerate(padding):
        type_check(value, (int,), f"padding[{i}]")
        check_value(value, (0, 2**31 - 1), "pad_value")
    padding = tuple(int(p) for p in padding)
    return padding * 2 if len(padding) == 2 else padding


def _check_crop_padding(padding, image) -> None:
    """RandomCrop's refusal (MindSpore's RuntimeError) of a side padded by three times the
    image's height or width or more; `padding` is (left, top, right, bottom)."""
    left, top, right, bottom = padding
    in_h, in_w = image.shape[:2]
    if max(top, bottom) >= 3 * in_h or max(left, right) >= 3 * in_w:
        raise RuntimeError(f"RandomCrop: padding size is three times bigger than the image "
                           f"size, padding top: {top}, padding bottom: {bottom}, padding "
                           f"pad_left_: {left}, padding padding right:{right}, image shape: "
                           f"{in_h}, {in_w}")


class RandomCrop(_RandomOp, CppRandomOperation):
    """A `size` region at a random place, after optional `padding` (left, top, right,
    bottom) and, with `pad_if_needed`, padding up to `size`. Arrays are cropped as MindSpore's
    C++ op crops them: the left edge then the top drawn by `std::uniform_int_distribution`
    over the op's mt19937 (no draw when the padded image is the crop), `pad_if_needed` padding
    the missing rows and columns on both sides; Pillow images as its Python implementation."""

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0,
                 padding_mode=Border.CONSTANT):
        self.size = _size_pair(size, "RandomCrop")
        self.padding = _padding(padding)
        self.pad_if_needed = bool(pad_if_needed)
        self.fill_value, self.padding_mode = fill_value, padding_mode

    def __call__(self, *images):
        """One crop, at one random place, of each image given (images of one shape)."""
        if images and not _is_pil(images[0]):
            return self._cpp_crop([np.asarray(image) for image in images])
        images = [self._padded(image) for image in images]
        if self.pad_if_needed:
            images = [_pad_to(image, *self.size, self.fill_value, self.padding_mode)
                      for image in images]
        in_h, in_w = _hw(images[0])
        if any(np.shape(image) != np.shape(images[0]) for image in images[1:] if
               not _is_pil(image)):
            raise RuntimeError("RandomCrop: Input images in different column must have the "
                               "same shape, check the output shape in specified "
                               "'input_columns' before call this operation.")
        height, width = self.size
        if in_h < height or in_w < width:
            raise ValueError(f"Crop size {self.size} is larger than input image size "
                             f"({in_h}, {in_w}).")
        if (in_h, in_w) == (height, width):
            top = left = 0
        else:  # MindSpore's Python implementation: Python's random, top first
            top = random.randint(0, in_h - height)
            left = random.randint(0, in_w - width)
        out = tuple(_crop(image, top, left, height, width) for image in images)
        return out[0] if len(out) == 1 else out

    def _cpp_crop(self, images: list):
        """MindSpore's RandomCropOp::Compute: the first column's images (each frame of a
        <..., H, W, C> batch) draw their place, later columns take the last place drawn."""
        for image in images:
            if image.ndim < 2:
                raise RuntimeError(f"RandomCropOp: input tensor should have at least 2 "
                                   f"dimensions, but got: {image.ndim}")
        if any(a.shape[:2] != b.shape[:2] for a in images[1:] for b in images[:1]):
            raise RuntimeError("RandomCrop: Input images in different column must have the "
                               "same shape, check the output shape in specified "
                               "'input_columns' before call this operation.")
        place = [0, 0]
        out = []
        for index, image in enumerate(images):
            if image.ndim <= 3:
                out.append(self._cpp_crop_image(image, place, index == 0))
                continue
            frames = image.reshape(-1, *image.shape[-3:])
            cropped = np.stack([self._cpp_crop_image(frame, place, index == 0)
                                for frame in frames])
            out.append(cropped.reshape(*image.shape[:-3], *cropped.shape[1:]))
        return out[0] if len(out) == 1 else tuple(out)

    def _cpp_crop_image(self, image: np.ndarray, place: list, draws: bool) -> np.ndarray:
        """RandomCropOp::RandomCropImg on one <H, W> or <H, W, C> image; `place` holds the
        (left, top) drawn last."""
        _check_crop_padding(self.padding or (0, 0, 0, 0), image)
        padded = self._padded(image)
        height, width = self.size
        pad_h, pad_w = padded.shape[:2]
        if (pad_h, pad_w) == (height, width):
            return padded
        if self.pad_if_needed:
            padded = _pad_to(padded, height, width, self.fill_value, self.padding_mode)
            pad_h, pad_w = padded.shape[:2]
        if pad_h < height or pad_w < width:
            raise shape_mismatch(f"RandomCrop: invalid crop size, crop size is bigger than "
                                 f"the image dimensions, got crop height: {height}, crop "
                                 f"width: {width}")
        if draws:
            place[0] = std.uniform_int(self.words, 0, pad_w - width)
            place[1] = std.uniform_int(self.words, 0, pad_h - height)
        return _crop(padded, place[1], place[0], height, width)

    def _padded(self, image):
        if not _is_pil(image):
            array = np.asarray(image)
            if array.ndim == 3 and array.shape[2] not in (1, 3):  # MindSpore pads every image
                raise RuntimeError(f"Pad: the channel of image tensor does not match the "
                                   f"requirement of operator. Expecting tensor in channel of "
                                   f"(1, 3). But got channel {array.shape[2]}.")
        if self.padding is not None:
            image = _pad(image, self.padding, self.fill_value, self.padding_mode)
        return image


# the data engine's names of the NumPy kinds without a numeric name
_DE_TYPE_NAMES = {"U": "string", "S": "bytes", "O": "python"}


class RandomFlip(_RandomOp, CppRandomOperation):
    """Mirror along `axis` (1: left-right, 0: top-bottom) with probability `prob`. Arrays draw
    as MindSpore's C++ op draws (`std::bernoulli_distribution` of the float `prob` over the
    op's mt19937), Pillow images by Python's `random` (which set_seed seeds), as MindSpore's
    Python implementation does."""

    axis = 1
    pil_method = 0  # Image.FLIP_LEFT_RIGHT
    batched = True  # MindSpore's left-right flip also takes a batch <..., H, W, C>

    def __init__(self, prob=0.5):
        self.prob = check_prob(prob)

    def __call__(self, *images):
        """One draw for all the images given (an image and its mask flip together)."""
        for image in images:
            if not _is_pil(image):
                self._check_rank(np.asarray(image).ndim)
                self._check_dtype(np.asarray(image).dtype)
        if images and _is_pil(images[0]):
            flip = self.prob > random.random()  # MindSpore's Python implementation
        else:
            flip = std.bernoulli(self.words, float(np.float32(self.prob)))
        out = tuple(self._flip(image) if flip else image for image in images)
        return out[0] if len(out) == 1 else out

    def _check_rank(self, rank: int) -> None:
        op = type(self).__name__
        if self.batched and rank < 2:
            raise RuntimeError(f"{op}: the image tensor should have at least two dimensions. "
                               f"You may need to perform Decode first.")
        if not self.batched and rank not in (2, 3):
            hint = ". You may need to perform Decode first." if rank < 2 else ""
            raise RuntimeError(f"{op}: input tensor is not in shape of <H,W> or <H,W,C>, but "
                               f"got rank: {rank}{hint}")

    def _check_dtype(self, dtype: np.dtype) -> None:
        name = _DE_TYPE_NAMES.get(dtype.kind, dtype.name)
        if self.batched and name not in ("bool", "int8", "uint8", "int16", "uint16", "int32",
                                         "float16", "float32", "float64"):
            raise RuntimeError(f"{type(self).__name__}: the data type of image tensor does not "
                               f"match the requirement of operator. Expecting tensor in type "
                               f"of (bool, int8, uint8, int16, uint16, int32, float16, float32, "
                               f"float64). But got type {name}.")
        if not self.batched and name in ("uint32", "int64", "uint64", "string", "bytes"):
            raise RuntimeError(f"{type(self).__name__}: Cannot convert [{name}] to OpenCV type. "
                               f"Currently unsupported data type: [uint32, int64, uint64, "
                               f"string]")

    def _flip(self, image):
        if _is_pil(image):
            return image.transpose(self.pil_method)
        array = np.asarray(image)
        return np.ascontiguousarray(np.flip(array, _h_axis(array) + self.axis))


class RandomHorizontalFlip(RandomFlip):
    """Mirror left-right with probability `prob`."""


class Rescale(TensorOperation):
    """image * rescale + shift, as float32."""

    def __init__(self, rescale, shift):
        self.rescale, self.shift = float(rescale), float(shift)

    def __call__(self, image):
        return np.asarray(image, np.float32) * np.float32(self.rescale) + np.float32(self.shift)


class Normalize(TensorOperation):
    """(image - mean) / std per channel, computed in float32 as MindSpore's kernel computes it
    (the value cast to float32, less the mean, divided by the std); channels last unless
    `is_hwc=False`. One mean and std serve every channel; an image of more than 3 dimensions
    is a batch of images in its last 3; a 2-D image is one of one channel (MindSpore's view of
    it as <H, W, 1>, also when `is_hwc=False`)."""

    def __init__(self, mean, std, is_hwc=True):
        _check_mean_std(mean, std)
        type_check(is_hwc, (bool,), "is_hwc")
        self.mean = np.asarray(mean, np.float32)
        self.std = np.asarray(std, np.float32)
        self.is_hwc = is_hwc

    def __call__(self, image):
        array = np.asarray(image)
        if array.ndim < 2:
            raise RuntimeError(f"Normalize: input tensor should have at least 2 dimensions, but "
                               f"got: {array.ndim}")
        images = array.reshape(array.shape + (1,)) if array.ndim == 2 else \
            array.reshape((-1,) + array.shape[-3:])
        axis = -1 if self.is_hwc else -3
        channels = images.shape[axis]
        mean, std = self.mean, self.std
        if len(mean) == 1 and channels != 1:
            mean, std = np.repeat(mean, channels), np.repeat(std, channels)
        if channels != len(mean):
            raise RuntimeError(f"Normalize: number of channels does not match the size of mean "
                               f"and std vectors, got channels: {channels}, size of mean: "
                               f"{len(mean)}")
        shape = [1] * images.ndim
        shape[axis] = channels
        out = images.astype(np.float32)  # a new array: the input is never written
        out -= mean.reshape(shape)
        out /= std.reshape(shape)
        return out.reshape(array.shape)


def _check_mean_std(mean, std) -> None:
    """MindSpore's checks of Normalize / NormalizePad's mean and std."""
    type_check(mean, (list, tuple), "mean")
    type_check(std, (list, tuple), "std")
    if len(mean) != len(std):
        raise ValueError("Length of mean and std must be equal.")
    for i, value in enumerate(mean):
        type_check(value, (int, float), f"mean[{i}]")
        check_value(value, [0, 255], f"mean[{i}]")
    for i, value in enumerate(std):
        type_check(value, (int, float), f"std[{i}]")
        check_value(value, [0, 255], f"std[{i}]", left_open_interval=True)


class NormalizePad(TensorOperation):
    """Normalize (per channel, (image - mean) / std) and a zero channel added, as `dtype`
    ("float32" or "float16"). The values are laid out as MindSpore's kernel writes them: the
    normalized channels' values end to end, then the zero plane, in the output's shape (for a
    CHW image those are its planes; for an HWC image MindSpore gives this same order read as
    <H, W, C + 1>, which the numbers here reproduce)."""

    def __init__(self, mean, std, dtype="float32", is_hwc=True):
        _check_mean_std(mean, std)
        type_check(is_hwc, (bool,), "is_hwc")
        if not isinstance(dtype, str):
            raise TypeError("dtype should be string.")
        if dtype not in ("float32", "float16"):
            raise ValueError("dtype only supports float32 or float16.")
        self.mean, self.std, self.dtype, self.is_hwc = list(mean), list(std), dtype, is_hwc

    def __call__(self, image):
        array = np.asarray(image)
        if array.ndim not in (2, 3):
            hint = ". You may need to perform Decode first." if array.ndim < 2 else ""
            raise RuntimeError(f"NormalizePad: input tensor is not in shape of <H,W> or <H,W,C>, "
                               f"but got rank: {array.ndim}{hint}")
        if array.ndim == 2:
            array = array[:, :, None] if self.is_hwc else array[None]
        axis = 2 if self.is_hwc else 0
        if array.shape[axis] != len(self.mean):
            raise RuntimeError(f"NormalizePad: number of channels does not match the size of mean "
                               f"and std vectors, got channels: {array.shape[axis]}, size of "
                               f"mean: {len(self.mean)}")
        shape = (1, 1, -1) if self.is_hwc else (-1, 1, 1)
        mean = np.asarray(self.mean, np.float64).reshape(shape)
        std = np.asarray(self.std, np.float64).reshape(shape)
        normalized = ((array - mean) / std).astype(self.dtype)  # rounded once, as MindSpore
        plane = array.shape[0] * array.shape[1] if self.is_hwc else array[0].size
        values = np.concatenate([normalized.ravel(), np.zeros(plane, self.dtype)])
        out_shape = list(array.shape)
        out_shape[axis] += 1
        return values.reshape(out_shape)


class HWC2CHW(TensorOperation):
    """<H, W, C> -> <C, H, W>; a 2-D image <H, W> is returned as it is (MindSpore 2's
    kernel)."""

    def __call__(self, *images):
        if len(images) != 1:
            raise RuntimeError("The op is OneToOne, can only accept one tensor as input.")
        array = np.asarray(images[0])
        if array.ndim not in (2, 3):
            raise RuntimeError(f"HWC2CHW: image shape should be <H,W> or <H,W,C>, but got rank: "
                               f"{array.ndim}")
        if array.ndim == 2:
            return array
        return array.transpose(2, 0, 1)  # a view: batching copies it into place anyway


# MindSpore's ToTensor scales by the float 1 / 255 (cv::Mat::convertTo, in double here)
_BY_255 = float(np.float32(1) / np.float32(255))


class ToTensor(TensorOperation):
    """An HWC image with values 0..255 -> CHW `output_type` in [0, 1]: float32 values
    (each times the float 1 / 255, as MindSpore's OpenCV conversion), then cast."""

    def __init__(self, output_type=np.float32):
        from cellgraph.dataset.transforms.transforms import numpy_dtype

        self.output_type = numpy_dtype(output_type)

    def __call__(self, image):
        array = _image_array(image, "ToTensor")
        array = array[..., None] if array.ndim == 2 else array
        scaled = (array.transpose(2, 0, 1).astype(np.float64) * _BY_255).astype(np.float32)
        return np.ascontiguousarray(scaled, self.output_type)


def __getattr__(name: str):
    """MindSpore keeps every image transform in this module; the ones written in the other
    modules of vision (which import this one) are found here too."""
    import importlib

    # the first four first: c_transforms reads its names from here while they import
    for module_name in ("color", "geometry", "augment", "levels", "auto_augment",
                        "perspective", "bbox", "mix", "pixels"):
        module = importlib.import_module(f"{__package__}.{module_name}")
        if name in module.__all__:
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
