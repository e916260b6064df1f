"""vision.ToPIL's checks and conversions, as MindSpore 2.10's (its messages and Pillow modes)."""
import numpy as np
import pytest

from cellgraph.dataset import vision

pytest.importorskip("PIL")


@pytest.mark.parametrize("image, error, message", [
    (list(np.zeros((2, 2, 3), np.uint8)), TypeError,
     "The input image should be of type numpy.ndarray or PIL.Image.Image. Got <class 'list'>."),
    (np.zeros((2, 2, 4, 3), np.uint8), ValueError,
     "The dimension of input image should be 2 or 3. Got 4."),
    (np.zeros((2, 2, 5), np.uint8), ValueError,
     "The channel of input image should not exceed 4. Got 5."),
    (np.zeros((2, 2, 3), np.int16), TypeError,
     ("The input image type int16 is not supported when image shape is [H, W, 2], [H, W, 3] or "
      "[H, W, 4].")),
    (np.zeros((2, 2), np.int64), TypeError,
     "The input image type int64 is not supported when image shape is [H, W] or [H, W, 1]."),
    (np.zeros((2, 2, 1), np.float16), TypeError,
     "The input image type float16 is not supported when image shape is [H, W] or [H, W, 1]."),
])
def test_to_pil_rejects(image, error, message):
    with pytest.raises(error) as info:
        vision.ToPIL()(image)
    assert str(info.value) == message


@pytest.mark.parametrize("image, mode, dtype, shape", [
    (np.zeros((2, 3), np.int16), "I", np.int32, (2, 3)),
    (np.ones((2, 3, 1), np.float64), "F", np.float32, (2, 3)),
    (np.ones((2, 3), np.bool_), "1", np.bool_, (2, 3)),
    (np.full((2, 3, 4), 7, np.uint8), "RGBA", np.uint8, (2, 3, 4)),
    (np.full((3, 2, 2), 7, np.uint8), "LA", np.uint8, (3, 2, 2)),
])
def test_to_pil_modes(image, mode, dtype, shape):
    # MindSpore 2.10's modes and round-tripped arrays
    out = vision.ToPIL()(image)
    assert out.mode == mode
    back = np.asarray(out)
    assert back.dtype == dtype and back.shape == shape
    assert vision.ToPIL()(out) is out
