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



def test_write_and_read_file(tmp_path):
    path = str(tmp_path / "bytes.bin")
    utils.write_file(path, np.array([97, 98, 99], np.uint8))
    assert utils.read_file(path).tolist() == [97, 98, 99]
    utils.write_file(path, np.empty(0, np.uint8))
    assert vision.read_file(path).shape == (0,)


@pytest.mark.parametrize("filename, data, error, text", [
    ("DIR", np.zeros(3, np.uint8), RuntimeError, "is not a regular file."),
    ("DIR/no/such/file", np.zeros(3, np.uint8), RuntimeError, "No such file or directory"),
    (0, np.zeros(3, np.uint8), TypeError, "Input filename is not of type <class 'str'>"),
    ("DIR/x", 0, TypeError, "Input data is not of type <class 'numpy.ndarray'>"),
    ("DIR/x", np.zeros(3), RuntimeError, ("The type of the elements of data should be UINT8, but "
                                         "got float64.")),
    ("DIR/x", np.zeros((2, 2), np.uint8), RuntimeError, ("The data has invalid dimensions. It "
                                                        "should have only one dimension, but "
                                                        "got 2 dimensions.")),
])
def test_write_file_errors(tmp_path, filename, data, error, text):
    if isinstance(filename, str):
        filename = filename.replace("DIR", str(tmp_path))
    with pytest.raises(error) as info:
        vision.write_file(filename, data)
    assert text in str(info.value)
