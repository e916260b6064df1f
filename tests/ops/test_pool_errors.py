"""A pooling window larger than the padded input raises MindSpore 2.10's errors: AvgPool its CPU
kernel's RuntimeError naming the smaller output size, MaxPool a ValueError."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn, ops


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
def test_a_window_larger_than_the_input(graph):
    x = Tensor(np.ones((2, 3, 4, 6), np.float32))
    words = ("For 'AvgPool' op, H_out/W_out must be positive, but H_out/W_out is {}, please check "
             "input and parameters of op")
    for layer, size in ((nn.AvgPool2d(7, 1), -2), (nn.AvgPool2d((5, 3), 1), 0),
                        (nn.AvgPool2d((3, 9), 2), -1), (ops.AvgPool(5, 1), 0)):
        run = ms.jit(lambda t, layer=layer: layer(t)) if graph else layer
        with pytest.raises(RuntimeError) as info:
            run(x)
        assert type(info.value).__name__ == "RuntimeError"
        assert str(info.value).startswith(words.format(size))
    with pytest.raises(ValueError):
        nn.MaxPool2d(5, 1)(x)
    padded = nn.AvgPool2d(3, 1, pad_mode="pad", padding=1)(Tensor(np.ones((1, 1, 1, 1), np.float32)))
    assert padded.shape == (1, 1, 1, 1)
