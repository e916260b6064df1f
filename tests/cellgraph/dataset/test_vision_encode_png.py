import io
import struct
import zlib

import numpy as np
import pytest

from cellgraph.dataset import vision


def _decode(data: np.ndarray) -> np.ndarray:
    raw = data.tobytes()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(raw):
        (length,) = struct.unpack(">I", raw[pos:pos + 4])
        kind, body = raw[pos + 4:pos + 8], raw[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", raw[pos + 8 + length:pos + 12 + length])
        assert crc == zlib.crc32(kind + body) & 0xFFFFFFFF
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color = header[:4]
    channels = {0: 1, 2: 3}[color]
    rows = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, 1 + width * channels)
    assert depth == 8 and not rows[:, 0].any()
    return rows[:, 1:].reshape(height, width, channels)


@pytest.mark.parametrize("shape", [(2, 4, 3), (5, 3), (3, 2, 1)])
def test_encode_png_round_trip(shape):
    image = np.arange(np.prod(shape), dtype=np.uint8).reshape(shape)
    data = vision.encode_png(image)
    assert data.dtype == np.uint8 and data.ndim == 1
    if shape == (2, 4, 3):
        # signature and IHDR chunk of MindSpore 2.10's encode_png of this image
        assert data[:33].tolist() == [137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72,
                                      68, 82, 0, 0, 0, 4, 0, 0, 0, 2, 8, 2, 0, 0, 0, 240,
                                      202, 234, 52]
    np.testing.assert_array_equal(_decode(data).reshape(shape), image)


def test_encode_png_pillow_decodes():
    image_mod = pytest.importorskip("PIL.Image")
    image = np.random.default_rng(0).integers(0, 256, (7, 9, 3), dtype=np.uint8)
    data = vision.encode_png(image, 0)
    np.testing.assert_array_equal(np.asarray(image_mod.open(io.BytesIO(data.tobytes()))), image)


def test_encode_png_errors():
    with pytest.raises(TypeError, match="compression_level"):
        vision.encode_png(np.zeros((2, 2), np.uint8), 6.0)
    with pytest.raises(TypeError, match="Input image is not of type"):
        vision.encode_png([[1]])
    with pytest.raises(RuntimeError, match="should be UINT8, but got float32"):
        vision.encode_png(np.zeros((2, 2), np.float32))
    # messages are MindSpore 2.10's
    with pytest.raises(RuntimeError, match="It should have 1 or 3 channels, but got 2 channels"):
        vision.encode_png(np.zeros((2, 2, 2), np.uint8))
    with pytest.raises(RuntimeError, match="two or three dimensions, but got 4 dimensions"):
        vision.encode_png(np.zeros((2, 2, 1, 1), np.uint8))
    with pytest.raises(RuntimeError, match=r"compression_level 10, should be in range of \[0, 9\]"):
        vision.encode_png(np.zeros((2, 2, 3), np.uint8), 10)


def test_write_png(tmp_path):
    image = np.arange(30, dtype=np.uint8).reshape(5, 2, 3)
    path = str(tmp_path / "a.png")
    vision.write_png(path, image, 9)
    np.testing.assert_array_equal(_decode(vision.read_file(path)), image)
    with pytest.raises(TypeError, match="filename"):
        vision.write_png(1, image)
    with pytest.raises(RuntimeError, match="not a regular file"):
        vision.write_png(str(tmp_path), image)
    with pytest.raises(TypeError, match="The input image is not of type"):
        vision.write_png(path, "x")
