"""CropAndResize against a per-pixel NumPy reference, and its gradients (image and boxes)
against finite differences."""
from __future__ import annotations

import math

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops
from cellgraph.ops import operations as P
from cellgraph.testing import check_grads


def reference(image, boxes, box_index, crop_size, method="bilinear", extrapolation=0.0):
    """The definition, one output pixel at a time: source positions in float32 (as the kernel
    and MindSpore compute them; every operand a float32, so NumPy 1 and 2 agree), pixel values
    in float64."""
    _, height, width, depth = image.shape
    crop_h, crop_w = crop_size
    out = np.zeros((len(boxes), crop_h, crop_w, depth))
    f32 = np.float32

    def source(start, end, size, count, k):
        if count > 1:
            return start * f32(size - 1) + f32(k) * (end - start) * f32(size - 1) / f32(count - 1)
        return f32(0.5) * (start + end) * f32(size - 1)

    for n, (y1, x1, y2, x2) in enumerate(boxes):
        img = image[box_index[n]].astype(np.float64)
        for i in range(crop_h):
            y = source(y1, y2, height, crop_h, i)
            for j in range(crop_w):
                x = source(x1, x2, width, crop_w, j)
                if not (0 <= y <= height - 1 and 0 <= x <= width - 1):
                    out[n, i, j] = extrapolation
                elif method == "nearest":
                    out[n, i, j] = img[math.floor(y + f32(0.5)), math.floor(x + f32(0.5))]
                else:
                    t, b, l, r = math.floor(y), math.ceil(y), math.floor(x), math.ceil(x)
                    fy, fx = y - t, x - l
                    upper = img[t, l] + (img[t, r] - img[t, l]) * fx
                    lower = img[b, l] + (img[b, r] - img[b, l]) * fx
                    out[n, i, j] = upper + (lower - upper) * fy
    return out


_rng = np.random.default_rng(3)
IMAGE = _rng.standard_normal((2, 5, 6, 3)).astype(np.float32)
BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [-0.2, 0.0, 0.5, 1.2], [0.9, 0.7, 0.3, 0.1]],
                 np.float32)
INDEX = np.array([0, 1, 1], np.int32)


@pytest.mark.parametrize("crop_size", [(3, 4), (1, 2), (4, 1)])
@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_matches_the_definition(crop_size, method):
    op = P.CropAndResize(method=method, extrapolation_value=-1.5)
    out = op(Tensor(IMAGE), Tensor(BOXES), Tensor(INDEX), crop_size)
    assert out.dtype == ms.float32 and out.shape == (3, *crop_size, 3)
    np.testing.assert_allclose(out.asnumpy(), reference(IMAGE, BOXES, INDEX, crop_size, method,
                                                        -1.5), rtol=1e-5, atol=1e-5)


def test_integer_images_give_float32_and_graph_mode_agrees():
    ints = (IMAGE * 10).astype(np.int32)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.crop = P.CropAndResize()

        def construct(self, x, boxes, index):
            return self.crop(x, boxes, index, (2, 3))

    out = Net()(Tensor(ints), Tensor(BOXES), Tensor(INDEX))
    assert out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), reference(ints, BOXES, INDEX, (2, 3)), rtol=1e-5,
                               atol=1e-4)
    np.testing.assert_allclose(
        ops.crop_and_resize(Tensor(ints), Tensor(BOXES), Tensor(INDEX), (2, 3)).asnumpy(),
        out.asnumpy())


def test_gradients_reach_the_image_and_the_boxes():
    # The result is float32 (as MindSpore's), so differences take steps float32 resolves.
    # Boxes away from pixel-grid points, where the bilinear map has kinks.
    boxes = np.array([[0.13, 0.21, 0.77, 0.88], [0.61, 0.07, 0.29, 0.93]])
    index = Tensor(np.array([1, 0], np.int32))
    image = Tensor(IMAGE.astype(np.float64))

    def crop(image, boxes):
        return ops.crop_and_resize(image, boxes, index, (3, 2))

    # linear in the image: differences are exact up to rounding, at order 1 and 2
    check_grads(lambda x: crop(x, Tensor(boxes)) ** 2, (image,), order=2, eps=1e-2,
                rtol=1e-3, atol=1e-3)
    check_grads(lambda b: crop(image, b), (Tensor(boxes),), order=1, eps=1e-3, rtol=1e-2,
                atol=1e-3)


def test_nearest_has_a_zero_gradient_and_arguments_are_checked():
    grad = ms.grad(lambda x: ops.crop_and_resize(x, Tensor(BOXES), Tensor(INDEX), (2, 2),
                                                 method="nearest").sum())
    np.testing.assert_array_equal(grad(Tensor(IMAGE)).asnumpy(), np.zeros_like(IMAGE))
    with pytest.raises(TypeError):
        ops.crop_and_resize(Tensor(IMAGE), Tensor(BOXES), Tensor(INDEX), (2, 0))
    with pytest.raises(ValueError):
        ops.crop_and_resize(Tensor(IMAGE[0]), Tensor(BOXES), Tensor(INDEX), (2, 2))
    with pytest.raises(ValueError):
        ops.crop_and_resize(Tensor(IMAGE), Tensor(BOXES), Tensor(INDEX), (2, 2), method="cubic")


# ----- bilinear_v2: MindSpore 2.10's values (rounded to 4 places) on this input ----------------

V2_IMAGE = (np.arange(2 * 5 * 4 * 2, dtype=np.float32).reshape(2, 5, 4, 2) * 0.5) ** 1.1
V2_BOXES = np.array([[0.1, 0.2, 0.7, 0.9], [0.3, 0.5, 0.5, 0.1], [0.0, 0.25, 0.6, 1.3]],
                    np.float32)  # the last reaches past the right edge: its columns clamp
V2_INT = [[[[28.0, 29.0], [31.08329963684082, 32.0]], [[36.25, 37.0], [39.5, 40.0]],
           [[44.5, 45.41669845581055], [47.5, 48.41669845581055]]],
          [[[7.0, 7.0], [7.0, 7.0]], [[9.5, 10.0], [9.5, 10.0]], [[12.0, 13.0], [12.0, 13.0]]],
          [[[2.5416998863220215, 2.5833001136779785], [3.8333001136779785, 4.0]],
           [[9.125, 9.625], [10.5, 11.5]], [[16.54170036315918, 16.875], [18.0, 19.0]]]]
V2_FLOAT = [[[[28.730600357055664, 29.477699279785156], [31.729000091552734, 32.4827995300293]],
             [[36.78879928588867, 37.5526008605957], [39.85240173339844, 40.62179946899414]],
             [[45.001800537109375, 45.779701232910156], [48.12070083618164, 48.90340042114258]]],
            [[[7.1774001121521, 7.8379998207092285], [7.1774001121521, 7.8379998207092285]],
             [[9.883299827575684, 10.560700416564941], [9.883299827575684, 10.560700416564941]],
             [[12.589300155639648, 13.28339958190918], [12.589300155639648, 13.28339958190918]]],
            [[[2.6898999214172363, 3.289400100708008], [4.207600116729736, 4.835000038146973]],
             [[9.548100471496582, 10.223099708557129], [11.242199897766113, 11.927800178527832]],
             [[16.9335994720459, 17.645700454711914], [18.717899322509766, 19.436500549316406]]]]


@pytest.mark.parametrize("image, expected", [(V2_IMAGE.astype(np.int32), V2_INT),
                                             (V2_IMAGE, V2_FLOAT)])
def test_bilinear_v2_as_mindspore(image, expected):
    out = P.CropAndResize("bilinear_v2", 0.5)(Tensor(image), Tensor(V2_BOXES),
                                             Tensor(np.array([1, 0, 0], np.int32)), (3, 2))
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-4, atol=1e-4)
