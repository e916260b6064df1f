"""ops.ScaleAndTranslate: images resampled through a kernel (TensorFlow's rule, MindSpore's CPU
kernel). Expected values are MindSpore 2.10's, recorded as literals (4 places)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, ops
from cellgraph.testing import check_grads

IMAGES = (np.arange(2 * 5 * 7 * 2) % 9).reshape(2, 5, 7, 2).astype(np.float32) * 1.3

# (kernel_type, antialias, size, scale, translation) -> (sum, first 12 of image 0 channel 0)
CASES = [
    (("lanczos3", True, [3, 4], [0.6, 0.55], [0.2, -0.3]), 246.088,
     [3.1763, 6.2002, 6.3369, 5.0453, 5.2417, 4.0657, 4.7189, 6.8741, 6.1879, 6.0004, 4.8349,
      3.1488]),
    (("gaussian", False, [3, 4], [0.6, 0.55], [0.2, -0.3]), 241.739,
     [3.1505, 6.654, 5.226, 4.6081, 5.3053, 6.0036, 3.4589, 6.7439, 7.7576, 5.4853, 6.1012,
      2.4012]),
    (("box", True, [5, 7], [1, 1], [1, 1]), 503.1,
     [0, 0, 0, 0, 0, 0, 0, 0, 0, 2.6, 5.2, 7.8]),
    (("mitchellcubic", False, [8, 11], [1.7, 1.5], [0.0, 0.4]), 1803.684,
     [-0.2906, 0.413, 2.2028, 4.0771, 5.912, 7.6413, 9.8066, 8.4136, 2.303, 2.4218, 3.8437,
      2.3171]),
]


def _call(op, images, size, scale, translation):
    return op(images, Tensor(np.array(size, np.int32)), Tensor(np.array(scale, np.float32)),
              Tensor(np.array(translation, np.float32)))


@pytest.mark.parametrize("args, total, head", CASES)
def test_as_mindspore(args, total, head):
    kernel_type, antialias, *inputs = args
    out = _call(ops.ScaleAndTranslate(kernel_type, antialias), Tensor(IMAGES), *inputs)
    assert out.dtype == cg.float32 and out.shape == (2, *inputs[0], 2)
    np.testing.assert_allclose(out.asnumpy().sum(), total, rtol=1e-5)
    np.testing.assert_allclose(out.asnumpy()[0, :, :, 0].reshape(-1)[:12], head, atol=1e-4)


def test_docstring_example_and_integer_images():
    image = Tensor(np.array([[[[9.0], [5.0], [2.0], [1.0]], [[6.0], [1.0], [9.0], [7.0]]]]),
                   cg.float32)
    out = _call(ops.ScaleAndTranslate(), image, [2, 2], [1, 1], [1, 1])
    np.testing.assert_allclose(out.asnumpy(), [[[[0.0], [0.0]], [[0.0], [9.0]]]], atol=1e-6)
    ints = _call(ops.ScaleAndTranslate(), Tensor(IMAGES.astype(np.int32)), [3, 3], [0.5, 0.5],
                 [0, 0])
    assert ints.dtype == cg.float32
    np.testing.assert_allclose(ints.asnumpy().sum(), 168.379, rtol=1e-5)


def test_errors_and_gradients():
    with pytest.raises(ValueError, match="'kernel_type' must be str and must be in"):
        ops.ScaleAndTranslate("cubic")
    with pytest.raises(TypeError, match="the type of 'antialias' should be 'bool'"):
        ops.ScaleAndTranslate("box", 1)
    with pytest.raises(TypeError, match=r"argument\[size\].*Tensor\[Int64\]"):
        ops.ScaleAndTranslate()(Tensor(IMAGES), Tensor(np.array([3, 3], np.int64)),
                                Tensor(np.array([1, 1], np.float32)),
                                Tensor(np.array([0, 0], np.float32)))
    # the result is float32 (as MindSpore's) and quadratic here: central differences with a
    # step far above float32's rounding are exact
    op = ops.ScaleAndTranslate("keyscubic")
    check_grads(lambda x: _call(op, x, [4, 5], [0.8, 0.7], [0.1, 0.2]) ** 2,
                (Tensor(IMAGES[:1].astype(np.float64)),), order=1, eps=0.05, rtol=1e-4,
                atol=1e-3)
