"""ops.bounding_box_encode / bounding_box_decode / check_valid and their classes against
MindSpore 2.10's CPU kernels: values recorded from it (bit for bit in float16; in float32 up to the last bit of an
exp or log, where NumPy's and the C library's differ), and its option errors."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, ops
from cellgraph.ops import operations as P

ANCHOR = np.array([[4.5, 1.0, 20.0, 9.5], [2.0, 2.0, 2.0, 3.0], [0.0, 3.5, 11.0, 30.0]],
                  np.float32)
DELTAS = np.array([[0.3, -1.0, 2.0, -0.5], [1.0, 2.0, -4.0, 4.0], [-0.25, 0.5, 0.75, 1.5]],
                  np.float32)
TRUTH = np.array([[5.0, 0.5, 18.0, 12.0], [1.0, 2.0, 1.0, 4.0], [1.5, 3.0, 10.0, 28.5]],
                 np.float32)
OPTIONS = {"means": (0.1, -0.2, 0.3, 0.0), "stds": (1.5, 0.5, 2.0, 1.0)}
# MindSpore 2.10's results, as the bits of each float
RECORDED = {
    (np.float32, "decode"): [[0, 0, 1106247680, 1065034792],
                             [1082287718, 0, 1078460416, 1102892237],
                             [0, 0, 1106247680, 1109393408]],
    (np.float32, "encode"): [[3183908877, 1058818932, 3194861856, 1049395964],
                             [3208362940, 1063675494, 3189348762, 1053792543],
                             [3176672643, 1051168843, 3196623612, 3172448414]],
    (np.float16, "decode"): [[0, 0, 20352, 15316], [17427, 0, 16960, 19942],
                             [0, 0, 20352, 20736]],
    (np.float16, "encode"): [[44596, 14562, 45934, 13411], [47581, 15155, 45261, 13949],
                             [43713, 13628, 46149, 43190]],
}
BITS = {np.float32: np.uint32, np.float16: np.uint16}


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_values_are_mindspores(dtype):
    decode = P.BoundingBoxDecode((40, 30), wh_ratio_clip=0.05, **OPTIONS)
    encode = P.BoundingBoxEncode(**OPTIONS)
    got = {"decode": decode(Tensor(ANCHOR.astype(dtype)), Tensor(DELTAS.astype(dtype))),
           "encode": encode(Tensor(ANCHOR.astype(dtype)), Tensor(TRUTH.astype(dtype)))}
    for kind, out in got.items():
        assert out.asnumpy().dtype == dtype
        expected = np.array(RECORDED[(dtype, kind)], BITS[dtype]).view(dtype)
        if dtype == np.float32:  # one ulp: exp and log
            np.testing.assert_allclose(out.asnumpy(), expected, rtol=3e-7)
        else:
            np.testing.assert_array_equal(out.asnumpy(), expected)
    functional = ops.bounding_box_decode(Tensor(ANCHOR.astype(dtype)),
                                         Tensor(DELTAS.astype(dtype)), (40, 30),
                                         wh_ratio_clip=0.05, **OPTIONS)
    np.testing.assert_array_equal(functional.asnumpy(), got["decode"].asnumpy())


def test_mindspores_examples_on_cpu():
    anchor = Tensor(np.array([[4, 1, 2, 1], [2, 2, 2, 3]], np.float32))
    deltas = Tensor(np.array([[3, 1, 2, 2], [1, 2, 1, 4]], np.float32))
    np.testing.assert_allclose(ops.bounding_box_decode(anchor, deltas, max_shape=(768, 1280))
                               .asnumpy(), [[4.194528102874756, 0, 0, 5.194528102874756],
                                            [2.1408591270446777, 0, 3.8591408729553223,
                                             60.598148345947266]], rtol=3e-7)
    anchor = Tensor(np.array([[2, 2, 2, 3], [2, 2, 2, 3]], np.float32))
    truth = Tensor(np.array([[1, 2, 1, 4], [1, 2, 1, 4]], np.float32))
    np.testing.assert_allclose(ops.bounding_box_encode(anchor, truth).asnumpy(),
                               [[-1, 0.25, 0, 0.40546509623527527]] * 2, rtol=1e-7)


@pytest.mark.parametrize("options, error, message", [
    ({"max_shape": [1, 2]}, TypeError, "the type of 'max_shape' should be 'tuple'"),
    ({"max_shape": (1, 2, 3)}, ValueError, "the 'max_shape len' must be int and must = 2"),
    ({"max_shape": (1, 2), "means": (0, 0, 0, 0)}, TypeError,
     r"the type of 'means\[0\]' should be 'float', but got type 'int'"),
    ({"max_shape": (1, 2), "wh_ratio_clip": 1}, TypeError,
     "the type of 'wh_ratio_clip' should be 'float'"),
    ({"max_shape": (1, 2), "stds": (1.0, 1.0)}, ValueError,
     "the 'stds len' must be int and must = 4"),
])
def test_options_are_checked_when_the_class_is_made(options, error, message):
    with pytest.raises(error, match=message):
        P.BoundingBoxDecode(**options)


@pytest.mark.parametrize("anchor, truth, error, message", [
    (np.ones((2, 4), np.float32), np.ones((3, 4), np.float32), ValueError,
     "must have the same first dimension"),
    (np.ones((2, 5), np.float32), np.ones((2, 5), np.float32), ValueError,
     "'anchor_box' last dimension must be 4, but got: 5"),
    (np.ones((2, 4), np.float64), np.ones((2, 4), np.float64), TypeError, "float16 or float32"),
    (np.ones((2, 4), np.float32), np.ones((2, 4), np.float16), TypeError, "dtype"),
])
def test_inputs_are_checked(anchor, truth, error, message):
    with pytest.raises(error, match=message):
        P.BoundingBoxEncode()(Tensor(anchor), Tensor(truth))


def test_decode_needs_max_shape_when_it_runs():
    # MindSpore makes the class with max_shape=None and fails when it runs (RuntimeError)
    decode = P.BoundingBoxDecode(None)
    with pytest.raises(RuntimeError, match="max_shape"):
        decode(Tensor(ANCHOR), Tensor(DELTAS))


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int16])
def test_check_valid_as_mindspore(dtype):
    # MindSpore 2.10 CPU: [True, False, False, True, True] in each dtype
    boxes = np.array([[0, 0, 9, 9], [-1, 0, 5, 5], [0, 0, 10, 5], [0, 0, 5, 10.5],
                      [3, 2, 9.4, 10.49]], np.float32)
    metas = np.array([11, 10, 1.05], np.float32)
    for check in (P.CheckValid(), ops.check_valid):
        out = check(Tensor(boxes.astype(dtype)), Tensor(metas.astype(dtype)))
        assert out.dtype == cellgraph.bool_
        assert out.asnumpy().tolist() == [True, False, False, True, True]
    # uint8 metas: width * ratio - 1 = 201 in float64, no uint8 overflow
    out = ops.check_valid(Tensor(np.array([[0, 0, 200, 100]], np.uint8)),
                          Tensor(np.array([51, 101, 2], np.uint8)))
    assert out.asnumpy().tolist() == [True]


@pytest.mark.parametrize("boxes, metas, error, message", [
    (np.ones((2, 5), np.float32), np.ones(3, np.float32), ValueError,
     "the last dimension of 'bboxes' must equal to 4, but got: 5."),
    (np.ones((2, 4), np.float32), np.ones(4, np.float32), ValueError,
     "the first dimension of 'img_metas' must equal to 3, but got: 4."),
    (np.ones((2, 4), np.float64), np.ones(3, np.float64), TypeError, "Float64"),
    (np.ones((2, 4), np.int32), np.ones(3, np.int32), TypeError, "Int32"),
])
def test_check_valid_checks_its_inputs(boxes, metas, error, message):
    with pytest.raises(error, match=message):
        P.CheckValid()(Tensor(boxes), Tensor(metas))


# ops.IOU / ops.iou: MindSpore 2.10's CPU results for gt boxes TRUTH + one far box over the
# anchors ANCHOR, as the bits of each value ((M, N) = (4, 3))
IOU_TRUTH = np.concatenate([TRUTH, [[40.0, 40.0, 41.0, 41.0]]]).astype(np.float32)
IOU_BITS = {
    ("iou", np.float16): [[14682, 0, 12506], [0, 0, 7330], [12374, 7181, 14822], [0, 0, 0]],
    ("iou", np.float32): [[1059803017, 0, 1041976069], [0, 0, 999572865],
                          [1040892758, 998352217, 1060955305], [0, 0, 0]],
    ("iou", np.float64): [[4604202678669200689, 0, 4594631908549966570],
                          [0, 0, 4571866861541042669],
                          [4594050310366071227, 4571211531568545025, 4604821308315762930],
                          [0, 0, 0]],
    ("iof", np.float16): [[14868, 0, 13844], [0, 0, 14336], [12850, 7185, 15321], [0, 0, 0]],
    ("iof", np.float32): [[1061326684, 0, 1052938076], [0, 0, 1056964608],
                          [1044794046, 998385967, 1065036665], [0, 0, 0]],
    ("iof", np.float64): [[4605020690978875659, 0, 4600517091351505163],
                          [0, 0, 4602678819172346672],
                          [4596144798263420412, 4571229650771781808, 4607012471644264068],
                          [0, 0, 0]],
}
_BITS = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}


@pytest.mark.parametrize("mode, dtype", list(IOU_BITS))
def test_iou_bit_for_bit_as_mindspore(mode, dtype):
    anchors, truths = Tensor(ANCHOR.astype(dtype)), Tensor(IOU_TRUTH.astype(dtype))
    for out in (P.IOU(mode)(anchors, truths), ops.iou(anchors, truths, mode)):
        assert out.asnumpy().dtype == dtype
        np.testing.assert_array_equal(out.asnumpy().view(_BITS[dtype]), IOU_BITS[(mode, dtype)])


def test_iou_errors_as_mindspore():
    anchors, truths = Tensor(ANCHOR), Tensor(IOU_TRUTH)
    with pytest.raises(KeyError, match="only 'iou' or 'iof' are supported, but got 'mode': x"):
        P.IOU("x")
    with pytest.raises(ValueError, match=r"the anchor_boxes.shape\[1\] must be equal to 4, but "
                                         r"got 3"):
        ops.iou(Tensor(ANCHOR[:, :3]), truths)
    with pytest.raises(TypeError, match=r"must be a type of \{Tensor\[Float16\], "
                                        r"Tensor\[Float32\], Tensor\[Float64\]\}, but got "
                                        r"Tensor\[Int32\]"):
        ops.iou(Tensor(ANCHOR.astype(np.int32)), Tensor(IOU_TRUTH.astype(np.int32)))
    with pytest.raises(TypeError, match="the input type must be same"):
        ops.iou(anchors, Tensor(IOU_TRUTH.astype(np.float16)))
