"""Padding modes (ops.pad, ops.PadV3), max pooling with indices or a mask, and the
SoftmaxCrossEntropyWithLogits primitive, against NumPy references, with gradients."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, ops
from cellgraph.primitives.errors import ArgumentValueError, DTypeError, ShapeError
from cellgraph.testing import check_grads

from .nn_helpers import F64, assert_both, distinct, normal

NP_MODE = {"reflect": "reflect", "replicate": "edge", "edge": "edge", "circular": "wrap"}


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_pad_modes_match_numpy(mode):
    x = normal(2, 3, 4)
    expected = np.pad(x, ((0, 0), (1, 2), (2, 1)), NP_MODE[mode])
    assert_both(lambda x: ops.pad(x, (2, 1, 1, 2), mode=mode), (x,), expected, **F64)
    check_grads(lambda x: ops.pad(x, (2, 1, 1, 2), mode=mode), (x,), order=2)


def test_pad_mode_errors():
    x = Tensor(normal(2, 3))
    with pytest.raises(ArgumentValueError, match="at most 2"):
        ops.pad(x, (3, 0), mode="reflect")
    with pytest.raises(ArgumentValueError, match="mode 'constant' only"):
        ops.pad(x, (1, 0), mode="reflect", value=1.0)


@pytest.mark.parametrize("mode", ["constant", "reflect", "edge", "circular"])
def test_padv3_modes(mode):
    x = normal(1, 2, 3, 4)
    expected = np.pad(x, ((0, 0), (0, 0), (1, 2), (2, 1)), NP_MODE.get(mode, "constant"))
    op = ops.PadV3(mode)
    assert_both(lambda x: op(x, (2, 1, 1, 2)), (x,), expected, **F64)
    check_grads(lambda x: op(x, (2, 1, 1, 2)), (x,), order=2)


def test_padv3_value_and_layout():
    x = normal(2, 3)
    got = ops.PadV3()(Tensor(x), Tensor(np.array([1, 2], np.int64)), Tensor(np.float64(-7)))
    np.testing.assert_allclose(got.asnumpy(), np.pad(x, ((0, 0), (1, 2)), constant_values=-7))
    # paddings_contiguous=False: (begin0, begin1, end0, end1), axis 0 of the list = last axis
    got = ops.PadV3("edge", paddings_contiguous=False)(Tensor(x), (1, 0, 2, 1))
    np.testing.assert_allclose(got.asnumpy(), np.pad(x, ((0, 1), (1, 2)), "edge"))
    # a value computed in the graph, differentiated too
    value = np.array(0.5)
    assert_both(lambda x, v: ops.PadV3()(x, (1, 1), v * 2), (x, value),
                np.pad(x, ((0, 0), (1, 1)), constant_values=1.0), **F64)
    check_grads(lambda x, v: ops.PadV3()(x, (1, 0, 0, 1), v * x.sum()), (x, value), order=2)
    with pytest.raises(ArgumentValueError, match="PadV3: mode"):
        ops.PadV3("symmetric")
    with pytest.raises(DTypeError, match="paddings_contiguous"):
        ops.PadV3("constant", 1)


# MindSpore 2.10's PadV3 / ops.pad on arange(12).reshape(1, 1, 3, 4): a negative amount crops,
# and circular wraps round what the crop leaves (reflect and edge pad the whole axis first)
NEGATIVE_PADS = {
    ("circular", (1, -1, 0, 0)): [[2, 0, 1, 2], [6, 4, 5, 6], [10, 8, 9, 10]],
    ("circular", (-1, 2, 0, 0)): [[1, 2, 3, 1, 2], [5, 6, 7, 5, 6], [9, 10, 11, 9, 10]],
    ("circular", (-2, 1, 1, -1)): [[6, 7, 6], [2, 3, 2], [6, 7, 6]],
    ("circular", (0, 0, -1, 2)): [[4, 5, 6, 7], [8, 9, 10, 11], [4, 5, 6, 7], [8, 9, 10, 11]],
    ("reflect", (-1, 2, 0, 0)): [[1, 2, 3, 2, 1], [5, 6, 7, 6, 5], [9, 10, 11, 10, 9]],
    ("reflect", (0, 0, -1, 2)): [[4, 5, 6, 7], [8, 9, 10, 11], [4, 5, 6, 7], [0, 1, 2, 3]],
    ("edge", (-2, 1, 1, -1)): [[2, 3, 3], [2, 3, 3], [6, 7, 7]],
}


@pytest.mark.parametrize(("mode", "pads"), list(NEGATIVE_PADS))
def test_negative_paddings_crop_as_mindspore(mode, pads):
    x = np.arange(12, dtype=np.float64).reshape(1, 1, 3, 4)
    expected = np.array(NEGATIVE_PADS[mode, pads], np.float64)[None, None]
    op = ops.PadV3(mode)
    assert_both(lambda x: op(x, pads), (x,), expected, **F64)
    functional_mode = "replicate" if mode == "edge" else mode
    assert_both(lambda x: ops.pad(x, pads, mode=functional_mode), (x,), expected, **F64)
    check_grads(lambda x: op(x, pads), (normal(1, 1, 3, 4),), order=1)


def test_circular_padding_cropping_everything_is_an_error():
    with pytest.raises(ValueError, match="crops away every element"):
        ops.pad(Tensor(normal(1, 1, 3, 4)), (-2, -2), mode="circular")


def np_max_pool_indices(x, k, s, p, d, ceil):
    n, c, h, w = x.shape
    span = [h + 2 * p[0] - d[0] * (k[0] - 1) - 1, w + 2 * p[1] - d[1] * (k[1] - 1) - 1]
    rnd = np.ceil if ceil else np.floor
    out = [int(rnd(span[i] / s[i])) + 1 for i in range(2)]
    out = [o - 1 if ceil and (o - 1) * s[i] >= (h, w)[i] + p[i] else o for i, o in enumerate(out)]
    values = np.full((n, c, *out), -np.inf)
    index = np.zeros((n, c, *out), np.int64)
    for i, j, a, b in np.ndindex(k[0], k[1], *out):
        r, q = a * s[0] + i * d[0] - p[0], b * s[1] + j * d[1] - p[1]
        if 0 <= r < h and 0 <= q < w:
            better = x[:, :, r, q] > values[:, :, a, b]
            values[:, :, a, b] = np.where(better, x[:, :, r, q], values[:, :, a, b])
            index[:, :, a, b] = np.where(better, r * w + q, index[:, :, a, b])
    return values, index


@pytest.mark.parametrize("k,s,p,d,ceil", [((2, 2), (2, 2), (0, 0), (1, 1), False),
                                          ((3, 2), (2, 1), (1, 1), (1, 1), True),
                                          ((2, 2), (1, 2), (1, 0), (2, 1), False)])
def test_max_pool_with_indices(k, s, p, d, ceil):
    x = distinct(2, 3, 6, 7)
    values, index = np_max_pool_indices(x, k, s, p, d, ceil)
    op = ops.MaxPoolWithIndices(k, s, p, d, ceil)
    assert_both(lambda x: op(x), (x,), (values, index), **F64)
    check_grads(lambda x: op(x)[0], (x,), order=2)


def test_max_pool_with_indices_doc_example():
    x = Tensor(np.arange(36).reshape(1, 3, 3, 4).astype(np.float32))
    out, argmax = ops.MaxPoolWithIndices(2, 1)(x)
    np.testing.assert_allclose(out.asnumpy()[0, 1], [[17, 18, 19], [21, 22, 23]])
    np.testing.assert_array_equal(argmax.asnumpy()[0, 2], [[5, 6, 7], [9, 10, 11]])
    assert str(argmax.dtype) == "Int64"
    with pytest.raises(DTypeError, match="argmax_type"):
        ops.MaxPoolWithIndices(2, argmax_type=ms.float32)(x)
    with pytest.raises(ShapeError):
        ops.MaxPoolWithIndices(2)(Tensor(np.zeros((3, 4), np.float32)))


def test_max_pool_with_mask():
    x = distinct(1, 2, 4, 4)
    values, index = np_max_pool_indices(x, (2, 2), (2, 2), (0, 0), (1, 1), False)
    out, mask = ops.MaxPoolWithMask(2, 2)(Tensor(x))
    np.testing.assert_allclose(out.asnumpy(), values)
    mask = mask.asnumpy()
    assert mask.shape == (1, 2, 4, 4) and mask.dtype == np.uint8
    # one position per window; it is the argmax's place in its 2 x 2 window, row by row
    np.testing.assert_array_equal(mask.sum(axis=2), 1)
    rows, cols = index // 4, index % 4
    window_pos = (rows % 2) * 2 + cols % 2
    np.testing.assert_array_equal(mask.argmax(axis=2), window_pos.reshape(1, 2, 4))
    check_grads(lambda x: ops.MaxPoolWithMask(2, 2)(x)[0], (x,), order=2)


def test_softmax_cross_entropy_with_logits_primitive():
    logits = np.array([[2, 4, 1, 4, 5], [2, 1, 2, 4, 3]], np.float32)
    labels = np.array([[0, 0, 0, 0, 1], [0, 0, 0, 1, 0]], np.float32)
    loss, backprop = ops.operations.SoftmaxCrossEntropyWithLogits()(Tensor(logits),
                                                                     Tensor(labels))
    np.testing.assert_allclose(loss.asnumpy(), [0.5899297, 0.52374405], rtol=1e-6)
    np.testing.assert_allclose(backprop.asnumpy(), [
        [0.02760027, 0.20393994, 0.01015357, 0.20393994, -0.44563377],
        [0.08015892, 0.02948882, 0.08015892, -0.4077012, 0.21789455]], rtol=1e-5, atol=1e-7)
    with pytest.raises(DTypeError):
        ops.SoftmaxCrossEntropyWithLogits()(Tensor(logits.astype(np.float64)), Tensor(labels))
    with pytest.raises(ShapeError):
        ops.SoftmaxCrossEntropyWithLogits()(Tensor(logits), Tensor(labels[:, :3]))
