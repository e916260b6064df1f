"""Calling a Cell in graph mode: keyword arguments bind like Python's, Parameter.value() reads
the Parameter."""
import numpy as np
import pytest

import cellgraph as ms
from cellgraph import Parameter, Tensor, nn


class Affine(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bias = Parameter(Tensor(np.array([0.5])), name="bias")

    def construct(self, x, scale=2.0, *extra):
        out = x * scale + self.bias.value()
        for e in extra:
            out = out + e
        return out


def test_keyword_arguments_bind_to_construct_parameters():
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor(np.array([1.0, 2.0]))
    net = Affine()
    np.testing.assert_allclose(net(x, scale=3.0).asnumpy(), [3.5, 6.5])
    np.testing.assert_allclose(net(x=x).asnumpy(), [2.5, 4.5])
    np.testing.assert_allclose(net(x, 3.0).asnumpy(), [3.5, 6.5])
    np.testing.assert_allclose(net(x, 1.0, x, x).asnumpy(), [3.5, 6.5])


def test_an_unknown_keyword_is_an_argument_error():
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(TypeError, match="Affine.construct"):
        Affine()(Tensor(np.array([1.0])), shift=1.0)


def test_parameter_value_reads_the_current_value():
    net = Affine()
    net.bias.set_data(np.array([-1.0]))
    np.testing.assert_allclose(net(Tensor(np.array([1.0]))).asnumpy(), [1.0])
    np.testing.assert_allclose(net.bias.value().asnumpy(), [-1.0])
