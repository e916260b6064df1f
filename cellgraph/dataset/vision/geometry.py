"""Geometric transforms of mindspore.dataset.vision: Pad, RandomResize, RandomResizedCrop,
RandomCropDecodeResize, RandomRotation, RandomVerticalFlip, HorizontalFlip, VerticalFlip, Crop,
ToPIL. Rotation needs Pillow."""
from __future__ import annotations

import math
import numbers
import random
from enum import Enum

import numpy as np

from cellgraph.dataset import _std_shuffle as _std
from cellgraph.dataset.core.validator_helpers import (
    FLOAT_MAX_INTEGER,
    check_fill_value,
    check_float32,
    check_non_negative_float32,
    check_pos_float32,
    check_value,
    type_check,
    type_check_list,
)
from cellgraph.dataset.transforms.transforms import CppRandomOperation

from .transforms import (
    _PIL_FILTERS,
    Border,
    Decode,
    Inter,
    RandomFlip,
    Resize,
    TensorOperation,
    _check_inter,
    _crop,
    _h_axis,
    _hw,
    _is_pil,
    _pad,
    _pil,
    _RandomOp,
    _size_pair,
)

__all__ = [
    "Crop",
    "FiveCrop",
    "HorizontalFlip",
    "Pad",
    "RandomCropDecodeResize",
    "RandomResize",
    "RandomResizedCrop",
    "RandomRotation",
    "RandomVerticalFlip",
    "ResizedCrop",
    "SliceMode",
    "SlicePatches",
    "TenCrop",
    "ToPIL",
    "VerticalFlip",
]


def _pad_amounts(padding) -> tuple:
    """int: every side; (x, y): left/right x, top/bottom y; (left, top, right, bottom)."""
    if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
        padding = (padding,)
    padding = tuple(int(p) for p in padding)
    if len(padding) not in (1, 2, 4) or min(padding) < 0:
        raise ValueError(f"Pad: `padding` must be 1, 2 or 4 non-negative ints, got {padding}")
    return padding * 4 if len(padding) == 1 else padding * 2 if len(padding) == 2 else padding


class Pad(TensorOperation):
    """Pad the borders: `padding` (left, top, right, bottom), with `fill_value` (a number or
    one per channel) or by the border `padding_mode`."""

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        self.padding = _pad_amounts(padding)
        if not isinstance(padding_mode, Border):
            raise TypeError(f"Pad: `padding_mode` must be a Border, got {padding_mode!r}")
        self.fill_value, self.padding_mode = fill_value, padding_mode

    def __call__(self, image):
        if isinstance(image, np.ndarray) and image.ndim == 3 and image.shape[2] not in (1, 3):
            raise RuntimeError(f"Pad: the channel of image tensor does not match the "
                               f"requirement of operator. Expecting tensor in channel of (1, "
                               f"3). But got channel {image.shape[2]}.")
        return _pad(image, self.padding, self.fill_value, self.padding_mode)


def _range_pair(value, name: str, op: str) -> tuple[float, float]:
    pair = tuple(float(v) for v in value)
    if len(pair) != 2 or pair[0] > pair[1] or pair[0] < 0:
        raise ValueError(f"{op}: `{name}` must be (min, max) with 0 <= min <= max, got "
                         f"{value!r}")
    return pair


def _crop_scale_ratio(scale, ratio) -> tuple:
    """MindSpore's checks of a random resized crop's `scale` (of the area, 0 <= min <= max,
    max > 0) and `ratio` (of the aspect, 0 < min <= max), as float pairs."""
    type_check(scale, (tuple, list), "scale")
    if len(scale) != 2:
        raise TypeError("scale should be a list/tuple of length 2.")
    type_check_list(scale, (float, int), "scale")
    if scale[0] > scale[1]:
        raise ValueError("scale should be in (min,max) format. Got (max,min).")
    for value in scale:
        check_value(value, (0, FLOAT_MAX_INTEGER))
    check_value(scale[1], (0, FLOAT_MAX_INTEGER), "scale[1]", left_open_interval=True)
    type_check(ratio, (tuple, list), "ratio")
    if len(ratio) != 2:
        raise TypeError("ratio should be a list/tuple of length 2.")
    check_pos_float32(ratio[0], "ratio[0]")
    check_pos_float32(ratio[1], "ratio[1]")
    if ratio[0] > ratio[1]:
        raise ValueError("ratio should be in (min,max) format. Got (max,min).")
    return (float(scale[0]), float(scale[1])), (float(ratio[0]), float(ratio[1]))


def _c_round(value: float) -> float:
    """C's round: halves away from zero."""
    return math.floor(value + 0.5) if value >= 0 else -math.floor(-value + 0.5)


def cpp_crop_box(words, h_in: int, w_in: int, scale, ratio,
                 max_attempts: int) -> tuple[int, int, int, int]:
    """(x, y, height, width) of a random resized crop as MindSpore's C++ GetCropBox draws it
    from the op's `std::mt19937` (`words`): the area fraction and the log aspect from
    uniform_real_distribution<float>, then x and y from uniform_int_distribution; after
    `max_attempts` misses, the central crop of the clamped aspect."""
    f = np.float32
    low_aspect, high_aspect = f(ratio[0]), f(ratio[1])
    log_low, log_high = f(math.log(low_aspect)), f(math.log(high_aspect))
    for _ in range(max_attempts):
        sample_scale = float(_std.uniform_float(words, scale[0], scale[1]))
        aspect = math.exp(float(_std.uniform_float(words, log_low, log_high)))
        limit = (2**31 - 1) // h_in // w_in
        if not limit > sample_scale or not limit / sample_scale > aspect:
            raise RuntimeError("RandomCropAndResizeOp: multiplication out of bounds, check "
                               "image width, image height, sample scale and sample aspect "
                               "first.")
        width = max(int(_c_round(math.sqrt(h_in * w_in * sample_scale * aspect))), 1)
        height = max(int(_c_round(width / aspect)), 1)
        if width <= w_in and height <= h_in:
            x = _std.uniform_int(words, 0, w_in - width)
            y = _std.uniform_int(words, 0, h_in - height)
            return x, y, height, width
    img_aspect = w_in / h_in
    if img_aspect < low_aspect:
        width, height = w_in, int(_c_round(w_in / float(low_aspect)))
    elif img_aspect > high_aspect:
        height, width = h_in, int(_c_round(h_in * float(high_aspect)))
    else:
        width, height = w_in, h_in
    width, height = max(width, 1), max(height, 1)
    x = int(_c_round(float(f(w_in - width) / f(2))))
    y = int(_c_round(float(f(h_in - height) / f(2))))
    return x, y, height, width


class RandomResizedCrop(CppRandomOperation, _RandomOp):
    """A random region of `scale` times the area and aspect ratio in `ratio`, resized to
    `size` (Inception's crop); after `max_attempts` misses, the central crop of the clamped
    ratio. Arrays are cropped where MindSpore's C++ op crops them (`cpp_crop_box`, on the
    dataset seed); Pillow images, which MindSpore crops in Python, from cellgraph's generator."""

    @property
    def python_implementation(self) -> bool:
        return self.resize.python_implementation

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3.0 / 4, 4.0 / 3),
                 interpolation=Inter.BILINEAR, max_attempts=10):
        op = type(self).__name__
        self.size = _size_pair(size, op)
        self.scale, self.ratio = _crop_scale_ratio(scale, ratio)
        self.resize = Resize(self.size, interpolation)
        self.max_attempts = int(max_attempts)

    def region(self, height: int, width: int) -> tuple[int, int, int, int]:
        """(top, left, height, width) of the crop, from cellgraph's generator."""
        area = height * width
        log_ratio = (math.log(self.ratio[0]), math.log(self.ratio[1]))
        for _ in range(self.max_attempts):
            target = area * self.rng.uniform(*self.scale)
            aspect = math.exp(self.rng.uniform(*log_ratio))
            w = round(math.sqrt(target * aspect))
            h = round(math.sqrt(target / aspect))
            if 0 < w <= width and 0 < h <= height:
                return (int(self.rng.integers(height - h + 1)),
                        int(self.rng.integers(width - w + 1)), h, w)
        aspect = width / height
        if aspect < self.ratio[0]:
            w, h = width, round(width / self.ratio[0])
        elif aspect > self.ratio[1]:
            h, w = height, round(height * self.ratio[1])
        else:
            h, w = height, width
        return (height - h) // 2, (width - w) // 2, h, w

    def __call__(self, image):
        height, width = _hw(image)
        if self.python_implementation:
            top, left, h, w = self.region(height, width)
        else:
            left, top, h, w = cpp_crop_box(self.words, height, width, self.scale, self.ratio,
                                           self.max_attempts)
        return self.resize(_crop(image, top, left, h, w))


class RandomCropDecodeResize(RandomResizedCrop):
    """Decode encoded image bytes, then RandomResizedCrop (RGB HWC uint8 out)."""

    def __call__(self, data):
        return super().__call__(Decode()(data))


def _rotation_range(degrees) -> list:
    """MindSpore's RandomRotation range: d gives [-(d % 360), d % 360]; (lo, hi) spanning a
    full turn gives [-180, 180], else both taken mod 360 (hi a turn above lo if it wraps)."""
    type_check(degrees, (int, float, list, tuple), "degrees")  # MindSpore's checks and words
    if isinstance(degrees, (int, float)):
        check_non_negative_float32(degrees, "degrees")
        degrees = degrees % 360
        return [-degrees, degrees]
    if len(degrees) != 2:
        raise TypeError("If degrees is a sequence, the length must be 2.")
    type_check_list(degrees, (int, float), "degrees")
    for value in degrees:
        check_float32(value, "degrees")
    if degrees[0] > degrees[1]:
        raise ValueError("degrees should be in (min,max) format. Got (max,min).")
    if degrees[1] - degrees[0] >= 360:
        return [-180, 180]
    low, high = degrees[0] % 360, degrees[1] % 360
    return [low, high + 360 if low > high else high]


def _check_rotation_options(resample, expand, center, fill_value) -> tuple:
    """MindSpore's checks of Rotate's and RandomRotation's other arguments; the fill as three
    channels."""
    type_check(resample, (Inter,), "resample")
    type_check(expand, (bool,), "expand")
    if center is not None:
        if not (isinstance(center, tuple) and len(center) == 2):
            raise ValueError("Value center needs to be a 2-tuple.")
        for value in center:
            type_check(value, (int, float), "center")
            check_value(value, [-2**31, 2**31 - 1], "center")
    return check_fill_value(fill_value)


class RandomRotation(CppRandomOperation):
    """Turn the image counter-clockwise by an angle drawn from `degrees` ((min, max), or d for
    [-d, d]) about `center` ((x, y), the image centre by default), filling with `fill_value`;
    `expand` grows the output to hold the whole turned image.

    Arrays turn as MindSpore's C++ kernel turns them (an angle mid + u * half_range with u from
    std::uniform_real_distribution<float>(-1, 1) on the dataset seed, then OpenCV's warp);
    Pillow images as its Python transform does (random.uniform over the range, Image.rotate)."""

    @property
    def python_implementation(self) -> bool:
        return self.resample is Inter.ANTIALIAS  # MindSpore runs it on Pillow

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None,
                 fill_value=0):
        self.degrees = _rotation_range(degrees)
        self.fill_value = _check_rotation_options(resample, expand, center, fill_value)
        self.resample, self.expand, self.center = resample, expand, center

    def angle(self) -> np.float32:
        """One draw of the C++ kernel's angle."""
        low, high = np.float32(self.degrees[0]), np.float32(self.degrees[1])
        half_range = (high - low) / np.float32(2)
        mid = (high + low) / np.float32(2)
        return mid + _std.uniform_float(self.words, -1.0, 1.0) * half_range

    def __call__(self, image):
        if _is_pil(image):
            if self.resample in (Inter.AREA, Inter.PILCUBIC):
                raise TypeError("Current Interpolation is not supported with PIL input.")
            angle = random.uniform(self.degrees[0], self.degrees[1])
            return image.rotate(angle, _PIL_FILTERS[self.resample], self.expand, self.center,
                                fillcolor=self.fill_value)
        if self.resample is Inter.ANTIALIAS:
            raise TypeError("Current Interpolation is not supported with NumPy input.")
        from .augment import cv_rotate

        array = np.asarray(image)
        if array.ndim not in (2, 3):
            raise RuntimeError(f"RandomRotation: invalid input shape, expected 2D or 3D input, "
                               f"but got input dimension is:{array.ndim}")
        return cv_rotate(array, self.angle(), self.resample, self.expand, self.center,
                         self.fill_value)


# MindSpore's InterpolationMode 0..3, which RandomResize and RandomResizeWithBBox draw from
DRAWN_INTER = (Inter.LINEAR, Inter.NEAREST, Inter.CUBIC, Inter.AREA)


class RandomResize(CppRandomOperation):
    """Resize to `size` with an interpolation drawn from linear, nearest, cubic and area (as
    MindSpore's C++ op draws it)."""

    def __init__(self, size):
        self.size = Resize(size).size

    def __call__(self, *images):
        """One draw for all the images given (an image and its mask resize alike)."""
        resize = Resize(self.size, DRAWN_INTER[_std.uniform_int(self.words, 0, 3)])
        out = tuple(resize(image) for image in images)
        return out[0] if len(out) == 1 else out


class RandomVerticalFlip(RandomFlip):
    """Mirror top-bottom with probability `prob`."""

    axis = 0
    pil_method = 1  # Image.FLIP_TOP_BOTTOM
    batched = False


def _image_array(image, op: str, batched=False) -> np.ndarray:
    """The image as an array: <H, W> or <H, W, C>, or with `batched` also <..., H, W, C>."""
    array = np.asarray(image)
    if array.ndim < 2 or (array.ndim > 3 and not batched):
        raise RuntimeError(f"{op}: expected an image of shape <H, W> or <H, W, C>, got shape "
                           f"{array.shape}")
    return array


class HorizontalFlip(TensorOperation):
    """Mirror left-right (each image of a batch <..., H, W, C>)."""

    def __call__(self, image):
        if _is_pil(image):
            return image.transpose(0)  # Image.FLIP_LEFT_RIGHT
        array = _image_array(image, "HorizontalFlip", batched=True)
        return np.ascontiguousarray(np.flip(array, _h_axis(array) + 1))


class VerticalFlip(TensorOperation):
    """Mirror top-bottom (each image of a batch <..., H, W, C>)."""

    def __call__(self, image):
        if _is_pil(image):
            return image.transpose(1)  # Image.FLIP_TOP_BOTTOM
        array = _image_array(image, "VerticalFlip", batched=True)
        return np.ascontiguousarray(np.flip(array, _h_axis(array)))


class Crop(TensorOperation):
    """The `size` (an int or (height, width)) region whose top-left corner is `coordinates`
    (top, left); a region that leaves the image is an error."""

    def __init__(self, coordinates, size):
        if not isinstance(coordinates, (tuple, list)) or len(coordinates) != 2:
            raise TypeError(f"Crop: `coordinates` must be a (top, left) pair, got "
                            f"{coordinates!r}")
        for i, value in enumerate(coordinates):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError(f"Crop: coordinates[{i}] must be an int, got {value!r}")
            if not 0 <= value <= 2**31 - 1:
                raise ValueError(f"Input coordinates[{i}] is not within the required interval "
                                 f"of [0, 2147483647].")
        if isinstance(size, (tuple, list)) and len(size) != 2:
            raise TypeError("Size should be a single integer or a list/tuple (h, w) of length 2.")
        self.coordinates = (int(coordinates[0]), int(coordinates[1]))
        self.size = _size_pair(size, "Crop")

    def __call__(self, image):
        (top, left), (height, width) = self.coordinates, self.size
        in_h, in_w = _hw(image) if _is_pil(image) else _image_array(image, "Crop").shape[:2]
        if top + height > in_h or left + width > in_w:
            raise RuntimeError(f"Crop: the region of {height}x{width} at (top, left) = "
                               f"({top}, {left}) leaves the {in_h}x{in_w} image")
        return _crop(image, top, left, height, width)


# the dtypes Pillow takes for a one-channel image (MindSpore's list)
_PIL_ONE_CHANNEL = (np.bool_, np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32,
                    np.float32, np.float64)


def to_pil_image(image):
    """A NumPy image (HW or HWC, at most 4 channels) as a Pillow image, with MindSpore's checks:
    one channel may be of several dtypes, 2 to 4 channels only uint8. A Pillow image is
    returned as it is."""
    if _is_pil(image):
        return image
    if not isinstance(image, np.ndarray):
        raise TypeError(f"The input image should be of type numpy.ndarray or PIL.Image.Image. "
                        f"Got {type(image)}.")
    if image.ndim not in (2, 3):
        raise ValueError(f"The dimension of input image should be 2 or 3. Got {image.ndim}.")
    channels = 1 if image.ndim == 2 else image.shape[2]
    if channels > 4:
        raise ValueError(f"The channel of input image should not exceed 4. Got {channels}.")
    if channels == 1:
        if image.dtype not in _PIL_ONE_CHANNEL:
            raise TypeError(f"The input image type {image.dtype} is not supported when image "
                            f"shape is [H, W] or [H, W, 1].")
        return _pil().fromarray(image if image.ndim == 2 else image[:, :, 0])
    if image.dtype != np.uint8:
        raise TypeError(f"The input image type {image.dtype} is not supported when image shape "
                        f"is [H, W, 2], [H, W, 3] or [H, W, 4].")
    return _pil().fromarray(image)


class ToPIL(TensorOperation):
    """A NumPy HWC (or HW) image -> a Pillow image (see `to_pil_image`)."""

    python_implementation = True  # as MindSpore runs it

    def __call__(self, image):
        return to_pil_image(image)


class SliceMode(Enum):
    """How SlicePatches treats an image that the grid does not divide (MindSpore's values)."""

    PAD = 0
    DROP = 1


class SlicePatches(TensorOperation):
    """An HWC image -> num_height * num_width patches (row by row), as separate outputs; with
    SliceMode.PAD the image is first padded at the bottom and right with `fill_value` to a
    multiple of the grid, with DROP the remainder is cut off."""

    def __init__(self, num_height=1, num_width=1, slice_mode=SliceMode.PAD, fill_value=0):
        for name, value in (("num_height", num_height), ("num_width", num_width)):
            type_check(value, (int,), name)  # MindSpore's checks and words
            check_value(value, (1, 2 ** 31 - 1), name)
        self.grid = (num_height, num_width)
        self.slice_mode = slice_mode
        type_check(slice_mode, (SliceMode,), "slice_mode")
        type_check(fill_value, (int,), "fill_value")
        check_value(fill_value, (0, 255), "fill_value")
        self.fill_value = fill_value

    def __call__(self, image):
        array = np.asarray(image)
        if array.ndim not in (2, 3):
            raise RuntimeError(f"SlicePatches: expected an image <H, W> or <H, W, C>, got shape "
                               f"{array.shape}")
        rows, cols = self.grid
        height, width = array.shape[:2]
        if self.slice_mode is SliceMode.PAD:
            ph, pw = -(-height // rows), -(-width // cols)
            array = _pad(array, (0, 0, pw * cols - width, ph * rows - height),
                         self.fill_value, Border.CONSTANT)
        else:
            ph, pw = height // rows, width // cols
        patches = tuple(array[r * ph:(r + 1) * ph, c * pw:(c + 1) * pw]
                        for r in range(rows) for c in range(cols))
        return patches if len(patches) > 1 else patches[0]


class ResizedCrop(TensorOperation):
    """The region (top, left, height, width) of the image, resized to `size` with
    `interpolation`: Crop((top, left), (height, width)) then Resize(size, interpolation)."""

    def __init__(self, top, left, height, width, size, interpolation=Inter.BILINEAR):
        for name, value, low in (("top", top, 0), ("left", left, 0), ("height", height, 1),
                                 ("width", width, 1)):
            type_check(value, (int,), name)  # MindSpore's checks and words
            check_value(value, (low, 2 ** 31 - 1), name)
        size = _size_pair(size, "ResizedCrop")
        _check_inter(interpolation, "interpolation")
        self.crop = Crop((top, left), (height, width))
        self.resize = Resize(size, interpolation)

    def __call__(self, image):
        return self.resize(self.crop(image))


class TenCrop(TensorOperation):
    """A Pillow image -> FiveCrop's five crops of it, then the five of its mirror image
    (left-right, or top-bottom with `use_vertical_flip`)."""

    python_implementation = True  # as MindSpore runs it

    def __init__(self, size, use_vertical_flip=False):
        self.size = _size_pair(size, "TenCrop")
        type_check(use_vertical_flip, (bool,), "use_vertical_flip")
        self.use_vertical_flip = use_vertical_flip

    def __call__(self, img):
        five = FiveCrop(self.size)
        first = five(img)
        mirrored = img.transpose(1 if self.use_vertical_flip else 0)  # TOP_BOTTOM / LEFT_RIGHT
        return first + five(mirrored)


class FiveCrop(TensorOperation):
    """A Pillow image -> its four corner crops and its center crop, each `size` (an int, or
    (height, width)): (top_left, top_right, bottom_left, bottom_right, center)."""

    python_implementation = True  # as MindSpore runs it

    def __init__(self, size):
        self.size = _size_pair(size, "FiveCrop")

    def __call__(self, image):
        if not _is_pil(image):
            raise TypeError(f"img should be PIL image. Got {type(image)}.")
        width, height = image.size
        crop_h, crop_w = self.size
        if crop_h > height or crop_w > width:
            raise ValueError(f"Crop size {self.size} is larger than input image size "
                             f"{(height, width)}.")
        top, left = round((height - crop_h) / 2.0), round((width - crop_w) / 2.0)
        return (image.crop((0, 0, crop_w, crop_h)),
                image.crop((width - crop_w, 0, width, crop_h)),
                image.crop((0, height - crop_h, crop_w, height)),
                image.crop((width - crop_w, height - crop_h, width, height)),
                image.crop((left, top, left + crop_w, top + crop_h)))
