"""vision.read_image and ImageReadMode: MindSpore 2.10's arrays for the same files."""
import numpy as np
import pytest

from cellgraph.dataset import vision
from cellgraph.dataset.vision import ImageReadMode

Image = pytest.importorskip("PIL.Image")

PIXELS = (np.arange(24) * 37 % 256).astype(np.uint8).reshape(2, 3, 4)
RGB = [0, 37, 74, 148, 185, 222, 40, 77, 114, 188, 225, 6, 80, 117, 154, 228, 9, 46]


@pytest.fixture()
def files(tmp_path):
    Image.fromarray(PIXELS, "RGBA").save(tmp_path / "s.png")
    Image.fromarray(PIXELS[..., :3].copy(), "RGB").save(tmp_path / "s.bmp")
    Image.fromarray(PIXELS[..., 0].copy(), "L").save(tmp_path / "g.png")
    return tmp_path


# MindSpore 2.10's outputs: (shape, flattened values)
EXPECTED = {
    ("s.png", ImageReadMode.UNCHANGED): ((2, 3, 3), RGB),  # the alpha channel dropped
    ("s.png", ImageReadMode.GRAYSCALE): ((2, 3, 1), [30, 178, 70, 188, 110, 78]),  # libpng's grey
    ("s.png", ImageReadMode.COLOR): ((2, 3, 3), RGB),
    ("s.bmp", ImageReadMode.UNCHANGED): ((2, 3, 3), RGB),
    ("s.bmp", ImageReadMode.GRAYSCALE): ((2, 3, 1), [30, 178, 70, 189, 110, 79]),  # cvtColor's
    ("s.bmp", ImageReadMode.COLOR): ((2, 3, 3), RGB),
    ("g.png", ImageReadMode.UNCHANGED): ((2, 3, 1), [0, 148, 40, 188, 80, 228]),
    ("g.png", ImageReadMode.GRAYSCALE): ((2, 3, 1), [0, 148, 40, 188, 80, 228]),
    ("g.png", ImageReadMode.COLOR): ((2, 3, 3), [v for v in [0, 148, 40, 188, 80, 228]
                                                 for _ in range(3)]),
}


@pytest.mark.parametrize(("name", "mode"), list(EXPECTED))
def test_read_image_matches_mindspore(files, name, mode):
    out = vision.read_image(str(files / name), mode)
    shape, values = EXPECTED[(name, mode)]
    assert out.dtype == np.uint8 and out.shape == shape
    assert out.reshape(-1).tolist() == values


def test_default_mode_is_unchanged(files):
    assert vision.read_image(str(files / "g.png")).shape == (2, 3, 1)


def test_read_image_mode_values():
    assert [(m.name, m.value) for m in ImageReadMode] == [
        ("UNCHANGED", 0), ("GRAYSCALE", 1), ("COLOR", 2)]


def test_read_image_errors(files):
    with pytest.raises(TypeError, match="Input filename is not of type"):
        vision.read_image(1)
    with pytest.raises(TypeError, match="Input mode is not of type"):
        vision.read_image(str(files / "s.png"), 1)
    with pytest.raises(RuntimeError, match="does not exist"):
        vision.read_image(str(files / "none.png"))
    with pytest.raises(RuntimeError, match="is not a regular file"):
        vision.read_image(str(files))
    (files / "x.png").write_bytes(b"not an image")
    with pytest.raises(RuntimeError, match="ReadImage: Failed to read file"):
        vision.read_image(str(files / "x.png"))
    Image.fromarray(PIXELS[..., :3].copy(), "RGB").save(files / "s.gif")
    with pytest.raises(RuntimeError, match="ReadImage: Failed to read file"):  # not a format it reads
        vision.read_image(str(files / "s.gif"))
