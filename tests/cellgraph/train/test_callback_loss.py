"""`train.callback._callback._handle_loss`, which MindSpore's callbacks (and user callbacks
that import it) read the loss with."""
import numpy as np

from cellgraph import Tensor
from cellgraph.train.callback._callback import _handle_loss


def test_handle_loss_as_in_mindspore():
    # MindSpore 2.10: a tuple's first Tensor as is, a Tensor's mean as a float, else unchanged
    first = Tensor(np.array([1.0, 3.0]))
    assert _handle_loss((first, 2)) is first
    value = _handle_loss(Tensor(np.array([1.0, 2.0], np.float32)))
    assert isinstance(value, float) and value == 1.5
    assert _handle_loss(5) == 5
    assert _handle_loss([1, 2]) == [1, 2]
