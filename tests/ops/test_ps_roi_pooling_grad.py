"""`_grad_ops.PSROIPoolingGrad`: position-sensitive ROI pooling's gradient, its attribute and
operand checks, against MindSpore 2.10's CPU values and errors (recorded here)."""
import numpy as np
import pytest

import cellgraph as cg
from cellgraph import Tensor, nn
from cellgraph.ops.operations import _grad_ops as G

# rois (B=2, 5, R=2): (batch index, x1, y1, x2, y2) per roi; negative, rounded and
# out-of-image corners; roi order is batch-major
ROIS = np.array([[[0., 1.], [-3., 1.], [1., 3.], [5., 9.], [7., 11.]],
                 [[1., 0.], [2., 4.], [0., 4.], [9., 5.], [12., 4.2]]], np.float32)
DY = (np.arange(16).reshape(4, 1, 2, 2) + 1).astype(np.float32)
T, H = 1 / 3, 2 / 3
# MindSpore 2.10's output (2, 4, 6, 5), listed as {(batch, channel): {(row, col): value}}
EXPECTED = {
    (0, 0): {(1, 0): 0.5, (2, 0): 0.5, (2, 2): 13.0},
    (0, 1): {(1, 0): T, (1, 1): T, (1, 2): T, (2, 0): T, (2, 1): T, (2, 2): 14 + T},
    (0, 2): {(2, 0): 1.5, (3, 0): 1.5, (2, 2): 15.0},
    (0, 3): {(2, 0): H, (2, 1): H, (2, 2): 16 + H, (3, 0): H, (3, 1): H, (3, 2): H},
    (1, 0): {(0, 1): 1.5, (0, 2): 1.5, (1, 1): 1.5, (1, 2): 1.5, (2, 1): 2.75, (2, 2): 2.75,
             (3, 1): 1.25, (3, 2): 1.25},
    (1, 1): {(0, 3): 5 / 3, (0, 4): 5 / 3, (1, 3): 5 / 3, (1, 4): 5 / 3, (2, 3): 3 + 1 / 6,
             (2, 4): 3 + 1 / 6, (3, 3): 1.5, (3, 4): 1.5},
    (1, 2): {(3, 1): 1 + 5 / 6, (3, 2): 1 + 5 / 6, (4, 1): 3 + 7 / 12, (4, 2): 3 + 7 / 12,
             (5, 1): 3 + 7 / 12, (5, 2): 3 + 7 / 12},
    (1, 3): {(3, 3): 2.0, (3, 4): 2.0, (4, 3): 4.0, (4, 4): 4.0, (5, 3): 4.0, (5, 4): 4.0},
}


def _expected():
    out = np.zeros((2, 4, 6, 5), np.float32)
    for (b, c), cells in EXPECTED.items():
        for (h, w), value in cells.items():
            out[b, c, h, w] = value
    return out


def _op():
    return G.PSROIPoolingGrad(input_size=(6, 5), spatial_scale=0.5, group_size=2, output_dim=1)


def test_values_eager_and_in_a_graph():
    out = _op()(Tensor(DY), Tensor(ROIS))
    assert out.shape == (2, 4, 6, 5) and out.dtype == cg.float32
    np.testing.assert_allclose(out.asnumpy(), _expected(), rtol=1e-5, atol=1e-6)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.grad = _op()

        def construct(self, dy, rois):
            return self.grad(dy, rois)

    cg.set_context(mode=cg.GRAPH_MODE)
    try:
        out = Net()(Tensor(DY), Tensor(ROIS))
    finally:
        cg.set_context(mode=cg.PYNATIVE_MODE)
    np.testing.assert_allclose(out.asnumpy(), _expected(), rtol=1e-5, atol=1e-6)


def test_square_input_size_from_an_int():
    op = G.PSROIPoolingGrad(input_size=3, spatial_scale=1.0, group_size=1, output_dim=1)
    assert op.input_size == [3, 3]
    rois = np.array([[[0.], [0.], [1.], [1.], [2.]]], np.float32)
    out = op(Tensor(np.full((1, 1, 1, 1), 4.0, np.float32)), Tensor(rois)).asnumpy()
    expected = np.zeros((1, 1, 3, 3), np.float32)
    expected[0, 0, 1, 0] = 4.0  # (x1, y1, x2, y2) = (0, 1, 1, 2): the one pixel at row 1, col 0
    np.testing.assert_allclose(out, expected)


@pytest.mark.parametrize("name, value, error", [
    ("input_size", 1.1, TypeError), ("input_size", (1, 1.1), TypeError),
    ("input_size", [2, 2], TypeError), ("input_size", -1, ValueError),
    ("input_size", (100, -1), ValueError), ("spatial_scale", object(), TypeError),
    ("spatial_scale", 0, TypeError), ("spatial_scale", -0.15, ValueError),
    ("group_size", 7.1, TypeError), ("group_size", True, TypeError),
    ("group_size", -1, ValueError), ("output_dim", 7.1, TypeError),
    ("output_dim", -1, ValueError),
])
def test_attribute_checks(name, value, error):
    kwargs = {"input_size": 100, "spatial_scale": 1 / 16, "group_size": 7, "output_dim": 3}
    kwargs[name] = value
    with pytest.raises(error, match=name):
        G.PSROIPoolingGrad(**kwargs)


def test_operand_checks():
    op = _op()
    one = Tensor([1.0], cg.float32)
    with pytest.raises(ValueError, match="input number must be equal to 2, but got 3"):
        op(one, one, one)
    with pytest.raises(TypeError, match=r"must be a type of \{Tensor\[Float32\]\}, but got "
                                        r"Tensor\[Float64\]"):
        op(Tensor([1.0], cg.float64), Tensor([1.0], cg.float64))
    with pytest.raises(TypeError, match="must be Tensor but got Float32"):
        op(1.0, one)
    with pytest.raises(TypeError, match=r"Tensor\[Float16\]"):
        op(Tensor(DY.astype(np.float16)), Tensor(ROIS.astype(np.float16)))


def test_shape_checks():
    op, rois = _op(), Tensor(ROIS)
    with pytest.raises(RuntimeError, match=r"input\[0\].shape\[0\]\(5\) should be equal to "
                                           r"input\[1\].shape\[0\]\(2\) \* input\[1\].shape\[2\]"):
        op(Tensor(np.ones((5, 1, 2, 2), np.float32)), rois)
    with pytest.raises(ValueError, match="channel of input feature is invalid, got: 2, must be "
                                         "equal to output_dim: 1"):
        op(Tensor(np.ones((4, 2, 2, 2), np.float32)), rois)
    with pytest.raises(RuntimeError, match=r"input\[0\].shape\[3\]\(3\) should be equal to "
                                           r"group_size\(2\)"):
        op(Tensor(np.ones((4, 1, 2, 3), np.float32)), rois)
    with pytest.raises(RuntimeError, match=r"rank of input\[1\] should be 3"):
        op(Tensor(DY), Tensor(np.ones((4, 5), np.float32)))
