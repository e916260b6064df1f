"""ops.fold / Tensor.fold (MindSpore's Col2Im): columns summed back into an image of
`output_size` (an integer Tensor), the adjoint of unfold; MindSpore 2.10's values and errors."""
from __future__ import annotations

import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops

X = np.arange(2 * 8 * 9, dtype=np.float32).reshape(2, 8, 9)


def test_values_as_mindspore():
    size = Tensor(np.array([4, 4], np.int32))
    for out in (ops.fold(Tensor(X), size, kernel_size=2, padding=1, stride=2),
                Tensor(X).fold(size, 2, 1, 1, 2)):
        assert out.shape == (2, 2, 4, 4) and out.dtype == ms.float32
        # MindSpore 2.10: the first ten values and the sum
        np.testing.assert_array_equal(out.asnumpy().reshape(-1)[:10],
                                      [27, 19, 28, 20, 12, 4, 13, 5, 30, 22])
        assert float(out.asnumpy().sum()) == 4576.0


def test_is_the_adjoint_of_unfold():
    rng = np.random.default_rng(0)
    image, columns = rng.standard_normal((1, 3, 6, 5)), rng.standard_normal((1, 12, 42))
    size = Tensor(np.array([6, 5], np.int64))
    folded = ops.fold(Tensor(columns), size, 2, dilation=1, padding=1, stride=1).asnumpy()
    unfolded = ops.unfold(Tensor(image), 2, dilation=1, padding=1, stride=1).asnumpy()
    np.testing.assert_allclose((folded * image).sum(), (unfolded * columns).sum(), rtol=1e-10)


def test_in_a_graph():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.size = Tensor(np.array([8, 8], np.int32))

        def construct(self, x):
            return ops.fold(x, self.size, [2, 2], [2, 2], [2, 2], [2, 2])

    assert Net()(Tensor(np.ones((16, 64, 25), np.float32))).shape == (16, 16, 8, 8)


@pytest.mark.parametrize("size, error, message", [
    ((4, 4), TypeError, (r"For Primitive\[Col2Im\], the type of input argument\[output_size\] "
                        r"must be Tensor but got Tuple\[Int64\*2\]\.")),
    (Tensor(np.array([6, -1], np.int32)), ValueError,
     r"the value of 'output_size' must not be negative"),
])
def test_errors_as_mindspore(size, error, message):
    with pytest.raises(error, match=message):
        ops.fold(Tensor(X), size, 2)
