"""ops.composite.multinomial is ops.multinomial, as in MindSpore, and works inside construct."""
import numpy as np

from cellgraph import Tensor, nn, ops
from cellgraph.ops import composite as C


class _Net(nn.Cell):
    def __init__(self, samples):
        super().__init__()
        self.samples = samples

    def construct(self, x):
        return C.multinomial(x, self.samples, True, 20)


def test_composite_multinomial_in_a_graph():
    assert C.multinomial is ops.multinomial
    row = Tensor(np.array([0.9, 0.2], np.float32))
    rows = Tensor(np.array([[0.9, 0.2], [0.9, 0.2]], np.float32))
    assert _Net(2)(row).shape == (2,)
    out = _Net(6)(rows)
    assert out.shape == (2, 6) and set(out.asnumpy().ravel().tolist()) <= {0, 1}
