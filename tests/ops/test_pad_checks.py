"""ops.Pad, ops.MirrorPad and nn.Pad: MindSpore 2.10's values and its checks of the paddings
(no negative amounts, one pair per axis, up to 4 axes for nn.Pad, mirror amounts within the
axis)."""
import numpy as np
import pytest

import cellgraph
from cellgraph import Tensor, nn, ops

X = np.arange(9, dtype=np.float32).reshape(3, 3)
# ops.MirrorPad(mode)(X, [[1, 1], [2, 0]]) on MindSpore 2.10 CPU
MIRRORED = {
    "REFLECT": [[5, 4, 3, 4, 5], [2, 1, 0, 1, 2], [5, 4, 3, 4, 5], [8, 7, 6, 7, 8],
                [5, 4, 3, 4, 5]],
    "SYMMETRIC": [[1, 0, 0, 1, 2], [1, 0, 0, 1, 2], [4, 3, 3, 4, 5], [7, 6, 6, 7, 8],
                  [7, 6, 6, 7, 8]],
}


@pytest.mark.parametrize("mode", sorted(MIRRORED))
def test_mirror_pad_matches_mindspore(mode):
    paddings = Tensor(np.array([[1, 1], [2, 0]], np.int64))
    op = ops.MirrorPad(mode)
    for got in (op(Tensor(X), paddings), cellgraph.jit(lambda x: op(x, paddings))(Tensor(X))):
        np.testing.assert_array_equal(got.asnumpy(), MIRRORED[mode])
    layer = nn.Pad(((1, 1), (2, 0)), mode)
    np.testing.assert_array_equal(layer(Tensor(X)).asnumpy(), MIRRORED[mode])


@pytest.mark.parametrize("call, error, message", [
    (lambda: ops.Pad(((0, 0), (-1, -1)))(Tensor(X)), ValueError,
     r"all elements of 'paddings' must be >= 0, but got paddings\[1\]\[0\] = -1"),
    (lambda: ops.Pad(((0, 0), (1, 1), (1, 1)))(Tensor(X)), ValueError,
     "length of 'paddings' must be equal to the rank of 'input_x', but got 3 vs 2"),
    (lambda: ops.MirrorPad()(Tensor(X), Tensor(np.array([[0, 0], [-1, 1]]))), ValueError,
     "all elements of paddings must be >= 0"),
    (lambda: ops.MirrorPad()(Tensor(X), Tensor(np.array([[1, 1], [3, 0]]))), ValueError,
     r"no greater than the dimension size: \[3\], \[0\] not less than \[3\]"),
    (lambda: ops.MirrorPad("SYMMETRIC")(Tensor(X), Tensor(np.array([[1, 1], [4, 0]]))),
     ValueError, r"\[4\], \[0\] greater than \[3\]"),
    (lambda: ops.MirrorPad("X"), ValueError, "must be in"),
    (lambda: ops.MirrorPad()(Tensor(X), Tensor(np.ones((2, 2), np.float32))), TypeError,
     r"Tensor\[Float32\]"),
    (lambda: ops.MirrorPad()(Tensor(X), ((1, 1), (1, 1))), TypeError, "must be Tensor"),
    (lambda: nn.Pad(((0, 0), (-1, -1)))(Tensor(X)), ValueError, "must be >= 0"),
    (lambda: nn.Pad(((0, 0), (-1, 1)), "REFLECT")(Tensor(X)), ValueError,
     "For 'MirrorPad', all elements of paddings must be >= 0"),
    (lambda: nn.Pad(((0, 0), (1, 0)))(Tensor(X[0])), ValueError, "but got 2 vs 1"),
    (lambda: nn.Pad([(0, 0), (1, 1)]), TypeError, "must be tuple, but got list"),
    (lambda: nn.Pad((0, 2)), TypeError, "has no len"),
    (lambda: nn.Pad(((0, 0), (1, 1, 1))), ValueError, r"must be \(n, 2\)"),
    (lambda: nn.Pad(((0, 0),) * 5), ValueError, "up to 4 dims"),
    (lambda: nn.Pad(((0, 0), (1, 1)), mode="constant"), ValueError, "must be in"),
])
def test_pad_checks_as_mindspore(call, error, message):
    with pytest.raises(error, match=message):
        call()
