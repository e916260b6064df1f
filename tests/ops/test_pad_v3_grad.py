"""G.PadV3Grad, PadV3's gradient in modes reflect, edge and circular, against MindSpore 2.10:
each padded position's gradient added onto the input position it was read from (values and
errors recorded from it)."""
from __future__ import annotations

import numpy as np
import pytest

from cellgraph import Tensor, nn
from cellgraph.ops.operations import _grad_ops as G

X4 = np.arange(2 * 3 * 5 * 6).reshape(2, 3, 5, 6).astype(np.float32)
X3 = np.arange(16).reshape(1, 2, 8).astype(np.float64)


class Net(nn.Cell):
    def __init__(self, mode, contiguous=True):
        super().__init__()
        self.op = G.PadV3Grad(mode, contiguous)

    def construct(self, x, paddings):
        return self.op(x, paddings)


# MindSpore 2.10's outputs: shape, the first eight values (the sums are all 16110)
@pytest.mark.parametrize("mode, paddings, contiguous, shape, head", [
    ("reflect", (1, 2, 1, 0), True, (2, 3, 4, 3), [18, 24, 9, 36, 48, 18, 42, 60]),
    ("edge", (1, 2, 1, 0), True, (2, 3, 4, 3), [14, 10, 42, 25, 14, 48, 37, 20]),
    ("edge", (2, 1, 0, 2), False, (2, 3, 2, 4), [24, 12, 14, 16, 171, 63, 66, 69]),
    ("circular", (1, 2, 1, 0), True, (2, 3, 4, 3), [17, 19, 15, 29, 31, 27, 41, 43]),
    ("circular", (2, 1, 0, 2), False, (2, 3, 2, 4), [28, 30, 56, 60, 42, 45, 84, 90]),
])
def test_four_dims_as_mindspore(mode, paddings, contiguous, shape, head):
    out = Net(mode, contiguous)(Tensor(X4), Tensor(np.array(paddings, np.int64))).asnumpy()
    assert out.shape == shape and out.dtype == np.float32
    np.testing.assert_array_equal(out.reshape(-1)[:8], head)
    assert out.sum() == X4.sum()


@pytest.mark.parametrize("mode, expected", [
    ("reflect", [[[2, 4, 4, 12, 6], [10, 20, 20, 28, 14]]]),
    ("edge", [[[3, 3, 4, 5, 13], [27, 11, 12, 13, 29]]]),
    ("circular", [[[9, 3, 4, 5, 7], [25, 11, 12, 21, 23]]]),
])
def test_three_dims_as_mindspore(mode, expected):
    out = Net(mode)(Tensor(X3), Tensor(np.array([2, 1], np.int32)))
    assert out.asnumpy().dtype == np.float64
    np.testing.assert_array_equal(out.asnumpy(), expected)


def test_five_dims_circular():
    """MindSpore's own test: paddings (1, 0, 1, 1, 2, 1) over a (1, 1, 5, 4, 4) gradient."""
    x = np.arange(80).reshape(1, 1, 5, 4, 4).astype(np.float64)
    out = G.PadV3Grad("circular")(Tensor(x), Tensor(np.array([1, 0, 1, 1, 2, 1], np.int64)))
    np.testing.assert_array_equal(out.asnumpy(), [[[[[246, 252, 498], [222, 228, 450]],
                                                     [[164, 168, 332], [148, 152, 300]]]]])


def test_errors_as_mindspore():
    with pytest.raises(ValueError, match="the 'mode' must be str and must be in"):
        G.PadV3Grad("constant")
    with pytest.raises(TypeError, match="the 'paddings_contiguous' must be a bool"):
        G.PadV3Grad("reflect", 1)
    with pytest.raises(ValueError, match="the input dims when padding's size equal 2 must be "
                                         "equal to 4, but got 3"):
        G.PadV3Grad("edge")(Tensor(X4), Tensor(np.array([1, 1], np.int64)))
    with pytest.raises(ValueError, match="the length of paddings must be 2, 4 or 6"):
        G.PadV3Grad("edge")(Tensor(X4), Tensor(np.ones(8, np.int64)))
