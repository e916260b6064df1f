"""nn.layer.CosineSimilarity, with MindSpore 2.10's values; nn.CosineSimilarity stays the
metric, as MindSpore's."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Tensor, nn

X1 = Tensor([[1.0, 3.0, 4.0, 7.0], [2.0, 4.0, 2.0, 5.0], [3.0, 1.0, 5.0, 8.0]])
X2 = Tensor([[2.0, 4.0, 2.0, 5.0], [3.0, 1.0, 5.0, 8.0], [1.0, 3.0, 4.0, 7.0]])


class _Net(nn.Cell):
    def __init__(self, **kwargs):
        super().__init__()
        self.similarity = nn.layer.CosineSimilarity(**kwargs)

    def construct(self, a, b):
        return self.similarity(a, b)


def test_values_as_mindspore():
    np.testing.assert_allclose(nn.layer.CosineSimilarity()(X1, X2).asnumpy(),
                               [0.9402562, 0.8614609, 0.9516245], rtol=1e-6)
    np.testing.assert_allclose(_Net(dim=0)(X1, X2).asnumpy(),
                               [0.78571427, 0.7307692, 0.84444445, 0.9492754], rtol=1e-6)
    np.testing.assert_allclose(_Net()(X1, X1 * 0).asnumpy(), [0.0, 0.0, 0.0])
    np.testing.assert_allclose(_Net(eps=0.0)(X1, X1 * 0).asnumpy(), [0.0, 0.0, 0.0])


def test_refuses_a_non_tensor_and_nn_spelling_is_the_metric():
    with pytest.raises(TypeError, match="For 'CosineSimilarity', 'x2' must be a tensor, but got "
                                        "<class 'float'>"):
        nn.layer.CosineSimilarity()(X1, 1.0)
    assert nn.CosineSimilarity is ms.train.metrics.CosineSimilarity
