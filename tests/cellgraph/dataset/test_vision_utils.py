"""vision.utils.get_image_size / get_image_num_channels: MindSpore 2.10's answers for the same
inputs."""
import numpy as np
import pytest

from cellgraph.dataset import vision
from cellgraph.dataset.vision import utils


@pytest.mark.parametrize("shape, size, channels", [
    ((3, 4), [3, 4], 1), ((3, 4, 2), [3, 4], 2), ((2, 3, 4, 5), [3, 4], 5)])
def test_arrays(shape, size, channels):
    image = np.zeros(shape, np.uint8)
    assert utils.get_image_size(image) == size
    assert utils.get_image_num_channels(image) == channels
    assert vision.get_image_size is utils.get_image_size


def test_pillow_images():
    image_module = pytest.importorskip("PIL.Image")
    assert utils.get_image_size(image_module.new("RGB", (5, 7))) == [7, 5]
    assert utils.get_image_num_channels(image_module.new("RGBA", (5, 7))) == 4
    assert utils.get_image_num_channels(image_module.new("L", (5, 7))) == 1


def test_errors():
    with pytest.raises(TypeError) as info:
        utils.get_image_size(1)
    assert str(info.value) == ("Input image is not of type <class 'numpy.ndarray'> or <class "
                               "'PIL.Image.Image'>, but got: <class 'int'>.")
    with pytest.raises(RuntimeError, match="GetImageSize: invalid parameter, image should have "
                                           "at least two dimensions, but got: 1"):
        utils.get_image_size(np.array([1, 2, 3]))
    with pytest.raises(RuntimeError, match="GetImageNumChannels: invalid parameter"):
        utils.get_image_num_channels(np.array([1, 2, 3]))

