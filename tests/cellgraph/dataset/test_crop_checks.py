"""The crops' and Resize's argument checks, and RandomCrop on several images and on images
with other channel counts, with MindSpore 2.10's errors (recorded from it)."""
import numpy as np
import pytest

from cellgraph.dataset import vision as v

SIZE_ERRORS = [
    ([512, 512, 375], TypeError, (r"Size should be a single integer or a list/tuple \(h, w\) of "
                                 r"length 2.")),
    (0, ValueError, r"Input is not within the required interval of \[1, 16777216\]."),
    ((1.5, 2), TypeError, r"Argument size\[0\] with value 1.5 is not of type \[<class 'int'>\]"),
]


@pytest.mark.parametrize("make", [v.CenterCrop, v.FiveCrop, v.RandomResizedCrop, v.RandomCrop,
                                  lambda size: v.Crop((0, 0), size)])
@pytest.mark.parametrize("size, error, message", SIZE_ERRORS)
def test_crop_size(make, size, error, message):
    with pytest.raises(error, match=message):
        make(size)


@pytest.mark.parametrize("size, error, message", [
    ((1.5, 2), TypeError, "Argument size at dim 0 with value 1.5 is not of type"),
    ((0, 5), ValueError, (r"Input size at dim 0 is not within the required interval of "
                         r"\[1, 2147483647\].")),
    ([5], TypeError, "Size should be a single integer"),
    (0, ValueError, r"Input is not within the required interval of \[1, 16777216\]."),
])
def test_resize_size(size, error, message):
    with pytest.raises(error, match=message):
        v.Resize(size)


@pytest.mark.parametrize("kw, error, message", [
    ({"scale": (0.5, -1)}, ValueError, r"scale should be in \(min,max\) format. Got \(max,min\)."),
    ({"scale": (-1, 0.5)}, ValueError, (r"Input is not within the required interval of "
                                       r"\[0, 16777216\].")),
    ({"scale": (0.5,)}, TypeError, "scale should be a list/tuple of length 2."),
    ({"scale": 3}, TypeError, "Argument scale with value 3 is not of type"),
    ({"ratio": (0, 1)}, ValueError, (r"Input ratio\[0\] is not within the required interval of "
                                    r"\(0, 16777216\].")),
    ({"ratio": (0.5, -1)}, ValueError, r"Input ratio\[1\] is not within the required interval"),
    ({"ratio": (2, 1)}, ValueError, r"ratio should be in \(min,max\) format. Got \(max,min\)."),
    ({"ratio": ("a", 1)}, TypeError, r"Argument ratio\[0\] with value a is not of type"),
])
@pytest.mark.parametrize("cls", [v.RandomResizedCrop, v.RandomCropDecodeResize])
def test_scale_and_ratio(cls, kw, error, message):
    with pytest.raises(error, match=message):
        cls(5, **kw)


def test_random_crop_images_and_channels():
    x = np.arange(600 * 3).reshape(20, 30, 3).astype(np.uint8)
    a, b = v.RandomCrop(10)(x, x.copy())
    assert a.shape == (10, 10, 3) and (a == b).all()
    assert v.RandomCrop(10)(np.zeros((20, 30), np.uint8)).shape == (10, 10)
    assert v.RandomCrop(10)(np.zeros((20, 30, 1), np.uint8)).shape == (10, 10, 1)
    with pytest.raises(RuntimeError, match=r"Pad: the channel of image tensor does not match the "
                                           r"requirement of operator. Expecting tensor in channel "
                                           r"of \(1, 3\). But got channel 4."):
        v.RandomCrop(10)(np.zeros((20, 30, 4), np.uint8))
    with pytest.raises(RuntimeError, match="Input images in different column must have the same "
                                           "shape"):
        v.RandomCrop(10)(x, np.zeros((5, 5, 3), np.uint8))
