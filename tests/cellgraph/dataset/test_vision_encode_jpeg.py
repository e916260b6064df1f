"""encode_jpeg and write_jpeg: MindSpore 2.10's bytes (recorded as SHA-256 digests of its output
for one image) and its checks."""
import hashlib
import os

import numpy as np
import pytest

from cellgraph import Tensor
from cellgraph.dataset import vision

IMAGE = ((np.arange(20 * 30 * 3).reshape(20, 30, 3) * 7) % 256).astype(np.uint8)
# (pixels, quality) -> (length, sha256) of MindSpore 2.10's encode_jpeg
ENCODED = {
    ("rgb", 75): (1047, "82b4de9490f01e380029cdf5548af46b4fe34f574047606253a3df50f34dc2c9"),
    ("rgb", 5): (730, "26b40bf86cdcf43d408d27ad2009b495b71c71f2c3e300de5ae1ea307bea16e1"),
    ("grey", 90): (893, "7437a97dae12617b323126925d389e2022d24011075fce7286b5889959e6204f"),
    ("grey1", 100): (1485, "a31dac4910dcab2e23628b4337d9171e489563d8bd3759634d8c6172716fcd63"),
}
PIXELS = {"rgb": IMAGE, "grey": IMAGE[..., 1].copy(), "grey1": IMAGE[..., 1:2].copy()}


@pytest.mark.parametrize("pixels, quality", sorted(ENCODED))
def test_encoded_bytes_are_mindspores(pixels, quality):
    pytest.importorskip("PIL")
    data = vision.encode_jpeg(PIXELS[pixels], quality)
    assert data.dtype == np.uint8 and data.ndim == 1
    assert (len(data), hashlib.sha256(data.tobytes()).hexdigest()) == ENCODED[pixels, quality]


def test_encoded_jpeg_decodes_close_to_the_image():
    pytest.importorskip("PIL")
    cols, rows = np.meshgrid(np.arange(30) * 8, np.arange(20) * 12)
    smooth = np.stack([cols, rows, np.full((20, 30), 90)], axis=2).astype(np.uint8)
    decoded = vision.Decode()(vision.encode_jpeg(Tensor(smooth), 100))
    assert decoded.shape == smooth.shape
    error = np.abs(decoded.astype(int) - smooth)
    assert error.max() <= 8 and error.mean() < 3  # chroma is subsampled 2x2


def test_write_jpeg_writes_the_encoded_bytes(tmp_path):
    pytest.importorskip("PIL")
    path = str(tmp_path / "out.jpg")
    vision.write_jpeg(path, IMAGE, 60)
    with open(path, "rb") as f:
        written = f.read()
    assert (len(written), hashlib.sha256(written).hexdigest()) == (
        951, "ceb63c495aac6062bc06623477c627c6b2062eaa4a3a39341d4193841910c96f")
    assert np.array_equal(vision.read_file(path), vision.encode_jpeg(IMAGE, 60))
    assert os.stat(path).st_mode & 0o777 == 0o600  # as MindSpore leaves it


ERRORS = [  # MindSpore 2.10's types and words
    ("encode_jpeg(IMAGE.astype(np.float32))", RuntimeError,
     "EncodeJpeg: The type of the image data should be UINT8, but got float32."),
    ("encode_jpeg(IMAGE[0, 0])", RuntimeError,
     ("EncodeJpeg: The image has invalid dimensions. It should have two or three dimensions, "
     "but got 1 dimensions.")),
    ("encode_jpeg(np.zeros((2, 3, 2), np.uint8))", RuntimeError,
     ("EncodeJpeg: The image has invalid channels. It should have 1 or 3 channels, but got 2 "
     "channels.")),
    ("encode_jpeg(IMAGE, 0)", RuntimeError,
     "EncodeJpeg: Invalid quality 0, should be in range of [1, 100]."),
    ("encode_jpeg(IMAGE, 75.0)", TypeError,
     "Input quality is not of type <class 'int'>, but got: <class 'float'>."),
    ("write_jpeg(0, IMAGE)", TypeError,
     "Input filename is not of type <class 'str'>, but got: <class 'int'>."),
    ("write_jpeg('x.jpg', IMAGE.astype(np.float64))", RuntimeError,
     "WriteJpeg: The type of the elements of image should be UINT8, but got float64."),
    ("write_jpeg('x.jpg', IMAGE, 101)", RuntimeError,
     "WriteJpeg: Invalid quality 101, should be in range of [1, 100]."),
]


@pytest.mark.parametrize("spelled, error, message", ERRORS)
def test_arguments_are_checked_with_mindspores_words(spelled, error, message):
    pytest.importorskip("PIL")
    with pytest.raises(error) as info:
        eval("vision." + spelled)
    assert str(info.value) == message


def test_image_type_and_path_errors(tmp_path):
    pytest.importorskip("PIL")
    with pytest.raises(TypeError, match="Input image is not of type <class 'numpy.ndarray'>"):
        vision.encode_jpeg(1)
    with pytest.raises(RuntimeError, match="is not a regular file"):
        vision.write_jpeg(str(tmp_path), IMAGE)
    with pytest.raises(RuntimeError, match="No such file or directory"):
        vision.write_jpeg(str(tmp_path / "missing" / "x.jpg"), IMAGE)
