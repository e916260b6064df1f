"""ops.CombinedNonMaxSuppression: per image and class MindSpore's CPU kernel's greedy NMS, the
classes' picks merged by score. Expected values are MindSpore 2.10's (CPU), recorded as literals
(rounded to 5 places) for inputs drawn from NumPy's legacy RandomState(0)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn, ops


def _inputs():
    rng = np.random.RandomState(0)
    corner = rng.rand(2, 6, 1, 2).astype(np.float32)
    boxes = np.concatenate([corner, corner + rng.rand(2, 6, 1, 2).astype(np.float32) * 0.6],
                           -1) * 1.2 - 0.1
    boxes[0, 2, 0] = boxes[0, 1, 0] + 0.01
    boxes[1, 3, 0] = [0.9, 0.9, 0.2, 0.3]  # corners swapped
    scores = rng.rand(2, 6, 3).astype(np.float32)
    scores[0, 4, 1] = scores[0, 0, 1]  # a tie
    per_class = np.concatenate([boxes, boxes[..., ::-1] * 0.9, boxes * 0.8 + 0.05],
                               2).astype(np.float32)
    return boxes.astype(np.float32), per_class, scores


BOXES, CLASS_BOXES, SCORES = _inputs()
CASES = [
    (False, False, True, 3, 5, 0.5, 0.2, [[[[0.62332, 0.55386, 0.72653, 1.0], [1.0, 0.36013, 1.0, 0.7694], [0.63332, 0.56386, 0.73653, 1.0], [0.55858, 0.75823, 0.64373, 1.0], [0.4251, 0.97013, 0.61558, 1.0]], [[0.0, 0.89914, 0.18311, 1.0], [0.0, 0.00456, 0.66474, 0.49547], [0.58165, 1.0, 1.0, 1.0], [0.58165, 1.0, 1.0, 1.0], [0.0, 0.89914, 0.18311, 1.0]]], [[0.98837, 0.65633, 0.65311, 0.5702, 0.46631], [0.97676, 0.97646, 0.83794, 0.82099, 0.73926]], [[1.0, 2.0, 2.0, 2.0, 1.0], [0.0, 1.0, 2.0, 0.0, 2.0]], [5.0, 5.0]]),
    (False, True, True, 2, 20, 0.5, 0.2, [[[[0.62332, 0.55386, 0.72653, 1.0], [1.0, 0.36013, 1.0, 0.7694], [0.63332, 0.56386, 0.73653, 1.0], [0.4251, 0.97013, 0.61558, 1.0], [0.62332, 0.55386, 0.72653, 1.0], [0.55858, 0.75823, 0.64373, 1.0]], [[0.0, 0.89914, 0.18311, 1.0], [0.0, 0.00456, 0.66474, 0.49547], [0.58165, 1.0, 1.0, 1.0], [0.58165, 1.0, 1.0, 1.0], [0.0, 0.89914, 0.18311, 1.0], [0.0, 0.89914, 0.18311, 1.0]]], [[0.98837, 0.65633, 0.65311, 0.46631, 0.4386, 0.31543], [0.97676, 0.97646, 0.83794, 0.82099, 0.73926, 0.60485]], [[1.0, 2.0, 2.0, 1.0, 0.0, 0.0], [0.0, 1.0, 2.0, 0.0, 2.0, 1.0]], [6.0, 6.0]]),
    (False, False, False, 6, 8, 0.1, 0.0, [[[[0.62332, 0.55386, 0.72653, 1.23402], [1.0564, 0.36013, 1.38482, 0.7694], [0.63332, 0.56386, 0.73653, 1.24402], [0.55858, 0.75823, 0.64373, 1.21897], [0.4251, 0.97013, 0.61558, 1.52758], [0.62332, 0.55386, 0.72653, 1.23402], [0.85007, 0.53467, 0.8636, 0.97937], [1.0564, 0.36013, 1.38482, 0.7694]], [[-0.07574, 0.89914, 0.18311, 1.21381], [-0.01476, 0.00456, 0.66474, 0.49547], [0.58165, 1.01072, 1.02236, 1.45491], [0.58165, 1.01072, 1.02236, 1.45491], [-0.07574, 0.89914, 0.18311, 1.21381], [0.45378, 0.83664, 0.60525, 0.92946], [-0.07574, 0.89914, 0.18311, 1.21381], [-0.01476, 0.00456, 0.66474, 0.49547]]], [[0.98837, 0.65633, 0.65311, 0.5702, 0.46631, 0.4386, 0.36873, 0.36371], [0.97676, 0.97646, 0.83794, 0.82099, 0.73926, 0.69247, 0.60485, 0.46865]], [[1.0, 2.0, 2.0, 2.0, 1.0, 0.0, 2.0, 1.0], [0.0, 1.0, 2.0, 0.0, 2.0, 2.0, 1.0, 2.0]], [8.0, 8.0]]),
    (True, False, True, 2, 4, 0.3, 0.2, [[[[1.0, 0.65388, 0.49847, 0.56098], [0.89512, 0.3381, 1.0, 0.66552], [0.55665, 0.50109, 0.63922, 1.0], [1.0, 0.55403, 0.87311, 0.38259]], [[0.0, 0.89914, 0.18311, 1.0], [0.44592, 0.59827, 0.0041, 0.0], [0.51532, 0.85857, 0.86789, 1.0], [0.58165, 1.0, 1.0, 1.0]]], [[0.98837, 0.65633, 0.65311, 0.46631], [0.97676, 0.97646, 0.83794, 0.82099]], [[1.0, 2.0, 2.0, 1.0], [0.0, 1.0, 2.0, 0.0]], [4.0, 4.0]]),
    (True, True, False, 1, 2, 1.0, 0.5, [[[[1.11062, 0.65388, 0.49847, 0.56098], [0.89512, 0.3381, 1.15786, 0.66552]], [[-0.07574, 0.89914, 0.18311, 1.21381], [0.44592, 0.59827, 0.0041, -0.01328]]], [[0.98837, 0.65633], [0.97676, 0.97646]], [[1.0, 2.0], [0.0, 1.0]], [2.0, 2.0]]),
]


def _call(op, boxes, per, total, iou, score):
    i32, f32 = cg.int32, cg.float32
    return op(Tensor(boxes), Tensor(SCORES), Tensor(per, i32), Tensor(total, i32),
              Tensor(iou, f32), Tensor(score, f32))


@pytest.mark.parametrize("class_boxes, pad, clip, per, total, iou, score, expected", CASES)
def test_as_mindspore(class_boxes, pad, clip, per, total, iou, score, expected):
    out = _call(ops.CombinedNonMaxSuppression(pad, clip), CLASS_BOXES if class_boxes else BOXES,
                per, total, iou, score)
    assert [o.dtype for o in out] == [cg.float32] * 3 + [cg.int32]
    for got, want in zip(out, expected):
        np.testing.assert_allclose(got.asnumpy(), want, atol=1e-5)


def test_in_a_graph():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.nms = ops.CombinedNonMaxSuppression()

        def construct(self, *args):
            return self.nms(*args)

    cg.set_context(mode=cg.GRAPH_MODE)
    try:
        out = _call(Net(), BOXES, 3, 5, 0.5, 0.2)
    finally:
        cg.set_context(mode=cg.PYNATIVE_MODE)
    for got, want in zip(out, CASES[0][-1]):
        np.testing.assert_allclose(got.asnumpy(), want, atol=1e-5)


def test_errors():
    op = ops.CombinedNonMaxSuppression()
    with pytest.raises(ValueError, match="the max_total_size must be greater than 0, but got 0"):
        _call(op, BOXES, 3, 0, 0.5, 0.2)
    with pytest.raises(ValueError, match=r"iou_threshold must be in \[0,1\], but got 1.5"):
        _call(op, BOXES, 3, 5, 1.5, 0.2)
    with pytest.raises(ValueError, match="max_output_size_per_clas must be greater than 0"):
        _call(op, BOXES, -1, 5, 0.5, 0.2)
    with pytest.raises(ValueError, match="the boxes dim must be equal to 4, but got 3"):
        _call(op, BOXES[0], 3, 5, 0.5, 0.2)
    with pytest.raises(TypeError, match=r"argument\[max_output_size_per_class\].*Tensor\[Int64\]"):
        op(Tensor(BOXES), Tensor(SCORES), Tensor(2, cg.int64), Tensor(2, cg.int32),
           Tensor(0.5, cg.float32), Tensor(0.1, cg.float32))
    with pytest.raises(TypeError, match="the type of 'pad_per_class' should be 'bool'"):
        ops.CombinedNonMaxSuppression(1)


def test_non_max_suppression_with_overlaps_as_mindspore():
    rng = np.random.RandomState(1)
    overlaps = Tensor(rng.rand(8, 8).astype(np.float32))
    scores = Tensor(rng.rand(8).astype(np.float32))
    cases = {(6, 0.5, 0.1): [4, 6, 1], (2, 0.9, 0.0): [4, 6], (8, 0.3, 0.5): [4, 6, 1],
             (0, 0.5, 0.1): [], (8, 1.0, 0.0): [4, 6, 2, 5, 1, 3, 7, 0]}
    for (size, overlap, score), want in cases.items():
        out = ops.NonMaxSuppressionWithOverlaps()(overlaps, scores, Tensor(size, cg.int32),
                                                  Tensor(overlap, cg.float32),
                                                  Tensor(score, cg.float32))
        assert out.dtype == cg.int32 and out.asnumpy().tolist() == want
    with pytest.raises(ValueError, match="max_output_size must be non-negative"):
        ops.NonMaxSuppressionWithOverlaps()(overlaps, scores, Tensor(-1, cg.int32),
                                            Tensor(0.5, cg.float32), Tensor(0.1, cg.float32))
    docstring = ops.NonMaxSuppressionWithOverlaps()(
        Tensor(np.array([[0.6964692, 0.28613934, 0.22685145, 0.5513148],
                         [0.71946895, 0.42310646, 0.9807642, 0.6848297],
                         [0.4809319, 0.39211753, 0.343178, 0.7290497],
                         [0.43857226, 0.059677895, 0.39804426, 0.7379954]]), cg.float32),
        Tensor(np.array([0.18249173, 0.17545176, 0.53155136, 0.53182757]), cg.float32),
        Tensor(4, cg.int32), Tensor(0.1, cg.float32), Tensor(0.2, cg.float32))
    assert docstring.asnumpy().tolist() == [3]
