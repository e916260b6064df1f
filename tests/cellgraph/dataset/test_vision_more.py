"""The colour and geometric vision transforms against Pillow and colorsys."""
import colorsys
import io

import numpy as np
import pytest

import cellgraph.dataset as ds
from cellgraph.dataset import vision

PIL = pytest.importorskip("PIL")
from PIL import Image, ImageEnhance, ImageOps


def _image(h=5, w=7, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)


@pytest.mark.parametrize("name,enhancer", [("brightness", ImageEnhance.Brightness),
                                           ("saturation", ImageEnhance.Color)])
def test_color_adjust_with_a_fixed_factor_matches_pillow(name, enhancer):
    image = _image()
    out = vision.RandomColorAdjust(**{name: (0.6, 0.6)})(image)
    expected = np.asarray(enhancer(Image.fromarray(image)).enhance(0.6))
    assert np.abs(out.astype(int) - expected.astype(int)).max() <= 1


def test_hue_shift_matches_colorsys():
    image = _image()
    out = vision.RandomColorAdjust(hue=(0.25, 0.25))(image)
    for y, x in [(0, 0), (2, 3), (4, 6)]:
        h, s, v = colorsys.rgb_to_hsv(*(image[y, x] / 255.0))
        expected = np.array(colorsys.hsv_to_rgb((h + 0.25) % 1.0, s, v)) * 255
        np.testing.assert_allclose(out[y, x], expected, atol=1)


def test_color_adjust_draws_within_its_range():
    """Called directly after set_seed, MindSpore's C++ op starts from the seed on each call
    (121 for seed 3, recorded from MindSpore 2.10); other seeds draw other factors."""
    image = np.full((2, 2, 3), 100, np.uint8)
    ds.config.set_seed(3)
    op = vision.RandomColorAdjust(brightness=0.5)
    assert {int(op(image)[0, 0, 0]) for _ in range(3)} == {121}
    values = set()
    for seed in range(20):
        ds.config.set_seed(seed)
        values.add(int(vision.RandomColorAdjust(brightness=0.5)(image)[0, 0, 0]))
    assert len(values) > 5 and min(values) >= 50 and max(values) <= 150
    with pytest.raises(ValueError, match=r"interval of \[-0.5, 0.5\]"):
        vision.RandomColorAdjust(hue=0.7)


def test_invert_autocontrast_equalize_posterize():
    image = _image()
    np.testing.assert_array_equal(vision.Invert()(image), 255 - image)
    np.testing.assert_array_equal(vision.AutoContrast()(image),
                                  np.asarray(ImageOps.autocontrast(Image.fromarray(image))))
    np.testing.assert_array_equal(vision.RandomPosterize(2)(image), image & 0xC0)


def test_pad_and_vertical_flip_and_to_pil():
    image = _image(2, 3)
    padded = vision.Pad((1, 2), fill_value=9)(image)
    assert padded.shape == (6, 5, 3)
    np.testing.assert_array_equal(padded[2:4, 1:4], image)
    assert (padded[0] == 9).all() and (padded[:, 0] == 9).all()
    flipped = vision.RandomVerticalFlip(prob=1.0)(image)
    np.testing.assert_array_equal(flipped, image[::-1])
    pil = vision.ToPIL()(image)
    assert pil.size == (3, 2)
    np.testing.assert_array_equal(np.asarray(pil), image)


def test_random_resized_crop_region_and_size():
    crop = vision.RandomResizedCrop((4, 4), scale=(0.25, 0.5), ratio=(1.0, 1.0))
    for _ in range(10):
        top, left, h, w = crop.region(20, 20)
        assert h == w and 100 <= h * w <= 200 + 2 * h and top + h <= 20 and left + w <= 20
    assert crop(_image(20, 20)).shape == (4, 4, 3)
    fallback = vision.RandomResizedCrop(4, scale=(2.0, 3.0), ratio=(1.0, 1.0))
    assert fallback.region(10, 20) == (0, 5, 10, 10)  # central crop of the clamped ratio


def test_random_crop_decode_resize_and_rotation():
    buffer = io.BytesIO()
    Image.fromarray(_image(8, 8)).save(buffer, format="PNG")
    data = np.frombuffer(buffer.getvalue(), np.uint8)
    out = vision.RandomCropDecodeResize((3, 5), scale=(1.0, 1.0), ratio=(1.0, 1.0))(data)
    assert out.shape == (3, 5, 3) and out.dtype == np.uint8
    image = np.zeros((3, 3, 3), np.uint8)
    image[0, 1] = 255  # the top middle pixel, rotated 90 degrees counter-clockwise
    rotated = vision.RandomRotation((90, 90))(image)
    assert rotated[1, 0].tolist() == [255, 255, 255] and rotated.sum() == 255 * 3



def test_slice_patches_pad_and_drop():
    image = np.arange(5 * 7 * 3).reshape(5, 7, 3).astype(np.uint8)
    patches = vision.SlicePatches(2, 3)(image)
    assert len(patches) == 6 and all(p.shape == (3, 3, 3) for p in patches)
    np.testing.assert_array_equal(patches[0], image[:3, :3])
    np.testing.assert_array_equal(patches[5][:2, :1], image[3:, 6:])
    assert (patches[5][2] == 0).all()  # padding below the image
    dropped = vision.SlicePatches(2, 3, vision.SliceMode.DROP)(image)
    np.testing.assert_array_equal(dropped[4], image[2:4, 2:4])


def test_grayscale_solarize_sharpness():
    image = _image()
    luma = np.asarray(Image.fromarray(image).convert("L"))
    assert np.abs(vision.Grayscale()(image)[..., 0].astype(int) - luma).max() <= 1
    solarized = vision.RandomSolarize((128, 128))(image)
    # MindSpore inverts the drawn range [a, b] only: here the pixels equal to 128
    np.testing.assert_array_equal(solarized, np.where(image == 128, 255 - image, image))
    sharp = vision.RandomSharpness((1.5, 1.5))(image)
    # MindSpore's C++ kernel (OpenCV's float smoothing) is within a level of Pillow's
    np.testing.assert_array_equal(sharp, vision.AdjustSharpness(1.5)(image))
    expected = ImageEnhance.Sharpness(Image.fromarray(image)).enhance(1.5)
    assert np.abs(sharp.astype(int) - np.asarray(expected)).max() <= 1


def test_flips_and_crop_give_mindspores_pixels_and_errors():
    """Values from MindSpore 2.10 for the same (2, 4, 3) image (channel 0 shown)."""
    image = np.arange(24, dtype=np.uint8).reshape(2, 4, 3)
    assert vision.HorizontalFlip()(image)[..., 0].tolist() == [[9, 6, 3, 0], [21, 18, 15, 12]]
    assert vision.VerticalFlip()(image)[..., 0].tolist() == [[12, 15, 18, 21], [0, 3, 6, 9]]
    assert vision.Crop((0, 1), (2, 2))(image)[..., 0].tolist() == [[3, 6], [15, 18]]
    assert vision.Crop((1, 1), 1)(image)[..., 0].tolist() == [[15]]
    with pytest.raises(RuntimeError):
        vision.Crop((1, 3), 2)(image)
    with pytest.raises(ValueError, match=r"Input coordinates\[0\] is not within the required "
                                         r"interval of \[0, 2147483647\]"):
        vision.Crop((-1, 0), 1)
    with pytest.raises(TypeError, match="Size should be a single integer or a list/tuple"):
        vision.Crop((0, 0), (1, 2, 3))
    with pytest.raises(RuntimeError):
        vision.HorizontalFlip()(np.zeros(3, np.uint8))


def test_center_crop_and_flips_take_a_batch_of_images_as_mindspore_does():
    """<..., H, W, C>: each image cropped or mirrored (MindSpore 2.10's values); Crop keeps to
    one image, as MindSpore's does."""
    batch = np.arange(2 * 4 * 6 * 3, dtype=np.uint8).reshape(2, 4, 6, 3)
    assert vision.CenterCrop(2)(batch)[..., 0].tolist() == \
        [[[24, 27], [42, 45]], [[96, 99], [114, 117]]]
    assert vision.CenterCrop((3, 8))(batch).shape == (2, 3, 8, 3)
    assert vision.CenterCrop(2)(batch[..., 0]).shape == (2, 2, 6)  # <H, W, C> with C = 6
    assert vision.HorizontalFlip()(batch)[1, 0, :, 0].tolist() == [87, 84, 81, 78, 75, 72]
    assert vision.VerticalFlip()(batch)[1, :, 0, 0].tolist() == [126, 108, 90, 72]
    with pytest.raises(RuntimeError):
        vision.Crop((1, 2), (2, 3))(batch)


def test_color_adjust_of_a_one_channel_image_says_what_mindspore_says():
    with pytest.raises(RuntimeError, match=r"Expecting tensor in channel of \(3\)\. But got "
                                           r"channel 1\."):
        vision.RandomColorAdjust(brightness=(0.5, 1))(np.zeros((4, 4, 1), np.uint8))


@pytest.mark.parametrize("make, name, value", [
    (lambda: vision.Resize(10, interpolation=1), "interpolation", "1"),
    (lambda: vision.RandomResizedCrop(10, interpolation="a"), "interpolation", "a"),
    (lambda: vision.RandomRotation(10, resample=2), "resample", "2"),
    (lambda: vision.Rotate(10, resample=2), "resample", "2"),
    (lambda: vision.RandomAffine(10, resample=2), "resample", "2"),
])
def test_an_interpolation_that_is_not_an_inter_is_refused_in_mindspores_words(make, name, value):
    with pytest.raises(TypeError, match=rf"Argument {name} with value {value} is not of type "
                                        r"\[<enum 'Inter'>\], but got <class"):
        make()


def test_center_crop_limits_padding_and_gives_a_contiguous_array():
    """MindSpore refuses padding of 3 times the image or more, and its crops are new arrays."""
    image = np.zeros((4, 5, 3), np.uint8)
    assert vision.CenterCrop((15, 5))(image).shape == (15, 5, 3)
    for size in ((16, 5), (4, 20)):
        with pytest.raises(RuntimeError, match="Padding size cannot be more than 3 times of the "
                                               "original image size"):
            vision.CenterCrop(size)(image)
    crop = vision.CenterCrop(2)(np.arange(75, dtype=np.uint8).reshape(5, 5, 3))
    assert crop.flags["C_CONTIGUOUS"]


_EQ_IMAGE = ((np.arange(48).reshape(4, 4, 3) * 37) % 200).astype(np.uint8)


def test_equalize_gives_mindspores_pixels():
    """MindSpore 2.10's Equalize (OpenCV's equalizeHist per channel) for the same image."""
    out = vision.Equalize()(_EQ_IMAGE)
    assert out[0].tolist() == [[0, 34, 102], [153, 187, 255], [34, 68, 136], [187, 221, 17]]
    assert out[3].tolist() == [[170, 204, 0], [51, 85, 153], [204, 238, 34], [85, 119, 187]]
    assert vision.Equalize()(_EQ_IMAGE[:, :, 1]).tolist() == [
        [34, 187, 68, 221], [102, 255, 136, 0], [153, 17, 170, 51], [204, 85, 238, 119]]
    assert vision.Equalize()(np.full((2, 2), 7, np.uint8)).tolist() == [[7, 7], [7, 7]]


def test_random_equalize():
    np.testing.assert_array_equal(vision.RandomEqualize(1.0)(_EQ_IMAGE),
                                  vision.Equalize()(_EQ_IMAGE))
    np.testing.assert_array_equal(vision.RandomEqualize(0.0)(_EQ_IMAGE), _EQ_IMAGE)
    assert vision.RandomEqualize(1.0)(_EQ_IMAGE[:, :, :1]).shape == (4, 4, 1)
    with pytest.raises(ValueError, match=r"Input prob is not within the required interval of "
                                         r"\[0.0, 1.0\]."):
        vision.RandomEqualize(1.5)
    with pytest.raises(TypeError, match="Argument prob with value True"):
        vision.RandomEqualize(True)
    with pytest.raises(RuntimeError, match="input image is not in channel of 1 or 3, but got: 4"):
        vision.RandomEqualize(1.0)(np.zeros((4, 4, 4), np.uint8))
    with pytest.raises(RuntimeError, match="not in shape of <H,W> or <H,W,C>, but got rank: 4"):
        vision.RandomEqualize(1.0)(np.zeros((2, 4, 4, 3), np.uint8))
    with pytest.raises(RuntimeError, match="input image is not in type of uint8, but got: "
                                           "float32"):
        vision.RandomEqualize(1.0)(np.zeros((4, 4, 3), np.float32))


@pytest.mark.parametrize("op", [vision.RandomVerticalFlip, vision.RandomHorizontalFlip,
                                vision.RandomEqualize])
def test_prob_checks_are_mindspores(op):
    with pytest.raises(ValueError, match=r"Input prob is not within the required interval of "
                                         r"\[0.0, 1.0\]."):
        op(1.5)
    with pytest.raises(TypeError, match=r"Argument prob with value 1 is not of type \[<class "
                                        r"'float'>, <class 'int'>\], but got <class 'str'>."):
        op("1")


def test_random_flip_takes_several_images_and_checks_their_rank():
    image = np.arange(18, dtype=np.uint8).reshape(2, 3, 3)
    first, second = vision.RandomVerticalFlip(1.0)(image, image + 1)
    np.testing.assert_array_equal(first, image[::-1])
    np.testing.assert_array_equal(second, image[::-1] + 1)
    with pytest.raises(RuntimeError, match="RandomVerticalFlip: input tensor is not in shape of "
                                           "<H,W> or <H,W,C>, but got rank: 4"):
        vision.RandomVerticalFlip(1.0)(np.zeros((2, 2, 3, 3), np.uint8))


def test_five_crop():
    image_module = pytest.importorskip("PIL.Image")
    array = np.arange(5 * 6, dtype=np.uint8).reshape(5, 6)
    crops = vision.FiveCrop((2, 3))(image_module.fromarray(array))
    assert [np.asarray(c).tolist() for c in crops] == [
        array[:2, :3].tolist(), array[:2, 3:].tolist(), array[3:, :3].tolist(),
        array[3:, 3:].tolist(), array[2:4, 2:5].tolist()]
    with pytest.raises(ValueError, match=r"Crop size \(6, 6\) is larger than input image size "
                                         r"\(5, 6\)."):
        vision.FiveCrop(6)(image_module.fromarray(array))
    with pytest.raises(TypeError, match="img should be PIL image"):
        vision.FiveCrop(2)(array)


@pytest.mark.parametrize("make, error, message", [  # MindSpore 2.10's types and words
    (lambda: vision.RandomColor(12), TypeError, "degrees must be either a tuple or a list."),
    (lambda: vision.RandomColor(("col", 3)), TypeError,
     r"Argument degrees\[0\] with value col is not of type"),
    (lambda: vision.RandomColor((0.9, 0.1)), ValueError,
     r"degrees should be in \(min,max\) format. Got \(max,min\)."),
    (lambda: vision.RandomColor((0.1,)), ValueError, "degrees must be a sequence with length 2."),
    (lambda: vision.RandomSharpness((-1, 2)), ValueError,
     r"Input is not within the required interval of \[0, 16777216\]."),
    (lambda: vision.RandomColorAdjust(-1), ValueError,
     "The input value of brightness cannot be negative."),
    (lambda: vision.RandomColorAdjust((1, 2, 3)), TypeError,
     "If brightness is a sequence, the length must be 2."),
    (lambda: vision.RandomColorAdjust(contrast=(2, 1)), ValueError,
     r"contrast value should be in \(min,max\) format. Got \(2, 1\)."),
    (lambda: vision.RandomColorAdjust("a"), TypeError, "Argument brightness with value a"),
    (lambda: vision.RandomColorAdjust(hue=0.7), ValueError,
     r"Input is not within the required interval of \[-0.5, 0.5\]."),
    (lambda: vision.RandomColorAdjust(hue=-0.1), ValueError,
     "The input value of hue cannot be negative."),
])
def test_color_factor_checks_as_mindspore(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_color_factor_ranges():
    assert vision.RandomColorAdjust(brightness=1.5).ranges[0][1] == (0.0, 2.5)
    assert vision.RandomColorAdjust(hue=0.25).ranges[3][1] == (-0.25, 0.25)
    assert vision.RandomColor([0.5, 2]).degrees == (0.5, 2.0)


def test_random_solarize_draws_a_range_as_mindspores_cpp_op():
    """MindSpore 2.10 (seed 0, one worker): two draws from `threshold` make the inverted
    range; its checks and words."""
    seed, workers = ds.config.get_seed(), ds.config.get_num_parallel_workers()
    ds.config.set_seed(0)
    ds.config.set_num_parallel_workers(1)
    try:
        image = np.arange(0, 256, 16, dtype=np.uint8).reshape(4, 4, 1).repeat(3, axis=2)
        data = ds.NumpySlicesDataset([image] * 3, ["image"], shuffle=False)
        data = data.map(vision.RandomSolarize((10, 200)), input_columns=["image"])
        got = [x[..., 0].ravel().tolist() for (x,) in data.create_tuple_iterator(
            output_numpy=True)]
    finally:
        ds.config.set_seed(seed)
        ds.config.set_num_parallel_workers(workers)
    plain = list(range(0, 256, 16))
    assert got == [plain, plain[:10] + [95] + plain[11:],
                   plain[:8] + [127, 111, 95] + plain[11:]]
    for threshold, error, message in (
            ((12, 1), ValueError, "threshold must be in min max format numbers."),
            ((0, 256), ValueError, r"Input is not within the required interval of \[0, 255\]."),
            ((122.1, 200), TypeError, (r"Argument threshold\[0\] with value 122.1 is not of "
                                       r"type \[<class 'int'>\]")),
            ((1, 2, 3), ValueError, "threshold must be a sequence of two numbers.")):
        with pytest.raises(error, match=message):
            vision.RandomSolarize(threshold)


# recorded from MindSpore 2.10 (CPU): its C++ RandomColorAdjust shuffles the order of its four
# adjustments with the op's mt19937, then draws each factor as a float; the contrast and
# saturation kernels blend with OpenCV's grey image (the mean rounded to a level for contrast)
_ADJUST_IMAGE = np.random.RandomState(0).randint(0, 256, (6, 7, 3)).astype(np.uint8)


def test_color_adjust_draws_its_order_and_factors_as_mindspore():
    ds.config.set_seed(5)
    out = vision.RandomColorAdjust(0.4, 0.4, 0.4)(_ADJUST_IMAGE)
    np.testing.assert_array_equal(out[0, :3], [[211, 54, 142], [229, 88, 229], [231, 134, 36]])
    np.testing.assert_array_equal(out[1, -2:], [[232, 105, 226], [229, 106, 127]])
    pipeline = ds.NumpySlicesDataset({"image": np.stack([_ADJUST_IMAGE] * 3)}, shuffle=False)
    pipeline = pipeline.map(vision.RandomColorAdjust(0.4, 0.4, 0.4), "image")
    sums = [int(row[0].astype(np.int64).sum())
            for row in pipeline.create_tuple_iterator(output_numpy=True)]
    assert sums == [18965, 13715, 15560]


def test_contrast_and_saturation_kernels_as_mindspore():
    np.testing.assert_array_equal(vision.AdjustContrast(0.7)(_ADJUST_IMAGE)[0],
                                  [[158, 70, 119], [172, 84, 213], [174, 109, 44], [185, 52, 207],
                                   [62, 98, 86], [188, 99, 135], [78, 172, 198]])
    np.testing.assert_array_equal(vision.AdjustSaturation(1.3)(_ADJUST_IMAGE)[0],
                                  [[196, 34, 124], [212, 50, 255], [217, 98, 0], [243, 0, 255],
                                   [26, 92, 70], [241, 75, 142], [28, 204, 252]])
    contrast = vision.RandomColorAdjust(contrast=(0.7, 0.7))(_ADJUST_IMAGE)
    np.testing.assert_array_equal(contrast, vision.AdjustContrast(0.7)(_ADJUST_IMAGE))
