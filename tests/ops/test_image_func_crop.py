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
