"""vision.NormalizePad: MindSpore 2.10's values, layout and errors for the same inputs."""
import numpy as np
import pytest

from cellgraph.dataset import vision

_IMAGE = (np.arange(18).reshape(2, 3, 3) * 14).astype(np.uint8)


def test_normalize_pad_gives_mindspores_values_and_layout():
    """MindSpore 2.10's NormalizePad outputs for the same image: the normalized values end to
    end, then a zero plane, read in the output's shape."""
    hwc = vision.NormalizePad([121.0, 115.0, 100.0], [70.0, 68.0, 71.0])(_IMAGE)
    assert hwc.dtype == np.float32 and hwc.shape == (2, 3, 4)
    np.testing.assert_allclose(hwc[0, 0], [-1.72857, -1.48529, -1.01408, -1.12857], atol=1e-5)
    np.testing.assert_allclose(hwc[1, 1], [1.60294, 1.94366, 0.0, 0.0], atol=1e-5)
    assert not hwc[1, 2].any()
    chw = vision.NormalizePad([1, 2, 3], [4, 5, 6], "float16", False)(_IMAGE.transpose(2, 0, 1))
    assert chw.dtype == np.float16 and chw.shape == (4, 2, 3)
    assert chw[0].tolist() == [[-0.25, 10.25, 20.75], [31.25, 41.75, 52.25]]
    assert chw[1, 0].tolist() == [2.400390625, 10.796875, 19.203125] and not chw[3].any()
    gray = vision.NormalizePad([10.0], [2.0])(_IMAGE[:, :, 0])
    assert gray.tolist() == [[[-5.0, 16.0], [37.0, 58.0], [79.0, 100.0]],
                             [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]]


@pytest.mark.parametrize("args, error, text", [
    (([100, 250, 125], [50, 50, 75, 75]), ValueError, "Length of mean and std must be equal."),
    (([100, 250, 125], [50, 50, 75], 1), TypeError, "dtype should be string."),
    (([100, 250, 125], [50, 50, 75], ""), ValueError, "dtype only supports float32 or float16."),
    (([0.75, 1.25, 0.5], [0.1, 0.18, "0.22"]), TypeError, "Argument std[2] with value 0.22"),
    (([300, 1, 1], [1, 1, 1]), ValueError, ("Input mean[0] is not within the required interval "
                                           "of [0, 255].")),
    (([1, 1, 1], [0, 1, 1]), ValueError, ("Input std[0] is not within the required interval of "
                                         "(0, 255].")),
])
def test_normalize_pad_argument_errors(args, error, text):
    with pytest.raises(error) as info:
        vision.NormalizePad(*args)
    assert text in str(info.value)


def test_normalize_pad_image_errors():
    op = vision.NormalizePad([1.0, 2.0, 3.0], [1.0, 1.0, 1.0])
    with pytest.raises(RuntimeError, match="not in shape of <H,W> or <H,W,C>, but got rank: 4"):
        op(np.zeros((4, 4, 3, 3), np.uint8))
    with pytest.raises(RuntimeError, match="got channels: 4, size of mean: 3"):
        op(np.zeros((3, 4, 4), np.float32))


def test_normalize_as_mindspore_computes_it():
    """Values recorded from MindSpore 2.10's Normalize (float32: (x - mean) / std)."""
    rng = np.random.default_rng(0)
    image = rng.integers(0, 256, (4, 5, 3)).astype(np.uint8)
    out = vision.Normalize([121.0, 115.0, 100.0], [70.0, 68.0, 71.0])(image)
    assert out.dtype == np.float32
    assert out.ravel()[:4].tolist() == [1.3714286088943481, 0.7058823704719543,
                                        0.4225352108478546, -0.7428571581840515]
    chw = vision.Normalize([1.0, 2.0, 3.0], [3.0, 7.0, 9.0], False)(image.transpose(2, 0, 1))
    assert chw.ravel()[:4].tolist() == [72.0, 22.66666603088379, 6.0, 69.0]
    # more than 3 dimensions: a batch of images in the last 3
    batch = vision.Normalize([0.5, 0.1], [0.3, 0.7])(rng.random((2, 3, 4, 5, 2)))
    assert batch.shape == (2, 3, 4, 5, 2)
    assert batch.ravel()[:4].tolist() == [0.6281558275222778, 0.4127448797225952,
                                          -1.216344952583313, 0.8878405094146729]
    with pytest.raises(RuntimeError, match="should have at least 2 dimensions, but got: 1"):
        vision.Normalize([1.0], [1.0])(np.zeros(3))
    with pytest.raises(ValueError, match=r"Input std\[0\] is not within the required interval "
                                         r"of \(0, 255\]"):
        vision.Normalize([1.0, 2.0, 3.0], [0.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="Length of mean and std must be equal."):
        vision.Normalize([1.0], [1.0, 2.0])


@pytest.mark.parametrize("shape", [(2, 2, 1), (2, 2)])
def test_pad_of_one_channel_takes_the_first_fill_value(shape):
    """As MindSpore 2.10 (OpenCV's border): a grayscale image padded with (20, 30, 40) gets 20."""
    out = vision.Pad(1, fill_value=(20, 30, 40))(np.full(shape, 5, np.uint8))
    assert out.shape[:2] == (4, 4)
    assert out.reshape(-1)[:8].tolist() == [20, 20, 20, 20, 20, 5, 5, 20]


def test_pad_refuses_images_of_other_channel_counts():
    with pytest.raises(RuntimeError, match=r"Expecting tensor in channel of \(1, 3\). But got "
                                           r"channel 4"):
        vision.Pad(1)(np.zeros((2, 2, 4), np.uint8))
