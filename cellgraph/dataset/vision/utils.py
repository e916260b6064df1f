"""`mindspore.dataset.vision.utils`: the vision enums and the image queries
(`get_image_size`, `get_image_num_channels`) on NumPy arrays and Pillow images."""
from __future__ import annotations

import os
import struct
import zlib
from enum import IntEnum

import numpy as np

from cellgraph.safe_io import write_bytes

from .auto_augment import AutoAugmentPolicy
from .geometry import SliceMode
from .mix import ImageBatchFormat
from .transforms import Border, Inter, _is_pil, _pil

__all__ = ["AutoAugmentPolicy", "Border", "ImageBatchFormat", "ImageReadMode", "Inter", "SliceMode", "encode_jpeg",
           "encode_png", "get_image_num_channels", "get_image_size", "read_file", "read_image",
           "read_video", "read_video_timestamps", "write_file", "write_jpeg", "write_png"]


def _not_an_image(image) -> TypeError:
    return TypeError(f"Input image is not of type {np.ndarray} or <class 'PIL.Image.Image'>, "
                     f"but got: {type(image)}.")


def _array_shape(image: np.ndarray, op: str) -> tuple:
    if image.ndim < 2:
        raise RuntimeError(f"{op}: invalid parameter, image should have at least two "
                           f"dimensions, but got: {image.ndim}")
    return image.shape


def get_image_size(image) -> list[int]:
    """[height, width] of an image: an array <H, W> or <..., H, W, C>, or a Pillow image."""
    if isinstance(image, np.ndarray):
        shape = _array_shape(image, "GetImageSize")
        return list(shape) if len(shape) == 2 else [shape[-3], shape[-2]]
    if _is_pil(image):
        width, height = image.size
        return [height, width]
    raise _not_an_image(image)


def get_image_num_channels(image) -> int:
    """Channels of an image: 1 for an array <H, W>, else its last dimension; a Pillow image's
    band count."""
    if isinstance(image, np.ndarray):
        shape = _array_shape(image, "GetImageNumChannels")
        return 1 if len(shape) == 2 else shape[-1]
    if _is_pil(image):
        return len(image.getbands())
    raise _not_an_image(image)


def _tensor_type():
    from cellgraph.runtime.tensor import Tensor

    return Tensor


def _check_filename(filename) -> None:
    if not isinstance(filename, str):
        raise TypeError(f"Input filename is not of type {str}, but got: {type(filename)}.")


def read_file(filename) -> np.ndarray:
    """The bytes of a file, as a 1-D uint8 array."""
    _check_filename(filename)
    if not os.path.exists(filename):
        raise RuntimeError(f"ReadFile: Invalid file path, {filename} does not exist.")
    if not os.path.isfile(filename):
        raise RuntimeError(f"ReadFile: Invalid file path, {filename} is not a regular file.")
    return np.fromfile(filename, dtype=np.uint8)


def write_file(filename, data) -> None:
    """Write a 1-D uint8 array (or Tensor) to `filename` as raw bytes."""
    _check_filename(filename)
    tensor = _tensor_type()
    if not isinstance(data, (np.ndarray, tensor)):
        raise TypeError(f"Input data is not of type {np.ndarray} or {tensor}, but got: "
                        f"{type(data)}.")
    array = data.asnumpy() if isinstance(data, tensor) else data
    if os.path.isdir(filename):
        raise RuntimeError(f"WriteFile: Invalid file path, {filename} is not a regular file.")
    if not os.path.isdir(os.path.dirname(os.path.abspath(filename))):
        raise RuntimeError(f"WriteFile: No such file or directory: {filename}")
    if array.dtype != np.uint8:
        raise RuntimeError(f"WriteFile: The type of the elements of data should be UINT8, but "
                           f"got {array.dtype}.")
    if array.ndim != 1:
        raise RuntimeError(f"WriteFile: The data has invalid dimensions. It should have only one "
                           f"dimension, but got {array.ndim} dimensions.")
    write_bytes(filename, array.tobytes())



def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return (struct.pack(">I", len(body)) + kind + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))


def _encodable(image, op: str) -> np.ndarray:
    """A uint8 image <H, W>, <H, W, 1> or <H, W, 3> to encode, checked as MindSpore checks it
    (EncodeJpeg, EncodePng, WriteJpeg, WritePng)."""
    tensor = _tensor_type()
    if isinstance(image, tensor):
        image = image.asnumpy()
    elif not isinstance(image, np.ndarray):
        raise TypeError(f"{'The input' if op == 'WritePng' else 'Input'} image is not of type "
                        f"{np.ndarray} or {tensor}, but got: {type(image)}.")
    if image.dtype != np.uint8:
        what = "elements of image" if op.startswith("Write") else "image data"
        raise RuntimeError(f"{op}: The type of the {what} should be UINT8, but got "
                           f"{image.dtype}.")
    if image.ndim not in (2, 3):
        raise RuntimeError(f"{op}: The image has invalid dimensions. It should have two or three "
                           f"dimensions, but got {image.ndim} dimensions.")
    if image.ndim == 3 and image.shape[2] not in (1, 3):
        raise RuntimeError(f"{op}: The image has invalid channels. It should have 1 or 3 "
                           f"channels, but got {image.shape[2]} channels.")
    return image


def _check_writable(filename: str, op: str) -> None:
    if os.path.isdir(filename):
        raise RuntimeError(f"{op}: Invalid file path, {filename} is not a regular file.")
    if not os.path.isdir(os.path.dirname(os.path.abspath(filename))):
        raise RuntimeError(f"{op}: No such file or directory: {filename}")


def _encode_png_bytes(image: np.ndarray, compression_level, op: str) -> bytes:
    if not 0 <= compression_level <= 9:
        raise RuntimeError(f"{op}: Invalid compression_level {compression_level}, should be in "
                           f"range of [0, 9].")
    height, width = image.shape[:2]
    channels = 1 if image.ndim == 2 else image.shape[2]
    rows = np.ascontiguousarray(image).reshape(height, width * channels)
    # every scanline is written with filter type 0 (None)
    raw = np.concatenate([np.zeros((height, 1), np.uint8), rows], axis=1).tobytes()
    header = struct.pack(">IIBBBBB", width, height, 8, 0 if channels == 1 else 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(raw, compression_level))
            + _png_chunk(b"IEND", b""))


def _check_compression_level(compression_level) -> None:
    if not isinstance(compression_level, int):
        raise TypeError(f"Input compression_level is not of type {int}, but got: "
                        f"{type(compression_level)}.")


def encode_png(image, compression_level=6) -> np.ndarray:
    """Encode a uint8 image <H, W>, <H, W, 1> or <H, W, 3> as PNG: 1-D uint8 data."""
    _check_compression_level(compression_level)
    array = _encodable(image, "EncodePng")
    return np.frombuffer(_encode_png_bytes(array, compression_level, "EncodePng"),
                         dtype=np.uint8).copy()


def write_png(filename, image, compression_level=6) -> None:
    """Encode `image` as PNG (see encode_png) and write it to `filename`."""
    _check_filename(filename)
    _check_compression_level(compression_level)
    array = _encodable(image, "WritePng")
    _check_writable(filename, "WritePng")
    write_bytes(filename, _encode_png_bytes(array, compression_level, "WritePng"))


def _check_quality(quality) -> None:
    if not isinstance(quality, int):
        raise TypeError(f"Input quality is not of type {int}, but got: {type(quality)}.")


def _encode_jpeg_bytes(image: np.ndarray, quality: int, op: str) -> bytes:
    """Baseline JPEG (not progressive, default Huffman tables, no restart markers) through
    Pillow's libjpeg, which writes the bytes OpenCV's imencode does for MindSpore."""
    if not 1 <= quality <= 100:
        raise RuntimeError(f"{op}: Invalid quality {quality}, should be in range of [1, 100].")
    import io

    pixels = image[..., 0] if image.ndim == 3 and image.shape[2] == 1 else image
    buffer = io.BytesIO()
    _pil().fromarray(np.ascontiguousarray(pixels)).save(buffer, "JPEG", quality=quality,
                                                        optimize=False, progressive=False)
    return buffer.getvalue()


def encode_jpeg(image, quality=75) -> np.ndarray:
    """Encode a uint8 image <H, W>, <H, W, 1> or <H, W, 3> (RGB) as JPEG: 1-D uint8 data.
    Needs Pillow."""
    _check_quality(quality)
    array = _encodable(image, "EncodeJpeg")
    return np.frombuffer(_encode_jpeg_bytes(array, quality, "EncodeJpeg"), dtype=np.uint8).copy()


def write_jpeg(filename, image, quality=75) -> None:
    """Encode `image` as JPEG (see encode_jpeg) and write it to `filename`."""
    _check_filename(filename)
    _check_quality(quality)
    array = _encodable(image, "WriteJpeg")
    data = _encode_jpeg_bytes(array, quality, "WriteJpeg")
    _check_writable(filename, "WriteJpeg")
    write_bytes(filename, data)
    os.chmod(filename, 0o600)  # MindSpore leaves the file readable by its owner only

# MindSpore's vision.utils also holds the video readers
from .video import read_video, read_video_timestamps


class ImageReadMode(IntEnum):
    """How read_image decodes: as stored (UNCHANGED), to one grey channel (GRAYSCALE) or to
    three RGB channels (COLOR)."""

    UNCHANGED = 0
    GRAYSCALE = 1
    COLOR = 2


_ONE_CHANNEL_MODES = ("1", "L", "I;16", "I;16B", "I;16L")
_READ_IMAGE_FORMATS = ("JPEG", "MPO", "PNG", "BMP", "TIFF")


def read_image(filename, mode=ImageReadMode.UNCHANGED) -> np.ndarray:
    """Decode an image file (JPEG, PNG, BMP, TIFF) to an H x W x C array: one channel for a
    grey image or GRAYSCALE, else RGB (an alpha channel dropped). As OpenCV's imread (which
    MindSpore uses), GRAYSCALE and COLOR turn the image upright by its EXIF orientation and a
    JPEG is decoded straight to grey by libjpeg, a PNG greyed as libpng does and others as
    cvtColor does (a PNG with a gamma chunk, which libpng greys gamma-corrected, is greyed
    without it here). Needs Pillow."""
    _check_filename(filename)
    if not isinstance(mode, ImageReadMode):
        raise TypeError(f"Input mode is not of type {ImageReadMode}, but got: {type(mode)}.")
    if not os.path.exists(filename):
        raise RuntimeError(f"ReadImage: Invalid file path, {filename} does not exist.")
    if not os.path.isfile(filename):
        raise RuntimeError(f"ReadImage: Invalid file path, {filename} is not a regular file.")
    image_module = _pil()
    try:
        image = image_module.open(filename)
        if mode == ImageReadMode.GRAYSCALE and image.format == "JPEG":
            image.draft("L", image.size)
        if image.format not in _READ_IMAGE_FORMATS:
            raise OSError(image.format)
        image.load()
    except OSError:
        raise RuntimeError(f"ReadImage: Failed to read file {filename}") from None
    file_format = image.format
    if mode != ImageReadMode.UNCHANGED:
        from PIL import ImageOps

        image = ImageOps.exif_transpose(image)
    if mode == ImageReadMode.GRAYSCALE:
        if image.mode not in _ONE_CHANNEL_MODES:
            rgb = np.asarray(image.convert("RGB"), dtype=np.int64)
            red, green, blue = rgb[..., 0], rgb[..., 1], rgb[..., 2]
            if file_format == "PNG":  # libpng's rgb_to_gray: 15-bit weights, truncated
                grey = (red * 9797 + green * 19234 + blue * 3737) >> 15
            else:  # OpenCV's cvtColor: 14-bit weights, rounded
                grey = (red * 4899 + green * 9617 + blue * 1868 + 8192) >> 14
            return grey.astype(np.uint8)[..., None]
        return np.asarray(image.convert("L"))[..., None]
    if mode == ImageReadMode.UNCHANGED and image.mode in _ONE_CHANNEL_MODES:
        array = np.asarray(image)
        if image.mode == "1":
            array = array.astype(np.uint8) * 255
        return array[..., None]
    return np.asarray(image.convert("RGB"))
