"""dataset.transforms and dataset.vision on NumPy arrays and Pillow images."""
import io

import numpy as np
import pytest

import cellgraph as ms
import cellgraph.dataset as ds
from cellgraph.dataset import transforms, vision
from cellgraph.dataset.vision import Inter


def _image(h=4, w=6, c=3, seed=0):
    return np.random.default_rng(seed).integers(0, 256, (h, w, c), dtype=np.uint8)


def test_type_cast_one_hot_compose():
    np.testing.assert_array_equal(transforms.TypeCast(ms.int32)(np.array([1.7, 2.0])), [1, 2])
    assert transforms.TypeCast(np.float16)(np.array(3)).dtype == np.float16
    hot = transforms.OneHot(4)(np.array([1, 3]))
    np.testing.assert_array_equal(hot, [[0, 1, 0, 0], [0, 0, 0, 1]])
    assert hot.dtype == np.int64
    smooth = transforms.OneHot(4, smoothing_rate=0.2)(np.array(2))
    np.testing.assert_allclose(smooth, [0.05, 0.05, 0.85, 0.05], rtol=1e-6)
    assert smooth.dtype == np.float64  # MindSpore 2.10's, for int32 labels too
    assert transforms.OneHot(3, 0.1)(np.array([0, 2], np.int32)).dtype == np.float64
    with pytest.raises(RuntimeError, match="Only support input of int type, but got: float64"):
        transforms.OneHot(3)(np.array([0.5]))
    pipeline = transforms.Compose([vision.Rescale(0.5, 1.0), transforms.TypeCast(np.int32)])
    np.testing.assert_array_equal(pipeline(np.array([[[4]]], np.uint8)), [[[3]]])


def test_one_hot_in_a_pipeline_with_the_1x_module_path():
    from cellgraph.dataset.transforms import c_transforms

    data = ds.NumpySlicesDataset([1, 2], ["label"], shuffle=False).map(
        c_transforms.OneHot(3), input_columns="label")
    rows = list(data.create_dict_iterator(output_numpy=True))
    np.testing.assert_array_equal(rows[1]["label"], [0, 0, 1])


def _bilinear_reference(image, h, w):
    """Half-pixel-centred bilinear resampling written out point by point."""
    in_h, in_w = image.shape[:2]
    out = np.zeros((h, w) + image.shape[2:])
    for i in range(h):
        for j in range(w):
            y = min(max((i + 0.5) * in_h / h - 0.5, 0), in_h - 1)
            x = min(max((j + 0.5) * in_w / w - 0.5, 0), in_w - 1)
            y0, x0 = int(y), int(x)
            y1, x1 = min(y0 + 1, in_h - 1), min(x0 + 1, in_w - 1)
            dy, dx = y - y0, x - x0
            out[i, j] = ((1 - dy) * (1 - dx) * image[y0, x0] + (1 - dy) * dx * image[y0, x1]
                         + dy * (1 - dx) * image[y1, x0] + dy * dx * image[y1, x1])
    return out


def test_resize_linear_and_nearest_on_numpy():
    image = _image().astype(np.float32)
    np.testing.assert_allclose(vision.Resize((7, 9))(image), _bilinear_reference(image, 7, 9),
                               rtol=1e-5, atol=1e-4)
    as_uint8 = vision.Resize((3, 4))(_image())
    assert as_uint8.dtype == np.uint8
    # uint8 images resize as OpenCV does in MindSpore, in fixed point (MindSpore 2.10's values)
    assert as_uint8.tolist() == [
        [[133, 139, 192], [61, 180, 78], [191, 198, 92], [107, 182, 156]],
        [[156, 100, 87], [69, 178, 75], [64, 155, 139], [102, 148, 100]],
        [[103, 142, 102], [108, 96, 188], [178, 181, 166], [68, 82, 160]]]
    gray = np.random.default_rng(1).integers(0, 256, (5, 7), dtype=np.uint8)
    assert vision.Resize((9, 4))(gray).tolist() == [
        [245, 45, 228, 75], [203, 82, 211, 104], [134, 144, 184, 154], [129, 168, 193, 161],
        [142, 182, 210, 157], [168, 113, 162, 178], [187, 76, 129, 193], [179, 167, 160, 179],
        [175, 221, 178, 171]]
    assert vision.Resize((2, 3))(gray).tolist() == [[143, 92, 163], [200, 218, 175]]
    # halving is OpenCV's 2x2 mean
    assert vision.Resize((2, 3))(_image()).tolist() == [
        [[145, 135, 152], [70, 201, 67], [114, 150, 88]],
        [[140, 121, 99], [109, 150, 168], [119, 124, 183]]]
    doubled = vision.Resize((8, 12), Inter.NEAREST)(_image())
    np.testing.assert_array_equal(doubled, _image().repeat(2, axis=0).repeat(2, axis=1))
    assert vision.Resize(2)(_image()).shape == (2, 3, 3)  # the shorter side, aspect kept


def test_resize_on_pillow_matches_numpy_when_enlarging():
    image_mod = pytest.importorskip("PIL.Image")
    image = _image(6, 4)
    for size in ((12, 8), (9, 7)):
        pil = vision.Resize(size)(image_mod.fromarray(image))
        assert pil.size == (size[1], size[0])
        # the same half-pixel bilinear rule; Pillow rounds its fixed-point sums differently
        diff = np.asarray(pil, np.int32) - vision.Resize(size)(image).astype(np.int32)
        assert np.abs(diff).max() <= 1


def test_crops_and_flip():
    image = _image(6, 8)
    np.testing.assert_array_equal(vision.CenterCrop((2, 4))(image), image[2:4, 2:6])
    np.testing.assert_array_equal(vision.CenterCrop(10)(image)[2:8, 1:9], image)
    # MindSpore 2.10: the crop's offsets round down; an odd padding puts its larger half on the
    # top (left); (h, w, crop h, crop w) -> the first pixel of an arange image
    for h, w, ch, cw, first in [(4, 5, 2, 2, 6), (4, 7, 2, 2, 9), (5, 5, 2, 2, 6),
                                (7, 7, 2, 4, 15), (6, 9, 3, 4, 11), (5, 4, 6, 2, 0)]:
        plane = np.arange(h * w, dtype=np.uint8).reshape(h, w)
        out = vision.CenterCrop((ch, cw))(plane)
        assert out.shape == (ch, cw) and out[0, 0] == first
    padded = vision.CenterCrop((6, 2))(np.arange(20, dtype=np.uint8).reshape(5, 4))
    np.testing.assert_array_equal(padded[:2], [[0, 0], [1, 2]])
    crop = vision.RandomCrop((3, 3))
    for _ in range(5):
        out = crop(image)
        hits = [(i, j) for i in range(4) for j in range(6)
                if np.array_equal(image[i:i + 3, j:j + 3], out)]
        assert hits, "a random crop must be a window of the image"
    padded = vision.RandomCrop(8, padding=1, fill_value=7)(image)
    assert padded.shape == (8, 8, 3)
    flip = vision.RandomHorizontalFlip(prob=1.0)
    np.testing.assert_array_equal(flip(image), image[:, ::-1])
    np.testing.assert_array_equal(vision.RandomHorizontalFlip(prob=0.0)(image), image)


def test_crop_and_flip_on_pillow():
    image_mod = pytest.importorskip("PIL.Image")
    image = _image(6, 8)
    pil = image_mod.fromarray(image)
    np.testing.assert_array_equal(np.asarray(vision.CenterCrop((2, 4))(pil)), image[2:4, 2:6])
    np.testing.assert_array_equal(np.asarray(vision.RandomHorizontalFlip(1.0)(pil)),
                                  image[:, ::-1])
    assert vision.RandomCrop(4)(pil).size == (4, 4)


def test_rescale_normalize_hwc2chw():
    image = _image(2, 3)
    rescaled = vision.Rescale(1 / 255, -0.5)(image)
    assert rescaled.dtype == np.float32
    np.testing.assert_allclose(rescaled, image / 255 - 0.5, rtol=1e-6, atol=1e-6)
    mean, std = [10.0, 20.0, 30.0], [2.0, 4.0, 5.0]
    normalized = vision.Normalize(mean, std)(image)
    np.testing.assert_allclose(normalized, (image - np.array(mean)) / np.array(std), rtol=1e-6)
    chw = vision.HWC2CHW()(image)
    assert chw.shape == (3, 2, 3)
    np.testing.assert_array_equal(chw[1], image[..., 1])
    np.testing.assert_allclose(vision.Normalize(mean, std, is_hwc=False)(chw),
                               normalized.transpose(2, 0, 1), rtol=1e-6)
    # one mean and std serve every channel, as in MindSpore; a count that fits none raises
    np.testing.assert_allclose(vision.Normalize([10.0], [2.0])(image), (image - 10.0) / 2.0,
                               rtol=1e-6)
    with pytest.raises(RuntimeError, match="number of channels does not match the size of mean "
                                           "and std vectors, got channels: 3, size of mean: 2"):
        vision.Normalize([0.0, 1.0], [1.0, 1.0])(image)


def test_decode_png_bytes():
    image_mod = pytest.importorskip("PIL.Image")
    image = _image(5, 4)
    buffer = io.BytesIO()
    image_mod.fromarray(image).save(buffer, format="PNG")
    raw = np.frombuffer(buffer.getvalue(), np.uint8)
    np.testing.assert_array_equal(vision.Decode()(raw), image)
    assert vision.Decode(to_pil=True)(raw).size == (4, 5)


def test_vision_pipeline_gives_chw_float_batches():
    images = np.stack([_image(8, 8, seed=s) for s in range(6)])
    data = ds.NumpySlicesDataset({"image": images, "label": np.arange(6)}, shuffle=False)
    data = data.map([vision.Resize((4, 4)), vision.Rescale(1 / 255, 0),
                     vision.Normalize([0.5] * 3, [0.25] * 3), vision.HWC2CHW()],
                    input_columns="image")
    data = data.batch(3, drop_remainder=True)
    batch = next(iter(data.create_tuple_iterator(output_numpy=True)))
    assert batch[0].shape == (3, 3, 4, 4) and batch[0].dtype == np.float32
    expected = (vision.Resize((4, 4))(images[2]) / 255 - 0.5) / 0.25
    np.testing.assert_allclose(batch[0][2], expected.transpose(2, 0, 1), rtol=1e-5, atol=1e-5)


def test_1x_python_transforms_on_pillow_images():
    pytest.importorskip("PIL.Image")
    from cellgraph.dataset.transforms import py_transforms
    from cellgraph.dataset.vision import py_transforms as py_vision

    image = _image(6, 4)
    pipeline = py_transforms.Compose([py_vision.ToPIL(), py_vision.Resize((12, 8)),
                                      py_vision.ToTensor(),
                                      py_vision.Normalize([0.5] * 3, [0.5] * 3)])
    (out,) = pipeline(image)  # a Compose of Python transforms returns a tuple (MindSpore's)
    assert out.shape == (3, 12, 8) and out.dtype == np.float32
    resized = np.asarray(vision.Resize((12, 8))(py_vision.ToPIL()(image)))
    np.testing.assert_allclose(out, (resized.transpose(2, 0, 1) / 255 - 0.5) / 0.5, rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_array_equal(py_transforms.OneHotOp(3)(np.array(2)), [0, 0, 1])


def test_inter_has_mindspore_values_and_aliases():
    # MindSpore 2.10: NEAREST 0, ANTIALIAS 1, BILINEAR 2 (LINEAR its alias), BICUBIC 3 (CUBIC),
    # AREA 4, PILCUBIC 5; Resize defaults to BILINEAR
    assert [(m.name, m.value) for m in Inter] == [
        ("NEAREST", 0), ("ANTIALIAS", 1), ("BILINEAR", 2), ("BICUBIC", 3), ("AREA", 4),
        ("PILCUBIC", 5)]
    assert Inter.LINEAR is Inter.BILINEAR and Inter.CUBIC is Inter.BICUBIC
    assert Inter(2) is Inter.BILINEAR
    image = _image()
    np.testing.assert_array_equal(vision.Resize((8, 12))(image),
                                  vision.Resize((8, 12), Inter.LINEAR)(image))


def test_slice_mode_has_mindspore_values():
    assert [(m.name, m.value) for m in vision.SliceMode] == [("PAD", 0), ("DROP", 1)]


def test_cut_out_zeroes_clipped_squares_as_mindspore():

    image = np.full((6, 7, 3), 9, np.uint8)
    for _ in range(20):
        out = vision.CutOut(3, num_patches=2)(image)
        assert out.dtype == np.uint8 and out.shape == image.shape
        assert set(np.unique(out)) <= {0, 9}
        zero = (out == 0).all(axis=2)
        assert ((out == 0).any(axis=2) == zero).all()  # every channel of a pixel together
        assert zero.sum() <= 2 * 9
    chw = vision.CutOut(7, is_hwc=False)(np.ones((4, 7, 7), np.float32))
    assert chw.dtype == np.float32 and ((chw == 0).all(axis=0) == (chw == 0).any(axis=0)).all()
    assert (image == 9).all()  # the input is left as it was


def test_cut_out_errors_match_mindspore():

    with pytest.raises(RuntimeError, match="CutOut: box size is too large for image erase, got "
                                           "box height: 5box weight: 5, and image height: 4, "
                                           "image width: 8"):
        vision.CutOut(5, is_hwc=False)(np.ones((3, 4, 8), np.uint8))
    with pytest.raises(RuntimeError, match="CutOut: shape is invalid."):
        vision.CutOut(2)(np.ones((4, 8), np.uint8))
    with pytest.raises(ValueError, match=r"Input is not within the required interval of "
                                         r"\[1, 16777216\]."):
        vision.CutOut(0)
    with pytest.raises(TypeError, match=r"Argument num_patches with value 1.5 is not of type "
                                        r"\[<class 'int'>\], but got <class 'float'>."):
        vision.CutOut(2, num_patches=1.5)


def test_random_auto_contrast_applies_auto_contrast_with_probability():
    pytest.importorskip("PIL.Image")  # AutoContrast is Pillow's (the vision extra)
    image = (np.arange(4 * 5 * 3).reshape(4, 5, 3) * 3 % 200 + 20).astype(np.uint8)
    always = vision.RandomAutoContrast(cutoff=10, prob=1.0)(image)
    np.testing.assert_array_equal(always, vision.AutoContrast(cutoff=10)(image))
    assert vision.RandomAutoContrast(prob=0.0)(image) is image
    bad = np.zeros((2, 3, 4, 5), np.uint32)  # left alone (unchecked) when not applied
    assert vision.RandomAutoContrast(prob=0.0)(bad) is bad
    assert vision.RandomAutoContrast(ignore=7).ignore == [7]


@pytest.mark.parametrize("kwargs, error, words", [
    ({"prob": 1.5}, ValueError, "Input prob is not within the required interval of [0.0, 1.0]."),
    ({"cutoff": 60}, ValueError, "Input cutoff is not within the required interval of [0, 50)."),
    ({"prob": "a"}, TypeError,
     ("Argument prob with value a is not of type [<class 'float'>, <class 'int'>], but got "
      "<class 'str'>.")),
])
def test_random_auto_contrast_checks_as_mindspore(kwargs, error, words):
    with pytest.raises(error) as info:
        vision.RandomAutoContrast(**kwargs)
    assert str(info.value) == words


def test_hwc2chw_keeps_a_2d_image_and_refuses_other_ranks_as_mindspore():
    assert vision.HWC2CHW()(np.zeros([32, 28])).shape == (32, 28)
    assert vision.HWC2CHW()(np.zeros([50, 50, 5])).shape == (5, 50, 50)
    with pytest.raises(RuntimeError, match=r"HWC2CHW: image shape should be <H,W> or <H,W,C>, "
                                           r"but got rank: 4"):
        vision.HWC2CHW()(np.zeros([2, 3, 4, 5]))
    image = np.zeros([4, 5, 3])
    with pytest.raises(RuntimeError, match="The op is OneToOne, can only accept one tensor as "
                                           "input."):
        vision.HWC2CHW()(image, image)


def test_inter_is_an_int_enum_and_border_a_str_enum():
    # MindSpore 2.10: Inter is an IntEnum (BILINEAR == 2), Border a str Enum ("constant")
    assert vision.Inter.BILINEAR == 2 and isinstance(vision.Inter.NEAREST, int)
    assert vision.Inter.LINEAR is vision.Inter.BILINEAR
    assert vision.Border.CONSTANT == "constant" and isinstance(vision.Border.EDGE, str)
    assert str(vision.Border.CONSTANT) == "Border.CONSTANT"


def test_to_tensor_scales_by_the_float_reciprocal_of_255():
    # MindSpore 2.10's values: each level times float32(1 / 255), not divided by 255
    out = vision.ToTensor()(np.array([[[53, 30, 51]]], np.uint8))
    assert out.dtype == np.float32
    assert out.ravel().tolist() == [0.20784315466880798, 0.11764706671237946,
                                    0.20000001788139343]
    out = vision.ToTensor()(np.array([[[0.3, 2.5, -1.7]]], np.float64))
    assert out.ravel().tolist() == [0.0011764706578105688, 0.009803921915590763,
                                    -0.006666666828095913]
