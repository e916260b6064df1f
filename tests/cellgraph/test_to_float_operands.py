"""Cell.to_float in PyNative mode: every operation run inside the Cell takes its float Tensor
operands in the Cell's dtype, Tensors the Cell makes itself included (MindSpore's PyNative
executor casts each operator's inputs). Expected values are MindSpore 2.10's."""
import numpy as np
import pytest

import cellgraph as ms
import cellgraph.numpy as mnp
from cellgraph import Tensor, nn, ops

X = np.array([[0.3, 0.4], [1e-20, 2.0]], np.float32)


@pytest.fixture(autouse=True)
def _pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)  # the suite's conftest restores graph mode after


class ClampMin(nn.Cell):
    """A floor made of a float32 array the Cell creates: float32 arithmetic outside to_float."""

    def construct(self, x, low):
        below = x <= low
        return x * (x >= low) + mnp.ones(x.shape) * low * below


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.clamp = ClampMin()

    def construct(self, x):
        floor = self.clamp(x, 1e-3)
        return floor / ops.sqrt(Tensor(3.0, ms.float32)) + x.astype(ms.float32)


def test_values_made_inside_the_cell_follow_its_dtype():
    assert ClampMin()(Tensor(X), 1e-3).dtype == ms.float32
    out = ClampMin().to_float(ms.float16)(Tensor(X), 1e-3)
    assert out.dtype == ms.float16
    np.testing.assert_array_equal(out.asnumpy(),
                                  np.array([[0.3, 0.4], [1e-3, 2.0]], np.float16))


def test_nested_cells_and_casts_inside():
    plain = Scale()(Tensor(X))
    assert plain.dtype == ms.float32
    half = Scale().to_float(ms.float16)(Tensor(X))
    # x.astype(float32) is cast back to float16 by the addition that reads it
    assert half.dtype == ms.float16
    expected = (np.array([[0.3, 0.4], [1e-3, 2.0]], np.float16) / np.float16(np.sqrt(3.0))
                + X.astype(np.float16))
    np.testing.assert_allclose(half.asnumpy().astype(np.float32), expected.astype(np.float32),
                               rtol=1e-3)


def test_float32_cell_inside_a_float16_one():
    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = ClampMin().to_float(ms.float32)

        def construct(self, x):
            return self.inner(x * 1.0, 1e-3)

    net = Outer().to_float(ms.float16)
    net.inner.to_float(ms.float32)
    assert net(Tensor(X)).dtype == ms.float32
